// run_release_gate and prepare_release (TOOLS.md 3.3). The gate, the release checks and the artifacts live in
// src/release; this file takes the arguments, shapes the results, resolves and authorizes the output
// directory (inside the project root, whatever filesystem.allow_external_paths says) and writes on commit.

import path from 'node:path';
import * as v from 'valibot';
import { checkLocalPath } from '../../policy/path-rules.js';
import { isInside } from '../../policy/paths.js';
import { denied } from '../../policy/denial.js';
import type { PolicyResolution } from '../../policy/resolution.js';
import type { ReleaseGateRun, ReleaseRequest } from '../../release/release-gate.js';
import type { ReleaseBundle, ReleaseFile } from '../../release/artifacts.js';
import { ISO_UTC } from '../../release/result.js';
import { defineTool, never, ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';
import { AnyList, AnyObject, StringList } from '../core/result-shapes.js';
import { lazyModule } from '../../util/lazy.js';

// The release machinery (gate, baseline, artifacts, reports) loads with the first release call, not with
// every window.
const release = lazyModule(async () => ({
  gate: await import('../../release/release-gate.js'),
  baseline: await import('../../release/baseline.js'),
  artifacts: await import('../../release/artifacts.js'),
  markdown: await import('../../release/reports/markdown.js'),
}));

/** What `created_at` reads on a preview (run_release_gate, dry runs without `created_at`). */
export const PREVIEW = 'PREVIEW';

/** Inline report texts beyond this are replaced by their size and digest (the committed file has them whole). */
export const MAX_INLINE_CHARS = 256 * 1024;

const PolicyPath = v.optional(
  v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096), v.description('Local policy file; default: discovered.')),
);
const Network = v.optional(v.pipe(v.picklist(['deny', 'allow']), v.description('deny: imports must be local files.')), 'deny');
const LockModeArg = v.optional(v.picklist(['ignore', 'verify', 'required']), 'ignore');
const Baseline = v.optional(
  v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096), v.description("A prior release's manifest.json to diff against.")),
);
const Limit = v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_000)), 50);

/** An ISO-8601 UTC instant naming a real calendar time (Date.parse rolls 02-30 over to March; this does not). */
function createdAtValid(s: string): boolean {
  if (!ISO_UTC.test(s)) return false;
  const at = Date.parse(s);
  return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 19) === s.slice(0, 19);
}

const GateInput = v.strictObject({
  policy_path: PolicyPath,
  network: Network,
  lock_mode: LockModeArg,
  baseline_manifest: Baseline,
  limit: Limit,
});

const PrepareInput = v.strictObject({
  policy_path: PolicyPath,
  network: Network,
  lock_mode: LockModeArg,
  baseline_manifest: Baseline,
  dry_run: v.optional(v.boolean(), true),
  created_at: v.optional(
    v.pipe(v.string(), v.check(createdAtValid, 'created_at must be an ISO-8601 UTC instant such as 2026-01-31T12:00:00Z')),
  ),
  output_dir: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096))),
  limit: Limit,
});

type PrepareArgs = v.InferOutput<typeof PrepareInput>;

const request = (tool: ReleaseRequest['tool'], args: v.InferOutput<typeof GateInput>): ReleaseRequest => ({
  tool,
  policyPath: args.policy_path,
  network: args.network,
  lockMode: args.lock_mode,
  baselineManifest: args.baseline_manifest,
  limit: args.limit,
});

/** The result fields both tools share: the gate's verdict over stages and findings. */
function gateFields(run: ReleaseGateRun) {
  const g = run.result;
  const qcStages = (run.qc.stages ?? []) as JsonObject[];
  return {
    gate: g.gate,
    semantic_fingerprint: g.fingerprints.semantic,
    required_stages: g.required_stages,
    stages: [...qcStages, g.stages.find((s) => s.stage === 'release')!],
    findings: g.findings,
    finding_count: g.finding_count,
    network: g.network,
    lock_mode: g.lock_mode,
  };
}

/** The gate's verdict fields of both tools (run_release_gate adds run_project_qc's report, as listed there). */
const GateOutput = {
  gate: v.string(),
  network: v.string(),
  lock_mode: v.string(),
};

export const runReleaseGateTool = defineTool({
  name: 'run_release_gate',
  description: 'run_project_qc plus release checks (provenance, version IRI, round trip); writes nothing.',
  input: GateInput,
  output: v.object({
    ...GateOutput,
    semantic_fingerprint: v.string(),
    required_stages: StringList,
    stages: AnyList,
    findings: AnyList,
    finding_count: v.number(),
    resolved_imports: AnyList,
    network_caveat: v.optional(AnyObject),
    version_iri: v.nullable(v.string()),
    round_trip: AnyObject,
    baseline: AnyObject,
    created_at: v.string(),
    manifest_preview: AnyObject,
    reports_preview: AnyObject,
  }),
  capabilities: ['ontology:release', 'filesystem:project:read'],
  mutating: never,
  handler: async (args, ctx) => {
    const { gate, baseline, artifacts, markdown } = await release();
    const run = await gate.runReleaseGate(ctx, request('run_release_gate', args));
    const g = run.result;
    return {
      ...run.qc,
      ...gateFields(run),
      resolved_imports: g.resolved_imports,
      ...(g.network_caveat === null ? {} : { network_caveat: g.network_caveat }),
      version_iri: g.ontology.version_iri,
      // TOOLS.md shows round_trip as an object: a gate that did not start says so there too (no format was chosen)
      round_trip: g.round_trip ?? { clean: false, format: null, skipped: true, reason: g.manifest_blocker },
      baseline: baseline.baselineSummary(g.baseline),
      created_at: PREVIEW,
      manifest_preview:
        g.manifest_blocker === null
          ? artifacts.buildRelease(g, PREVIEW).manifest
          : { manifest_available: false, reason: g.manifest_blocker },
      reports_preview: { markdown: markdown.qcMarkdown(g, PREVIEW), formats: ['json', 'markdown', 'junit', 'sarif'] },
    };
  },
});

/** The output directory (real path) inside the project root, authorized for writing. */
async function outputDirectory(ctx: ToolContext, res: PolicyResolution, requested: string | undefined): Promise<string> {
  const root = res.projectRoot!;
  const relative = requested ?? res.policy!.release.output_dir;
  const real = await checkLocalPath(ctx, 'prepare_release', path.resolve(root, relative), 'write', res);
  if (!isInside(root, real)) {
    throw denied(
      `prepare_release: the output directory ${real} is outside the project root ${root}; releases are written inside the project`,
      [],
      { path: real, project_root: root, denied_by: 'release output containment', prepared: false },
    );
  }
  // the release gets a directory of its own: written into the root it could replace the project's own files
  if (real === root) {
    throw new ToolFailure(
      "prepare_release: output_dir is the project root itself; name a directory below it (default: the policy's release.output_dir)",
      'invalid_argument',
      { argument: 'output_dir', prepared: false },
    );
  }
  return real;
}

/** A report inline, or its size and digest when it is larger than the inline bound. */
function inline(f: ReleaseFile): string | JsonObject {
  return f.text.length <= MAX_INLINE_CHARS
    ? f.text
    : { omitted: true, reason: `larger than ${MAX_INLINE_CHARS} characters`, bytes: f.bytes, sha256: f.sha256 };
}

const REPORT_KEYS: Readonly<Record<string, string>> = {
  qc_json: 'json',
  qc_markdown: 'markdown',
  qc_junit: 'junit',
  qc_sarif: 'sarif',
  diff: 'diff',
};

function reports(bundle: ReleaseBundle, asText: boolean): JsonObject {
  const out: JsonObject = {};
  for (const f of bundle.files) {
    const key = REPORT_KEYS[f.role];
    if (key !== undefined) out[key] = asText ? inline(f) : f.path;
  }
  return out;
}

/** A release built: inline on a dry run (reports and RO-Crate), written into output_dir on a commit. */
const PrepareOutput = v.object({
  prepared: v.boolean(),
  ...GateOutput,
  dry_run: v.boolean(),
  created_at: v.string(),
  artifacts: AnyList,
  manifest: AnyObject,
  reports: AnyObject,
  ro_crate: v.optional(v.union([AnyObject, v.string()])),
  output_dir: v.optional(v.string()),
});

async function prepare(args: PrepareArgs, ctx: ToolContext): Promise<v.InferOutput<typeof PrepareOutput>> {
  const { gate, artifacts } = await release();
  const run = await gate.runReleaseGate(ctx, request('prepare_release', args));
  const g = run.result;
  if (g.gate !== 'pass') {
    throw new ToolFailure(
      `prepare_release: the release gate did not pass (gate ${g.gate}); nothing was written`,
      'release_gate_not_passed',
      {
        prepared: false,
        dry_run: args.dry_run,
        ...gateFields(run),
        ...(g.manifest_blocker === null ? {} : { reason: g.manifest_blocker }),
      },
    );
  }
  const outputDir = await outputDirectory(ctx, run.resolution, args.output_dir);
  const createdAt = args.created_at ?? (args.dry_run ? PREVIEW : new Date().toISOString());
  const bundle = artifacts.buildRelease(g, createdAt);
  const common = {
    dry_run: args.dry_run,
    gate: g.gate,
    network: g.network,
    lock_mode: g.lock_mode,
    created_at: createdAt,
    artifacts: bundle.files.map((f) => ({ path: f.path, sha256: f.sha256, bytes: f.bytes })),
    manifest: bundle.manifest,
  };
  if (args.dry_run) {
    const crate = bundle.files.find((f) => f.role === 'ro_crate')!;
    return {
      prepared: false,
      ...common,
      reports: reports(bundle, true),
      ro_crate: crate.text.length <= MAX_INLINE_CHARS ? bundle.roCrate : inline(crate),
    };
  }
  try {
    await artifacts.writeRelease(outputDir, bundle.files);
  } catch (err) {
    if (err instanceof artifacts.ContainmentError) {
      throw denied(`prepare_release: ${err.message}; nothing was written`, [], {
        path: err.target,
        denied_by: 'release output containment',
        prepared: false,
      });
    }
    throw err;
  }
  return { prepared: true, ...common, output_dir: outputDir, reports: reports(bundle, false) };
}

export const prepareRelease = defineTool({
  name: 'prepare_release',
  description: 'On a passing release gate, build the release artifacts; dry_run (default) writes nothing.',
  input: PrepareInput,
  output: PrepareOutput,
  capabilities: ['ontology:release', 'filesystem:project:read', 'filesystem:project:write'],
  mutating: (args) => !args.dry_run,
  destructive: true,
  summary: (args) => `prepare_release: write a release into ${args.output_dir ?? "the policy's release.output_dir"}`,
  refusalContext: { prepared: false },
  handler: prepare,
});
