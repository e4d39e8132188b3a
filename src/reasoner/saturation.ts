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
// Saturation is monotone, so more axioms can be indexed later and the saturation continued (see refire).

import { IntSet, IntStack } from './int-set.js';
import { Kind, NOTHING, OntologyIndex, POS, THING } from './normalize.js';

export class Context {
  readonly subs = new IntSet(16);
  /** Backward links, grouped by role: sources X with X -backRoles[i]-> this are in backSources[i]. */
  readonly backRoles: number[] = [];
  readonly backSources: IntSet[] = [];
  /**
   * Forward links for roles that end chains: targets Y with this -fwdRoles[i]-> Y, split into the links
   * derived by a transitivity step (fwdStepped: t∘t ⊑ t on two t-links) and all others (fwdBase).
   */
  fwdRoles: number[] | null = null;
  fwdBase: number[][] | null = null;
  fwdStepped: number[][] | null = null;
  /** Negative existentials ∃s.C with C a subsumer of this context, grouped by s. */
  negRoles: number[] | null = null;
  negExists: number[][] | null = null;
  /** Disjointness groups seen in this context: group → the member concept derived. */
  disj: Map<number, number> | null = null;
  bottom = false;
  /** Whether subsumers were added since the last takeGrown(). */
  grown = false;
  constructor(readonly root: number, readonly individual: boolean) {}

  /** The sources of backward links with role r (undefined when there are none). */
  sourcesOf(r: number): IntSet | undefined {
    const roles = this.backRoles;
    for (let i = 0; i < roles.length; i++) if (roles[i] === r) return this.backSources[i];
    return undefined;
  }
}

export class ReasonerTimeout extends Error {
  constructor(ms: number) {
    super(`reasoning stopped after the time limit of ${ms} ms`);
    this.name = 'ReasonerTimeout';
  }
}

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
      this.concepts.push2(root, root);
      this.concepts.push2(root, THING);
      for (const e of this.globalTop) this.concepts.push2(root, e);
    }
    return ctx;
  }

  /** Re-applies the rules of concepts whose index entries grew, in every context that holds them. */
  refire(concepts: ReadonlySet<number>): void {
    if (concepts.size === 0) return;
    for (const root of this.roots) {
      const subs = this.contexts[root]!.subs;
      for (const c of concepts) if (subs.has(c)) this.refires.push2(root, c);
    }
  }

  /** Runs the worklists to a fixpoint; throws ReasonerTimeout past the deadline (then the state is partial). */
  saturate(deadline = Infinity, limitMs = 0): void {
    const concepts = this.concepts;
    const links = this.links;
    const refires = this.refires;
    const contexts = this.contexts;
    let steps = 0;
    for (;;) {
      if (concepts.length > 0) {
        const n = (concepts.length -= 2);
        const ctx = contexts[concepts.data[n]]!;
        const c = concepts.data[n + 1];
        if (!ctx.bottom && ctx.subs.add(c)) {
          if (!ctx.grown) {
            ctx.grown = true;
            this.grownRoots.push(ctx.root);
          }
          this.apply(ctx, c, false);
        }
      } else if (links.length > 0) {
        const n = (links.length -= 3);
        const d = links.data;
        this.addLink(contexts[d[n]]!, d[n + 1], d[n + 2] >> 1, (d[n + 2] & 1) === 1);
      } else if (refires.length > 0) {
        const n = (refires.length -= 2);
        const ctx = contexts[refires.data[n]]!;
        if (!ctx.bottom) this.apply(ctx, refires.data[n + 1], true);
      } else break;
      if ((++steps & 0xffff) === 0 && Date.now() > deadline) throw new ReasonerTimeout(limitMs);
    }
  }

  /** The roots of the contexts that gained subsumers since the previous call. */
  takeGrown(): number[] {
    const roots = this.grownRoots;
    for (const r of roots) this.contexts[r]!.grown = false;
    this.grownRoots = [];
    return roots;
  }

  /** Queues c ∈ S(x) unless it is known already. */
  private derive(x: number, c: number): void {
    const ctx = this.contexts[x]!;
    if (!ctx.bottom && !ctx.subs.has(c)) this.concepts.push2(x, c);
  }

  /** All rules triggered by c ∈ S(ctx); `again` when re-applied after the index grew. */
  private apply(ctx: Context, c: number, again: boolean): void {
    const ix = this.ix;
    const x = ctx.root;
    if (c === NOTHING) {
      ctx.bottom = true;
      for (const sources of ctx.backSources) this.deriveAll(sources, NOTHING);
      return;
    }
    const told = ix.told[c];
    if (told !== undefined) for (let i = 0; i < told.length; i++) this.derive(x, told[i]);
    if (ix.polarity[c] & POS) this.decompose(ctx, c);
    const conj = ix.negConj[c];
    if (conj !== undefined) {
      const subs = ctx.subs;
      for (let i = 0; i < conj.length; i += 2) if (subs.has(conj[i])) this.derive(x, conj[i + 1]);
    }
    const exists = ix.negExistByFiller[c];
    if (exists !== undefined) for (let i = 0; i < exists.length; i++) this.negativeExistential(ctx, exists[i], again);
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
    const s = ix.left[e];
    ctx.negRoles ??= [];
    ctx.negExists ??= [];
    const roles = ctx.negRoles;
    let i = 0;
    while (i < roles.length && roles[i] !== s) i++;
    if (i === roles.length) {
      roles.push(s);
      ctx.negExists.push([e]);
    } else if (!again || !ctx.negExists[i].includes(e)) ctx.negExists[i].push(e);
    const backRoles = ctx.backRoles;
    for (let j = 0; j < backRoles.length; j++) if (ix.isSubRole(backRoles[j], s)) this.deriveAll(ctx.backSources[j], e);
  }

  private deriveAll(sources: IntSet, c: number): void {
    const items = sources.items;
    for (let k = 0; k < sources.size; k++) this.derive(items[k], c);
  }

  /** Decomposition of a positively occurring concept. */
  private decompose(ctx: Context, c: number): void {
    const ix = this.ix;
    const x = ctx.root;
    switch (ix.kind[c]) {
      case Kind.Conj:
        this.derive(x, ix.left[c]);
        this.derive(x, ix.right[c]);
        return;
      case Kind.Exist: {
        const root = this.fillerRoot(c);
        this.context(root);
        this.links.push3(root, x, ix.left[c] << 1);
        return;
      }
      case Kind.Compl:
        if (ctx.subs.has(ix.left[c])) this.derive(x, NOTHING);
        return;
      case Kind.Self: {
        const r = ix.left[c];
        this.links.push3(x, x, r << 1);
        for (const s of ix.superRoles[r]) {
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

  /** The link `source -r-> ctx`; `stepped` when it was derived by a transitivity step t∘t ⊑ t. */
  private addLink(ctx: Context, source: number, r: number, stepped: boolean): void {
    const ix = this.ix;
    let sources = ctx.sourcesOf(r);
    if (sources === undefined) {
      sources = new IntSet();
      ctx.backRoles.push(r);
      ctx.backSources.push(sources);
    }
    if (!sources.add(source)) return;
    if (ctx.bottom || ix.bottomRole[r]) {
      this.derive(source, NOTHING);
      return;
    }
    const negRoles = ctx.negRoles;
    if (negRoles !== null) {
      for (let i = 0; i < negRoles.length; i++) {
        if (!ix.isSubRole(r, negRoles[i])) continue;
        const es = ctx.negExists![i];
        for (let j = 0; j < es.length; j++) this.derive(source, es[j]);
      }
    }
    // r as the first role of a chain: source -r-> ctx -r2-> z  gives  source -s-> z
    const byFirst = ix.comp.get(r);
    if (byFirst !== undefined && ctx.fwdRoles !== null) {
      const fwdRoles = ctx.fwdRoles;
      for (let i = 0; i < fwdRoles.length; i++) {
        const r2 = fwdRoles[i];
        const sups = byFirst.get(r2);
        if (sups === undefined) continue;
        this.compose(ctx.fwdBase![i], source, r, r2, sups);
        if (!sups.includes(r)) this.compose(ctx.fwdStepped![i], source, r, r2, sups);
      }
    }
    // r as the second role: w -r1-> source -r-> ctx  gives  w -s-> ctx
    const firsts = ix.firstRoles[r];
    if (firsts !== undefined) {
      const src = this.contexts[source]!;
      addForward(src, r, ctx.root, stepped);
      for (const r1 of firsts) {
        const ws = src.sourcesOf(r1);
        if (ws === undefined) continue;
        const sups = ix.comp.get(r1)!.get(r)!;
        if (stepped && sups.includes(r1)) continue;
        const items = ws.items;
        for (let k = 0; k < ws.size; k++) this.compose1(ctx.root, items[k], r1, r, sups);
      }
    }
  }

  /*
   * Why stepped links may be skipped: a link y -t-> z derived by the step t∘t ⊑ t came from earlier t-links
   * y -t-> m -t-> z, so (by induction on arrival) a path of non-stepped t-links joins y to z. When
   * r1∘t ⊑ r1 as well, x -r1-> y walks that path link by link (x -r1-> m, ...) and reaches x -s-> z for
   * every s with r1∘t ⊑ s. This removes the redundant derivations of transitive closures (each closure link
   * would otherwise be derived once per intermediate node).
   */

  /** source -r1-> (a context) -r2-> each target: the links source -s-> target. */
  private compose(targets: number[], source: number, r1: number, r2: number, sups: number[]): void {
    for (let k = 0; k < targets.length; k++) this.compose1(targets[k], source, r1, r2, sups);
  }

  private compose1(target: number, source: number, r1: number, r2: number, sups: number[]): void {
    const step = r1 === r2;
    for (let i = 0; i < sups.length; i++) {
      const s = sups[i];
      this.links.push3(target, source, (s << 1) | (step && s === r1 ? 1 : 0));
    }
  }

  /** ∃top.C holds in every context once some individual is a C. */
  private holdsEverywhere(e: number): void {
    if (this.globalTop.includes(e)) return;
    this.globalTop.push(e);
    for (const root of this.roots) this.derive(root, e);
  }
}

function addForward(ctx: Context, r: number, target: number, stepped: boolean): void {
  ctx.fwdRoles ??= [];
  ctx.fwdBase ??= [];
  ctx.fwdStepped ??= [];
  let i = ctx.fwdRoles.indexOf(r);
  if (i < 0) {
    i = ctx.fwdRoles.length;
    ctx.fwdRoles.push(r);
    ctx.fwdBase.push([]);
    ctx.fwdStepped.push([]);
  }
  (stepped ? ctx.fwdStepped : ctx.fwdBase)[i].push(target);
}
