// Live verification of create_terms / create_properties (TOOLS.md 3.4 live-verify shape): classify the
// baseline with the selected reasoner, apply the batch as one undo entry, classify again and compare.
// `rollback` undoes the batch (that one entry) when it made a class newly unsatisfiable or the ontology
// inconsistent, or when the check could not finish.

import type { Change } from '../../model/changes.js';
import type { Classification, RunOutcome } from '../../reasoner/pool.js';
import { ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';

export type VerifyMode = 'report' | 'rollback';

/** How often a baseline is re-established when the workspace changes while it is classified. */
const BASELINE_ATTEMPTS = 3;

function describeIncomplete(out: RunOutcome): string {
  return out.started ? (out.completed ? '' : out.message) : 'another classification of this revision is under way';
}

/** The baseline classification at the current revision, or why there is none. */
async function classifyBaseline(ctx: ToolContext, timeoutMs: number): Promise<{ classification: Classification | null; why: string }> {
  const session = ctx.window.reasoning;
  let why = 'the workspace kept changing while the baseline was classified';
  for (let i = 0; i < BASELINE_ATTEMPTS; i++) {
    const out = await session.classify(timeoutMs, ctx.signal);
    if (!out.started || !out.completed) return { classification: null, why: describeIncomplete(out) };
    if (out.classification.revision === ctx.workspace.revision) return { classification: out.classification, why: '' };
    why = 'the workspace changed while the baseline was classified';
  }
  return { classification: null, why };
}

/** Refuses up front (nothing applied) what live verification cannot do: rollback without a baseline. */
export async function prepareLiveVerify(
  ctx: ToolContext,
  mode: VerifyMode,
  timeoutMs: number,
): Promise<{ baseline: Classification | null; why: string }> {
  const { classification, why } = await classifyBaseline(ctx, timeoutMs);
  if (classification === null && mode === 'rollback') {
    throw new ToolFailure(
      `verify=rollback needs a baseline classification and none could be established (${why}); nothing was applied`,
      'verify_baseline_unavailable',
      { applied: false, effects_prevented: true, reason: why },
    );
  }
  return { baseline: classification, why };
}

/**
 * Applies `delta` (one undo entry), re-classifies and compares with `baseline`. Must be called with no
 * await between the planning of `delta` and this call, so the delta applies to the state it was planned on.
 */
export async function applyAndVerify(
  ctx: ToolContext,
  delta: readonly Change[],
  mode: VerifyMode,
  timeoutMs: number,
  established: Classification | null,
  establishedWhy: string,
): Promise<{ applied: boolean; verify: JsonObject }> {
  const session = ctx.window.reasoning;
  // a baseline of another revision (a change landed since it was classified) says nothing about this batch
  const baseline = established !== null && established.revision === ctx.workspace.revision ? established : null;
  const baselineWhy = established === null ? establishedWhy : 'the workspace changed after the baseline was classified';
  if (baseline === null && mode === 'rollback') {
    throw new ToolFailure(
      `verify=rollback needs a baseline classification of the state the batch applies to (${baselineWhy}); nothing was applied`,
      'verify_baseline_unavailable',
      { applied: false, effects_prevented: true, reason: baselineWhy },
    );
  }
  const reasoner = session.selected.name;
  const result = ctx.workspace.apply(delta);
  const appliedRevision = ctx.workspace.revision;
  const out = await session.classify(timeoutMs, ctx.signal);
  const completed = out.started && out.completed && out.classification.revision === appliedRevision;
  const concurrent =
    ctx.workspace.revision !== appliedRevision || (out.started && out.completed && out.classification.revision !== appliedRevision);
  const after = completed ? out.classification : null;
  const wasInconsistent = baseline === null ? undefined : !baseline.consistent;
  const inconsistent = after !== null && !after.consistent;
  const before = new Set(baseline?.data.unsatisfiable ?? []);
  // over an inconsistent ontology every class is unsatisfiable: the inconsistency is the finding
  const newly = after === null || inconsistent || baseline === null ? [] : after.data.unsatisfiable.filter((iri) => !before.has(iri));
  const regression = newly.length > 0 || (inconsistent && wasInconsistent !== true);
  // a rollback also undoes a batch it could not check, unless someone else's change now sits on top of it
  const wantsUndo = mode === 'rollback' && result.effective && (regression || after === null);
  const rolledBack = wantsUndo && !concurrent;
  if (rolledBack) ctx.workspace.undo();
  const notes: string[] = [];
  if (after === null)
    notes.push(
      concurrent
        ? 'The workspace changed during verification, so the result cannot be attributed to this batch'
        : `Classification did not complete: ${describeIncomplete(out)}`,
    );
  else if (regression)
    notes.push(inconsistent ? 'The batch made the ontology inconsistent' : `The batch made ${newly.length} class(es) unsatisfiable`);
  else notes.push('No regression: no class became unsatisfiable and the ontology is not newly inconsistent');
  if (baseline === null) notes.push(`no baseline classification (${baselineWhy}), so nothing is reported as newly unsatisfiable`);
  if (rolledBack) notes.push('the batch was rolled back as one undo entry');
  else if (wantsUndo) notes.push('the batch was NOT rolled back: another change was applied after it; undo it explicitly');
  return {
    applied: result.effective && !rolledBack,
    verify: {
      mode,
      regression,
      inconsistent,
      newly_unsatisfiable: newly,
      rolled_back: rolledBack,
      applied: result.effective && !rolledBack,
      classification_started: out.started,
      classification_completed: after !== null,
      reasoner,
      ...(concurrent ? { concurrent_change: true } : {}),
      ...(wasInconsistent !== undefined ? { was_inconsistent: wasInconsistent } : {}),
      note: notes.join('; ') + '.',
    },
  };
}
