// Consequence-based saturation (the completion rules of EL++ as ELK applies them).
//
// A context is created for each concept whose subsumers are needed (named classes, individuals' nominals,
// fillers of positive existentials). Conclusions are produced through one worklist; each rule is triggered
// by a new conclusion and finds its premises through the indexes of OntologyIndex, so no pair of concepts
// is ever tested for subsumption. Conclusions:
//   subsumer  c ∈ S(X)          "X ⊑ c"
//   link      X -r-> Y          "X ⊑ ∃r.Y", stored in Y as a backward link (and in X as a forward link when
//                               r is the second role of some chain)
// Saturation is monotone, so more axioms can be indexed later and the saturation continued (see refire).

import { Kind, NOTHING, OntologyIndex, POS, THING } from './normalize.js';

export class Context {
  readonly subs = new Set<number>();
  /** Backward links: role → contexts X with X -role-> this. */
  readonly back = new Map<number, Set<number>>();
  /** Forward links for roles that end chains: role → contexts Y with this -role-> Y. */
  fwd: Map<number, number[]> | null = null;
  /** Subsumers that are fillers of negative existentials (the only ones a new backward link can use). */
  negFillers: Set<number> | null = null;
  /** Disjointness groups seen in this context: group → the member concept derived. */
  disj: Map<number, number> | null = null;
  bottom = false;
  constructor(readonly root: number, readonly individual: boolean) {}
}

const CONCEPT = 0;
const LINK = 1;
const REFIRE = 2;

export class ReasonerTimeout extends Error {
  constructor(ms: number) {
    super(`reasoning stopped after the time limit of ${ms} ms`);
    this.name = 'ReasonerTimeout';
  }
}

export class Saturation {
  readonly contexts: (Context | undefined)[] = [];
  readonly roots: number[] = [];
  private readonly queue: number[] = [];
  private head = 0;
  private readonly fillerRoots = new Map<number, number>();
  /** Negative ∃topObjectProperty.C that hold everywhere since some individual is a C. */
  private readonly globalTop: number[] = [];

  constructor(private readonly ix: OntologyIndex) {}

  context(root: number): Context {
    let ctx = this.contexts[root];
    if (ctx === undefined) {
      ctx = new Context(root, root === THING || this.ix.kind[root] === Kind.Nominal);
      this.contexts[root] = ctx;
      this.roots.push(root);
      this.queue.push(CONCEPT, root, root, 0, CONCEPT, root, THING, 0);
      for (const e of this.globalTop) this.queue.push(CONCEPT, root, e, 0);
    }
    return ctx;
  }

  /** Re-applies the rules of concepts whose index entries grew, in every context that holds them. */
  refire(concepts: ReadonlySet<number>): void {
    if (concepts.size === 0) return;
    for (const root of this.roots) {
      const subs = this.contexts[root]!.subs;
      for (const c of concepts) if (subs.has(c)) this.queue.push(REFIRE, root, c, 0);
    }
  }

  /** Runs the worklist to a fixpoint; throws ReasonerTimeout past the deadline (then the state is partial). */
  saturate(deadline = Infinity, limitMs = 0): void {
    const q = this.queue;
    let steps = 0;
    while (this.head < q.length) {
      const op = q[this.head];
      const x = q[this.head + 1];
      const a = q[this.head + 2];
      const b = q[this.head + 3];
      this.head += 4;
      if (op === CONCEPT) this.addConcept(this.contexts[x]!, a);
      else if (op === LINK) this.addLink(this.contexts[x]!, a, b);
      else {
        const ctx = this.contexts[x]!;
        if (!ctx.bottom) this.apply(ctx, a);
      }
      if ((++steps & 0xffff) === 0 && Date.now() > deadline) throw new ReasonerTimeout(limitMs);
      if (this.head > 0x100000 && this.head * 2 > q.length) {
        q.splice(0, this.head);
        this.head = 0;
      }
    }
    q.length = 0;
    this.head = 0;
  }

  private addConcept(ctx: Context, c: number): void {
    if (ctx.bottom || ctx.subs.has(c)) return;
    ctx.subs.add(c);
    this.apply(ctx, c);
  }

  /** All rules triggered by c ∈ S(ctx). */
  private apply(ctx: Context, c: number): void {
    const ix = this.ix;
    const q = this.queue;
    const x = ctx.root;
    if (c === NOTHING) {
      ctx.bottom = true;
      for (const sources of ctx.back.values()) for (const s of sources) q.push(CONCEPT, s, NOTHING, 0);
      return;
    }
    const told = ix.told[c];
    if (told !== undefined) for (let i = 0; i < told.length; i++) q.push(CONCEPT, x, told[i], 0);
    if (ix.polarity[c] & POS) this.decompose(ctx, c);
    const conj = ix.negConj[c];
    if (conj !== undefined) {
      for (let i = 0; i < conj.length; i += 2) if (ctx.subs.has(conj[i])) q.push(CONCEPT, x, conj[i + 1], 0);
    }
    const exists = ix.negExistByFiller[c];
    if (exists !== undefined) (ctx.negFillers ??= new Set()).add(c);
    if (exists !== undefined && ctx.back.size > 0) {
      for (const e of exists) {
        const s = ix.left[e];
        for (const [r, sources] of ctx.back) {
          if (ix.superRoleSet[r].has(s)) for (const src of sources) q.push(CONCEPT, src, e, 0);
        }
      }
    }
    const compls = ix.complOf[c];
    if (compls !== undefined) for (const n of compls) if (ctx.subs.has(n)) q.push(CONCEPT, x, NOTHING, 0);
    const groups = ix.disjoint[c];
    if (groups !== undefined) {
      ctx.disj ??= new Map();
      for (const g of groups) {
        const m = ctx.disj.get(g);
        if (m === undefined) ctx.disj.set(g, c);
        else if (m !== c) q.push(CONCEPT, x, NOTHING, 0);
      }
    }
    const top = ix.topExistByFiller[c];
    if (top !== undefined && ctx.individual) this.holdsEverywhere(top);
  }

  /** Decomposition of a positively occurring concept. */
  private decompose(ctx: Context, c: number): void {
    const ix = this.ix;
    const q = this.queue;
    const x = ctx.root;
    switch (ix.kind[c]) {
      case Kind.Conj:
        q.push(CONCEPT, x, ix.left[c], 0, CONCEPT, x, ix.right[c], 0);
        return;
      case Kind.Exist: {
        const root = this.fillerRoot(c);
        this.context(root);
        q.push(LINK, root, x, ix.left[c]);
        return;
      }
      case Kind.Compl:
        if (ctx.subs.has(ix.left[c])) q.push(CONCEPT, x, NOTHING, 0);
        return;
      case Kind.Self: {
        const r = ix.left[c];
        q.push(LINK, x, x, r);
        for (const s of ix.superRoles[r]) {
          const selfs = ix.negSelfByRole[s];
          if (selfs !== undefined) for (const e of selfs) q.push(CONCEPT, x, e, 0);
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

  /** The link `source -r-> ctx`. */
  private addLink(ctx: Context, source: number, r: number): void {
    const ix = this.ix;
    const q = this.queue;
    let sources = ctx.back.get(r);
    if (sources === undefined) ctx.back.set(r, (sources = new Set()));
    else if (sources.has(source)) return;
    sources.add(source);
    if (ctx.bottom || ix.bottomRole[r]) {
      q.push(CONCEPT, source, NOTHING, 0);
      return;
    }
    if (ctx.negFillers !== null) {
      const sups = ix.superRoleSet[r];
      for (const f of ctx.negFillers) {
        for (const e of ix.negExistByFiller[f]) if (sups.has(ix.left[e])) q.push(CONCEPT, source, e, 0);
      }
    }
    // r as the first role of a chain: source -r-> ctx -r2-> z  gives  source -s-> z
    const byFirst = ix.comp.get(r);
    if (byFirst !== undefined && ctx.fwd !== null) {
      for (const [r2, sups] of byFirst) {
        const targets = ctx.fwd.get(r2);
        if (targets !== undefined) for (const z of targets) for (const s of sups) q.push(LINK, z, source, s);
      }
    }
    // r as the second role: w -r1-> source -r-> ctx  gives  w -s-> ctx
    const firsts = ix.firstRoles[r];
    if (firsts !== undefined) {
      const src = this.contexts[source]!;
      src.fwd ??= new Map();
      const targets = src.fwd.get(r);
      if (targets === undefined) src.fwd.set(r, [ctx.root]);
      else targets.push(ctx.root);
      for (const r1 of firsts) {
        const ws = src.back.get(r1);
        if (ws === undefined) continue;
        const sups = ix.comp.get(r1)!.get(r)!;
        for (const w of ws) for (const s of sups) q.push(LINK, ctx.root, w, s);
      }
    }
  }

  /** ∃top.C holds in every context once some individual is a C. */
  private holdsEverywhere(e: number): void {
    if (this.globalTop.includes(e)) return;
    this.globalTop.push(e);
    for (const root of this.roots) this.queue.push(CONCEPT, root, e, 0);
  }
}
