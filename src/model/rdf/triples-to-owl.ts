// The reverse OWL 2 RDF mapping (W3C "OWL 2 Mapping to RDF Graphs", section 3): a triple table in, an
// Ontology out. It is lax the way the OWL API is: undeclared entities are typed from how they are used,
// and anything that still cannot be mapped is kept in `ontology.unmapped` with the reason.
//
// The work is done in a few linear passes over the table:
//   1. index triples by subject and collect rdf:type facts (declared kinds, special nodes);
//   2. index reifications (owl:Axiom / owl:Annotation) by the triple they annotate, and type every IRI from
//      the whole graph (graph-typing.ts), so no decision below depends on the order of the triples;
//   3. map axiom triples; class expressions, data ranges and lists behind blank nodes are translated on
//      demand, and a triple is marked consumed only when the axiom using it is built;
//   4. map what is left: ontology header, property and annotation assertions, else `unmapped`.

import { MAX_EXPRESSION_NESTING, NestingLimitError } from '../formats/nesting.js';
import {
  type Annotation,
  type AnnotationSubject,
  type AnnotationValue,
  type AnonymousIndividual,
  type Axiom,
  type ClassExpression,
  type DataProperty,
  type DataRange,
  type Individual,
  type Literal,
  type ObjectPropertyExpression,
  type FacetRestriction,
  annotation,
  annotationAssertion,
  annotationProperty,
  anonymousIndividual,
  classAssertion,
  cls,
  dataAllValuesFrom,
  dataComplementOf,
  dataExactCardinality,
  dataHasValue,
  dataIntersectionOf,
  dataMaxCardinality,
  dataMinCardinality,
  dataOneOf,
  dataProperty,
  dataPropertyAssertion,
  dataPropertyDomain,
  dataPropertyRange,
  dataSomeValuesFrom,
  dataUnionOf,
  datatype,
  datatypeDefinition,
  datatypeRestriction,
  declaration,
  differentIndividuals,
  disjointClasses,
  disjointDataProperties,
  disjointObjectProperties,
  disjointUnion,
  entity,
  equivalentClasses,
  equivalentDataProperties,
  equivalentObjectProperties,
  facetRestriction,
  functionalDataProperty,
  hasKey,
  inverseObjectProperties,
  iriNode,
  namedIndividual,
  negativeDataPropertyAssertion,
  negativeObjectPropertyAssertion,
  objectAllValuesFrom,
  objectComplementOf,
  objectExactCardinality,
  objectHasSelf,
  objectHasValue,
  objectIntersectionOf,
  objectInverseOf,
  objectMaxCardinality,
  objectMinCardinality,
  objectOneOf,
  objectProperty,
  objectPropertyAssertion,
  objectPropertyCharacteristic,
  objectPropertyDomain,
  objectPropertyRange,
  objectSomeValuesFrom,
  objectUnionOf,
  sameIndividual,
  subAnnotationPropertyOf,
  subClassOf,
  subDataPropertyOf,
  subObjectPropertyOf,
  subPropertyChainOf,
  annotationPropertyDomain,
  annotationPropertyRange,
  type Class,
  type AnnotationProperty,
  type NamedIndividual,
  type IRINode,
  axiomWithoutAnnotations,
  type Entity,
  type ObjectProperty,
  withAnnotations,
  otherKinds,
  ANY_AXIOM,
} from '../terms.js';
import { Ontology } from '../ontology.js';
import { AxiomSet } from '../axiom-set.js';
import { type TermId, type TripleTable, type TermValue, isBlankValue, tripleText } from './rdf-graph-reader.js';
import {
  RDF_TYPE,
  RDF_FIRST,
  RDF_REST,
  RDF_NIL,
  RDF_LIST,
  RDF_PROPERTY,
  RDFS_SUBCLASS_OF,
  RDFS_SUBPROPERTY_OF,
  RDFS_DOMAIN,
  RDFS_RANGE,
  RDFS_DATATYPE,
  RDFS_CLASS,
  O,
  S,
  K_CLASS,
  K_OP,
  K_DP,
  K_AP,
  K_IND,
  K_DT,
  DECLARING_TYPES,
  CHARACTERISTICS,
  KIND_OF_BIT,
  RESERVED_COUNT,
  isReserved,
  isBuiltInDatatype,
} from './vocab-reader.js';
import { SwrlReader } from './swrl-reader.js';
import type { EarlyAxioms } from './early-mapping.js';
import { type ImportedKinds, typeGraph } from './graph-typing.js';

/** Thrown while mapping one axiom when its triples do not form an OWL 2 construct. */
export class Unmappable extends Error {}

const fail = (reason: string): never => {
  throw new Unmappable(reason);
};

/** rdf:type objects that only mark structure (their subject is consumed as an expression, list, etc.). */
const STRUCTURAL_TYPES = new Set<TermId>([
  O.Restriction,
  O.SelfRestriction,
  O.DataRange,
  RDF_LIST,
  O.Axiom,
  O.Annotation,
  S.Variable,
  S.AtomList,
  S.ClassAtom,
  S.DataRangeAtom,
  S.IndividualPropertyAtom,
  S.DatavaluedPropertyAtom,
  S.BuiltinAtom,
  S.SameIndividualAtom,
  S.DifferentIndividualsAtom,
]);

const OWL1_OBJECT_PROPERTY_TYPES = new Set<TermId>([O.TransitiveProperty, O.SymmetricProperty, O.InverseFunctionalProperty]);

const CARDINALITIES = [
  O.minCardinality,
  O.maxCardinality,
  O.cardinality,
  O.minQualifiedCardinality,
  O.maxQualifiedCardinality,
  O.qualifiedCardinality,
];

/** Reserved-predicate cache states (per term id). */
const UNKNOWN = 0,
  RESERVED = 1,
  NOT_RESERVED = 2;

/**
 * Maps the triples of one RDF document into a new Ontology; `early` holds axioms built while it was read,
 * `imported` the kinds its loaded imports closure declares.
 */
export function triplesToOntology(table: TripleTable, early: EarlyAxioms | null = null, imported: ImportedKinds | null = null): Ontology {
  // V8 keeps the subject of the last successful regexp match alive (for RegExp.lastMatch): after a
  // parser's last match on the document text, that is the whole document. A match on '' releases it.
  RELEASE_LAST_MATCH.exec('');
  return new RdfToOwl(table, early, imported).run();
}

const RELEASE_LAST_MATCH = /^/;

export class RdfToOwl {
  readonly ontology = new Ontology();
  /** The axioms mapped so far, collected while each is fresh in cache and handed to the ontology at the end. */
  readonly axioms: AxiomSet;
  s: Int32Array;
  p: Int32Array;
  o: Int32Array;
  readonly terms: readonly TermValue[];
  private n: number;
  private consumed = new Uint8Array(0);
  /** Triples by subject, as a compressed index: the triples of x are order[start[x] .. start[x + 1]). */
  private start = new Int32Array(0);
  private order = new Int32Array(0);
  /** Triples added during mapping (for reifications of unasserted triples), by subject. */
  private readonly addedBySubject = new Map<TermId, number[]>();
  /** Kind bits per term: declared by rdf:type, then completed from the whole graph before mapping (never changed after). */
  private readonly kinds: Uint8Array;
  /** 1 for the IRIs that can only be annotation properties. */
  private annotationOnly: Uint8Array = new Uint8Array(0);
  private readonly reserved: Uint8Array;
  /** Nodes typed owl:Ontology, in document order. */
  private readonly ontologyNodes: TermId[] = [];
  /** Reification nodes by the key of the triple they annotate. */
  private readonly reifications = new Map<string, TermId[]>();
  private readonly reifiedSubjects = new Set<TermId>();
  /** Triple indexes used by the axiom being built; committed when it succeeds. */
  private pending: number[] = [];
  private readonly failures = new Map<number, string>();
  private readonly ceCache = new Map<TermId, ClassExpression>();
  private readonly drCache = new Map<TermId, DataRange>();
  /** Blank nodes whose structure is being read (a cycle guard). */
  private readonly reading = new Set<TermId>();
  /** Height of each blank-node structure read, so one met again still counts its full depth. */
  private readonly heights = new Map<TermId, number>();
  /** The tallest structure met so far inside the one being read. */
  private tallest = 0;
  /** Flags by term id: blank nodes already translated as a structure (expression, list, atom), never individuals. */
  private readonly structural: Uint8Array;
  private readonly anons = new Map<TermId, AnonymousIndividual>();
  /** Model nodes by term id, so each IRI is looked up in the model's intern table once per role (each made on first use). */
  private classes: (Class | undefined)[] | null = null;
  private objectProperties: (ObjectProperty | undefined)[] | null = null;
  private dataProperties: (DataProperty | undefined)[] | null = null;
  private annotationProperties: (AnnotationProperty | undefined)[] | null = null;
  private individuals: (NamedIndividual | undefined)[] | null = null;
  private iriNodes: (IRINode | undefined)[] | null = null;
  private readonly swrl: SwrlReader;
  private readonly table: TripleTable;
  /** Triples from index `asserted` on were added for reifications whose triple the document lacks. */
  private readonly asserted: number;
  /** Annotated axioms built from such reifications: they replace the plain axiom of an equivalent triple. */
  private readonly replacing: Axiom[] = [];

  constructor(
    table: TripleTable,
    private readonly early: EarlyAxioms | null = null,
    private readonly imported: ImportedKinds | null = null,
  ) {
    this.table = table;
    this.s = table.s;
    this.p = table.p;
    this.o = table.o;
    this.terms = table.terms;
    this.n = table.size;
    this.asserted = table.size;
    this.axioms = new AxiomSet([], table.size);
    this.kinds = new Uint8Array(table.terms.length);
    this.reserved = new Uint8Array(table.terms.length);
    this.structural = new Uint8Array(table.terms.length);
    this.ontology.unmapped.push(...table.unmapped);
    this.swrl = new SwrlReader(this);
  }

  run(): Ontology {
    this.indexTriples();
    this.indexReifications();
    this.annotationOnly = typeGraph(this, this.kinds, this.n, this.imported);
    this.consumed = new Uint8Array(this.n);
    const early = this.early?.axioms;
    // Only vocabulary predicates make axioms in this pass.
    for (let i = 0; i < this.n; i++) {
      if (this.consumed[i] !== 0 || this.pred(i) >= RESERVED_COUNT) continue;
      const a = early?.[i];
      if (a == null || !this.takeEarlyAxiom(i, a)) this.attempt(i, this.mapAxiomTriple);
    }
    this.mapHeader();
    for (let i = 0; i < this.n; i++) {
      if (this.consumed[i] !== 0) continue;
      const a = early?.[i];
      if (a == null || !this.takeEarlyAssertion(i, a)) this.attempt(i, this.mapRemainingTriple);
    }
    this.ontology.addAll(this.axioms);
    for (const a of this.replacing) if (a.annotations.length > 0) this.ontology.remove(axiomWithoutAnnotations(a));
    for (let i = 0; i < this.n; i++) {
      if (this.consumed[i] === 0) {
        this.ontology.unmapped.push({
          text: tripleText(this.term(this.subj(i)), this.term(this.pred(i)), this.term(this.obj(i))),
          reason: this.failures.get(i) ?? 'not part of any OWL 2 construct',
        });
      }
    }
    return this.ontology;
  }

  // ------------------------------------------------------------ terms

  iri(t: TermId): string {
    return this.terms[t] as string;
  }

  isIri(t: TermId): boolean {
    const v = this.terms[t];
    return typeof v === 'string' && !(v.charCodeAt(0) === 95 && v.charCodeAt(1) === 58);
  }

  isBlank(t: TermId): boolean {
    return isBlankValue(this.term(t));
  }

  /** The literal a term stands for, or undefined for IRIs and blank nodes. */
  lit(t: TermId): Literal | undefined {
    const v = this.terms[t];
    return typeof v === 'string' ? undefined : v;
  }

  /** Same RDF term: equal ids, or two occurrences of one literal. */
  sameTerm(a: TermId, b: TermId): boolean {
    return a === b || (this.lit(a) !== undefined && this.lit(a) === this.lit(b));
  }

  // ------------------------------------------------------------ pass 1: indexes

  private indexTriples(): void {
    const { s, p, o, n, kinds } = this;
    const start = new Int32Array(this.terms.length + 1);
    // A counting sort by subject: i < n and every term id below terms.length, the size of start, fill and kinds.
    for (let i = 0; i < n; i++) start[s[i]! + 1]!++;
    for (let t = 1; t < start.length; t++) start[t]! += start[t - 1]!;
    const fill = start.slice(0, start.length - 1);
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const subj = s[i]!;
      order[fill[subj]!++] = i;
      if (p[i] !== RDF_TYPE) continue;
      const type = o[i]!;
      const bit = DECLARING_TYPES.get(type);
      if (bit !== undefined) {
        if (this.isIri(subj)) kinds[subj]! |= bit;
      } else if (type === O.Ontology) {
        if (!this.ontologyNodes.includes(subj)) this.ontologyNodes.push(subj);
      } else if (CHARACTERISTICS.has(type)) {
        if (this.isIri(subj)) kinds[subj]! |= K_OP;
      } else if (type === O.DeprecatedClass || type === RDFS_CLASS) {
        kinds[subj]! |= K_CLASS;
      }
    }
    this.start = start;
    this.order = order;
  }

  isLiteral(t: TermId): boolean {
    return this.lit(t) !== undefined;
  }

  /** A built-in annotation property or an undeclared Dublin Core 1.1 element: never an object or data property. */
  private isAnnotationOnly(t: TermId): boolean {
    return this.annotationOnly[t] === 1;
  }

  // ------------------------------------------------------------ pass 2: reifications

  private indexReifications(): void {
    const n = this.n;
    for (let i = 0; i < n; i++) {
      if (this.pred(i) !== RDF_TYPE || (this.obj(i) !== O.Axiom && this.obj(i) !== O.Annotation)) continue;
      const x = this.subj(i);
      this.structural[x] = 1;
      const src = this.objectOf(x, O.annotatedSource);
      const prop = this.objectOf(x, O.annotatedProperty);
      const tgt = this.objectOf(x, O.annotatedTarget);
      if (src < 0 || prop < 0 || tgt < 0) continue;
      const source = this.obj(src),
        property = this.obj(prop),
        target = this.obj(tgt);
      if (this.lit(source) !== undefined || !this.isIri(property)) continue;
      const key = this.tripleKey(source, property, target);
      const list = this.reifications.get(key);
      if (list === undefined) this.reifications.set(key, [x]);
      else list.push(x);
      this.reifiedSubjects.add(source);
      // An owl:Axiom whose triple is not asserted still stands for that axiom: add the triple.
      if (this.obj(i) === O.Axiom && this.findTriple(source, property, target) < 0) this.addTriple(source, property, target);
    }
  }

  private addTriple(s: TermId, p: TermId, o: TermId): void {
    const i = this.n++;
    this.table.add(s, p, o);
    this.s = this.table.s;
    this.p = this.table.p;
    this.o = this.table.o;
    const list = this.addedBySubject.get(s);
    if (list === undefined) this.addedBySubject.set(s, [i]);
    else list.push(i);
  }

  private tripleKey(s: TermId, p: TermId, o: TermId): string {
    const l = this.lit(o);
    return s + ' ' + p + ' ' + (l === undefined ? o : 'L' + l.id);
  }

  // ------------------------------------------------------------ triple access

  // Triple indexes (below n) and term ids (below terms.length) index the table's arrays and the per-term
  // bytes, which are sized to them: these reads are always in bounds.

  subj(i: number): TermId {
    return this.s[i]!;
  }

  pred(i: number): TermId {
    return this.p[i]!;
  }

  obj(i: number): TermId {
    return this.o[i]!;
  }

  kindOf(t: TermId): number {
    return this.kinds[t]!;
  }

  private term(t: TermId): TermValue {
    return this.terms[t]!;
  }

  /** Indexes of the triples with subject x (a fresh array: for the less frequent paths). */
  triplesOf(x: TermId): number[] {
    const out: number[] = [];
    const { start, order } = this;
    // Below x + 1 < start.length, start[x] ≤ k < start[x + 1] ≤ order.length.
    if (x + 1 < start.length) for (let k = start[x]!, end = start[x + 1]!; k < end; k++) out.push(order[k]!);
    const added = this.addedBySubject.get(x);
    if (added !== undefined) out.push(...added);
    return out;
  }

  /** Index of the first triple (x p ?), or -1. */
  objectOf(x: TermId, p: TermId): number {
    const { start, order } = this;
    if (x + 1 < start.length) {
      for (let k = start[x]!, end = start[x + 1]!; k < end; k++) {
        const i = order[k]!;
        if (this.pred(i) === p) return i;
      }
    }
    if (this.addedBySubject.size > 0) {
      const added = this.addedBySubject.get(x);
      if (added !== undefined) for (const i of added) if (this.pred(i) === p) return i;
    }
    return -1;
  }

  private findTriple(s: TermId, p: TermId, o: TermId): number {
    for (const i of this.triplesOf(s)) if (this.pred(i) === p && this.sameTerm(this.obj(i), o)) return i;
    return -1;
  }

  /** The object of (x p ?), marking the triple as used by the axiom being built; -1 if absent. */
  use(x: TermId, p: TermId): TermId {
    const i = this.objectOf(x, p);
    if (i < 0) return -1;
    this.pending.push(i);
    return this.obj(i);
  }

  /** Marks a node as a structure (never an individual) and its rdf:type triples of reserved types as used. */
  useStructure(x: TermId): void {
    const { start, order } = this;
    if (x + 1 < start.length) {
      for (let k = start[x]!, end = start[x + 1]!; k < end; k++) {
        const i = order[k]!;
        if (this.pred(i) === RDF_TYPE && this.isReservedPredicate(this.obj(i))) this.pending.push(i);
      }
    }
    this.structural[x] = 1;
  }

  /** True for terms of the RDF/RDFS/OWL/SWRL vocabularies (other than built-in annotation properties). */
  isReservedPredicate(t: TermId): boolean {
    let r = this.reserved[t];
    if (r === UNKNOWN) {
      const v = this.terms[t];
      r = this.reserved[t] = typeof v === 'string' && (t < RESERVED_COUNT || isReserved(v)) ? RESERVED : NOT_RESERVED;
    }
    return r === RESERVED;
  }

  // ------------------------------------------------------------ model nodes by term id

  cls(t: TermId): Class {
    return ((this.classes ??= emptySlots(this.terms.length))[t] ??= cls(this.iri(t)));
  }

  objectProperty(t: TermId): ObjectProperty {
    return ((this.objectProperties ??= emptySlots(this.terms.length))[t] ??= objectProperty(this.iri(t)));
  }

  dataProperty(t: TermId): DataProperty {
    return ((this.dataProperties ??= emptySlots(this.terms.length))[t] ??= dataProperty(this.iri(t)));
  }

  annotationProperty(t: TermId): AnnotationProperty {
    return ((this.annotationProperties ??= emptySlots(this.terms.length))[t] ??= annotationProperty(this.iri(t)));
  }

  namedIndividual(t: TermId): NamedIndividual {
    return ((this.individuals ??= emptySlots(this.terms.length))[t] ??= namedIndividual(this.iri(t)));
  }

  iriNode(t: TermId): IRINode {
    return ((this.iriNodes ??= emptySlots(this.terms.length))[t] ??= iriNode(this.iri(t)));
  }

  /** The entity of a declaration. */
  private declared(bit: number, t: TermId): Entity {
    switch (bit) {
      case K_CLASS:
        return this.cls(t);
      case K_OP:
        return this.objectProperty(t);
      case K_DP:
        return this.dataProperty(t);
      case K_AP:
        return this.annotationProperty(t);
      case K_IND:
        return this.namedIndividual(t);
      default:
        return entity(KIND_OF_BIT.get(bit)!, this.iri(t));
    }
  }

  // ------------------------------------------------------------ emitting axioms

  /** Runs a mapping step for triple i; its triples are consumed only if it succeeds. */
  private attempt(i: number, step: (i: number) => boolean): void {
    if (this.pending.length !== 0) this.pending.length = 0;
    try {
      if (!step.call(this, i)) return;
    } catch (e) {
      if (!(e instanceof Unmappable)) throw e;
      this.failures.set(i, e.message);
      return;
    }
    this.consumed[i] = 1;
    for (const k of this.pending) this.consumed[k] = 1;
  }

  /** Adds the axiom a plain (unreified) triple stands for; else one per reification, with its annotations. */
  private emit(i: number, axiom: Axiom): true {
    checkArity(axiom);
    const nodes = this.reificationsOf(this.subj(i), this.pred(i), this.obj(i));
    if (nodes === undefined) {
      this.axioms.add(axiom);
      return true;
    }
    for (const x of nodes) {
      const a = withAnnotations(axiom, this.annotationsOf(x));
      this.axioms.add(a);
      if (i >= this.asserted) this.replacing.push(a);
    }
    return true;
  }

  private reificationsOf(s: TermId, p: TermId, o: TermId): TermId[] | undefined {
    if (this.reifications.size === 0 || !this.reifiedSubjects.has(s)) return undefined;
    return this.reifications.get(this.tripleKey(s, p, o));
  }

  /** Annotations carried by a node (a reification, an n-ary axiom node, a rule): its annotation triples. */
  annotationsOf(x: TermId): Annotation[] {
    const out: Annotation[] = [];
    for (const i of this.triplesOf(x)) {
      const p = this.pred(i);
      if (this.isReservedPredicate(p)) {
        this.pending.push(i);
        continue;
      }
      if (!this.isAnnotationPredicate(p)) continue;
      this.pending.push(i);
      out.push(this.annotationFromTriple(i));
    }
    return out;
  }

  private annotationFromTriple(i: number): Annotation {
    const nested = this.reificationsOf(this.subj(i), this.pred(i), this.obj(i));
    const anns: Annotation[] = [];
    if (nested !== undefined) for (const y of nested) anns.push(...this.within(y, () => this.annotationsOf(y)));
    return annotation(this.annotationProperty(this.pred(i)), this.annotationValue(this.obj(i)), anns);
  }

  /** Lax: a non-reserved predicate not typed as an object or data property is an annotation property. */
  isAnnotationPredicate(p: TermId): boolean {
    const k = this.kindOf(p);
    return (k & K_AP) !== 0 || (k & (K_OP | K_DP)) === 0;
  }

  // ------------------------------------------------------------ axioms built while the document was read

  /**
   * Takes the early axiom of triple i (a declaration, class assertion or subclass axiom between IRIs) at its
   * place in document order, unless the triple is reified or declares a built-in annotation property as something else.
   */
  private takeEarlyAxiom(i: number, a: Axiom): boolean {
    const s = this.subj(i),
      o = this.obj(i);
    if (this.reificationsOf(s, this.pred(i), o) !== undefined || (this.isAnnotationOnly(s) && a.kind === 'Declaration')) return false;
    this.axioms.add(a);
    this.consumed[i] = 1;
    return true;
  }

  /** Takes the early assertion of triple i if its predicate's kind is the one it was built for, its subject no structure, and it is not reified. */
  private takeEarlyAssertion(i: number, a: Axiom): boolean {
    const s = this.subj(i),
      p = this.pred(i);
    if (this.kindOf(p) !== this.early!.seenKinds[p] || this.structural[s] === 1 || this.reificationsOf(s, p, this.obj(i)) !== undefined)
      return false;
    this.axioms.add(a);
    this.consumed[i] = 1;
    return true;
  }

  // ------------------------------------------------------------ pass 3: axiom triples

  private mapAxiomTriple(i: number): boolean {
    const p = this.pred(i);
    // Only vocabulary predicates make axioms here; everything else is an assertion, mapped in pass 4.
    if (p >= RESERVED_COUNT) return false;
    const s = this.subj(i),
      o = this.obj(i);
    switch (p) {
      case RDF_TYPE:
        return this.mapType(i);
      case RDFS_SUBCLASS_OF:
        return this.emit(i, subClassOf(this.ce(s), this.ce(this.ref(o))));
      case O.equivalentClass:
        return this.mapEquivalentClass(i);
      case O.disjointWith:
        return this.emit(i, disjointClasses([this.ce(s), this.ce(this.ref(o))]));
      case O.disjointUnionOf: {
        const c = this.cls(this.named(s));
        return this.emit(
          i,
          disjointUnion(
            c,
            this.list(this.ref(o)).map((x) => this.ce(x)),
          ),
        );
      }
      case O.hasKey:
        return this.mapHasKey(i);
      case O.intersectionOf:
      case O.unionOf:
      case O.complementOf:
      case O.oneOf:
        return this.isIri(s) && this.mapNamedExpression(i);
      case O.onDatatype:
        return this.isIri(s) && this.mapNamedDatatypeRestriction(i);
      case RDFS_SUBPROPERTY_OF:
        return this.mapSubProperty(i);
      // owl:disjointObjectProperties is the OWL 1.1 name of owl:propertyDisjointWith, still read by the OWL API.
      case O.equivalentProperty:
      case O.propertyDisjointWith:
      case O.disjointObjectProperties:
        return this.mapPropertyPair(i);
      case O.inverseOf: {
        if (!this.isIri(s)) return false;
        const p1 = this.ope(s),
          q = this.ope(this.ref(o));
        return this.emit(i, inverseObjectProperties(p1, q));
      }
      case RDFS_DOMAIN:
        return this.mapDomain(i);
      case RDFS_RANGE:
        return this.mapRange(i);
      case O.propertyChainAxiom: {
        const sup = this.ope(s);
        return this.emit(
          i,
          chainAxiom(
            this.list(this.ref(o)).map((x) => this.ope(x)),
            sup,
          ),
        );
      }
      case O.sameAs:
        return this.emit(i, sameIndividual([this.individual(s), this.individual(this.ref(o))]));
      case O.differentFrom:
        return this.emit(i, differentIndividuals([this.individual(s), this.individual(this.ref(o))]));
      default:
        return false;
    }
  }

  private mapType(i: number): boolean {
    const s = this.subj(i),
      t = this.obj(i);
    if (this.lit(t) !== undefined) return fail('rdf:type with a literal object');
    const bit = DECLARING_TYPES.get(t);
    if (bit !== undefined) {
      if (!this.isIri(s)) return false;
      // Structural Specification §5.8.1 (typing constraints): the built-in annotation properties are annotation properties only.
      if (bit !== K_AP && this.isAnnotationOnly(s)) return fail('<' + this.iri(s) + '> is a built-in annotation property');
      return this.emit(i, declaration(this.declared(bit, s)));
    }
    if (t === O.FunctionalProperty) {
      if (this.isIri(s) && (this.kindOf(s) & (K_DP | K_OP)) === K_DP) return this.emit(i, functionalDataProperty(this.dataProperty(s)));
      return this.emit(i, objectPropertyCharacteristic('FunctionalObjectProperty', this.ope(s)));
    }
    const characteristic = CHARACTERISTICS.get(t);
    if (characteristic !== undefined) {
      const p = this.ope(s);
      // OWL 1 made these types subclasses of owl:ObjectProperty; like the OWL API, they declare it.
      if (p.kind === 'ObjectProperty' && OWL1_OBJECT_PROPERTY_TYPES.has(t)) this.axioms.add(declaration(p));
      return this.emit(i, objectPropertyCharacteristic(characteristic, p));
    }
    switch (t) {
      case O.AllDisjointClasses:
        return this.mapAllDisjointClasses(s);
      case O.AllDisjointProperties:
        return this.mapAllDisjointProperties(s);
      case O.AllDifferent:
        return this.mapAllDifferent(s);
      case O.NegativePropertyAssertion:
        return this.mapNegativeAssertion(s);
      case S.Imp:
        return this.swrl.mapRule(s);
      case O.Ontology:
        return false;
      case RDF_PROPERTY:
        return this.isIri(s);
      case RDFS_CLASS: {
        if (!this.isIri(s)) return false;
        return this.emit(i, declaration(this.cls(s)));
      }
      case O.DeprecatedClass:
      case O.DeprecatedProperty:
        return this.isIri(s);
    }
    if (STRUCTURAL_TYPES.has(t) || (this.isBlank(s) && (t === O.Class || t === RDFS_DATATYPE))) return false;
    return this.emit(i, classAssertion(this.ce(t), this.individual(s)));
  }

  private mapEquivalentClass(i: number): boolean {
    const s = this.subj(i),
      o = this.ref(this.obj(i));
    if (this.isDataRange(s) || this.isDataRange(o)) {
      const [named, other] = this.isIri(s) ? [s, o] : [o, s];
      if (!this.isIri(named)) return fail('owl:equivalentClass between two anonymous data ranges');
      return this.emit(i, datatypeDefinition(datatype(this.iri(named)), this.dataRange(other)));
    }
    if (this.isIri(s) && this.isIri(o) && this.kindOf(s) === 0 && this.kindOf(o) === 0) fail('equivalence of two IRIs of unknown kind');
    return this.emit(i, equivalentClasses([this.ce(s), this.ce(o)]));
  }

  /** OWL 1 style: a named class with owl:intersectionOf etc. is equivalent to that expression. */
  private mapNamedExpression(i: number): boolean {
    const s = this.subj(i);
    if (this.isDataRange(s)) return this.emit(i, datatypeDefinition(datatype(this.iri(s)), this.dataRangeFrom(s, i)));
    return this.emit(i, equivalentClasses([this.cls(s), this.ceFrom(s, i)]));
  }

  /**
   * A named datatype carrying owl:onDatatype and owl:withRestrictions itself (OWL-Time's generalDay) is
   * defined by that restriction, as a named class carrying owl:intersectionOf is equivalent to it.
   */
  private mapNamedDatatypeRestriction(i: number): boolean {
    const s = this.subj(i);
    const base = datatype(this.iri(this.named(this.ref(this.obj(i)))));
    const w = this.use(s, O.withRestrictions);
    if (w < 0) fail('owl:onDatatype without owl:withRestrictions');
    const facets = this.list(this.ref(w)).map((f) => this.facet(f));
    return this.emit(i, datatypeDefinition(datatype(this.iri(s)), datatypeRestriction(base, facets)));
  }

  private mapHasKey(i: number): boolean {
    const c = this.ce(this.subj(i));
    const ops: ObjectPropertyExpression[] = [],
      dps: DataProperty[] = [];
    for (const x of this.list(this.ref(this.obj(i)))) {
      // Like the OWL API, a key property not known as an object property is a data property.
      if (this.isIri(x) && (this.kindOf(x) & K_OP) === 0) dps.push(this.dataProperty(x));
      else ops.push(this.ope(x));
    }
    return this.emit(i, hasKey(c, ops, dps));
  }

  private mapSubProperty(i: number): boolean {
    const s = this.subj(i),
      o = this.ref(this.obj(i));
    // OWL 1.1 wrote a chain as a blank node with owl:propertyChain that is a subproperty; the OWL API reads it.
    if (this.isBlank(s)) {
      const chain = this.use(s, O.propertyChain);
      if (chain >= 0) {
        const ops = this.list(this.ref(chain)).map((x) => this.ope(x));
        this.useStructure(s);
        return this.emit(i, chainAxiom(ops, this.ope(o)));
      }
    }
    if (this.isBlank(s) || this.isBlank(o)) return this.emit(i, subObjectPropertyOf(this.ope(s), this.ope(o)));
    // A built-in annotation property, or an untyped Dublin Core 1.1 element (the OWL API has them built in as
    // annotation properties, its DublinCoreVocabulary), makes it an annotation axiom.
    const sub = this.named(s),
      sup = this.named(o);
    if (this.isAnnotationOnly(sub) || this.isAnnotationOnly(sup)) {
      return this.emit(i, subAnnotationPropertyOf(this.annotationProperty(sub), this.annotationProperty(sup)));
    }
    // Structural Specification §9.2.1, §9.3.1, §10.2.1: both properties of a subproperty axiom are of one kind.
    // Like the OWL API, the superproperty's kind decides (an untyped one takes the subproperty's); object and
    // data property never mix.
    const ks = this.kindOf(sub) & (K_OP | K_DP),
      ko = this.kindOf(sup) & (K_OP | K_DP | K_AP);
    const kind = ko === 0 ? ks : ko & (K_OP | K_DP);
    if ((kind & K_OP) !== 0 && (ks & K_DP) === 0) return this.emit(i, subObjectPropertyOf(this.ope(sub), this.ope(sup)));
    if ((kind & K_DP) !== 0 && (ks & K_OP) === 0) return this.emit(i, subDataPropertyOf(this.dataProperty(sub), this.dataProperty(sup)));
    if (kind !== 0) return fail('rdfs:subPropertyOf between an object and a data property');
    return this.emit(i, subAnnotationPropertyOf(this.annotationProperty(sub), this.annotationProperty(sup)));
  }

  /** Like the OWL API, a property equivalence with an IRI of unknown kind (declared only in an import not loaded) is not mapped. */
  private requireTyped(a: TermId, b: TermId): void {
    for (const x of [a, b])
      if (this.isIri(x) && this.kindOf(x) === 0) fail('equivalence with <' + this.iri(x) + '>, whose kind is unknown');
  }

  private mapPropertyPair(i: number): boolean {
    const s = this.subj(i),
      o = this.ref(this.obj(i)),
      equivalent = this.pred(i) === O.equivalentProperty;
    this.requireTyped(s, o);
    const k = (this.isIri(s) ? this.kindOf(s) : K_OP) | (this.isIri(o) ? this.kindOf(o) : K_OP);
    if ((k & (K_DP | K_OP)) === K_DP) {
      const pair = [this.dataProperty(this.named(s)), this.dataProperty(this.named(o))];
      return this.emit(i, equivalent ? equivalentDataProperties(pair) : disjointDataProperties(pair));
    }
    const pair = [this.ope(s), this.ope(o)];
    return this.emit(i, equivalent ? equivalentObjectProperties(pair) : disjointObjectProperties(pair));
  }

  /** Domain by the property's kind: object, data, else (annotation or untyped) annotation property domain. */
  private mapDomain(i: number): boolean {
    const s = this.subj(i),
      o = this.ref(this.obj(i));
    const k = this.isIri(s) ? this.kindOf(s) : K_OP;
    if (k & K_OP || ((k & K_DP) === 0 && this.isBlank(o))) {
      const p = this.ope(s);
      return this.emit(i, objectPropertyDomain(p, this.ce(o)));
    }
    if (k & K_DP) return this.emit(i, dataPropertyDomain(this.dataProperty(s), this.ce(o)));
    return this.emit(i, annotationPropertyDomain(this.annotationProperty(s), this.iri(this.named(o))));
  }

  /** Range: an annotation property's range first (as the OWL API does for punned ones), else by kind or range. */
  private mapRange(i: number): boolean {
    const s = this.subj(i),
      o = this.ref(this.obj(i));
    const k = this.isIri(s) ? this.kindOf(s) : K_OP;
    if (k & K_AP && this.isIri(o)) return this.emit(i, annotationPropertyRange(this.annotationProperty(s), this.iri(o)));
    if (k & K_OP || ((k & K_DP) === 0 && !this.isDataRange(o))) {
      const p = this.ope(s);
      return this.emit(i, objectPropertyRange(p, this.ce(o)));
    }
    return this.emit(i, dataPropertyRange(this.dataProperty(s), this.dataRange(o)));
  }

  /** The axiom an n-ary axiom node stands for, with the node's annotations. */
  private addNode(x: TermId, make: (anns: readonly Annotation[]) => Axiom): true {
    const anns = this.annotationsOf(x);
    const axiom = checkArity(make(anns));
    this.useStructure(x);
    this.axioms.add(axiom);
    return true;
  }

  private mapAllDisjointClasses(x: TermId): boolean {
    const members = this.list(this.members(x)).map((m) => this.ce(m));
    return this.addNode(x, (anns) => disjointClasses(members, anns));
  }

  private mapAllDisjointProperties(x: TermId): boolean {
    const members = this.list(this.members(x));
    if (members.some((m) => this.isIri(m) && (this.kindOf(m) & (K_OP | K_DP)) === K_DP)) {
      const dps = members.map((m) => dataProperty(this.iri(this.named(m))));
      return this.addNode(x, (anns) => disjointDataProperties(dps, anns));
    }
    const ops = members.map((m) => this.ope(m));
    return this.addNode(x, (anns) => disjointObjectProperties(ops, anns));
  }

  private mapAllDifferent(x: TermId): boolean {
    const distinct = this.use(x, O.distinctMembers);
    const members = this.list(distinct >= 0 ? this.ref(distinct) : this.members(x)).map((y) => this.individual(y));
    return this.addNode(x, (anns) => differentIndividuals(members, anns));
  }

  private members(x: TermId): TermId {
    const m = this.use(x, O.members);
    return m >= 0 ? this.ref(m) : fail('n-ary axiom node without owl:members');
  }

  private mapNegativeAssertion(x: TermId): boolean {
    const src = this.use(x, O.sourceIndividual),
      prop = this.use(x, O.assertionProperty);
    if (src < 0) fail('no owl:sourceIndividual');
    if (prop < 0) fail('no owl:assertionProperty');
    const source = this.individual(this.ref(src)),
      property = this.ref(prop);
    const target = this.use(x, O.targetIndividual);
    const value = this.use(x, O.targetValue);
    if (target >= 0) {
      const ope = this.ope(property),
        object = this.individual(this.ref(target));
      return this.addNode(x, (anns) => negativeObjectPropertyAssertion(ope, source, object, anns));
    }
    const v = value >= 0 ? this.lit(value) : undefined;
    if (v === undefined) return fail('negative property assertion without a valid target');
    const dp = this.dataProp(property);
    return this.addNode(x, (anns) => negativeDataPropertyAssertion(dp, source, v, anns));
  }

  // ------------------------------------------------------------ pass 4: header and assertions

  /**
   * The header: like the OWL API, the annotations and imports of every owl:Ontology node are the ontology's;
   * the IRI and version IRI are those of the chosen node.
   */
  private mapHeader(): void {
    const chosen = this.chooseOntologyNode();
    const ont = this.ontology;
    const imports: string[] = [];
    let versionIri: string | null = null;
    // The OWL API also takes every import target for an ontology node, so the annotations on it are the ontology's.
    const nodes = [...this.ontologyNodes];
    // nodes grows while it is walked, so by index (k < nodes.length).
    for (let k = 0; k < nodes.length; k++) {
      for (const i of this.triplesOf(nodes[k]!)) if (this.pred(i) === O.imports && !nodes.includes(this.obj(i))) nodes.push(this.obj(i));
    }
    for (const node of nodes) {
      for (const i of this.triplesOf(node)) {
        if (this.consumed[i]) continue;
        const p = this.pred(i),
          o = this.obj(i);
        if (p === RDF_TYPE && o === O.Ontology) this.consumed[i] = 1;
        else if (p === O.imports && this.isIri(o)) {
          imports.push(this.iri(o));
          this.consumed[i] = 1;
        } else if (p === O.versionIRI && this.isIri(o)) {
          if (node === chosen) versionIri = this.iri(o);
          this.consumed[i] = 1;
        } else if (this.isReservedPredicate(p)) {
          continue;
        } else if (!this.isAnnotationPredicate(p)) {
          this.attempt(i, this.mapRemainingTriple);
        } else {
          this.attempt(i, (k) => {
            ont.annotations.add(this.annotationFromTriple(k));
            return true;
          });
        }
      }
    }
    ont.id = { iri: chosen !== undefined && this.isIri(chosen) ? this.iri(chosen) : null, versionIri };
    for (const iri of imports) ont.imports.add(iri);
  }

  /** Like the OWL API: the only owl:Ontology node, else the first not used as an annotation value. */
  private chooseOntologyNode(): TermId | undefined {
    const nodes = this.ontologyNodes;
    if (nodes.length <= 1) return nodes[0];
    const referenced = new Set<TermId>();
    for (const node of nodes) for (const i of this.triplesOf(node)) if (this.pred(i) !== RDF_TYPE) referenced.add(this.obj(i));
    return nodes.find((x) => !referenced.has(x)) ?? nodes[0];
  }

  private mapRemainingTriple(i: number): boolean {
    const s = this.subj(i),
      p = this.pred(i),
      o = this.obj(i);
    if (this.isReservedPredicate(p)) return false;
    if (this.structural[s] === 1) return fail('annotation of a blank node that is not an individual');
    const k = this.kindOf(p);
    const value = this.lit(o);
    if (k & K_OP && value === undefined) {
      return this.emit(i, objectPropertyAssertion(this.objectProperty(p), this.individual(s), this.individual(o)));
    }
    if (k & K_DP && value !== undefined) {
      return this.emit(i, dataPropertyAssertion(this.dataProperty(p), this.individual(s), value));
    }
    return this.emit(i, annotationAssertion(this.annotationProperty(p), this.annotationSubject(s), this.annotationValue(o)));
  }

  // ------------------------------------------------------------ terms

  /** A subject/object used as a node (not a literal). */
  ref(t: TermId): TermId {
    if (t >= 0 && this.lit(t) === undefined) return t;
    return fail(t < 0 ? 'missing node' : 'literal where a node is required');
  }

  named(t: TermId): TermId {
    return this.isIri(t) ? t : fail('blank node where an IRI is required');
  }

  individual(t: TermId): Individual {
    return this.isIri(t) ? this.namedIndividual(t) : this.anon(t);
  }

  anon(t: TermId): AnonymousIndividual {
    let a = this.anons.get(t);
    if (a === undefined) this.anons.set(t, (a = anonymousIndividual(this.iri(t).slice(2))));
    return a;
  }

  private annotationSubject(t: TermId): AnnotationSubject {
    return this.isIri(t) ? this.iriNode(t) : this.anon(t);
  }

  annotationValue(t: TermId): AnnotationValue {
    const l = this.lit(t);
    if (l !== undefined) return l;
    return this.isIri(t) ? this.iriNode(t) : this.anon(t);
  }

  ope(t: TermId): ObjectPropertyExpression {
    if (this.isIri(t)) {
      if (this.isAnnotationOnly(t)) fail('<' + this.iri(t) + '> is an annotation property, used as an object property');
      return this.objectProperty(t);
    }
    const inv = this.use(t, O.inverseOf);
    if (inv < 0) fail('blank node property without owl:inverseOf');
    this.useStructure(t);
    return objectInverseOf(objectProperty(this.iri(this.named(this.ref(inv)))));
  }

  /** RDF list members, using the list's triples. */
  list(head: TermId): TermId[] {
    return this.listOf(head, (t) => this.ref(t));
  }

  literalList(head: TermId): Literal[] {
    return this.listOf(head, (t) => this.lit(t) ?? fail('non-literal in a data value list'));
  }

  listOf<T>(head: TermId, item: (t: TermId) => T): T[] {
    const out: T[] = [];
    const seen = new Set<TermId>();
    for (let x = head; x !== RDF_NIL;) {
      if (!this.isBlank(x) || seen.has(x)) fail('malformed RDF list');
      seen.add(x);
      const first = this.use(x, RDF_FIRST);
      const rest = this.use(x, RDF_REST);
      if (first < 0 || rest < 0) fail('RDF list node without rdf:first/rdf:rest');
      const type = this.objectOf(x, RDF_TYPE);
      if (type >= 0 && (this.obj(type) === RDF_LIST || this.obj(type) === S.AtomList)) this.pending.push(type);
      this.structural[x] = 1;
      out.push(item(first));
      x = this.ref(rest);
    }
    return out;
  }

  // ------------------------------------------------------------ class expressions

  ce(t: TermId): ClassExpression {
    if (this.isIri(t)) return this.cls(t);
    const cached = this.ceCache.get(t);
    if (cached !== undefined) return this.reused(t, cached);
    const c = this.within(t, () => this.ceFrom(t, -1));
    this.useStructure(t);
    this.ceCache.set(t, c);
    return c;
  }

  /**
   * Reads the structure behind blank node x; x met again while it is being read is a cycle, which no OWL 2
   * construct is (expressions and annotations are trees): the axiom using it is reported as unmappable.
   */
  private within<T>(x: TermId, read: () => T): T {
    if (this.reading.has(x)) fail('cyclic blank-node structure');
    if (this.reading.size === MAX_EXPRESSION_NESTING) throw new NestingLimitError('blank-node structures');
    this.reading.add(x);
    const outer = this.tallest;
    this.tallest = 0;
    try {
      const value = read();
      this.heights.set(x, this.tallest + 1);
      return value;
    } finally {
      this.reading.delete(x);
      this.tallest = Math.max(outer, this.heights.get(x) ?? 0);
    }
  }

  /** A structure read before, used again: its whole height counts where it is used now. */
  private reused<T>(x: TermId, value: T): T {
    const height = this.heights.get(x) ?? 1;
    if (this.reading.size + height > MAX_EXPRESSION_NESTING) throw new NestingLimitError('blank-node structures');
    this.tallest = Math.max(this.tallest, height);
    return value;
  }

  /** The object of (x p ?) used by the expression being read; only triple `only` when given (a named class's OWL 1 definition). */
  private part(x: TermId, p: TermId, only: number): TermId {
    if (only >= 0) return this.pred(only) === p ? this.obj(only) : -1;
    return this.use(x, p);
  }

  /** The class expression node x describes; only triple `only` when given (a named class's OWL 1 definition). */
  private ceFrom(x: TermId, only: number): ClassExpression {
    let v: TermId;
    if ((v = this.part(x, O.intersectionOf, only)) >= 0)
      return combined(objectIntersectionOf(this.list(this.ref(v)).map((y) => this.ce(y))), 'owl:intersectionOf');
    if ((v = this.part(x, O.unionOf, only)) >= 0)
      return combined(objectUnionOf(this.list(this.ref(v)).map((y) => this.ce(y))), 'owl:unionOf');
    if ((v = this.part(x, O.complementOf, only)) >= 0) return objectComplementOf(this.ce(this.ref(v)));
    if ((v = this.part(x, O.oneOf, only)) >= 0) return objectOneOf(nonEmpty(this.list(this.ref(v)).map((y) => this.individual(y))));
    if (only < 0) {
      const p = this.use(x, O.onProperty);
      if (p >= 0) return this.restriction(x, this.ref(p));
      const ps = this.use(x, O.onProperties);
      if (ps >= 0) return this.restriction(x, this.singleProperty(this.ref(ps)));
    }
    return fail('blank node is not a class expression');
  }

  /** owl:onProperties of an n-ary data restriction: OWL 2 has no n-ary data range, so only one property maps. */
  private singleProperty(list: TermId): TermId {
    const ps = this.list(list);
    const [only] = ps;
    if (only === undefined || ps.length !== 1)
      return fail('owl:onProperties with ' + ps.length + ' properties (n-ary data ranges are not supported)');
    return this.named(only);
  }

  private restriction(x: TermId, p: TermId): ClassExpression {
    const dataish = this.isIri(p) && (this.kindOf(p) & (K_OP | K_DP)) === K_DP;
    let v: TermId;
    for (const some of [true, false]) {
      if ((v = this.use(x, some ? O.someValuesFrom : O.allValuesFrom)) < 0) continue;
      const filler = this.ref(v);
      if (dataish || (this.isIri(p) && (this.kindOf(p) & K_OP) === 0 && this.isDataRange(filler))) {
        const dp = this.dataProp(p),
          dr = this.dataRange(filler);
        return some ? dataSomeValuesFrom(dp, dr) : dataAllValuesFrom(dp, dr);
      }
      const op = this.ope(p),
        c = this.ce(filler);
      return some ? objectSomeValuesFrom(op, c) : objectAllValuesFrom(op, c);
    }
    if ((v = this.use(x, O.hasValue)) >= 0) {
      const value = this.lit(v);
      if (value !== undefined) return dataHasValue(this.dataProp(p), value);
      return objectHasValue(this.ope(p), this.individual(v));
    }
    if (this.use(x, O.hasSelf) >= 0) return objectHasSelf(this.ope(p));
    for (const [k, cardinality] of CARDINALITIES.entries()) {
      if ((v = this.use(x, cardinality)) < 0) continue;
      const n = this.cardinality(v);
      const which = k % 3;
      const onClass = this.use(x, O.onClass),
        onRange = this.use(x, O.onDataRange);
      if (onRange >= 0 || (onClass < 0 && dataish)) {
        const dp = this.dataProp(p);
        const dr = onRange < 0 ? undefined : this.dataRange(this.ref(onRange));
        return which === 0 ? dataMinCardinality(n, dp, dr) : which === 1 ? dataMaxCardinality(n, dp, dr) : dataExactCardinality(n, dp, dr);
      }
      const op = this.ope(p);
      const c = onClass < 0 ? undefined : this.ce(this.ref(onClass));
      return which === 0 ? objectMinCardinality(n, op, c) : which === 1 ? objectMaxCardinality(n, op, c) : objectExactCardinality(n, op, c);
    }
    // OWL 1.1's owl:SelfRestriction (a type, not a predicate) is the OWL 2 owl:hasSelf.
    const type = this.objectOf(x, RDF_TYPE);
    if (type >= 0 && this.obj(type) === O.SelfRestriction) return objectHasSelf(this.ope(p));
    return fail('owl:Restriction without a supported restriction predicate');
  }

  private cardinality(v: TermId): number {
    const l = this.lit(v) ?? fail('cardinality is not a literal');
    const n = Number(l.lex.trim());
    return Number.isInteger(n) && n >= 0 ? n : fail('cardinality "' + l.lex + '" is not a non-negative integer');
  }

  dataProp(p: TermId): DataProperty {
    if (this.isAnnotationOnly(this.named(p))) fail('<' + this.iri(p) + '> is an annotation property, used as a data property');
    return this.dataProperty(p);
  }

  // ------------------------------------------------------------ data ranges

  /**
   * Whether a node is a data range: a datatype, or a blank node typed as one or built like one. An explicit
   * type decides wherever its triple stands; else a boolean combination or enumeration is a data range when
   * one of its members is (a literal, for an enumeration). `visiting` guards cyclic lists and expressions.
   */
  isDataRange(t: TermId, visiting: Set<TermId> = new Set(), depth = 0): boolean {
    if (this.isIri(t)) return (this.kindOf(t) & K_DT) !== 0 || isBuiltInDatatype(this.iri(t));
    if (visiting.has(t)) return false;
    if (depth === MAX_EXPRESSION_NESTING) throw new NestingLimitError('blank-node structures');
    visiting.add(t);
    let built = false;
    for (const i of this.triplesOf(t)) {
      const p = this.pred(i),
        o = this.obj(i);
      if (p === O.onDatatype || p === O.datatypeComplementOf) return true;
      if (p === RDF_TYPE && (o === RDFS_DATATYPE || o === O.DataRange)) return true;
      if (p === RDF_TYPE && (o === O.Class || o === O.Restriction)) return false;
      if (p === O.oneOf) built ||= this.someListMember(o, visiting, (m) => this.lit(m) !== undefined);
      if (p === O.intersectionOf || p === O.unionOf)
        built ||= this.someListMember(o, visiting, (m) => this.lit(m) === undefined && this.isDataRange(m, visiting, depth + 1));
    }
    return built;
  }

  private someListMember(head: TermId, visiting: Set<TermId>, test: (m: TermId) => boolean): boolean {
    for (let x = head; this.isBlank(x) && !visiting.has(x);) {
      visiting.add(x);
      const first = this.objectOf(x, RDF_FIRST),
        rest = this.objectOf(x, RDF_REST);
      if (first < 0 || rest < 0) return false;
      if (test(this.obj(first))) return true;
      x = this.obj(rest);
    }
    return false;
  }

  dataRange(t: TermId): DataRange {
    if (this.isIri(t)) return datatype(this.iri(t));
    const cached = this.drCache.get(t);
    if (cached !== undefined) return this.reused(t, cached);
    const d = this.within(t, () => this.dataRangeFrom(t, -1));
    this.useStructure(t);
    this.drCache.set(t, d);
    return d;
  }

  private dataRangeFrom(x: TermId, only: number): DataRange {
    let v: TermId;
    if ((v = this.part(x, O.intersectionOf, only)) >= 0)
      return combined(dataIntersectionOf(this.list(this.ref(v)).map((y) => this.dataRange(y))), 'owl:intersectionOf');
    if ((v = this.part(x, O.unionOf, only)) >= 0)
      return combined(dataUnionOf(this.list(this.ref(v)).map((y) => this.dataRange(y))), 'owl:unionOf');
    if ((v = this.part(x, O.datatypeComplementOf, only)) >= 0) return dataComplementOf(this.dataRange(this.ref(v)));
    if ((v = this.part(x, O.complementOf, only)) >= 0) return dataComplementOf(this.dataRange(this.ref(v)));
    if ((v = this.part(x, O.oneOf, only)) >= 0) return dataOneOf(nonEmpty(this.literalList(this.ref(v))));
    if (only < 0 && (v = this.use(x, O.onDatatype)) >= 0) {
      const dt = datatype(this.iri(this.named(this.ref(v))));
      const w = this.use(x, O.withRestrictions);
      if (w < 0) fail('owl:onDatatype without owl:withRestrictions');
      return datatypeRestriction(
        dt,
        this.list(this.ref(w)).map((f) => this.facet(f)),
      );
    }
    return fail('blank node is not a data range');
  }

  private facet(f: TermId): FacetRestriction {
    for (const i of this.triplesOf(f)) {
      const v = this.lit(this.obj(i));
      if (this.pred(i) === RDF_TYPE || v === undefined) continue;
      this.pending.push(i);
      this.structural[f] = 1;
      return facetRestriction(this.iri(this.pred(i)), v);
    }
    return fail('facet restriction without a literal value');
  }
}

// The arity rules of the Structural Specification. The RDF graph can state what no OWL 2 construct is: a
// one-member list, an equivalence of a class with itself. Where the meaning is the same, the construct is
// normalised; where no construct exists, the triples are reported as unmappable.

/**
 * ObjectIntersectionOf, ObjectUnionOf, DataIntersectionOf and DataUnionOf take at least two operands (§8.1.1,
 * §8.1.2, §7.1, §7.2); over one operand they mean that operand, so they are read as it.
 */
function combined<T, C extends T & { readonly operands: readonly T[] }>(c: C, what: string): T {
  const [only, second] = c.operands;
  if (second !== undefined) return c;
  if (only !== undefined) return only;
  return fail(what + ' with an empty list (Structural Specification §7.1, §8.1.1: at least two operands)');
}

/** ObjectOneOf and DataOneOf name at least one individual or literal (§8.1.4, §7.4). */
function nonEmpty<T>(members: T[]): T[] {
  return members.length > 0 ? members : fail('owl:oneOf with an empty list (Structural Specification §7.4, §8.1.4: at least one member)');
}

/** A property chain has at least two links (§9.2.1); a one-link chain is the plain subproperty axiom. */
function chainAxiom(chain: ObjectPropertyExpression[], sup: ObjectPropertyExpression): Axiom {
  const [only, second] = chain;
  if (second !== undefined) return subPropertyChainOf(chain, sup);
  if (only !== undefined) return subObjectPropertyOf(only, sup);
  return fail('property chain with an empty list (Structural Specification §9.2.1: at least two properties)');
}

/** The n-ary axioms relate at least two distinct operands (§9.1.2–9.1.4, §9.2.2–9.2.3, §9.3.2–9.3.3, §9.6.1–9.6.2); a key has a property (§9.5). */
function checkArity<A extends Axiom>(a: A): A {
  let n = 2;
  switch (a.kind) {
    case 'EquivalentClasses':
    case 'DisjointClasses':
    case 'DisjointUnion':
      n = a.classes.length;
      break;
    case 'EquivalentObjectProperties':
    case 'DisjointObjectProperties':
    case 'EquivalentDataProperties':
    case 'DisjointDataProperties':
      n = a.properties.length;
      break;
    case 'SameIndividual':
    case 'DifferentIndividuals':
      n = a.individuals.length;
      break;
    case 'HasKey':
      n = a.objectProperties.length + a.dataProperties.length > 0 ? 2 : 0;
      break;
    default:
      otherKinds(a, ANY_AXIOM);
  }
  return n >= 2
    ? a
    : fail(a.kind + ' needs ' + (a.kind === 'HasKey' ? 'a property' : 'two distinct operands') + ' (Structural Specification §9)');
}

/** An array of n empty slots, filled so that it is a fast elements array. */
function emptySlots<T>(n: number): (T | undefined)[] {
  return new Array<T | undefined>(n).fill(undefined);
}
