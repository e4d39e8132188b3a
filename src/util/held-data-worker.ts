// A worker thread that keeps one data set (an RDF snapshot, a data graph) between calls, named by a key:
// a call sends the documents only when the thread does not already hold its key. Calls run one at a time,
// through comlink (the thread exposes `HeldDataApi`). A call that outlives its deadline, or whose caller
// goes away, terminates the thread (the next call starts a fresh one), and fails at once; whatever else the
// thread owed fails as `lost`.

import { Worker } from 'node:worker_threads';
import { ThreadLink, crossesThreads } from './thread-link.js';

/** Thrown by the thread when it does not hold the data a call names and was sent no documents. */
export class HeldDataMissing extends Error {
  constructor() {
    super('The thread does not hold the data the call names');
    this.name = 'HeldDataMissing';
  }
}

crossesThreads(HeldDataMissing);

/** What a held-data thread exposes: `run` answers a request, or throws the caller's typed failure. */
export interface HeldDataApi<Q, R> {
  run(request: Q & { readonly documents?: readonly string[] }): Promise<R>;
}

export interface HeldDataWorkerOptions {
  readonly url: URL;
  /** What the thread does, for messages: "SPARQL evaluation", "SHACL validation". */
  readonly work: string;
  /** The caller's failure for an expired deadline, a cancelled call, or a thread that failed or stopped first. */
  readonly failure: (message: string, kind: 'timeout' | 'cancelled' | 'lost') => Error;
}

export interface HeldDataCall {
  /** Names the data the call needs. */
  readonly key: string;
  /** Builds the documents of `key` (only when the thread lacks them); null: the call needs no data. */
  readonly documents: (() => string[]) | null;
  /** Whether the thread keeps documents it was sent when the call failed with `failure` (it does when it answered). */
  readonly keeps: (failure: unknown) => boolean;
  /** Absolute time (ms since the epoch) by which the call must be answered, building the documents included. */
  readonly deadline: number;
  readonly signal: AbortSignal;
}

export class HeldDataWorker<Q extends object, R> {
  private worker: { readonly thread: Worker; readonly link: ThreadLink<HeldDataApi<Q, R>> } | null = null;
  private heldKey: string | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: HeldDataWorkerOptions) {}

  /** Runs `f` after every call queued before it. */
  serialized<T>(f: () => Promise<T>): Promise<T> {
    const run = this.queue.then(f);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Sends `request` (with the documents when the thread lacks the key, or says it lost them). */
  async request(request: Q, call: HeldDataCall): Promise<R> {
    try {
      return await this.send(request, call, call.documents !== null && call.key !== this.heldKey);
    } catch (err) {
      if (!(err instanceof HeldDataMissing) || call.documents === null) throw err;
      return this.send(request, call, true);
    }
  }

  private link(): ThreadLink<HeldDataApi<Q, R>> {
    if (this.worker !== null) return this.worker.link;
    const thread = new Worker(this.options.url);
    const worker = { thread, link: new ThreadLink<HeldDataApi<Q, R>>(thread) };
    thread.on('error', (e) => {
      if (this.worker === worker) this.drop(`The ${this.options.work} thread failed: ${e.message}`);
    });
    thread.on('exit', () => {
      if (this.worker === worker) this.drop(`The ${this.options.work} thread stopped`);
    });
    // After the listeners: adding a 'message' listener refs the thread again, and an idle one must not keep the process alive.
    thread.unref();
    this.worker = worker;
    return worker.link;
  }

  /** Forgets the thread and fails whatever it still owed. */
  private drop(message: string): void {
    const link = this.worker?.link;
    this.worker = null;
    this.heldKey = null;
    link?.fail(this.options.failure(message, 'lost'));
  }

  /** Ends the thread (a call still waiting on it fails); the next request starts a fresh one. */
  async close(): Promise<void> {
    const thread = this.worker?.thread;
    this.drop(`The ${this.options.work} was stopped`);
    await thread?.terminate();
  }

  /** Whether a thread is running. */
  get running(): boolean {
    return this.worker !== null;
  }

  private send(request: Q, call: HeldDataCall, withDocuments: boolean): Promise<R> {
    const { failure } = this.options;
    if (call.signal.aborted) return Promise.reject(failure('The request was cancelled', 'cancelled'));
    const documents = withDocuments ? call.documents!() : undefined;
    const remaining = call.deadline - Date.now();
    if (remaining <= 0)
      return Promise.reject(failure(`timeout_ms was exhausted while building the data for the ${this.options.work}`, 'timeout'));
    const link = this.link();
    return new Promise<R>((resolve, reject) => {
      const finish = (): void => {
        clearTimeout(timer);
        call.signal.removeEventListener('abort', onAbort);
      };
      // The call's own outcome wins over the failure `stop` reports to whatever the thread still owed.
      const abandon = (error: Error): void => {
        finish();
        reject(error);
        void this.close();
      };
      const timer = setTimeout(
        () => abandon(failure(`The ${this.options.work} did not finish within timeout_ms (data + work)`, 'timeout')),
        remaining,
      );
      const onAbort = (): void => abandon(failure('The request was cancelled', 'cancelled'));
      call.signal.addEventListener('abort', onAbort, { once: true });
      link.call('run', { ...request, ...(documents === undefined ? {} : { documents }) }).then(
        (result) => {
          finish();
          if (documents !== undefined) this.heldKey = call.key;
          resolve(result);
        },
        (err: unknown) => {
          finish();
          if (documents !== undefined && this.worker?.link === link && call.keeps(err)) this.heldKey = call.key;
          reject(err);
        },
      );
    });
  }
}
