// The reasoning thread (a piscina worker): decodes a snapshot's axioms (transfer.ts), classifies them with
// the requested reasoner (engines.ts; Konclude runs as a child process while this thread waits) and returns
// plain data (IRIs and node indexes), never model objects. The last snapshot is kept, so repeated queries
// at one revision decode it once and a window's next revision can arrive as the axioms added and removed
// since (decoding interns axioms, so equal axioms are the same objects); so is the EL reasoner of the last
// workspace classified here, brought up to each revision by those changes.

import type { Axiom, IRI } from '../model/terms.js';
import { namedIndividual } from '../model/terms.js';
import { decodeAxioms, encodeAxioms, type EncodedAxioms } from '../model/transfer.js';
import { signature } from '../model/walk.js';
import { OWL_NOTHING } from '../model/vocab.js';
import { classify, ElReasoner, type ElResult } from './el-reasoner.js';
import { answer, type EngineAnswer, type EngineId } from './engines.js';
import { KoncludeFailure, type KoncludeConfig } from './konclude.js';
import { ReasonerCancelled, ReasonerTimeout, type CancelFlag } from './saturation.js';
import type { TaxonomyNode } from './taxonomy.js';
import type { Shipment } from './snapshot.js';
import type { ReasonerId } from './registry.js';

interface TaskBase {
  /** Identifies the snapshot (`workspace@revision`): the thread keeps the last one it held under this key. */
  readonly key: string;
  readonly model: Shipment;
  readonly reasoner: ReasonerId;
  readonly timeLimitMs: number;
  /** Raised by the window when the run is cancelled or its time bound passes (shared memory). */
  readonly cancel: CancelFlag;
  /** How to run Konclude (null: not installed). */
  readonly konclude: KoncludeConfig | null;
}

export interface ClassifyTask extends TaskBase {
  readonly type: 'classify';
}
export interface QueryTask extends TaskBase {
  readonly type: 'dl-query';
  readonly queryIri: IRI;
  /** `EquivalentClasses(<queryIri> expr)`. */
  readonly queryAxiom: EncodedAxioms;
}
export type PoolTask = ClassifyTask | QueryTask;

export interface UnsupportedData {
  readonly count: number;
  /** The first of them (transfer.ts encoding). */
  readonly sample: EncodedAxioms;
}

/**
 * A classification, flat so that the copy back to the window is cheap: strings joined by '\n' (IRIs hold no
 * whitespace) and integer lists with per-item counts.
 */
export interface ClassificationData {
  readonly timedOut: false;
  /** The engine that answered (for `auto`, the one it chose). */
  readonly engine: EngineId;
  /** Why the answer is incomplete when `auto` had no complete engine. */
  readonly note?: string;
  readonly consistent: boolean;
  readonly unsatisfiable: readonly IRI[];
  /** Taxonomy nodes (top first, bottom last): their members, node after node. */
  readonly members: string;
  readonly memberCounts: Int32Array;
  /** Direct parents of each node, as node indexes. */
  readonly parents: Int32Array;
  readonly parentCounts: Int32Array;
  /** Named individuals, sorted. */
  readonly individuals: string;
  /** Node indexes of each individual's direct types. */
  readonly directTypes: Int32Array;
  readonly directTypeCounts: Int32Array;
  readonly unsupported: UnsupportedData;
  readonly complete: boolean;
  readonly load: LoadReport;
  readonly elapsedMs: number;
}

export interface QueryData {
  readonly timedOut: false;
  /** The engine that answered (for `auto`, the one it chose). */
  readonly engine: EngineId;
  /** Why the answer is incomplete when `auto` had no complete engine. */
  readonly note?: string;
  readonly consistent: boolean;
  /** The query axiom itself was outside the reasoner's constructs. */
  readonly queryUnsupported: boolean;
  readonly equivalent: readonly IRI[];
  readonly superDirect: readonly IRI[];
  readonly superAll: readonly IRI[];
  readonly subDirect: readonly IRI[];
  readonly subAll: readonly IRI[];
  readonly instancesDirect: readonly IRI[];
  readonly instancesAll: readonly IRI[];
  readonly unsupported: UnsupportedData;
  readonly complete: boolean;
  readonly elapsedMs: number;
}

/** The run stopped early: by its own time limit or because the window raised the cancellation flag. */
export interface TimedOut {
  readonly timedOut: true;
  readonly elapsedMs: number;
}

/** A change shipment named a base snapshot this thread does not hold: send every axiom. */
export interface Stale {
  readonly timedOut: false;
  readonly stale: true;
}

/** How this thread came by a task's axioms, and how often it has decoded a whole snapshot. */
export interface LoadReport {
  readonly how: 'kept' | 'full' | 'delta';
  /** Axioms decoded for this task. */
  readonly decoded: number;
  /** Whole snapshots decoded by this thread so far. */
  readonly fullLoads: number;
}

/** The snapshot this thread holds. */
class Held {
  readonly axioms = new Set<Axiom>();
  /** Occurrences of each named individual in the axioms' signatures. */
  private readonly individualUses = new Map<IRI, number>();
  private sortedIndividuals: IRI[] | null = null;
  private list: Axiom[] | null = null;

  constructor(public key: string) {}

  get workspace(): string {
    return workspaceOf(this.key);
  }

  add(added: readonly Axiom[]): void {
    for (const a of added) {
      if (this.axioms.has(a)) continue;
      this.axioms.add(a);
      this.count(a, 1);
    }
  }

  remove(removed: readonly Axiom[]): void {
    for (const a of removed) if (this.axioms.delete(a)) this.count(a, -1);
  }

  private count(a: Axiom, by: 1 | -1): void {
    this.list = null;
    for (const e of signature(a)) {
      if (e.kind !== 'NamedIndividual') continue;
      const n = (this.individualUses.get(e.iri) ?? 0) + by;
      if (n === 0) this.individualUses.delete(e.iri);
      else this.individualUses.set(e.iri, n);
      this.sortedIndividuals = null;
    }
  }

  /** The axioms as a list (engines other than the kept EL reasoner read one). */
  get axiomList(): readonly Axiom[] {
    return (this.list ??= [...this.axioms]);
  }

  /** Named individuals, sorted. */
  get individuals(): readonly IRI[] {
    return (this.sortedIndividuals ??= [...this.individualUses.keys()].sort());
  }
}

const workspaceOf = (key: string) => key.slice(0, key.lastIndexOf('@'));

let held: Held | null = null;
let fullLoads = 0;

/**
 * Brings the held snapshot to the task's, by decoding every axiom or applying a change shipment; the kept
 * EL reasoner of the same workspace follows by the same changes. Null: a change shipment for a base not held.
 */
function load(task: TaskBase): { held: Held; report: LoadReport } | null {
  const m = task.model;
  if (held !== null && held.key === task.key) return { held, report: { how: 'kept', decoded: 0, fullLoads } };
  if (m.kind === 'delta') {
    if (held === null || held.key !== m.base) return null;
    const added = decodeAxioms(m.added);
    const removed = decodeAxioms(m.removed);
    held.key = task.key;
    held.remove(removed);
    held.add(added);
    kept?.change(added, removed);
    return { held, report: { how: 'delta', decoded: added.length + removed.length, fullLoads } };
  }
  const axioms = decodeAxioms(m.axioms);
  fullLoads++;
  const before = held;
  const now = new Held(task.key);
  now.add(axioms);
  held = now;
  if (kept !== null && before !== null && kept.workspace === now.workspace) {
    kept.change(
      axioms.filter((a) => !before.axioms.has(a)),
      [...before.axioms].filter((a) => !now.axioms.has(a)),
    );
  } else kept = null;
  return { held, report: { how: 'full', decoded: axioms.length, fullLoads } };
}

function reason(task: TaskBase, axioms: readonly Axiom[], el?: () => ElResult): Promise<EngineAnswer> {
  const options = { timeLimitMs: task.timeLimitMs, cancel: task.cancel };
  return answer(task.reasoner, axioms, task.konclude, options, el ?? (() => classify(axioms, options)));
}

const provenance = (a: EngineAnswer) => ({ engine: a.engine, ...(a.note !== undefined ? { note: a.note } : {}) });

function unsupportedData(r: ElResult): UnsupportedData {
  return { count: r.unsupported.count, sample: encodeAxioms(r.unsupported.sample) };
}

function classificationData(p: Held, load: LoadReport, a: EngineAnswer, started: number): ClassificationData {
  const r = a.result;
  const nodes = r.taxonomy.nodes;
  const index = new Map<TaxonomyNode, number>(nodes.map((n, i) => [n, i]));
  const members: IRI[] = [];
  const memberCounts = new Int32Array(nodes.length);
  const parents: number[] = [];
  const parentCounts = new Int32Array(nodes.length);
  for (const [i, n] of nodes.entries()) {
    for (const m of n.members) members.push(m);
    memberCounts[i] = n.members.length;
    for (const x of n.parents) parents.push(index.get(x)!);
    parentCounts[i] = n.parents.length;
  }
  const types: number[] = [];
  const typeCounts = new Int32Array(p.individuals.length);
  for (const [i, individual] of p.individuals.entries()) {
    const direct = r.types(namedIndividual(individual), true);
    for (const n of direct) types.push(index.get(n)!);
    typeCounts[i] = direct.length;
  }
  return {
    timedOut: false,
    ...provenance(a),
    consistent: r.consistent,
    unsatisfiable: r.unsatisfiable,
    members: members.join('\n'),
    memberCounts,
    parents: Int32Array.from(parents),
    parentCounts,
    individuals: p.individuals.join('\n'),
    directTypes: Int32Array.from(types),
    directTypeCounts: typeCounts,
    unsupported: unsupportedData(r),
    complete: r.complete,
    load,
    elapsedMs: Date.now() - started,
  };
}

/** Nodes reachable from `start` along `next` (start excluded). */
function reachable(start: TaxonomyNode, next: (n: TaxonomyNode) => readonly TaxonomyNode[]): TaxonomyNode[] {
  const seen = new Set<TaxonomyNode>([start]);
  const out: TaxonomyNode[] = [];
  const visit = (n: TaxonomyNode) => {
    for (const m of next(n)) {
      if (seen.has(m)) continue;
      seen.add(m);
      out.push(m);
    }
  };
  visit(start);
  // the loop also visits the nodes found meanwhile
  for (const n of out) visit(n);
  return out;
}

function members(nodes: readonly TaxonomyNode[], skip: IRI, nothing: boolean): IRI[] {
  const out: IRI[] = [];
  for (const n of nodes) for (const m of n.members) if (m !== skip && (nothing || m !== OWL_NOTHING)) out.push(m);
  return out.sort();
}

async function queryData(p: Held, task: QueryTask, started: number): Promise<QueryData> {
  const [q] = decodeAxioms(task.queryAxiom);
  if (q === undefined) throw new Error('the query task carries no query axiom');
  // the query axiom goes first, so when unsupported it is at the head of the bounded sample
  const a = await reason(task, [q, ...p.axiomList]);
  const r = a.result;
  const node = r.taxonomy.nodeOf(task.queryIri)!;
  // an individual is an instance of Q exactly when one of its direct types is Q or below it
  const below = new Set([node, ...reachable(node, (n) => n.children)]);
  const inDirect: IRI[] = [];
  const inAll: IRI[] = [];
  for (const iri of p.individuals) {
    const types = r.types(namedIndividual(iri), true);
    if (types.includes(node)) inDirect.push(iri);
    if (types.some((t) => below.has(t))) inAll.push(iri);
  }
  return {
    timedOut: false,
    ...provenance(a),
    consistent: r.consistent,
    queryUnsupported: r.unsupported.sample.includes(q),
    equivalent: members([node], task.queryIri, true),
    superDirect: members(node.parents, task.queryIri, true),
    superAll: members(
      reachable(node, (n) => n.parents),
      task.queryIri,
      true,
    ),
    subDirect: members(node.children, task.queryIri, false),
    subAll: members(
      reachable(node, (n) => n.children),
      task.queryIri,
      false,
    ),
    instancesDirect: inDirect,
    instancesAll: inAll,
    unsupported: unsupportedData(r),
    complete: r.complete,
    elapsedMs: Date.now() - started,
  };
}

/** The EL reasoner of the held snapshot's workspace, holding exactly the held axioms. */
class Kept {
  readonly reasoner = new ElReasoner();
  constructor(readonly workspace: string) {}

  change(added: readonly Axiom[], removed: readonly Axiom[]): void {
    this.reasoner.remove(removed);
    this.reasoner.add(added);
  }
}
let kept: Kept | null = null;

/** A classification by the EL reasoner kept for the held snapshot's workspace. */
function classifyKept(task: ClassifyTask, p: Held): ElResult {
  if (kept === null) {
    kept = new Kept(p.workspace);
    kept.reasoner.add(p.axiomList);
  }
  // a stopped run leaves the reasoner consistent: the next task continues it
  return kept.reasoner.classify({ timeLimitMs: task.timeLimitMs, cancel: task.cancel });
}

export default async function run(task: PoolTask): Promise<ClassificationData | QueryData | TimedOut | Stale> {
  const started = Date.now();
  try {
    const loaded = load(task);
    if (loaded === null) return { timedOut: false, stale: true };
    const { held: p, report } = loaded;
    if (task.type === 'dl-query') return await queryData(p, task, started);
    return classificationData(p, report, await reason(task, p.axiomList, () => classifyKept(task, p)), started);
  } catch (err) {
    if (err instanceof ReasonerTimeout || err instanceof ReasonerCancelled) return { timedOut: true, elapsedMs: Date.now() - started };
    // a plain error crosses the thread boundary with its message
    if (err instanceof KoncludeFailure) throw new Error(err.message);
    throw err;
  }
}
