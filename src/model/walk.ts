// Generic traversal of model nodes: direct children, signature and anonymous individuals.

import type { AnonymousIndividual, Entity, Node } from './terms.js';
import { annotationProperty, datatype } from './terms.js';

/** Direct child nodes of a node, in a stable order (annotations first for axioms). */
export function children(n: Node): readonly Node[] {
  switch (n.kind) {
    case 'Class': case 'ObjectProperty': case 'DataProperty': case 'AnnotationProperty': case 'NamedIndividual':
    case 'Datatype': case 'AnonymousIndividual': case 'IRI': case 'Variable':
      return [];
    case 'Literal': return [];
    case 'ObjectInverseOf': return [n.property];
    case 'DataIntersectionOf': case 'DataUnionOf': case 'ObjectIntersectionOf': case 'ObjectUnionOf':
      return n.operands;
    case 'DataComplementOf': case 'ObjectComplementOf': return [n.operand];
    case 'DataOneOf': return n.literals;
    case 'FacetRestriction': return [n.value];
    case 'DatatypeRestriction': return [n.datatype, ...n.restrictions];
    case 'ObjectOneOf': return n.individuals;
    case 'ObjectSomeValuesFrom': case 'ObjectAllValuesFrom': return [n.property, n.filler];
    case 'ObjectHasValue': return [n.property, n.individual];
    case 'ObjectHasSelf': return [n.property];
    case 'ObjectMinCardinality': case 'ObjectMaxCardinality': case 'ObjectExactCardinality':
    case 'DataMinCardinality': case 'DataMaxCardinality': case 'DataExactCardinality':
    case 'DataSomeValuesFrom': case 'DataAllValuesFrom':
      return [n.property, n.filler];
    case 'DataHasValue': return [n.property, n.value];
    case 'Annotation': return [...n.annotations, n.property, n.value];
    case 'ClassAtom': return [n.cls, n.arg];
    case 'DataRangeAtom': return [n.range, n.arg];
    case 'ObjectPropertyAtom': case 'DataPropertyAtom': return [n.property, n.first, n.second];
    case 'BuiltInAtom': return n.args;
    case 'SameIndividualAtom': case 'DifferentIndividualsAtom': return [n.first, n.second];
    // axioms
    case 'Declaration': return [...n.annotations, n.entity];
    case 'SubClassOf': case 'SubObjectPropertyOf': case 'SubDataPropertyOf': case 'SubAnnotationPropertyOf':
      return [...n.annotations, n.sub, n.sup];
    case 'EquivalentClasses': case 'DisjointClasses': return [...n.annotations, ...n.classes];
    case 'DisjointUnion': return [...n.annotations, n.cls, ...n.classes];
    case 'SubPropertyChainOf': return [...n.annotations, ...n.chain, n.sup];
    case 'EquivalentObjectProperties': case 'DisjointObjectProperties':
    case 'EquivalentDataProperties': case 'DisjointDataProperties':
      return [...n.annotations, ...n.properties];
    case 'InverseObjectProperties': return [...n.annotations, n.first, n.second];
    case 'ObjectPropertyDomain': case 'DataPropertyDomain': return [...n.annotations, n.property, n.domain];
    case 'ObjectPropertyRange': case 'DataPropertyRange': return [...n.annotations, n.property, n.range];
    case 'AnnotationPropertyDomain': case 'AnnotationPropertyRange': return [...n.annotations, n.property];
    case 'FunctionalObjectProperty': case 'InverseFunctionalObjectProperty': case 'ReflexiveObjectProperty':
    case 'IrreflexiveObjectProperty': case 'SymmetricObjectProperty': case 'AsymmetricObjectProperty':
    case 'TransitiveObjectProperty': case 'FunctionalDataProperty':
      return [...n.annotations, n.property];
    case 'DatatypeDefinition': return [...n.annotations, n.datatype, n.range];
    case 'HasKey': return [...n.annotations, n.cls, ...n.objectProperties, ...n.dataProperties];
    case 'SameIndividual': case 'DifferentIndividuals': return [...n.annotations, ...n.individuals];
    case 'ClassAssertion': return [...n.annotations, n.cls, n.individual];
    case 'ObjectPropertyAssertion': case 'NegativeObjectPropertyAssertion':
      return [...n.annotations, n.property, n.subject, n.object];
    case 'DataPropertyAssertion': case 'NegativeDataPropertyAssertion':
      return [...n.annotations, n.property, n.subject, n.value];
    case 'AnnotationAssertion': return [...n.annotations, n.property, n.subject, n.value];
    case 'DLSafeRule': return [...n.annotations, ...n.body, ...n.head];
  }
}

const signatureCache = new WeakMap<Node, readonly Entity[]>();

/**
 * The entities a node mentions (OWL 2 signature): every class, property, individual and datatype,
 * including annotation properties and the datatypes of literals. IRIs that are only annotation subjects
 * or values are not entities. Cached per node, since nodes are immutable and shared.
 */
export function signature(n: Node): readonly Entity[] {
  const cached = signatureCache.get(n);
  if (cached !== undefined) return cached;
  let result: readonly Entity[];
  switch (n.kind) {
    case 'Class': case 'ObjectProperty': case 'DataProperty': case 'AnnotationProperty': case 'NamedIndividual': case 'Datatype':
      result = [n];
      break;
    case 'Literal':
      result = [datatype(n.datatype)];
      break;
    case 'AnonymousIndividual': case 'IRI': case 'Variable':
      result = [];
      break;
    case 'BuiltInAtom': {
      const set = new Set<Entity>();
      for (const a of n.args) for (const e of signature(a)) set.add(e);
      result = [...set];
      break;
    }
    default: {
      const set = new Set<Entity>();
      for (const c of children(n)) for (const e of signature(c)) set.add(e);
      if (n.kind === 'AnnotationPropertyDomain' || n.kind === 'AnnotationPropertyRange') set.add(annotationProperty(n.property.iri));
      result = [...set];
    }
  }
  signatureCache.set(n, result);
  return result;
}

/** Anonymous individuals mentioned anywhere in a node (annotation subjects and values included). */
export function anonymousIndividuals(n: Node, into: Set<AnonymousIndividual> = new Set()): Set<AnonymousIndividual> {
  if (n.kind === 'AnonymousIndividual') into.add(n);
  else for (const c of children(n)) anonymousIndividuals(c, into);
  return into;
}
