// Runs the disposable reasoner of one preview (worker.ts) and disposes of it: the worker is terminated when
// it has answered everything, when the time bound passes, when the caller cancels, or when it fails. Only one
// preview reasoner exists at a time per server (slot.ts); a second preview while one is computing or being
// disposed of is refused with `materialization_busy`.

import { Worker } from 'node:worker_threads';
import type { Category } from './categories.js';
import type { CategoryTuples, Classified, EnumerationRequest, EnumeratorApi } from './worker.js';
import { claimSlot } from './slot.js';
import { ThreadLink } from '../util/thread-link.js';

export type { CategoryTuples } from './worker.js';

export interface ReasonerRun {
  /** How the run ended: everything answered, or stopped (categories not answered by then are discarded). */
  readonly ending: 'finished' | 'timeout' | 'cancelled' | 'error';
  readonly message?: string;
  /** Null when the run stopped before classification finished. */
  readonly classified: Classified | null;
  readonly categories: ReadonlyMap<Category, CategoryTuples>;
  readonly elapsedMs: number;
}

export class MaterializationBusy extends Error {
  constructor() {
    super('A previous materialization preview has not finished computing or disposing of its reasoner; retry when it has.');
    this.name = 'MaterializationBusy';
  }
}

/**
 * Claims the server's preview-reasoner slot synchronously (so two previews started in the same turn cannot
 * both get it) and runs the request; the slot is released only after the worker thread has exited. `home`
 * is the server's private directory (absent: the slot is this thread's).
 */
export function runDisposableReasoner(req: EnumerationRequest, timeoutMs: number, signal: AbortSignal, home?: string): Promise<ReasonerRun> {
  const release = claimSlot(home, timeoutMs);
  if (release === null) throw new MaterializationBusy();
  const started = Date.now();
  let worker: Worker;
  try {
    worker = new Worker(new URL('./worker.js', import.meta.url));
  } catch (err) {
    release();
    throw err;
  }
  const link = new ThreadLink<EnumeratorApi>(worker);
  const categories = new Map<Category, CategoryTuples>();
  let classified: ReasonerRun['classified'] = null;
  return new Promise<ReasonerRun>((resolve) => {
    let ending: ReasonerRun['ending'] | null = null;
    let message: string | undefined;
    const timer = setTimeout(() => stop('timeout', `the reasoner did not finish within ${timeoutMs} ms`), timeoutMs);
    const onAbort = () => stop('cancelled', 'the request was cancelled');
    signal.addEventListener('abort', onAbort, { once: true });
    function stop(how: ReasonerRun['ending'], why?: string): void {
      if (ending !== null) return;
      ending = how;
      message = why;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
    }
    worker.on('error', (err) => stop('error', `the reasoner failed: ${err.message}`));
    worker.on('exit', () => {
      link.fail(new Error('the reasoner thread exited'));
      if (ending === null) stop('error', 'the reasoner thread exited early');
      release();
      resolve({ ending: ending!, ...(message !== undefined ? { message } : {}), classified, categories, elapsedMs: Date.now() - started });
    });
    if (signal.aborted) onAbort();
    // answers that come after the run stopped are dropped: what it had by then is what it reports
    const drive = async (): Promise<void> => {
      const c = await link.call((r) => r.classify(req));
      if (ending !== null) return;
      classified = c;
      if (c.consistent) {
        for (const category of req.categories) {
          const tuples = await link.call((r) => r.enumerate(category));
          if (ending !== null) return;
          categories.set(category, tuples);
        }
      }
      stop('finished');
    };
    drive().catch((err: Error) => stop('error', `the reasoner failed: ${err.message}`));
  });
}
