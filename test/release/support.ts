// A release gate result built by hand, for the pure report and manifest functions.

import type { ReleaseGateResult } from '../../src/release/result.js';
import type { ReportFinding } from '../../src/release/finding.js';
import { releaseFinding, releaseStage } from '../../src/release/finding.js';

export const D = (c: string) => 'sha256:' + c.repeat(64);

export function governanceFinding(i: number, message = `class ${i} has no label`): ReportFinding {
  return {
    id: D((i % 10).toString()),
    source: 'governance',
    severity: i % 2 === 0 ? 'error' : 'warn',
    message,
    focus_iri: `http://example.org/g#C${i}`,
    axiom: null,
    path: null,
    rule_id: 'annotations.label_missing',
    waiver: null,
  };
}

export function gateResult(overrides: Partial<ReleaseGateResult> = {}): ReleaseGateResult {
  const license = releaseFinding('release.license_unavailable', 'warn', 'no license', 'http://example.org/g', 'license');
  return {
    gate: 'pass',
    started: true,
    generator: { name: 'Athene', version: '0.1.0' },
    project_id: 'g-demo',
    policy_digest: D('a'),
    ontology: {
      iri: 'http://example.org/g',
      version_iri: 'http://example.org/g/2',
      title: 'G & <demo>',
      description: null,
      license: { '@id': 'https://creativecommons.org/licenses/by/4.0/' },
    },
    fingerprints: { semantic: D('b'), rdf_dataset: D('c'), closure: D('d'), qc_identity: D('e') },
    rdf_dataset_identity: {
      ontology_iri: 'http://example.org/g',
      version_iri: 'http://example.org/g/2',
      scope: 'root_ontology_asserted',
      quad_count: 3,
      canonicalization: {
        algorithm: 'RDFC-1.0',
        hash_algorithm: 'SHA-256',
        specification: 'https://www.w3.org/TR/rdf-canon/',
        implementation: 'rdf-canonize@5',
        input_format: 'application/n-quads',
      },
      ro_crate: { conformsTo: 'https://w3id.org/ro/crate/1.1', encodingFormat: 'application/n-quads', identifier_property: 'sha256' },
      profile: 'DL',
    },
    fail_on: 'error',
    required_stages: ['governance', 'interoperability', 'release'],
    stages: [
      {
        stage: 'governance',
        ran: true,
        required: true,
        status: 'completed',
        verdict: 'warn',
        findings_summary: { total: 2, error: 0, warn: 2, info: 0 },
        identity_digest: D('f'),
      },
      {
        stage: 'interoperability',
        ran: false,
        required: true,
        status: 'skipped',
        reason: 'no <engine> & "quotes"',
        findings_summary: { total: 0, error: 0, warn: 0, info: 0 },
        identity_digest: D('0'),
      },
      releaseStage([license]),
    ],
    findings: [
      { ...governanceFinding(1, 'label | <b>bold</b> \u0001 control'), waiver: null },
      {
        ...governanceFinding(3),
        waiver: { rule_id: 'annotations.label_missing', focus_iri: 'http://example.org/g#C3', reason: 'next import', expires: null },
      },
      license,
    ],
    finding_count: 3,
    network: 'deny',
    lock_mode: 'ignore',
    resolved_imports: [],
    network_caveat: null,
    round_trip: { clean: true, format: 'turtle' },
    serialization: {
      path: 'g-demo.ttl',
      format: 'turtle',
      media_type: 'text/turtle',
      text: '<http://example.org/g> a <http://www.w3.org/2002/07/owl#Ontology> .\n',
    },
    baseline: { compared: false, status: 'not_compared' },
    manifest_blocker: null,
    ...overrides,
  };
}
