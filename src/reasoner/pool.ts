// Reasoning off the window actor: a small piscina pool runs DL queries and one-off classifications over
// snapshots (snapshot.ts), and each workspace has a ReasoningSession holding its reasoner selection, its
// current run and its last result, tagged with the revision it was computed from, so an old result is never
// reported as current. The session classifies on a reasoner thread of its own, which keeps the last snapshot
// it was sent: the next revision travels as the axioms added and removed since. Every run has a time bound
// and can be cancelled (the pool then terminates the thread).

import type { IRI, Axiom } from '../model/terms.js';
import { OWL_NOTHING } from '../model/vocab.js';
import type { Workspace } from '../model/workspace.js';
import { encodeAxioms } from '../model/transfer.js';
import type { ClassificationData, ClassifyTask, PoolTask, QueryData, QueryTask, Stale, TimedOut } from './pool-worker.js';
import { shipAll, takeSnapshot, type Shipment, type Snapshot } from './snapshot.js';
import { koncludeConfig, reasonerById, type ReasonerInfo } from './registry.js';
import { TaskPool } from '../util/task-pool.js';
import { unreachable } from '../util/unreachable.js';

type Pool = TaskPool<PoolTask, ClassificationData | QueryData | TimedOut | Stale>;
const WORKER = new URL('./pool-worker.js', import.meta.url);

/** How long a stopped task may take to notice its cancellation flag before its thread is terminated. */
const GRACE_MS = 2_000;

// idle threads end soon: every window actor has its own pool
const shared: Pool = new TaskPool({ worker: WORKER, threads: 2, idleMs: 5_000, graceMs: GRACE_MS });

/**
 * How long a session's reasoner thread, and the snapshot it holds, outlives its last run: long enough for
 * an agent's edit-and-reclassify loop; after that the next run ships the whole snapshot again.
 */
const SESSION_IDLE_MS = 10 * 60_000;

export type PoolOutcome<T> =
  | { readonly kind: 'done'; readonly value: T }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'error'; readonly message: string };

type TaskInput = Omit<ClassifyTask, 'cancel' | 'konclude'> | Omit<QueryTask, 'cancel' | 'konclude'>;

/** The thread held another snapshot than a change shipment's base. */
interface StaleOutcome {
  readonly kind: 'stale';
}

/**
 * Runs one task on the window's shared reasoning pool, bounded by `timeoutMs` and by `cancel`. Either way
 * the answer comes at once: the task's cancellation flag is raised, so its saturation stops within a few
 * thousand rule applications and the thread is free again; a task still running after GRACE_MS (say,
 * parsing) has its thread terminated.
 */
export async function runTask<T extends ClassificationData | QueryData>(
  task: TaskInput,
  timeoutMs: number,
  cancel: AbortSignal,
): Promise<PoolOutcome<T>> {
  const out = await runOn<T>(shared, task, timeoutMs, cancel);
  // only change shipments meet a thread holding another snapshot, and the shared pool is sent whole ones
  return out.kind === 'stale' ? { kind: 'error', message: 'the reasoning thread did not hold the base snapshot' } : out;
}

async function runOn<T extends ClassificationData | QueryData>(
  on: Pool,
  task: TaskInput,
  timeoutMs: number,
  cancel: AbortSignal,
): Promise<PoolOutcome<T> | StaleOutcome> {
  const out = await on.run((stop) => ({ ...task, cancel: stop, konclude: koncludeConfig() }) as PoolTask, { timeoutMs, signal: cancel });
  switch (out.kind) {
    case 'done':
      // the thread saw its flag (or its own time limit) first
      if (out.value.timedOut) return cancel.aborted ? { kind: 'cancelled' } : { kind: 'timeout' };
      if ('stale' in out.value) return { kind: 'stale' };
      return { kind: 'done', value: out.value as T };
    case 'error':
      return { kind: 'error', message: out.message };
    case 'timeout':
    case 'cancelled':
      return out;
    default:
      return unreachable(out);
  }
}

const snapshotKey = (s: Snapshot) => s.workspaceId + '@' + s.revision;

/** The axioms added and removed from `base` to `snap`, as a change shipment. */
function changeSince(base: Snapshot, snap: Snapshot): Shipment {
  const added: Axiom[] = snap.axioms.filter((a) => !base.members.has(a));
  const removed: Axiom[] = base.axioms.filter((a) => !snap.members.has(a));
  return { kind: 'delta', base: snapshotKey(base), added: encodeAxioms(added), removed: encodeAxioms(removed) };
}

/** Splits a flat list by per-item counts. */
function groups<T>(flat: ArrayLike<T>, counts: Int32Array): T[][] {
  const out: T[][] = new Array(counts.length);
  let at = 0;
  for (const [i, count] of counts.entries()) {
    out[i] = Array.from({ length: count }, () => flat[at++]!); // the counts add up to flat's length
  }
  return out;
}

const lines = (s: string): string[] => (s === '' ? [] : s.split('\n'));

/**
 * A node's (or an individual's) entry in a table of a classification: node indexes come from the
 * classification's own tables (nodeOf, parents, children, direct types), each of which has an entry per node.
 */
function at<T>(table: readonly T[], i: number): T {
  const entry = table[i];
  if (entry === undefined) throw new Error(`classification: no entry ${i}`);
  return entry;
}

/** A finished classification as the window reads it: taxonomy navigation over IRIs. */
export class Classification {
  private readonly members: readonly (readonly IRI[])[];
  private readonly parents: readonly (readonly number[])[];
  private readonly children: number[][];
  private readonly individuals: readonly IRI[];
  private readonly directTypes: readonly (readonly number[])[];
  private readonly directInstances: number[][];
  private readonly nodeOf = new Map<IRI, number>();
  private readonly individualOf = new Map<IRI, number>();

  constructor(
    readonly data: ClassificationData,
    readonly revision: number,
    readonly reasoner: ReasonerInfo,
    readonly ruleCount: number,
  ) {
    this.members = groups(lines(data.members), data.memberCounts);
    this.parents = groups(data.parents, data.parentCounts);
    this.individuals = lines(data.individuals);
    this.directTypes = groups(data.directTypes, data.directTypeCounts);
    this.children = this.members.map(() => []);
    this.directInstances = this.members.map(() => []);
    for (const [i, members] of this.members.entries()) {
      for (const m of members) this.nodeOf.set(m, i);
      for (const p of at(this.parents, i)) at(this.children, p).push(i);
    }
    for (const [i, individual] of this.individuals.entries()) {
      this.individualOf.set(individual, i);
      for (const t of at(this.directTypes, i)) at(this.directInstances, t).push(i);
    }
  }

  get consistent(): boolean {
    return this.data.consistent;
  }

  /** The reasoner that gave the answer: the selected one, or the engine `auto` chose. */
  get answeredBy(): ReasonerInfo {
    return reasonerById(this.data.engine) ?? this.reasoner;
  }

  hasClass(iri: IRI): boolean {
    return this.nodeOf.has(iri);
  }

  hasIndividual(iri: IRI): boolean {
    return this.individualOf.has(iri);
  }

  /** Named classes equivalent to `cls` (itself excluded). */
  equivalents(cls: IRI): IRI[] {
    const n = this.nodeOf.get(cls);
    return n === undefined ? [] : at(this.members, n).filter((m) => m !== cls);
  }

  superclasses(cls: IRI, direct: boolean): IRI[] {
    const n = this.nodeOf.get(cls);
    if (n === undefined) return [];
    const start = at(this.parents, n);
    return this.membersOf(direct ? start : this.closure(start, (i) => at(this.parents, i)), null);
  }

  /** Subclasses, owl:Nothing and unsatisfiable classes left out. */
  subclasses(cls: IRI, direct: boolean): IRI[] {
    const n = this.nodeOf.get(cls);
    if (n === undefined) return [];
    const start = at(this.children, n);
    return this.membersOf(direct ? start : this.closure(start, (i) => at(this.children, i)), this.members.length - 1);
  }

  types(individual: IRI, direct: boolean): IRI[] {
    const i = this.individualOf.get(individual);
    if (i === undefined) return [];
    const start = at(this.directTypes, i);
    return this.membersOf(direct ? start : this.closure(start, (k) => at(this.parents, k)), null);
  }

  instances(cls: IRI, direct: boolean): IRI[] {
    const n = this.nodeOf.get(cls);
    if (n === undefined) return [];
    const nodes = direct ? [n] : this.closure([n], (i) => at(this.children, i));
    const out = new Set<IRI>();
    for (const k of nodes) for (const i of at(this.directInstances, k)) out.add(at(this.individuals, i));
    return [...out].sort();
  }

  /** Node indexes reachable from `start` along `next`, `start` included. */
  private closure(start: readonly number[], next: (i: number) => readonly number[]): number[] {
    const seen = new Set<number>();
    const out: number[] = [];
    const queue = [...start];
    while (queue.length > 0) {
      const i = queue.pop()!;
      if (seen.has(i)) continue;
      seen.add(i);
      out.push(i);
      for (const j of next(i)) queue.push(j);
    }
    return out;
  }

  private membersOf(nodes: readonly number[], skipNode: number | null): IRI[] {
    const out: IRI[] = [];
    for (const i of nodes) if (i !== skipNode) for (const m of at(this.members, i)) if (m !== OWL_NOTHING) out.push(m);
    return out;
  }
}

/** TOOLS.md 1.10's status vocabulary, less `no_reasoner`: a window always has a reasoner selected. */
export const REASONER_STATUSES = ['not_initialized', 'classifying', 'classified', 'out_of_sync', 'inconsistent', 'error'] as const;
export type ReasonerStatus = (typeof REASONER_STATUSES)[number];

export type RunOutcome =
  | { readonly started: false }
  | { readonly started: true; readonly completed: true; readonly classification: Classification; readonly cached: boolean }
  | { readonly started: true; readonly completed: false; readonly reason: 'timeout' | 'cancelled' | 'error'; readonly message: string };

interface Run {
  readonly revision: number;
  readonly reasoner: ReasonerInfo;
  readonly controller: AbortController;
  readonly done: Promise<RunOutcome>;
}

export type QueryOutcome = PoolOutcome<QueryData>;

/** One workspace's reasoner selection, running classification and last result. */
export class ReasoningSession {
  // `auto` until set_reasoner picks another (EL within the EL profile, else Konclude when installed); there
  // is always a selection (set_reasoner names an installed reasoner), so no tool meets "no reasoner"
  private chosen: ReasonerInfo = reasonerById('auto');
  private last: Classification | null = null;
  private running: Run | null = null;
  private failed: { revision: number; reasoner: ReasonerInfo; message: string } | null = null;
  /** DL query answers at `queryRevision`, by query axiom and reasoner. */
  private readonly queries = new Map<Axiom, Map<string, QueryData>>();
  private queryRevision = -1;
  /** The session's reasoner thread, and the snapshot it held after its last finished run. */
  private readonly thread: Pool = new TaskPool({ worker: WORKER, idleMs: SESSION_IDLE_MS, graceMs: GRACE_MS });
  private shipped: Snapshot | null = null;
  /** The snapshot of the latest revision asked for, reused while the revision stands. */
  private latest: Snapshot | null = null;

  constructor(private readonly ws: Workspace) {}

  /** The reasoning input of the workspace's active imports closure at its current revision. */
  snapshot(): Snapshot {
    return (this.latest = takeSnapshot(this.ws, this.latest));
  }

  /** The window is closing: the running classification is cancelled and the session's reasoner thread ends. */
  async close(): Promise<void> {
    this.cancel();
    await this.running?.done;
    this.shipped = null;
    this.latest = null;
    await this.thread.close();
  }

  /** Whether the session holds a reasoner thread (started by a classification, ended by close or idleness). */
  get holdsThread(): boolean {
    return this.thread.threads > 0;
  }

  get selected(): ReasonerInfo {
    return this.chosen;
  }

  /** The last finished classification by the selected reasoner, whatever revision it was computed at. */
  get result(): Classification | null {
    return this.last !== null && this.last.reasoner === this.chosen ? this.last : null;
  }

  /** Selects a reasoner; a run by another one is cancelled. */
  select(r: ReasonerInfo): void {
    if (this.running !== null && this.running.reasoner !== r) this.cancel();
    this.chosen = r;
  }

  status(): ReasonerStatus {
    const r = this.chosen;
    if (this.running !== null && this.running.reasoner === r) return 'classifying';
    if (this.failed !== null && this.failed.reasoner === r && this.failed.revision === this.ws.revision) return 'error';
    const res = this.result;
    if (res === null) return 'not_initialized';
    if (res.revision !== this.ws.revision) return 'out_of_sync';
    return res.consistent ? 'classified' : 'inconsistent';
  }

  /** Why the selected reasoner failed at the current revision (status `error`), else null. */
  get failure(): string | null {
    const f = this.failed;
    return f !== null && f.reasoner === this.chosen && f.revision === this.ws.revision ? f.message : null;
  }

  /** Stops the running classification, if any. */
  cancel(): boolean {
    if (this.running === null) return false;
    this.running.controller.abort();
    return true;
  }

  /**
   * Classifies the current revision with the selected reasoner, waiting at most `timeoutMs` (the run is
   * cancelled then, as it is when `signal` aborts: the caller went away). A result for this revision is
   * reused; a run already under way for this revision and reasoner is not duplicated; one for an older
   * revision is superseded. `classifying` hears when the snapshot is taken and the reasoner starts on it.
   */
  async classify(timeoutMs: number, signal?: AbortSignal, classifying?: (axioms: number) => void): Promise<RunOutcome> {
    const reasoner = this.chosen;
    const revision = this.ws.revision;
    const known = this.result;
    if (known !== null && known.revision === revision) return { started: true, completed: true, classification: known, cached: true };
    if (this.running !== null) {
      if (this.running.revision === revision && this.running.reasoner === reasoner) return { started: false };
      this.cancel();
      await this.running?.done;
    }
    const snap = this.snapshot();
    classifying?.(snap.axiomCount);
    const controller = new AbortController();
    const cancel = signal === undefined ? controller.signal : AbortSignal.any([controller.signal, signal]);
    const done = this.classifyOnThread(snap, reasoner, timeoutMs, cancel).then((out) => this.finish(run, out, snap));
    const run: Run = { revision, reasoner, controller, done };
    this.running = run;
    return done;
  }

  /**
   * Classifies on the session's thread, sending only the change since the snapshot it holds when it holds one
   * (a thread that was terminated or idled out answers `stale`, and is sent the whole snapshot).
   */
  private async classifyOnThread(
    snap: Snapshot,
    reasoner: ReasonerInfo,
    timeoutMs: number,
    cancel: AbortSignal,
  ): Promise<PoolOutcome<ClassificationData>> {
    const task = (model: Shipment): TaskInput => ({
      type: 'classify',
      key: snapshotKey(snap),
      model,
      reasoner: reasoner.id,
      timeLimitMs: timeoutMs,
    });
    const base = this.shipped;
    this.shipped = null;
    let out = await runOn<ClassificationData>(
      this.thread,
      task(base === null ? shipAll(snap) : changeSince(base, snap)),
      timeoutMs,
      cancel,
    );
    if (out.kind === 'stale') out = await runOn<ClassificationData>(this.thread, task(shipAll(snap)), timeoutMs, cancel);
    if (out.kind === 'stale') return { kind: 'error', message: 'the reasoning thread did not take the snapshot' };
    if (out.kind === 'done') this.shipped = snap;
    return out;
  }

  private finish(run: Run, out: PoolOutcome<ClassificationData>, snap: Snapshot): RunOutcome {
    if (this.running === run) this.running = null;
    switch (out.kind) {
      case 'done': {
        const c = new Classification(out.value, run.revision, run.reasoner, snap.ruleCount);
        this.last = c;
        this.failed = null;
        return { started: true, completed: true, classification: c, cached: false };
      }
      case 'timeout':
        return {
          started: true,
          completed: false,
          reason: 'timeout',
          message: 'Classification did not finish within the time bound and was cancelled.',
        };
      case 'cancelled':
        return { started: true, completed: false, reason: 'cancelled', message: 'Classification was cancelled.' };
      case 'error':
        this.failed = { revision: run.revision, reasoner: run.reasoner, message: out.message };
        return { started: true, completed: false, reason: 'error', message: `The reasoner failed: ${out.message}` };
      default:
        return unreachable(out);
    }
  }

  /** Answers a DL query (its `EquivalentClasses(<q> expr)` axiom) over the current revision; cached per revision. */
  async query(
    queryIri: IRI,
    queryAxiom: Axiom,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ outcome: QueryOutcome; ruleCount: number; revision: number }> {
    const reasoner = this.chosen;
    const snap = this.snapshot();
    if (this.queryRevision !== snap.revision) {
      this.queries.clear();
      this.queryRevision = snap.revision;
    }
    // interned: an equal query is the same axiom
    const cached = this.queries.get(queryAxiom);
    const hit = cached?.get(reasoner.id);
    if (hit !== undefined) return { outcome: { kind: 'done', value: hit }, ruleCount: snap.ruleCount, revision: snap.revision };
    const task: TaskInput = {
      type: 'dl-query',
      key: snapshotKey(snap),
      model: shipAll(snap),
      reasoner: reasoner.id,
      timeLimitMs: timeoutMs,
      queryIri,
      queryAxiom: encodeAxioms([queryAxiom]),
    };
    const out = await runTask<QueryData>(task, timeoutMs, signal ?? new AbortController().signal);
    if (out.kind === 'done' && this.queryRevision === snap.revision) {
      const answers = cached ?? new Map<string, QueryData>();
      answers.set(reasoner.id, out.value);
      this.queries.set(queryAxiom, answers);
    }
    return { outcome: out, ruleCount: snap.ruleCount, revision: snap.revision };
  }
}
