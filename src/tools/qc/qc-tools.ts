// run_project_qc and run_qc_suite (TOOLS.md 3.3): the strict policy gate (src/qc/project-qc.ts), and
// run_qc_suite's legacy branch: the caller's stages over one isolated snapshot, judged against `fail_on`,
// with the governance options of validate_governance, the caller's SHACL shapes and SPARQL invariants
// (competency questions come from the active ontology's stores). A stage without data is skipped with the
// reason; a required one makes the gate `error`.

import * as v from 'valibot';
import { duplicateId, invariantSpec, type InvariantSpec } from '../../sparql/invariants.js';
import { OWL_PROFILES } from '../../model/profiles/report.js';
import { SKIPPING_PROFILES } from '../../qc/stages/profile.js';
import { compileIriPattern, type GovernanceOptions } from '../../qc/stages/governance.js';
import { runGate, StageIdSchema, type FailOn, type GateReport } from '../../qc/gate.js';
import type { StageId } from '../../qc/finding.js';
import { captureSnapshot } from '../../qc/snapshot.js';
import { budget } from '../../qc/preflight.js';
import { runProjectQc, withEngineReasons } from '../../qc/project-qc.js';
import { resolvePolicy } from '../../policy/resolve.js';
import { checkLocalPath } from '../../policy/path-rules.js';
import { urlScheme } from '../../policy/paths.js';
import { inlineShapes, readShapesFile } from '../../shacl/shapes.js';
import type { ShaclShapesSource } from '../../qc/stages/shacl.js';
import { defineTool, never, ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';

const PolicyPath = v.optional(
  v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096), v.description('Local policy file; default: discovered.')),
);

const LockModeArg = v.optional(v.picklist(['ignore', 'verify', 'required']), 'ignore');

/** Samples per stage, 0–10000 (TOOLS.md run_project_qc; run_qc_suite gives no range and shares this one). */
const Limit = v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_000)), 25);

export const runProjectQcTool = defineTool({
  name: 'run_project_qc',
  description: 'Strict project-policy QC gate over one captured revision.',
  input: v.strictObject({ policy_path: PolicyPath, limit: Limit, lock_mode: LockModeArg }),
  capabilities: ['ontology:read', 'filesystem:project:read'],
  mutating: never,
  handler: (args, ctx) =>
    runProjectQc(ctx, { surface: 'run_project_qc', policyPath: args.policy_path, limit: args.limit, lockMode: args.lock_mode }),
});

const PROFILE_VALUES = [...OWL_PROFILES, ...SKIPPING_PROFILES] as [string, ...string[]];

const DEFAULT_STAGES: readonly StageId[] = ['reasoner', 'profile', 'structural'];
const DEFAULT_TIMEOUT_MS = 120_000;

const Invariant = v.strictObject({
  sparql: v.pipe(v.string(), v.nonEmpty()),
  id: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(200))),
  message: v.optional(v.string()),
  severity: v.optional(v.picklist(['error', 'warn', 'info'])),
  include_inferred: v.optional(v.boolean()),
});

const NonEmptyStrings = v.array(v.pipe(v.string(), v.nonEmpty()));

const SuiteInput = v.strictObject({
  // Stage lists without schema defaults, so a policy run can tell what the caller actually asked for.
  stages: v.optional(v.pipe(v.array(StageIdSchema), v.maxLength(16), v.description('Default: reasoner, profile, structural.'))),
  required_stages: v.optional(v.pipe(v.array(StageIdSchema), v.maxLength(16))),
  error_on_missing_required: v.optional(v.pipe(v.boolean(), v.description('Requested stages become required.')), false),
  policy_path: PolicyPath,
  owl_profile: v.optional(v.picklist(PROFILE_VALUES, `owl_profile must be one of ${PROFILE_VALUES.join(', ')}`)),
  // TOOLS.md gives no bound on the invariant list; 1000 keeps one request bounded.
  invariants: v.optional(v.pipe(v.array(Invariant), v.maxLength(1000), v.description("As verify_ontology's queries."))),
  shacl_shapes: v.optional(v.pipe(v.string(), v.nonEmpty(), v.description('Turtle.'))),
  shacl_shapes_path: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096))),
  required_namespaces: v.optional(NonEmptyStrings),
  iri_pattern: v.optional(v.string()),
  required_annotations: v.optional(NonEmptyStrings),
  check_ownership: v.optional(v.boolean()),
  fail_on: v.optional(v.pipe(v.picklist(['none', 'warn', 'error']), v.description('Default error.'))),
  limit: Limit,
  timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3_600_000))),
  lock_mode: LockModeArg,
});

type SuiteArgs = v.InferOutput<typeof SuiteInput>;

/** Arguments a project policy decides; with `policy_path` they would be silently overridden, so they are refused. */
const POLICY_DECIDED = [
  'owl_profile',
  'invariants',
  'shacl_shapes',
  'shacl_shapes_path',
  'required_namespaces',
  'iri_pattern',
  'required_annotations',
  'check_ownership',
  'fail_on',
] as const satisfies readonly (keyof SuiteArgs)[];

/** A legacy stage row (TOOLS.md run_qc_suite): `{stage, ran, verdict?, findings_summary?, reason?}`. */
export function legacyReport(report: GateReport): JsonObject {
  return {
    gate: report.gate,
    fail_on: report.fail_on,
    stages_ran: report.stages_ran,
    stages: withEngineReasons(report.stages).map((s) => ({
      stage: s.stage,
      ran: s.ran,
      ...(s.verdict === undefined ? {} : { verdict: s.verdict }),
      ...(s.ran ? { findings_summary: s.findings_summary } : {}),
      ...(s.reason === undefined ? {} : { reason: s.reason }),
    })),
    // `limit` samples findings per stage; without them the caller could not see what failed the gate.
    findings: report.findings,
    finding_count: report.finding_count,
    identity_digest: report.identity_digest,
  };
}

/** The shacl stage's shapes: inline Turtle, or a local file authorized as a caller-selected read (URLs refused). */
async function legacyShapes(ctx: ToolContext, args: SuiteArgs): Promise<ShaclShapesSource | undefined> {
  if (args.shacl_shapes !== undefined) return { kind: 'documents', documents: [inlineShapes(args.shacl_shapes, 'shacl_shapes')] };
  const file = args.shacl_shapes_path;
  if (file === undefined) return undefined;
  if (urlScheme(file) !== null)
    throw new ToolFailure('shacl_shapes_path must be a local file path (URLs are refused)', 'invalid_argument', {
      argument: 'shacl_shapes_path',
    });
  const absolute = await checkLocalPath(ctx, 'run_qc_suite', file, 'read', await resolvePolicy(ctx));
  return { kind: 'documents', documents: [await readShapesFile(absolute, 'shacl_shapes_path')] };
}

/** The governance stage's options (validate_governance arguments and defaults). */
function legacyGovernance(args: SuiteArgs): GovernanceOptions {
  if (args.iri_pattern !== undefined) {
    try {
      compileIriPattern(args.iri_pattern);
    } catch (e) {
      throw new ToolFailure((e as Error).message, 'invalid_argument', { argument: 'iri_pattern' });
    }
  }
  return {
    required_namespaces: args.required_namespaces,
    iri_pattern: args.iri_pattern,
    required_annotations: args.required_annotations,
    check_ownership: args.check_ownership ?? true,
    include_imports: false,
  };
}

/** The inline invariants with verify_ontology's defaults; ids must be unique, as there. */
function legacyInvariants(args: SuiteArgs): InvariantSpec[] | undefined {
  const specs = args.invariants?.map(invariantSpec);
  const duplicate = specs === undefined ? undefined : duplicateId(specs);
  if (duplicate !== undefined)
    throw new ToolFailure(`Two invariants share the id '${duplicate}'`, 'invalid_argument', { argument: 'invariants' });
  return specs;
}

async function legacySuite(args: SuiteArgs, ctx: ToolContext): Promise<JsonObject> {
  if (args.lock_mode !== 'ignore') {
    throw new ToolFailure(
      `lock_mode=${args.lock_mode} is honoured only with policy_path (the inline run_qc_suite branch has no lockfile contract)`,
      'invalid_argument',
      { argument: 'lock_mode' },
    );
  }
  if (args.shacl_shapes !== undefined && args.shacl_shapes_path !== undefined) {
    throw new ToolFailure('give at most one of shacl_shapes and shacl_shapes_path', 'invalid_argument', { argument: 'shacl_shapes_path' });
  }
  const governance = legacyGovernance(args);
  const invariants = legacyInvariants(args);
  const shacl = await legacyShapes(ctx, args);
  // Invariants or shapes given are a request to check them: the stage is scheduled (and reports why it cannot run).
  const stages = [
    ...(args.stages ?? DEFAULT_STAGES),
    ...(args.invariants === undefined ? [] : ['invariants' as const]),
    ...(args.shacl_shapes === undefined && args.shacl_shapes_path === undefined ? [] : ['shacl' as const]),
  ];
  const required = [...(args.required_stages ?? []), ...(args.error_on_missing_required ? stages : [])];
  const timeoutMs = args.timeout_ms ?? DEFAULT_TIMEOUT_MS;
  const snapshot = captureSnapshot(ctx.window, [], ctx.settings.label_language);
  const { signal, expired } = budget(ctx, timeoutMs);
  const report = await runGate({
    snapshot,
    stages,
    required,
    reasoner: ctx.window.reasoning.selected,
    timeoutMs,
    signal,
    limit: args.limit,
    failOn: (args.fail_on ?? 'error') as FailOn,
    options: {
      owlProfile: args.owl_profile ?? 'DL',
      governance,
      includeImports: false,
      shacl,
      ...(invariants === undefined ? {} : { invariants }),
    },
  });
  if (expired())
    throw new ToolFailure(`run_qc_suite did not finish within ${timeoutMs} ms`, 'timeout', { timeout_ms: timeoutMs, retryable: true });
  return legacyReport(report);
}

export const runQcSuite = defineTool({
  name: 'run_qc_suite',
  description: 'Aggregate QC gate over one snapshot; with policy_path the strict run_project_qc.',
  input: SuiteInput,
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (args, ctx) => {
    if (args.policy_path === undefined) return legacySuite(args, ctx);
    const overridden = POLICY_DECIDED.filter((k) => args[k] !== undefined);
    if (overridden.length > 0) {
      throw new ToolFailure(`${overridden.join(', ')}: decided by the project policy; omit with policy_path`, 'invalid_argument', {
        argument: overridden[0],
        arguments: overridden,
      });
    }
    return runProjectQc(ctx, {
      surface: 'run_qc_suite',
      policyPath: args.policy_path,
      limit: args.limit,
      lockMode: args.lock_mode,
      extraRequired: [...(args.stages ?? []), ...(args.required_stages ?? [])],
      timeoutMs: args.timeout_ms,
    });
  },
});
