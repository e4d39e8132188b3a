// Change sets and apply_changes verify through the real server and SDK client: preview → commit as one undo
// unit, stale envelopes, discard, expiry, rebase (unrelated and conflicting edits), size limits, and
// verify=rollback|report with the EL reasoner (prevention before any change, baseline findings).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  connect,
  call,
  callOk,
  serveAndConnect,
  serveTempOntology,
  withProjectPolicy,
  axiomCount,
  undoDepth,
  type Row,
  type ServedTempOntology,
  type TestServer,
} from '../server/support.js';
import { toolContext, runInContext } from '../support/tool-context.js';
import { loadOntologyFile } from '../../src/model/io.js';
import { reasonerById } from '../../src/reasoner/registry.js';
import { changeSetStore } from '../../src/tools/edit/change-sets.js';
import { at } from '../support/at.js';

const CS = 'http://example.org/cs#';

// Every class labelled and declared, so the structural stage passes and only what a batch does can fail.
const ONTOLOGY = `@prefix : <${CS}> .
@prefix owl:  <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

<http://example.org/cs> a owl:Ontology .
:Animal a owl:Class ; rdfs:label "animal"@en .
:Dog a owl:Class ; rdfs:subClassOf :Animal ; rdfs:label "dog"@en .
:Cat a owl:Class ; rdfs:subClassOf :Animal ; rdfs:label "cat"@en ; owl:disjointWith :Dog .
:Puppy a owl:Class ; rdfs:subClassOf :Dog ; rdfs:label "puppy"@en .
:Kitten a owl:Class ; rdfs:subClassOf :Cat ; rdfs:label "kitten"@en .
`;

let served: ServedTempOntology;
let dir: string;
let t: TestServer;
let c: Client;

before(async () => {
  served = await serveTempOntology('athene-change-sets-', 'cs.ttl', ONTOLOGY);
  ({ dir, t, c } = served);
});
after(() => served.close());

const sub = (s: string, sup: string, op: 'add' | 'remove' = 'add') => ({ op, axiom_type: 'subclass_of', sub: s, super: sup });

async function preview(operations: Row[], extra: Row = {}): Promise<Row> {
  return callOk(c, 'preview_change_set', { operations, ...extra });
}

test('preview_change_set evaluates a private snapshot and caches a committable preview; the live ontology is untouched', async () => {
  const count = await axiomCount(c);
  const depth = await undoDepth(c);
  const p = await preview([
    sub('kitten', 'animal'),
    { axiom_type: 'disjoint_classes', classes: ['puppy', 'kitten'] },
    sub('puppy', 'dog', 'remove'),
  ]);
  assert.match(p.change_set_id as string, /^cs_/);
  assert.ok(Date.parse(p.expires_at as string) > Date.now());
  assert.deepEqual(Object.keys(p.base_revision as Row).sort(), [
    'document_fingerprint',
    'semantic_fingerprint',
    'session_revision',
    'workspace_id',
  ]);
  assert.deepEqual(p.normalized_changes, [
    { op: 'add', axiom_type: 'DisjointClasses', axiom: 'kitten DisjointWith puppy' },
    { op: 'add', axiom_type: 'SubClassOf', axiom: 'kitten SubClassOf animal' },
    { op: 'remove', axiom_type: 'SubClassOf', axiom: 'puppy SubClassOf dog' },
  ]);
  assert.equal((p.operations as Row[]).length, 3);
  assert.equal((p.summary as Row).no_ops, 0);
  assert.equal(p.committable, true, JSON.stringify(p.committable_reasons));
  assert.deepEqual(p.committable_reasons, []);
  assert.equal(p.satisfiability_checked, true, 'auto is selected from the start: the preview is classified');
  assert.equal(p.satisfiability_note, undefined);
  assert.equal(p.policy_loaded, false);
  assert.equal(p.policy_digest, null);
  assert.match(p.preflight_contract_digest as string, /^sha256:[0-9a-f]{64}$/);
  assert.equal(p.snapshot_consistent, true);
  assert.equal(p.live_mutated, false);
  const pre = p.preflight as Row;
  assert.equal(pre.gate, 'pass');
  assert.deepEqual(
    pre.stages_ran,
    ['reasoner', 'profile', 'structural', 'governance'],
    'auto is selected from the start: the reasoner stage runs',
  );
  assert.deepEqual(pre.required_stages, []);
  assert.equal(await axiomCount(c), count);
  assert.equal(await undoDepth(c), depth);
  const none = await preview([sub('kitten', 'animal')], { include_impact: 'none' });
  assert.equal(none.operations, undefined);
  assert.equal(none.include_impact, 'none');
  await callOk(c, 'discard_change_set', { change_set_id: none.change_set_id });
  await callOk(c, 'discard_change_set', { change_set_id: p.change_set_id });
});

test('commit_change_set applies the preview once as one undo unit; a second commit is refused', async () => {
  const count = await axiomCount(c);
  const depth = await undoDepth(c);
  const p = await preview([
    sub('kitten', 'animal'),
    { axiom_type: 'disjoint_classes', classes: ['puppy', 'kitten'] },
    sub('puppy', 'dog', 'remove'),
  ]);
  const done = await callOk(c, 'commit_change_set', { change_set_id: p.change_set_id, expected_revision: p.base_revision });
  assert.equal(done.committed, true);
  assert.equal(done.change_set_id, p.change_set_id);
  assert.equal(done.effective_changes, 3);
  assert.equal(done.single_broadcast, true);
  assert.equal(done.undo_logged, true);
  assert.equal(done.undo_depth_before, depth);
  assert.equal(done.undo_depth_after, depth + 1);
  assert.equal(done.undo_log_warning, undefined);
  assert.deepEqual(done.normalized_changes, p.normalized_changes);
  assert.equal((done.new_revision as Row).session_revision, ((p.base_revision as Row).session_revision as number) + 1);
  assert.equal(await axiomCount(c), count + 1);
  const again = await call(c, 'commit_change_set', { change_set_id: p.change_set_id, expected_revision: p.base_revision });
  assert.equal(again.isError, true);
  assert.equal(again.body.error_code, 'unknown_change_set');
  assert.equal(again.body.committed, false);
  assert.equal(await axiomCount(c), count + 1);
  await callOk(c, 'undo_change');
  assert.equal(await axiomCount(c), count, 'one undo restores the whole change set');
  assert.equal(await undoDepth(c), depth);
});

test('a stale or altered revision envelope is a revision_conflict and commits nothing; rebase makes a new preview', async () => {
  const p = await preview([sub('kitten', 'animal')]);
  const altered = { ...(p.base_revision as Row), semantic_fingerprint: 'sha256:' + '0'.repeat(64) };
  const wrong = await call(c, 'commit_change_set', { change_set_id: p.change_set_id, expected_revision: altered });
  assert.equal(wrong.body.error_code, 'revision_conflict');
  assert.equal(wrong.body.committed, false);
  await callOk(c, 'apply_changes', { operations: [sub('puppy', 'animal')] });
  const count = await axiomCount(c);
  const stale = await call(c, 'commit_change_set', { change_set_id: p.change_set_id, expected_revision: p.base_revision });
  assert.equal(stale.isError, true);
  assert.equal(stale.body.error_code, 'revision_conflict');
  assert.equal(stale.body.committed, false);
  assert.deepEqual(stale.body.base_revision, p.base_revision);
  assert.equal((stale.body.current_revision as Row).session_revision, ((p.base_revision as Row).session_revision as number) + 1);
  assert.equal(await axiomCount(c), count);
  const r = await callOk(c, 'rebase_change_set', { change_set_id: p.change_set_id });
  assert.equal(r.rebased_from, p.change_set_id);
  assert.equal(r.resolution_verified, true);
  assert.notEqual(r.change_set_id, p.change_set_id);
  assert.deepEqual(r.base_revision, stale.body.current_revision);
  assert.equal(r.committable, true);
  const done = await callOk(c, 'commit_change_set', { change_set_id: r.change_set_id, expected_revision: r.base_revision });
  assert.equal(done.committed, true);
  assert.equal(await axiomCount(c), count + 1);
  // The original stays cached until discarded; it is still stale.
  assert.equal(
    (await call(c, 'commit_change_set', { change_set_id: p.change_set_id, expected_revision: p.base_revision })).body.error_code,
    'revision_conflict',
  );
  await callOk(c, 'discard_change_set', { change_set_id: p.change_set_id });
  await callOk(c, 'undo_change');
  await callOk(c, 'undo_change');
});

test('rebase after a conflicting edit lists what resolves differently and caches nothing', async () => {
  const p = await preview([sub('puppy', 'animal'), sub('kitten', 'hound')]);
  assert.equal(at(p.operations as Row[], 1).effect, 'would add');
  await callOk(c, 'set_label', { entity: `${CS}Dog`, value: 'hound', lang: 'en' });
  const r = await call(c, 'rebase_change_set', { change_set_id: p.change_set_id });
  assert.equal(r.isError, true);
  assert.equal(r.body.error_code, 'rebase_conflict');
  assert.equal(r.body.rebased, false);
  assert.equal(r.body.total_conflicts, 1);
  assert.equal(r.body.conflicts_truncated, false);
  const [conflict] = r.body.conflicts as Row[];
  assert.ok(conflict);
  assert.equal(conflict.position, 1);
  assert.match(conflict.was as string, /cs#hound/);
  assert.match(conflict.now as string, /cs#Dog/);
  assert.deepEqual(r.body.active_ontology, { iri: 'http://example.org/cs', version_iri: null });
  assert.deepEqual(r.body.base_revision, p.base_revision);
  await callOk(c, 'undo_change');
  await callOk(c, 'discard_change_set', { change_set_id: p.change_set_id });
});

test('discard drops a preview; discarded, unknown and expired previews are unknown_change_set', async () => {
  const count = await axiomCount(c);
  const p = await preview([sub('kitten', 'animal')]);
  assert.deepEqual(await callOk(c, 'discard_change_set', { change_set_id: p.change_set_id }), {
    change_set_id: p.change_set_id,
    discarded: true,
  });
  for (const [tool, args] of [
    ['discard_change_set', { change_set_id: p.change_set_id }],
    ['commit_change_set', { change_set_id: p.change_set_id, expected_revision: p.base_revision }],
    ['rebase_change_set', { change_set_id: p.change_set_id }],
    ['discard_change_set', { change_set_id: 'cs_no-such-id' }],
  ] as const) {
    const r = await call(c, tool, args);
    assert.equal(r.isError, true, tool);
    assert.equal(r.body.error_code, 'unknown_change_set', tool);
  }
  const short = await preview([sub('kitten', 'animal')], { ttl_seconds: 1 });
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const expired = await call(c, 'commit_change_set', { change_set_id: short.change_set_id, expected_revision: short.base_revision });
  assert.equal(expired.body.error_code, 'unknown_change_set');
  assert.equal(expired.body.committed, false);
  assert.equal(await axiomCount(c), count);
});

test('oversized and malformed change sets are refused before any QC', async () => {
  const tooMany = Array.from({ length: 2001 }, () => sub('kitten', 'animal'));
  assert.equal((await call(c, 'preview_change_set', { operations: tooMany })).body.error_code, 'invalid_argument');
  // 1,400 operations each minting five classes: 1,400 axioms and 7,000 declarations, over 8,000 changes.
  const wide = Array.from({ length: 1400 }, (_, i) => ({
    axiom_type: 'disjoint_classes',
    classes: [1, 2, 3, 4, 5].map((k) => `Gen${i}x${k}`),
  }));
  const large = await call(c, 'preview_change_set', { operations: wide });
  assert.equal(large.isError, true);
  assert.equal(large.body.error_code, 'change_set_too_large');
  assert.equal(large.body.limit_kind, 'normalized changes');
  for (const bad of [
    { ttl_seconds: 0 },
    { ttl_seconds: 3601 },
    { gates: ['nonsense'] },
    { include_impact: 'inferred' },
    { timeout_ms: 0 },
  ]) {
    assert.equal(
      (await call(c, 'preview_change_set', { operations: [sub('kitten', 'animal')], ...bad })).body.error_code,
      'invalid_argument',
      JSON.stringify(bad),
    );
  }
  assert.equal(
    (await call(c, 'commit_change_set', { change_set_id: 'x', expected_revision: { workspace_id: 'w' } })).body.error_code,
    'invalid_argument',
  );
});

test('an explicitly listed gate that cannot run makes the preview uncommittable', async () => {
  // A reasoner is always selected now (auto by default), so the listed gate without backing data is shacl.
  const p = await preview([sub('kitten', 'animal')], { gates: ['shacl'] });
  assert.equal(p.committable, false);
  assert.equal((p.preflight as Row).gate, 'error');
  assert.ok((p.committable_reasons as string[]).some((r) => r.includes('shacl')));
  const refused = await call(c, 'commit_change_set', { change_set_id: p.change_set_id, expected_revision: p.base_revision });
  assert.equal(refused.body.error_code, 'change_set_not_committable');
  assert.equal(refused.body.committed, false);
  assert.ok(Array.isArray(refused.body.reasons));
  await callOk(c, 'discard_change_set', { change_set_id: p.change_set_id });
});

// set_reasoner cannot deselect, so "no policy and no reasoner" cannot arise: auto judges the batch from the start.
test('apply_changes verify=rollback without a policy is judged by the default auto reasoner before any change', async () => {
  const count = await axiomCount(c);
  const depth = await undoDepth(c);
  const r = await callOk(c, 'apply_changes', { verify: 'rollback', operations: [sub('puppy', 'cat')] });
  const verify = r.verify as Row;
  assert.equal(verify.prevented_before_apply, true);
  assert.equal(verify.applied, false);
  assert.equal(verify.error_code, 'preflight_failed');
  assert.deepEqual(verify.newly_unsatisfiable, [`${CS}Puppy`]);
  assert.equal(await axiomCount(c), count);
  assert.equal(await undoDepth(c), depth);
});

test('with the EL reasoner, verify=rollback prevents a batch that makes a class unsatisfiable before any change', async () => {
  await callOk(c, 'set_reasoner', { reasoner: 'el' });
  const count = await axiomCount(c);
  const depth = await undoDepth(c);
  const r = await callOk(c, 'apply_changes', { verify: 'rollback', operations: [sub('puppy', 'cat')] });
  const verify = r.verify as Row;
  assert.equal(verify.mode, 'rollback');
  assert.equal(verify.applied, false);
  assert.equal(verify.prevented_before_apply, true);
  assert.equal(verify.rolled_back, false);
  assert.equal(verify.regression, true);
  assert.equal(verify.inconsistent, false);
  assert.deepEqual(verify.newly_unsatisfiable, [`${CS}Puppy`]);
  assert.equal(verify.gate, 'fail');
  assert.equal(verify.verification_path, 'change_set_preflight');
  assert.equal(verify.classification_started, true);
  assert.equal(verify.classification_completed, true);
  assert.equal(verify.error_code, 'preflight_failed');
  assert.equal(verify.was_inconsistent, false);
  assert.equal(
    ((verify.preflight as Row).findings as Row[]).some((f) => f.rule_id === 'unsatisfiable_class' && f.focus_iri === `${CS}Puppy`),
    true,
  );
  assert.deepEqual(at(r.operations as Row[], 0).applied, false);
  assert.equal((r.summary as Row).added, 0);
  assert.equal((r.summary as Row).single_undo, false);
  assert.equal(await axiomCount(c), count, 'ontology unchanged');
  assert.equal(await undoDepth(c), depth, 'undo depth unchanged: nothing was applied and undone');
  const p = await preview([sub('puppy', 'cat')]);
  assert.equal(p.committable, false, 'the reasoner gate judges the result state');
  assert.equal(p.satisfiability_checked, true);
  await callOk(c, 'discard_change_set', { change_set_id: p.change_set_id });
});

test('verify=report commits a failing batch and reports the verdict', async () => {
  const count = await axiomCount(c);
  const depth = await undoDepth(c);
  const r = await callOk(c, 'apply_changes', { verify: 'report', operations: [sub('puppy', 'cat')] });
  const verify = r.verify as Row;
  assert.equal(verify.mode, 'report');
  assert.equal(verify.applied, true);
  assert.equal(verify.gate, 'fail');
  assert.equal(verify.regression, true);
  assert.deepEqual(verify.newly_unsatisfiable, [`${CS}Puppy`]);
  assert.equal(verify.prevented_before_apply, undefined);
  assert.equal((r.summary as Row).added, 1);
  assert.equal((r.summary as Row).single_undo, true);
  assert.equal(await axiomCount(c), count + 1);
  assert.equal(await undoDepth(c), depth + 1);
});

test('findings the unchanged ontology already has do not block verify=rollback', async () => {
  // The previous test left Puppy unsatisfiable; an unrelated batch fails the gate on that alone.
  const count = await axiomCount(c);
  const r = await callOk(c, 'apply_changes', { verify: 'rollback', operations: [sub('kitten', 'animal')] });
  const verify = r.verify as Row;
  assert.equal(verify.gate, 'fail');
  assert.equal(verify.applied, true, JSON.stringify(verify));
  assert.equal(verify.regression, false);
  assert.deepEqual(verify.newly_unsatisfiable, []);
  const baseline = verify.baseline_gate as Row;
  assert.equal(baseline.gate, 'fail');
  assert.equal(baseline.preexisting_count, 1);
  assert.equal(at(baseline.preexisting_findings as Row[], 0).focus_iri, `${CS}Puppy`);
  assert.equal(await axiomCount(c), count + 1);
  // A batch that adds a new unsatisfiable class on top is still prevented.
  const worse = await callOk(c, 'apply_changes', { verify: 'rollback', operations: [sub('kitten', 'dog')] });
  assert.equal((worse.verify as Row).applied, false);
  assert.deepEqual((worse.verify as Row).newly_unsatisfiable, [`${CS}Kitten`]);
  assert.equal(await axiomCount(c), count + 1);
  await callOk(c, 'undo_change');
  await callOk(c, 'undo_change');
  assert.equal(await axiomCount(c), count - 1, 'both verified commits undone, one unit each');
});

test('a workspace change while the preflight runs invalidates the preview and caches nothing', async () => {
  const ctx = toolContext([await loadOntologyFile(path.join(dir, 'cs.ttl'))]);
  ctx.window.reasoning.select(reasonerById('el'));
  const store = changeSetStore(ctx.window);
  const running = runInContext('preview_change_set', { operations: [sub('kitten', 'animal')] }, ctx);
  // The entry is reserved in the same synchronous step that captures the snapshot, so once it shows, the
  // gate is running over a snapshot of the old revision.
  while (store.size === 0) await new Promise((resolve) => setImmediate(resolve));
  const before = ctx.workspace.revision;
  await runInContext('apply_changes', { operations: [sub('puppy', 'animal')] }, ctx);
  const r = await running;
  assert.equal(r.isError, true);
  assert.equal(r.body.error_code, 'revision_changed_during_preview');
  assert.equal(r.body.preview_invalidated, true);
  assert.equal((r.body.current_revision as Row).session_revision, before + 1);
  assert.equal(store.size, 0, 'nothing cached');
});

test('with a project policy its stages decide, and a changed, pinned or removed policy refuses the commit', async () => {
  const policyDir = path.join(dir, '.athene');
  const policyFile = path.join(policyDir, 'project.yaml');
  const policyText = (stages: string) =>
    `version: 1\nproject_id: cs\nroot_ontology: http://example.org/cs\nvalidation:\n  required_stages: [${stages}]\n`;
  await mkdir(policyDir);
  await writeFile(policyFile, policyText('structural'));
  try {
    const p = await preview([sub('kitten', 'animal')]);
    assert.equal(p.policy_loaded, true);
    assert.match(p.policy_digest as string, /^sha256:[0-9a-f]{64}$/);
    // run_project_qc semantics: a version-1 policy always requires interoperability, and rules always
    assert.deepEqual((p.preflight as Row).required_stages, ['interoperability', 'structural', 'rules']);
    assert.deepEqual((p.preflight as Row).stages_ran, ['interoperability', 'structural', 'rules']);
    assert.equal(p.committable, true, JSON.stringify(p.committable_reasons));
    const pinned = await call(c, 'commit_change_set', {
      change_set_id: p.change_set_id,
      expected_revision: p.base_revision,
      confirm_policy_digest: 'sha256:' + '1'.repeat(64),
    });
    assert.equal(pinned.body.error_code, 'policy_digest_conflict');
    assert.equal(pinned.body.committed, false);
    const count = await axiomCount(c);
    const done = await callOk(c, 'commit_change_set', {
      change_set_id: p.change_set_id,
      expected_revision: p.base_revision,
      confirm_policy_digest: p.policy_digest,
    });
    assert.equal(done.committed, true, 'a refused commit leaves the preview committable');
    assert.equal(await axiomCount(c), count + 1);
    await callOk(c, 'undo_change');

    const q = await preview([sub('kitten', 'animal')]);
    await writeFile(policyFile, policyText('structural, profile'));
    const edited = await call(c, 'commit_change_set', { change_set_id: q.change_set_id, expected_revision: q.base_revision });
    assert.equal(edited.body.error_code, 'policy_digest_conflict');
    await rm(policyDir, { recursive: true });
    const removed = await call(c, 'commit_change_set', { change_set_id: q.change_set_id, expected_revision: q.base_revision });
    assert.equal(removed.body.error_code, 'policy_conflict');
    assert.match(removed.body.pinned_policy_path as string, /\.athene[/\\]project\.yaml$/);
    assert.equal(removed.body.effective_policy_path, null);
    assert.equal(await axiomCount(c), count);
  } finally {
    await rm(policyDir, { recursive: true, force: true });
  }
});

test('lock_mode: verify without a lockfile is skipped, required without one makes the preview uncommittable', async () => {
  const skipped = await preview([sub('kitten', 'animal')], { lock_mode: 'verify' });
  const lock = (skipped.preflight as Row).import_lock_verification as Row;
  assert.equal(lock.skipped, true);
  assert.equal(lock.verified, false);
  assert.equal(lock.lockfile_source, 'beside_document');
  assert.equal(skipped.committable, true);
  const required = await preview([sub('kitten', 'animal')], { lock_mode: 'required' });
  const missing = (required.preflight as Row).import_lock_verification as Row;
  assert.equal(missing.verified, false);
  assert.equal(at(missing.findings as Row[], 0).rule_id, 'imports.lock_missing');
  assert.equal((required.preflight as Row).gate, 'fail');
  assert.equal(required.committable, false);
  assert.ok((required.committable_reasons as string[]).some((r) => r.startsWith('import_lock')));
  for (const p of [skipped, required]) await callOk(c, 'discard_change_set', { change_set_id: p.change_set_id });
});

test('with a policy its verdict is absolute for verify=rollback and its fail_on decides; without one, warnings do not block', async () => {
  // An unlabelled class: a structural smell the ontology has before the verified batches below.
  await callOk(c, 'apply_changes', { operations: [sub('Wolf', 'animal')] });
  const count = await axiomCount(c);
  await withProjectPolicy(
    dir,
    'version: 1\nproject_id: cs\nroot_ontology: http://example.org/cs\nvalidation:\n  required_stages: [structural]\n  fail_on: warn\n',
    async () => {
      const governed = await callOk(c, 'apply_changes', { verify: 'rollback', operations: [sub('kitten', 'animal')] });
      const verify = governed.verify as Row;
      assert.equal(verify.gate, 'fail');
      assert.equal(verify.applied, false);
      assert.equal(verify.prevented_before_apply, true);
      assert.match(verify.policy_digest as string, /^sha256:/);
      assert.equal(verify.baseline_gate, undefined, 'a policy verdict is not softened by the baseline');
      assert.equal(await axiomCount(c), count);
    },
  );
  // The policy's fail_on is honoured: structural smells are warnings, which fail_on error does not block.
  await withProjectPolicy(
    dir,
    'version: 1\nproject_id: cs\nroot_ontology: http://example.org/cs\nvalidation:\n  required_stages: [structural]\n  fail_on: error\n',
    async () => {
      const p = await preview([sub('kitten', 'animal')]);
      const structural = ((p.preflight as Row).stages as Row[]).find((s) => s.stage === 'structural')!;
      assert.equal(structural.verdict, 'warn');
      assert.equal(p.committable, true, JSON.stringify(p.committable_reasons));
      await callOk(c, 'discard_change_set', { change_set_id: p.change_set_id });
    },
  );
  // Without a policy the default fail_on is error: the warning does not fail the gate at all.
  const free = await callOk(c, 'apply_changes', { verify: 'rollback', operations: [sub('kitten', 'animal')] });
  const verify = free.verify as Row;
  assert.equal(verify.gate, 'pass');
  assert.equal(verify.applied, true);
  assert.equal(verify.regression, false);
  assert.ok(((verify.preflight as Row).findings as Row[]).some((f) => f.rule_id === 'missing_label' && f.focus_iri === `${CS}Wolf`));
  assert.equal(await axiomCount(c), count + 1);
  await callOk(c, 'undo_change');
  await callOk(c, 'undo_change');
});

test('in read-only mode previews still run and commits are refused', async () => {
  const { c: client, close } = await serveAndConnect([path.join(dir, 'cs.ttl')], { read_only: true });
  try {
    const p = await callOk(client, 'preview_change_set', { operations: [sub('kitten', 'animal')] });
    assert.equal(p.committable, true);
    const refused = await call(client, 'commit_change_set', { change_set_id: p.change_set_id, expected_revision: p.base_revision });
    assert.equal(refused.body.error_code, 'read_only');
    assert.equal((await callOk(client, 'discard_change_set', { change_set_id: p.change_set_id })).discarded, true);
  } finally {
    await close();
  }
});

test('with generated ids a commit lands the previewed IRIs, and a rebase cannot reproduce them', async () => {
  const { c: client, close } = await serveAndConnect([path.join(dir, 'cs.ttl')], { new_entity_ids: 'generated' });
  try {
    const p = await callOk(client, 'preview_change_set', { operations: [sub('Wolf', 'animal')] });
    const minted = at(at(p.operations as Row[], 0).new_entities as Row[], 0).iri as string;
    const r = await call(client, 'rebase_change_set', { change_set_id: p.change_set_id });
    assert.equal(r.body.error_code, 'rebase_conflict', 'a minted id is drawn again on every resolution');
    assert.equal((at(r.body.conflicts as Row[], 0).was as string).includes(minted), true);
    const done = await callOk(client, 'commit_change_set', { change_set_id: p.change_set_id, expected_revision: p.base_revision });
    assert.deepEqual(done.normalized_changes, p.normalized_changes);
    assert.equal((await call(client, 'get_entity', { entity: minted })).isError, false, 'the previewed IRI is the committed one');
  } finally {
    await close();
  }
});

test('concurrent commits of one preview from several sessions commit it exactly once', async () => {
  const other = await connect(t);
  try {
    const count = await axiomCount(c);
    const depth = await undoDepth(c);
    const p = await preview([sub('kitten', 'animal')]);
    const args = { change_set_id: p.change_set_id, expected_revision: p.base_revision };
    const outcomes = await Promise.all([c, other, c, other, c].map((client) => call(client, 'commit_change_set', args)));
    assert.equal(outcomes.filter((o) => !o.isError).length, 1);
    for (const o of outcomes.filter((x) => x.isError)) {
      assert.ok(['change_set_in_progress', 'unknown_change_set'].includes(o.body.error_code as string), JSON.stringify(o.body));
      assert.equal(o.body.committed, false);
    }
    assert.equal(await axiomCount(c), count + 1);
    assert.equal(await undoDepth(c), depth + 1);
    await callOk(c, 'undo_change');
  } finally {
    await other.close();
  }
});

test('a commit while another commit of the same preview is under way is change_set_in_progress', async () => {
  const ctx = toolContext([await loadOntologyFile(path.join(dir, 'cs.ttl'))]);
  const p = await runInContext('preview_change_set', { operations: [sub('kitten', 'animal')] }, ctx);
  const args = { change_set_id: p.body.change_set_id, expected_revision: p.body.base_revision };
  // The first commit claims the preview synchronously, then awaits the policy re-resolution.
  const first = runInContext('commit_change_set', args, ctx);
  const second = await runInContext('commit_change_set', args, ctx);
  assert.equal(second.body.error_code, 'change_set_in_progress');
  assert.equal(second.body.committed, false);
  assert.equal((await first).body.committed, true);
  const third = await runInContext('commit_change_set', args, ctx);
  assert.equal(third.body.error_code, 'unknown_change_set');
});

test('an invalid project policy makes the preflight an error: previews are uncommittable, verify=report still commits', async () => {
  await withProjectPolicy(dir, 'version: 1\nproject_id: cs\nroot_ontology: http://example.org/cs\nno_such_block: true\n', async () => {
    const p = await preview([sub('kitten', 'animal')]);
    assert.equal(p.policy_loaded, true);
    assert.equal(p.policy_digest, null);
    assert.equal((p.preflight as Row).gate, 'error');
    assert.equal(p.committable, false);
    assert.ok((p.committable_reasons as string[]).some((r) => r.startsWith('policy_invalid')));
    const count = await axiomCount(c);
    const prevented = await callOk(c, 'apply_changes', { verify: 'rollback', operations: [sub('kitten', 'animal')] });
    assert.equal((prevented.verify as Row).error_code, 'preflight_error');
    assert.equal(await axiomCount(c), count);
    const reported = await callOk(c, 'apply_changes', { verify: 'report', operations: [sub('kitten', 'animal')] });
    assert.equal((reported.verify as Row).gate, 'error');
    assert.equal((reported.verify as Row).applied, true);
    assert.equal(await axiomCount(c), count + 1);
    await callOk(c, 'undo_change');
  });
});

// A transitive (non-simple) property under a cardinality restriction violates OWL 2 DL (§11.2): a finding
// the ontology has before any batch.
const NOT_DL = `@prefix : <${CS}> .
@prefix owl:  <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd:  <http://www.w3.org/2001/XMLSchema#> .

<http://example.org/cs> a owl:Ontology .
:partOf a owl:ObjectProperty, owl:TransitiveProperty ; rdfs:label "part of"@en .
:Animal a owl:Class ; rdfs:label "animal"@en .
:Dog a owl:Class ; rdfs:label "dog"@en ; rdfs:subClassOf :Animal,
  [ a owl:Restriction ; owl:onProperty :partOf ; owl:maxCardinality "1"^^xsd:nonNegativeInteger ] .
:Cat a owl:Class ; rdfs:label "cat"@en ; rdfs:subClassOf :Animal .
`;

test('without a policy a preview is judged against the baseline: findings already there do not block, new ones do', async () => {
  const s = await serveTempOntology('athene-change-sets-baseline-', 'not-dl.ttl', NOT_DL);
  try {
    const count = await axiomCount(s.c);
    const harmless = await callOk(s.c, 'preview_change_set', {
      operations: [{ axiom_type: 'annotation_assertion', subject: 'cat', value: 'a cat', property: 'rdfs:comment' }],
    });
    assert.equal((harmless.preflight as Row).gate, 'fail', 'the profile stage fails on the pre-existing violation');
    assert.equal(harmless.committable, true, JSON.stringify(harmless.committable_reasons));
    assert.deepEqual(harmless.committable_reasons, []);
    const baseline = harmless.baseline_gate as Row;
    assert.equal(baseline.gate, 'fail');
    assert.ok((baseline.preexisting_count as number) >= 1);
    assert.ok((baseline.preexisting_findings as Row[]).every((f) => f.source === 'profile'));
    const done = await callOk(s.c, 'commit_change_set', {
      change_set_id: harmless.change_set_id,
      expected_revision: harmless.base_revision,
    });
    assert.equal(done.committed, true);
    assert.equal(await axiomCount(s.c), count + 1);
    // A second non-simple use is a violation the baseline lacks: the preview blocks.
    const worse = await callOk(s.c, 'preview_change_set', { operations: [sub('cat', 'partOf max 1 animal')] });
    assert.equal(worse.committable, false);
    assert.ok(
      (worse.committable_reasons as string[]).some((r) => r.startsWith('stage_failed: profile')),
      JSON.stringify(worse.committable_reasons),
    );
    assert.equal(await axiomCount(s.c), count + 1);
  } finally {
    await s.close();
  }
});
