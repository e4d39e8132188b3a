// `reports/qc.json`: the release gate result as one JSON document (TOOLS.md prepare_release), project-relative
// and without the verified serialization's text (the manifest records that file), so it is deterministic
// except `created_at`.

import { baselineSummary } from '../baseline.js';
import type { ReleaseGateResult } from '../result.js';

export const QC_REPORT_VERSION = 1;

export function qcJson(g: ReleaseGateResult, createdAt: string): Record<string, unknown> {
  return {
    report_version: QC_REPORT_VERSION,
    generator: g.generator,
    created_at: createdAt,
    project_id: g.project_id,
    policy_digest: g.policy_digest,
    gate: g.gate,
    ontology: { iri: g.ontology.iri, version_iri: g.ontology.version_iri },
    fingerprints: g.fingerprints,
    rdf_dataset_identity: g.rdf_dataset_identity,
    fail_on: g.fail_on,
    required_stages: g.required_stages,
    stages: g.stages,
    findings: g.findings,
    finding_count: g.finding_count,
    network: g.network,
    lock_mode: g.lock_mode,
    resolved_imports: g.resolved_imports,
    network_caveat: g.network_caveat,
    round_trip: g.round_trip,
    serialization:
      g.serialization === null
        ? null
        : { path: g.serialization.path, format: g.serialization.format, media_type: g.serialization.media_type },
    baseline: baselineSummary(g.baseline),
    manifest_blocker: g.manifest_blocker,
  };
}

export const qcJsonText = (g: ReleaseGateResult, createdAt: string): string => JSON.stringify(qcJson(g, createdAt), null, 2) + '\n';
