// From a finished saturation to the class taxonomy: equivalence classes of named classes, direct parents
// (transitive reduction), unsatisfiable classes, consistency and realization of named individuals.
// The taxonomy is kept and, after an incremental saturation, updated in place: only the classes whose
// answer can have changed get new nodes (those whose context changed, and everything below them in the
// previous taxonomy: a new subsumer of a class can change which subsumers of its descendants are direct),
// so the cost follows the size of the change, not of the ontology.

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
  parents: MutableNode[];
  children: MutableNode[];
  /** Stamps of the direct-parent computation (see Candidates): last candidate set seen in, last covered in. */
  seen: number;
  covered: number;
}

/**
 * The taxonomy kept between builds and updated in place: after an incremental saturation only the nodes
 * of the classes whose answer can have changed are rebuilt, and the children lists of their parents edited.
 */
export interface TaxonomyState {
  readonly top: MutableNode;
  readonly bottom: MutableNode;
  /** By class id: its node (undefined for hidden classes and ids that are no class). */
  readonly nodeOfId: (MutableNode | undefined)[];
  /** The nodes other than top and bottom. */
  readonly inner: Set<MutableNode>;
  /** Last stamp handed out (see Candidates). */
  stamp: number;
}

export function consistentSaturation(ix: OntologyIndex, sat: Saturation): boolean {
  if (sat.contexts[THING]?.bottom) return false;
  for (const n of ix.individuals.values()) if (sat.contexts[n]?.bottom) return false;
  return true;
}

function newNode(members: IRI[], ids: number[]): MutableNode {
  const [representative] = members;
  if (representative === undefined) throw new Error('taxonomy: a node without members');
  return { representative, members, ids, parents: [], children: [], seen: 0, covered: 0 };
}

function emptyState(): TaxonomyState {
  const top = newNode([OWL_THING], [THING]);
  const bottom = newNode([OWL_NOTHING], [NOTHING]);
  const nodeOfId: (MutableNode | undefined)[] = [];
  nodeOfId[THING] = top;
  nodeOfId[NOTHING] = bottom;
  return { top, bottom, nodeOfId, inner: new Set(), stamp: 0 };
}

/** What an update rebuilds: these classes, which were members of the `old` nodes (or new, or in the bottom node). */
interface Change {
  readonly classes: Set<number>;
  readonly old: Set<MutableNode>;
}

/**
 * What to rebuild after the saturation changed since `state` was built (null: everything): the classes whose
 * context grew or that became hidden, new classes, and every member of their nodes and of the nodes below
 * (a new subsumer of a class can change which subsumers of its descendants are direct). A class whose
 * subsumers and whose subsumers' subsumers are unchanged keeps its direct parents, and those are kept nodes.
 */
function changeSince(ix: OntologyIndex, state: TaxonomyState, grown: readonly number[], hidden: ReadonlySet<number>): Change | null {
  const classes = new Set<number>();
  const old = new Set<MutableNode>();
  const stack: MutableNode[] = [];
  const visit = (n: MutableNode | undefined): boolean => {
    if (n === state.top) return false; // the top node changes: rebuild everything
    if (n !== undefined && n !== state.bottom && !old.has(n)) {
      old.add(n);
      stack.push(n);
    }
    return true;
  };
  const root = (id: number): boolean => {
    if (id === THING) return false; // a class became equivalent to owl:Thing
    if (ix.kind[id] !== Kind.Atom) return true;
    classes.add(id);
    return visit(state.nodeOfId[id]);
  };
  for (const id of grown) if (!root(id)) return null;
  for (const id of hidden) if (state.nodeOfId[id] !== undefined && !root(id)) return null;
  for (const id of ix.classes.values()) if (id > NOTHING && state.nodeOfId[id] === undefined && !hidden.has(id)) classes.add(id);
  while (stack.length) {
    const n = stack.pop()!;
    for (const id of n.ids) classes.add(id);
    for (const c of n.children) if (!visit(c)) return null;
  }
  return { classes, old };
}

/**
 * The taxonomy of the named classes of the index (all contexts must be saturated), leaving out `hidden`
 * ones (no axiom mentions them any more; they are subsumers of no other context). With a `previous`
 * state, that state is updated in place (taxonomies handed out before stay valid only until then).
 */
export function buildTaxonomy(
  ix: OntologyIndex,
  sat: Saturation,
  previous: TaxonomyState | null = null,
  hidden: ReadonlySet<number> = new Set(),
): { taxonomy: Taxonomy; realization: Realization; state: TaxonomyState } {
  const grown = sat.takeGrown();
  const change = previous === null ? null : changeSince(ix, previous, grown, hidden);
  const state = change === null ? emptyState() : previous!;
  const classes = change?.classes ?? new Set([...ix.classes.values()].filter((id) => id > NOTHING && !hidden.has(id)));
  const old = change?.old ?? new Set<MutableNode>();
  rebuild(ix, sat, state, classes, old, hidden, change === null);

  const { top, bottom, nodeOfId } = state;
  const nodes = [top, ...state.inner, bottom];
  const nodeOf = (iri: IRI) => {
    const id = ix.classes.get(iri);
    return id === undefined ? undefined : nodeOfId[id];
  };
  const taxonomy: Taxonomy = { top, bottom, nodes, nodeOf };
  const realization: Realization = {
    directTypes(ind) {
      const ctx = contextOf(ix, sat, ind);
      if (ctx === undefined) return [];
      if (ctx.bottom) return [bottom];
      const candidates = new Candidates(state);
      const subs = ctx.subs;
      for (let k = 0; k < subs.size; k++) {
        const d = subs.items[k]!;
        if (d > NOTHING && ix.kind[d] === Kind.Atom) candidates.add(nodeOfId[d]!);
      }
      return candidates.direct();
    },
    allTypes(ind) {
      const ctx = contextOf(ix, sat, ind);
      if (ctx === undefined) return [];
      if (ctx.bottom) return nodes;
      const out = new Set<MutableNode>([top]);
      for (const d of ctx.subs.values()) if (ix.kind[d] === Kind.Atom) out.add(nodeOfId[d]!);
      return [...out];
    },
  };
  return { taxonomy, realization, state };
}

/**
 * Replaces the nodes of `classes` (the members of the `old` nodes, new classes and bottom ones; with `full`,
 * every class) by fresh ones, leaving out the `hidden` ones. A subsumer's context holds a subset of the
 * conclusions of the context below it, so taking classes by increasing number of subsumers, the nodes of
 * the strict subsumers of a class are final when it comes, and its equivalents are the ones not placed yet.
 */
function rebuild(
  ix: OntologyIndex,
  sat: Saturation,
  state: TaxonomyState,
  classes: ReadonlySet<number>,
  old: ReadonlySet<MutableNode>,
  hidden: ReadonlySet<number>,
  full: boolean,
): void {
  const { top, bottom, nodeOfId } = state;
  const iriOf = (id: number) => ix.iriOf(id);
  while (nodeOfId.length < ix.kind.length) nodeOfId.push(undefined); // dense, so the array keeps fast elements
  for (const n of old) state.inner.delete(n);
  if (!full) for (const id of classes) nodeOfId[id] = undefined;
  const thing = sat.contexts[THING]!.subs;
  const fresh: MutableNode[] = [];
  const bottomIds = bottom.ids.filter((id) => !classes.has(id));
  for (const id of bySize(sat, [...classes])) {
    if (nodeOfId[id] !== undefined || hidden.has(id)) continue;
    const ctx = sat.contexts[id]!;
    if (ctx.bottom) {
      bottomIds.push(id);
      nodeOfId[id] = bottom;
      continue;
    }
    if (thing.has(id)) {
      // only in a full build (otherwise owl:Thing's context did not grow)
      top.ids.push(id);
      top.members.push(iriOf(id));
      nodeOfId[id] = top;
      continue;
    }
    const ids: number[] = [];
    const candidates = new Candidates(state);
    const subs = ctx.subs;
    const items = subs.items;
    for (let k = 0; k < subs.size; k++) {
      const d = items[k]!;
      if (d <= NOTHING || ix.kind[d] !== Kind.Atom) continue;
      const n = nodeOfId[d];
      if (n !== undefined) candidates.add(n);
      else if (d === id || sat.contexts[d]!.subs.has(id))
        ids.push(d); // not placed yet: an equivalent
      else throw new Error(`taxonomy: subsumer ${d} of class ${id} has at least as many subsumers`);
    }
    const node = newNode(ids.length === 1 ? [iriOf(id)] : ids.map(iriOf).sort(compareUtf8), ids);
    for (const d of ids) nodeOfId[d] = node;
    node.parents = candidates.direct();
    fresh.push(node);
  }

  const edited = new Set<MutableNode>();
  for (const n of old) for (const p of n.parents) if (!old.has(p)) edited.add(p);
  for (const p of edited) p.children = p.children.filter((c) => !old.has(c));
  for (const n of fresh) {
    state.inner.add(n);
    for (const p of n.parents) p.children.push(n);
  }
  if (full) top.members.sort((a, b) => (a === OWL_THING ? -1 : b === OWL_THING ? 1 : compareUtf8(a, b)));
  bottom.ids = bottomIds;
  bottom.members = bottomIds.map(iriOf).sort((a, b) => (a === OWL_NOTHING ? -1 : b === OWL_NOTHING ? 1 : compareUtf8(a, b)));
  const leaves: MutableNode[] = [];
  for (const n of state.inner) if (n.children.length === 0) leaves.push(n);
  bottom.parents = leaves.length ? leaves : [top];
}

function contextOf(ix: OntologyIndex, sat: Saturation, ind: Individual): Context | undefined {
  const n = ix.individuals.get(ind);
  return n === undefined || ix.unused(n) ? undefined : sat.contexts[n];
}

/**
 * The direct parents of a class (or the direct types of an individual) from the nodes of its named
 * subsumers, each node final, the class's own node and the top node left out. A candidate node is direct
 * unless it is a direct parent of another candidate: a strict subsumer of a candidate is reached from it
 * through direct parents, all of which lie between, so are candidates too. Nodes are marked with a stamp
 * instead of being put in sets.
 */
class Candidates {
  private readonly stamp: number;
  private readonly nodes: MutableNode[] = [];

  constructor(private readonly state: TaxonomyState) {
    this.stamp = ++state.stamp;
  }

  add(n: MutableNode): void {
    const stamp = this.stamp;
    if (n === this.state.top || n.seen === stamp) return;
    n.seen = stamp;
    this.nodes.push(n);
    for (const p of n.parents) p.covered = stamp;
  }

  /** The uncovered candidates, sorted by representative (so the same after any update); the top node if none. */
  direct(): MutableNode[] {
    const out: MutableNode[] = [];
    for (const n of this.nodes) if (n.covered !== this.stamp) out.push(n);
    if (out.length > 1) out.sort((a, b) => compareUtf8(a.representative, b.representative));
    return out.length ? out : [this.state.top];
  }
}

/**
 * Context roots sorted by increasing number of subsumers. Size and root are packed into one exact double
 * (size · 2^31 + root, below 2^53 while sizes stay under 2^22) so a plain numeric sort does it.
 */
function bySize(sat: Saturation, roots: readonly number[]): number[] {
  const size = (d: number) => sat.contexts[d]!.subs.size;
  if (roots.some((d) => size(d) >= 0x400000)) return [...roots].sort((a, b) => size(a) - size(b));
  const keys = new Float64Array(roots.length);
  for (const [i, d] of roots.entries()) keys[i] = size(d) * 0x80000000 + d;
  keys.sort();
  return Array.from(keys, (key) => key % 0x80000000);
}
