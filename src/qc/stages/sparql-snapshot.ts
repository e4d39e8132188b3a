// SPARQL over a QC snapshot, for the `invariants` and `cqs` stages: the snapshot's closure (its private
// root copy, with any preview delta applied) evaluated on the window's engine thread, and, for
// `include_inferred`, the inferences of one private classification of that snapshot by the captured
// reasoner (TOOLS.md run_project_qc: one private reasoner supplies the inferred graphs), shared by both
// stages of a gate run. The window's own reasoner results are neither read nor replaced.

import { runTask, Classification } from '../../reasoner/pool.js';
import type { ClassificationData } from '../../reasoner/pool-worker.js';
import type { ReasonerInfo } from '../../reasoner/registry.js';
import { closureInput, shipAll } from '../../reasoner/snapshot.js';
import { readyInferences, type InferredSnapshot } from '../../sparql/inferred.js';
import { ontologyPrefixes } from '../../sparql/run.js';
import { snapshotTarget, type QueryTarget } from '../../sparql/target.js';
import type { QcSnapshot } from '../finding.js';
import { snapshotWindow, snapshotWorkspaceId } from '../snapshot.js';
import { unreachable } from '../../util/unreachable.js';
import type { ErrorCode } from '../../util/errors.js';

export interface SnapshotQueryContext {
  readonly reasoner: ReasonerInfo;
  /** Absolute time (ms since the epoch) by which the stage must finish. */
  readonly deadline: number;
  readonly signal: AbortSignal;
}

let runs = 0;

const unavailable = (code: ErrorCode, message: string): InferredSnapshot => ({ kind: 'unavailable', code, message });

/** Classifies the snapshot privately and materializes the inferences (the pool key shares the workspace's incremental reasoner). */
async function privateInferences(s: QcSnapshot, ctx: SnapshotQueryContext): Promise<InferredSnapshot> {
  const r = ctx.reasoner;
  const timeoutMs = Math.max(1, ctx.deadline - Date.now());
  const input = closureInput(s.closure);
  const key = (snapshotWorkspaceId(s) ?? 'qc-private') + '@qc-' + s.revision + '-inferred-' + ++runs;
  const out = await runTask<ClassificationData>(
    { type: 'classify', key, model: shipAll(input), reasoner: r.id, timeLimitMs: timeoutMs },
    timeoutMs,
    ctx.signal,
  );
  switch (out.kind) {
    case 'done': {
      const c = new Classification(out.value, s.revision, r, input.ruleCount);
      if (!c.consistent)
        return unavailable(
          'inconsistent_ontology',
          'The snapshot is inconsistent, so every statement is entailed: see explain_inconsistency',
        );
      return readyInferences(c);
    }
    case 'timeout':
      return unavailable('reasoner_timeout', `the private classification for include_inferred did not finish within ${timeoutMs} ms`);
    case 'cancelled':
      return unavailable('cancelled', 'the private classification for include_inferred was cancelled');
    case 'error':
      return unavailable('reasoner_error', `the private classification for include_inferred failed: ${out.message}`);
    default:
      return unreachable(out);
  }
}

/** One classification per snapshot, whichever stage asks first. */
const inferencesBySnapshot = new WeakMap<QcSnapshot, Promise<InferredSnapshot>>();

/** The query target of a snapshot; throws when the snapshot was not captured from a workspace (no engine thread). */
export function qcQueryTarget(s: QcSnapshot, ctx: SnapshotQueryContext): QueryTarget {
  const window = snapshotWindow(s);
  if (window === undefined) throw new Error('the snapshot was not captured from a window workspace, so no SPARQL engine can evaluate it');
  const inferences = (): Promise<InferredSnapshot> => {
    let p = inferencesBySnapshot.get(s);
    if (p === undefined) inferencesBySnapshot.set(s, (p = privateInferences(s, ctx)));
    return p;
  };
  return snapshotTarget(window, { closure: s.closure, prefixes: ontologyPrefixes(s.ontology) }, inferences, ctx.signal);
}

/** Time left for one query of a stage: the rest of the gate's budget. */
export function remainingMs(deadline: number): number {
  return Math.max(1, deadline - Date.now());
}
