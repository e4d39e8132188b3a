// The gate that combines QC stages (TOOLS.md 1.11, run_qc_suite, preview_change_set, apply_changes verify):
// every requested or required stage reads the same private snapshot; the gate is the worst ran stage judged
// against `fail_on`, and a required stage that was skipped or failed to run makes it `error` (error wins).
// A project policy's waivers mark the findings they cover, which then no longer count (waivers.ts).

import * as v from 'valibot';
import type { ReasonerInfo } from '../reasoner/registry.js';
import {
  STAGE_IDS,
  type Finding,
  type Gate,
  type QcSnapshot,
  type Severity,
  type StageId,
  type StageOutcome,
  type Verdict,
  type Waiver,
} from './finding.js';
import { identityDigest } from './identity.js';
import { structuralStage } from './stages/structural.js';
import { reasonerStage } from './stages/reasoner.js';
import { profileStage } from './stages/profile.js';
import { governanceStage, type GovernanceOptions } from './stages/governance.js';
import { rulesStage } from './stages/rules.js';
import { interoperabilityStage, type InteroperabilityOptions } from './stages/interoperability.js';
import { shaclStage, type ShaclShapesSource } from './stages/shacl.js';
import { invariantsStage } from './stages/invariants.js';
import { cqsStage } from './stages/cqs.js';
import type { PolicyAssets } from './stages/policy-assets.js';
import type { InvariantSpec } from '../sparql/invariants.js';
import { policyReasonerProblem } from './policy-options.js';
import { waiveOutcome, withExpiredWaivers } from './waivers.js';

/** The known stage names: an unknown one is `invalid_argument` at the tool boundary. */
export const StageIdSchema = v.picklist(STAGE_IDS as [StageId, ...StageId[]]);

export type FailOn = 'none' | 'warn' | 'error';

/** Per-stage configuration a caller may pass (run_qc_suite arguments; defaults otherwise). */
export interface StageOptions {
  /** `profile` stage: DL|EL|QL|RL (`none`/`Full` skip the stage). */
  readonly owlProfile?: string;
  /** `governance` stage (validate_governance arguments). */
  readonly governance?: GovernanceOptions;
  /** `structural` stage: audit imported terms too. */
  readonly includeImports?: boolean;
  /** `interoperability` stage: the formats to round-trip (a project policy's; absent: the stage is skipped). */
  readonly interoperability?: InteroperabilityOptions;
  /** `reasoner` stage: the policy's `reasoning.reasoner`; the window's selection must match it. */
  readonly policyReasoner?: string;
  /** `reasoner` stage: the policy's `reasoning.timeout_ms`, a bound within the run's budget. */
  readonly reasonerTimeoutMs?: number;
  /** `shacl` stage: the caller's shapes or a policy's `shacl.paths` (absent: the stage is skipped). */
  readonly shacl?: ShaclShapesSource | undefined;
  /** `invariants` stage: run_qc_suite's inline invariants. */
  readonly invariants?: readonly InvariantSpec[];
  /** `invariants` stage: a policy's `invariants.paths`. */
  readonly invariantAssets?: PolicyAssets;
  /** `cqs` stage: a policy's `cqs.paths` (the stores beside the snapshot's document are always read). */
  readonly cqAssets?: PolicyAssets;
}

export interface GateInput {
  readonly snapshot: QcSnapshot;
  readonly stages: readonly StageId[];
  /** Always scheduled, and must complete: skipped or errored → `gate:"error"`. */
  readonly required: readonly StageId[];
  /** The window's selected reasoner (there always is one). */
  readonly reasoner: ReasonerInfo;
  /** Budget of the whole run; the reasoner stage gets what is left of it. */
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** Findings sampled per stage in `findings` (counts and digests always cover every finding). */
  readonly limit: number;
  /** Default `error`: a stage verdict `fail` fails the gate; `warn` also fails on verdict `warn`; `none` never fails. */
  readonly failOn?: FailOn;
  readonly options?: StageOptions;
  /** A project policy's waivers (focus IRIs expanded). */
  readonly waivers?: readonly Waiver[];
  /** The clock reading waivers are judged at (ms since the epoch; default: now). */
  readonly now?: number;
}

export interface FindingsSummary {
  readonly total: number;
  readonly error: number;
  readonly warn: number;
  readonly info: number;
  /** A caveat that does not gate (the reasoner stage: SWRL rules ignored by the EL++ classifier). */
  readonly warning?: string;
}

export interface GateStageReport {
  readonly stage: StageId;
  readonly ran: boolean;
  readonly required: boolean;
  readonly status: 'completed' | 'skipped' | 'error';
  readonly verdict?: Verdict;
  readonly reason?: string;
  readonly findings_summary: FindingsSummary;
  readonly identity_digest: string;
  readonly details?: Record<string, unknown>;
}

export interface GateReport {
  readonly gate: Gate;
  readonly fail_on: FailOn;
  readonly stages_ran: readonly StageId[];
  readonly stages_skipped: readonly StageId[];
  readonly required_stages: readonly StageId[];
  readonly stages: readonly GateStageReport[];
  /** At most `limit` findings per stage, in stage order then the stage's own order. */
  readonly findings: readonly Finding[];
  /** Every finding of every ran stage. */
  readonly finding_count: number;
  /** The reasoner stage completed and judged consistency and satisfiability of every named class. */
  readonly satisfiability_checked: boolean;
  /** Why satisfiability was not checked (stage not requested, reasoner failure). */
  readonly satisfiability_note?: string;
  /** Over the complete finding set of every ran stage. */
  readonly identity_digest: string;
  /** Required stages that did not complete (`details.missing_required_stages` of run_project_qc). */
  readonly missing_required_stages?: readonly StageId[];
}

/** What a stage needs besides the snapshot. */
export interface StageContext {
  readonly reasoner: ReasonerInfo;
  /** Absolute time (ms since the epoch) by which the stage must finish. */
  readonly deadline: number;
  readonly signal: AbortSignal;
  readonly options: StageOptions;
}

type StageRunner = (snapshot: QcSnapshot, ctx: StageContext) => StageOutcome | Promise<StageOutcome>;

/** The reasoner stage under a policy: the captured selection must be the policy's reasoner, within its time bound. */
function policyReasonerStage(s: QcSnapshot, ctx: StageContext): StageOutcome | Promise<StageOutcome> {
  const problem = ctx.options.policyReasoner === undefined ? null : policyReasonerProblem(ctx.options.policyReasoner, ctx.reasoner);
  if (problem !== null) return { stage: 'reasoner', status: 'error', reason: problem, findings: [] };
  const bound = ctx.options.reasonerTimeoutMs;
  return reasonerStage(s, bound === undefined ? ctx : { ...ctx, deadline: Math.min(ctx.deadline, Date.now() + bound) });
}

const RUNNERS: Partial<Record<StageId, StageRunner>> = {
  interoperability: (s, ctx) => interoperabilityStage(s, ctx.options.interoperability, ctx.deadline),
  reasoner: policyReasonerStage,
  profile: (s, ctx) => profileStage(s, ctx.options.owlProfile ?? 'DL'),
  structural: (s, ctx) => structuralStage(s, { includeImports: ctx.options.includeImports ?? false, deadline: ctx.deadline }),
  governance: (s, ctx) => governanceStage(s, ctx.options.governance ?? {}),
  rules: (s, ctx) => rulesStage(s, ctx.reasoner),
  shacl: (s, ctx) => shaclStage(s, ctx.options.shacl, ctx.deadline, ctx.signal),
  invariants: (s, ctx) => invariantsStage(s, { ...ctx, inline: ctx.options.invariants, assets: ctx.options.invariantAssets }),
  cqs: (s, ctx) => cqsStage(s, { ...ctx, assets: ctx.options.cqAssets }),
};

/** Why a stage without a runner here cannot run: it needs data only a project policy (or its caller) supplies. */
const UNAVAILABLE: Partial<Record<StageId, string>> = {
  provider_evidence: 'provider_evidence_unavailable',
};

function skipped(stage: StageId, reason: string): StageOutcome {
  return { stage, status: 'skipped', reason, findings: [] };
}

async function runStage(stage: StageId, snapshot: QcSnapshot, ctx: StageContext): Promise<StageOutcome> {
  const runner = RUNNERS[stage];
  if (runner === undefined) return skipped(stage, UNAVAILABLE[stage] ?? 'not available');
  if (ctx.signal.aborted) return { stage, status: 'error', reason: 'cancelled', findings: [] };
  try {
    return await runner(snapshot, ctx);
  } catch (err) {
    return { stage, status: 'error', reason: (err as Error).message, findings: [] };
  }
}

function summarize(outcome: StageOutcome): FindingsSummary {
  const counts: Record<Severity, number> = { error: 0, warn: 0, info: 0 };
  for (const f of outcome.findings) counts[f.severity]++;
  const warning = outcome.details?.warning;
  return { total: outcome.findings.length, ...counts, ...(typeof warning === 'string' ? { warning } : {}) };
}

const VERDICT_RANK: Readonly<Record<Verdict, number>> = { pass: 0, info: 1, warn: 2, fail: 3 };

/** Whether a completed stage's verdict fails the gate under `failOn`. */
export function verdictFails(verdict: Verdict, failOn: FailOn): boolean {
  if (failOn === 'none') return false;
  return VERDICT_RANK[verdict] >= (failOn === 'warn' ? VERDICT_RANK.warn : VERDICT_RANK.fail);
}

/** The gate over stage reports: a required stage not completed, or any errored stage, is `error`; then `fail_on`. */
export function combine(stages: readonly GateStageReport[], failOn: FailOn): Gate {
  let gate: Gate = 'pass';
  for (const s of stages) {
    if (s.status === 'error' || (s.required && s.status !== 'completed')) return 'error';
    if (s.status === 'completed' && verdictFails(s.verdict ?? 'pass', failOn)) gate = 'fail';
  }
  return gate;
}

function satisfiability(stages: readonly GateStageReport[]): { checked: boolean; note?: string } {
  const r = stages.find((s) => s.stage === 'reasoner');
  if (r === undefined) return { checked: false, note: 'the reasoner stage was not requested' };
  if (r.status === 'completed') return { checked: true };
  return { checked: false, note: `reasoner failure: ${r.reason ?? 'unknown error'}` };
}

/** Stages in the canonical order of STAGE_IDS, each once: requested ∪ required. */
function schedule(stages: readonly StageId[], required: readonly StageId[]): StageId[] {
  const wanted = new Set<StageId>([...stages, ...required]);
  return STAGE_IDS.filter((s) => wanted.has(s));
}

/** Runs the stages in order over one snapshot and combines them into the gate. */
export async function runGate(input: GateInput): Promise<GateReport> {
  const failOn = input.failOn ?? 'error';
  const required = new Set(input.required);
  const ctx: StageContext = {
    reasoner: input.reasoner,
    deadline: Date.now() + input.timeoutMs,
    signal: input.signal,
    options: input.options ?? {},
  };
  const waivers = input.waivers ?? [];
  const now = input.now ?? Date.now();
  const reports: GateStageReport[] = [];
  const findings: Finding[] = [];
  const all: Finding[] = [];
  for (const stage of schedule(input.stages, input.required)) {
    const run = waiveOutcome(await runStage(stage, input.snapshot, ctx), waivers, now);
    const outcome = stage === 'governance' ? withExpiredWaivers(run, waivers, now) : run;
    const ran = outcome.status === 'completed';
    if (ran) {
      for (const f of outcome.findings) all.push(f);
      for (const f of outcome.findings.slice(0, input.limit)) findings.push(f);
    }
    reports.push({
      stage,
      ran,
      required: required.has(stage),
      status: outcome.status,
      ...(outcome.verdict !== undefined ? { verdict: outcome.verdict } : {}),
      ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}),
      findings_summary: summarize(outcome),
      identity_digest: identityDigest(outcome.findings),
      ...(outcome.details !== undefined ? { details: outcome.details } : {}),
    });
  }
  const missing = reports.filter((r) => r.required && r.status !== 'completed').map((r) => r.stage);
  const sat = satisfiability(reports);
  return {
    gate: combine(reports, failOn),
    fail_on: failOn,
    stages_ran: reports.filter((r) => r.ran).map((r) => r.stage),
    stages_skipped: reports.filter((r) => r.status === 'skipped').map((r) => r.stage),
    required_stages: STAGE_IDS.filter((s) => required.has(s)),
    stages: reports,
    findings,
    finding_count: all.length,
    satisfiability_checked: sat.checked,
    ...(sat.note !== undefined ? { satisfiability_note: sat.note } : {}),
    identity_digest: identityDigest(all),
    ...(missing.length > 0 ? { missing_required_stages: missing } : {}),
  };
}
