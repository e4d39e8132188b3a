// Explanations off the window actor: one thread per window actor runs explanation tasks over revision-tagged
// snapshots (../snapshot.ts), sent in the binary encoding (transfer.ts). The search enforces its time bound
// itself and stops when the call is cancelled (a shared flag it checks at each reasoner step, and while
// Konclude runs); the pool stops it only if it overruns its bound by a grace period.

import type { Axiom } from '../../model/terms.js';
import { decodeAxioms, encodeAxioms } from '../../model/transfer.js';
import type { Snapshot } from '../snapshot.js';
import { koncludeConfig, type ReasonerInfo } from '../registry.js';
import { TaskPool } from '../../util/task-pool.js';
import { unreachable } from '../../util/unreachable.js';
import type { ExplainData, ExplainTask } from './worker.js';

const GRACE_MS = 2_000;

const pool = new TaskPool<ExplainTask, ExplainData>({ worker: new URL('./worker.js', import.meta.url), idleMs: 5_000, graceMs: GRACE_MS });

export type ExplainRequest =
  | { readonly type: 'entail'; readonly goal: Axiom }
  | { readonly type: 'justify'; readonly goal: Axiom; readonly max: number }
  | { readonly type: 'inconsistency' };

/** An explanation with its axioms rebuilt on this thread. */
export type ExplainOutcome =
  | Exclude<ExplainData, { readonly kind: 'justifications' | 'inconsistency' }>
  | (Omit<Extract<ExplainData, { kind: 'justifications' }>, 'justifications'> & { readonly justifications: readonly Axiom[][] })
  | (Omit<Extract<ExplainData, { kind: 'inconsistency' }>, 'axioms'> & { readonly axioms: readonly Axiom[] })
  | { readonly kind: 'error'; readonly message: string };

/** Runs one explanation over `snap` (a window's current active imports closure) until done, timed out or `signal` aborts. */
export async function runExplanation(
  snap: Snapshot,
  reasoner: ReasonerInfo,
  request: ExplainRequest,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<ExplainOutcome> {
  const out = await pool.run(
    (cancel) => ({
      key: snap.workspaceId + '@' + snap.revision,
      axioms: snap.encoding,
      reasoner: reasoner.id,
      konclude: koncludeConfig(),
      timeoutMs,
      cancel,
      type: request.type,
      ...(request.type === 'inconsistency' ? {} : { goal: encodeAxioms([request.goal]) }),
      ...(request.type === 'justify' ? { max: request.max } : {}),
    }),
    // the search answers `timeout` itself at its bound; the pool's bound catches a task that overran it
    { timeoutMs: timeoutMs + GRACE_MS, signal },
  );
  switch (out.kind) {
    case 'done': {
      const data = out.value;
      if (signal.aborted) return { kind: 'cancelled' };
      if (data.kind === 'justifications') return { ...data, justifications: data.justifications.map(decodeAxioms) };
      if (data.kind === 'inconsistency') return { ...data, axioms: decodeAxioms(data.axioms) };
      return data;
    }
    case 'error':
      return { kind: 'error', message: out.message };
    case 'timeout':
    case 'cancelled':
      return { kind: out.kind };
    default:
      return unreachable(out);
  }
}
