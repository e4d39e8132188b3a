// Explanations off the window actor: one piscina thread per window actor runs explanation tasks over
// revision-tagged snapshots (../snapshot.ts). The search enforces its time bound itself and stops when the
// call is cancelled (a shared flag it checks at each reasoner step, and while Konclude runs); the pool
// aborts the thread only if it overruns its bound, or its cancellation, by a grace period.

import { Piscina } from 'piscina';
import type { Axiom } from '../../model/terms.js';
import { snapshotRenderer, type Snapshot } from '../snapshot.js';
import { koncludeConfig, type ReasonerInfo } from '../registry.js';
import { cancelFlag, raiseFlag } from '../saturation.js';
import type { ExplainData, ExplainTask } from './worker.js';

const GRACE_MS = 2_000;

let pool: Piscina<ExplainTask, ExplainData> | null = null;

function thePool(): Piscina<ExplainTask, ExplainData> {
  pool ??= new Piscina({ filename: new URL('./worker.js', import.meta.url).href, minThreads: 0, maxThreads: 1, idleTimeout: 5_000 });
  return pool;
}

export type ExplainRequest =
  | { readonly type: 'entail'; readonly goal: Axiom }
  | { readonly type: 'justify'; readonly goal: Axiom; readonly max: number }
  | { readonly type: 'inconsistency' };

export type ExplainOutcome = ExplainData | { readonly kind: 'error'; readonly message: string };

/** Runs one explanation over `snap` (a window's current active imports closure) until done, timed out or `signal` aborts. */
export async function runExplanation(
  snap: Snapshot,
  reasoner: ReasonerInfo,
  request: ExplainRequest,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<ExplainOutcome> {
  if (signal.aborted) return { kind: 'cancelled' };
  const cancel = cancelFlag();
  const task: ExplainTask = {
    key: snap.workspaceId + '@' + snap.revision,
    text: snap.text,
    reasoner: reasoner.id,
    konclude: koncludeConfig(),
    timeoutMs,
    cancel,
    type: request.type,
    ...(request.type === 'inconsistency' ? {} : { goal: snapshotRenderer().axiom(request.goal) }),
    ...(request.type === 'justify' ? { max: request.max } : {}),
  };
  const hard = new AbortController();
  const overrun = setTimeout(() => hard.abort(), timeoutMs + GRACE_MS);
  let grace: NodeJS.Timeout | undefined;
  const onAbort = () => {
    raiseFlag(cancel);
    grace = setTimeout(() => hard.abort(), GRACE_MS);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const out = await thePool().run(task, { signal: hard.signal });
    return signal.aborted ? { kind: 'cancelled' } : out;
  } catch (err) {
    if (signal.aborted) return { kind: 'cancelled' };
    if (hard.signal.aborted) return { kind: 'timeout' };
    return { kind: 'error', message: (err as Error).message };
  } finally {
    clearTimeout(overrun);
    clearTimeout(grace);
    signal.removeEventListener('abort', onAbort);
  }
}
