// merge_ontology_document through the real server: preview reports without changing anything, a plain merge
// is one undo entry and resolves the document's imports through its catalog, replace_active swaps content
// and id (undoably), an id that names another loaded ontology is kept out, and refusals change nothing.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { serveTempOntology, startOrigin, call, callOk, type ServedTempOntology, type Row } from '../server/support.js';

const P =
  '@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n@prefix : <http://example.org/m#> .\n';
const ACTIVE = 'http://example.org/active';
const DOC = 'http://example.org/doc';
const LIB = 'http://example.org/lib';

let s: ServedTempOntology;

const put = async (name: string, text: string) => {
  const file = path.join(s.dir, name);
  await writeFile(file, text);
  return file;
};
const active = async () => callOk(s.c, 'get_active_ontology');
const state = async () => JSON.stringify([await active(), (await callOk(s.c, 'list_ontologies')).ontologies]);

before(async () => {
  s = await serveTempOntology(
    'athene-merge-',
    'active.ttl',
    P + `<${ACTIVE}> a owl:Ontology ; rdfs:comment "mine" .\n:A a owl:Class ; rdfs:subClassOf :B .\n:B a owl:Class .\n`,
  );
  await put('lib.ttl', P + `<${LIB}> a owl:Ontology .\n:L a owl:Class .\n`);
  await put(
    'catalog-v001.xml',
    `<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><uri name="${LIB}" uri="lib.ttl"/></catalog>`,
  );
  await put(
    'doc.ttl',
    P +
      `<${DOC}> a owl:Ontology ; owl:imports <${LIB}> ; rdfs:comment "theirs" .\n` +
      ':A a owl:Class ; rdfs:subClassOf :B .\n:C a owl:Class ; rdfs:subClassOf :L ; rdfs:label "see" .\n',
  );
});
after(async () => {
  await s.close();
});

test('preview reports what a merge would copy and changes nothing', async () => {
  const before = await state();
  const r = await callOk(s.c, 'merge_ontology_document', { source: path.join(s.dir, 'doc.ttl'), preview: true });
  assert.equal(r.preview, true);
  assert.equal(r.source_ontology, DOC);
  // doc: Declaration A, C; SubClassOf A B, C L; label C
  assert.deepEqual(r.would_copy, { axioms: 5, imports: 1, ontology_annotations: 1, ontology_id: false });
  assert.equal(r.already_present_axioms, 2, 'Declaration(A) and A ⊑ B are already there');
  assert.equal(r.total_changes, 3 + 1 + 1);
  assert.deepEqual(
    (r.resolved_imports as Row[]).map((e) => [e.import_iri, e.target_document]),
    [[LIB, path.join(s.dir, 'lib.ttl')]],
    'the import the merge would attach',
  );
  assert.deepEqual(r.unresolved_imports, []);
  assert.equal(await state(), before);
});

test('a plain merge copies axioms, imports and annotations as one undo entry, its imports resolved offline', async () => {
  const before = await active();
  const r = await callOk(s.c, 'merge_ontology_document', { source: path.join(s.dir, 'doc.ttl'), missing_imports: 'error' });
  assert.equal(r.merged_document, path.join(s.dir, 'doc.ttl'));
  assert.deepEqual(r.copied, { axioms: 5, imports: 1, ontology_annotations: 1, ontology_id: false });
  assert.equal(r.removed, undefined);
  assert.equal(r.active_ontology, ACTIVE, 'a plain merge keeps the id');
  assert.deepEqual(
    (r.resolved_imports as Row[]).map((e) => [e.import_iri, e.target_document]),
    [[LIB, path.join(s.dir, 'lib.ttl')]],
  );
  assert.deepEqual(r.unresolved_imports, []);
  const after = await active();
  assert.equal(after.axioms, (before.axioms as number) + 3);
  assert.equal((r.active as Row).direct_imports, 1);
  assert.equal((r.active as Row).ontology_annotations, 2);
  const entity = await callOk(s.c, 'get_entity', { entity: 'see' });
  assert.ok(JSON.stringify(entity).includes('http://example.org/m#C'));
  await callOk(s.c, 'undo_change');
  const undone = await active();
  assert.equal(undone.axioms, before.axioms, 'one undo reverts the whole merge');
  assert.deepEqual(undone.direct_imports, before.direct_imports);
  await callOk(s.c, 'redo_change');
  assert.equal((await active()).axioms, after.axioms);
  await callOk(s.c, 'undo_change');
});

test('replace_active swaps the content and takes over the id; one undo restores both', async () => {
  const before = await active();
  const r = await callOk(s.c, 'merge_ontology_document', { source: path.join(s.dir, 'doc.ttl'), replace_active: true });
  assert.deepEqual(r.removed, { axioms: before.axioms, imports: 0, ontology_annotations: 1 });
  assert.deepEqual(r.copied, { axioms: 5, imports: 1, ontology_annotations: 1, ontology_id: true });
  assert.equal(r.active_ontology, DOC);
  assert.equal((r.active as Row).axioms, 5);
  assert.equal((r.active as Row).ontology_annotations, 1);
  await callOk(s.c, 'undo_change');
  const undone = await active();
  assert.equal(undone.axioms, before.axioms);
  assert.ok(JSON.stringify(undone).includes(ACTIVE));
});

test('an id that names another loaded ontology is not copied, and the merge still happens', async () => {
  const r = await callOk(s.c, 'merge_ontology_document', { source: path.join(s.dir, 'lib.ttl'), copy_ontology_id: true });
  assert.equal((r.copied as Row).ontology_id, false);
  assert.match(String(r.skipped_ontology_id), /already in use by another loaded ontology/);
  assert.equal(r.active_ontology, ACTIVE);
  await callOk(s.c, 'undo_change');
});

test('refusals change nothing: missing imports under error, parse errors, network=deny', async () => {
  const before = await state();
  const orphan = await put(
    'orphan.ttl',
    P + `<${DOC}/orphan> a owl:Ontology ; owl:imports <http://example.org/nowhere> .\n:Z a owl:Class .\n`,
  );
  const missing = await call(s.c, 'merge_ontology_document', { source: orphan, missing_imports: 'error' });
  assert.equal(missing.body.error_code, 'missing_imports');
  assert.match(String(missing.body.error), /nothing was merged/);
  const broken = await put('broken.ttl', '@prefix : <http://example.org/m#> .\n:A :b');
  assert.equal((await call(s.c, 'merge_ontology_document', { source: broken })).body.error_code, 'parse_error');
  const origin = await startOrigin({ '/doc.ttl': P + `<${DOC}/web> a owl:Ontology .\n` });
  try {
    const denied = await call(s.c, 'merge_ontology_document', { source: origin.base + '/doc.ttl', network: 'deny' });
    assert.equal(denied.body.error_code, 'network_denied');
    assert.equal(origin.hits, 0);
    const web = await callOk(s.c, 'merge_ontology_document', { source: origin.base + '/doc.ttl', preview: true });
    assert.equal(web.source_ontology, `${DOC}/web`);
  } finally {
    await origin.close();
  }
  assert.equal(await state(), before);
  const warned = await callOk(s.c, 'merge_ontology_document', { source: orphan, preview: true });
  assert.equal(warned.missing_imports_mode, 'warn');
  assert.deepEqual(
    (warned.unresolved_imports as Row[]).map((e) => e.import_iri),
    ['http://example.org/nowhere'],
  );
});

test('lock_mode=required without a lockfile refuses the merge before anything changes', async () => {
  const before = await state();
  const r = await call(s.c, 'merge_ontology_document', { source: path.join(s.dir, 'doc.ttl'), lock_mode: 'required' });
  assert.equal(r.isError, true);
  assert.equal(r.body.error_code, 'import_lock_missing');
  assert.equal(r.body.effects_prevented, true);
  assert.match(String(r.body.error), /nothing was merged/);
  assert.equal(await state(), before);
});

test('a replace_active preview reports what would be removed and copied, the id included, and changes nothing', async () => {
  const before = await state();
  const current = await active();
  const r = await callOk(s.c, 'merge_ontology_document', { source: path.join(s.dir, 'doc.ttl'), replace_active: true, preview: true });
  assert.deepEqual([r.preview, r.replace_active], [true, true]);
  assert.deepEqual(r.would_remove, { axioms: current.axioms, imports: 0, ontology_annotations: 1 });
  assert.deepEqual(r.would_copy, { axioms: 5, imports: 1, ontology_annotations: 1, ontology_id: true });
  assert.equal(r.already_present_axioms, undefined, 'reported for a plain merge only');
  assert.equal(typeof r.total_changes, 'number');
  assert.match(String(r.note), /nothing was merged/);
  assert.equal(await state(), before);
});

test('replace_active with copy_ontology_id=false keeps the active id; lock_mode=verify without a lockfile reports a skipped verification', async () => {
  const r = await callOk(s.c, 'merge_ontology_document', {
    source: path.join(s.dir, 'doc.ttl'),
    replace_active: true,
    copy_ontology_id: false,
    lock_mode: 'verify',
  });
  try {
    assert.equal((r.copied as Row).ontology_id, false);
    assert.equal(r.skipped_ontology_id, undefined, 'not asked for, so not skipped');
    assert.equal(r.active_ontology, ACTIVE);
    const lock = r.import_lock_verification as Row;
    assert.deepEqual([lock.verified, lock.skipped], [false, true], JSON.stringify(lock));
  } finally {
    await callOk(s.c, 'undo_change');
  }
});

test('missing_imports=silent lists no unresolved import; the plain merge still reports its mode', async () => {
  const orphan = await put(
    'orphan2.ttl',
    P + `<${DOC}/orphan2> a owl:Ontology ; owl:imports <http://example.org/nowhere> .\n:Y a owl:Class .\n`,
  );
  const r = await callOk(s.c, 'merge_ontology_document', { source: orphan, missing_imports: 'silent' });
  try {
    assert.equal(r.missing_imports_mode, 'silent');
    assert.deepEqual(r.unresolved_imports, []);
    assert.deepEqual(r.copied, { axioms: 1, imports: 1, ontology_annotations: 0, ontology_id: false });
  } finally {
    await callOk(s.c, 'undo_change');
  }
});
