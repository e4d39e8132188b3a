// The change-set preflight (TOOLS.md 1.11, 3.4), shared by preview_change_set, rebase_change_set and
// apply_changes verify: the exact normalized delta is applied to a private snapshot and the QC gate judges
// the result. With a valid project policy its required stages (plus interoperability in version 1 and rules,
// as run_project_qc), its stage options, waivers and fail_on decide; without one the default
// gates run (reasoner only when one is selected, profile, governance, structural) and explicitly listed
// gates become required. Without a policy a failing gate is judged against the unchanged baseline: findings
// already present there are reported in `baseline` and do not block (TOOLS.md apply_changes `verify`). The
// live workspace is never touched; if it changes while the gate runs, the preflight is invalid and says so.

import type { Axiom } from '../model/terms.js';
import type { Change } from '../model/changes.js';
import { axiomLines } from '../model/render/axiom-lines.js';
import { implementationDigest, type ReasonerInfo } from '../reasoner/registry.js';
import { resolvePolicy } from '../policy/resolve.js';
import type { PolicyResolution } from '../policy/resolution.js';
import { DomainError } from '../util/errors.js';
import type { JsonObject } from '../util/json-object.js';
import type { CallContext } from '../window/call-context.js';
import { revisionEnvelope, type RevisionEnvelope } from '../model/revision.js';
import { checkImportLock, resolveLockTarget, type ImportLockVerification, type LockMode, type LockPolicy } from '../imports/lock-mode.js';
import { importGraph, localFileOf } from '../imports/closure.js';
import { captureSnapshot } from './snapshot.js';
import { runGate, verdictFails, type FailOn, type GateReport, type StageOptions } from './gate.js';
import type { Finding, Gate, StageId, Waiver } from './finding.js';
import { policyGateConfig } from './policy-options.js';
import type { EffectivePolicy } from '../policy/schema.js';
import { sha256Digest } from '../util/digest.js';

/** Budget of a preflight when neither the caller nor a policy gives one (TOOLS.md preview_change_set). */
export const DEFAULT_PREFLIGHT_TIMEOUT_MS = 120_000;

/** Findings shown per stage in a preflight report; counts and digests cover every finding. */
const FINDINGS_PER_STAGE = 50;

export interface PreflightRequest {
  /** Stages the caller lists explicitly (`gates`). */
  readonly gates: readonly StageId[];
  /** The caller's budget; absent: the policy's `reasoning.timeout_ms`, else DEFAULT_PREFLIGHT_TIMEOUT_MS. */
  readonly timeoutMs?: number | undefined;
  /** apply_changes: with a policy, the caller's budget can only tighten the policy's. */
  readonly tightenOnly?: boolean | undefined;
  readonly policyPath?: string | undefined;
  readonly lockMode: LockMode;
}

/** Which stages run, which must complete, how verdicts gate, and with which reasoner. */
export interface PreflightContract {
  readonly stages: readonly StageId[];
  readonly required: readonly StageId[];
  readonly failOn: FailOn;
  readonly reasoner: ReasonerInfo;
  readonly timeoutMs: number;
  /** What a valid policy configures in the stages (empty without one). */
  readonly options: StageOptions;
  readonly waivers: readonly Waiver[];
}

export interface Preflight {
  /** The live revision the delta was evaluated against. */
  readonly base: RevisionEnvelope;
  readonly policy: PolicyResolution;
  readonly contract: PreflightContract;
  readonly report: GateReport;
  /** The report's gate with a blocking import-lock verification folded in. */
  readonly gate: Gate;
  /** The `lock_mode` verification (null: nothing to verify). */
  readonly lock: ImportLockVerification | null;
  /** Every finding of every ran stage (the report samples them). */
  readonly findings: readonly Finding[];
  /** Without a policy, a failing gate judged against the unchanged baseline (null: not needed, or a policy governs). */
  readonly baseline: BaselineJudgement | null;
  /** Whether the verdict blocks the batch: an error, a policy's fail, or a fail the baseline does not explain. */
  readonly blocking: boolean;
  readonly committable: boolean;
  readonly reasons: readonly string[];
  readonly contractDigest: string;
}

/** The workspace changed while the gate ran: the verdict describes a state that no longer exists. */
export class PreflightInvalidated extends Error {
  constructor(
    readonly base: RevisionEnvelope,
    readonly current: RevisionEnvelope,
  ) {
    super(
      `The workspace changed during the preflight (revision ${base.session_revision} → ${current.session_revision}); nothing was cached or applied`,
    );
    this.name = 'PreflightInvalidated';
  }
}

const DEFAULT_STAGES: readonly StageId[] = ['profile', 'governance', 'structural'];

/** The stage part of a policy contract: which stages run and must complete, how verdicts gate, with what configuration. */
export type PolicyStages = Pick<PreflightContract, 'stages' | 'required' | 'failOn' | 'options' | 'waivers'>;

/**
 * The stages a valid policy requires (run_project_qc, TOOLS.md 3.3): `validation.required_stages`, `reasoner`
 * when `reasoning.required`, `interoperability` always in version 1, `rules` always; every one must complete.
 * `extra` (explicitly listed gates) can only add required stages: the policy's verdict is absolute.
 */
export function policyStages(effective: EffectivePolicy, projectRoot: string | null, extra: readonly StageId[] = []): PolicyStages {
  const required = new Set<StageId>([...effective.validation.required_stages, ...extra, 'rules']);
  if (effective.version === 1) required.add('interoperability');
  if (effective.reasoning.required) required.add('reasoner');
  const { options, waivers } = policyGateConfig(effective, projectRoot);
  return { stages: [...required], required: [...required], failOn: effective.validation.fail_on, options, waivers };
}

/** The stages, requirements and budget of one preflight (TOOLS.md 1.11). */
function contractFor(request: PreflightRequest, ctx: CallContext, policy: PolicyResolution): PreflightContract {
  // The captured selection; a policy's `reasoning.reasoner` is checked against it by the reasoner stage.
  const reasoner = ctx.window.reasoning.selected;
  const effective = policy.valid ? policy.policy : null;
  const policyTimeout = effective?.reasoning.timeout_ms;
  let timeoutMs = request.timeoutMs ?? policyTimeout ?? DEFAULT_PREFLIGHT_TIMEOUT_MS;
  if (request.tightenOnly === true && policyTimeout !== undefined) timeoutMs = Math.min(timeoutMs, policyTimeout);
  if (effective !== null) return { ...policyStages(effective, policy.projectRoot, request.gates), reasoner, timeoutMs };
  const stages = new Set<StageId>(['reasoner', ...DEFAULT_STAGES]);
  for (const g of request.gates) stages.add(g);
  return { stages: [...stages], required: [...request.gates], failOn: 'error', reasoner, timeoutMs, options: {}, waivers: [] };
}

function sha256(text: string): string {
  return sha256Digest(text);
}

/** Canonical full-IRI lines of a delta: additions then removals, each sorted. */
function deltaLines(delta: readonly Change[]): { add: string[]; remove: string[] } {
  const adds: Axiom[] = [];
  const removes: Axiom[] = [];
  for (const c of delta) {
    if (c.kind === 'AddAxiom') adds.push(c.axiom);
    else if (c.kind === 'RemoveAxiom') removes.push(c.axiom);
  }
  return { add: axiomLines(adds), remove: axiomLines(removes) };
}

/** Digest of everything the verdict depends on besides the stage code: state, delta, stages, reasoner, policy, budget. */
function contractDigest(
  base: RevisionEnvelope,
  delta: readonly Change[],
  contract: PreflightContract,
  policy: PolicyResolution,
  lockMode: LockMode,
): string {
  const canonical = {
    version: 1,
    base_revision: base,
    delta: deltaLines(delta),
    stages: [...contract.stages].sort(),
    required: [...contract.required].sort(),
    fail_on: contract.failOn,
    reasoner: { id: contract.reasoner.id, implementation: implementationDigest(contract.reasoner) },
    policy: { file: policy.file, digest: policy.digest, valid: policy.valid },
    timeout_ms: contract.timeoutMs,
    lock_mode: lockMode,
  };
  return sha256(JSON.stringify(canonical));
}

/** Whether a batch's failing gate is explained by findings the unchanged baseline already has. */
export interface BaselineJudgement {
  readonly blocking: boolean;
  readonly baseline: GateReport;
  /** Gating findings of the preflight that the baseline has too (by finding id). */
  readonly preexisting: readonly Finding[];
}

const failingStages = (report: GateReport) =>
  new Set(report.stages.filter((s) => s.status === 'completed' && verdictFails(s.verdict ?? 'pass', report.fail_on)).map((s) => s.stage));

/**
 * Compares the failing stages of a gate with a gate run over the unchanged baseline: the batch blocks when a
 * failing stage has a gating finding the baseline lacks, or fails where the baseline passed.
 */
function judgeAgainstBaseline(report: GateReport, findings: readonly Finding[], baseline: GateReport): BaselineJudgement {
  const failing = failingStages(report);
  const baseFailing = failingStages(baseline);
  // The findings that can fail a stage under fail_on: errors, and warnings when fail_on is `warn`.
  const gating = (f: Finding) => failing.has(f.source) && (f.severity === 'error' || (f.severity === 'warn' && report.fail_on === 'warn'));
  const baseIds = new Set(baseline.findings.map((f) => f.id));
  const relevant = findings.filter(gating);
  const preexisting = relevant.filter((f) => baseIds.has(f.id));
  const newlyFailing = [...failing].some((s) => !baseFailing.has(s));
  return { blocking: relevant.length > preexisting.length || newlyFailing, baseline, preexisting };
}

const FINDING_SAMPLE = 50;

/** The `baseline_gate` block of a result. */
export function baselineGateJson(j: BaselineJudgement): JsonObject {
  return {
    gate: j.baseline.gate,
    finding_count: j.baseline.finding_count,
    identity_digest: j.baseline.identity_digest,
    preexisting_count: j.preexisting.length,
    preexisting_findings: j.preexisting.slice(0, FINDING_SAMPLE),
    ...(j.preexisting.length > FINDING_SAMPLE ? { preexisting_truncated: j.preexisting.length - FINDING_SAMPLE } : {}),
  };
}

/** Why a preflight does not allow a commit (empty: it does); failing stages the baseline explains are not reasons. */
function reasonsOf(report: GateReport, policy: PolicyResolution, lock: ImportLockVerification | null, explained: boolean): string[] {
  const reasons: string[] = [];
  if (lock?.blocking === true) reasons.push(`import_lock: ${lock.note ?? lock.findings.map((f) => f.message).join('; ')}`);
  if (policy.loaded && !policy.valid)
    reasons.push(
      `policy_invalid: ${policy.file ?? 'the project policy'} does not validate (${policy.errors.length} error${policy.errors.length === 1 ? '' : 's'})`,
    );
  for (const s of report.stages) {
    if (s.status === 'error') reasons.push(`stage_error: ${s.stage} failed to run (${s.reason ?? 'unknown error'})`);
    else if (s.required && s.status !== 'completed') reasons.push(`required_stage_not_run: ${s.stage} (${s.reason ?? 'unavailable'})`);
    else if (!explained && s.status === 'completed' && verdictFails(s.verdict ?? 'pass', report.fail_on)) {
      reasons.push(
        `stage_failed: ${s.stage} (verdict ${s.verdict}; ${s.findings_summary.error} error, ${s.findings_summary.warn} warn finding${s.findings_summary.error + s.findings_summary.warn === 1 ? '' : 's'})`,
      );
    }
  }
  if (reasons.length === 0 && report.gate !== 'pass' && !explained) reasons.push(`gate=${report.gate}`);
  return reasons;
}

/** The preflight report as results show it: findings sampled per stage, the lock verification folded in. */
export function reportJson(pf: Pick<Preflight, 'report' | 'gate' | 'lock'>): JsonObject {
  const report = pf.report;
  const perStage = new Map<StageId, number>();
  const findings = report.findings.filter((f) => {
    const n = perStage.get(f.source) ?? 0;
    perStage.set(f.source, n + 1);
    return n < FINDINGS_PER_STAGE;
  });
  return {
    ...report,
    gate: pf.gate,
    findings,
    ...(findings.length < report.finding_count ? { findings_truncated: report.finding_count - findings.length } : {}),
    ...(pf.lock === null ? {} : { import_lock_verification: pf.lock }),
  };
}

/** A gate run over the unchanged live state, for telling findings a batch introduced from ones already there. */
async function baselineFindings(
  ctx: CallContext,
  contract: PreflightContract,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<{ report: GateReport; revision: number }> {
  const snapshot = captureSnapshot(ctx.window, [], ctx.settings.label_language);
  const report = await runGate({
    snapshot,
    stages: contract.stages,
    required: contract.required,
    reasoner: contract.reasoner,
    timeoutMs,
    signal,
    limit: Number.MAX_SAFE_INTEGER,
    failOn: contract.failOn,
    options: contract.options,
    waivers: contract.waivers,
  });
  return { report, revision: snapshot.revision };
}

/** A signal that aborts when the caller goes away or the budget runs out; `expired()` tells which. */
export function budget(ctx: CallContext, timeoutMs: number): { signal: AbortSignal; expired: () => boolean } {
  const timer = AbortSignal.timeout(timeoutMs);
  return { signal: AbortSignal.any([ctx.signal, timer]), expired: () => timer.aborted && !ctx.signal.aborted };
}

function timeoutFailure(timeoutMs: number): DomainError {
  return new DomainError(`The preflight did not finish within timeout_ms=${timeoutMs}; nothing was cached or applied`, 'timeout', {
    effects_prevented: true,
    timeout_ms: timeoutMs,
    retryable: true,
  });
}

/** The §1.8 import-lock rule over the active ontology's loaded closure (a delta of axioms leaves it unchanged). */
export async function verifyLock(ctx: CallContext, policy: PolicyResolution, mode: LockMode): Promise<ImportLockVerification | null> {
  const effective = policy.valid ? policy.policy : null;
  const lockPolicy: LockPolicy | null =
    effective !== null && policy.projectRoot !== null
      ? { lockfile: effective.imports.lockfile, mode: effective.imports.mode, projectRoot: policy.projectRoot }
      : null;
  const active = ctx.workspace.active;
  const graph = importGraph(active, (iri) => ctx.workspace.find(iri));
  const target = await resolveLockTarget(lockPolicy, localFileOf(active.documentIri));
  return checkImportLock(mode, lockPolicy, target, graph);
}

/** Throws PreflightInvalidated when the live workspace is no longer at `base`. */
function checkUnchanged(ctx: CallContext, base: RevisionEnvelope): void {
  const current = revisionEnvelope(ctx.workspace);
  if (current.session_revision !== base.session_revision || current.workspace_id !== base.workspace_id)
    throw new PreflightInvalidated(base, current);
}

/**
 * Evaluates `delta` (the exact normalized changes) against the current live state. Throws PreflightInvalidated
 * when the workspace changed meanwhile, and the `timeout` failure when the budget ran out.
 */
export async function runPreflight(
  ctx: CallContext,
  delta: readonly Change[],
  request: PreflightRequest,
  known?: PolicyResolution,
): Promise<Preflight> {
  const policy = known ?? (await resolvePolicy(ctx, request.policyPath));
  const contract = contractFor(request, ctx, policy);
  const base = revisionEnvelope(ctx.workspace);
  const snapshot = captureSnapshot(ctx.window, delta, ctx.settings.label_language);
  const invalidPolicy = policy.loaded && !policy.valid;
  const deadline = Date.now() + contract.timeoutMs;
  const { signal, expired } = budget(ctx, contract.timeoutMs);
  const gated = await runGate({
    snapshot,
    // An invalid policy decides nothing: no stage runs and the gate is an error.
    stages: invalidPolicy ? [] : contract.stages,
    required: invalidPolicy ? [] : contract.required,
    reasoner: contract.reasoner,
    timeoutMs: contract.timeoutMs,
    signal,
    limit: Number.MAX_SAFE_INTEGER,
    failOn: contract.failOn,
    options: contract.options,
    waivers: contract.waivers,
  });
  const lock = await verifyLock(ctx, policy, request.lockMode);
  if (expired()) throw timeoutFailure(contract.timeoutMs);
  checkUnchanged(ctx, base);
  const report: GateReport = invalidPolicy ? { ...gated, gate: 'error' } : gated;
  const gate: Gate = report.gate === 'pass' && lock?.blocking === true ? 'fail' : report.gate;
  // Without a policy a failing gate is judged against the unchanged state; a policy's verdict is absolute.
  let baseline: BaselineJudgement | null = null;
  if (!policy.loaded && report.gate === 'fail') {
    const unchanged = await baselineFindings(ctx, contract, Math.max(1, deadline - Date.now()), signal);
    if (expired()) throw timeoutFailure(contract.timeoutMs);
    checkUnchanged(ctx, base);
    if (unchanged.revision !== base.session_revision) throw new PreflightInvalidated(base, revisionEnvelope(ctx.workspace));
    baseline = judgeAgainstBaseline(report, gated.findings, unchanged.report);
  }
  const explained = baseline !== null && !baseline.blocking;
  const blocking = gate === 'error' || (gate === 'fail' && !explained) || lock?.blocking === true;
  const reasons = reasonsOf(report, policy, lock, explained);
  return {
    base,
    policy,
    contract,
    report,
    gate,
    lock,
    findings: [...gated.findings, ...(lock?.findings ?? [])],
    baseline,
    blocking,
    committable: !blocking && reasons.length === 0,
    reasons,
    contractDigest: contractDigest(base, delta, contract, policy, request.lockMode),
  };
}
