// The change journal's tools over a real server and SDK client: revert_changes (preview, conflicts
// reported, reverting a revert restores, undoable), get_change_history filters (since the last save,
// entity, tool), last_changes on entities, and the journal switched off. A window restart replaying it is
// in test/server/change-history.test.ts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, callOk, fixture, serveTempOntology, type Row } from '../server/support.js';
import { at } from '../support/at.js';

const sub = (name: string) => ({ axiom_type: 'subclass_of', sub: name, super: 'Animal' });

async function fingerprint(c: Client): Promise<string> {
  const r = await callOk(c, 'get_model_revision');
  return String(((r.revision ?? r) as Row).document_fingerprint);
}

async function seqsOf(c: Client, args: Row = {}): Promise<number[]> {
  const h = await callOk(c, 'get_change_history', { limit: 200, ...args });
  return (h.entries as Row[]).map((e) => e.seq as number);
}

test('revert_changes: preview changes nothing, the revert is a new entry, reverting it restores, undo takes it back', async () => {
  const s = await serveTempOntology('athene-history-', 'zoo.ttl', await readFile(fixture('zoo.ttl'), 'utf8'));
  try {
    const f0 = await fingerprint(s.c);
    await callOk(s.c, 'add_axiom', sub('Dog'));
    const f1 = await fingerprint(s.c);
    const [dogSeq] = await seqsOf(s.c, { entity: 'Dog' });
    assert.ok(dogSeq !== undefined);
    const preview = await callOk(s.c, 'revert_changes', { seqs: [dogSeq], preview: true });
    assert.equal(preview.preview, true);
    assert.equal(preview.would_apply, 2);
    assert.deepEqual((preview.changes as Row[]).map((x) => x.op).sort(), ['remove_axiom', 'remove_axiom']);
    assert.equal(await fingerprint(s.c), f1, 'a preview changes nothing');
    const reverted = await callOk(s.c, 'revert_changes', { seqs: [dogSeq] });
    assert.equal(reverted.reverted, true);
    assert.equal(await fingerprint(s.c), f0);
    const revertEntry = (await callOk(s.c, 'get_change_history', { tool: 'revert_changes' })).entries as Row[];
    assert.equal(revertEntry.length, 1);
    assert.deepEqual(at(revertEntry, 0).reverts, [dogSeq]);
    assert.ok(await seqsOf(s.c, { entity: 'Dog' }).then((x) => x.includes(dogSeq)), 'the original stays in the history');
    await callOk(s.c, 'revert_changes', { seqs: [at(revertEntry, 0).seq as number] });
    assert.equal(await fingerprint(s.c), f1, 'reverting the revert restores');
    await callOk(s.c, 'undo_change');
    assert.equal(await fingerprint(s.c), f0, 'a revert is undoable');
  } finally {
    await s.close();
  }
});

test('revert_changes reports what no longer applies and applies the rest', async () => {
  const s = await serveTempOntology('athene-history-', 'zoo.ttl', await readFile(fixture('zoo.ttl'), 'utf8'));
  try {
    await callOk(s.c, 'add_axiom', sub('Cat'));
    const [catSeq] = await seqsOf(s.c, { entity: 'Cat' });
    await callOk(s.c, 'remove_axiom', sub('Cat'));
    const r = await callOk(s.c, 'revert_changes', { seqs: [catSeq] });
    assert.equal(r.applied, 1, 'the declaration is still there to remove');
    const conflicts = r.conflicts as Row[];
    assert.equal(conflicts.length, 1);
    assert.equal(at(conflicts, 0).reason, 'the axiom is no longer present');
    assert.match(String(at(conflicts, 0).functional), /^SubClassOf\(/);
    const missing = await call(s.c, 'revert_changes', { seqs: [999] });
    assert.equal(missing.isError, true);
    assert.equal(missing.body.error_code, 'not_found');
    const none = await call(s.c, 'revert_changes', {});
    assert.equal(none.body.error_code, 'invalid_argument');
  } finally {
    await s.close();
  }
});

test('history since the last save, entries marked saved, and last_change on get_entity and get_entity_context', async () => {
  const s = await serveTempOntology('athene-history-', 'zoo.ttl', await readFile(fixture('zoo.ttl'), 'utf8'));
  try {
    await callOk(s.c, 'add_axiom', sub('Horse'));
    await callOk(s.c, 'save_ontology');
    assert.deepEqual(await seqsOf(s.c, { since_last_save: true }), []);
    const all = (await callOk(s.c, 'get_change_history')).entries as Row[];
    assert.equal(all.length, 1);
    assert.equal(at(all, 0).saved, true);
    await callOk(s.c, 'add_axiom', sub('Pony'));
    assert.deepEqual(await seqsOf(s.c, { since_last_save: true }), [2]);
    assert.equal((await seqsOf(s.c, { tool: 'add_axiom' })).length, 2);
    assert.deepEqual(await seqsOf(s.c, { tool: 'remove_axiom' }), []);
    const card = await callOk(s.c, 'get_entity_context', { entity: 'Pony' });
    const last = at(card.last_changes as Row[], 0);
    assert.equal(last.iri, 'http://example.org/zoo#Pony');
    assert.equal(last.seq, 2);
    assert.equal(last.tool, 'add_axiom');
    assert.equal((last.principal as Row).kind, 'static token');
    const untouched = await callOk(s.c, 'get_entity', { entity: 'Bird' });
    assert.equal('last_changes' in untouched, false, 'an entity the journal never saw changed has none');
    const paged = await callOk(s.c, 'get_change_history', { limit: 1 });
    assert.equal(paged.next_cursor, 1);
    assert.deepEqual(await seqsOf(s.c, { after_seq: 1 }), [2]);
  } finally {
    await s.close();
  }
});

test('with the journal off the history tools say so and nothing is journaled', async () => {
  const s = await serveTempOntology('athene-history-', 'zoo.ttl', await readFile(fixture('zoo.ttl'), 'utf8'), { journal_enabled: 'false' });
  try {
    await callOk(s.c, 'add_axiom', sub('Cow'));
    const h = await call(s.c, 'get_change_history');
    assert.equal(h.isError, true);
    assert.equal(h.body.error_code, 'journal_disabled');
    assert.deepEqual((await callOk(s.c, 'list_ontologies')).journal, { enabled: false });
    assert.equal('last_changes' in (await callOk(s.c, 'get_entity', { entity: 'Cow' })), false);
  } finally {
    await s.close();
  }
});
