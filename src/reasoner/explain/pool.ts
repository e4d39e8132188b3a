// Explanations off the window actor: one piscina thread per window actor runs explanation tasks over
// revision-tagged snapshots (../snapshot.ts). The search enforces its time bound itself; the pool aborts
// the thread only if it overruns that bound by a grace period.

import { Piscina } from 'piscina';
import type { Axiom } from '../../model/terms.js';
import type { Workspace } from '../../model/workspace.js';
import { takeSnapshot, snapshotRenderer } from '../snapshot.js';
import { koncludeConfig, type ReasonerInfo } from '../registry.js';
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

/** Runs one explanation over the workspace's current active imports closure. */
export async function runExplanation(ws: Workspace, reasoner: ReasonerInfo, request: ExplainRequest, timeoutMs: number): Promise<ExplainOutcome> {
  const snap = takeSnapshot(ws);
  const task: ExplainTask = {
    key: snap.workspaceId + '@' + snap.revision,
    text: snap.text,
    reasoner: reasoner.id,
    konclude: koncludeConfig(),
    timeoutMs,
    type: request.type,
    ...(request.type === 'inconsistency' ? {} : { goal: snapshotRenderer().axiom(request.goal) }),
    ...(request.type === 'justify' ? { max: request.max } : {}),
  };
  const timer = AbortSignal.timeout(timeoutMs + GRACE_MS);
  try {
    return await thePool().run(task, { signal: timer });
  } catch (err) {
    if (timer.aborted) return { kind: 'timeout' };
    return { kind: 'error', message: (err as Error).message };
  }
}
