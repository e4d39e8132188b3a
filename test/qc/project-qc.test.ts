// The strict QC report assembly (src/qc/project-qc.ts), the run_qc_suite legacy rows, and the RDFC-1.0
// dataset fingerprint: what a caller of run_project_qc / run_qc_suite reads off the report.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runGate } from '../../src/qc/gate.js';
import { captureSnapshot } from '../../src/qc/snapshot.js';
import {
  closureFingerprint,
  gateWithLock,
  notStartedReport,
  reasonerRow,
  startErrors,
  strictReport,
  withEngineReasons,
  type ContentFacts,
} from '../../src/qc/project-qc.js';
import { rdfDatasetFingerprint } from '../../src/qc/dataset-fingerprint.js';
import { legacyReport } from '../../src/tools/qc/qc-tools.js';
import { readDocument } from '../../src/model/formats/registry.js';
import { validatePolicyData, type EffectivePolicy } from '../../src/policy/schema.js';
import type { PolicyResolution } from '../../src/policy/resolution.js';
import type { ImportLockVerification } from '../../src/imports/lock-mode.js';
import { reasonerById } from '../../src/reasoner/registry.js';
import type { Finding } from '../../src/qc/finding.js';
import { ontology, workspace, windowOf } from './support.js';
import { at } from '../support/at.js';

const LABELLED = 'Declaration(Class(:A)) AnnotationAssertion(rdfs:label :A "A"@en)';

function policy(extra: Record<string, unknown> = {}): EffectivePolicy {
  const r = validatePolicyData({ version: 1, project_id: 'p', root_ontology: 'http://example.org/t', ...extra });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.policy;
}

const resolution = (p: EffectivePolicy): PolicyResolution => ({
  discovery: 'explicit',
  pathMode: 'policy_confined',
  file: '/p/.athene/project.yaml',
  projectRoot: '/p',
  loaded: true,
  valid: true,
  policy: p,
  digest: 'sha256:' + '1'.repeat(64),
  errors: [],
  warnings: [],
});

const FACTS: ContentFacts = {
  semanticFingerprint: 'sha256:' + 'a'.repeat(64),
  stability: 'stable',
  stabilityWarnings: [],
  dirty: false,
  reasoner: { selected_id: null, selected_name: null },
};

const gateOver = (body: string, stages: Parameters<typeof runGate>[0]['stages'], required = stages) =>
  runGate({
    snapshot: captureSnapshot(windowOf(workspace(ontology(body))), [], 'en'),
    stages,
    required,
    reasoner: reasonerById('el'),
    timeoutMs: 60_000,
    signal: new AbortController().signal,
    limit: 25,
  });

const missingLock: ImportLockVerification = {
  mode: 'required',
  requested_mode: 'required',
  forced_by_policy: false,
  verified: false,
  path: '/p/imports.lock.json',
  lockfile_source: 'beside_document',
  findings: [
    {
      id: 'imports.lock_missing',
      source: 'interoperability',
      severity: 'error',
      message: 'Import lock missing',
      focus_iri: null,
      axiom: null,
      path: null,
      rule_id: 'imports.lock_missing',
      waiver: null,
    } satisfies Finding,
  ],
  blocking: true,
};

test('a blocking import-lock verification turns pass into fail and never hides an error', () => {
  assert.equal(gateWithLock('pass', missingLock), 'fail');
  assert.equal(gateWithLock('error', missingLock), 'error');
  assert.equal(gateWithLock('pass', { ...missingLock, blocking: false, findings: [] }), 'pass');
  assert.equal(gateWithLock('pass', null), 'pass');
});

test('strictReport: required stages without data are skipped with the reason and listed as missing', async () => {
  const report = await gateOver(LABELLED, ['profile', 'shacl', 'invariants']);
  const p = policy();
  const out = strictReport({
    surface: 'run_qc_suite',
    res: resolution(p),
    policy: p,
    report,
    lock: missingLock,
    dataset: { ok: false, reason: 'RDFC-1.0 canonicalization did not complete: too much work' },
    facts: FACTS,
    closureFingerprint: null,
    consistent: true,
    limit: 25,
    resolvedAssets: null,
  });
  assert.deepEqual([out.gate, out.surface, out.policy_version, out.project_id], ['error', 'run_qc_suite', 1, 'p']);
  const stages = out.stages as { stage: string; reason?: string }[];
  assert.match(stages.find((s) => s.stage === 'shacl')!.reason!, /no SHACL shapes given/);
  assert.match(stages.find((s) => s.stage === 'invariants')!.reason!, /no invariants given/);
  assert.deepEqual(out.details, { fail_on: 'error', missing_required_stages: ['invariants', 'shacl'] });
  assert.ok(
    (out.findings as Finding[]).some((f) => f.rule_id === 'imports.lock_missing'),
    'lock findings are reported',
  );
  assert.equal(out.release_stable, false, 'no dataset fingerprint, no release stability');
  assert.deepEqual(out.fingerprint_warnings, ['RDFC-1.0 canonicalization did not complete: too much work']);
  assert.equal(out.rdf_dataset_fingerprint, null);
});

test('strictReport: a workspace change during the run and unsaved content are warned about; limit caps lock findings', async () => {
  const report = await gateOver(LABELLED, ['profile']);
  const p = policy();
  const out = strictReport({
    surface: 'run_project_qc',
    res: resolution(p),
    policy: p,
    report,
    lock: missingLock,
    dataset: { ok: true, fingerprint: 'sha256:' + 'b'.repeat(64), identity: {} as never },
    facts: { ...FACTS, dirty: true },
    closureFingerprint: 'sha256:' + 'c'.repeat(64),
    consistent: false,
    limit: 0,
    resolvedAssets: {},
  });
  assert.equal(out.gate, 'fail');
  assert.equal(out.snapshot_consistent, false);
  assert.equal(out.release_stable, false);
  const warnings = out.fingerprint_warnings as string[];
  assert.ok(
    warnings.some((w) => /unsaved changes/.test(w)) && warnings.some((w) => /changed while the gate ran/.test(w)),
    JSON.stringify(warnings),
  );
  assert.deepEqual(out.findings, []);
  assert.equal(out.finding_count, 1);
});

test('notStartedReport and startErrors: no policy is policy_not_found; an invalid one carries its diagnostics', () => {
  const none: PolicyResolution = {
    discovery: 'none',
    pathMode: 'legacy_local_admin_unrestricted',
    file: null,
    projectRoot: null,
    loaded: false,
    valid: false,
    policy: null,
    digest: null,
    errors: [],
    warnings: [],
  };
  const errors = startErrors(none, '/data/x.ttl');
  assert.equal(at(errors, 0).code, 'policy_not_found');
  assert.match(at(errors, 0).message as string, /\/data\/x\.ttl/);
  const out = notStartedReport('run_project_qc', none, FACTS, errors);
  assert.deepEqual([out.gate, out.policy_loaded, (out.validation_snapshot as { mode: string }).mode], ['error', false, 'none']);
  const invalid: PolicyResolution = {
    ...none,
    discovery: 'discovered',
    file: '/p/.athene/project.yaml',
    loaded: true,
    errors: [{ severity: 'error', code: 'schema_invalid', path: 'root_ontology', message: 'missing' }],
  };
  assert.deepEqual(
    startErrors(invalid, null).map((e) => e.code),
    ['policy_invalid', 'schema_invalid'],
  );
});

test('reasonerRow compares the captured selection with the policy reasoner by the reference rule', () => {
  const el = reasonerById('el');
  assert.deepEqual(reasonerRow(el, null), { selected_id: 'el', selected_name: el.name });
  const row = reasonerRow(el, policy({ reasoning: { reasoner: 'el', required: true } }));
  assert.deepEqual([row.policy_reasoner, row.required, row.matches_policy, row.problem], ['el', true, true, undefined]);
  const wrong = reasonerRow(reasonerById('structural'), policy({ reasoning: { reasoner: 'el' } }));
  assert.equal(wrong.matches_policy, false);
  assert.match(wrong.problem as string, /requires Athene EL\+\+ Classifier/);
});

test('closureFingerprint covers the members in order and is null when a declared import is not loaded', () => {
  const imported = ontology('Declaration(Class(:I))', 'http://example.org/i');
  const root = ontology(LABELLED, 'http://example.org/t', ['http://example.org/i']);
  const ws = workspace(root, imported);
  const both = closureFingerprint(ws, ws.importsClosure(root), 'sha256:' + '0'.repeat(64));
  assert.match(both!, /^sha256:[0-9a-f]{64}$/);
  assert.notEqual(closureFingerprint(ws, ws.importsClosure(root), 'sha256:' + '9'.repeat(64)), both);
  const alone = workspace(ontology(LABELLED, 'http://example.org/t', ['http://example.org/missing']));
  assert.equal(closureFingerprint(alone, alone.importsClosure(alone.active), 'sha256:' + '0'.repeat(64)), null);
});

test('legacyReport rows are {stage, ran, verdict?, findings_summary?, reason?} and findings are sampled', async () => {
  const report = await gateOver(LABELLED, ['profile', 'shacl'], []);
  const out = legacyReport(report);
  assert.equal(out.gate, 'pass');
  const rows = out.stages as Record<string, unknown>[];
  assert.deepEqual(Object.keys(at(rows, 0)).sort(), ['findings_summary', 'ran', 'stage', 'verdict']);
  assert.deepEqual(Object.keys(at(rows, 1)).sort(), ['ran', 'reason', 'stage']);
  assert.match(at(rows, 1).reason as string, /no SHACL shapes given/);
  assert.deepEqual(
    withEngineReasons(report.stages).map((s) => s.status),
    ['completed', 'skipped'],
  );
});

const TTL_A = `@prefix : <http://example.org/f#> . @prefix owl: <http://www.w3.org/2002/07/owl#> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<http://example.org/f> a owl:Ontology .
:A a owl:Class ; rdfs:label "A"@en ; rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :p ; owl:someValuesFrom :B ] , [ a owl:Restriction ; owl:onProperty :p ; owl:allValuesFrom :B ] .
:B a owl:Class . :p a owl:ObjectProperty .`;

// The same graph: statements reordered, blank nodes labelled instead of nested, other prefixes.
const TTL_B = `@prefix x: <http://example.org/f#> . @prefix o: <http://www.w3.org/2002/07/owl#> . @prefix r: <http://www.w3.org/2000/01/rdf-schema#> .
x:p a o:ObjectProperty . x:B a o:Class .
_:z a o:Restriction ; o:onProperty x:p ; o:allValuesFrom x:B .
_:y a o:Restriction ; o:onProperty x:p ; o:someValuesFrom x:B .
x:A r:subClassOf _:z , _:y ; r:label "A"@en ; a o:Class .
<http://example.org/f> a o:Ontology .`;

test('the RDFC-1.0 dataset fingerprint depends on the graph only, not on order, prefixes or blank-node labels', async () => {
  const a = await rdfDatasetFingerprint((await readDocument(TTL_A, { format: 'turtle' })).ontology, 'DL');
  const b = await rdfDatasetFingerprint((await readDocument(TTL_B, { format: 'turtle' })).ontology, 'DL');
  assert.ok(a.ok && b.ok);
  assert.equal(a.fingerprint, b.fingerprint);
  assert.match(a.fingerprint, /^sha256:[0-9a-f]{64}$/);
  assert.equal(a.identity.canonicalization.algorithm, 'RDFC-1.0');
  assert.equal(a.identity.ontology_iri, 'http://example.org/f');
  const c = await rdfDatasetFingerprint(
    (await readDocument(TTL_A.replace('allValuesFrom', 'someValuesFrom').replace(':B ] .', ':A ] .'), { format: 'turtle' })).ontology,
    'DL',
  );
  assert.ok(c.ok);
  assert.notEqual(c.fingerprint, a.fingerprint);
});
