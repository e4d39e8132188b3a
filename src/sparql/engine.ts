// The SPARQL engine of one window: a private snapshot of the active ontology's imports closure, loaded into
// an oxigraph Store on its own thread and reused until the model state changes. The snapshot key is the
// workspace revision (every edit, undo, load, reload and active switch moves it) plus the closure members'
// identity, so a query after any change sees the change. A call that outlives `timeout_ms` terminates the
// thread (oxigraph cannot interrupt an evaluation); the next call starts a fresh one.

import { Worker } from 'node:worker_threads';
import type { Workspace } from '../model/workspace.js';
import type { Ontology } from '../model/ontology.js';
import { writeNTriples } from '../model/formats/rdf-writers.js';
import type { EvaluationReply, EvaluationRequest, EvaluationResult } from './engine-protocol.js';

export class SparqlFailure extends Error {
  constructor(message: string, readonly reason: 'syntax' | 'evaluation' | 'timeout' | 'cancelled') {
    super(message);
    this.name = 'SparqlFailure';
  }
}

export interface EvaluateOptions {
  readonly form: EvaluationRequest['form'];
  readonly limit: number;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** Parse against an empty store only (no snapshot is built). */
  readonly parseOnly?: boolean;
  /** A further N-Triples document in the snapshot (materialized inferences), named by `key`. */
  readonly extra?: { readonly key: string; readonly document: string };
  /** Evaluate over these ontologies (a private QC snapshot's closure) instead of the live active closure. */
  readonly closure?: readonly Ontology[];
}

const closureIds = new WeakMap<Ontology, number>();
let nextClosureId = 0;

/** The closure members' ids, in order (stable per object). */
function closureKey(closure: readonly Ontology[]): string {
  return closure.map((o) => {
    let id = closureIds.get(o);
    if (id === undefined) closureIds.set(o, (id = nextClosureId++));
    return id;
  }).join(',');
}

/** Names a model state: the revision and which ontologies form the closure (ids stable per object). */
function snapshotKey(ws: Workspace, closure: readonly Ontology[]): string {
  return `${ws.revision}:${closureKey(closure)}`;
}

/** Names a private snapshot: its root is a private copy, so the objects alone identify it. */
function privateKey(closure: readonly Ontology[]): string {
  return `private:${closureKey(closure)}`;
}

interface Pending {
  resolve: (r: EvaluationReply) => void;
}

export class SparqlEngine {
  private worker: Worker | null = null;
  /** The snapshot the current thread holds. */
  private heldKey: string | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  /** Serializes calls: one thread, one evaluation at a time. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly workspace: Workspace) {}

  evaluate(query: string, options: EvaluateOptions): Promise<EvaluationResult> {
    const run = this.queue.then(() => this.evaluateNow(query, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async evaluateNow(query: string, options: EvaluateOptions): Promise<EvaluationResult> {
    const deadline = Date.now() + options.timeoutMs;
    const closure = options.parseOnly === true ? [] : options.closure ?? this.workspace.importsClosure(this.workspace.active);
    const extra = options.extra;
    const state = options.closure === undefined ? snapshotKey(this.workspace, closure) : privateKey(closure);
    const key = options.parseOnly === true ? 'empty' : state + (extra === undefined ? '' : `|${extra.key}`);
    const base = { snapshotKey: key, query, form: options.form, limit: options.limit, parseOnly: options.parseOnly };
    const documents = (): string[] => [...closure.map(writeNTriples), ...(extra === undefined ? [] : [extra.document])];
    let reply = await this.send({ ...base, id: 0 }, deadline, options.signal, key !== this.heldKey && options.parseOnly !== true ? documents : null);
    if (!reply.ok && reply.reason === 'snapshot_missing') reply = await this.send({ ...base, id: 0 }, deadline, options.signal, documents);
    if (reply.ok) return reply.result;
    throw new SparqlFailure(reply.message, reply.reason === 'syntax' ? 'syntax' : 'evaluation');
  }

  private thread(): Worker {
    if (this.worker !== null) return this.worker;
    const w = new Worker(new URL('./engine-worker.js', import.meta.url));
    w.on('message', (reply: EvaluationReply) => {
      const p = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      p?.resolve(reply);
    });
    w.on('error', (e) => {
      if (this.worker === w) this.drop(`The SPARQL thread failed: ${e.message}`);
    });
    w.on('exit', () => {
      if (this.worker === w) this.drop('The SPARQL thread stopped');
    });
    // After the listeners: attaching a 'message' listener refs the worker's port again.
    w.unref();
    this.worker = w;
    return w;
  }

  /** Forgets the thread and fails whatever it still owed. */
  private drop(message: string): void {
    this.worker = null;
    this.heldKey = null;
    for (const [id, p] of this.pending) p.resolve({ id, ok: false, reason: 'evaluation', message });
    this.pending.clear();
  }

  private stop(): void {
    const w = this.worker;
    this.drop('The SPARQL evaluation was stopped');
    void w?.terminate();
  }

  private send(req: EvaluationRequest, deadline: number, signal: AbortSignal, load: (() => string[]) | null): Promise<EvaluationReply> {
    if (signal.aborted) return Promise.reject(new SparqlFailure('The request was cancelled', 'cancelled'));
    const documents = load === null ? undefined : load();
    const remaining = deadline - Date.now();
    if (remaining <= 0) return Promise.reject(new SparqlFailure('timeout_ms was exhausted while building the snapshot', 'timeout'));
    const id = ++this.nextId;
    const w = this.thread();
    return new Promise<EvaluationReply>((resolve, reject) => {
      const finish = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      // The call's own outcome wins over the failure `stop` reports to whatever the thread still owed.
      const timer = setTimeout(() => {
        finish();
        this.pending.delete(id);
        this.stop();
        reject(new SparqlFailure(`The query did not finish within timeout_ms (snapshot + evaluation)`, 'timeout'));
      }, remaining);
      const onAbort = (): void => {
        finish();
        this.pending.delete(id);
        this.stop();
        reject(new SparqlFailure('The request was cancelled', 'cancelled'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (r) => {
          finish();
          if (documents !== undefined && (r.ok || r.reason === 'syntax')) this.heldKey = req.snapshotKey;
          resolve(r);
        },
      });
      w.postMessage({ ...req, id, documents });
    });
  }
}

const engines = new WeakMap<Workspace, SparqlEngine>();

/** The window's engine (one per workspace). */
export function sparqlEngine(ws: Workspace): SparqlEngine {
  let e = engines.get(ws);
  if (e === undefined) engines.set(ws, (e = new SparqlEngine(ws)));
  return e;
}
