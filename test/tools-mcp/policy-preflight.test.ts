// The change-set preflight under a real project policy file, through the real server and SDK client: the
// interoperability round trips, the policy's governance conventions with waivers (live and expired), the
// policy reasoner against the window's selection (preview and apply_changes verify=rollback), and
// commit_change_set refused by the tool gate answering committed:false.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  call,
  callOk,
  decideWrite,
  eventually,
  pendingWrites,
  principalWith,
  serveAndConnect,
  serveTempOntology,
  withProjectPolicy,
  axiomCount,
  type PendingWrite,
  type Row,
  type ServedTempOntology,
} from '../server/support.js';
import { runInContext, toolContext } from '../support/tool-context.js';
import { loadOntologyFile } from '../../src/model/io.js';

const PP = 'http://example.org/pp#';

// Every class declared with one English label, so only what a batch or a policy rule does can fail.
const ONTOLOGY = `@prefix : <${PP}> .
@prefix owl:  <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

<http://example.org/pp> a owl:Ontology .
:Animal a owl:Class ; rdfs:label "animal"@en .
:Dog a owl:Class ; rdfs:subClassOf :Animal ; rdfs:label "dog"@en .
:Cat a owl:Class ; rdfs:subClassOf :Animal ; rdfs:label "cat"@en .
`;

let served: ServedTempOntology;
let dir: string;
let file: string;
let c: Client;

before(async () => {
  served = await serveTempOntology('athene-policy-preflight-', 'pp.ttl', ONTOLOGY);
  ({ dir, file, c } = served);
});
after(() => served.close());

/** Runs `body` with a version-1 policy for the ontology plus `extra` YAML. */
const withPolicy = (extra: string, body: () => Promise<void>) =>
  withProjectPolicy(dir, `version: 1\nproject_id: pp\nroot_ontology: http://example.org/pp\n${extra}`, body);

const wolf = [{ axiom_type: 'subclass_of', sub: 'Wolf', super: 'animal' }];
const stageOf = (p: Row, stage: string) => ((p.preflight as Row).stages as Row[]).find((s) => s.stage === stage)!;
const findingsOf = (p: Row) => (p.preflight as Row).findings as Row[];

test('a v1 policy: the interoperability stage round-trips the changed snapshot through its formats and the gate passes', async () => {
  await withPolicy('interoperability:\n  format: turtle\n  round_trip_formats: [ofn, owlxml, rdfxml]\n', async () => {
    const p = await callOk(c, 'preview_change_set', { operations: [{ axiom_type: 'disjoint_classes', classes: ['dog', 'cat'] }] });
    assert.equal(p.policy_loaded, true);
    const pf = p.preflight as Row;
    assert.equal(pf.gate, 'pass', JSON.stringify(p.committable_reasons));
    assert.deepEqual(pf.required_stages, ['interoperability', 'profile', 'structural', 'governance', 'rules']);
    const interop = stageOf(p, 'interoperability');
    assert.deepEqual([interop.status, interop.verdict, interop.required], ['completed', 'pass', true]);
    assert.deepEqual((interop.details as Row).formats, ['turtle', 'ofn', 'owlxml', 'rdfxml']);
    assert.equal(p.committable, true);
    await callOk(c, 'discard_change_set', { change_set_id: p.change_set_id });
  });
});

test('a round-trip format that cannot hold the ontology fails the gate with a finding naming the format', async () => {
  await withPolicy('interoperability:\n  round_trip_formats: [obo]\n', async () => {
    // OBO keeps what it has no tag for in owl-axioms, but an IRI with no OBO id form has no OBO spelling
    const p = await callOk(c, 'preview_change_set', {
      operations: [
        { axiom_type: 'disjoint_classes', classes: ['dog', 'cat'] },
        { axiom_type: 'subclass_of', sub: '<tag:example.org,2024:x>', super: 'animal' },
      ],
    });
    assert.equal((p.preflight as Row).gate, 'fail');
    assert.equal(p.committable, false);
    assert.ok(
      (p.committable_reasons as string[]).some((r) => r.startsWith('stage_failed: interoperability')),
      JSON.stringify(p.committable_reasons),
    );
    const f = findingsOf(p).find((x) => x.source === 'interoperability')!;
    assert.equal(f.rule_id, 'interoperability.write_failed');
    assert.equal((f.details as Row).format, 'obo');
    assert.match(f.message as string, /obo/);
    assert.deepEqual((stageOf(p, 'interoperability').details as Row).clean_formats, ['turtle']);
  });
});

test('the policy label rule fails a batch minting an unlabelled class; a live waiver for it passes, the finding stays visible', async () => {
  await withPolicy('', async () => {
    const p = await callOk(c, 'preview_change_set', { operations: wolf });
    assert.equal((p.preflight as Row).gate, 'fail');
    assert.ok(
      (p.committable_reasons as string[]).some((r) => r.startsWith('stage_failed: governance')),
      JSON.stringify(p.committable_reasons),
    );
    const missing = findingsOf(p).find((f) => f.rule_id === 'annotations.label_missing')!;
    assert.equal(missing.focus_iri, `${PP}Wolf`);
    assert.equal(missing.waiver, null);
  });
  const waiver = `validation:\n  waivers:\n    - {rule_id: annotations.label_missing, focus_iri: "pp:Wolf", reason: "label comes with the next import", expires: "2999-12-31"}\n    - {rule_id: missing_label, focus_iri: "pp:Wolf", reason: "same"}\nprefixes:\n  pp: "${PP}"\n`;
  await withPolicy(waiver, async () => {
    const p = await callOk(c, 'preview_change_set', { operations: wolf });
    assert.equal((p.preflight as Row).gate, 'pass', JSON.stringify(p.committable_reasons));
    assert.equal(p.committable, true);
    const waived = findingsOf(p).find((f) => f.rule_id === 'annotations.label_missing')!;
    assert.deepEqual(waived.waiver, {
      rule_id: 'annotations.label_missing',
      focus_iri: `${PP}Wolf`,
      reason: 'label comes with the next import',
      expires: '2999-12-31',
    });
    const governance = stageOf(p, 'governance');
    assert.equal(governance.verdict, 'pass');
    assert.equal((governance.details as Row).waived_count, 1);
    assert.equal(findingsOf(p).find((f) => f.rule_id === 'missing_label')!.source, 'structural', 'waivers apply to every stage');
    await callOk(c, 'discard_change_set', { change_set_id: p.change_set_id });
  });
});

test('an expired waiver suppresses nothing and is itself a finding that fails the gate', async () => {
  const waiver = `validation:\n  waivers:\n    - {rule_id: annotations.label_missing, focus_iri: "${PP}Wolf", reason: "was fine last year", expires: "2001-01-01"}\n`;
  await withPolicy(waiver, async () => {
    const p = await callOk(c, 'preview_change_set', { operations: wolf });
    assert.equal((p.preflight as Row).gate, 'fail');
    assert.equal(p.committable, false);
    const rules = findingsOf(p)
      .filter((f) => f.source === 'governance')
      .map((f) => [f.rule_id, f.focus_iri, f.waiver]);
    assert.deepEqual(rules, [
      ['annotations.label_missing', `${PP}Wolf`, null],
      ['validation.waiver_expired', `${PP}Wolf`, null],
    ]);
  });
});

test('the policy reasoner must be the window selection: a mismatch errors the gate and verify=rollback prevents the batch', async () => {
  await withPolicy('reasoning:\n  reasoner: el\n  required: true\n  timeout_ms: 5000\n', async () => {
    await callOk(c, 'set_reasoner', { reasoner: 'structural' });
    const p = await callOk(c, 'preview_change_set', {
      operations: [{ axiom_type: 'disjoint_classes', classes: ['dog', 'cat'] }],
      timeout_ms: 60_000,
    });
    assert.equal((p.preflight as Row).gate, 'error');
    const stage = stageOf(p, 'reasoner');
    assert.deepEqual([stage.status, stage.required], ['error', true]);
    assert.match(
      stage.reason as string,
      /requires Athene EL\+\+ Classifier .*\[el\] but the window's selected reasoner is Athene Structural Reasoner .*\[structural\]/,
    );
    assert.ok((p.committable_reasons as string[]).some((r) => r.startsWith('stage_error: reasoner')));

    const count = await axiomCount(c);
    const applied = await callOk(c, 'apply_changes', {
      operations: [{ axiom_type: 'disjoint_classes', classes: ['dog', 'cat'] }],
      verify: 'rollback',
    });
    const verify = applied.verify as Row;
    assert.equal(verify.gate, 'error');
    assert.equal(verify.prevented_before_apply, true);
    assert.equal(verify.error_code, 'preflight_error');
    assert.equal(verify.applied, false);
    assert.equal(await axiomCount(c), count, 'nothing landed');

    // With the policy's reasoner selected the stage classifies, bounded by reasoning.timeout_ms.
    await callOk(c, 'set_reasoner', { reasoner: 'el' });
    const ok = await callOk(c, 'preview_change_set', {
      operations: [{ axiom_type: 'disjoint_classes', classes: ['dog', 'cat'] }],
      timeout_ms: 60_000,
    });
    assert.equal((ok.preflight as Row).gate, 'pass', JSON.stringify(ok.committable_reasons));
    const configuration = (stageOf(ok, 'reasoner').details as Row).reasoner_configuration as Row;
    assert.equal(configuration.id, 'el');
    assert.ok((configuration.timeout_ms as number) <= 5000, `the policy bounds the reasoner stage (${configuration.timeout_ms})`);
    assert.equal(ok.satisfiability_checked, true);
    await callOk(c, 'discard_change_set', { change_set_id: ok.change_set_id });
  });
});

test('commit_change_set refused by the tool gate answers committed:false (read-only, declined, unauthorized)', async () => {
  const { c: roClient, close: closeRo } = await serveAndConnect([file], { read_only: true });
  try {
    const p = await callOk(roClient, 'preview_change_set', { operations: wolf });
    const refused = await call(roClient, 'commit_change_set', { change_set_id: p.change_set_id, expected_revision: p.base_revision });
    assert.equal(refused.isError, true);
    assert.equal(refused.body.error_code, 'read_only');
    assert.equal(refused.body.committed, false);
    assert.equal(refused.body.effects_prevented, true);
  } finally {
    await closeRo();
  }

  const {
    t: confirm,
    c: confirmClient,
    close: closeConfirm,
  } = await serveAndConnect([file], { confirm_each_write: true, approval_timeout_s: '30' });
  try {
    const p = await callOk(confirmClient, 'preview_change_set', { operations: wolf });
    const pending = call(confirmClient, 'commit_change_set', { change_set_id: p.change_set_id, expected_revision: p.base_revision });
    let held: PendingWrite | undefined;
    await eventually(
      'the held commit',
      async () => (held = (await pendingWrites(confirm)).find((w) => w.tool === 'commit_change_set')) !== undefined,
    );
    assert.equal((await decideWrite(confirm, held!.approval_id, 'deny')).status, 200);
    const declined = await pending;
    assert.equal(declined.body.error_code, 'write_declined');
    assert.equal(declined.body.committed, false);
  } finally {
    await closeConfirm();
  }

  const reader = toolContext([await loadOntologyFile(file)], principalWith(['ontology:read']));
  const denied = await runInContext(
    'commit_change_set',
    {
      change_set_id: 'cs_x',
      expected_revision: { workspace_id: 'w', session_revision: 0, semantic_fingerprint: 's', document_fingerprint: 'd' },
    },
    reader,
  );
  assert.equal(denied.body.error_code, 'authorization_denied');
  assert.equal(denied.body.committed, false);
  assert.deepEqual(denied.body.missing_capabilities, ['ontology:curate']);
  assert.equal(
    (await runInContext('commit_change_set', { change_set_id: 'cs_x' }, reader)).body.error_code,
    'authorization_denied',
    'capabilities before arguments',
  );
  const curator = toolContext([await loadOntologyFile(file)], principalWith(['ontology:read', 'ontology:curate']));
  const malformed = await runInContext('commit_change_set', { change_set_id: 'cs_x' }, curator);
  assert.equal(malformed.body.error_code, 'invalid_argument');
  assert.equal(malformed.body.committed, false);
  const other = await runInContext('apply_changes', { operations: wolf }, reader);
  assert.equal(other.body.committed, undefined, 'only tools that declare it add the refusal context');
});
