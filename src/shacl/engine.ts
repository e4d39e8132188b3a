// The SHACL engine of one window thread: shacl-engine on its own validation thread, which keeps the data
// graph of the last call and reuses it while the model state is unchanged (a data graph with a key). A call
// that outlives `timeout_ms`, or whose caller goes away, terminates the thread; the next call starts a fresh one.

import { ShaclFailure, type ShaclResult, type ShapesDocument, type ValidationRequest } from './protocol.js';
import { HeldDataWorker } from '../util/held-data-worker.js';
import { crossesThreads } from '../util/thread-link.js';

export { ShaclFailure } from './protocol.js';

crossesThreads(ShaclFailure);

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

let nextPrivateKey = 0;

export class ShaclEngine {
  private readonly thread = new HeldDataWorker<Omit<ValidationRequest, 'documents'>, readonly ShaclResult[]>({
    url: new URL('./validation-worker.js', import.meta.url),
    work: 'SHACL validation',
    failure: (message, kind) => new ShaclFailure(message, kind === 'lost' ? 'engine' : kind),
  });

  validate(options: ValidateOptions): Promise<readonly ShaclResult[]> {
    return this.thread.serialized(() => this.validateNow(options));
  }

  private async validateNow(options: ValidateOptions): Promise<readonly ShaclResult[]> {
    const key = options.data.key ?? `private-${nextPrivateKey++}`;
    return this.thread.request(
      { dataKey: key, shapes: options.shapes, language: options.language },
      {
        key,
        documents: options.data.documents,
        // The thread keeps a data graph it parsed even when the shapes were refused.
        keeps: (failure) => failure instanceof ShaclFailure && failure.reason === 'shapes',
        deadline: Date.now() + options.timeoutMs,
        signal: options.signal,
      },
    );
  }
}

let engine: ShaclEngine | null = null;

/** The engine of this thread (a window actor): its calls are serialized on one validation thread. */
export function shaclEngine(): ShaclEngine {
  return (engine ??= new ShaclEngine());
}
