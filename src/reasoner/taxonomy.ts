// From a finished saturation to the class taxonomy: equivalence classes of named classes, direct parents
// (transitive reduction), unsatisfiable classes, consistency and realization of named individuals.

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
  parents: MutableNode[];
  children: MutableNode[];
  ctx: Context;
}

export function consistentSaturation(ix: OntologyIndex, sat: Saturation): boolean {
  if (sat.contexts[THING]?.bottom) return false;
  for (const n of ix.individuals.values()) if (sat.contexts[n]?.bottom) return false;
  return true;
}

/** The taxonomy of the named classes of the index (all contexts must be saturated). */
export function buildTaxonomy(ix: OntologyIndex, sat: Saturation): { taxonomy: Taxonomy; realization: Realization } {
  const iriOf: IRI[] = [];
  for (const [iri, id] of ix.classes) iriOf[id] = iri;
  const thingCtx = sat.contexts[THING]!;
  const top: MutableNode = { representative: OWL_THING, members: [OWL_THING], parents: [], children: [], ctx: thingCtx };
  const bottom: MutableNode = { representative: OWL_NOTHING, members: [OWL_NOTHING], parents: [], children: [], ctx: thingCtx };
  const nodeOfId = new Map<number, MutableNode>([[THING, top], [NOTHING, bottom]]);
  const nodes: MutableNode[] = [];

  for (const [iri, id] of ix.classes) {
    if (nodeOfId.has(id)) continue;
    const ctx = sat.contexts[id]!;
    if (ctx.bottom) {
      bottom.members.push(iri);
      nodeOfId.set(id, bottom);
    } else if (thingCtx.subs.has(id)) {
      top.members.push(iri);
      nodeOfId.set(id, top);
    } else {
      const node: MutableNode = { representative: iri, members: [], parents: [], children: [], ctx };
      for (const d of ctx.subs) {
        if (ix.kind[d] === Kind.Atom && d > NOTHING && sat.contexts[d]!.subs.has(id)) {
          node.members.push(iriOf[d]);
          nodeOfId.set(d, node);
        }
      }
      node.members.sort(compareUtf8);
      node.representative = node.members[0];
      nodes.push(node);
    }
  }

  for (const node of nodes) {
    node.parents = directNodes(node.ctx, ix, nodeOfId, node);
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
      return ctx.bottom ? [bottom] : directNodes(ctx, ix, nodeOfId, null);
    },
    allTypes(ind) {
      const ctx = contextOf(ix, sat, ind);
      if (ctx === undefined) return [];
      if (ctx.bottom) return all;
      const out = new Set<MutableNode>([top]);
      for (const d of ctx.subs) if (ix.kind[d] === Kind.Atom) out.add(nodeOfId.get(d)!);
      return [...out];
    },
  };
  return { taxonomy, realization };
}

function contextOf(ix: OntologyIndex, sat: Saturation, ind: Individual): Context | undefined {
  const n = ix.individuals.get(ind);
  return n === undefined ? undefined : sat.contexts[n];
}

/**
 * The most specific nodes among the named subsumers of a context (excluding `self`). A subsumer's context
 * holds strictly more conclusions than any of its own strict subsumers, so scanning candidates by decreasing
 * size, a candidate is direct unless it subsumes one already chosen.
 */
function directNodes(ctx: Context, ix: OntologyIndex, nodeOfId: Map<number, MutableNode>, self: MutableNode | null): MutableNode[] {
  const candidates = new Set<MutableNode>();
  for (const d of ctx.subs) {
    if (ix.kind[d] !== Kind.Atom) continue;
    const n = nodeOfId.get(d);
    if (n !== undefined && n !== self) candidates.add(n);
  }
  if (candidates.size === 0) return [nodeOfId.get(THING)!];
  const sorted = [...candidates].sort((a, b) => b.ctx.subs.size - a.ctx.subs.size);
  const direct: MutableNode[] = [];
  for (const c of sorted) {
    const id = ix.classes.get(c.representative)!;
    if (!direct.some((d) => d.ctx.subs.has(id))) direct.push(c);
  }
  return direct;
}
