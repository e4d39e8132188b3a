// The disposable reasoner of one materialization preview: a worker thread of its own (never the window's
// reasoning pool or its kept EL state), driven through comlink: `classify` decodes the snapshot's axioms
// (transfer.ts) and classifies them, then `enumerate` answers one category's inferred tuples (IRIs only) at a time, or why it
// could not. Each category stops at `cap` tuples (the caller's per-category limit plus one), so an overflow is
// known without enumerating it all. Konclude runs as a child process while the thread watches the
// cancellation flag, so a stopped preview kills it at once; the call then rejects with ReasonerCancelled.

import { exposeToParent } from '../util/thread-link.js';
import type { Axiom, IRI, Node } from '../model/terms.js';
import {
  cls,
  equivalentClasses,
  isLogicalAxiom,
  namedIndividual,
  objectOneOf,
  objectProperty,
  objectSomeValuesFrom,
  otherKinds,
  ANY_NODE,
} from '../model/terms.js';
import { forEachChild, signature } from '../model/walk.js';
import { OWL_BOTTOM_OBJECT_PROPERTY, OWL_NOTHING, OWL_THING, OWL_TOP_OBJECT_PROPERTY } from '../model/vocab.js';
import type { ElResult } from '../reasoner/el-reasoner.js';
import { answer } from '../reasoner/engines.js';
import { classify } from '../reasoner/el-reasoner.js';
import type { KoncludeConfig } from '../reasoner/konclude.js';
import { OntologyIndex } from '../reasoner/normalize.js';
import { compareUtf8, type TaxonomyNode } from '../reasoner/taxonomy.js';
import { decodeAxioms, type EncodedAxioms } from '../model/transfer.js';
import type { ReasonerId } from '../reasoner/registry.js';
import type { CancelFlag } from '../reasoner/saturation.js';
import type { Category } from './categories.js';
import { unreachable } from '../util/unreachable.js';

export interface EnumerationRequest {
  /** The snapshot's axioms. */
  readonly axioms: EncodedAxioms;
  readonly reasoner: ReasonerId;
  /** How to run Konclude (null: not installed). */
  readonly konclude: KoncludeConfig | null;
  /** Bound on each reasoner run (the thread is terminated at the same bound). */
  readonly timeLimitMs: number;
  /** Supported categories to enumerate, in canonical order. */
  readonly categories: readonly Category[];
  /** Most tuples posted per category; reaching it marks the category overflowing. */
  readonly cap: number;
  /** Raised when the preview stops (cancelled, timed out): shared memory. */
  readonly cancel: CancelFlag;
}

export interface Classified {
  readonly consistent: boolean;
  readonly complete: boolean;
  readonly unsupportedCount: number;
}

export interface CategoryTuples {
  readonly tuples: readonly (readonly IRI[])[];
  readonly overflow: boolean;
  /** Why the enumeration of this category failed (then it has no tuples). */
  readonly failure?: string;
}

export interface EnumeratorApi {
  /** Reads and classifies the snapshot; the categories are enumerated from this classification. */
  classify(req: EnumerationRequest): Promise<Classified>;
  /** One category's tuples, after `classify` found the snapshot consistent. */
  enumerate(category: Category): Promise<CategoryTuples>;
}

/** Most (property, object) pairs the property-assertion enumeration asks the reasoner about. */
export const MAX_ASSERTION_QUERIES = 100_000;

/** A category the enumerator could not finish (the whole category is then discarded). */
class EnumerationFailed extends Error {}

/** Collects tuples until the cap; `full` tells the enumerator to stop. */
class Bounded {
  readonly tuples: IRI[][] = [];
  constructor(private readonly cap: number) {}
  get full(): boolean {
    return this.tuples.length >= this.cap;
  }
  push(t: IRI[]): void {
    if (!this.full) this.tuples.push(t);
  }
}

/** Nodes strictly above `n`. */
function ancestors(n: TaxonomyNode): TaxonomyNode[] {
  const seen = new Set<TaxonomyNode>();
  const out: TaxonomyNode[] = [];
  const stack = [...n.parents];
  while (stack.length > 0) {
    const m = stack.pop()!;
    if (seen.has(m)) continue;
    seen.add(m);
    out.push(m);
    stack.push(...m.parents);
  }
  return out;
}

/** Every entailed SubClassOf(a b) between named classes of different nodes, direct and indirect; owl:Thing as superclass, unsatisfiable subclasses and owl:Thing as subclass left out. */
function subclasses(r: ElResult, out: Bounded): void {
  const t = r.taxonomy;
  for (const n of t.nodes) {
    if (n === t.bottom || n === t.top) continue;
    const sups = ancestors(n).flatMap((m) => m.members.filter((b) => b !== OWL_THING));
    for (const a of n.members)
      for (const b of sups) {
        if (out.full) return;
        out.push([a, b]);
      }
  }
}

/** One EquivalentClasses per node with several members (owl:Nothing's node, the unsatisfiable classes, left out). */
function equivalents(r: ElResult, out: Bounded): void {
  for (const n of r.taxonomy.nodes) {
    if (n === r.taxonomy.bottom || n.members.length < 2) continue;
    if (out.full) return;
    out.push([...n.members]);
  }
}

/** Every entailed ClassAssertion(C a) of a named individual, direct and indirect (owl:Thing left out). */
function assertions(r: ElResult, individuals: readonly IRI[], out: Bounded): void {
  for (const i of individuals) {
    for (const n of r.types(namedIndividual(i), false))
      for (const c of n.members) {
        if (c === OWL_THING || c === OWL_NOTHING) continue;
        if (out.full) return;
        out.push([c, i]);
      }
  }
}

/** Every entailed SubObjectPropertyOf(p q) between distinct named object properties (owl:topObjectProperty as super left out). */
function propertyHierarchy(axioms: readonly Axiom[], out: Bounded): void {
  const ix = new OntologyIndex();
  ix.add(axioms.filter(isLogicalAxiom));
  for (const [r, p] of ix.roleName.entries()) {
    if (p === null || p.iri === OWL_TOP_OBJECT_PROPERTY) continue;
    for (const s of ix.superRoles[r]!) {
      // superRoles runs parallel to roleName, and holds role indexes
      const q = ix.roleName[s];
      if (s === r || !q || q.iri === OWL_TOP_OBJECT_PROPERTY || q.iri === p.iri) continue;
      if (out.full) return;
      out.push([p.iri, q.iri]);
    }
  }
}

const QUERY_PREFIX = 'urn:athene:materialization:query:';

/** Named individuals an inferred property assertion may point at, and whether every individual may (reflexivity, self restrictions). */
function assertionObjects(axioms: readonly Axiom[]): { objects: Set<IRI>; everyone: boolean } {
  const objects = new Set<IRI>();
  let everyone = false;
  const visit = (n: Node): void => {
    switch (n.kind) {
      case 'ObjectHasValue':
        if (n.individual.kind === 'NamedIndividual') objects.add(n.individual.iri);
        break;
      case 'ObjectOneOf':
      case 'SameIndividual':
        for (const i of n.individuals) if (i.kind === 'NamedIndividual') objects.add(i.iri);
        break;
      case 'ObjectPropertyAssertion':
        if (n.object.kind === 'NamedIndividual') objects.add(n.object.iri);
        break;
      case 'ObjectHasSelf':
      case 'ReflexiveObjectProperty':
        everyone = true;
        break;
      default:
        otherKinds(n, ANY_NODE);
    }
    forEachChild(n, visit);
  };
  for (const a of axioms) visit(a);
  return { objects, everyone };
}

/**
 * Every entailed ObjectPropertyAssertion(p a b) between named individuals (owl:topObjectProperty left out):
 * one query class Q ≡ ∃p.{b} per named property p and candidate object b, classified with the ontology in
 * one run; a is p-related to b exactly when Q is among a's types. Objects are the individuals some axiom
 * puts in a filler position (every individual when reflexivity or self restrictions exist).
 */
async function propertyAssertions(req: EnumerationRequest, axioms: readonly Axiom[], out: Bounded): Promise<void> {
  const properties = new Set<IRI>();
  const individuals = new Set<IRI>();
  for (const a of axioms) {
    for (const e of signature(a)) {
      if (e.kind === 'ObjectProperty' && e.iri !== OWL_TOP_OBJECT_PROPERTY && e.iri !== OWL_BOTTOM_OBJECT_PROPERTY) properties.add(e.iri);
      else if (e.kind === 'NamedIndividual') individuals.add(e.iri);
    }
  }
  const found = assertionObjects(axioms);
  const objects = [...(found.everyone ? individuals : found.objects)].sort(compareUtf8);
  const props = [...properties].sort(compareUtf8);
  if (props.length * objects.length > MAX_ASSERTION_QUERIES) {
    throw new EnumerationFailed(
      `${props.length} properties × ${objects.length} candidate objects exceed the ${MAX_ASSERTION_QUERIES} reasoner queries this enumeration may ask`,
    );
  }
  const queries = new Map<IRI, readonly [IRI, IRI]>();
  const extra: Axiom[] = [];
  for (const p of props)
    for (const b of objects) {
      const q = QUERY_PREFIX + queries.size;
      queries.set(q, [p, b]);
      extra.push(equivalentClasses([cls(q), objectSomeValuesFrom(objectProperty(p), objectOneOf([namedIndividual(b)]))]));
    }
  if (queries.size === 0) return;
  const r = await reason(req, [...axioms, ...extra]);
  for (const a of [...individuals].sort(compareUtf8)) {
    const pairs: (readonly [IRI, IRI])[] = [];
    for (const n of r.types(namedIndividual(a), false))
      for (const m of n.members) {
        const pair = queries.get(m);
        if (pair !== undefined) pairs.push(pair);
      }
    pairs.sort((x, y) => compareUtf8(x[0], y[0]) || compareUtf8(x[1], y[1]));
    for (const [p, b] of pairs) {
      if (out.full) return;
      out.push([p, a, b]);
    }
  }
}

async function reason(req: EnumerationRequest, axioms: readonly Axiom[]): Promise<ElResult> {
  const options = { timeLimitMs: req.timeLimitMs, cancel: req.cancel };
  return (await answer(req.reasoner, axioms, req.konclude, options, () => classify(axioms, options))).result;
}

async function enumerate(req: EnumerationRequest, axioms: readonly Axiom[], r: ElResult, category: Category): Promise<Bounded> {
  const out = new Bounded(req.cap);
  switch (category) {
    case 'subclass_axioms':
      subclasses(r, out);
      break;
    case 'equivalent_class_axioms':
      equivalents(r, out);
      break;
    case 'class_assertions': {
      const individuals = new Set<IRI>();
      for (const a of axioms) for (const e of signature(a)) if (e.kind === 'NamedIndividual') individuals.add(e.iri);
      assertions(r, [...individuals].sort(compareUtf8), out);
      break;
    }
    case 'property_hierarchy_axioms':
      propertyHierarchy(axioms, out);
      break;
    case 'object_property_assertions':
      await propertyAssertions(req, axioms, out);
      break;
    case 'data_property_assertions':
      throw new EnumerationFailed(`no enumerator for ${category}`);
    default:
      return unreachable(category);
  }
  return out;
}

let classified: { readonly req: EnumerationRequest; readonly axioms: readonly Axiom[]; readonly result: ElResult } | null = null;

const api: EnumeratorApi = {
  async classify(req) {
    const axioms = decodeAxioms(req.axioms);
    const result = await reason(req, axioms);
    classified = { req, axioms, result };
    return { consistent: result.consistent, complete: result.complete, unsupportedCount: result.unsupported.count };
  },
  async enumerate(category) {
    if (classified === null) throw new Error('enumerate before classify');
    try {
      const out = await enumerate(classified.req, classified.axioms, classified.result, category);
      return { tuples: out.tuples, overflow: out.full };
    } catch (err) {
      if (!(err instanceof EnumerationFailed)) throw err;
      return { tuples: [], overflow: false, failure: err.message };
    }
  },
};

exposeToParent(api);
