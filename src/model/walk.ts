// Generic traversal of model nodes: direct children, signature and anonymous individuals.

import type { AnonymousIndividual, Entity, Node } from './terms.js';
import { annotationProperty, ANY_COMPOUND, datatype, isEntity, otherKinds, type Axiom, ANY_AXIOM } from './terms.js';
import { unreachable } from '../util/unreachable.js';

/** Direct child nodes of a node, in a stable order (annotations first for axioms). */
export function children(n: Node): readonly Node[] {
  switch (n.kind) {
    case 'Class':
    case 'ObjectProperty':
    case 'DataProperty':
    case 'AnnotationProperty':
    case 'NamedIndividual':
    case 'Datatype':
    case 'AnonymousIndividual':
    case 'IRI':
    case 'Variable':
      return [];
    case 'Literal':
      return [];
    case 'ObjectInverseOf':
      return [n.property];
    case 'DataIntersectionOf':
    case 'DataUnionOf':
    case 'ObjectIntersectionOf':
    case 'ObjectUnionOf':
      return n.operands;
    case 'DataComplementOf':
    case 'ObjectComplementOf':
      return [n.operand];
    case 'DataOneOf':
      return n.literals;
    case 'FacetRestriction':
      return [n.value];
    case 'DatatypeRestriction':
      return [n.datatype, ...n.restrictions];
    case 'ObjectOneOf':
      return n.individuals;
    case 'ObjectSomeValuesFrom':
    case 'ObjectAllValuesFrom':
      return [n.property, n.filler];
    case 'ObjectHasValue':
      return [n.property, n.individual];
    case 'ObjectHasSelf':
      return [n.property];
    case 'ObjectMinCardinality':
    case 'ObjectMaxCardinality':
    case 'ObjectExactCardinality':
    case 'DataMinCardinality':
    case 'DataMaxCardinality':
    case 'DataExactCardinality':
    case 'DataSomeValuesFrom':
    case 'DataAllValuesFrom':
      return [n.property, n.filler];
    case 'DataHasValue':
      return [n.property, n.value];
    case 'Annotation':
      return [...n.annotations, n.property, n.value];
    case 'ClassAtom':
      return [n.cls, n.arg];
    case 'DataRangeAtom':
      return [n.range, n.arg];
    case 'ObjectPropertyAtom':
    case 'DataPropertyAtom':
      return [n.property, n.first, n.second];
    case 'BuiltInAtom':
      return n.args;
    case 'SameIndividualAtom':
    case 'DifferentIndividualsAtom':
      return [n.first, n.second];
    // axioms
    case 'Declaration':
      return [...n.annotations, n.entity];
    case 'SubClassOf':
    case 'SubObjectPropertyOf':
    case 'SubDataPropertyOf':
    case 'SubAnnotationPropertyOf':
      return [...n.annotations, n.sub, n.sup];
    case 'EquivalentClasses':
    case 'DisjointClasses':
      return [...n.annotations, ...n.classes];
    case 'DisjointUnion':
      return [...n.annotations, n.cls, ...n.classes];
    case 'SubPropertyChainOf':
      return [...n.annotations, ...n.chain, n.sup];
    case 'EquivalentObjectProperties':
    case 'DisjointObjectProperties':
    case 'EquivalentDataProperties':
    case 'DisjointDataProperties':
      return [...n.annotations, ...n.properties];
    case 'InverseObjectProperties':
      return [...n.annotations, n.first, n.second];
    case 'ObjectPropertyDomain':
    case 'DataPropertyDomain':
      return [...n.annotations, n.property, n.domain];
    case 'ObjectPropertyRange':
    case 'DataPropertyRange':
      return [...n.annotations, n.property, n.range];
    case 'AnnotationPropertyDomain':
    case 'AnnotationPropertyRange':
      return [...n.annotations, n.property];
    case 'FunctionalObjectProperty':
    case 'InverseFunctionalObjectProperty':
    case 'ReflexiveObjectProperty':
    case 'IrreflexiveObjectProperty':
    case 'SymmetricObjectProperty':
    case 'AsymmetricObjectProperty':
    case 'TransitiveObjectProperty':
    case 'FunctionalDataProperty':
      return [...n.annotations, n.property];
    case 'DatatypeDefinition':
      return [...n.annotations, n.datatype, n.range];
    case 'HasKey':
      return [...n.annotations, n.cls, ...n.objectProperties, ...n.dataProperties];
    case 'SameIndividual':
    case 'DifferentIndividuals':
      return [...n.annotations, ...n.individuals];
    case 'ClassAssertion':
      return [...n.annotations, n.cls, n.individual];
    case 'ObjectPropertyAssertion':
    case 'NegativeObjectPropertyAssertion':
      return [...n.annotations, n.property, n.subject, n.object];
    case 'DataPropertyAssertion':
    case 'NegativeDataPropertyAssertion':
      return [...n.annotations, n.property, n.subject, n.value];
    case 'AnnotationAssertion':
      return [...n.annotations, n.property, n.subject, n.value];
    case 'DLSafeRule':
      return [...n.annotations, ...n.body, ...n.head];
    default:
      return unreachable(n);
  }
}

/** Calls `visit` on each direct child of a node, without allocating (hot path of index builds). */
export function forEachChild(n: Node, visit: (c: Node) => void): void {
  if ('annotations' in n) for (const a of n.annotations) visit(a);
  switch (n.kind) {
    case 'Annotation':
      visit(n.property);
      visit(n.value);
      return;
    case 'Declaration':
      visit(n.entity);
      return;
    case 'ObjectInverseOf':
      visit(n.property);
      return;
    case 'DataComplementOf':
    case 'ObjectComplementOf':
      visit(n.operand);
      return;
    case 'FacetRestriction':
      visit(n.value);
      return;
    case 'ObjectHasSelf':
      visit(n.property);
      return;
    case 'ObjectHasValue':
      visit(n.property);
      visit(n.individual);
      return;
    case 'DataHasValue':
      visit(n.property);
      visit(n.value);
      return;
    case 'ObjectSomeValuesFrom':
    case 'ObjectAllValuesFrom':
    case 'DataSomeValuesFrom':
    case 'DataAllValuesFrom':
    case 'ObjectMinCardinality':
    case 'ObjectMaxCardinality':
    case 'ObjectExactCardinality':
    case 'DataMinCardinality':
    case 'DataMaxCardinality':
    case 'DataExactCardinality':
      visit(n.property);
      visit(n.filler);
      return;
    case 'SubClassOf':
    case 'SubObjectPropertyOf':
    case 'SubDataPropertyOf':
    case 'SubAnnotationPropertyOf':
      visit(n.sub);
      visit(n.sup);
      return;
    case 'ClassAssertion':
      visit(n.cls);
      visit(n.individual);
      return;
    case 'ObjectPropertyAssertion':
    case 'NegativeObjectPropertyAssertion':
      visit(n.property);
      visit(n.subject);
      visit(n.object);
      return;
    case 'DataPropertyAssertion':
    case 'NegativeDataPropertyAssertion':
    case 'AnnotationAssertion':
      visit(n.property);
      visit(n.subject);
      visit(n.value);
      return;
    default:
      // Lists, leaves and the rest: what `children` gives, whose switch names every kind.
      for (const c of children(n)) if (c.kind !== 'Annotation') visit(c);
  }
}

/**
 * The entities a node mentions (OWL 2 signature): every class, property, individual and datatype,
 * including annotation properties and the datatypes of literals. IRIs that are only annotation subjects
 * or values are not entities.
 */
export function signature(n: Node): readonly Entity[] {
  const set = new Set<Entity>();
  collect(n, set, null);
  return [...set];
}

/** Anonymous individuals mentioned anywhere in a node (annotation subjects and values included). */
export function anonymousIndividuals(n: Node, into: Set<AnonymousIndividual> = new Set()): Set<AnonymousIndividual> {
  collect(n, null, into);
  return into;
}

/** Signature and anonymous individuals of a node in one walk. */
export function collect(n: Node, entities: Set<Entity> | null, anons: Set<AnonymousIndividual> | null): void {
  switch (n.kind) {
    case 'Class':
    case 'ObjectProperty':
    case 'DataProperty':
    case 'AnnotationProperty':
    case 'NamedIndividual':
    case 'Datatype':
      entities?.add(n);
      return;
    case 'Literal':
      entities?.add(datatype(n.datatype));
      return;
    case 'AnonymousIndividual':
      anons?.add(n);
      return;
    case 'IRI':
    case 'Variable':
      return;
    case 'AnnotationPropertyDomain':
    case 'AnnotationPropertyRange':
      entities?.add(annotationProperty(n.property.iri));
      break;
    default:
      otherKinds(n, ANY_COMPOUND);
  }
  forEachChild(n, (c) => collect(c, entities, anons));
}

/** The named terms an axiom is about; an axiom is re-axiomatization when every one of them is imported. */
export function axiomSubjects(a: Axiom): readonly Entity[] {
  const named = (xs: readonly Node[]): Entity[] => xs.filter(isEntity);
  switch (a.kind) {
    case 'SubClassOf':
      return a.sub.kind === 'Class' ? [a.sub] : [];
    case 'EquivalentClasses':
      return named(a.classes);
    case 'DisjointUnion':
      return [a.cls];
    case 'HasKey':
      return a.cls.kind === 'Class' ? [a.cls] : [];
    case 'SubObjectPropertyOf':
    case 'SubDataPropertyOf':
      return named([a.sub]);
    case 'SubPropertyChainOf':
      return named([a.sup]);
    case 'EquivalentObjectProperties':
    case 'EquivalentDataProperties':
      return named(a.properties);
    case 'InverseObjectProperties':
      return named([a.first, a.second]);
    case 'DatatypeDefinition':
      return [a.datatype];
    case 'ClassAssertion':
      return named([a.individual]);
    case 'ObjectPropertyAssertion':
    case 'NegativeObjectPropertyAssertion':
    case 'DataPropertyAssertion':
    case 'NegativeDataPropertyAssertion':
      return named([a.subject]);
    case 'SameIndividual':
      return named(a.individuals);
    case 'Declaration':
    case 'DisjointClasses':
    case 'DisjointObjectProperties':
    case 'DisjointDataProperties':
    case 'DifferentIndividuals':
    case 'AnnotationAssertion':
    case 'SubAnnotationPropertyOf':
    case 'AnnotationPropertyDomain':
    case 'AnnotationPropertyRange':
    case 'DLSafeRule':
      return [];
    default:
      otherKinds(a, ANY_AXIOM);
      return named([a.property]);
  }
}
