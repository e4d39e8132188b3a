// The SHACL engine of one window thread: shacl-engine on its own validation thread, which keeps the data
// graph of the last call and reuses it while the model state is unchanged (a data graph with a key). A call
// that outlives `timeout_ms`, or whose caller goes away, terminates the thread; the next call starts a fresh one.

import { Worker } from 'node:worker_threads';
import type { Ontology } from '../model/ontology.js';
import type { Workspace } from '../model/workspace.js';
import type { FailureReason, ShaclResult, ShapesDocument, ValidationReply, ValidationRequest } from './protocol.js';

export class ShaclFailure extends Error {
  constructor(message: string, readonly reason: Exclude<FailureReason, 'data_missing'> | 'timeout' | 'cancelled') {
    super(message);
    this.name = 'ShaclFailure';
  }
}

/** The data graph: N-Triples documents, built only when the thread does not already hold them. */
export interface DataGraph {
  /** Names the model state the documents describe; null: a private snapshot that is never reused. */
  readonly key: string | null;
  readonly documents: () => string[];
}

export interface ValidateOptions {
  readonly shapes: readonly ShapesDocument[];
  readonly data: DataGraph;
  /** Preferred language of result messages. */
  readonly language: string;
  /** Bound of the whole call (building the data graph included). */
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

const closureIds = new WeakMap<Ontology, number>();
let nextClosureId = 0;

/** Names a workspace's model state: the revision and which ontologies form the closure (ids stable per object). */
export function closureKey(ws: Workspace, closure: readonly Ontology[]): string {
  const ids = closure.map((o) => {
    let id = closureIds.get(o);
    if (id === undefined) closureIds.set(o, (id = nextClosureId++));
    return id;
  });
  return `${ws.revision}:${ids.join(',')}`;
}

let nextPrivateKey = 0;

export class ShaclEngine {
  private worker: Worker | null = null;
  /** The data graph the current thread holds. */
  private heldKey: string | null = null;
  private readonly pending = new Map<number, (r: ValidationReply) => void>();
  private nextId = 0;
  /** Serializes calls: one thread, one validation at a time. */
  private queue: Promise<unknown> = Promise.resolve();

  validate(options: ValidateOptions): Promise<readonly ShaclResult[]> {
    const run = this.queue.then(() => this.validateNow(options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async validateNow(options: ValidateOptions): Promise<readonly ShaclResult[]> {
    const deadline = Date.now() + options.timeoutMs;
    const key = options.data.key ?? `private-${nextPrivateKey++}`;
    const request = { dataKey: key, shapes: options.shapes, language: options.language };
    let reply = await this.send(request, deadline, options.signal, key !== this.heldKey ? options.data.documents : null);
    if (!reply.ok && reply.reason === 'data_missing') reply = await this.send(request, deadline, options.signal, options.data.documents);
    if (reply.ok) return reply.results;
    throw new ShaclFailure(reply.message, reply.reason === 'data_missing' ? 'engine' : reply.reason);
  }

  private thread(): Worker {
    if (this.worker !== null) return this.worker;
    const w = new Worker(new URL('./validation-worker.js', import.meta.url));
    w.on('message', (reply: ValidationReply) => {
      const resolve = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      resolve?.(reply);
    });
    w.on('error', (e) => {
      if (this.worker === w) this.drop(`The SHACL thread failed: ${e.message}`);
    });
    w.on('exit', () => {
      if (this.worker === w) this.drop('The SHACL thread stopped');
    });
    // After the listeners: adding a 'message' listener refs the thread again, and an idle one must not keep the process alive.
    w.unref();
    this.worker = w;
    return w;
  }

  /** Forgets the thread and fails whatever it still owed. */
  private drop(message: string): void {
    this.worker = null;
    this.heldKey = null;
    for (const [id, resolve] of this.pending) resolve({ id, ok: false, reason: 'engine', message });
    this.pending.clear();
  }

  private stop(): void {
    const w = this.worker;
    this.drop('The SHACL validation was stopped');
    void w?.terminate();
  }

  private send(req: Omit<ValidationRequest, 'id' | 'documents'>, deadline: number, signal: AbortSignal, load: (() => string[]) | null): Promise<ValidationReply> {
    if (signal.aborted) return Promise.reject(new ShaclFailure('The request was cancelled', 'cancelled'));
    const documents = load === null ? undefined : load();
    const remaining = deadline - Date.now();
    if (remaining <= 0) return Promise.reject(new ShaclFailure('timeout_ms was exhausted while building the data graph', 'timeout'));
    const id = ++this.nextId;
    const w = this.thread();
    return new Promise<ValidationReply>((resolve, reject) => {
      const finish = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      // The call's own outcome wins over the failure `stop` reports to whatever the thread still owed.
      const timer = setTimeout(() => {
        finish();
        this.pending.delete(id);
        this.stop();
        reject(new ShaclFailure('The SHACL validation did not finish within timeout_ms (data graph + validation)', 'timeout'));
      }, remaining);
      const onAbort = (): void => {
        finish();
        this.pending.delete(id);
        this.stop();
        reject(new ShaclFailure('The request was cancelled', 'cancelled'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, (r) => {
        finish();
        // The thread keeps a data graph it parsed even when the shapes were refused.
        if (documents !== undefined && (r.ok || r.reason === 'shapes')) this.heldKey = req.dataKey;
        resolve(r);
      });
      w.postMessage({ ...req, id, documents } satisfies ValidationRequest);
    });
  }
}

let engine: ShaclEngine | null = null;

/** The engine of this thread (a window actor): its calls are serialized on one validation thread. */
export function shaclEngine(): ShaclEngine {
  return (engine ??= new ShaclEngine());
}
