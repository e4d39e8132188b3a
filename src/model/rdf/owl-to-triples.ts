// The forward mapping of "OWL 2 Web Ontology Language Mapping to RDF Graphs" (section 2, the function T):
// an ontology becomes a list of RDF triples, then an ordered graph that the serializers write.
//
// Determinism: axioms are translated in the order of their canonical line (render/axiom-lines.ts) and
// set-like operands in the order of their rendered text, so blank-node labels, list orders and the whole
// output depend only on the ontology's content, never on insertion order or interned node ids.

import type {
  Annotation,
  AnnotationSubject,
  AnnotationValue,
  AnonymousIndividual,
  Atom,
  Axiom,
  CharacteristicKind,
  ClassExpression,
  DArg,
  DataRange,
  Declaration,
  Entity,
  EntityKind,
  IArg,
  Individual,
  IRI,
  Literal,
  ObjectPropertyExpression,
} from '../terms.js';
import { declaration, literal } from '../terms.js';
import type { Ontology } from '../ontology.js';
import {
  BUILT_IN_ANNOTATION_PROPERTIES,
  BUILT_IN_DATATYPES,
  OWL,
  OWL_BOTTOM_DATA_PROPERTY,
  OWL_BOTTOM_OBJECT_PROPERTY,
  OWL_NOTHING,
  OWL_THING,
  OWL_TOP_DATA_PROPERTY,
  OWL_TOP_OBJECT_PROPERTY,
  RDF,
  RDFS,
  SWRL,
  XSD,
  XSD_BOOLEAN,
} from '../vocab.js';
import { anonymousHashes, LineRenderer } from '../render/axiom-lines.js';
import { signature } from '../walk.js';
import { unreachable } from '../../util/unreachable.js';

// ---------------------------------------------------------------- RDF terms

/** A blank node. `order` ranks it among the blank nodes of one translation (creation order). */
export class Blank {
  constructor(
    readonly label: string,
    readonly order: number,
    /** True for the blank node of an anonymous individual (it may be referenced many times). */
    readonly individual: boolean,
  ) {}
}

export type RdfSubject = IRI | Blank;
export type RdfObject = IRI | Blank | Literal;

export const isBlank = (t: RdfObject): t is Blank => t instanceof Blank;
export const isLiteral = (t: RdfObject): t is Literal => typeof t === 'object' && !(t instanceof Blank);

export const RDF_TYPE = RDF + 'type';
export const RDF_FIRST = RDF + 'first';
export const RDF_REST = RDF + 'rest';
export const RDF_NIL = RDF + 'nil';

const SUB_CLASS_OF = RDFS + 'subClassOf';
const SUB_PROPERTY_OF = RDFS + 'subPropertyOf';
const DOMAIN = RDFS + 'domain';
const RANGE = RDFS + 'range';
const RDFS_DATATYPE = RDFS + 'Datatype';
const XSD_NON_NEGATIVE_INTEGER = XSD + 'nonNegativeInteger';

const DECLARATION_TYPE: Record<EntityKind, IRI> = {
  Class: OWL + 'Class',
  ObjectProperty: OWL + 'ObjectProperty',
  DataProperty: OWL + 'DatatypeProperty',
  AnnotationProperty: OWL + 'AnnotationProperty',
  NamedIndividual: OWL + 'NamedIndividual',
  Datatype: RDFS_DATATYPE,
};

const CHARACTERISTIC_TYPE: Record<CharacteristicKind | 'FunctionalDataProperty', IRI> = {
  FunctionalObjectProperty: OWL + 'FunctionalProperty',
  InverseFunctionalObjectProperty: OWL + 'InverseFunctionalProperty',
  ReflexiveObjectProperty: OWL + 'ReflexiveProperty',
  IrreflexiveObjectProperty: OWL + 'IrreflexiveProperty',
  SymmetricObjectProperty: OWL + 'SymmetricProperty',
  AsymmetricObjectProperty: OWL + 'AsymmetricProperty',
  TransitiveObjectProperty: OWL + 'TransitiveProperty',
  FunctionalDataProperty: OWL + 'FunctionalProperty',
};

const CARDINALITY: Record<Extract<ClassExpression['kind'], `${string}Cardinality`>, readonly [unqualified: IRI, qualified: IRI]> = {
  ObjectMinCardinality: [OWL + 'minCardinality', OWL + 'minQualifiedCardinality'],
  ObjectMaxCardinality: [OWL + 'maxCardinality', OWL + 'maxQualifiedCardinality'],
  ObjectExactCardinality: [OWL + 'cardinality', OWL + 'qualifiedCardinality'],
  DataMinCardinality: [OWL + 'minCardinality', OWL + 'minQualifiedCardinality'],
  DataMaxCardinality: [OWL + 'maxCardinality', OWL + 'maxQualifiedCardinality'],
  DataExactCardinality: [OWL + 'cardinality', OWL + 'qualifiedCardinality'],
};

// ---------------------------------------------------------------- implicit declarations

const BUILT_IN_ENTITIES: ReadonlySet<IRI> = new Set([
  OWL_THING,
  OWL_NOTHING,
  OWL_TOP_OBJECT_PROPERTY,
  OWL_BOTTOM_OBJECT_PROPERTY,
  OWL_TOP_DATA_PROPERTY,
  OWL_BOTTOM_DATA_PROPERTY,
  ...BUILT_IN_DATATYPES,
  ...BUILT_IN_ANNOTATION_PROPERTIES,
]);

/**
 * The declarations the RDF writers add so that a reader types every entity back as it was: one for each
 * non-built-in entity of the axioms' signature that the ontology does not declare, sorted by IRI and kind.
 * Reading a written document therefore yields the ontology's axioms plus exactly these declarations.
 */
export function implicitDeclarations(o: Ontology): Declaration[] {
  const declared = new Set<Entity>();
  for (const a of o.axioms()) if (a.kind === 'Declaration') declared.add(a.entity);
  const missing = new Set<Entity>();
  for (const a of o.axioms()) {
    if (a.kind === 'Declaration') continue;
    for (const e of signature(a)) if (!declared.has(e) && !BUILT_IN_ENTITIES.has(e.iri)) missing.add(e);
  }
  return [...missing]
    .sort((x, y) => (x.iri < y.iri ? -1 : x.iri > y.iri ? 1 : x.kind < y.kind ? -1 : x.kind > y.kind ? 1 : 0))
    .map((e) => declaration(e));
}

// ---------------------------------------------------------------- canonical ordering

const byText = (a: { text: string }, b: { text: string }) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0);

/** A renderer naming anonymous individuals by the hash of the axioms around them, not by their labels. */
function canonicalRenderer(axioms: readonly Axiom[]): LineRenderer {
  const hash = anonymousHashes(axioms);
  return new LineRenderer((y) => '_:h' + (hash.get(y) ?? 'n' + y.nodeId));
}

// ---------------------------------------------------------------- the translation

/** The triples of an ontology, as three parallel arrays, with the node that stands for the ontology. */
export interface Triples {
  readonly s: RdfSubject[];
  readonly p: IRI[];
  readonly o: RdfObject[];
  readonly ontology: RdfSubject;
}

class Mapper {
  readonly s: RdfSubject[] = [];
  readonly p: IRI[] = [];
  readonly o: RdfObject[] = [];
  private blanks = 0;
  private readonly anons = new Map<AnonymousIndividual, Blank>();
  private readonly variables = new Set<IRI>();

  constructor(private readonly text: LineRenderer) {}

  triple(s: RdfSubject, p: IRI, o: RdfObject): void {
    this.s.push(s);
    this.p.push(p);
    this.o.push(o);
  }

  fresh(): Blank {
    const n = ++this.blanks;
    return new Blank('b' + n, n, false);
  }

  anonymous(x: AnonymousIndividual): Blank {
    let b = this.anons.get(x);
    if (b === undefined) {
      const n = ++this.blanks;
      b = new Blank('a' + n, n, true);
      this.anons.set(x, b);
    }
    return b;
  }

  list(items: readonly RdfObject[]): RdfObject {
    if (items.length === 0) return RDF_NIL;
    const head = this.fresh();
    let node = head;
    for (const [i, item] of items.entries()) {
      this.triple(node, RDF_FIRST, item);
      const next = i + 1 < items.length ? this.fresh() : null;
      this.triple(node, RDF_REST, next ?? RDF_NIL);
      if (next) node = next;
    }
    return head;
  }

  // ------------------------------------------------------------ sorted operand lists

  private sortedCEs(cs: readonly ClassExpression[]): ClassExpression[] {
    if (cs.length <= 1) return cs.slice();
    return cs
      .map((c) => ({ c, text: this.text.classExpression(c) }))
      .sort(byText)
      .map((x) => x.c);
  }

  private sortedDRs(ds: readonly DataRange[]): DataRange[] {
    if (ds.length <= 1) return ds.slice();
    return ds
      .map((d) => ({ d, text: this.text.dataRange(d) }))
      .sort(byText)
      .map((x) => x.d);
  }

  private sortedOPEs(ps: readonly ObjectPropertyExpression[]): ObjectPropertyExpression[] {
    if (ps.length <= 1) return ps.slice();
    return ps
      .map((p) => ({ p, text: this.text.ope(p) }))
      .sort(byText)
      .map((x) => x.p);
  }

  private sortedIndividuals(is: readonly Individual[]): Individual[] {
    if (is.length <= 1) return is.slice();
    return is
      .map((i) => ({ i, text: this.text.individual(i) }))
      .sort(byText)
      .map((x) => x.i);
  }

  private sortedIris<T extends { iri: IRI }>(xs: readonly T[]): T[] {
    return xs.slice().sort((a, b) => (a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : 0));
  }

  private sortedLiterals(ls: readonly Literal[]): Literal[] {
    return ls
      .map((l) => ({ l, text: this.text.annotationValue(l) }))
      .sort(byText)
      .map((x) => x.l);
  }

  private sortedAnnotations(anns: readonly Annotation[]): Annotation[] {
    if (anns.length <= 1) return anns.slice();
    return anns
      .map((a) => ({ a, text: this.text.annotation(a) }))
      .sort(byText)
      .map((x) => x.a);
  }

  private sortedAtoms(atoms: readonly Atom[]): Atom[] {
    return atoms
      .map((a) => ({ a, text: this.text.atom(a) }))
      .sort(byText)
      .map((x) => x.a);
  }

  // ------------------------------------------------------------ expressions

  individual(i: Individual): RdfObject {
    return i.kind === 'NamedIndividual' ? i.iri : this.anonymous(i);
  }

  ope(p: ObjectPropertyExpression): RdfSubject {
    if (p.kind === 'ObjectProperty') return p.iri;
    const x = this.fresh();
    this.triple(x, OWL + 'inverseOf', p.property.iri);
    return x;
  }

  dataRange(d: DataRange): RdfSubject {
    if (d.kind === 'Datatype') return d.iri;
    const x = this.fresh();
    this.triple(x, RDF_TYPE, RDFS_DATATYPE);
    switch (d.kind) {
      case 'DataIntersectionOf':
        this.triple(x, OWL + 'intersectionOf', this.list(this.sortedDRs(d.operands).map((o) => this.dataRange(o))));
        break;
      case 'DataUnionOf':
        this.triple(x, OWL + 'unionOf', this.list(this.sortedDRs(d.operands).map((o) => this.dataRange(o))));
        break;
      case 'DataComplementOf':
        this.triple(x, OWL + 'datatypeComplementOf', this.dataRange(d.operand));
        break;
      case 'DataOneOf':
        this.triple(x, OWL + 'oneOf', this.list(this.sortedLiterals(d.literals)));
        break;
      case 'DatatypeRestriction': {
        this.triple(x, OWL + 'onDatatype', d.datatype.iri);
        const facets = d.restrictions
          .map((r) => ({ r, text: r.facet + ' ' + this.text.annotationValue(r.value) }))
          .sort(byText)
          .map(({ r }) => {
            const y = this.fresh();
            this.triple(y, r.facet, r.value);
            return y;
          });
        this.triple(x, OWL + 'withRestrictions', this.list(facets));
        break;
      }
      default:
        return unreachable(d);
    }
    return x;
  }

  classExpression(c: ClassExpression): RdfSubject {
    if (c.kind === 'Class') return c.iri;
    const x = this.fresh();
    switch (c.kind) {
      case 'ObjectIntersectionOf':
      case 'ObjectUnionOf':
        this.triple(x, RDF_TYPE, OWL + 'Class');
        this.triple(
          x,
          c.kind === 'ObjectIntersectionOf' ? OWL + 'intersectionOf' : OWL + 'unionOf',
          this.list(this.sortedCEs(c.operands).map((o) => this.classExpression(o))),
        );
        break;
      case 'ObjectComplementOf':
        this.triple(x, RDF_TYPE, OWL + 'Class');
        this.triple(x, OWL + 'complementOf', this.classExpression(c.operand));
        break;
      case 'ObjectOneOf':
        this.triple(x, RDF_TYPE, OWL + 'Class');
        this.triple(x, OWL + 'oneOf', this.list(this.sortedIndividuals(c.individuals).map((i) => this.individual(i))));
        break;
      case 'ObjectSomeValuesFrom':
      case 'ObjectAllValuesFrom':
        this.restriction(x, this.ope(c.property));
        this.triple(x, c.kind === 'ObjectSomeValuesFrom' ? OWL + 'someValuesFrom' : OWL + 'allValuesFrom', this.classExpression(c.filler));
        break;
      case 'ObjectHasValue':
        this.restriction(x, this.ope(c.property));
        this.triple(x, OWL + 'hasValue', this.individual(c.individual));
        break;
      case 'ObjectHasSelf':
        this.restriction(x, this.ope(c.property));
        this.triple(x, OWL + 'hasSelf', literal('true', XSD_BOOLEAN));
        break;
      case 'ObjectMinCardinality':
      case 'ObjectMaxCardinality':
      case 'ObjectExactCardinality': {
        this.restriction(x, this.ope(c.property));
        const qualified = !(c.filler.kind === 'Class' && c.filler.iri === OWL_THING);
        this.triple(x, CARDINALITY[c.kind][qualified ? 1 : 0], literal(String(c.cardinality), XSD_NON_NEGATIVE_INTEGER));
        if (qualified) this.triple(x, OWL + 'onClass', this.classExpression(c.filler));
        break;
      }
      case 'DataSomeValuesFrom':
      case 'DataAllValuesFrom':
        this.restriction(x, c.property.iri);
        this.triple(x, c.kind === 'DataSomeValuesFrom' ? OWL + 'someValuesFrom' : OWL + 'allValuesFrom', this.dataRange(c.filler));
        break;
      case 'DataHasValue':
        this.restriction(x, c.property.iri);
        this.triple(x, OWL + 'hasValue', c.value);
        break;
      case 'DataMinCardinality':
      case 'DataMaxCardinality':
      case 'DataExactCardinality': {
        this.restriction(x, c.property.iri);
        const qualified = !(c.filler.kind === 'Datatype' && c.filler.iri === RDFS + 'Literal');
        this.triple(x, CARDINALITY[c.kind][qualified ? 1 : 0], literal(String(c.cardinality), XSD_NON_NEGATIVE_INTEGER));
        if (qualified) this.triple(x, OWL + 'onDataRange', this.dataRange(c.filler));
        break;
      }
      default:
        return unreachable(c);
    }
    return x;
  }

  private restriction(x: Blank, property: RdfSubject): void {
    this.triple(x, RDF_TYPE, OWL + 'Restriction');
    this.triple(x, OWL + 'onProperty', property);
  }

  annotationNode(v: AnnotationSubject | AnnotationValue): RdfObject {
    switch (v.kind) {
      case 'IRI':
        return v.iri;
      case 'AnonymousIndividual':
        return this.anonymous(v);
      case 'Literal':
        return v;
      default:
        return unreachable(v);
    }
  }

  // ------------------------------------------------------------ annotations

  /** TANN: the annotations of `subject`; an annotation that is itself annotated is reified as owl:Annotation. */
  annotate(subject: RdfSubject, anns: readonly Annotation[]): void {
    for (const a of this.sortedAnnotations(anns)) {
      const value = this.annotationNode(a.value);
      this.triple(subject, a.property.iri, value);
      if (a.annotations.length > 0) this.reify(OWL + 'Annotation', subject, a.property.iri, value, a.annotations);
    }
  }

  private reify(type: IRI, s: RdfSubject, p: IRI, o: RdfObject, anns: readonly Annotation[]): void {
    const x = this.fresh();
    this.triple(x, RDF_TYPE, type);
    this.triple(x, OWL + 'annotatedSource', s);
    this.triple(x, OWL + 'annotatedProperty', p);
    this.triple(x, OWL + 'annotatedTarget', o);
    this.annotate(x, anns);
  }

  /** The main triple of an axiom, reified with owl:Axiom when the axiom is annotated. */
  private main(s: RdfSubject, p: IRI, o: RdfObject, anns: readonly Annotation[]): void {
    this.triple(s, p, o);
    if (anns.length > 0) this.reify(OWL + 'Axiom', s, p, o, anns);
  }

  /** A blank-node axiom (owl:AllDisjointClasses etc.): its annotations attach to the node itself. */
  private typedNode(type: IRI, anns: readonly Annotation[]): Blank {
    const x = this.fresh();
    this.triple(x, RDF_TYPE, type);
    this.annotate(x, anns);
    return x;
  }

  /** An n-ary axiom written as binary triples between consecutive operands, each one annotated. */
  private chain<T>(items: readonly T[], node: (t: T) => RdfSubject, p: IRI, anns: readonly Annotation[]): void {
    let previous: T | undefined;
    for (const item of items) {
      if (previous !== undefined) this.main(node(previous), p, node(item), anns);
      previous = item;
    }
  }

  /** n-ary disjointness: the pairwise triple for two operands, the blank-node form for more. */
  private disjoint(nodes: () => RdfObject[], count: number, pairwise: IRI, allType: IRI, anns: readonly Annotation[]): void {
    if (count === 2) {
      // count is the number of nodes.
      const [a, b] = nodes();
      this.main(a as RdfSubject, pairwise, b!, anns);
      return;
    }
    const x = this.typedNode(allType, anns);
    this.triple(x, OWL + 'members', this.list(nodes()));
  }

  // ------------------------------------------------------------ axioms

  axiom(a: Axiom): void {
    const anns = a.annotations;
    const ce = (c: ClassExpression) => this.classExpression(c);
    const ope = (p: ObjectPropertyExpression) => this.ope(p);
    switch (a.kind) {
      case 'Declaration':
        this.main(a.entity.iri, RDF_TYPE, DECLARATION_TYPE[a.entity.kind], anns);
        break;
      case 'SubClassOf':
        this.main(ce(a.sub), SUB_CLASS_OF, ce(a.sup), anns);
        break;
      case 'EquivalentClasses':
        this.chain(namedFirst(this.sortedCEs(a.classes)), ce, OWL + 'equivalentClass', anns);
        break;
      case 'DisjointClasses': {
        const cs = this.sortedCEs(a.classes);
        this.disjoint(() => cs.map(ce), cs.length, OWL + 'disjointWith', OWL + 'AllDisjointClasses', anns);
        break;
      }
      case 'DisjointUnion':
        this.main(a.cls.iri, OWL + 'disjointUnionOf', this.list(this.sortedCEs(a.classes).map(ce)), anns);
        break;
      case 'SubObjectPropertyOf':
        this.main(ope(a.sub), SUB_PROPERTY_OF, ope(a.sup), anns);
        break;
      case 'SubPropertyChainOf':
        this.main(ope(a.sup), OWL + 'propertyChainAxiom', this.list(a.chain.map(ope)), anns);
        break;
      case 'EquivalentObjectProperties':
        this.chain(this.sortedOPEs(a.properties), ope, OWL + 'equivalentProperty', anns);
        break;
      case 'DisjointObjectProperties': {
        const ps = this.sortedOPEs(a.properties);
        this.disjoint(() => ps.map(ope), ps.length, OWL + 'propertyDisjointWith', OWL + 'AllDisjointProperties', anns);
        break;
      }
      case 'InverseObjectProperties': {
        const [p = a.first, q = p] = this.sortedOPEs([a.first, a.second]);
        this.main(ope(p), OWL + 'inverseOf', ope(q), anns);
        break;
      }
      case 'ObjectPropertyDomain':
        this.main(ope(a.property), DOMAIN, ce(a.domain), anns);
        break;
      case 'ObjectPropertyRange':
        this.main(ope(a.property), RANGE, ce(a.range), anns);
        break;
      case 'FunctionalObjectProperty':
      case 'InverseFunctionalObjectProperty':
      case 'ReflexiveObjectProperty':
      case 'IrreflexiveObjectProperty':
      case 'SymmetricObjectProperty':
      case 'AsymmetricObjectProperty':
      case 'TransitiveObjectProperty':
        this.main(ope(a.property), RDF_TYPE, CHARACTERISTIC_TYPE[a.kind], anns);
        break;
      case 'FunctionalDataProperty':
        this.main(a.property.iri, RDF_TYPE, CHARACTERISTIC_TYPE[a.kind], anns);
        break;
      case 'SubDataPropertyOf':
        this.main(a.sub.iri, SUB_PROPERTY_OF, a.sup.iri, anns);
        break;
      case 'EquivalentDataProperties':
        this.chain(this.sortedIris(a.properties), (p) => p.iri, OWL + 'equivalentProperty', anns);
        break;
      case 'DisjointDataProperties': {
        const ps = this.sortedIris(a.properties);
        this.disjoint(() => ps.map((p) => p.iri), ps.length, OWL + 'propertyDisjointWith', OWL + 'AllDisjointProperties', anns);
        break;
      }
      case 'DataPropertyDomain':
        this.main(a.property.iri, DOMAIN, ce(a.domain), anns);
        break;
      case 'DataPropertyRange':
        this.main(a.property.iri, RANGE, this.dataRange(a.range), anns);
        break;
      case 'DatatypeDefinition':
        this.main(a.datatype.iri, OWL + 'equivalentClass', this.dataRange(a.range), anns);
        break;
      case 'HasKey': {
        const keys: RdfObject[] = this.sortedOPEs(a.objectProperties).map(ope);
        for (const p of this.sortedIris(a.dataProperties)) keys.push(p.iri);
        this.main(ce(a.cls), OWL + 'hasKey', this.list(keys), anns);
        break;
      }
      case 'SameIndividual':
        this.chain(this.sortedIndividuals(a.individuals), (i) => this.individual(i) as RdfSubject, OWL + 'sameAs', anns);
        break;
      case 'DifferentIndividuals': {
        const is = this.sortedIndividuals(a.individuals);
        this.disjoint(() => is.map((i) => this.individual(i)), is.length, OWL + 'differentFrom', OWL + 'AllDifferent', anns);
        break;
      }
      case 'ClassAssertion':
        this.main(this.individual(a.individual) as RdfSubject, RDF_TYPE, ce(a.cls), anns);
        break;
      case 'ObjectPropertyAssertion': {
        // RDF has no inverse predicates: InverseOf(P)(a, b) is written as P(b, a).
        const inverse = a.property.kind === 'ObjectInverseOf';
        const p = a.property.kind === 'ObjectInverseOf' ? a.property.property.iri : a.property.iri;
        const s = this.individual(inverse ? a.object : a.subject) as RdfSubject;
        this.main(s, p, this.individual(inverse ? a.subject : a.object), anns);
        break;
      }
      case 'NegativeObjectPropertyAssertion':
      case 'NegativeDataPropertyAssertion': {
        const x = this.typedNode(OWL + 'NegativePropertyAssertion', anns);
        this.triple(x, OWL + 'sourceIndividual', this.individual(a.subject));
        if (a.kind === 'NegativeObjectPropertyAssertion') {
          this.triple(x, OWL + 'assertionProperty', ope(a.property));
          this.triple(x, OWL + 'targetIndividual', this.individual(a.object));
        } else {
          this.triple(x, OWL + 'assertionProperty', a.property.iri);
          this.triple(x, OWL + 'targetValue', a.value);
        }
        break;
      }
      case 'DataPropertyAssertion':
        this.main(this.individual(a.subject) as RdfSubject, a.property.iri, a.value, anns);
        break;
      case 'AnnotationAssertion':
        this.main(this.annotationNode(a.subject) as RdfSubject, a.property.iri, this.annotationNode(a.value), anns);
        break;
      case 'SubAnnotationPropertyOf':
        this.main(a.sub.iri, SUB_PROPERTY_OF, a.sup.iri, anns);
        break;
      case 'AnnotationPropertyDomain':
        this.main(a.property.iri, DOMAIN, a.domain, anns);
        break;
      case 'AnnotationPropertyRange':
        this.main(a.property.iri, RANGE, a.range, anns);
        break;
      case 'DLSafeRule': {
        const x = this.typedNode(SWRL + 'Imp', anns);
        this.triple(x, SWRL + 'body', this.list(this.sortedAtoms(a.body).map((t) => this.atom(t))));
        this.triple(x, SWRL + 'head', this.list(this.sortedAtoms(a.head).map((t) => this.atom(t))));
        break;
      }
      default:
        return unreachable(a);
    }
  }

  // ------------------------------------------------------------ SWRL

  private iarg(a: IArg): RdfObject {
    return a.kind === 'Variable' ? this.variable(a.iri) : this.individual(a);
  }

  private darg(a: DArg): RdfObject {
    return a.kind === 'Variable' ? this.variable(a.iri) : a;
  }

  private variable(iri: IRI): IRI {
    if (!this.variables.has(iri)) {
      this.variables.add(iri);
      this.triple(iri, RDF_TYPE, SWRL + 'Variable');
    }
    return iri;
  }

  private atom(t: Atom): Blank {
    const x = this.fresh();
    switch (t.kind) {
      case 'ClassAtom':
        this.triple(x, RDF_TYPE, SWRL + 'ClassAtom');
        this.triple(x, SWRL + 'classPredicate', this.classExpression(t.cls));
        this.triple(x, SWRL + 'argument1', this.iarg(t.arg));
        break;
      case 'DataRangeAtom':
        this.triple(x, RDF_TYPE, SWRL + 'DataRangeAtom');
        this.triple(x, SWRL + 'dataRange', this.dataRange(t.range));
        this.triple(x, SWRL + 'argument1', this.darg(t.arg));
        break;
      case 'ObjectPropertyAtom':
        this.triple(x, RDF_TYPE, SWRL + 'IndividualPropertyAtom');
        this.triple(x, SWRL + 'propertyPredicate', this.ope(t.property));
        this.triple(x, SWRL + 'argument1', this.iarg(t.first));
        this.triple(x, SWRL + 'argument2', this.iarg(t.second));
        break;
      case 'DataPropertyAtom':
        this.triple(x, RDF_TYPE, SWRL + 'DatavaluedPropertyAtom');
        this.triple(x, SWRL + 'propertyPredicate', t.property.iri);
        this.triple(x, SWRL + 'argument1', this.iarg(t.first));
        this.triple(x, SWRL + 'argument2', this.darg(t.second));
        break;
      case 'BuiltInAtom':
        this.triple(x, RDF_TYPE, SWRL + 'BuiltinAtom');
        this.triple(x, SWRL + 'builtin', t.iri);
        this.triple(x, SWRL + 'arguments', this.list(t.args.map((d) => this.darg(d))));
        break;
      case 'SameIndividualAtom':
      case 'DifferentIndividualsAtom':
        this.triple(x, RDF_TYPE, SWRL + t.kind);
        this.triple(x, SWRL + 'argument1', this.iarg(t.first));
        this.triple(x, SWRL + 'argument2', this.iarg(t.second));
        break;
      default:
        return unreachable(t);
    }
    return x;
  }

  // ------------------------------------------------------------ header

  header(o: Ontology): RdfSubject {
    const node: RdfSubject = o.id.iri ?? this.fresh();
    this.triple(node, RDF_TYPE, OWL + 'Ontology');
    if (o.id.iri !== null && o.id.versionIri !== null) this.triple(node, OWL + 'versionIRI', o.id.versionIri);
    for (const iri of [...o.imports].sort()) this.triple(node, OWL + 'imports', iri);
    this.annotate(node, [...o.annotations]);
    return node;
  }
}

/** Puts a named class first so binary triples read "C owl:equivalentClass [ ... ]". */
function namedFirst(cs: ClassExpression[]): ClassExpression[] {
  const i = cs.findIndex((c) => c.kind === 'Class');
  const named = cs[i];
  return i <= 0 || named === undefined ? cs : [named, ...cs.slice(0, i), ...cs.slice(i + 1)];
}

/** T(O): the triples of the ontology header, its axioms, and the implicit declarations. */
export function owlToTriples(o: Ontology): Triples {
  const axioms = [...o.axioms(), ...implicitDeclarations(o)];
  const renderer = canonicalRenderer(axioms);
  const keyed = axioms.map((a) => ({ a, text: renderer.axiom(a) })).sort(byText);
  const m = new Mapper(renderer);
  const ontology = m.header(o);
  for (const { a } of keyed) m.axiom(a);
  return { s: m.s, p: m.p, o: m.o, ontology };
}

// ---------------------------------------------------------------- the ordered graph the writers share

/** One subject with its predicate/object pairs, sorted (rdf:type first) and without duplicates. */
/** A subject's predicate-object pairs: p and o are as long as each other, o[i] the object of p[i]. */
export interface SubjectBlock {
  readonly subject: RdfSubject;
  readonly p: IRI[];
  readonly o: RdfObject[];
}

export interface OrderedGraph {
  /** The ontology node first, then IRI subjects in code-unit order, then blank nodes in creation order. */
  readonly blocks: SubjectBlock[];
  readonly blockOf: Map<RdfSubject, SubjectBlock>;
  /** How many triples have each blank node as their object. */
  readonly refs: Map<Blank, number>;
}

const TERM_RANK = (t: RdfObject) => (typeof t === 'string' ? 0 : t instanceof Blank ? 1 : 2);

function compareObjects(a: RdfObject, b: RdfObject): number {
  if (a === b) return 0;
  const ra = TERM_RANK(a);
  const rb = TERM_RANK(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'string') return a < (b as string) ? -1 : 1;
  if (a instanceof Blank) return a.order - (b as Blank).order;
  const x = a as Literal;
  const y = b as Literal;
  return x.lex !== y.lex
    ? x.lex < y.lex
      ? -1
      : 1
    : x.datatype !== y.datatype
      ? x.datatype < y.datatype
        ? -1
        : 1
      : x.lang < y.lang
        ? -1
        : 1;
}

function comparePredicates(a: IRI, b: IRI): number {
  if (a === b) return 0;
  if (a === RDF_TYPE) return -1;
  if (b === RDF_TYPE) return 1;
  return a < b ? -1 : 1;
}

function compareSubjects(a: RdfSubject, b: RdfSubject): number {
  if (typeof a === 'string') return typeof b === 'string' ? (a < b ? -1 : a > b ? 1 : 0) : -1;
  return typeof b === 'string' ? 1 : a.order - b.order;
}

/** Groups triples by subject, sorts subjects and pairs, drops duplicate triples and counts blank references. */
export function orderGraph(t: Triples): OrderedGraph {
  const rows = new Map<RdfSubject, number[]>();
  for (const [i, subject] of t.s.entries()) {
    const list = rows.get(subject);
    if (list === undefined) rows.set(subject, [i]);
    else list.push(i);
  }
  const subjects = [...rows.keys()].filter((s) => s !== t.ontology).sort(compareSubjects);
  if (rows.has(t.ontology)) subjects.unshift(t.ontology);
  const blocks: SubjectBlock[] = [];
  const blockOf = new Map<RdfSubject, SubjectBlock>();
  const refs = new Map<Blank, number>();
  for (const subject of subjects) {
    const idx = rows.get(subject)!;
    // The indexes in rows are below t.s.length, and t.p and t.o are as long as t.s.
    idx.sort((i, j) => comparePredicates(t.p[i]!, t.p[j]!) || compareObjects(t.o[i]!, t.o[j]!));
    const block: SubjectBlock = { subject, p: [], o: [] };
    for (const i of idx) {
      const pred = t.p[i]!,
        obj = t.o[i]!;
      const last = block.p.length - 1;
      if (last >= 0 && block.p[last] === pred && block.o[last] === obj) continue;
      block.p.push(pred);
      block.o.push(obj);
      if (obj instanceof Blank) refs.set(obj, (refs.get(obj) ?? 0) + 1);
    }
    blocks.push(block);
    blockOf.set(subject, block);
  }
  return { blocks, blockOf, refs };
}

/** True when a blank node can be written nested where it is used: referenced once, and not an individual. */
export function isNestable(g: OrderedGraph, b: Blank): boolean {
  return !b.individual && g.refs.get(b) === 1;
}

/**
 * The items of a well-formed RDF list starting at `node` whose nodes can all be written nested
 * (each has exactly rdf:first and rdf:rest and is referenced once), or null.
 */
export function listItems(g: OrderedGraph, node: RdfObject): RdfObject[] | null {
  const items: RdfObject[] = [];
  let cur = node;
  while (cur !== RDF_NIL) {
    if (!(cur instanceof Blank) || !isNestable(g, cur)) return null;
    const block = g.blockOf.get(cur);
    if (block === undefined || block.p.length !== 2 || block.p[0] !== RDF_FIRST || block.p[1] !== RDF_REST) return null;
    // block.o is as long as block.p: two.
    items.push(block.o[0]!);
    cur = block.o[1]!;
  }
  return items;
}
