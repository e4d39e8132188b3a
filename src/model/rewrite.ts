// Rewriting one IRI to another inside model nodes: every entity of that IRI (all punned kinds), IRIs used as
// annotation subjects or values (nested annotations included), annotation-property domains and ranges, and
// the datatype of literals. Rule variables, built-in atom IRIs and facets are not entities and stay as they are.
// Nodes are interned, so a rewritten node equal to an existing one is that node (a rename onto an existing IRI
// merges the two entities).

import * as t from './terms.js';
import type { Annotation, AnnotationValue, Axiom, IRI, Node } from './terms.js';
import type { Ontology } from './ontology.js';
import { forEachChild } from './walk.js';
import { unreachable } from '../util/unreachable.js';

/** True when the node mentions `iri` anywhere a rename rewrites it. */
export function mentionsIri(n: Node, iri: IRI): boolean {
  switch (n.kind) {
    case 'Class':
    case 'ObjectProperty':
    case 'DataProperty':
    case 'AnnotationProperty':
    case 'NamedIndividual':
    case 'Datatype':
    case 'IRI':
      return n.iri === iri;
    case 'Literal':
      return n.datatype === iri;
    case 'AnnotationPropertyDomain':
      if (n.domain === iri) return true;
      break;
    case 'AnnotationPropertyRange':
      if (n.range === iri) return true;
      break;
    case 'FunctionalObjectProperty':
    case 'InverseFunctionalObjectProperty':
    case 'ReflexiveObjectProperty':
    case 'IrreflexiveObjectProperty':
    case 'SymmetricObjectProperty':
    case 'AsymmetricObjectProperty':
    case 'TransitiveObjectProperty':
    case 'Declaration':
    case 'SubClassOf':
    case 'EquivalentClasses':
    case 'DisjointClasses':
    case 'DisjointUnion':
    case 'SubObjectPropertyOf':
    case 'SubPropertyChainOf':
    case 'EquivalentObjectProperties':
    case 'DisjointObjectProperties':
    case 'InverseObjectProperties':
    case 'ObjectPropertyDomain':
    case 'ObjectPropertyRange':
    case 'SubDataPropertyOf':
    case 'EquivalentDataProperties':
    case 'DisjointDataProperties':
    case 'DataPropertyDomain':
    case 'DataPropertyRange':
    case 'FunctionalDataProperty':
    case 'DatatypeDefinition':
    case 'HasKey':
    case 'SameIndividual':
    case 'DifferentIndividuals':
    case 'ClassAssertion':
    case 'ObjectPropertyAssertion':
    case 'NegativeObjectPropertyAssertion':
    case 'DataPropertyAssertion':
    case 'NegativeDataPropertyAssertion':
    case 'AnnotationAssertion':
    case 'SubAnnotationPropertyOf':
    case 'DLSafeRule':
    case 'ObjectMinCardinality':
    case 'ObjectMaxCardinality':
    case 'ObjectExactCardinality':
    case 'DataMinCardinality':
    case 'DataMaxCardinality':
    case 'DataExactCardinality':
    case 'AnonymousIndividual':
    case 'ObjectInverseOf':
    case 'DataIntersectionOf':
    case 'DataUnionOf':
    case 'DataComplementOf':
    case 'DataOneOf':
    case 'DatatypeRestriction':
    case 'FacetRestriction':
    case 'ObjectIntersectionOf':
    case 'ObjectUnionOf':
    case 'ObjectComplementOf':
    case 'ObjectOneOf':
    case 'ObjectSomeValuesFrom':
    case 'ObjectAllValuesFrom':
    case 'ObjectHasValue':
    case 'ObjectHasSelf':
    case 'DataSomeValuesFrom':
    case 'DataAllValuesFrom':
    case 'DataHasValue':
    case 'Annotation':
    case 'Variable':
    case 'ClassAtom':
    case 'DataRangeAtom':
    case 'ObjectPropertyAtom':
    case 'DataPropertyAtom':
    case 'BuiltInAtom':
    case 'SameIndividualAtom':
    case 'DifferentIndividualsAtom':
      break;
    default:
      return unreachable(n);
  }
  let found = false;
  forEachChild(n, (c) => {
    if (!found && mentionsIri(c, iri)) found = true;
  });
  return found;
}

/**
 * The axioms of an ontology that mention `iri`. The reference index answers for entities; an IRI can
 * otherwise hide only in annotation assertions, annotation-property axioms and axiom annotations.
 */
export function axiomsMentioning(o: Ontology, iri: IRI): Axiom[] {
  const referencing = new Set<Axiom>();
  for (const kind of t.ENTITY_KINDS) for (const a of o.index.referencing.get(t.entity(kind, iri)) ?? []) referencing.add(a);
  const out: Axiom[] = [];
  for (const a of o.axioms()) {
    if (referencing.has(a)) out.push(a);
    else if (mayHideIri(a) && mentionsIri(a, iri)) out.push(a);
  }
  return out;
}

function mayHideIri(a: Axiom): boolean {
  return (
    a.annotations.length > 0 ||
    a.kind === 'AnnotationAssertion' ||
    a.kind === 'AnnotationPropertyDomain' ||
    a.kind === 'AnnotationPropertyRange'
  );
}

/** The node with every mention of `from` replaced by `to`; the node itself when it does not mention `from`. */
export function renameIri<N extends Node>(n: N, from: IRI, to: IRI): N {
  return new IriRenamer(from, to).node(n);
}

/** One rename, memoized per node (shared subexpressions are rewritten once). */
class IriRenamer {
  private readonly memo = new Map<Node, Node>();

  constructor(
    private readonly from: IRI,
    private readonly to: IRI,
  ) {}

  node<N extends Node>(n: N): N {
    let out = this.memo.get(n);
    if (out === undefined) {
      out = mentionsIri(n, this.from) ? this.rebuild(n) : n;
      this.memo.set(n, out);
    }
    return out as N;
  }

  private list<N extends Node>(ns: readonly N[]): N[] {
    return ns.map((x) => this.node(x));
  }

  private iri(iri: IRI): IRI {
    return iri === this.from ? this.to : iri;
  }

  private anns(a: { readonly annotations: readonly Annotation[] }): Annotation[] {
    return this.list(a.annotations);
  }

  private rebuild(n: Node): Node {
    const r = <M extends Node>(x: M): M => this.node(x);
    switch (n.kind) {
      case 'Class':
      case 'ObjectProperty':
      case 'DataProperty':
      case 'AnnotationProperty':
      case 'NamedIndividual':
      case 'Datatype':
        return t.entity(n.kind, this.iri(n.iri));
      case 'IRI':
        return t.iriNode(this.iri(n.iri));
      case 'Literal':
        return t.literal(n.lex, n.lang === '' ? this.iri(n.datatype) : undefined, n.lang === '' ? undefined : n.lang);
      case 'AnonymousIndividual':
      case 'Variable':
        return n;
      case 'ObjectInverseOf':
        return t.objectInverseOf(r(n.property));
      case 'DataIntersectionOf':
        return t.dataIntersectionOf(this.list(n.operands));
      case 'DataUnionOf':
        return t.dataUnionOf(this.list(n.operands));
      case 'DataComplementOf':
        return t.dataComplementOf(r(n.operand));
      case 'DataOneOf':
        return t.dataOneOf(this.list(n.literals));
      case 'FacetRestriction':
        return t.facetRestriction(n.facet, r(n.value));
      case 'DatatypeRestriction':
        return t.datatypeRestriction(r(n.datatype), this.list(n.restrictions));
      case 'ObjectIntersectionOf':
        return t.objectIntersectionOf(this.list(n.operands));
      case 'ObjectUnionOf':
        return t.objectUnionOf(this.list(n.operands));
      case 'ObjectComplementOf':
        return t.objectComplementOf(r(n.operand));
      case 'ObjectOneOf':
        return t.objectOneOf(this.list(n.individuals));
      case 'ObjectSomeValuesFrom':
        return t.objectSomeValuesFrom(r(n.property), r(n.filler));
      case 'ObjectAllValuesFrom':
        return t.objectAllValuesFrom(r(n.property), r(n.filler));
      case 'ObjectHasValue':
        return t.objectHasValue(r(n.property), r(n.individual));
      case 'ObjectHasSelf':
        return t.objectHasSelf(r(n.property));
      case 'ObjectMinCardinality':
        return t.objectMinCardinality(n.cardinality, r(n.property), r(n.filler));
      case 'ObjectMaxCardinality':
        return t.objectMaxCardinality(n.cardinality, r(n.property), r(n.filler));
      case 'ObjectExactCardinality':
        return t.objectExactCardinality(n.cardinality, r(n.property), r(n.filler));
      case 'DataSomeValuesFrom':
        return t.dataSomeValuesFrom(r(n.property), r(n.filler));
      case 'DataAllValuesFrom':
        return t.dataAllValuesFrom(r(n.property), r(n.filler));
      case 'DataHasValue':
        return t.dataHasValue(r(n.property), r(n.value));
      case 'DataMinCardinality':
        return t.dataMinCardinality(n.cardinality, r(n.property), r(n.filler));
      case 'DataMaxCardinality':
        return t.dataMaxCardinality(n.cardinality, r(n.property), r(n.filler));
      case 'DataExactCardinality':
        return t.dataExactCardinality(n.cardinality, r(n.property), r(n.filler));
      case 'Annotation':
        return t.annotation(r(n.property), r(n.value) as AnnotationValue, this.anns(n));
      case 'ClassAtom':
        return t.classAtom(r(n.cls), r(n.arg));
      case 'DataRangeAtom':
        return t.dataRangeAtom(r(n.range), r(n.arg));
      case 'ObjectPropertyAtom':
        return t.objectPropertyAtom(r(n.property), r(n.first), r(n.second));
      case 'DataPropertyAtom':
        return t.dataPropertyAtom(r(n.property), r(n.first), r(n.second));
      case 'BuiltInAtom':
        return t.builtInAtom(n.iri, this.list(n.args));
      case 'SameIndividualAtom':
        return t.sameIndividualAtom(r(n.first), r(n.second));
      case 'DifferentIndividualsAtom':
        return t.differentIndividualsAtom(r(n.first), r(n.second));
      case 'FunctionalObjectProperty':
      case 'InverseFunctionalObjectProperty':
      case 'ReflexiveObjectProperty':
      case 'IrreflexiveObjectProperty':
      case 'SymmetricObjectProperty':
      case 'AsymmetricObjectProperty':
      case 'TransitiveObjectProperty':
      case 'Declaration':
      case 'SubClassOf':
      case 'EquivalentClasses':
      case 'DisjointClasses':
      case 'DisjointUnion':
      case 'SubObjectPropertyOf':
      case 'SubPropertyChainOf':
      case 'EquivalentObjectProperties':
      case 'DisjointObjectProperties':
      case 'InverseObjectProperties':
      case 'ObjectPropertyDomain':
      case 'ObjectPropertyRange':
      case 'SubDataPropertyOf':
      case 'EquivalentDataProperties':
      case 'DisjointDataProperties':
      case 'DataPropertyDomain':
      case 'DataPropertyRange':
      case 'FunctionalDataProperty':
      case 'DatatypeDefinition':
      case 'HasKey':
      case 'SameIndividual':
      case 'DifferentIndividuals':
      case 'ClassAssertion':
      case 'ObjectPropertyAssertion':
      case 'NegativeObjectPropertyAssertion':
      case 'DataPropertyAssertion':
      case 'NegativeDataPropertyAssertion':
      case 'AnnotationAssertion':
      case 'SubAnnotationPropertyOf':
      case 'AnnotationPropertyDomain':
      case 'AnnotationPropertyRange':
      case 'DLSafeRule':
        return this.axiom(n);
      default:
        return unreachable(n);
    }
  }

  private axiom(a: Axiom): Axiom {
    const r = <M extends Node>(x: M): M => this.node(x);
    const anns = this.anns(a);
    switch (a.kind) {
      case 'Declaration':
        return t.declaration(r(a.entity), anns);
      case 'SubClassOf':
        return t.subClassOf(r(a.sub), r(a.sup), anns);
      case 'EquivalentClasses':
        return t.equivalentClasses(this.list(a.classes), anns);
      case 'DisjointClasses':
        return t.disjointClasses(this.list(a.classes), anns);
      case 'DisjointUnion':
        return t.disjointUnion(r(a.cls), this.list(a.classes), anns);
      case 'SubObjectPropertyOf':
        return t.subObjectPropertyOf(r(a.sub), r(a.sup), anns);
      case 'SubPropertyChainOf':
        return t.subPropertyChainOf(this.list(a.chain), r(a.sup), anns);
      case 'EquivalentObjectProperties':
        return t.equivalentObjectProperties(this.list(a.properties), anns);
      case 'DisjointObjectProperties':
        return t.disjointObjectProperties(this.list(a.properties), anns);
      case 'InverseObjectProperties':
        return t.inverseObjectProperties(r(a.first), r(a.second), anns);
      case 'ObjectPropertyDomain':
        return t.objectPropertyDomain(r(a.property), r(a.domain), anns);
      case 'ObjectPropertyRange':
        return t.objectPropertyRange(r(a.property), r(a.range), anns);
      case 'FunctionalObjectProperty':
      case 'InverseFunctionalObjectProperty':
      case 'ReflexiveObjectProperty':
      case 'IrreflexiveObjectProperty':
      case 'SymmetricObjectProperty':
      case 'AsymmetricObjectProperty':
      case 'TransitiveObjectProperty':
        return t.objectPropertyCharacteristic(a.kind, r(a.property), anns);
      case 'SubDataPropertyOf':
        return t.subDataPropertyOf(r(a.sub), r(a.sup), anns);
      case 'EquivalentDataProperties':
        return t.equivalentDataProperties(this.list(a.properties), anns);
      case 'DisjointDataProperties':
        return t.disjointDataProperties(this.list(a.properties), anns);
      case 'DataPropertyDomain':
        return t.dataPropertyDomain(r(a.property), r(a.domain), anns);
      case 'DataPropertyRange':
        return t.dataPropertyRange(r(a.property), r(a.range), anns);
      case 'FunctionalDataProperty':
        return t.functionalDataProperty(r(a.property), anns);
      case 'DatatypeDefinition':
        return t.datatypeDefinition(r(a.datatype), r(a.range), anns);
      case 'HasKey':
        return t.hasKey(r(a.cls), this.list(a.objectProperties), this.list(a.dataProperties), anns);
      case 'SameIndividual':
        return t.sameIndividual(this.list(a.individuals), anns);
      case 'DifferentIndividuals':
        return t.differentIndividuals(this.list(a.individuals), anns);
      case 'ClassAssertion':
        return t.classAssertion(r(a.cls), r(a.individual), anns);
      case 'ObjectPropertyAssertion':
        return t.objectPropertyAssertion(r(a.property), r(a.subject), r(a.object), anns);
      case 'NegativeObjectPropertyAssertion':
        return t.negativeObjectPropertyAssertion(r(a.property), r(a.subject), r(a.object), anns);
      case 'DataPropertyAssertion':
        return t.dataPropertyAssertion(r(a.property), r(a.subject), r(a.value), anns);
      case 'NegativeDataPropertyAssertion':
        return t.negativeDataPropertyAssertion(r(a.property), r(a.subject), r(a.value), anns);
      case 'AnnotationAssertion':
        return t.annotationAssertion(r(a.property), r(a.subject), r(a.value), anns);
      case 'SubAnnotationPropertyOf':
        return t.subAnnotationPropertyOf(r(a.sub), r(a.sup), anns);
      case 'AnnotationPropertyDomain':
        return t.annotationPropertyDomain(r(a.property), this.iri(a.domain), anns);
      case 'AnnotationPropertyRange':
        return t.annotationPropertyRange(r(a.property), this.iri(a.range), anns);
      case 'DLSafeRule':
        return t.dlSafeRule(this.list(a.body), this.list(a.head), anns);
      default:
        return unreachable(a);
    }
  }
}
