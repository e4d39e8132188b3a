// `reports/qc.sarif`: the release gate's findings as SARIF 2.1.0 (OASIS Static Analysis Results Interchange
// Format), for code-scanning dashboards: one run, the rules seen, one result per sampled finding located at
// the released serialization and, logically, at its focus IRI; waived findings carry a suppression; the
// finding id is the partial fingerprint, so dashboards track a problem across releases. Deterministic
// except the invocation time (left out on a preview, whose `created_at` is not a time).

import type { ReportFinding } from '../finding.js';
import { ISO_UTC, type ReleaseGateResult } from '../result.js';

export const SARIF_VERSION = '2.1.0';
export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

const LEVEL = { error: 'error', warn: 'warning', info: 'note' } as const;

function location(g: ReleaseGateResult, f: ReportFinding): Record<string, unknown>[] {
  const physical = g.serialization === null ? {} : { physicalLocation: { artifactLocation: { uri: g.serialization.path } } };
  const logical = f.focus_iri === null ? {} : { logicalLocations: [{ fullyQualifiedName: f.focus_iri, kind: 'resource' }] };
  return Object.keys(physical).length + Object.keys(logical).length === 0 ? [] : [{ ...physical, ...logical }];
}

export function qcSarif(g: ReleaseGateResult, createdAt: string): Record<string, unknown> {
  const rules = [...new Set(g.findings.map((f) => f.rule_id))].sort();
  const index = new Map(rules.map((r, i) => [r, i]));
  const stageOf = new Map(g.findings.map((f) => [f.rule_id, f.source]));
  const results = g.findings.map((f) => {
    const locations = location(g, f);
    return {
      ruleId: f.rule_id,
      ruleIndex: index.get(f.rule_id)!,
      level: LEVEL[f.severity],
      message: { text: f.message },
      ...(locations.length === 0 ? {} : { locations }),
      partialFingerprints: { 'atheneFindingId/v1': f.id },
      ...(f.waiver === null ? {} : { suppressions: [{ kind: 'external', status: 'accepted', justification: f.waiver.reason }] }),
      properties: { stage: f.source, ...(f.axiom === null ? {} : { axiom: f.axiom }) },
    };
  });
  return {
    $schema: SARIF_SCHEMA,
    version: SARIF_VERSION,
    runs: [
      {
        tool: {
          driver: {
            name: g.generator.name,
            ...(g.generator.version === null ? {} : { version: g.generator.version }),
            rules: rules.map((id) => ({
              id,
              shortDescription: { text: `${stageOf.get(id)} check ${id}` },
              properties: { stage: stageOf.get(id) },
            })),
          },
        },
        ...(g.project_id === null ? {} : { automationDetails: { id: `athene/release-gate/${g.project_id}/` } }),
        invocations: [{ executionSuccessful: g.gate !== 'error', ...(ISO_UTC.test(createdAt) ? { endTimeUtc: createdAt } : {}) }],
        results,
        properties: {
          gate: g.gate,
          project_id: g.project_id,
          policy_digest: g.policy_digest,
          ontology_iri: g.ontology.iri,
          version_iri: g.ontology.version_iri,
          semantic_fingerprint: g.fingerprints.semantic,
          finding_count: g.finding_count,
        },
      },
    ],
  };
}

export const qcSarifText = (g: ReleaseGateResult, createdAt: string): string => JSON.stringify(qcSarif(g, createdAt), null, 2) + '\n';
