// Runs the disposable reasoner of one preview (worker.ts) and disposes of it: the worker is terminated when
// it has answered everything or fails; when the time bound passes or the caller cancels, its cancellation
// flag is raised first (a running Konclude process is killed and its files removed) and the thread is
// terminated once its call has ended, or after a grace period. Only one
// preview reasoner exists at a time per server (slot.ts); a second preview while one is computing or being
// disposed of is refused with `materialization_busy`.

import { Worker } from 'node:worker_threads';
import type { Category } from './categories.js';
import type { CategoryTuples, Classified, EnumerationRequest, EnumeratorApi } from './worker.js';
import { claimSlot } from './slot.js';
import { cancelFlag, raiseFlag } from '../reasoner/saturation.js';
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

/** How long a stopped worker may take to notice its cancellation flag before it is terminated. */
const GRACE_MS = 2_000;

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
export function runDisposableReasoner(
  req: Omit<EnumerationRequest, 'cancel'>,
  timeoutMs: number,
  signal: AbortSignal,
  home?: string,
): Promise<ReasonerRun> {
  const release = claimSlot(home, timeoutMs);
  if (release === null) throw new MaterializationBusy();
  const started = Date.now();
  const cancel = cancelFlag();
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
      if (how === 'finished' || how === 'error') {
        void worker.terminate();
        return;
      }
      raiseFlag(cancel);
      const grace = setTimeout(() => void worker.terminate(), GRACE_MS);
      worker.once('exit', () => clearTimeout(grace));
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
      const c = await link.call('classify', { ...req, cancel });
      if (ending !== null) return;
      classified = c;
      if (c.consistent) {
        for (const category of req.categories) {
          const tuples = await link.call('enumerate', category);
          if (ending !== null) return;
          categories.set(category, tuples);
        }
      }
      stop('finished');
    };
    // a stopped run's call ends once the thread has seen the flag (Konclude killed): the thread may go then
    drive()
      .catch((err: Error) => stop('error', `the reasoner failed: ${err.message}`))
      .finally(() => void worker.terminate());
  });
}
