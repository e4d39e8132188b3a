// run_project_qc and run_qc_suite through the real server and SDK client, over a real project-policy file:
// the strict gate (pass, fail, error on a required stage this build cannot run, waivers, lock_mode), the
// fingerprints of what was judged, run_qc_suite's legacy branch and its policy branch, and every argument error.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, callOk, principalWith, serveTempOntology, withProjectPolicy, type Row, type ServedTempOntology } from '../server/support.js';
import { runInContext, toolContext } from '../support/tool-context.js';
import { loadOntologyFile } from '../../src/model/io.js';

const QC = 'http://example.org/qc#';

// Every class declared with one English label, so only what a test adds or a policy rule demands can fail.
const ONTOLOGY = `@prefix : <${QC}> .
@prefix owl:  <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

<http://example.org/qc> a owl:Ontology .
:Animal a owl:Class ; rdfs:label "animal"@en .
:Dog a owl:Class ; rdfs:subClassOf :Animal ; rdfs:label "dog"@en .
:Cat a owl:Class ; rdfs:subClassOf :Animal ; rdfs:label "cat"@en ;
  rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :eats ; owl:someValuesFrom :Animal ] .
:eats a owl:ObjectProperty ; rdfs:label "eats"@en .
`;

let served: ServedTempOntology;
let dir: string;
let c: Client;

before(async () => {
  served = await serveTempOntology('athene-qc-tools-', 'qc.ttl', ONTOLOGY);
  ({ dir, c } = served);
});
after(() => served.close());

const POLICY = 'version: 1\nproject_id: qc-demo\nroot_ontology: http://example.org/qc\n';
const withPolicy = (extra: string, body: () => Promise<void>) => withProjectPolicy(dir, POLICY + extra, body);
const stageOf = (r: Row, stage: string) => (r.stages as Row[]).find((s) => s.stage === stage)!;
const findings = (r: Row) => r.findings as Row[];
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** Adds an unlabelled class `Wolf` under Animal, runs `body`, and undoes the edit. */
async function withUnlabelledWolf(body: () => Promise<void>): Promise<void> {
  await callOk(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Wolf', super: 'animal' });
  try {
    await body();
  } finally {
    await callOk(c, 'undo_change');
  }
}

test('run_project_qc without a policy: validation cannot start, gate error with policy_not_found in errors', async () => {
  const r = await callOk(c, 'run_project_qc');
  assert.equal(r.gate, 'error');
  assert.equal(r.surface, 'run_project_qc');
  assert.equal(r.policy_loaded, false);
  assert.deepEqual([r.stages, r.stages_ran, r.findings], [[], [], []]);
  const [e] = r.errors as Row[];
  assert.ok(e);
  assert.equal(e.code, 'policy_not_found');
  assert.match(e.message as string, /write_project_policy_template/);
  assert.equal((r.validation_snapshot as Row).mode, 'none');
  assert.equal(r.rdf_dataset_fingerprint, null);
});

test('run_project_qc under a valid v1 policy passes and reports the policy, stages and fingerprints it judged', async () => {
  await withPolicy('', async () => {
    const r = await callOk(c, 'run_project_qc');
    assert.equal(r.gate, 'pass', JSON.stringify(r.stages));
    assert.deepEqual([r.surface, r.policy_loaded, r.policy_version, r.project_id], ['run_project_qc', true, 1, 'qc-demo']);
    const policy = await callOk(c, 'get_project_policy');
    assert.equal(r.policy_digest, policy.policy_digest);
    assert.equal(r.policy_path, path.join(dir, '.athene', 'project.yaml'));
    assert.deepEqual(r.required_stages, ['interoperability', 'profile', 'structural', 'governance', 'rules']);
    assert.deepEqual(r.stages_ran, r.required_stages);
    assert.deepEqual(r.stages_skipped, []);
    for (const s of r.stages as Row[]) {
      assert.deepEqual([s.required, s.status, s.ran], [true, 'completed', true], String(s.stage));
      assert.match(s.identity_digest as string, DIGEST);
    }
    const revision = await callOk(c, 'get_model_revision');
    assert.equal(r.semantic_fingerprint, revision.semantic_fingerprint);
    assert.match(r.rdf_dataset_fingerprint as string, DIGEST);
    const identity = r.rdf_dataset_identity as Row;
    assert.equal((identity.canonicalization as Row).algorithm, 'RDFC-1.0');
    assert.equal(identity.ontology_iri, 'http://example.org/qc');
    assert.equal(identity.profile, 'DL');
    assert.deepEqual([r.fingerprint_stability, r.release_stable, r.snapshot_consistent], ['stable', true, true]);
    const vs = r.validation_snapshot as Row;
    assert.deepEqual([vs.mode, vs.same_snapshot, vs.semantic_fingerprint], ['isolated', true, r.semantic_fingerprint]);
    assert.match(vs.closure_fingerprint as string, DIGEST);
    assert.deepEqual(r.details, { fail_on: 'error' });
    assert.equal(r.import_lock_verification, null);
    assert.deepEqual(r.errors, []);
    assert.equal((r.resolved_assets as Row).root_artifact, null);
    assert.deepEqual(
      r.reasoner,
      {
        selected_id: 'auto',
        selected_name: 'Athene Automatic Reasoner 0.1.0',
        policy_reasoner: null,
        required: false,
        matches_policy: null,
      },
      'a new window selects the automatic reasoner',
    );
  });
});

test('the RDF dataset fingerprint is stable across runs, changes with an edit, and returns with the undo', async () => {
  await withPolicy('', async () => {
    const first = (await callOk(c, 'run_project_qc')).rdf_dataset_fingerprint;
    assert.equal((await callOk(c, 'run_project_qc')).rdf_dataset_fingerprint, first);
    await callOk(c, 'add_axiom', { axiom_type: 'disjoint_classes', classes: ['dog', 'cat'] });
    const edited = await callOk(c, 'run_project_qc');
    assert.notEqual(edited.rdf_dataset_fingerprint, first);
    assert.ok(
      (edited.fingerprint_warnings as string[]).some((w) => /unsaved changes/.test(w)),
      JSON.stringify(edited.fingerprint_warnings),
    );
    await callOk(c, 'undo_change');
    assert.equal(
      (await callOk(c, 'run_project_qc')).rdf_dataset_fingerprint,
      first,
      'same content (blank nodes included), same fingerprint',
    );
  });
});

test('a completed policy violation fails the gate; a live waiver passes it and stays visible on the finding', async () => {
  await withUnlabelledWolf(async () => {
    await withPolicy('', async () => {
      const r = await callOk(c, 'run_project_qc', { limit: 5 });
      assert.equal(r.gate, 'fail');
      assert.equal(stageOf(r, 'governance').verdict, 'fail');
      const f = findings(r).find((x) => x.rule_id === 'annotations.label_missing')!;
      assert.deepEqual([f.focus_iri, f.waiver, f.source], [`${QC}Wolf`, null, 'governance']);
    });
    const waivers =
      'prefixes:\n  qc: "http://example.org/qc#"\nvalidation:\n  waivers:\n' +
      '    - {rule_id: annotations.label_missing, focus_iri: "qc:Wolf", reason: "label arrives with the next import", expires: "2999-12-31"}\n' +
      '    - {rule_id: missing_label, focus_iri: "qc:Wolf", reason: "same"}\n';
    await withPolicy(waivers, async () => {
      const r = await callOk(c, 'run_project_qc');
      assert.equal(r.gate, 'pass', JSON.stringify(findings(r)));
      const waived = findings(r).find((x) => x.rule_id === 'annotations.label_missing')!;
      assert.equal((waived.waiver as Row).reason, 'label arrives with the next import');
    });
  });
});

test('a required stage without data is skipped with the reason and makes the gate error (over a fail)', async () => {
  await withUnlabelledWolf(async () => {
    await withPolicy('validation:\n  required_stages: [governance, shacl, cqs]\n', async () => {
      const r = await callOk(c, 'run_project_qc');
      assert.equal(r.gate, 'error');
      assert.equal(stageOf(r, 'governance').verdict, 'fail', 'the violation is still reported');
      const shacl = stageOf(r, 'shacl');
      assert.deepEqual([shacl.status, shacl.required, shacl.ran], ['skipped', true, false]);
      assert.match(shacl.reason as string, /no SHACL shapes given/);
      assert.match(stageOf(r, 'cqs').reason as string, /no competency questions given/);
      assert.deepEqual(r.stages_skipped, ['cqs', 'shacl']);
      assert.deepEqual((r.details as Row).missing_required_stages, ['cqs', 'shacl']);
    });
  });
});

test('an invalid policy: validation cannot start and errors carry the policy diagnostics', async () => {
  await withProjectPolicy(dir, 'version: 1\nproject_id: qc-demo\n', async () => {
    const r = await callOk(c, 'run_project_qc');
    assert.deepEqual([r.gate, r.policy_loaded], ['error', true]);
    const codes = (r.errors as Row[]).map((e) => e.code);
    assert.equal(codes[0], 'policy_invalid');
    assert.ok(codes.length > 1, JSON.stringify(r.errors));
  });
});

test('lock_mode: verify without a lockfile is skipped and passes; required makes imports.lock_missing fail the gate', async () => {
  await withPolicy('', async () => {
    const verify = await callOk(c, 'run_project_qc', { lock_mode: 'verify' });
    assert.equal(verify.gate, 'pass');
    const v = verify.import_lock_verification as Row;
    assert.deepEqual([v.verified, v.skipped, v.lockfile_source], [false, true, 'beside_document']);
    const required = await callOk(c, 'run_project_qc', { lock_mode: 'required' });
    assert.equal(required.gate, 'fail');
    assert.ok(findings(required).some((f) => f.rule_id === 'imports.lock_missing'));
    const written = await callOk(c, 'write_import_lock');
    try {
      const locked = await callOk(c, 'run_project_qc', { lock_mode: 'required' });
      assert.equal(locked.gate, 'pass', JSON.stringify(locked.import_lock_verification));
      assert.equal((locked.import_lock_verification as Row).verified, true);
    } finally {
      await rm(written.path as string, { force: true });
    }
  });
});

test('run_qc_suite legacy branch: default stages, the default automatic reasoner runs the reasoner stage; legacy stage rows', async () => {
  const r = await callOk(c, 'run_qc_suite');
  assert.deepEqual([r.gate, r.fail_on], ['pass', 'error']);
  assert.deepEqual(r.stages_ran, ['reasoner', 'profile', 'structural']);
  const reasoner = stageOf(r, 'reasoner');
  assert.deepEqual(
    [reasoner.ran, reasoner.verdict, reasoner.reason],
    [true, 'pass', undefined],
    'the consistent ontology classifies under auto',
  );
  assert.deepEqual((reasoner.findings_summary as Row).total, 0);
  assert.deepEqual(Object.keys(stageOf(r, 'profile')).sort(), ['findings_summary', 'ran', 'stage', 'verdict']);
  assert.equal(r.policy_loaded, undefined, 'strict-mode fields only with policy_path');
});

test('run_qc_suite legacy: governance options fail the gate; fail_on none passes it', async () => {
  const args = { stages: ['governance'], required_annotations: ['rdfs:comment'] };
  const r = await callOk(c, 'run_qc_suite', args);
  assert.equal(r.gate, 'fail');
  assert.ok(
    findings(r).some((f) => f.rule_id === 'required_annotations' && f.focus_iri === `${QC}Dog`),
    JSON.stringify(findings(r)),
  );
  assert.equal((await callOk(c, 'run_qc_suite', { ...args, fail_on: 'none' })).gate, 'pass');
  const capped = await callOk(c, 'run_qc_suite', { ...args, limit: 1 });
  assert.equal(findings(capped).length, 1);
  assert.ok((capped.finding_count as number) > 1);
});

test('run_qc_suite legacy: inline invariants run over the snapshot; a required stage without data → gate error', async () => {
  const invariants = [{ sparql: 'ASK { ?s ?p ?o }' }];
  const violated = await callOk(c, 'run_qc_suite', { stages: ['profile'], invariants });
  assert.equal(violated.gate, 'fail');
  assert.equal(stageOf(violated, 'invariants').verdict, 'fail');
  assert.ok(findings(violated).some((f) => f.rule_id === 'invariant:invariant-1'));
  const strict = await callOk(c, 'run_qc_suite', { stages: ['profile', 'cqs'], error_on_missing_required: true });
  assert.equal(strict.gate, 'error');
  assert.match(stageOf(strict, 'cqs').reason as string, /no competency questions given/);
  const shacl = await callOk(c, 'run_qc_suite', {
    stages: ['profile'],
    required_stages: ['shacl'],
    shacl_shapes: '@prefix sh: <http://www.w3.org/ns/shacl#> .',
  });
  assert.equal(shacl.gate, 'error');
  assert.match(stageOf(shacl, 'shacl').reason as string, /declares no SHACL shapes/);
});

test('run_qc_suite with policy_path runs the strict gate with surface run_qc_suite', async () => {
  await withPolicy('', async () => {
    const policyPath = path.join(dir, '.athene', 'project.yaml');
    const r = await callOk(c, 'run_qc_suite', { policy_path: policyPath, lock_mode: 'verify' });
    assert.deepEqual([r.gate, r.surface, r.policy_loaded], ['pass', 'run_qc_suite', true]);
    assert.equal(stageOf(r, 'profile').required, true);
    assert.equal((r.import_lock_verification as Row).skipped, true);
    const more = await callOk(c, 'run_qc_suite', { policy_path: policyPath, required_stages: ['invariants'] });
    assert.equal(more.gate, 'error', 'listed stages only add requirements');
    const refused = await call(c, 'run_qc_suite', { policy_path: policyPath, fail_on: 'none', owl_profile: 'EL' });
    assert.equal(refused.isError, true);
    assert.equal(refused.body.error_code, 'invalid_argument');
    assert.match(refused.body.error as string, /owl_profile, fail_on/);
  });
});

test('argument errors are precise failures', async () => {
  const cases: [string, Row, string][] = [
    ['run_project_qc', { bogus: 1 }, 'invalid_argument'],
    ['run_project_qc', { limit: -1 }, 'invalid_argument'],
    ['run_project_qc', { limit: 10_001 }, 'invalid_argument'],
    ['run_project_qc', { lock_mode: 'maybe' }, 'invalid_argument'],
    ['run_project_qc', { policy_path: 'https://example.org/project.yaml' }, 'invalid_argument'],
    ['run_project_qc', { policy_path: path.join(dir, 'absent.yaml') }, 'policy_not_found'],
    ['run_qc_suite', { stages: ['bogus'] }, 'invalid_argument'],
    ['run_qc_suite', { owl_profile: 'XL' }, 'invalid_argument'],
    ['run_qc_suite', { fail_on: 'info' }, 'invalid_argument'],
    ['run_qc_suite', { timeout_ms: 0 }, 'invalid_argument'],
    ['run_qc_suite', { lock_mode: 'verify' }, 'invalid_argument'],
    ['run_qc_suite', { lock_mode: 'required' }, 'invalid_argument'],
    ['run_qc_suite', { invariants: [{ id: 'no-query' }] }, 'invalid_argument'],
    ['run_qc_suite', { iri_pattern: '(' }, 'invalid_argument'],
    ['run_qc_suite', { shacl_shapes: 'x', shacl_shapes_path: 'y.ttl' }, 'invalid_argument'],
    ['run_qc_suite', { shacl_shapes_path: path.join(dir, 'absent-shapes.ttl') }, 'not_found'],
    ['run_qc_suite', { shacl_shapes_path: 'https://example.org/shapes.ttl' }, 'invalid_argument'],
  ];
  for (const [tool, args, code] of cases) {
    const r = await call(c, tool, args);
    assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)}`);
    assert.equal(r.body.error_code, code, `${tool} ${JSON.stringify(args)}: ${JSON.stringify(r.body)}`);
  }
});

test('run_project_qc needs filesystem:project:read; run_qc_suite needs it only for a caller-selected file', async () => {
  const o = await loadOntologyFile(served.file);
  const ctx = toolContext([o], principalWith(['ontology:read']));
  const denied = await runInContext('run_project_qc', {}, ctx);
  assert.equal(denied.body.error_code, 'authorization_denied');
  assert.deepEqual(denied.body.missing_capabilities, ['filesystem:project:read']);
  assert.equal((await runInContext('run_qc_suite', {}, ctx)).isError, false);
  const file = await runInContext('run_qc_suite', { shacl_shapes_path: served.file }, ctx);
  assert.equal(file.body.error_code, 'authorization_denied');
});

// Last: a window's reasoner selection cannot be cleared, and the tests above run without one.
test('the policy reasoner must be the window selection: a mismatch errors the gate, the match classifies', async () => {
  await withPolicy('reasoning:\n  reasoner: el\n  required: true\n  timeout_ms: 5000\n', async () => {
    await callOk(c, 'set_reasoner', { reasoner: 'structural' });
    const wrong = await callOk(c, 'run_project_qc');
    assert.equal(wrong.gate, 'error');
    assert.equal(stageOf(wrong, 'reasoner').status, 'error');
    assert.deepEqual([(wrong.reasoner as Row).selected_id, (wrong.reasoner as Row).matches_policy], ['structural', false]);
    await callOk(c, 'set_reasoner', { reasoner: 'el' });
    const right = await callOk(c, 'run_project_qc');
    assert.equal(right.gate, 'pass', JSON.stringify(stageOf(right, 'reasoner')));
    assert.equal((right.reasoner as Row).matches_policy, true);
    const configuration = stageOf(right, 'reasoner').reasoner_configuration as Row;
    assert.ok((configuration.timeout_ms as number) <= 5000, JSON.stringify(configuration));
  });
  const legacy = await callOk(c, 'run_qc_suite');
  assert.deepEqual(legacy.stages_ran, ['reasoner', 'profile', 'structural'], 'the legacy default classifies with the selected reasoner');
  assert.equal(stageOf(legacy, 'reasoner').verdict, 'pass');
});
