// materialize_inferences and commit_materialization on a real server: preview, then commit into the active
// ontology (one undo entry), into a new loaded ontology and into a project file; the refusals a client meets
// (collision under reject, missing allow_source, wrong fingerprint, unknown artifact, another session's
// artifact, changed source, existing file without overwrite).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { sha256Digest } from '../../src/util/digest.js';
import { call, callOk, connect, serveTempOntology, undoDepth, withProjectPolicy, type ServedTempOntology } from '../server/support.js';

const EX = 'http://example.org/m#';
const SOURCE = 'http://example.org/m';
const ONTOLOGY = `Prefix(:=<${EX}>)
Ontology(<${SOURCE}>
Declaration(Class(:A)) Declaration(Class(:B)) Declaration(Class(:C))
Declaration(NamedIndividual(:x))
SubClassOf(:A :B)
SubClassOf(:B :C)
ClassAssertion(:A :x)
)
`;

let s: ServedTempOntology;

before(async () => {
  s = await serveTempOntology('athene-materialize-', 'm.ofn', ONTOLOGY);
  await callOk(s.c, 'set_reasoner', { reasoner: 'el' });
});

after(async () => {
  await s.close();
});

type Row = Record<string, unknown>;

const LIMITS = { max_axioms_per_category: 100, max_axioms_total: 100, max_bytes: 100_000, timeout_ms: 60_000 };

function previewArgs(kind: string, identifier: string, categories = ['subclass_axioms', 'class_assertions']): Row {
  return {
    categories,
    destination: { kind, identifier },
    provenance: { generator: 'server test', purpose: 'materialize' },
    limits: LIMITS,
  };
}

async function preview(kind: string, identifier: string, categories?: string[]): Promise<Row> {
  const r = await callOk(s.c, 'materialize_inferences', previewArgs(kind, identifier, categories));
  return r.artifact as Row;
}

const axioms = async () => (await callOk(s.c, 'get_active_ontology')).axioms as number;

test('a preview changes nothing and describes its artifact', async () => {
  const before = await axioms();
  const r = await callOk(s.c, 'materialize_inferences', previewArgs('active_source', SOURCE));
  assert.equal(r.preview_only, true);
  assert.equal(r.live_state_changed, false);
  assert.deepEqual(r.produced_categories, ['subclass_axioms', 'class_assertions']);
  // SubClassOf(A B), SubClassOf(B C), ClassAssertion(A x) are asserted already
  assert.equal(r.asserted_collision_count, 3);
  const a = r.artifact as Row;
  assert.equal(a.axiom_count, 6);
  assert.match(a.artifact_id as string, /^[A-Za-z0-9._-]{1,128}$/);
  assert.ok(Date.parse(a.expires_at as string) - Date.parse(a.created_at as string) === 30 * 60 * 1000);
  assert.equal(await axioms(), before);
  // the server-wide preview-reasoner slot is released once the reasoner is disposed of
  await assert.rejects(stat(path.join(s.t.home, 'materialization-preview.lock')), { code: 'ENOENT' });
});

test('commit into the active ontology: allow_source and collisions are checked, the commit is one undo entry', async () => {
  const a = await preview('active_source', SOURCE);
  const base = { artifact_id: a.artifact_id, artifact_fingerprint: a.artifact_fingerprint, confirm: true };
  const noSource = await call(s.c, 'commit_materialization', base);
  assert.equal(noSource.body.error_code, 'invalid_argument');
  const rejected = await call(s.c, 'commit_materialization', { ...base, allow_source: true });
  assert.equal(rejected.body.error_code, 'materialization_collision');
  assert.equal(rejected.body.committed, false);
  const before = await axioms();
  const depth = await undoDepth(s.c);
  const r = await callOk(s.c, 'commit_materialization', { ...base, allow_source: true, collision_mode: 'merge' });
  assert.equal(r.status, 'committed');
  assert.equal(r.single_undo, true);
  assert.equal(r.added_axioms, 6);
  assert.equal(r.materialization_digest, a.materialization_digest);
  // six annotated axioms and the declaration of prov:wasGeneratedBy
  assert.equal(await axioms(), before + 7);
  assert.equal(await undoDepth(s.c), depth + 1);
  const again = await call(s.c, 'commit_materialization', { ...base, allow_source: true, collision_mode: 'merge' });
  assert.equal(again.body.error_code, 'precondition_changed');
  assert.deepEqual((again.body.changed as string[]).includes('source_revision'), true);
  await callOk(s.c, 'undo_change');
  assert.equal(await axioms(), before);
});

test('commit as a new ontology loads it beside the source, not undoable', async () => {
  const a = await preview('new_ontology', 'http://example.org/m-inferred');
  const r = await callOk(s.c, 'commit_materialization', {
    artifact_id: a.artifact_id,
    artifact_fingerprint: a.artifact_fingerprint,
    confirm: true,
  });
  assert.equal(r.status, 'committed');
  assert.equal(r.single_undo, false);
  assert.equal(r.added_axioms, 6);
  const listed = JSON.stringify(await callOk(s.c, 'list_ontologies'));
  assert.match(listed, /m-inferred/);
  assert.equal((((await callOk(s.c, 'get_active_ontology')).ontology as string | undefined) ?? SOURCE).includes('m-inferred'), false);
  const twice = await call(s.c, 'commit_materialization', {
    artifact_id: a.artifact_id,
    artifact_fingerprint: a.artifact_fingerprint,
    confirm: true,
  });
  assert.equal(twice.isError, true);
});

test('commit as a project file writes verified functional syntax, never clobbers, and replaces only the expected target', async () => {
  const a = await preview('project_file', 'inferred/m-inferred.ofn');
  const target = path.join(s.dir, 'inferred', 'm-inferred.ofn');
  const r = await callOk(s.c, 'commit_materialization', {
    artifact_id: a.artifact_id,
    artifact_fingerprint: a.artifact_fingerprint,
    confirm: true,
  });
  assert.equal(r.status, 'committed');
  const text = await readFile(target, 'utf8');
  assert.equal(r.target_digest, sha256Digest(text));
  assert.match(text, /wasGeneratedBy/);
  assert.match(text, /generator: server test; purpose: materialize/);
  assert.match(text, /SubClassOf/);
  const same = await callOk(s.c, 'commit_materialization', {
    artifact_id: a.artifact_id,
    artifact_fingerprint: a.artifact_fingerprint,
    confirm: true,
  });
  assert.equal(same.status, 'noop');
  const b = await preview('project_file', 'inferred/m-inferred.ofn', ['subclass_axioms']);
  const refused = await call(s.c, 'commit_materialization', {
    artifact_id: b.artifact_id,
    artifact_fingerprint: b.artifact_fingerprint,
    confirm: true,
  });
  assert.equal(refused.body.error_code, 'target_exists');
  const wrong = await call(s.c, 'commit_materialization', {
    artifact_id: b.artifact_id,
    artifact_fingerprint: b.artifact_fingerprint,
    confirm: true,
    overwrite: true,
    expected_target_digest: 'sha256:' + '1'.repeat(64),
  });
  assert.equal(wrong.body.error_code, 'target_digest_mismatch');
  assert.equal(await readFile(target, 'utf8'), text);
  const replaced = await callOk(s.c, 'commit_materialization', {
    artifact_id: b.artifact_id,
    artifact_fingerprint: b.artifact_fingerprint,
    confirm: true,
    overwrite: true,
    expected_target_digest: r.target_digest,
  });
  assert.equal(replaced.status, 'committed');
  const backup = replaced.backup as Row;
  assert.equal(await readFile(backup.path as string, 'utf8'), text);
  assert.doesNotMatch(await readFile(target, 'utf8'), /ClassAssertion/);
});

test('a project file outside the project root is refused', async () => {
  const r = await call(s.c, 'materialize_inferences', previewArgs('project_file', '../escape.ofn'));
  assert.equal(r.body.error_code, 'invalid_argument');
});

test("a wrong fingerprint, an unknown artifact and another session's artifact are refused", async () => {
  const a = await preview('new_ontology', 'http://example.org/m-other');
  const wrong = await call(s.c, 'commit_materialization', {
    artifact_id: a.artifact_id,
    artifact_fingerprint: 'sha256:' + '0'.repeat(64),
    confirm: true,
  });
  assert.equal(wrong.body.error_code, 'artifact_fingerprint_mismatch');
  const unknown = await call(s.c, 'commit_materialization', {
    artifact_id: 'mat-none',
    artifact_fingerprint: a.artifact_fingerprint,
    confirm: true,
  });
  assert.equal(unknown.body.error_code, 'unknown_artifact');
  const other = await connect(s.t);
  try {
    const r = await call(other, 'commit_materialization', {
      artifact_id: a.artifact_id,
      artifact_fingerprint: a.artifact_fingerprint,
      confirm: true,
    });
    assert.equal(r.body.error_code, 'unknown_artifact');
  } finally {
    await other.close();
  }
});

test('an edit after the preview makes the commit fail with precondition_changed', async () => {
  const a = await preview('new_ontology', 'http://example.org/m-stale');
  await callOk(s.c, 'add_axiom', { axiom_type: 'subclass_of', sub: `${EX}C`, super: `${EX}D` });
  const r = await call(s.c, 'commit_materialization', {
    artifact_id: a.artifact_id,
    artifact_fingerprint: a.artifact_fingerprint,
    confirm: true,
  });
  assert.equal(r.body.error_code, 'precondition_changed');
  assert.ok((r.body.changed as string[]).includes('imports_closure'));
  await callOk(s.c, 'undo_change');
});

test('a version-2 policy bounds limits and categories and guards the active source', async () => {
  const yaml = `version: 2\nproject_id: mat\nroot_ontology: "${SOURCE}"\nmaterialization:\n  allowed_categories: [subclass_axioms]\n  max_axioms: 5\n`;
  await withProjectPolicy(s.dir, yaml, async () => {
    const over = await call(s.c, 'materialize_inferences', previewArgs('new_ontology', 'http://example.org/m-policy', ['subclass_axioms']));
    assert.equal(over.body.error_code, 'limit_exceeds_policy');
    const small = { max_axioms_per_category: 5, max_axioms_total: 5, max_bytes: 100_000, timeout_ms: 60_000 };
    const notAllowed = await call(s.c, 'materialize_inferences', {
      ...previewArgs('new_ontology', 'http://example.org/m-policy'),
      limits: small,
    });
    assert.equal(notAllowed.body.error_code, 'category_not_allowed');
    const source = await call(s.c, 'materialize_inferences', {
      ...previewArgs('active_source', SOURCE, ['subclass_axioms']),
      limits: small,
    });
    assert.equal(source.body.error_code, 'source_write_not_allowed');
    const ok = await callOk(s.c, 'materialize_inferences', {
      ...previewArgs('new_ontology', 'http://example.org/m-policy', ['subclass_axioms']),
      limits: small,
    });
    assert.match((ok.input_identity as Row).policy_digest as string, /^sha256:/);
    assert.equal((ok.input_identity as Row).mapping_revision, null);
  });
  await withProjectPolicy(s.dir, yaml.replace('max_axioms: 5\n', 'max_axioms: 5\n  allow_source_write: true\n'), async () => {
    const small = { max_axioms_per_category: 5, max_axioms_total: 5, max_bytes: 100_000, timeout_ms: 60_000 };
    const allowed = await call(s.c, 'materialize_inferences', {
      ...previewArgs('active_source', SOURCE, ['subclass_axioms']),
      limits: small,
    });
    assert.equal(
      allowed.isError,
      false,
      'allow_source_write: true lets the active source be a destination: ' + JSON.stringify(allowed.body),
    );
  });
});

test('a project lock left by a dead process is removed and the retry publishes', async () => {
  const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
  const lock = path.join(s.dir, '.athene-workspace-lock');
  await mkdir(lock);
  await writeFile(path.join(lock, 'owner.json'), JSON.stringify({ pid: dead }));
  const a = await preview('project_file', 'locked.ofn', ['subclass_axioms']);
  const args = { artifact_id: a.artifact_id, artifact_fingerprint: a.artifact_fingerprint, confirm: true };
  const first = await call(s.c, 'commit_materialization', args);
  assert.equal(first.body.error_code, 'materialization_workspace_recovery_applied');
  assert.equal((await callOk(s.c, 'commit_materialization', args)).status, 'committed');
  await assert.rejects(stat(lock), { code: 'ENOENT' });
});

test('a change of the mapping set of the policy after the preview makes the commit fail', async () => {
  const yaml = `version: 2\nproject_id: mat\nroot_ontology: "${SOURCE}"\nmappings:\n  path: mappings.sssom.tsv\n`;
  const mappings = path.join(s.dir, 'mappings.sssom.tsv');
  await writeFile(mappings, 'subject_id\tpredicate_id\tobject_id\tmapping_justification\n');
  try {
    await withProjectPolicy(s.dir, yaml, async () => {
      const r = await callOk(
        s.c,
        'materialize_inferences',
        previewArgs('new_ontology', 'http://example.org/m-mapped', ['subclass_axioms']),
      );
      const a = r.artifact as Row;
      assert.match((r.input_identity as Row).mapping_revision as string, /^sha256:/);
      await writeFile(
        mappings,
        'subject_id\tpredicate_id\tobject_id\tmapping_justification\nex:a\tskos:exactMatch\tex:b\tsemapv:ManualMappingCuration\n',
      );
      const c = await call(s.c, 'commit_materialization', {
        artifact_id: a.artifact_id,
        artifact_fingerprint: a.artifact_fingerprint,
        confirm: true,
      });
      assert.equal(c.body.error_code, 'precondition_changed');
      assert.deepEqual(c.body.changed, ['mapping_revision']);
    });
  } finally {
    await rm(mappings, { force: true });
  }
});

test('re-materializing unchanged knowledge is a noop; replace swaps earlier provenance for the current one', async () => {
  const first = await preview('active_source', SOURCE, ['subclass_axioms']);
  const commit = (a: Row, extra: Row = {}) =>
    call(s.c, 'commit_materialization', {
      artifact_id: a.artifact_id,
      artifact_fingerprint: a.artifact_fingerprint,
      confirm: true,
      allow_source: true,
      ...extra,
    });
  assert.equal((await commit(first, { collision_mode: 'merge' })).body.status, 'committed');
  const same = await preview('active_source', SOURCE, ['subclass_axioms']);
  assert.equal(same.materialization_digest, first.materialization_digest, 'the published axioms do not change the provenance basis');
  const noop = await commit(same, { collision_mode: 'merge' });
  assert.equal(noop.body.status, 'noop');
  assert.equal(noop.body.committed, false);
  assert.equal(noop.body.existing_axioms, 3);
  // new asserted knowledge: every provenance IRI changes, so the published forms become alternates
  await callOk(s.c, 'add_axiom', { axiom_type: 'subclass_of', sub: `${EX}C`, super: `${EX}D` });
  const next = await preview('active_source', SOURCE, ['subclass_axioms']);
  assert.equal((await commit(next)).body.error_code, 'materialization_collision');
  const before = await axioms();
  const replaced = await commit(next, { collision_mode: 'replace' });
  assert.equal(replaced.body.status, 'committed');
  assert.equal(replaced.body.removed_axioms, 3);
  // six subclass axioms now (A-B, A-C, A-D, B-C, B-D, C-D) replace the three of the first run
  assert.equal(await axioms(), before + 6 - 3);
  for (let i = 0; i < 3; i++) await callOk(s.c, 'undo_change');
});

test('refusals before any reasoner exists: an unsupported category, an ontology-destination limit above 500, malformed arguments', async () => {
  const unsupported = await call(
    s.c,
    'materialize_inferences',
    previewArgs('new_ontology', 'http://example.org/m-dp', ['subclass_axioms', 'data_property_assertions']),
  );
  assert.equal(unsupported.body.error_code, 'unsupported_category');
  assert.deepEqual(
    (unsupported.body.unsupported_categories as Row[]).map((u) => u.category),
    ['data_property_assertions'],
  );
  assert.ok((unsupported.body.supported_categories as string[]).includes('subclass_axioms'));
  const big = { ...LIMITS, max_axioms_total: 501 };
  const capped = await call(s.c, 'materialize_inferences', { ...previewArgs('new_ontology', 'http://example.org/m-big'), limits: big });
  assert.deepEqual([capped.body.error_code, capped.body.argument], ['invalid_argument', 'limits.max_axioms_total']);
  const fileOk = await callOk(s.c, 'materialize_inferences', {
    ...previewArgs('project_file', 'inferred/big.ofn'),
    limits: { ...LIMITS, max_axioms_total: 50_000 },
  });
  assert.equal(fileOk.status, 'ready', 'a project_file destination allows up to 50,000');
  for (const bad of [
    { ...previewArgs('new_ontology', 'http://example.org/m-x'), categories: ['subclass_axioms', 'subclass_axioms'] },
    { ...previewArgs('new_ontology', 'http://example.org/m-x'), categories: [] },
    { ...previewArgs('new_ontology', 'http://example.org/m-x'), limits: { ...LIMITS, max_bytes: 1023 } },
    { ...previewArgs('new_ontology', 'http://example.org/m-x'), provenance: { generator: '', purpose: 'p' } },
  ]) {
    assert.equal((await call(s.c, 'materialize_inferences', bad)).body.error_code, 'invalid_argument', JSON.stringify(bad));
  }
  const a = await preview('new_ontology', 'http://example.org/m-unconfirmed');
  const unconfirmed = await call(s.c, 'commit_materialization', {
    artifact_id: a.artifact_id,
    artifact_fingerprint: a.artifact_fingerprint,
    confirm: false,
  });
  assert.deepEqual([unconfirmed.body.error_code, unconfirmed.body.committed], ['invalid_argument', false]);
  const badId = await call(s.c, 'commit_materialization', {
    artifact_id: 'no/slash',
    artifact_fingerprint: a.artifact_fingerprint,
    confirm: true,
  });
  assert.equal(badId.body.error_code, 'invalid_argument');
});

test("a preview while another holds the server's preview-reasoner slot fails with materialization_busy, retryable, and keeps nothing", async () => {
  const slot = path.join(s.t.home, 'materialization-preview.lock');
  await writeFile(slot, JSON.stringify({ pid: process.pid, thread: -1, token: 'other', deadline: Date.now() + 600_000 }));
  try {
    const before = await axioms();
    const r = await call(s.c, 'materialize_inferences', previewArgs('new_ontology', 'http://example.org/m-busy'));
    assert.deepEqual([r.isError, r.body.error_code, r.body.retryable], [true, 'materialization_busy', true]);
    assert.equal(await axioms(), before);
    assert.equal(JSON.parse(await readFile(slot, 'utf8')).token, 'other', "the holder's slot is left alone");
  } finally {
    await rm(slot, { force: true });
  }
  assert.equal((await callOk(s.c, 'materialize_inferences', previewArgs('new_ontology', 'http://example.org/m-busy'))).status, 'ready');
});

test('a category that would break a limit is discarded whole: partial and discarded previews say which and why', async () => {
  const args = (limits: Row) => ({ ...previewArgs('new_ontology', 'http://example.org/m-limits'), limits: { ...LIMITS, ...limits } });
  const partial = await callOk(s.c, 'materialize_inferences', args({ max_axioms_total: 4 }));
  assert.deepEqual([partial.status, partial.complete], ['partial', false]);
  assert.deepEqual(partial.requested_categories, ['subclass_axioms', 'class_assertions']);
  assert.deepEqual(partial.produced_categories, ['subclass_axioms']);
  assert.deepEqual(
    (partial.skipped_categories as Row[]).map((c) => [c.category, c.reason]),
    [['class_assertions', 'overflow_total']],
  );
  assert.deepEqual(
    (partial.categories as Row[]).map((c) => [c.category, c.produced, c.count]),
    [
      ['subclass_axioms', true, 3],
      ['class_assertions', false, 0],
    ],
  );
  assert.equal((partial.artifact as Row).axiom_count, 3);
  assert.deepEqual(partial.limits, { ...LIMITS, max_axioms_total: 4 });
  assert.deepEqual([(partial.destination_plan as Row).kind, (partial.destination_plan as Row).single_undo], ['new_ontology', false]);
  const artifact = partial.artifact as Row;
  for (const k of ['artifact_fingerprint', 'artifact_digest', 'materialization_digest'])
    assert.match(String(artifact[k]), /^sha256:[0-9a-f]{64}$/, k);
  assert.ok((artifact.canonical_bytes as number) > 0);
  const discarded = await callOk(s.c, 'materialize_inferences', args({ max_axioms_per_category: 2 }));
  assert.deepEqual([discarded.status, discarded.complete, discarded.produced_categories], ['discarded', false, []]);
  assert.deepEqual(
    (discarded.skipped_categories as Row[]).map((c) => c.reason),
    ['overflow_per_category', 'overflow_per_category'],
  );
  assert.equal((discarded.artifact as Row).axiom_count, 0);
});
