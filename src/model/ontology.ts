// An ontology: its header (id, imports, annotations, prefix map, document format) and its axioms, with
// the indexes the tools query. Indexes are built on first use and from then on kept up to date by every
// add and remove, so a bulk load pays only for the axiom set.

import type {
  Annotation,
  AnnotationAssertion,
  Axiom,
  AxiomKind,
  ClassAssertion,
  ClassExpression,
  Entity,
  EntityKind,
  Individual,
  IRI,
  ObjectPropertyExpression,
  DataProperty,
  AnnotationProperty,
  AnonymousIndividual,
} from './terms.js';
import { collect } from './walk.js';
import { AxiomSet } from './axiom-set.js';
import { otherKinds, ANY_AXIOM } from './terms.js';

export interface OntologyId {
  readonly iri: IRI | null;
  readonly versionIri: IRI | null;
}

export const ANONYMOUS_ID: OntologyId = Object.freeze({ iri: null, versionIri: null });

/** The IRIs an ontology answers to: its ontology IRI and version IRI, when present. */
export function ontologyIds(o: { readonly id: OntologyId }): IRI[] {
  return [o.id.iri, o.id.versionIri].filter((x): x is IRI => x !== null);
}

/** Document formats Athene reads and writes. */
export type FormatId = 'turtle' | 'ntriples' | 'nquads' | 'trig' | 'rdfxml' | 'jsonld' | 'owlxml' | 'ofn' | 'manchester' | 'obo';

/** Prefix map: prefix name with its trailing ':' (':' alone is the default namespace) → namespace IRI. */
export type PrefixMap = Map<string, string>;

/** Something a parser read but could not map to OWL; kept so nothing is silently dropped. */
export interface UnmappedItem {
  readonly text: string;
  readonly reason: string;
}

export class Ontology {
  id: OntologyId = ANONYMOUS_ID;
  readonly imports = new Set<IRI>();
  readonly annotations = new Set<Annotation>();
  readonly prefixes: PrefixMap = new Map();
  format: FormatId = 'turtle';
  /** Where the document came from (absolute file path or URL), if anywhere. */
  documentIri: string | null = null;
  /** Unmappable input kept from the parse (triples, frames, stanzas). */
  unmapped: UnmappedItem[] = [];

  private axiomSet = new AxiomSet();
  private idx: Indexes | null = null;

  get axiomCount(): number {
    return this.axiomSet.size;
  }

  axioms(): IterableIterator<Axiom> {
    return this.axiomSet.values();
  }

  has(a: Axiom): boolean {
    return this.axiomSet.has(a);
  }

  /** Adds an axiom; returns false if it was already present. */
  add(a: Axiom): boolean {
    if (!this.axiomSet.add(a)) return false;
    this.idx?.add(a);
    return true;
  }

  /** Adds many axioms; a reader building a new ontology hands over its whole content in one step (an AxiomSet is taken as is: the caller gives it up). */
  addAll(axioms: readonly Axiom[] | AxiomSet): void {
    if (this.axiomSet.size === 0 && this.idx === null)
      this.axiomSet = axioms instanceof AxiomSet ? axioms : new AxiomSet(axioms, axioms.length);
    else for (const a of axioms) this.add(a);
  }

  /** Removes an axiom; returns false if it was absent. */
  remove(a: Axiom): boolean {
    if (!this.axiomSet.delete(a)) return false;
    this.idx?.remove(a);
    return true;
  }

  /** The indexes, built on first use and maintained incrementally afterwards. */
  get index(): Indexes {
    if (this.idx === null) {
      const idx = new Indexes();
      for (const a of this.axiomSet) idx.add(a);
      this.idx = idx;
    }
    return this.idx;
  }

  /** Entities of a kind in the signature of the axioms (declarations included). */
  entities(kind: EntityKind): Entity[] {
    return this.index.entitiesOfKind(kind);
  }

  axiomsOfKind<K extends AxiomKind>(kind: K): ReadonlySet<Extract<Axiom, { kind: K }>> {
    return (this.index.byKind.get(kind) ?? EMPTY) as ReadonlySet<Extract<Axiom, { kind: K }>>;
  }
}

const EMPTY: ReadonlySet<never> = new Set();

type Key = Entity | AnonymousIndividual | ClassExpression | ObjectPropertyExpression | IRI;

function addTo<K, V>(m: Map<K, Set<V>>, k: K, v: V) {
  let s = m.get(k);
  if (s === undefined) m.set(k, (s = new Set()));
  s.add(v);
}
function removeFrom<K, V>(m: Map<K, Set<V>>, k: K, v: V) {
  const s = m.get(k);
  if (s === undefined) return;
  s.delete(v);
  if (s.size === 0) m.delete(k);
}

/** The ontology's query indexes. */
export class Indexes {
  readonly byKind = new Map<AxiomKind, Set<Axiom>>();
  /** Axioms whose signature contains the entity (anonymous individuals are indexed too). */
  readonly referencing = new Map<Entity | AnonymousIndividual, Set<Axiom>>();
  /** Annotation assertions by subject: an IRI string or an anonymous individual. */
  readonly annotationsBySubject = new Map<IRI | AnonymousIndividual, Set<AnnotationAssertion>>();
  /** SubClassOf and EquivalentClasses-free told hierarchy: sub → axioms, sup → axioms. */
  readonly subClassAxiomsBySub = new Map<ClassExpression, Set<Axiom>>();
  readonly subClassAxiomsBySuper = new Map<ClassExpression, Set<Axiom>>();
  readonly subPropertyAxiomsBySub = new Map<Key, Set<Axiom>>();
  readonly subPropertyAxiomsBySuper = new Map<Key, Set<Axiom>>();
  readonly classAssertionsByClass = new Map<ClassExpression, Set<ClassAssertion>>();
  readonly classAssertionsByIndividual = new Map<Individual, Set<ClassAssertion>>();

  add(a: Axiom): void {
    this.update(a, addTo);
  }

  remove(a: Axiom): void {
    this.update(a, removeFrom);
  }

  private update(a: Axiom, op: <K, V>(m: Map<K, Set<V>>, k: K, v: V) => void): void {
    op(this.byKind, a.kind, a);
    const keys = new Set<Entity | AnonymousIndividual>();
    collect(a, keys as Set<Entity>, keys as Set<AnonymousIndividual>);
    for (const k of keys) op(this.referencing, k, a);
    switch (a.kind) {
      case 'AnnotationAssertion':
        op(this.annotationsBySubject, a.subject.kind === 'IRI' ? a.subject.iri : a.subject, a);
        break;
      case 'SubClassOf':
        op(this.subClassAxiomsBySub, a.sub, a);
        op(this.subClassAxiomsBySuper, a.sup, a);
        break;
      case 'SubObjectPropertyOf':
      case 'SubDataPropertyOf':
      case 'SubAnnotationPropertyOf':
        op(this.subPropertyAxiomsBySub, a.sub, a);
        op(this.subPropertyAxiomsBySuper, a.sup, a);
        break;
      case 'ClassAssertion':
        op(this.classAssertionsByClass, a.cls, a);
        op(this.classAssertionsByIndividual, a.individual, a);
        break;
      default:
        otherKinds(a, ANY_AXIOM);
    }
  }

  entitiesOfKind(kind: EntityKind): Entity[] {
    const out: Entity[] = [];
    for (const k of this.referencing.keys()) if (k.kind === kind) out.push(k as Entity);
    return out;
  }

  /** Asserted direct superclasses of a class expression (SubClassOf only). */
  superClasses(c: ClassExpression): ClassExpression[] {
    const out: ClassExpression[] = [];
    for (const a of this.subClassAxiomsBySub.get(c) ?? []) if (a.kind === 'SubClassOf') out.push(a.sup);
    return out;
  }

  /** Asserted direct subclasses of a class expression (SubClassOf only). */
  subClasses(c: ClassExpression): ClassExpression[] {
    const out: ClassExpression[] = [];
    for (const a of this.subClassAxiomsBySuper.get(c) ?? []) if (a.kind === 'SubClassOf') out.push(a.sub);
    return out;
  }

  superProperties(p: ObjectPropertyExpression | DataProperty | AnnotationProperty): Key[] {
    const out: Key[] = [];
    for (const a of this.subPropertyAxiomsBySub.get(p) ?? []) {
      if (a.kind === 'SubObjectPropertyOf' || a.kind === 'SubDataPropertyOf' || a.kind === 'SubAnnotationPropertyOf') out.push(a.sup);
    }
    return out;
  }

  subProperties(p: ObjectPropertyExpression | DataProperty | AnnotationProperty): Key[] {
    const out: Key[] = [];
    for (const a of this.subPropertyAxiomsBySuper.get(p) ?? []) {
      if (a.kind === 'SubObjectPropertyOf' || a.kind === 'SubDataPropertyOf' || a.kind === 'SubAnnotationPropertyOf') out.push(a.sub);
    }
    return out;
  }
}
