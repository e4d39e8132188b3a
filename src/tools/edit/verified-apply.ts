// apply_changes verify=report|rollback (TOOLS.md 3.4): the batch's exact normalized delta goes through the
// change-set preflight first. With a project policy its gate is absolute; without one a failing gate is
// re-run on the unchanged baseline and findings already present there do not block. `rollback` prevents a
// blocking batch before anything live changes (it never relies on undo); `report` commits regardless. Right
// before the one commit the policy and the revision envelope are checked again.

import type { Finding } from '../../qc/finding.js';
import { checkEntrySize } from '../../qc/change-set-store.js';
import { baselineGateJson, PreflightInvalidated, reportJson, runPreflight, verifyLock, type Preflight } from '../../qc/preflight.js';
import { resolvePolicy } from '../../policy/resolve.js';
import { appliedResult, plan, unappliedResult, type PlannedRow } from './batch-plan.js';
import { checkOrFail } from './change-sets.js';
import { revisionEnvelope, sameRevision } from '../../model/revision.js';
import { ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';

export interface VerifiedApply {
  readonly operations: readonly JsonObject[];
  readonly strict: boolean;
  readonly verify: 'report' | 'rollback';
  readonly timeoutMs: number;
}

/** The verify block fields every outcome carries (TOOLS.md apply_changes `verify`). */
interface VerifyFacts {
  readonly regression: boolean;
  readonly inconsistent: boolean;
  readonly newlyUnsatisfiable: readonly string[];
  readonly applied: boolean;
  readonly note: string;
  readonly extra?: JsonObject;
}

function reasonerFacts(pf: Preflight): JsonObject {
  const stage = pf.report.stages.find((s) => s.stage === 'reasoner');
  const started = stage !== undefined && stage.status !== 'skipped';
  return {
    classification_started: started,
    classification_completed: stage?.status === 'completed',
    ...(stage?.status === 'error' ? { classification_failed: true } : {}),
    ...(pf.contract.reasoner !== null ? { reasoner: pf.contract.reasoner.name } : {}),
  };
}

function verifyBlock(mode: VerifiedApply['verify'], pf: Preflight | null, facts: VerifyFacts): JsonObject {
  return {
    mode,
    regression: facts.regression,
    inconsistent: facts.inconsistent,
    newly_unsatisfiable: facts.newlyUnsatisfiable,
    rolled_back: false,
    applied: facts.applied,
    ...(pf === null ? { classification_started: false, classification_completed: false } : reasonerFacts(pf)),
    note: facts.note,
    verification_path: 'change_set_preflight',
    gate: pf === null ? null : pf.gate,
    preflight: pf === null ? null : reportJson(pf),
    ...(pf !== null && pf.policy.digest !== null ? { policy_digest: pf.policy.digest } : {}),
    ...facts.extra,
  };
}

const isInconsistency = (f: Finding) => f.source === 'reasoner' && f.rule_id === 'inconsistent_ontology';
const unsatisfiableIris = (findings: readonly Finding[]) =>
  findings
    .filter((f) => f.source === 'reasoner' && f.rule_id === 'unsatisfiable_class' && f.focus_iri !== null)
    .map((f) => f.focus_iri as string);

function concurrent(
  mode: VerifiedApply['verify'],
  pf: Preflight | null,
  rows: readonly PlannedRow[],
  ctx: ToolContext,
  what: string,
): JsonObject {
  const note = `${what}; nothing was applied (run the batch again)`;
  return {
    ...unappliedResult(rows, 'not applied: concurrent change', ctx),
    verify: verifyBlock(mode, pf, {
      regression: false,
      inconsistent: false,
      newlyUnsatisfiable: [],
      applied: false,
      note,
      extra: { error_code: 'concurrent_change', concurrent_change: true, current_revision: revisionEnvelope(ctx.workspace) },
    }),
  };
}

export async function applyVerified(args: VerifiedApply, ctx: ToolContext): Promise<JsonObject> {
  const mode = args.verify;
  const policy = await resolvePolicy(ctx);
  // Planned with no await before the preflight's snapshot: the evaluated delta is the one planned here.
  const { rows, delta } = plan(args.operations, ctx, args.strict);
  checkOrFail(() => checkEntrySize(args.operations.length, delta.length, Buffer.byteLength(JSON.stringify(args.operations), 'utf8')));
  let pf: Preflight;
  try {
    pf = await runPreflight(ctx, delta, { gates: [], timeoutMs: args.timeoutMs, tightenOnly: true, lockMode: 'ignore' }, policy);
  } catch (err) {
    if (err instanceof PreflightInvalidated) return concurrent(mode, null, rows, ctx, err.message);
    throw err;
  }
  // With a policy its verdict is absolute; without one only what the batch introduced blocks.
  const judgement = pf.baseline;
  const blocking = pf.blocking;
  const afterUnsat = unsatisfiableIris(pf.findings);
  const beforeUnsat = new Set(judgement === null ? [] : unsatisfiableIris(judgement.baseline.findings));
  const facts = {
    regression: blocking,
    inconsistent: pf.findings.some(isInconsistency),
    newlyUnsatisfiable: afterUnsat.filter((iri) => !beforeUnsat.has(iri)),
  };
  const extra: JsonObject = {
    ...(judgement !== null ? { was_inconsistent: judgement.baseline.findings.some(isInconsistency) } : {}),
    ...(judgement !== null ? { baseline_gate: baselineGateJson(judgement) } : {}),
  };
  if (mode === 'rollback' && blocking) {
    const code = pf.gate === 'error' ? 'preflight_error' : 'preflight_failed';
    return {
      ...unappliedResult(rows, 'not applied: the preflight gate blocked the batch', ctx),
      verify: verifyBlock(mode, pf, {
        ...facts,
        applied: false,
        note: `The preflight gate is ${pf.gate} (${pf.reasons.join('; ') || 'see preflight'}); the batch was prevented before any live change.`,
        extra: { ...extra, prevented_before_apply: true, error_code: code },
      }),
    };
  }
  // The policy and a verified import lock are read again (asynchronously) before the final synchronous
  // revision check and the commit.
  const again = await resolvePolicy(ctx);
  if (again.file !== pf.policy.file || again.digest !== pf.policy.digest) {
    return {
      ...unappliedResult(rows, 'not applied: the project policy changed', ctx),
      verify: verifyBlock(mode, pf, {
        ...facts,
        applied: false,
        note: `The project policy changed during the preflight (${pf.policy.file ?? 'none'} → ${again.file ?? 'none'}); nothing was applied.`,
        extra: { ...extra, error_code: 'policy_conflict', pinned_policy_path: pf.policy.file, effective_policy_path: again.file },
      }),
    };
  }
  const lock = pf.lock === null ? null : await verifyLock(ctx, again, 'ignore');
  if (lock !== null && ((lock.sha256 ?? null) !== (pf.lock?.sha256 ?? null) || lock.blocking !== pf.lock?.blocking)) {
    return {
      ...unappliedResult(rows, 'not applied: the import lockfile changed', ctx),
      verify: verifyBlock(mode, pf, {
        ...facts,
        applied: false,
        note: `The import lockfile ${lock.path ?? ''} changed during the preflight; nothing was applied.`,
        extra: { ...extra, error_code: 'import_lock_changed' },
      }),
    };
  }
  if (ctx.signal.aborted)
    throw new ToolFailure('apply_changes was cancelled by the client; nothing was applied', 'cancelled', { effects_prevented: true });
  if (!sameRevision(pf.base, revisionEnvelope(ctx.workspace)))
    return concurrent(mode, pf, rows, ctx, 'The workspace changed before the commit');
  const result = delta.length > 0 ? ctx.workspace.apply(delta) : null;
  const effective = result !== null && result.effective;
  const verdict = blocking
    ? `the preflight gate is ${pf.gate}; the batch was committed anyway (verify=report)`
    : pf.gate === 'pass'
      ? 'the preflight gate passed'
      : 'the preflight gate failed only on findings the unchanged ontology already has';
  return {
    ...appliedResult(rows, effective, ctx),
    verify: verifyBlock(mode, pf, {
      ...facts,
      applied: effective,
      note: `${verdict.charAt(0).toUpperCase()}${verdict.slice(1)}${effective ? '.' : '; the batch changed nothing.'}`,
      extra,
    }),
  };
}
