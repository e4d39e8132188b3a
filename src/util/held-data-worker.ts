// A worker thread that keeps one data set (an RDF snapshot, a data graph) between calls, named by a key:
// a call sends the documents only when the thread does not already hold its key. Calls run one at a time.
// A call that outlives its deadline, or whose caller goes away, terminates the thread (the next call starts
// a fresh one), and fails at once; whatever else the thread owed fails as `lost`.

import { Worker } from 'node:worker_threads';

export interface HeldDataReply {
  readonly id: number;
  readonly ok: boolean;
  readonly reason?: string;
}

export interface HeldDataWorkerOptions<R extends HeldDataReply> {
  readonly url: URL;
  /** What the thread does, for messages: "SPARQL evaluation", "SHACL validation". */
  readonly work: string;
  /** The reply a call gets when the thread fails or stops before answering it. */
  readonly lost: (id: number, message: string) => R;
  /** The reply reason meaning "I do not hold that key": the call is sent again with its documents. */
  readonly missing: string;
  /** The caller's failure for an expired deadline or a cancelled call. */
  readonly failure: (message: string, kind: 'timeout' | 'cancelled') => Error;
}

export interface HeldDataCall<R extends HeldDataReply> {
  /** Names the data the call needs. */
  readonly key: string;
  /** Builds the documents of `key` (only when the thread lacks them); null: the call needs no data. */
  readonly documents: (() => string[]) | null;
  /** Whether the thread keeps documents it was sent, given its reply. */
  readonly keeps: (reply: R) => boolean;
  /** Absolute time (ms since the epoch) by which the call must be answered, building the documents included. */
  readonly deadline: number;
  readonly signal: AbortSignal;
}

export class HeldDataWorker<Q extends object, R extends HeldDataReply> {
  private worker: Worker | null = null;
  private heldKey: string | null = null;
  private readonly pending = new Map<number, (reply: R) => void>();
  private nextId = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: HeldDataWorkerOptions<R>) {}

  /** Runs `f` after every call queued before it. */
  serialized<T>(f: () => Promise<T>): Promise<T> {
    const run = this.queue.then(f);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Sends `request` (with the documents when the thread lacks the key, or says it lost them). */
  async request(request: Q, call: HeldDataCall<R>): Promise<R> {
    const reply = await this.send(request, call, call.documents !== null && call.key !== this.heldKey);
    if (reply.ok || reply.reason !== this.options.missing || call.documents === null) return reply;
    return this.send(request, call, true);
  }

  private thread(): Worker {
    if (this.worker !== null) return this.worker;
    const w = new Worker(this.options.url);
    w.on('message', (reply: R) => {
      const resolve = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      resolve?.(reply);
    });
    w.on('error', (e) => {
      if (this.worker === w) this.drop(`The ${this.options.work} thread failed: ${e.message}`);
    });
    w.on('exit', () => {
      if (this.worker === w) this.drop(`The ${this.options.work} thread stopped`);
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
    for (const [id, resolve] of this.pending) resolve(this.options.lost(id, message));
    this.pending.clear();
  }

  private stop(): void {
    const w = this.worker;
    this.drop(`The ${this.options.work} was stopped`);
    void w?.terminate();
  }

  private send(request: Q, call: HeldDataCall<R>, withDocuments: boolean): Promise<R> {
    const { failure } = this.options;
    if (call.signal.aborted) return Promise.reject(failure('The request was cancelled', 'cancelled'));
    const documents = withDocuments ? call.documents!() : undefined;
    const remaining = call.deadline - Date.now();
    if (remaining <= 0) return Promise.reject(failure(`timeout_ms was exhausted while building the data for the ${this.options.work}`, 'timeout'));
    const id = ++this.nextId;
    const w = this.thread();
    return new Promise<R>((resolve, reject) => {
      const finish = (): void => {
        clearTimeout(timer);
        call.signal.removeEventListener('abort', onAbort);
      };
      // The call's own outcome wins over the failure `stop` reports to whatever the thread still owed.
      const abandon = (error: Error): void => {
        finish();
        this.pending.delete(id);
        this.stop();
        reject(error);
      };
      const timer = setTimeout(() => abandon(failure(`The ${this.options.work} did not finish within timeout_ms (data + work)`, 'timeout')), remaining);
      const onAbort = (): void => abandon(failure('The request was cancelled', 'cancelled'));
      call.signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, (reply) => {
        finish();
        if (documents !== undefined && call.keeps(reply)) this.heldKey = call.key;
        resolve(reply);
      });
      w.postMessage({ ...request, id, documents });
    });
  }
}
