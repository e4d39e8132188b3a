// The kinds of every IRI of a graph, decided before any axiom is mapped (OWL 2 Mapping to RDF Graphs §3.1:
// the declarations of the whole graph and of its imports closure type the IRIs, then the axioms are read).
// Deciding up front makes the mapping independent of triple order: a property's kind never changes while
// the axioms that depend on it are built.
//
// The order of precedence, for the property kinds (object, data, annotation):
//   1. the document's own declarations (rdf:type owl:ObjectProperty, a characteristic, …);
//   2. the declarations of the loaded imports closure, for IRIs the document does not declare as a property;
//   3. a range: a data range makes a data property, anything else an object property (lax, like the OWL API);
//   4. subproperty edges carry these kinds down to untyped subproperties (the annotation kind included);
//   5. how a still untyped property is used (a restriction's filler, a range, an inverse, a chain …), also
//      lax like the OWL API; subproperty edges then carry these kinds down.
// Built-in annotation properties (rdfs:label, owl:versionInfo, …) and undeclared Dublin Core 1.1 elements
// are annotation properties whatever the document says.
// Class and datatype bits come from declarations and from positions that only a class or only a datatype
// can take; they decide between data ranges and class expressions.

import type { TermId } from './rdf-graph-reader.js';
import {
  RDF_TYPE,
  RDFS_SUBCLASS_OF,
  RDFS_SUBPROPERTY_OF,
  RDFS_DOMAIN,
  RDFS_RANGE,
  RDF_FIRST,
  RDF_REST,
  RDF_NIL,
  O,
  S,
  K_CLASS,
  K_OP,
  K_DP,
  K_AP,
  K_DT,
  RESERVED_COUNT,
  VOCABULARY,
} from './vocab-reader.js';

// The byte arrays here (kinds, declared, annotationOnly, used, open) are indexed by term id and all sized to the
// term table, so a read at a term id is in bounds.

const PROPERTY = K_OP | K_DP | K_AP;
const DC_ELEMENTS = 'http://purl.org/dc/elements/1.1/';

const CARDINALITIES = [
  O.minCardinality,
  O.maxCardinality,
  O.cardinality,
  O.minQualifiedCardinality,
  O.maxQualifiedCardinality,
  O.qualifiedCardinality,
];

/** Kind bits by IRI, declared by the imports closure of the document being read. */
export type ImportedKinds = ReadonlyMap<string, number>;

/** What the typing reads of the graph being mapped. */
export interface TypedGraph {
  /** The subject, predicate and object of triple i (i below the triple count). */
  subj(i: number): TermId;
  pred(i: number): TermId;
  obj(i: number): TermId;
  readonly terms: readonly unknown[];
  iri(t: TermId): string;
  isIri(t: TermId): boolean;
  isBlank(t: TermId): boolean;
  isLiteral(t: TermId): boolean;
  /** Index of the first triple (x p ?), or -1. */
  objectOf(x: TermId, p: TermId): number;
  isReservedPredicate(t: TermId): boolean;
  /** Whether a node is a data range, judged from the kind bits typed so far and the node's own triples. */
  isDataRange(t: TermId): boolean;
}

/**
 * Completes `kinds` (holding the document's own declarations) in place; `triples` is the number of triples
 * of the document. Returns 1 for each IRI that can only be an annotation property.
 */
export function typeGraph(g: TypedGraph, kinds: Uint8Array, triples: number, imported: ImportedKinds | null): Uint8Array {
  if (imported !== null) addImported(g, kinds, imported);
  const declared = kinds.slice();
  const annotationOnly = annotationOnlyTerms(g, declared);
  typeClassesAndDatatypes(g, kinds, declared, triples);
  addUses(kinds, annotationOnly, rangeTypes(g, kinds, triples));
  const edges = subPropertyEdges(g, triples);
  propagate(kinds, edges, annotationOnly);
  addUses(kinds, annotationOnly, propertyUses(g, kinds, triples));
  propagate(kinds, edges, annotationOnly);
  // The document's own statements never turn a built-in annotation property into anything else.
  for (let t = 0; t < kinds.length; t++) if (annotationOnly[t] === 1) kinds[t]! &= ~(K_OP | K_DP);
  return annotationOnly;
}

/** Property kinds of the imports closure for IRIs the document does not declare as properties; other kinds join. */
function addImported(g: TypedGraph, kinds: Uint8Array, imported: ImportedKinds): void {
  for (let t = RESERVED_COUNT; t < kinds.length; t++) {
    const bits = g.isIri(t) ? imported.get(g.iri(t)) : undefined;
    if (bits !== undefined) kinds[t]! |= (kinds[t]! & PROPERTY) === 0 ? bits : bits & ~PROPERTY;
  }
}

/** Built-in annotation properties, and Dublin Core 1.1 elements declared as nothing (the OWL API has them built in). */
function annotationOnlyTerms(g: TypedGraph, declared: Uint8Array): Uint8Array {
  const out = new Uint8Array(declared.length);
  // The built-in annotation properties have the last vocabulary ids.
  out.fill(1, RESERVED_COUNT, VOCABULARY.length);
  for (let t = VOCABULARY.length; t < declared.length; t++) {
    if (declared[t] === 0 && g.isIri(t) && g.iri(t).startsWith(DC_ELEMENTS)) out[t] = 1;
  }
  return out;
}

/** Gives the property kinds found by use to the IRIs that have none yet. */
function addUses(kinds: Uint8Array, annotationOnly: Uint8Array, used: Uint8Array): void {
  for (let t = 0; t < kinds.length; t++) if ((kinds[t]! & PROPERTY) === 0 && annotationOnly[t] === 0) kinds[t]! |= used[t]!;
}

/** Properties whose range is a data range (data) or anything else (object). */
function rangeTypes(g: TypedGraph, kinds: Uint8Array, n: number): Uint8Array {
  const used = new Uint8Array(kinds.length);
  for (let i = 0; i < n; i++) {
    const prop = g.subj(i);
    if (g.pred(i) === RDFS_RANGE && g.isIri(prop) && !g.isLiteral(g.obj(i))) used[prop]! |= g.isDataRange(g.obj(i)) ? K_DP : K_OP;
  }
  return used;
}

/**
 * Class and datatype bits from positions only one of them can take. Datatypes first, from the declared
 * data properties; classes then wherever a class expression stands and no data range does.
 */
function typeClassesAndDatatypes(g: TypedGraph, kinds: Uint8Array, declared: Uint8Array, n: number): void {
  const dataOnly = (t: TermId) => g.isIri(t) && (declared[t]! & (K_OP | K_DP)) === K_DP;
  const named = (t: TermId, bit: number) => {
    if (g.isIri(t) && !g.isReservedPredicate(t)) kinds[t]! |= bit;
  };
  for (let i = 0; i < n; i++) {
    const pi = g.pred(i);
    if (pi === O.onDataRange || pi === O.onDatatype || pi === O.datatypeComplementOf) named(g.obj(i), K_DT);
    else if (pi === RDFS_RANGE && dataOnly(g.subj(i))) named(g.obj(i), K_DT);
    else if ((pi === O.someValuesFrom || pi === O.allValuesFrom) && restrictsDataOnly(g, g.subj(i), dataOnly)) named(g.obj(i), K_DT);
  }
  for (let i = 0; i < n; i++) {
    const pi = g.pred(i),
      oi = g.obj(i);
    switch (pi) {
      case RDF_TYPE:
        if (oi >= RESERVED_COUNT) named(oi, K_CLASS);
        break;
      case RDFS_SUBCLASS_OF:
      case O.disjointWith:
        named(g.subj(i), K_CLASS);
        named(oi, K_CLASS);
        break;
      case O.onClass:
      case O.disjointUnionOf:
      case O.hasKey:
        named(pi === O.onClass ? oi : g.subj(i), K_CLASS);
        break;
      case RDFS_DOMAIN:
        if ((kinds[g.subj(i)]! & PROPERTY) !== K_AP) named(oi, K_CLASS);
        break;
      case RDFS_RANGE:
        if (g.isIri(g.subj(i)) && (declared[g.subj(i)]! & K_OP) !== 0) named(oi, K_CLASS);
        break;
      case O.someValuesFrom:
      case O.allValuesFrom:
      case O.complementOf:
        if (g.isIri(oi) && !g.isDataRange(oi)) named(oi, K_CLASS);
        break;
    }
  }
}

function restrictsDataOnly(g: TypedGraph, x: TermId, dataOnly: (t: TermId) => boolean): boolean {
  const on = g.objectOf(x, O.onProperty);
  return on >= 0 && dataOnly(g.obj(on));
}

/** rdfs:subPropertyOf between two IRIs, as pairs. */
function subPropertyEdges(g: TypedGraph, n: number): number[] {
  const edges: number[] = [];
  for (let i = 0; i < n; i++)
    if (g.pred(i) === RDFS_SUBPROPERTY_OF && g.isIri(g.subj(i)) && g.isIri(g.obj(i))) edges.push(g.subj(i), g.obj(i));
  return edges;
}

/**
 * Carries property kinds down subproperty edges (a subproperty of an object property is one) into the
 * properties that have none, until nothing changes: each gets the union over the paths that reach it,
 * whatever the order of the edges. Annotation-only properties give the annotation kind and receive nothing.
 */
function propagate(kinds: Uint8Array, edges: readonly number[], annotationOnly: Uint8Array): void {
  const open = new Uint8Array(kinds.length);
  for (let t = 0; t < kinds.length; t++) if ((kinds[t]! & PROPERTY) === 0 && annotationOnly[t] === 0) open[t] = 1;
  const bits = (t: TermId) => (annotationOnly[t] === 1 ? K_AP : kinds[t]! & PROPERTY);
  for (let changed = edges.length > 0; changed;) {
    changed = false;
    // edges holds (sub, super) pairs: e + 1 < edges.length.
    for (let e = 0; e + 1 < edges.length; e += 2) {
      const sub = edges[e]!,
        add = bits(edges[e + 1]!) & ~kinds[sub]!;
      if (open[sub] === 1 && add !== 0) {
        kinds[sub]! |= add;
        changed = true;
      }
    }
  }
}

/** The property kinds the graph's constructs give the IRIs they use as properties (read from the kinds so far). */
function propertyUses(g: TypedGraph, kinds: Uint8Array, n: number): Uint8Array {
  const used = new Uint8Array(kinds.length);
  const mark = (t: TermId, bit: number) => {
    if (bit !== 0 && g.isIri(t)) used[t]! |= bit;
  };
  for (let i = 0; i < n; i++) {
    const si = g.subj(i),
      oi = g.obj(i);
    switch (g.pred(i)) {
      case RDFS_DOMAIN:
        if (g.isBlank(oi)) mark(si, K_OP);
        break;
      case O.onProperty:
        mark(oi, restrictionUse(g, si));
        break;
      case O.onProperties: {
        const first = g.objectOf(oi, RDF_FIRST),
          rest = g.objectOf(oi, RDF_REST);
        if (first >= 0 && rest >= 0 && g.obj(rest) === RDF_NIL) mark(g.obj(first), K_DP);
        break;
      }
      case O.inverseOf:
        mark(si, K_OP);
        mark(oi, K_OP);
        break;
      case O.propertyChainAxiom:
        mark(si, K_OP);
        markList(g, oi, (m) => mark(m, K_OP));
        break;
      case O.propertyChain: {
        markList(g, oi, (m) => mark(m, K_OP));
        const sup = g.objectOf(si, RDFS_SUBPROPERTY_OF);
        if (sup >= 0) mark(g.obj(sup), K_OP);
        break;
      }
      case RDF_TYPE:
        if (oi === O.FunctionalProperty) mark(si, K_OP);
        break;
      case O.members:
      case O.distinctMembers: {
        const type = g.objectOf(si, RDF_TYPE);
        if (type < 0 || g.obj(type) !== O.AllDisjointProperties) break;
        const members: TermId[] = [];
        markList(g, oi, (m) => members.push(m));
        const data = members.some((m) => g.isIri(m) && (kinds[m]! & (K_OP | K_DP)) === K_DP);
        for (const m of members) mark(m, data ? K_DP : K_OP);
        break;
      }
      case S.propertyPredicate: {
        const type = g.objectOf(si, RDF_TYPE);
        if (type >= 0) mark(oi, g.obj(type) === S.IndividualPropertyAtom ? K_OP : g.obj(type) === S.DatavaluedPropertyAtom ? K_DP : 0);
        break;
      }
    }
  }
  return used;
}

/** The property kind a restriction node gives its property, as the mapping reads the restriction. */
function restrictionUse(g: TypedGraph, x: TermId): number {
  for (const q of [O.someValuesFrom, O.allValuesFrom]) {
    const v = g.objectOf(x, q);
    if (v >= 0) return g.isDataRange(g.obj(v)) ? K_DP : K_OP;
  }
  const value = g.objectOf(x, O.hasValue);
  if (value >= 0) return g.isLiteral(g.obj(value)) ? K_DP : K_OP;
  if (g.objectOf(x, O.hasSelf) >= 0) return K_OP;
  for (const c of CARDINALITIES) if (g.objectOf(x, c) >= 0) return g.objectOf(x, O.onDataRange) >= 0 ? K_DP : K_OP;
  const type = g.objectOf(x, RDF_TYPE);
  return type >= 0 && g.obj(type) === O.SelfRestriction ? K_OP : 0;
}

/** Calls `each` for the members of a well-formed RDF list (a malformed one is reported by the mapping). */
function markList(g: TypedGraph, head: TermId, each: (m: TermId) => void): void {
  const seen = new Set<TermId>();
  for (let x = head; x !== RDF_NIL && g.isBlank(x) && !seen.has(x);) {
    seen.add(x);
    const first = g.objectOf(x, RDF_FIRST),
      rest = g.objectOf(x, RDF_REST);
    if (first < 0 || rest < 0) return;
    each(g.obj(first));
    x = g.obj(rest);
  }
}
