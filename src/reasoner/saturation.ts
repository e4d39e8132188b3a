// Consequence-based saturation (the completion rules of EL++ as ELK applies them).
//
// A context is created for each concept whose subsumers are needed (named classes, individuals' nominals,
// fillers of positive existentials). Conclusions are produced through worklists; each rule is triggered
// by a new conclusion and finds its premises through the indexes of OntologyIndex, so no pair of concepts
// is ever tested for subsumption. Conclusions:
//   subsumer  c ∈ S(X)          "X ⊑ c"
//   link      X -r-> Y          "X ⊑ ∃r.Y", stored in Y as a backward link (and in X as a forward link when
//                               r is the second role of some chain)
// Every conclusion is kept in typed-array int sets (int-set.ts) and checked before it is queued, so the
// worklists stay short and nothing is allocated per conclusion. Negative existentials ∃s.C whose filler C
// is a subsumer of a context are grouped there by s: a new link r into the context then visits only the
// groups of super-roles of r.
// Two redundancies are avoided, as in ELK: concepts derived only by composition are not decomposed again
// (see apply), and links absorbed by a transitive role are not composed with it again (see addLink).
// Saturation is monotone, so more axioms can be indexed later and the saturation continued (see refire);
// after removals, the part that may depend on them is reset and saturated again (see retract).
// Ids index dense tables: each concept id has its entry in every per-concept table of the index, each role id
// in every per-role one, each context root in `contexts` once its context exists, and a context's lists by
// role (backRoles/backSources/backBase, fwdRoles/fwdTargets, negRoles/negExists) run in parallel. The `!`
// on such reads rest on that.

import { IntSet, IntStack } from './int-set.js';
import { Kind, NOTHING, OntologyIndex, POS, THING } from './normalize.js';
import type { StopFlag } from '../util/stop-flag.js';

export class Context {
  readonly subs = new IntSet(16);
  /** Backward links, grouped by role: sources X with X -backRoles[i]-> this are in backSources[i]. */
  readonly backRoles: number[] = [];
  readonly backSources: IntSet[] = [];
  /** For roles with an absorbing role (OntologyIndex.absorbing): the sources of the links not absorbed. */
  readonly backBase: (IntSet | null)[] = [];
  /** Forward links for roles that end chains: targets Y with this -fwdRoles[i]-> Y in fwdTargets[i]. */
  fwdRoles: number[] | null = null;
  fwdTargets: number[][] | null = null;
  /** Negative existentials ∃s.C with C a subsumer of this context, grouped by s. */
  negRoles: number[] | null = null;
  negExists: number[][] | null = null;
  /** Disjointness groups seen in this context: group → the member concept derived. */
  disj: Map<number, number> | null = null;
  bottom = false;
  /** Whether subsumers were added since the last takeGrown(). */
  grown = false;
  constructor(
    readonly root: number,
    readonly individual: boolean,
  ) {}

  /** The sources of backward links with role r (undefined when there are none). */
  sourcesOf(r: number): IntSet | undefined {
    const roles = this.backRoles;
    for (let i = 0; i < roles.length; i++) if (roles[i] === r) return this.backSources[i];
    return undefined;
  }

  /** The sources of backward links with role r that were not absorbed (undefined when there are none). */
  baseSourcesOf(r: number): IntSet | undefined {
    const roles = this.backRoles;
    for (let i = 0; i < roles.length; i++) if (roles[i] === r) return this.backBase[i] ?? undefined;
    return undefined;
  }
}

export class ReasonerTimeout extends Error {
  constructor(ms: number) {
    super(`reasoning stopped after the time limit of ${ms} ms`);
    this.name = 'ReasonerTimeout';
  }
}

export class ReasonerCancelled extends Error {
  constructor() {
    super('reasoning was cancelled');
    this.name = 'ReasonerCancelled';
  }
}

/** A cancellation flag another thread can raise (the task pool's stop flag). */
export type CancelFlag = StopFlag;
export { stopFlag as cancelFlag, raiseStop as raiseFlag } from '../util/stop-flag.js';

export class Saturation {
  readonly contexts: (Context | undefined)[] = [];
  readonly roots: number[] = [];
  /** Pending subsumers (context, concept), links (target, source, role) and re-applications (context, concept). */
  private readonly concepts = new IntStack();
  private readonly links = new IntStack();
  private readonly refires = new IntStack();
  private readonly fillerRoots = new Map<number, number>();
  /** Negative ∃topObjectProperty.C that hold everywhere since some individual is a C. */
  private readonly globalTop: number[] = [];
  /** Roots of the contexts that gained subsumers since the last takeGrown() (for incremental taxonomies). */
  private grownRoots: number[] = [];

  constructor(private readonly ix: OntologyIndex) {}

  context(root: number): Context {
    const contexts = this.contexts;
    while (contexts.length <= root) contexts.push(undefined); // dense, so the array keeps fast elements
    let ctx = contexts[root];
    if (ctx === undefined) {
      ctx = new Context(root, root === THING || this.ix.kind[root] === Kind.Nominal);
      this.contexts[root] = ctx;
      this.roots.push(root);
      this.concepts.push2(root, root << 1);
      this.concepts.push2(root, THING << 1);
      for (const e of this.globalTop) this.concepts.push2(root, e << 1);
    }
    return ctx;
  }

  /** Re-applies the rules of concepts whose index entries grew, in every context that holds them. */
  refire(concepts: ReadonlySet<number>): void {
    if (concepts.size === 0) return;
    const cs = [...concepts];
    const contexts = this.contexts;
    for (const root of this.roots) {
      const subs = contexts[root]!.subs;
      for (const c of cs) if (subs.has(c)) this.refires.push2(root, c);
    }
  }

  /**
   * Takes back what may depend on rules that lost entries (`changed`: the concepts whose index entries were
   * removed), so that saturating again gives exactly the closure of the remaining axioms. The contexts
   * holding a changed concept are reset, and with them every context linked into a reset one (its
   * conclusions may come over that link), transitively; the links they sent into kept contexts are
   * removed there. Kept contexts depend on kept contexts only, so their conclusions stand. Returns false
   * when this is not possible (the last saturation was interrupted, or ∃topObjectProperty facts hold
   * everywhere): the caller then starts over.
   */
  retract(changed: ReadonlySet<number>): boolean {
    if (this.concepts.length > 0 || this.links.length > 0 || this.refires.length > 0 || this.globalTop.length > 0) return false;
    if (changed.size === 0) return true;
    const contexts = this.contexts;
    const reset = new Uint8Array(contexts.length);
    const queue: number[] = [];
    const mark = (root: number) => {
      if (reset[root] === 0) {
        reset[root] = 1;
        queue.push(root);
      }
    };
    for (const root of this.roots) {
      const subs = contexts[root]!.subs;
      for (const c of changed)
        if (subs.has(c)) {
          mark(root);
          break;
        }
    }
    // the loop also visits the roots marked meanwhile
    for (const root of queue) {
      for (const sources of contexts[root]!.backSources) {
        const items = sources.items;
        for (let k = 0; k < sources.size; k++) mark(items[k]!);
      }
    }
    for (const target of this.linkTargets(queue)) if (reset[target] === 0) dropSources(contexts[target]!, reset, queue);
    for (const root of queue) {
      contexts[root] = new Context(root, contexts[root]!.individual);
      this.concepts.push2(root, root << 1);
      this.concepts.push2(root, THING << 1);
    }
    return true;
  }

  /**
   * Every context some context of `sources` has a link into: the fillers of its positive existentials, and
   * from those on, transitively, the targets of forward links (a composed link x -s-> z comes from
   * x -r1-> y -r2-> z, which is kept as y's forward link).
   */
  private linkTargets(sources: readonly number[]): number[] {
    const ix = this.ix;
    const seen = new Uint8Array(this.contexts.length);
    const out: number[] = [];
    const visit = (root: number) => {
      if (seen[root] === 0) {
        seen[root] = 1;
        out.push(root);
      }
    };
    for (const root of sources) {
      const subs = this.contexts[root]!.subs;
      const items = subs.items;
      for (let k = 0; k < subs.size; k++) {
        const c = items[k]!;
        if (ix.kind[c] === Kind.Exist && (ix.polarity[c]! & POS) !== 0) visit(this.fillerRoot(c));
      }
    }
    // the loop also visits the targets found meanwhile
    for (const root of out) {
      const fwd = this.contexts[root]!.fwdTargets;
      if (fwd !== null) for (const targets of fwd) for (const t of targets) visit(t);
    }
    return out;
  }

  /**
   * Runs the worklists to a fixpoint; throws ReasonerTimeout past the deadline and ReasonerCancelled once
   * `cancel` is raised (both are checked every few thousand steps). The state is then partial but consistent:
   * a later call continues from where this one stopped.
   */
  saturate(deadline = Infinity, limitMs = 0, cancel: CancelFlag | null = null): void {
    const concepts = this.concepts;
    const links = this.links;
    const refires = this.refires;
    const contexts = this.contexts;
    let steps = 0;
    // each stack holds whole entries (pairs or triples), so a non-empty one has its last entry in full
    for (;;) {
      if (concepts.length > 0) {
        const n = (concepts.length -= 2);
        const ctx = contexts[concepts.data[n]!]!;
        const v = concepts.data[n + 1]!;
        const c = v >> 1;
        if (ctx.bottom) continue;
        if (ctx.subs.add(c)) {
          if (!ctx.grown) {
            ctx.grown = true;
            this.grownRoots.push(ctx.root);
          }
          this.apply(ctx, c, false, (v & 1) === 1);
        } else if ((v & 1) === 0 && this.skippable(c)) {
          this.decompose(ctx, c); // it may have arrived by composition first, undecomposed
        }
      } else if (links.length > 0) {
        const n = (links.length -= 3);
        const d = links.data;
        const flagged = d[n + 2]!;
        this.addLink(contexts[d[n]!]!, d[n + 1]!, flagged >> 1, (flagged & 1) === 1);
      } else if (refires.length > 0) {
        const n = (refires.length -= 2);
        const ctx = contexts[refires.data[n]!]!;
        const c = refires.data[n + 1]!;
        if (!ctx.bottom) this.apply(ctx, c, true, false);
      } else break;
      if ((++steps & 0x3fff) === 0) {
        if (cancel !== null && Atomics.load(cancel, 0) !== 0) throw new ReasonerCancelled();
        if (Date.now() > deadline) throw new ReasonerTimeout(limitMs);
      }
    }
  }

  /** The roots of the contexts that gained subsumers since the previous call. */
  takeGrown(): number[] {
    const roots = this.grownRoots;
    for (const r of roots) this.contexts[r]!.grown = false;
    this.grownRoots = [];
    return roots;
  }

  /**
   * Queues c ∈ S(x) unless it is known already. An existential whose decomposition is skipped when composed
   * is queued again all the same: whether it was decomposed is not recorded (that would cost a set per
   * context), and decomposing twice only derives a link that is known.
   */
  private derive(x: number, c: number): void {
    const ctx = this.contexts[x]!;
    if (!ctx.bottom && (!ctx.subs.has(c) || this.skippable(c))) this.concepts.push2(x, c << 1);
  }

  /** Whether c is decomposed only when it arrives otherwise than by composition (see apply). */
  private skippable(c: number): boolean {
    const ix = this.ix;
    return ix.kind[c] === Kind.Exist && (ix.polarity[c]! & POS) !== 0 && ix.kind[ix.right[c]!] !== Kind.Nominal;
  }

  /** Queues c ∈ S(x), derived by a composition rule, unless it is known already. */
  private deriveComposed(x: number, c: number): void {
    const ctx = this.contexts[x]!;
    if (!ctx.bottom && !ctx.subs.has(c)) this.concepts.push2(x, (c << 1) | 1);
  }

  /**
   * All rules triggered by c ∈ S(ctx); `again` when re-applied after the index grew; `composed` when c was
   * derived only by a composition rule. Decomposing such a c is redundant, as in ELK: a conjunction composed
   * from its conjuncts gives them back, and ∃s.C composed from a link x -r-> y (r ⊑ s, C ∈ S(y)) would add a
   * link x -s-> C whose every consequence the link to y (whose subsumers include all of C's) has already.
   * Fillers that are nominals are decomposed all the same (their contexts are individuals').
   */
  private apply(ctx: Context, c: number, again: boolean, composed: boolean): void {
    const ix = this.ix;
    const x = ctx.root;
    if (c === NOTHING) {
      ctx.bottom = true;
      for (const sources of ctx.backSources) this.deriveAll(sources, NOTHING, false);
      return;
    }
    const told = ix.told[c];
    if (told !== undefined) for (const d of told) this.derive(x, d);
    if (ix.polarity[c]! & POS) {
      const k = ix.kind[c];
      if (!composed || !(k === Kind.Conj || this.skippable(c))) this.decompose(ctx, c);
    }
    const conj = ix.negConj[c];
    if (conj !== undefined) {
      const subs = ctx.subs;
      // (other, conjunction) pairs
      for (let i = 0; i < conj.length; i += 2) if (subs.has(conj[i]!)) this.deriveComposed(x, conj[i + 1]!);
    }
    const exists = ix.negExistByFiller[c];
    if (exists !== undefined) for (const e of exists) this.negativeExistential(ctx, e, again);
    const compls = ix.complOf[c];
    if (compls !== undefined) for (const n of compls) if (ctx.subs.has(n)) this.derive(x, NOTHING);
    const groups = ix.disjoint[c];
    if (groups !== undefined) {
      ctx.disj ??= new Map();
      for (const g of groups) {
        const m = ctx.disj.get(g);
        if (m === undefined) ctx.disj.set(g, c);
        else if (m !== c) this.derive(x, NOTHING);
      }
    }
    const top = ix.topExistByFiller[c];
    if (top !== undefined && ctx.individual) this.holdsEverywhere(top);
  }

  /** The filler of the negative ∃s.C (e) is in ctx: every source linked by a sub-role of s gets e. */
  private negativeExistential(ctx: Context, e: number, again: boolean): void {
    const ix = this.ix;
    const s = ix.left[e]!;
    ctx.negRoles ??= [];
    ctx.negExists ??= [];
    const roles = ctx.negRoles;
    let i = 0;
    while (i < roles.length && roles[i] !== s) i++;
    if (i === roles.length) {
      roles.push(s);
      ctx.negExists.push([e]);
    } else {
      const group = ctx.negExists[i]!;
      if (!again || !group.includes(e)) group.push(e);
    }
    const backRoles = ctx.backRoles;
    for (let j = 0; j < backRoles.length; j++) if (ix.isSubRole(backRoles[j]!, s)) this.deriveAll(ctx.backSources[j]!, e, true);
  }

  private deriveAll(sources: IntSet, c: number, composed: boolean): void {
    const items = sources.items;
    if (composed) for (let k = 0; k < sources.size; k++) this.deriveComposed(items[k]!, c);
    else for (let k = 0; k < sources.size; k++) this.derive(items[k]!, c);
  }

  /** Decomposition of a positively occurring concept. */
  private decompose(ctx: Context, c: number): void {
    const ix = this.ix;
    const x = ctx.root;
    switch (ix.kind[c]) {
      case Kind.Conj:
        this.derive(x, ix.left[c]!);
        this.derive(x, ix.right[c]!);
        return;
      case Kind.Exist: {
        const root = this.fillerRoot(c);
        this.context(root);
        this.links.push3(root, x, ix.left[c]! << 1);
        return;
      }
      case Kind.Compl:
        if (ctx.subs.has(ix.left[c]!)) this.derive(x, NOTHING);
        return;
      case Kind.Self: {
        const r = ix.left[c]!;
        this.links.push3(x, x, r << 1);
        for (const s of ix.superRoles[r]!) {
          const selfs = ix.negSelfByRole[s];
          if (selfs !== undefined) for (const e of selfs) this.derive(x, e);
        }
        return;
      }
      default:
    }
  }

  private fillerRoot(exist: number): number {
    let root = this.fillerRoots.get(exist);
    if (root === undefined) {
      root = this.ix.fillerRoot(exist);
      this.fillerRoots.set(exist, root);
    }
    return root;
  }

  /** The link `source -r-> ctx`; `absorbed` when derived from source -r-> y -t-> ctx with t = absorbing[r]. */
  private addLink(ctx: Context, source: number, r: number, absorbed: boolean): void {
    const ix = this.ix;
    const roles = ctx.backRoles;
    let at = 0;
    while (at < roles.length && roles[at] !== r) at++;
    if (at === roles.length) {
      roles.push(r);
      ctx.backSources.push(new IntSet());
      ctx.backBase.push(null);
    }
    // at is r's place in the parallel lists, pushed just above if new
    if (!ctx.backSources[at]!.add(source)) return;
    const t = ix.absorbing[r]!;
    if (t >= 0 && !absorbed) (ctx.backBase[at] ??= new IntSet()).add(source);
    if (ctx.bottom || ix.bottomRole[r]) {
      this.derive(source, NOTHING);
      return;
    }
    const negRoles = ctx.negRoles;
    if (negRoles !== null) {
      for (let i = 0; i < negRoles.length; i++) {
        if (!ix.isSubRole(r, negRoles[i]!)) continue;
        for (const e of ctx.negExists![i]!) this.deriveComposed(source, e);
      }
    }
    // r as the first role of a chain: source -r-> ctx -r2-> z  gives  source -s-> z
    const byFirst = ix.compOf[r];
    if (byFirst !== undefined && ctx.fwdRoles !== null) {
      const fwdRoles = ctx.fwdRoles;
      for (let i = 0; i < fwdRoles.length; i++) {
        const r2 = fwdRoles[i]!;
        const sups = byFirst[r2];
        if (sups === undefined || (absorbed && r2 === t)) continue;
        this.compose(ctx.fwdTargets![i]!, source, r, r2, sups);
      }
    }
    // r as the second role: w -r1-> source -r-> ctx  gives  w -s-> ctx
    const firsts = ix.firstRoles[r];
    if (firsts !== undefined) {
      const src = this.contexts[source]!;
      addForward(src, r, ctx.root);
      for (const r1 of firsts) {
        const ws = ix.absorbing[r1] === r ? src.baseSourcesOf(r1) : src.sourcesOf(r1);
        if (ws === undefined) continue;
        this.composeFrom(ws, ctx.root, r1, r, ix.compOf[r1]![r]!);
      }
    }
  }

  /*
   * Why absorbed links need not be composed with t-links (t = absorbing[r], so t∘t ⊑ t and r∘t ⊑ r): an
   * absorbed x -r-> y came from an earlier x -r-> y' and y' -t-> y, so (by induction on arrival) some link
   * x -r-> b that is not absorbed has a path of t-links from b to y. By the same argument for t itself, the
   * t-links are closed under composition, so b -t-> z for every t-link y -t-> z, and x -r-> b composed with
   * b -t-> z derives everything x -r-> y composed with y -t-> z would. Each link of a transitive closure is
   * then derived about once per link that is not absorbed, instead of once per intermediate node.
   */

  /** source -r1-> (a context) -r2-> each target: the links source -s-> target. */
  private compose(targets: number[], source: number, r1: number, r2: number, sups: number[]): void {
    for (const target of targets) this.compose1(target, source, r1, r2, sups);
  }

  /** Each w of `sources` -r1-> (a context) -r2-> target: the links w -s-> target not known already. */
  private composeFrom(sources: IntSet, target: number, r1: number, r2: number, sups: number[]): void {
    const absorbs = this.ix.absorbing[r1] === r2;
    const ctx = this.contexts[target]!;
    const items = sources.items;
    const n = sources.size;
    for (const s of sups) {
      const flagged = (s << 1) | (absorbs && s === r1 ? 1 : 0);
      const known = ctx.sourcesOf(s);
      if (known === undefined) for (let k = 0; k < n; k++) this.links.push3(target, items[k]!, flagged);
      else
        for (let k = 0; k < n; k++) {
          const w = items[k]!;
          if (!known.has(w)) this.links.push3(target, w, flagged);
        }
    }
  }

  /** Queues the links source -s-> target for s in sups, unless known already (most are, in closures). */
  private compose1(target: number, source: number, r1: number, r2: number, sups: number[]): void {
    const absorbs = this.ix.absorbing[r1] === r2;
    const ctx = this.contexts[target]!;
    for (const s of sups) {
      const known = ctx.sourcesOf(s);
      if (known === undefined || !known.has(source)) this.links.push3(target, source, (s << 1) | (absorbs && s === r1 ? 1 : 0));
    }
  }

  /** ∃top.C holds in every context once some individual is a C. */
  private holdsEverywhere(e: number): void {
    if (this.globalTop.includes(e)) return;
    this.globalTop.push(e);
    for (const root of this.roots) this.derive(root, e);
  }
}

/** Removes the link sources marked in `reset` (listed in `marked`) from a context's backward links. */
function dropSources(ctx: Context, reset: Uint8Array, marked: readonly number[]): void {
  for (const [i, sources] of ctx.backSources.entries()) {
    ctx.backSources[i] = withoutMarked(sources, reset, marked);
    const base = ctx.backBase[i] ?? null;
    if (base !== null) ctx.backBase[i] = withoutMarked(base, reset, marked);
  }
}

/**
 * The set without the marked members: deleted one by one when they are few, else by building a new set
 * (the cheaper way for sets smaller than the list of marked roots).
 */
function withoutMarked(set: IntSet, reset: Uint8Array, marked: readonly number[]): IntSet {
  if (marked.length < set.size) {
    for (const m of marked) set.delete(m);
    return set;
  }
  const items = set.items;
  let any = false;
  for (let k = 0; k < set.size && !any; k++) any = reset[items[k]!] === 1;
  if (!any) return set;
  const out = new IntSet();
  for (let k = 0; k < set.size; k++) {
    const x = items[k]!;
    if (reset[x] === 0) out.add(x);
  }
  return out;
}

function addForward(ctx: Context, r: number, target: number): void {
  ctx.fwdRoles ??= [];
  ctx.fwdTargets ??= [];
  let i = ctx.fwdRoles.indexOf(r);
  if (i < 0) {
    i = ctx.fwdRoles.length;
    ctx.fwdRoles.push(r);
    ctx.fwdTargets.push([]);
  }
  // fwdTargets runs parallel to fwdRoles, where r is at i
  ctx.fwdTargets[i]!.push(target);
}
