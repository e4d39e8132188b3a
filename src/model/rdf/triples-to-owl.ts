// The reverse OWL 2 RDF mapping (W3C "OWL 2 Mapping to RDF Graphs", section 3): a triple table in, an
// Ontology out. It is lax the way the OWL API is: undeclared entities are typed from how they are used,
// and anything that still cannot be mapped is kept in `ontology.unmapped` with the reason.
//
// The work is done in a few linear passes over the table:
//   1. index triples by subject and collect rdf:type facts (declared kinds, special nodes);
//   2. index reifications (owl:Axiom / owl:Annotation) by the triple they annotate;
//   3. map axiom triples; class expressions, data ranges and lists behind blank nodes are translated on
//      demand, and a triple is marked consumed only when the axiom using it is built;
//   4. map what is left: ontology header, property and annotation assertions, else `unmapped`.

import {
  type Annotation, type AnnotationSubject, type AnnotationValue, type AnonymousIndividual, type Axiom,
  type ClassExpression, type DataProperty, type DataRange, type Individual, type Literal,
  type ObjectPropertyExpression, type CharacteristicKind, type FacetRestriction,
  annotation, annotationAssertion, annotationProperty, anonymousIndividual, classAssertion, cls, dataAllValuesFrom,
  dataComplementOf, dataExactCardinality, dataHasValue, dataIntersectionOf, dataMaxCardinality, dataMinCardinality,
  dataOneOf, dataProperty, dataPropertyAssertion, dataPropertyDomain, dataPropertyRange, dataSomeValuesFrom,
  dataUnionOf, datatype, datatypeDefinition, datatypeRestriction, declaration, differentIndividuals,
  disjointClasses, disjointDataProperties, disjointObjectProperties, disjointUnion, entity, equivalentClasses,
  equivalentDataProperties, equivalentObjectProperties, facetRestriction, functionalDataProperty, hasKey,
  inverseObjectProperties, iriNode, namedIndividual, negativeDataPropertyAssertion, negativeObjectPropertyAssertion,
  objectAllValuesFrom, objectComplementOf, objectExactCardinality, objectHasSelf, objectHasValue,
  objectIntersectionOf, objectInverseOf, objectMaxCardinality, objectMinCardinality, objectOneOf, objectProperty,
  objectPropertyAssertion, objectPropertyCharacteristic, objectPropertyDomain, objectPropertyRange,
  objectSomeValuesFrom, objectUnionOf, sameIndividual, subAnnotationPropertyOf, subClassOf, subDataPropertyOf,
  subObjectPropertyOf, subPropertyChainOf, annotationPropertyDomain, annotationPropertyRange,
  type EntityKind, axiomWithoutAnnotations,
} from '../terms.js';
import { Ontology } from '../ontology.js';
import { type ObjectTerm, type TermKey, type TripleTable, isBlank, isIri, tripleText } from './rdf-graph-reader.js';
import {
  RDF_TYPE, RDF_FIRST, RDF_REST, RDF_NIL, RDF_LIST, RDF_PROPERTY, RDFS_SUBCLASS_OF, RDFS_SUBPROPERTY_OF, RDFS_DOMAIN,
  RDFS_RANGE, RDFS_DATATYPE, RDFS_CLASS, O, S, K_CLASS, K_OP, K_DP, K_AP, K_IND, K_DT, DECLARING_TYPES,
  CHARACTERISTICS, isReserved, isBuiltInDatatype,
} from './vocab-reader.js';
import { SwrlReader } from './swrl-reader.js';

/** Thrown while mapping one axiom when its triples do not form an OWL 2 construct. */
export class Unmappable extends Error {}

const fail = (reason: string): never => {
  throw new Unmappable(reason);
};

const KIND_OF_BIT: ReadonlyMap<number, EntityKind> = new Map([
  [K_CLASS, 'Class'], [K_OP, 'ObjectProperty'], [K_DP, 'DataProperty'], [K_AP, 'AnnotationProperty'],
  [K_IND, 'NamedIndividual'], [K_DT, 'Datatype'],
]);

/** rdf:type objects that only mark structure (their subject is consumed as an expression, list, etc.). */
const STRUCTURAL_TYPES = new Set<string>([
  O.Restriction, O.DataRange, RDF_LIST, O.Axiom, O.Annotation, S.Variable, S.AtomList, S.ClassAtom, S.DataRangeAtom,
  S.IndividualPropertyAtom, S.DatavaluedPropertyAtom, S.BuiltinAtom, S.SameIndividualAtom, S.DifferentIndividualsAtom,
]);

/** Predicates that only occur inside structures translated on demand. */
const STRUCTURAL_PREDICATES = new Set<string>([
  RDF_FIRST, RDF_REST, O.onProperty, O.someValuesFrom, O.allValuesFrom, O.hasValue, O.hasSelf, O.minCardinality,
  O.maxCardinality, O.cardinality, O.minQualifiedCardinality, O.maxQualifiedCardinality, O.qualifiedCardinality,
  O.onClass, O.onDataRange, O.onDatatype, O.withRestrictions, O.datatypeComplementOf, O.members, O.distinctMembers,
  O.annotatedSource, O.annotatedProperty, O.annotatedTarget, O.sourceIndividual, O.assertionProperty,
  O.targetIndividual, O.targetValue,
]);

const OWL1_OBJECT_PROPERTY_TYPES = new Set([
  'http://www.w3.org/2002/07/owl#TransitiveProperty', 'http://www.w3.org/2002/07/owl#SymmetricProperty',
  'http://www.w3.org/2002/07/owl#InverseFunctionalProperty',
]);

const CARDINALITIES = [
  O.minCardinality, O.maxCardinality, O.cardinality, O.minQualifiedCardinality, O.maxQualifiedCardinality,
  O.qualifiedCardinality,
];

/** Maps the triples of one RDF document into a new Ontology. */
export function triplesToOntology(table: TripleTable): Ontology {
  return new RdfToOwl(table).run();
}

export class RdfToOwl {
  readonly ontology = new Ontology();
  readonly s: TermKey[];
  readonly p: string[];
  readonly o: ObjectTerm[];
  private n: number;
  private consumed = new Uint8Array(0);
  /** Triple indexes by subject. */
  private readonly bySubject = new Map<TermKey, number[]>();
  /** Kind bits per IRI: declared by rdf:type, then widened by use. */
  readonly kinds = new Map<string, number>();
  private readonly declared = new Map<string, number>();
  /** Nodes typed owl:Ontology, in document order. */
  private readonly ontologyNodes: TermKey[] = [];
  /** Reification nodes by the key of the triple they annotate. */
  private readonly reifications = new Map<string, TermKey[]>();
  private readonly reifiedSubjects = new Set<TermKey>();
  /** Triple indexes used by the axiom being built; committed when it succeeds. */
  private pending: number[] = [];
  private readonly failures = new Map<number, string>();
  private readonly ceCache = new Map<TermKey, ClassExpression>();
  private readonly drCache = new Map<TermKey, DataRange>();
  /** Blank nodes already translated as a structure (expression, list, atom): never individuals. */
  private readonly structural = new Set<TermKey>();
  private readonly anons = new Map<TermKey, AnonymousIndividual>();
  private readonly predicateClass = new Map<string, boolean>();
  private readonly swrl: SwrlReader;
  /** Triples from index `asserted` on were added for reifications whose triple the document lacks. */
  private readonly asserted: number;
  /** Annotated axioms built from such reifications: they replace the plain axiom of an equivalent triple. */
  private readonly replacing: Axiom[] = [];

  constructor(table: TripleTable) {
    this.s = table.s;
    this.p = table.p;
    this.o = table.o;
    this.n = table.size;
    this.asserted = table.size;
    this.ontology.unmapped.push(...table.unmapped);
    this.swrl = new SwrlReader(this);
  }

  run(): Ontology {
    this.indexTriples();
    this.indexReifications();
    this.consumed = new Uint8Array(this.n);
    for (let i = 0; i < this.n; i++) if (this.consumed[i] === 0) this.attempt(i, this.mapAxiomTriple);
    this.mapHeader();
    for (let i = 0; i < this.n; i++) if (this.consumed[i] === 0) this.attempt(i, this.mapRemainingTriple);
    for (const a of this.replacing) if (a.annotations.length > 0) this.ontology.remove(axiomWithoutAnnotations(a));
    for (let i = 0; i < this.n; i++) {
      if (this.consumed[i] === 0) {
        this.ontology.unmapped.push({
          text: tripleText(this.s[i], this.p[i], this.o[i]),
          reason: this.failures.get(i) ?? 'not part of any OWL 2 construct',
        });
      }
    }
    return this.ontology;
  }

  // ------------------------------------------------------------ pass 1: indexes

  private indexTriples(): void {
    const { s, p, o, bySubject } = this;
    for (let i = 0; i < this.n; i++) {
      const subj = s[i];
      const list = bySubject.get(subj);
      if (list === undefined) bySubject.set(subj, [i]);
      else list.push(i);
      if (p[i] !== RDF_TYPE) continue;
      const type = o[i];
      if (typeof type !== 'string') continue;
      const bit = DECLARING_TYPES.get(type);
      if (bit !== undefined) {
        if (isIri(subj)) {
          this.declared.set(subj, (this.declared.get(subj) ?? 0) | bit);
          this.addKind(subj, bit);
        }
      } else if (type === O.Ontology) {
        if (!this.ontologyNodes.includes(subj)) this.ontologyNodes.push(subj);
      } else if (CHARACTERISTICS.has(type as never)) {
        if (isIri(subj)) this.addKind(subj, K_OP);
      } else if (type === O.DeprecatedClass) {
        this.addKind(subj, K_CLASS);
      }
    }
  }

  addKind(iri: string, bit: number): void {
    this.kinds.set(iri, (this.kinds.get(iri) ?? 0) | bit);
  }

  kindOf(iri: TermKey): number {
    return this.kinds.get(iri) ?? 0;
  }

  // ------------------------------------------------------------ pass 2: reifications

  private indexReifications(): void {
    for (let i = 0; i < this.n; i++) {
      if (this.p[i] !== RDF_TYPE || (this.o[i] !== O.Axiom && this.o[i] !== O.Annotation)) continue;
      const x = this.s[i];
      this.structural.add(x);
      const src = this.objectOf(x, O.annotatedSource);
      const prop = this.objectOf(x, O.annotatedProperty);
      const tgt = this.objectOf(x, O.annotatedTarget);
      if (src < 0 || prop < 0 || tgt < 0) continue;
      const source = this.o[src], property = this.o[prop], target = this.o[tgt];
      if (typeof source !== 'string' || !isIri(property)) continue;
      const key = tripleKey(source, property, target);
      const list = this.reifications.get(key);
      if (list === undefined) this.reifications.set(key, [x]);
      else list.push(x);
      this.reifiedSubjects.add(source);
      // An owl:Axiom whose triple is not asserted still stands for that axiom: add the triple.
      if (this.o[i] === O.Axiom && this.findTriple(source, property, target) < 0) this.addTriple(source, property, target);
    }
  }

  private addTriple(s: TermKey, p: string, o: ObjectTerm): void {
    const i = this.n++;
    this.s.push(s);
    this.p.push(p);
    this.o.push(o);
    const list = this.bySubject.get(s);
    if (list === undefined) this.bySubject.set(s, [i]);
    else list.push(i);
  }

  // ------------------------------------------------------------ triple access

  triplesOf(x: TermKey): readonly number[] {
    return this.bySubject.get(x) ?? NO_TRIPLES;
  }

  /** Index of the first triple (x p ?), or -1. */
  objectOf(x: TermKey, p: string): number {
    const list = this.bySubject.get(x);
    if (list === undefined) return -1;
    for (let k = 0; k < list.length; k++) if (this.p[list[k]] === p) return list[k];
    return -1;
  }

  private findTriple(s: TermKey, p: string, o: ObjectTerm): number {
    const list = this.bySubject.get(s);
    if (list === undefined) return -1;
    for (const i of list) if (this.p[i] === p && this.o[i] === o) return i;
    return -1;
  }

  /** The object of (x p ?), marking the triple as used by the axiom being built; undefined if absent. */
  use(x: TermKey, p: string): ObjectTerm | undefined {
    const i = this.objectOf(x, p);
    if (i < 0) return undefined;
    this.pending.push(i);
    return this.o[i];
  }

  /** Marks a node as a structure (never an individual) and its rdf:type triples of reserved types as used. */
  useStructure(x: TermKey): void {
    for (const i of this.triplesOf(x)) {
      const o = this.o[i];
      if (this.p[i] === RDF_TYPE && typeof o === 'string' && this.isReservedPredicate(o)) this.pending.push(i);
    }
    this.structural.add(x);
  }

  isReservedPredicate(p: string): boolean {
    let r = this.predicateClass.get(p);
    if (r === undefined) this.predicateClass.set(p, (r = isReserved(p)));
    return r;
  }

  // ------------------------------------------------------------ emitting axioms

  /** Runs a mapping step for triple i; its triples are consumed only if it succeeds. */
  private attempt(i: number, step: (i: number) => boolean): void {
    this.pending.length = 0;
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

  /** Adds the axiom(s) a triple stands for: one per reification (with its annotations), else one plain. */
  private emit(i: number, build: (anns: readonly Annotation[]) => Axiom): true {
    const nodes = this.reificationsOf(this.s[i], this.p[i], this.o[i]);
    if (nodes === undefined) {
      this.ontology.add(build(NO_ANNOTATIONS));
      return true;
    }
    for (const x of nodes) {
      const a = build(this.annotationsOf(x));
      this.ontology.add(a);
      if (i >= this.asserted) this.replacing.push(a);
    }
    return true;
  }

  private reificationsOf(s: TermKey, p: string, o: ObjectTerm): TermKey[] | undefined {
    if (this.reifications.size === 0 || !this.reifiedSubjects.has(s)) return undefined;
    return this.reifications.get(tripleKey(s, p, o));
  }

  /** Annotations carried by a node (a reification, an n-ary axiom node, a rule): its annotation triples. */
  annotationsOf(x: TermKey): Annotation[] {
    const out: Annotation[] = [];
    for (const i of this.triplesOf(x)) {
      const p = this.p[i];
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
    const nested = this.reificationsOf(this.s[i], this.p[i], this.o[i]);
    const anns: Annotation[] = [];
    if (nested !== undefined) for (const y of nested) anns.push(...this.annotationsOf(y));
    return annotation(annotationProperty(this.p[i]), this.annotationValue(this.o[i]), anns);
  }

  /** Lax: a non-reserved predicate not typed as an object or data property is an annotation property. */
  isAnnotationPredicate(p: string): boolean {
    const k = this.kindOf(p);
    return (k & K_AP) !== 0 || (k & (K_OP | K_DP)) === 0;
  }

  // ------------------------------------------------------------ pass 3: axiom triples

  private mapAxiomTriple(i: number): boolean {
    const s = this.s[i], o = this.o[i];
    switch (this.p[i]) {
      case RDF_TYPE: return this.mapType(i);
      case RDFS_SUBCLASS_OF: return this.emitWith(i, subClassOf, this.ce(s), this.ce(this.ref(o)));
      case O.equivalentClass: return this.mapEquivalentClass(i);
      case O.disjointWith: {
        const pair = [this.ce(s), this.ce(this.ref(o))];
        return this.emit(i, (a) => disjointClasses(pair, a));
      }
      case O.disjointUnionOf: {
        const c = cls(this.named(s)), parts = this.list(this.ref(o)).map((x) => this.ce(x));
        return this.emit(i, (a) => disjointUnion(c, parts, a));
      }
      case O.hasKey: return this.mapHasKey(i);
      case O.intersectionOf: case O.unionOf: case O.complementOf: case O.oneOf:
        return isIri(s) && this.mapNamedExpression(i);
      case RDFS_SUBPROPERTY_OF: return this.mapSubProperty(i);
      case O.equivalentProperty: case O.propertyDisjointWith: return this.mapPropertyPair(i);
      case O.inverseOf: {
        if (!isIri(s)) return false;
        const p = this.ope(s), q = this.ope(this.ref(o));
        this.addKind(s, K_OP);
        return this.emit(i, (a) => inverseObjectProperties(p, q, a));
      }
      case RDFS_DOMAIN: return this.mapDomain(i);
      case RDFS_RANGE: return this.mapRange(i);
      case O.propertyChainAxiom: {
        const sup = this.ope(s), chain = this.list(this.ref(o)).map((x) => this.ope(x));
        return this.emit(i, (a) => subPropertyChainOf(chain, sup, a));
      }
      case O.sameAs: {
        const pair = [this.individual(s), this.individual(this.ref(o))];
        return this.emit(i, (a) => sameIndividual(pair, a));
      }
      case O.differentFrom: {
        const pair = [this.individual(s), this.individual(this.ref(o))];
        return this.emit(i, (a) => differentIndividuals(pair, a));
      }
      default: return false;
    }
  }

  private emitWith<A, B>(i: number, make: (a: A, b: B, anns: readonly Annotation[]) => Axiom, a: A, b: B): true {
    return this.emit(i, (anns) => make(a, b, anns));
  }

  private mapType(i: number): boolean {
    const s = this.s[i], t = this.o[i];
    if (typeof t !== 'string') return fail('rdf:type with a literal object');
    const bit = DECLARING_TYPES.get(t);
    if (bit !== undefined) {
      if (!isIri(s)) return false;
      const e = entity(KIND_OF_BIT.get(bit)!, s);
      return this.emit(i, (a) => declaration(e, a));
    }
    if (t === O.FunctionalProperty) {
      if (isIri(s) && (this.kindOf(s) & (K_DP | K_OP)) === K_DP) {
        const dp = dataProperty(s);
        return this.emit(i, (a) => functionalDataProperty(dp, a));
      }
      const p = this.ope(s);
      return this.emit(i, (a) => objectPropertyCharacteristic('FunctionalObjectProperty', p, a));
    }
    const characteristic = CHARACTERISTICS.get(t as never) as CharacteristicKind | undefined;
    if (characteristic !== undefined) {
      const p = this.ope(s);
      // OWL 1 made these types subclasses of owl:ObjectProperty; like the OWL API, they declare it.
      if (p.kind === 'ObjectProperty' && OWL1_OBJECT_PROPERTY_TYPES.has(t)) this.ontology.add(declaration(p));
      return this.emit(i, (a) => objectPropertyCharacteristic(characteristic, p, a));
    }
    switch (t) {
      case O.AllDisjointClasses: return this.mapAllDisjointClasses(s);
      case O.AllDisjointProperties: return this.mapAllDisjointProperties(s);
      case O.AllDifferent: return this.mapAllDifferent(s);
      case O.NegativePropertyAssertion: return this.mapNegativeAssertion(s);
      case S.Imp: return this.swrl.mapRule(s);
      case O.Ontology: return false;
      case RDF_PROPERTY: return isIri(s);
      case RDFS_CLASS: {
        if (!isIri(s)) return false;
        const c = cls(s);
        this.addKind(s, K_CLASS);
        return this.emit(i, (a) => declaration(c, a));
      }
      case O.DeprecatedClass: case O.DeprecatedProperty: return isIri(s);
    }
    if (STRUCTURAL_TYPES.has(t) || (isBlank(s) && (t === O.Class || t === RDFS_DATATYPE))) return false;
    const c = this.ce(t), x = this.individual(s);
    return this.emit(i, (a) => classAssertion(c, x, a));
  }

  private mapEquivalentClass(i: number): boolean {
    const s = this.s[i], o = this.ref(this.o[i]);
    if (this.isDataRange(s) || this.isDataRange(o)) {
      const [named, other] = isIri(s) ? [s, o] : [o, s];
      if (!isIri(named)) return fail('owl:equivalentClass between two anonymous data ranges');
      const dt = datatype(named), range = this.dataRange(other);
      return this.emit(i, (a) => datatypeDefinition(dt, range, a));
    }
    if (isIri(s) && isIri(o) && this.kindOf(s) === 0 && this.kindOf(o) === 0) fail('equivalence of two IRIs of unknown kind');
    const pair = [this.ce(s), this.ce(o)];
    return this.emit(i, (a) => equivalentClasses(pair, a));
  }

  /** OWL 1 style: a named class with owl:intersectionOf etc. is equivalent to that expression. */
  private mapNamedExpression(i: number): boolean {
    const s = this.s[i];
    if (this.isDataRange(s)) {
      const dt = datatype(s), range = this.dataRangeFrom(s, i);
      return this.emit(i, (a) => datatypeDefinition(dt, range, a));
    }
    const pair = [cls(s), this.ceFrom(s, i)];
    return this.emit(i, (a) => equivalentClasses(pair, a));
  }

  private mapHasKey(i: number): boolean {
    const c = this.ce(this.s[i]);
    const ops: ObjectPropertyExpression[] = [], dps: DataProperty[] = [];
    for (const x of this.list(this.ref(this.o[i]))) {
      // Like the OWL API, a key property not known as an object property is a data property.
      if (isIri(x) && (this.kindOf(x) & K_OP) === 0) dps.push(dataProperty(x));
      else ops.push(this.ope(x));
    }
    return this.emit(i, (a) => hasKey(c, ops, dps, a));
  }

  private mapSubProperty(i: number): boolean {
    const s = this.s[i], o = this.ref(this.o[i]);
    const k = (isIri(s) ? this.kindOf(s) : K_OP) | (isIri(o) ? this.kindOf(o) : K_OP);
    if (k & K_OP) {
      const sub = this.ope(s), sup = this.ope(o);
      this.widen(s, o, K_OP);
      return this.emit(i, (a) => subObjectPropertyOf(sub, sup, a));
    }
    const sub = this.named(s), sup = this.named(o);
    if (k & K_DP) {
      this.widen(s, o, K_DP);
      return this.emitWith(i, subDataPropertyOf, dataProperty(sub), dataProperty(sup));
    }
    return this.emitWith(i, subAnnotationPropertyOf, annotationProperty(sub), annotationProperty(sup));
  }

  /** Like the OWL API, a property equivalence with an IRI of unknown kind (declared only in an import) is not mapped. */
  private requireTyped(a: TermKey, b: TermKey): void {
    for (const x of [a, b]) if (isIri(x) && this.kindOf(x) === 0) fail('equivalence with <' + x + '>, whose kind is unknown');
  }

  private widen(a: TermKey, b: TermKey, bit: number): void {
    if (isIri(a)) this.addKind(a, bit);
    if (isIri(b)) this.addKind(b, bit);
  }

  private mapPropertyPair(i: number): boolean {
    const s = this.s[i], o = this.ref(this.o[i]), equivalent = this.p[i] === O.equivalentProperty;
    this.requireTyped(s, o);
    const k = (isIri(s) ? this.kindOf(s) : K_OP) | (isIri(o) ? this.kindOf(o) : K_OP);
    if ((k & (K_DP | K_OP)) === K_DP) {
      const pair = [dataProperty(this.named(s)), dataProperty(this.named(o))];
      this.widen(s, o, K_DP);
      return this.emit(i, (a) => (equivalent ? equivalentDataProperties(pair, a) : disjointDataProperties(pair, a)));
    }
    const pair = [this.ope(s), this.ope(o)];
    this.widen(s, o, K_OP);
    return this.emit(i, (a) => (equivalent ? equivalentObjectProperties(pair, a) : disjointObjectProperties(pair, a)));
  }

  /** Domain by the property's kind: object, data, else (annotation or untyped) annotation property domain. */
  private mapDomain(i: number): boolean {
    const s = this.s[i], o = this.ref(this.o[i]);
    const k = isIri(s) ? this.kindOf(s) : K_OP;
    if (k & K_OP || (k & K_DP) === 0 && isBlank(o)) {
      const p = this.ope(s), c = this.ce(o);
      return this.emit(i, (a) => objectPropertyDomain(p, c, a));
    }
    if (k & K_DP) return this.emitWith(i, dataPropertyDomain, dataProperty(s), this.ce(o));
    return this.emitWith(i, annotationPropertyDomain, annotationProperty(s), this.named(o));
  }

  /** Range: an annotation property's range first (as the OWL API does for punned ones), else by kind or range. */
  private mapRange(i: number): boolean {
    const s = this.s[i], o = this.ref(this.o[i]);
    const k = isIri(s) ? this.kindOf(s) : K_OP;
    if (k & K_AP && isIri(o)) return this.emitWith(i, annotationPropertyRange, annotationProperty(s), o);
    if (k & K_OP || ((k & K_DP) === 0 && !this.isDataRange(o))) {
      const p = this.ope(s), c = this.ce(o);
      return this.emit(i, (a) => objectPropertyRange(p, c, a));
    }
    this.addKind(s, K_DP);
    return this.emitWith(i, dataPropertyRange, dataProperty(s), this.dataRange(o));
  }

  private mapAllDisjointClasses(x: TermKey): boolean {
    const members = this.list(this.members(x)).map((m) => this.ce(m));
    const anns = this.annotationsOf(x);
    this.useStructure(x);
    this.ontology.add(disjointClasses(members, anns));
    return true;
  }

  private mapAllDisjointProperties(x: TermKey): boolean {
    const members = this.list(this.members(x));
    const anns = this.annotationsOf(x);
    this.useStructure(x);
    if (members.some((m) => isIri(m) && (this.kindOf(m) & (K_OP | K_DP)) === K_DP)) {
      this.ontology.add(disjointDataProperties(members.map((m) => dataProperty(this.named(m))), anns));
    } else {
      this.ontology.add(disjointObjectProperties(members.map((m) => this.ope(m)), anns));
    }
    return true;
  }

  private mapAllDifferent(x: TermKey): boolean {
    const m = this.use(x, O.distinctMembers) ?? this.members(x);
    const members = this.list(this.ref(m)).map((y) => this.individual(y));
    const anns = this.annotationsOf(x);
    this.useStructure(x);
    this.ontology.add(differentIndividuals(members, anns));
    return true;
  }

  private members(x: TermKey): TermKey {
    return this.ref(this.use(x, O.members) ?? fail('n-ary axiom node without owl:members'));
  }

  private mapNegativeAssertion(x: TermKey): boolean {
    const source = this.individual(this.ref(this.use(x, O.sourceIndividual) ?? fail('no owl:sourceIndividual')));
    const prop = this.ref(this.use(x, O.assertionProperty) ?? fail('no owl:assertionProperty'));
    const target = this.use(x, O.targetIndividual);
    const value = this.use(x, O.targetValue);
    const anns = this.annotationsOf(x);
    this.useStructure(x);
    if (target !== undefined) {
      this.ontology.add(negativeObjectPropertyAssertion(this.ope(prop), source, this.individual(this.ref(target)), anns));
    } else if (value !== undefined && typeof value !== 'string') {
      this.addKind(prop, K_DP);
      this.ontology.add(negativeDataPropertyAssertion(dataProperty(this.named(prop)), source, value, anns));
    } else {
      fail('negative property assertion without a valid target');
    }
    return true;
  }

  // ------------------------------------------------------------ pass 4: header and assertions

  private mapHeader(): void {
    const chosen = this.chooseOntologyNode();
    const ont = this.ontology;
    const imports: string[] = [];
    for (const node of this.ontologyNodes) {
      for (const i of this.triplesOf(node)) {
        if (this.consumed[i]) continue;
        const p = this.p[i], o = this.o[i];
        if (p === RDF_TYPE && o === O.Ontology) this.consumed[i] = 1;
        else if (p === O.imports && isIri(o)) {
          imports.push(o);
          this.consumed[i] = 1;
        } else if (p === O.versionIRI && isIri(o)) {
          if (node === chosen) ont.id = { iri: ont.id.iri, versionIri: o };
          this.consumed[i] = 1;
        } else if (!this.isReservedPredicate(p) && !this.isAnnotationPredicate(p)) {
          this.attempt(i, this.mapRemainingTriple);
        } else if (!this.isReservedPredicate(p)) {
          this.attempt(i, (k) => {
            ont.annotations.add(this.annotationFromTriple(k));
            return true;
          });
        }
      }
    }
    if (chosen !== undefined && isIri(chosen)) ont.id = { iri: chosen, versionIri: ont.id.versionIri };
    else ont.id = { iri: null, versionIri: null };
    for (const iri of imports) ont.imports.add(iri);
  }

  /** Like the OWL API: the only owl:Ontology node, else the first not used as an annotation value. */
  private chooseOntologyNode(): TermKey | undefined {
    const nodes = this.ontologyNodes;
    if (nodes.length <= 1) return nodes[0];
    const referenced = new Set<ObjectTerm>();
    for (const node of nodes) for (const i of this.triplesOf(node)) if (this.p[i] !== RDF_TYPE) referenced.add(this.o[i]);
    return nodes.find((x) => !referenced.has(x)) ?? nodes[0];
  }

  private mapRemainingTriple(i: number): boolean {
    const s = this.s[i], p = this.p[i], o = this.o[i];
    if (this.isReservedPredicate(p)) return false;
    if (this.structural.has(s)) return fail('annotation of a blank node that is not an individual');
    const k = this.kindOf(p);
    if (k & K_OP && typeof o === 'string') {
      const prop = objectProperty(p), a = this.individual(s), b = this.individual(o);
      return this.emit(i, (anns) => objectPropertyAssertion(prop, a, b, anns));
    }
    if (k & K_DP && typeof o !== 'string') {
      const prop = dataProperty(p), a = this.individual(s);
      return this.emit(i, (anns) => dataPropertyAssertion(prop, a, o, anns));
    }
    const prop = annotationProperty(p), subject = this.annotationSubject(s), value = this.annotationValue(o);
    return this.emit(i, (anns) => annotationAssertion(prop, subject, value, anns));
  }

  // ------------------------------------------------------------ terms

  /** A subject/object used as a node (not a literal). */
  ref(t: ObjectTerm | undefined): TermKey {
    if (typeof t === 'string') return t;
    return fail(t === undefined ? 'missing node' : 'literal where a node is required');
  }

  named(t: TermKey): string {
    return isIri(t) ? t : fail('blank node where an IRI is required');
  }

  individual(t: TermKey): Individual {
    return isIri(t) ? namedIndividual(t) : this.anon(t);
  }

  anon(t: TermKey): AnonymousIndividual {
    let a = this.anons.get(t);
    if (a === undefined) this.anons.set(t, (a = anonymousIndividual(t.slice(2))));
    return a;
  }

  private annotationSubject(t: TermKey): AnnotationSubject {
    return isIri(t) ? iriNode(t) : this.anon(t);
  }

  annotationValue(t: ObjectTerm): AnnotationValue {
    if (typeof t !== 'string') return t;
    return isIri(t) ? iriNode(t) : this.anon(t);
  }

  ope(t: TermKey): ObjectPropertyExpression {
    if (isIri(t)) {
      this.addKind(t, K_OP);
      return objectProperty(t);
    }
    const inv = this.ref(this.use(t, O.inverseOf) ?? fail('blank node property without owl:inverseOf'));
    this.useStructure(t);
    return objectInverseOf(objectProperty(this.named(inv)));
  }

  /** RDF list members, using the list's triples. */
  list(head: TermKey): TermKey[] {
    return this.listOf(head, (t) => this.ref(t));
  }

  literalList(head: TermKey): Literal[] {
    return this.listOf(head, (t) => (typeof t === 'string' ? fail('non-literal in a data value list') : t));
  }

  listOf<T>(head: TermKey, item: (t: ObjectTerm) => T): T[] {
    const out: T[] = [];
    const seen = new Set<TermKey>();
    for (let x = head; x !== RDF_NIL;) {
      if (!isBlank(x) || seen.has(x)) fail('malformed RDF list');
      seen.add(x);
      const first = this.use(x, RDF_FIRST);
      const rest = this.use(x, RDF_REST);
      if (first === undefined || rest === undefined) fail('RDF list node without rdf:first/rdf:rest');
      const type = this.objectOf(x, RDF_TYPE);
      if (type >= 0 && (this.o[type] === RDF_LIST || this.o[type] === S.AtomList)) this.pending.push(type);
      this.structural.add(x);
      out.push(item(first!));
      x = this.ref(rest);
    }
    return out;
  }

  // ------------------------------------------------------------ class expressions

  ce(t: TermKey): ClassExpression {
    if (isIri(t)) {
      this.addKind(t, K_CLASS);
      return cls(t);
    }
    const cached = this.ceCache.get(t);
    if (cached !== undefined) return cached;
    const c = this.ceFrom(t, -1);
    this.useStructure(t);
    this.ceCache.set(t, c);
    return c;
  }

  /** The class expression node x describes; only triple `only` when given (a named class's OWL 1 definition). */
  private ceFrom(x: TermKey, only: number): ClassExpression {
    const get = (p: string): ObjectTerm | undefined => {
      if (only >= 0) return this.p[only] === p ? this.o[only] : undefined;
      return this.use(x, p);
    };
    let v: ObjectTerm | undefined;
    if ((v = get(O.intersectionOf)) !== undefined) return objectIntersectionOf(this.list(this.ref(v)).map((y) => this.ce(y)));
    if ((v = get(O.unionOf)) !== undefined) return objectUnionOf(this.list(this.ref(v)).map((y) => this.ce(y)));
    if ((v = get(O.complementOf)) !== undefined) return objectComplementOf(this.ce(this.ref(v)));
    if ((v = get(O.oneOf)) !== undefined) return objectOneOf(this.list(this.ref(v)).map((y) => this.individual(y)));
    if (only < 0) {
      const p = this.use(x, O.onProperty);
      if (p !== undefined) return this.restriction(x, this.ref(p));
    }
    return fail('blank node is not a class expression');
  }

  private restriction(x: TermKey, p: TermKey): ClassExpression {
    const dataish = isIri(p) && (this.kindOf(p) & (K_OP | K_DP)) === K_DP;
    let v: ObjectTerm | undefined;
    for (const some of [true, false]) {
      if ((v = this.use(x, some ? O.someValuesFrom : O.allValuesFrom)) === undefined) continue;
      const filler = this.ref(v);
      if (dataish || (isIri(p) && (this.kindOf(p) & K_OP) === 0 && this.isDataRange(filler))) {
        const dp = this.dataProp(p), dr = this.dataRange(filler);
        return some ? dataSomeValuesFrom(dp, dr) : dataAllValuesFrom(dp, dr);
      }
      const op = this.ope(p), c = this.ce(filler);
      return some ? objectSomeValuesFrom(op, c) : objectAllValuesFrom(op, c);
    }
    if ((v = this.use(x, O.hasValue)) !== undefined) {
      if (typeof v !== 'string') return dataHasValue(this.dataProp(p), v);
      return objectHasValue(this.ope(p), this.individual(v));
    }
    if ((v = this.use(x, O.hasSelf)) !== undefined) return objectHasSelf(this.ope(p));
    for (let k = 0; k < CARDINALITIES.length; k++) {
      if ((v = this.use(x, CARDINALITIES[k])) === undefined) continue;
      const n = cardinality(v);
      const which = k % 3;
      const onClass = this.use(x, O.onClass), onRange = this.use(x, O.onDataRange);
      if (onRange !== undefined || (onClass === undefined && dataish)) {
        const dp = this.dataProp(p);
        const dr = onRange === undefined ? undefined : this.dataRange(this.ref(onRange));
        return which === 0 ? dataMinCardinality(n, dp, dr) : which === 1 ? dataMaxCardinality(n, dp, dr) : dataExactCardinality(n, dp, dr);
      }
      const op = this.ope(p);
      const c = onClass === undefined ? undefined : this.ce(this.ref(onClass));
      return which === 0 ? objectMinCardinality(n, op, c) : which === 1 ? objectMaxCardinality(n, op, c) : objectExactCardinality(n, op, c);
    }
    return fail('owl:Restriction without a supported restriction predicate');
  }

  dataProp(p: TermKey): DataProperty {
    this.addKind(this.named(p), K_DP);
    return dataProperty(p);
  }

  // ------------------------------------------------------------ data ranges

  isDataRange(t: TermKey): boolean {
    if (isIri(t)) return (this.kindOf(t) & K_DT) !== 0 || isBuiltInDatatype(t);
    if (this.drCache.has(t)) return true;
    for (const i of this.triplesOf(t)) {
      const p = this.p[i], o = this.o[i];
      if (p === O.onDatatype || p === O.datatypeComplementOf) return true;
      if (p === RDF_TYPE && (o === RDFS_DATATYPE || o === O.DataRange)) return true;
      if (p === O.oneOf && typeof o === 'string') {
        const first = this.objectOf(o, RDF_FIRST);
        return first >= 0 && typeof this.o[first] !== 'string';
      }
      if ((p === O.intersectionOf || p === O.unionOf) && typeof o === 'string') {
        const first = this.objectOf(o, RDF_FIRST);
        return first >= 0 && typeof this.o[first] === 'string' && this.isDataRange(this.o[first] as string);
      }
    }
    return false;
  }

  dataRange(t: TermKey): DataRange {
    if (isIri(t)) {
      this.addKind(t, K_DT);
      return datatype(t);
    }
    const cached = this.drCache.get(t);
    if (cached !== undefined) return cached;
    const d = this.dataRangeFrom(t, -1);
    this.useStructure(t);
    this.drCache.set(t, d);
    return d;
  }

  private dataRangeFrom(x: TermKey, only: number): DataRange {
    const get = (p: string): ObjectTerm | undefined => {
      if (only >= 0) return this.p[only] === p ? this.o[only] : undefined;
      return this.use(x, p);
    };
    let v: ObjectTerm | undefined;
    if ((v = get(O.intersectionOf)) !== undefined) return dataIntersectionOf(this.list(this.ref(v)).map((y) => this.dataRange(y)));
    if ((v = get(O.unionOf)) !== undefined) return dataUnionOf(this.list(this.ref(v)).map((y) => this.dataRange(y)));
    if ((v = get(O.datatypeComplementOf)) !== undefined) return dataComplementOf(this.dataRange(this.ref(v)));
    if ((v = get(O.complementOf)) !== undefined) return dataComplementOf(this.dataRange(this.ref(v)));
    if ((v = get(O.oneOf)) !== undefined) return dataOneOf(this.literalList(this.ref(v)));
    if (only < 0 && (v = this.use(x, O.onDatatype)) !== undefined) {
      const dt = datatype(this.named(this.ref(v)));
      const facets = this.list(this.ref(this.use(x, O.withRestrictions) ?? fail('owl:onDatatype without owl:withRestrictions')));
      return datatypeRestriction(dt, facets.map((f) => this.facet(f)));
    }
    return fail('blank node is not a data range');
  }

  private facet(f: TermKey): FacetRestriction {
    for (const i of this.triplesOf(f)) {
      const v = this.o[i];
      if (this.p[i] === RDF_TYPE || typeof v === 'string') continue;
      this.pending.push(i);
      this.structural.add(f);
      return facetRestriction(this.p[i], v);
    }
    return fail('facet restriction without a literal value');
  }

}

const NO_TRIPLES: readonly number[] = [];
const NO_ANNOTATIONS: readonly Annotation[] = [];

function tripleKey(s: TermKey, p: string, o: ObjectTerm): string {
  return s + '\u0000' + p + '\u0000' + (typeof o === 'string' ? o : '"' + o.id);
}

function cardinality(v: ObjectTerm): number {
  if (typeof v === 'string') return fail('cardinality is not a literal');
  const n = Number(v.lex.trim());
  return Number.isInteger(n) && n >= 0 ? n : fail('cardinality "' + v.lex + '" is not a non-negative integer');
}
