// The strict policy gate report shared by run_project_qc and run_qc_suite with `policy_path` (TOOLS.md 3.3):
// one captured revision, every stage reading one private snapshot, the stages the policy requires (the same
// assembly as the change-set preflight), the §1.8 import-lock rule, and the fingerprints identifying exactly
// what was judged. Without a valid policy validation cannot start: the report says why in `errors`.

import type { Ontology } from '../model/ontology.js';
import type { Workspace } from '../model/workspace.js';
import { semanticFingerprint, fingerprintStability } from '../model/fingerprint.js';
import type { ReasonerInfo } from '../reasoner/registry.js';
import { resolvePolicy } from '../policy/resolve.js';
import type { PolicyIssue, PolicyResolution } from '../policy/resolution.js';
import type { EffectivePolicy } from '../policy/schema.js';
import { localDocumentOf } from '../policy/paths.js';
import type { ImportLockVerification, LockMode } from '../imports/lock-mode.js';
import { DomainError } from '../util/errors.js';
import type { JsonObject } from '../util/json-object.js';
import type { CallContext } from '../window/call-context.js';
import { revisionEnvelope } from '../model/revision.js';
import { resolvedAssets } from '../policy/assets.js';
import { captureSnapshot } from './snapshot.js';
import { runGate, type GateReport, type GateStageReport } from './gate.js';
import type { Finding, Gate, QcSnapshot, StageId } from './finding.js';
import { budget, DEFAULT_PREFLIGHT_TIMEOUT_MS, policyStages, verifyLock } from './preflight.js';
import { policyReasonerProblem } from './policy-options.js';
import { rdfDatasetFingerprint, type DatasetFingerprint } from './dataset-fingerprint.js';
import { sha256Digest } from '../util/digest.js';

export type QcSurface = 'run_project_qc' | 'run_qc_suite';

export interface ProjectQcRequest {
  readonly surface: QcSurface;
  readonly policyPath?: string | undefined;
  /** Findings sampled per stage (counts and digests cover every finding). */
  readonly limit: number;
  readonly lockMode: LockMode;
  /** Stages the caller adds as required (run_qc_suite `stages`/`required_stages`); they never relax the policy. */
  readonly extraRequired?: readonly StageId[];
  /** The caller's budget for the whole run (expiry: `timeout` failure); absent: see runBudget. */
  readonly timeoutMs?: number | undefined;
}

/**
 * Stages this build has no engine for: they are skipped with this reason, and a required one makes the
 * gate `error` (every stage has its engine now).
 */
export const NO_ENGINE: Readonly<Partial<Record<StageId, string>>> = {};

/** `stages` with the skip reason of each engine-less stage replaced by the precise one. */
export function withEngineReasons(stages: readonly GateStageReport[]): GateStageReport[] {
  return stages.map((s) => {
    const reason = NO_ENGINE[s.stage];
    return s.status === 'skipped' && reason !== undefined ? { ...s, reason } : s;
  });
}

/** `{selected_id, selected_name}` of the captured selection, and how it compares with the policy's reasoner (§1.10). */
export function reasonerRow(selected: ReasonerInfo, policy: EffectivePolicy | null): JsonObject {
  const row: JsonObject = { selected_id: selected.id, selected_name: selected.name };
  if (policy === null) return row;
  const reference = policy.reasoning.reasoner ?? null;
  const problem = reference === null ? null : policyReasonerProblem(reference, selected);
  return {
    ...row,
    policy_reasoner: reference,
    required: policy.reasoning.required,
    matches_policy: reference === null ? null : problem === null,
    ...(problem === null ? {} : { problem }),
  };
}

/**
 * Digest over the semantic fingerprints of the imports closure, root first; null when a declared import is
 * not loaded (the closure that was judged is then not the one the ontology declares).
 */
export function closureFingerprint(ws: Workspace, closure: readonly Ontology[], rootFingerprint: string): string | null {
  for (const member of closure) for (const iri of member.imports) if (ws.find(iri) === undefined) return null;
  const parts = closure.map((o, i) => (i === 0 ? rootFingerprint : semanticFingerprint(o)));
  return sha256Digest(JSON.stringify(parts));
}

/** A stage row as results show it: the reasoner stage's configuration lifted beside its status. */
function stageRow(s: GateStageReport): JsonObject {
  const configuration = s.stage === 'reasoner' ? s.details?.reasoner_configuration : undefined;
  return configuration === undefined ? { ...s } : { ...s, reasoner_configuration: configuration };
}

/** What the caller learns about the content judged, whether or not validation ran. */
export interface ContentFacts {
  readonly semanticFingerprint: string;
  readonly stability: 'stable' | 'session_only';
  readonly stabilityWarnings: readonly string[];
  readonly dirty: boolean;
  readonly reasoner: JsonObject;
}

const issueRow = (i: PolicyIssue): JsonObject => ({
  severity: i.severity,
  code: i.code,
  ...(i.path === undefined ? {} : { path: i.path }),
  message: i.message,
});

/** Why validation cannot start under `res` (no policy, or one that does not validate). */
export function startErrors(res: PolicyResolution, document: string | null): JsonObject[] {
  if (res.loaded) {
    return [
      {
        severity: 'error',
        code: 'policy_invalid',
        message: `The project policy ${res.file ?? ''} does not validate (${res.errors.length} error${res.errors.length === 1 ? '' : 's'}); see validate_project_policy`,
      },
      ...res.errors.map(issueRow),
    ];
  }
  const where =
    document === null
      ? 'the active ontology has no local document to discover one from'
      : `no .athene/project.yaml was found at or above ${document}`;
  return [
    {
      severity: 'error',
      code: 'policy_not_found',
      message: `No project policy governs this call: no policy_path was given and ${where}. Write one with write_project_policy_template.`,
    },
  ];
}

/** The report when validation cannot start: gate `error`, nothing ran, `errors` says why. */
export function notStartedReport(
  surface: QcSurface,
  res: PolicyResolution,
  facts: ContentFacts,
  errors: readonly JsonObject[],
): JsonObject {
  return {
    gate: 'error',
    surface,
    policy_loaded: res.loaded,
    policy_version: null,
    policy_digest: null,
    project_id: null,
    policy_path: res.file,
    project_root: res.projectRoot,
    semantic_fingerprint: facts.semanticFingerprint,
    rdf_dataset_fingerprint: null,
    rdf_dataset_identity: null,
    fingerprint_stability: facts.stability,
    release_stable: false,
    fingerprint_warnings: [...facts.stabilityWarnings, 'validation did not start: no RDF dataset fingerprint was computed'],
    reasoner: facts.reasoner,
    required_stages: [],
    stages_ran: [],
    stages_skipped: [],
    fail_on: null,
    stages: [],
    details: { fail_on: null },
    findings: [],
    finding_count: 0,
    artifacts: [],
    snapshot_consistent: true,
    validation_snapshot: {
      mode: 'none',
      same_snapshot: false,
      semantic_fingerprint: facts.semanticFingerprint,
      closure_fingerprint: null,
      stages: [],
    },
    resolved_assets: null,
    import_lock_verification: null,
    errors,
  };
}

/** Everything one strict run produced, for the report. */
export interface StrictRun {
  readonly surface: QcSurface;
  readonly res: PolicyResolution;
  readonly policy: EffectivePolicy;
  readonly report: GateReport;
  readonly lock: ImportLockVerification | null;
  readonly dataset: DatasetFingerprint;
  readonly facts: ContentFacts;
  readonly closureFingerprint: string | null;
  /** The live revision was still the captured one when the run ended. */
  readonly consistent: boolean;
  readonly limit: number;
  readonly resolvedAssets: JsonObject | null;
}

/** The gate with a blocking import-lock verification folded in: a completed violation (`fail`), never hiding `error`. */
export function gateWithLock(gate: Gate, lock: ImportLockVerification | null): Gate {
  return gate === 'pass' && lock?.blocking === true ? 'fail' : gate;
}

function fingerprintWarnings(run: StrictRun): string[] {
  const out = [...run.facts.stabilityWarnings];
  if (!run.dataset.ok) out.push(run.dataset.reason);
  if (run.facts.dirty)
    out.push('the active ontology has unsaved changes: the fingerprints describe the in-memory content, not the saved root artifact');
  if (!run.consistent)
    out.push('the workspace changed while the gate ran: the fingerprints and verdict describe the captured revision only');
  return out;
}

/** The strict report (TOOLS.md run_project_qc result fields). */
export function strictReport(run: StrictRun): JsonObject {
  const { report, policy, res, lock } = run;
  const stages = withEngineReasons(report.stages);
  const lockFindings: readonly Finding[] = (lock?.findings ?? []).slice(0, run.limit);
  return {
    gate: gateWithLock(report.gate, lock),
    surface: run.surface,
    policy_loaded: true,
    policy_version: policy.version,
    policy_digest: res.digest,
    project_id: policy.project_id,
    policy_path: res.file,
    project_root: res.projectRoot,
    semantic_fingerprint: run.facts.semanticFingerprint,
    rdf_dataset_fingerprint: run.dataset.ok ? run.dataset.fingerprint : null,
    rdf_dataset_identity: run.dataset.ok ? run.dataset.identity : null,
    fingerprint_stability: run.facts.stability,
    release_stable: run.facts.stability === 'stable' && run.dataset.ok && run.consistent,
    fingerprint_warnings: fingerprintWarnings(run),
    reasoner: run.facts.reasoner,
    required_stages: report.required_stages,
    stages_ran: report.stages_ran,
    stages_skipped: report.stages_skipped,
    fail_on: report.fail_on,
    stages: stages.map(stageRow),
    details: {
      fail_on: report.fail_on,
      ...(report.missing_required_stages === undefined ? {} : { missing_required_stages: report.missing_required_stages }),
    },
    findings: [...report.findings, ...lockFindings],
    finding_count: report.finding_count + (lock?.findings.length ?? 0),
    identity_digest: report.identity_digest,
    // A QC run writes nothing; release files are built by prepare_release.
    artifacts: [],
    snapshot_consistent: run.consistent,
    validation_snapshot: {
      mode: 'isolated',
      same_snapshot: true,
      semantic_fingerprint: run.facts.semanticFingerprint,
      closure_fingerprint: run.closureFingerprint,
      stages: report.stages_ran,
    },
    resolved_assets: run.resolvedAssets,
    import_lock_verification: lock,
    errors: [],
  };
}

function timeoutFailure(surface: QcSurface, timeoutMs: number): DomainError {
  return new DomainError(`${surface} did not finish within ${timeoutMs} ms`, 'timeout', { timeout_ms: timeoutMs, retryable: true });
}

/**
 * Without a caller budget the reasoner stage is bounded by `reasoning.timeout_ms` alone, so a classification
 * timeout is the gate `error` the policy contract names (not a failed call); the other stages get the
 * preflight's default budget on top.
 */
function runBudget(policy: EffectivePolicy): number {
  return policy.reasoning.timeout_ms + DEFAULT_PREFLIGHT_TIMEOUT_MS;
}

/** One strict run with the snapshot it judged (the release gate checks that same snapshot), or the report of why it could not start. */
export type ProjectQcExecution =
  | { readonly started: false; readonly report: JsonObject; readonly res: PolicyResolution }
  | { readonly started: true; readonly run: StrictRun; readonly snapshot: QcSnapshot };

/** Runs the strict policy gate over the current revision (TOOLS.md run_project_qc). */
export async function runProjectQc(ctx: CallContext, request: ProjectQcRequest): Promise<JsonObject> {
  const execution = await executeProjectQc(ctx, request);
  return execution.started ? strictReport(execution.run) : execution.report;
}

/** The strict gate's run over the current revision, before it is shaped into a report. */
export async function executeProjectQc(ctx: CallContext, request: ProjectQcRequest): Promise<ProjectQcExecution> {
  const res = await resolvePolicy(ctx, request.policyPath);
  const ws = ctx.workspace;
  const selected = ctx.window.reasoning.selected;
  const effective = res.valid ? res.policy : null;
  const base = revisionEnvelope(ws);
  const { stability, warnings } = fingerprintStability(ws.active);
  const facts: ContentFacts = {
    semanticFingerprint: base.semantic_fingerprint,
    stability,
    stabilityWarnings: warnings,
    dirty: ws.isDirty(ws.active),
    reasoner: reasonerRow(selected, effective),
  };
  if (effective === null)
    return { started: false, res, report: notStartedReport(request.surface, res, facts, startErrors(res, localDocumentOf(ws.active))) };
  const contract = policyStages(effective, res.projectRoot, request.extraRequired);
  const timeoutMs = request.timeoutMs ?? runBudget(effective);
  const snapshot = captureSnapshot(ctx.window, [], ctx.settings.label_language);
  const closure = closureFingerprint(ws, snapshot.closure, base.semantic_fingerprint);
  const { signal, expired } = budget(ctx, timeoutMs);
  const lock = await verifyLock(ctx, res, request.lockMode);
  const report = await runGate({
    snapshot,
    stages: contract.stages,
    required: contract.required,
    reasoner: selected,
    timeoutMs,
    signal,
    limit: request.limit,
    failOn: contract.failOn,
    options: contract.options,
    waivers: contract.waivers,
  });
  const dataset = await rdfDatasetFingerprint(snapshot.ontology, effective.interoperability.owl_profile, signal);
  if (expired()) throw timeoutFailure(request.surface, timeoutMs);
  const current = revisionEnvelope(ws);
  const run: StrictRun = {
    surface: request.surface,
    res,
    policy: effective,
    report,
    lock,
    dataset,
    facts,
    closureFingerprint: closure,
    consistent: current.workspace_id === base.workspace_id && current.session_revision === base.session_revision,
    limit: request.limit,
    resolvedAssets: res.projectRoot === null ? null : await resolvedAssets(effective, res.projectRoot),
  };
  return { started: true, run, snapshot };
}
