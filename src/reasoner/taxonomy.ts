// From a finished saturation to the class taxonomy: equivalence classes of named classes, direct parents
// (transitive reduction), unsatisfiable classes, consistency and realization of named individuals.
// After an incremental saturation only the classes whose answer can have changed are recomputed: those
// whose context grew, and everything below them in the previous taxonomy (a new subsumer of a class can
// change which subsumers of its descendants are direct).

import type { IRI, Individual } from '../model/terms.js';
import { OWL_NOTHING, OWL_THING } from '../model/vocab.js';
import { Kind, NOTHING, THING, type OntologyIndex } from './normalize.js';
import type { Context, Saturation } from './saturation.js';

export interface TaxonomyNode {
  /** owl:Thing for the top node, owl:Nothing for the bottom node, otherwise the member whose IRI sorts first. */
  readonly representative: IRI;
  /** Named classes of the node, sorted (including owl:Thing / owl:Nothing for those nodes). */
  readonly members: readonly IRI[];
  readonly parents: readonly TaxonomyNode[];
  readonly children: readonly TaxonomyNode[];
}

export interface Taxonomy {
  readonly top: TaxonomyNode;
  readonly bottom: TaxonomyNode;
  /** All nodes, top first, bottom last. */
  readonly nodes: readonly TaxonomyNode[];
  nodeOf(cls: IRI): TaxonomyNode | undefined;
}

export interface Realization {
  /** The nodes of the most specific named classes of an individual (empty if it is not known). */
  directTypes(individual: Individual): readonly TaxonomyNode[];
  /** All nodes an individual belongs to (owl:Thing included). */
  allTypes(individual: Individual): readonly TaxonomyNode[];
}

/** Byte order of the UTF-8 encodings (the order of `LC_ALL=C sort`). */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // UTF-16 order differs from code point order only between surrogates and U+E000..U+FFFF.
    const sx = x >= 0xd800 && x <= 0xdfff;
    const sy = y >= 0xd800 && y <= 0xdfff;
    if (sx !== sy && (x >= 0xe000 || y >= 0xe000)) return sx ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

interface MutableNode {
  representative: IRI;
  members: IRI[];
  /** Class ids of the members. */
  ids: number[];
  /** The member whose direct parents were computed (the first one met). */
  key: number;
  parents: MutableNode[];
  children: MutableNode[];
}

/** What a taxonomy build keeps for the next one. */
export interface TaxonomyState {
  /** By class id: ids of one member of each direct parent node (owl:Thing's id for the top). */
  readonly direct: (number[] | undefined)[];
  readonly nodeOfId: ReadonlyMap<number, MutableNode>;
}

export function consistentSaturation(ix: OntologyIndex, sat: Saturation): boolean {
  if (sat.contexts[THING]?.bottom) return false;
  for (const n of ix.individuals.values()) if (sat.contexts[n]?.bottom) return false;
  return true;
}

/**
 * The classes to recompute after the saturation grew since `previous` was built (null: all of them): the
 * classes whose context grew, new classes, and every member of their previous nodes and of the nodes below.
 */
function affectedClasses(ix: OntologyIndex, sat: Saturation, previous: TaxonomyState | null, hidden: ReadonlySet<number>): Set<number> | null {
  const grown = [...sat.takeGrown(), ...[...hidden].filter((id) => previous?.nodeOfId.has(id))];
  if (previous === null) return null;
  const affected = new Set<number>();
  const stack: MutableNode[] = [];
  const seen = new Set<MutableNode>();
  const visit = (n: MutableNode | undefined) => {
    if (n !== undefined && !seen.has(n)) {
      seen.add(n);
      stack.push(n);
    }
  };
  for (const root of grown) {
    if (root === THING) return null; // a class became equivalent to owl:Thing: rebuild everything
    if (ix.kind[root] !== Kind.Atom) continue;
    affected.add(root);
    visit(previous.nodeOfId.get(root));
  }
  for (const id of ix.classes.values()) if (!previous.nodeOfId.has(id)) affected.add(id);
  while (stack.length) {
    const n = stack.pop()!;
    for (const id of n.ids) affected.add(id);
    for (const c of n.children) visit(c);
  }
  return affected;
}

/**
 * The taxonomy of the named classes of the index (all contexts must be saturated), leaving out `hidden`
 * ones (no axiom mentions them any more; they are subsumers of no other context).
 */
export function buildTaxonomy(
  ix: OntologyIndex, sat: Saturation, previous: TaxonomyState | null = null, hidden: ReadonlySet<number> = new Set(),
): { taxonomy: Taxonomy; realization: Realization; state: TaxonomyState } {
  const affected = affectedClasses(ix, sat, previous, hidden);
  const iriOf: IRI[] = [];
  for (const [iri, id] of ix.classes) iriOf[id] = iri;
  const thingCtx = sat.contexts[THING]!;
  const top: MutableNode = { representative: OWL_THING, members: [OWL_THING], ids: [THING], key: THING, parents: [], children: [] };
  const bottom: MutableNode = { representative: OWL_NOTHING, members: [OWL_NOTHING], ids: [NOTHING], key: NOTHING, parents: [], children: [] };
  const nodeOfId = new Map<number, MutableNode>([[THING, top], [NOTHING, bottom]]);
  const direct: (number[] | undefined)[] = previous === null ? [] : previous.direct.slice();
  const nodes: MutableNode[] = [];

  for (const [iri, id] of ix.classes) {
    if (nodeOfId.has(id) || hidden.has(id)) continue;
    const ctx = sat.contexts[id]!;
    if (ctx.bottom) {
      bottom.members.push(iri);
      bottom.ids.push(id);
      nodeOfId.set(id, bottom);
      continue;
    }
    if (thingCtx.subs.has(id)) {
      top.members.push(iri);
      top.ids.push(id);
      nodeOfId.set(id, top);
      continue;
    }
    const fresh = affected === null || affected.has(id) || direct[id] === undefined;
    const atoms = fresh ? namedSubsumers(ix, ctx) : [];
    const ids = fresh ? equivalents(sat, id, atoms) : previous!.nodeOfId.get(id)!.ids;
    const node: MutableNode = { representative: iri, members: ids.map((d) => iriOf[d]), ids, key: id, parents: [], children: [] };
    node.members.sort(compareUtf8);
    node.representative = node.members[0];
    for (const d of ids) nodeOfId.set(d, node);
    if (fresh) direct[id] = directIds(sat, atoms, id);
    nodes.push(node);
  }

  for (const node of nodes) {
    const ps = direct[node.key]!;
    node.parents = ps.length === 1 ? [nodeOfId.get(ps[0])!] : [...new Set(ps.map((p) => nodeOfId.get(p)!))];
    for (const p of node.parents) p.children.push(node);
  }
  top.members.sort((a, b) => (a === OWL_THING ? -1 : b === OWL_THING ? 1 : compareUtf8(a, b)));
  bottom.members.sort((a, b) => (a === OWL_NOTHING ? -1 : b === OWL_NOTHING ? 1 : compareUtf8(a, b)));
  const leaves = nodes.filter((n) => n.children.length === 0);
  bottom.parents = leaves.length ? leaves : [top];

  const all = [top, ...nodes, bottom];
  const byIri = new Map<IRI, MutableNode>();
  for (const n of all) for (const m of n.members) byIri.set(m, n);
  const taxonomy: Taxonomy = { top, bottom, nodes: all, nodeOf: (iri) => byIri.get(iri) };

  const realization: Realization = {
    directTypes(ind) {
      const ctx = contextOf(ix, sat, ind);
      if (ctx === undefined) return [];
      return ctx.bottom ? [bottom] : directIds(sat, namedSubsumers(ix, ctx), -1).map((d) => nodeOfId.get(d)!);
    },
    allTypes(ind) {
      const ctx = contextOf(ix, sat, ind);
      if (ctx === undefined) return [];
      if (ctx.bottom) return all;
      const out = new Set<MutableNode>([top]);
      for (const d of ctx.subs.values()) if (ix.kind[d] === Kind.Atom) out.add(nodeOfId.get(d)!);
      return [...out];
    },
  };
  return { taxonomy, realization, state: { direct, nodeOfId } };
}

function contextOf(ix: OntologyIndex, sat: Saturation, ind: Individual): Context | undefined {
  const n = ix.individuals.get(ind);
  return n === undefined ? undefined : sat.contexts[n];
}

/** The named classes among the subsumers of a context, owl:Thing and owl:Nothing left out (one pass over them). */
function namedSubsumers(ix: OntologyIndex, ctx: Context): number[] {
  const out: number[] = [];
  const subs = ctx.subs;
  const items = subs.items;
  const kind = ix.kind;
  for (let k = 0; k < subs.size; k++) {
    const d = items[k];
    if (d > NOTHING && kind[d] === Kind.Atom) out.push(d);
  }
  return out;
}

/** The named classes equivalent to a satisfiable class that is not equivalent to owl:Thing (itself included). */
function equivalents(sat: Saturation, id: number, atoms: readonly number[]): number[] {
  const out: number[] = [];
  for (const d of atoms) if (d === id || sat.contexts[d]!.subs.has(id)) out.push(d);
  return out;
}

/**
 * One class id for each node of the most specific named subsumers (`atoms`) of a context, other than the
 * node of `self` (owl:Thing's id when there are none). A subsumer's context holds strictly more conclusions
 * than any of its own strict subsumers, so scanning candidates by decreasing size, a candidate is direct
 * unless it subsumes one already chosen (equivalent candidates subsume each other, so one per node is kept).
 */
function directIds(sat: Saturation, atoms: readonly number[], self: number): number[] {
  const thing = sat.contexts[THING]!.subs;
  const candidates: number[] = [];
  for (const d of atoms) {
    if (d === self || thing.has(d)) continue;
    if (self >= 0 && sat.contexts[d]!.subs.has(self)) continue;
    candidates.push(d);
  }
  if (candidates.length === 0) return [THING];
  const chosen: number[] = [];
  for (const d of bySizeDescending(sat, candidates)) {
    let below = false;
    for (const c of chosen) if (sat.contexts[c]!.subs.has(d)) { below = true; break; }
    if (!below) chosen.push(d);
  }
  return chosen;
}

/**
 * Context roots sorted by decreasing number of subsumers. Size and root are packed into one exact double
 * (size · 2^31 + root, below 2^53 while sizes stay under 2^22) so a plain numeric sort does it.
 */
function bySizeDescending(sat: Saturation, roots: readonly number[]): number[] {
  const size = (d: number) => sat.contexts[d]!.subs.size;
  if (roots.some((d) => size(d) >= 0x400000)) return [...roots].sort((a, b) => size(b) - size(a));
  const keys = new Float64Array(roots.length);
  for (let i = 0; i < roots.length; i++) keys[i] = size(roots[i]) * 0x80000000 + roots[i];
  keys.sort();
  const out = new Array<number>(roots.length);
  for (let i = 0; i < keys.length; i++) out[i] = keys[keys.length - 1 - i] % 0x80000000;
  return out;
}
