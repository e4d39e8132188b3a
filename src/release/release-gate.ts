// run_release_gate (TOOLS.md 3.3): the full run_project_qc gate over one captured snapshot, then the release
// checks on that same snapshot — import provenance, version IRI, the verified round trip in `release.format`,
// fingerprint stability, an unchanged workspace, the optional baseline and the license — as the synthetic
// required `release` stage. Nothing is written and nothing is fetched. The result is plain data
// (ReleaseGateResult) that every report and the manifest are pure functions of.

import type { Ontology } from '../model/ontology.js';
import type { Finding, Gate } from '../qc/finding.js';
import { executeProjectQc, gateWithLock, strictReport, withEngineReasons, type StrictRun } from '../qc/project-qc.js';
import type { LockMode } from '../imports/lock-mode.js';
import type { PolicyResolution } from '../policy/resolution.js';
import type { JsonObject } from '../util/json-object.js';
import type { CallContext } from '../window/call-context.js';
import { releaseFinding, releaseStage, skippedReleaseStage, type ReleaseFinding, type ReportFinding } from './finding.js';
import { checkProvenance, projectRelative, type NetworkMode } from './provenance.js';
import { FORMAT_FILES, releaseSerialization } from './serialization.js';
import { checkBaseline, NOT_COMPARED } from './baseline.js';
import { ontologyMetadata } from './metadata.js';
import type { ReleaseGateResult } from './result.js';

export interface ReleaseRequest {
  readonly tool: 'run_release_gate' | 'prepare_release';
  readonly policyPath?: string | undefined;
  readonly network: NetworkMode;
  readonly lockMode: LockMode;
  readonly baselineManifest?: string | undefined;
  /** Findings sampled per stage (0–10000). */
  readonly limit: number;
}

export interface ReleaseGateRun {
  readonly result: ReleaseGateResult;
  /** The run_project_qc report of the same run (the tool result extends it). */
  readonly qc: JsonObject;
  /** The policy the run was judged under (prepare_release resolves its output directory against it). */
  readonly resolution: PolicyResolution;
}

const GENERATOR_NAME = 'Athene';

function generator(ctx: CallContext): ReleaseGateResult['generator'] {
  return { name: GENERATOR_NAME, version: ctx.session?.serverInfo.version ?? null };
}

/** The worse of two gates (error > fail > pass). */
const worse = (a: Gate, b: Gate): Gate => (a === 'error' || b === 'error' ? 'error' : a === 'fail' || b === 'fail' ? 'fail' : 'pass');

/** What the release stage contributes: errors always fail (they are the policy's release contract); a warning only under `fail_on: warn`. */
function releaseGate(findings: readonly ReleaseFinding[], failOn: string): Gate {
  if (findings.some((f) => f.severity === 'error')) return 'fail';
  return failOn === 'warn' && findings.length > 0 ? 'fail' : 'pass';
}

/** A finding as release results show it: its file path project-relative. */
const relativeFinding = <F extends ReportFinding>(root: string | null, f: F): F =>
  f.path === null ? f : { ...f, path: projectRelative(root, f.path) };

function notStarted(ctx: CallContext, request: ReleaseRequest, qc: JsonObject, resolution: PolicyResolution, o: Ontology): ReleaseGateRun {
  const meta = ontologyMetadata(o);
  const stage = skippedReleaseStage('validation did not start (no valid project policy): the release checks need one');
  const result: ReleaseGateResult = {
    gate: 'error',
    started: false,
    generator: generator(ctx),
    project_id: null,
    policy_digest: null,
    ontology: { iri: o.id.iri, version_iri: o.id.versionIri, ...meta },
    fingerprints: { semantic: String(qc.semantic_fingerprint), rdf_dataset: null, closure: null, qc_identity: null },
    rdf_dataset_identity: null,
    fail_on: null,
    required_stages: ['release'],
    stages: [stage],
    findings: [],
    finding_count: 0,
    network: request.network,
    lock_mode: request.lockMode,
    resolved_imports: [],
    network_caveat: null,
    round_trip: null,
    serialization: null,
    baseline: NOT_COMPARED,
    manifest_blocker: 'validation did not start: no valid project policy governs this ontology',
  };
  return { result, qc, resolution };
}

/** Why the content cannot be identified for a release (session-only or missing fingerprints), or null. */
function instability(run: StrictRun): string | null {
  if (run.facts.stability === 'session_only') return run.facts.stabilityWarnings[0] ?? 'the fingerprints hold for this session only';
  return run.dataset.ok ? null : run.dataset.reason;
}

/** The release stage's own checks that need neither the file system nor a writer. */
function contentFindings(run: StrictRun, o: Ontology, licensed: boolean): ReleaseFinding[] {
  const out: ReleaseFinding[] = [];
  const focus = o.id.iri;
  if (run.policy.release.require_version_iri && o.id.versionIri === null) {
    out.push(
      releaseFinding(
        'release.version_iri_missing',
        'error',
        'The ontology has no version IRI and the policy requires one (release.require_version_iri); set it with set_ontology_id',
        focus,
        'version_iri',
      ),
    );
  }
  const unstable = instability(run);
  if (unstable !== null)
    out.push(
      releaseFinding(
        'release.fingerprint_unstable',
        'error',
        `The content has no stable fingerprint, so no manifest can identify it: ${unstable}`,
        focus,
        'fingerprint',
      ),
    );
  if (!run.consistent)
    out.push(
      releaseFinding(
        'release.snapshot_changed',
        'error',
        'The workspace changed while the gate ran: the verdict describes the captured revision only; run the gate again',
        focus,
        'snapshot',
      ),
    );
  if (!licensed) {
    out.push(
      releaseFinding(
        'release.license_unavailable',
        'warn',
        'The ontology states no license (dcterms:license or an equivalent ontology annotation): the RO-Crate has none to declare',
        focus,
        'license',
      ),
    );
  }
  return out;
}

function blocker(gate: Gate, run: StrictRun, serialized: boolean): string | null {
  const unstable = instability(run);
  if (unstable !== null) return `fingerprint stability is session-only or unknown: ${unstable}`;
  if (!run.consistent) return 'the workspace changed while the gate ran';
  if (!serialized) return `the ontology cannot be serialized as ${run.policy.release.format}`;
  return gate === 'pass' ? null : `the release gate did not pass (gate ${gate})`;
}

/** Runs the release gate over the current revision. */
export async function runReleaseGate(ctx: CallContext, request: ReleaseRequest): Promise<ReleaseGateRun> {
  const execution = await executeProjectQc(ctx, {
    surface: 'run_project_qc',
    policyPath: request.policyPath,
    limit: request.limit,
    lockMode: request.lockMode,
  });
  if (!execution.started) return notStarted(ctx, request, execution.report, execution.res, ctx.workspace.active);
  const { run, snapshot } = execution;
  const { res, policy, report } = run;
  const o = snapshot.ontology;
  const root = res.projectRoot;
  const meta = ontologyMetadata(o);
  const provenance = await checkProvenance(ctx, request.tool, o, (iri) => ctx.workspace.find(iri), res, request.network);
  const serialization = await releaseSerialization(o, policy.release.format, policy.release.require_clean_round_trip);
  const baseline = await checkBaseline(ctx, request.tool, request.baselineManifest, res, o);
  const release = [
    ...provenance.findings,
    ...contentFindings(run, o, meta.license !== null),
    ...serialization.findings,
    ...baseline.findings,
  ].map((f) => relativeFinding(root, f));
  const qcGate = gateWithLock(report.gate, run.lock);
  const gate = worse(qcGate, releaseGate(release, report.fail_on));
  const qcFindings: readonly Finding[] = [...report.findings, ...(run.lock?.findings ?? []).slice(0, run.limit)];
  const files = FORMAT_FILES[policy.release.format];
  const result: ReleaseGateResult = {
    gate,
    started: true,
    generator: generator(ctx),
    project_id: policy.project_id,
    policy_digest: res.digest,
    ontology: { iri: o.id.iri, version_iri: o.id.versionIri, ...meta },
    fingerprints: {
      semantic: run.facts.semanticFingerprint,
      rdf_dataset: run.dataset.ok ? run.dataset.fingerprint : null,
      closure: run.closureFingerprint,
      qc_identity: report.identity_digest,
    },
    rdf_dataset_identity: run.dataset.ok ? run.dataset.identity : null,
    fail_on: report.fail_on,
    required_stages: [...report.required_stages, 'release'],
    stages: [...withEngineReasons(report.stages), releaseStage(release)],
    findings: [...qcFindings.map((f) => relativeFinding(root, f)), ...release.slice(0, request.limit)],
    finding_count: report.finding_count + (run.lock?.findings.length ?? 0) + release.length,
    network: request.network,
    lock_mode: request.lockMode,
    resolved_imports: provenance.resolved_imports,
    network_caveat: provenance.network_caveat,
    round_trip: serialization.round_trip,
    serialization:
      serialization.text === null
        ? null
        : {
            path: `${policy.project_id}.${files.extension}`,
            format: policy.release.format,
            media_type: files.mediaType,
            text: serialization.text,
          },
    baseline: baseline.outcome,
    manifest_blocker: blocker(gate, run, serialization.text !== null),
  };
  return { result, qc: strictReport(run), resolution: res };
}
