// The axioms of simple triples, built while the rest of a document is still being scanned.
//
// Most triples of a large document map to an axiom on their own: a declaration (IRI `rdf:type` a declaring
// type), a class assertion (IRI `rdf:type` a user class), a subclass axiom between two IRIs, and a
// property or annotation assertion of an IRI subject with an IRI or literal object. Built here as the
// triples arrive, they only wait for the mapping (triples-to-owl.ts) to confirm, in document order, what
// could still change their meaning: the triple being consumed by another construct, reified, its subject
// being a structure, or — for assertions — the kind of its predicate (declarations seen so far are a guess;
// the kind bits only ever grow, so the guess is right when the final bits equal the bits first used).

import {
  type Axiom,
  type AnnotationProperty,
  type Class,
  type DataProperty,
  type Entity,
  type IRINode,
  type NamedIndividual,
  type ObjectProperty,
  annotationAssertion,
  annotationProperty,
  classAssertion,
  cls,
  dataProperty,
  dataPropertyAssertion,
  declaration,
  entity,
  iriNode,
  namedIndividual,
  objectProperty,
  objectPropertyAssertion,
  subClassOf,
} from '../terms.js';
import { isBlankValue, type TermValue } from './rdf-graph-reader.js';
import {
  CHARACTERISTICS,
  DECLARING_TYPES,
  KIND_OF_BIT,
  K_AP,
  K_CLASS,
  K_DP,
  K_IND,
  K_OP,
  O,
  RDF_TYPE,
  RDFS_CLASS,
  RDFS_SUBCLASS_OF,
  RESERVED_COUNT,
  isReserved,
} from './vocab-reader.js';

/** No kind bits were used for this predicate yet. */
export const UNSEEN = 0xff;

/** What the mapping confirms: the axiom built for each triple index (null: map it the usual way), and the predicate kinds used. */
export interface EarlyAxioms {
  readonly axioms: readonly (Axiom | null)[];
  /** Kind bits each predicate had when its first assertion was built (UNSEEN if none was). */
  readonly seenKinds: Uint8Array;
}

/** An IRI (not a blank node, not a literal). */
const isName = (v: TermValue | undefined): v is string => typeof v === 'string' && !isBlankValue(v);

export class EarlyMapper {
  private kinds = new Uint8Array(0);
  private seen = new Uint8Array(0);
  /** Per term: 1 reserved IRI, 2 not (0: not looked at yet). */
  private reserved = new Uint8Array(0);
  private readonly axioms: (Axiom | null)[] = [];
  private readonly classes = new RecentNodes<Class>(cls);
  private readonly individuals = new RecentNodes<NamedIndividual>(namedIndividual);
  private readonly objectProperties = new RecentNodes<ObjectProperty>(objectProperty);
  private readonly dataProperties = new RecentNodes<DataProperty>(dataProperty);
  private readonly annotationProperties = new RecentNodes<AnnotationProperty>(annotationProperty);
  private readonly iriNodes = new RecentNodes<IRINode>(iriNode);

  constructor(private readonly terms: readonly TermValue[]) {}

  /** Builds what it can for the triples (s[k], p[k], o[k]), which are the table's next triples. */
  take(s: Int32Array, p: Int32Array, o: Int32Array): void {
    this.fit(this.terms.length);
    // p and o are as long as s.
    for (let k = 0; k < s.length; k++) this.axioms.push(this.axiomOf(s[k]!, p[k]!, o[k]!));
  }

  result(): EarlyAxioms {
    this.fit(this.terms.length);
    return { axioms: this.axioms, seenKinds: this.seen };
  }

  private fit(n: number): void {
    if (n <= this.kinds.length) return;
    let size = Math.max(this.kinds.length, 1 << 12);
    while (size < n) size *= 2;
    const grow = (a: Uint8Array, fill: number) => {
      const b = new Uint8Array(size).fill(fill);
      b.set(a);
      return b;
    };
    this.kinds = grow(this.kinds, 0);
    this.seen = grow(this.seen, UNSEEN);
    this.reserved = grow(this.reserved, 0);
  }

  // The triple's ids name terms of the table, and fit() sized the per-term arrays to it.
  private axiomOf(s: number, p: number, o: number): Axiom | null {
    const terms = this.terms;
    const subject = terms[s];
    if (!isName(subject)) return null;
    const object = terms[o]!;
    if (p === RDF_TYPE) {
      if (!isName(object)) return null;
      const bit = DECLARING_TYPES.get(o);
      if (bit !== undefined) {
        this.kinds[s]! |= bit;
        return declaration(this.declared(bit, s, subject));
      }
      if (CHARACTERISTICS.has(o)) this.kinds[s]! |= K_OP;
      else if (o === O.DeprecatedClass || o === RDFS_CLASS) this.kinds[s]! |= K_CLASS;
      if (o < RESERVED_COUNT) return null;
      return classAssertion(this.cls(o, object), this.individual(s, subject));
    }
    if (p === RDFS_SUBCLASS_OF) return isName(object) ? subClassOf(this.cls(s, subject), this.cls(o, object)) : null;
    if (p < RESERVED_COUNT || this.isReserved(p)) return null;
    if (typeof object === 'string' && !isName(object)) return null;
    let k = this.seen[p]!;
    if (k === UNSEEN) k = this.seen[p] = this.kinds[p]!;
    const property = terms[p] as string;
    if (typeof object === 'string') {
      if (k & K_OP)
        return objectPropertyAssertion(
          this.objectProperties.get(p, property),
          this.individuals.get(s, subject),
          this.individuals.get(o, object),
        );
      return annotationAssertion(this.annotationProperties.get(p, property), this.iriNodes.get(s, subject), this.iriNodes.get(o, object));
    }
    if (k & K_DP) return dataPropertyAssertion(this.dataProperties.get(p, property), this.individuals.get(s, subject), object);
    return annotationAssertion(this.annotationProperties.get(p, property), this.iriNodes.get(s, subject), object);
  }

  private isReserved(p: number): boolean {
    let r = this.reserved[p];
    if (r === 0) r = this.reserved[p] = isReserved(this.terms[p] as string) ? 1 : 2;
    return r === 1;
  }

  private cls(t: number, iri: string): Class {
    return this.classes.get(t, iri);
  }

  private individual(t: number, iri: string): NamedIndividual {
    return this.individuals.get(t, iri);
  }

  private declared(bit: number, t: number, iri: string): Entity {
    switch (bit) {
      case K_CLASS:
        return this.classes.get(t, iri);
      case K_IND:
        return this.individuals.get(t, iri);
      case K_OP:
        return this.objectProperties.get(t, iri);
      case K_DP:
        return this.dataProperties.get(t, iri);
      case K_AP:
        return this.annotationProperties.get(t, iri);
      default:
        return entity(KIND_OF_BIT.get(bit)!, iri);
    }
  }
}

const RECENT = 1 << 14;

/**
 * The model node of a term id, remembered for the terms used lately (a direct-mapped cache: a document
 * names a subject in several consecutive triples, and a few classes and properties everywhere). A fixed
 * size, so it never grows with the document as a cache by term id would.
 */
class RecentNodes<N> {
  private readonly ids = new Int32Array(RECENT).fill(-1);
  private readonly nodes: (N | undefined)[] = new Array<N | undefined>(RECENT).fill(undefined);

  constructor(private readonly make: (iri: string) => N) {}

  get(t: number, iri: string): N {
    const slot = t & (RECENT - 1);
    if (this.ids[slot] === t) return this.nodes[slot]!;
    const n = this.make(iri);
    this.ids[slot] = t;
    this.nodes[slot] = n;
    return n;
  }
}
