// A held write shows the owner its exact changes, whatever tool makes it: the gate rehearses the call up
// to its commit (nothing applied) and renders what it would apply in Manchester syntax with display names.
// Tools whose effects are not ontology content show their summary instead.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  startTestServer,
  fixture,
  connect,
  call,
  pendingWrites,
  decideWrite,
  eventually,
  type PendingWrite,
  type TestServer,
} from './support.js';

interface HeldWrite extends PendingWrite {
  changes?: { op: string; manchester: string }[];
}

/** Makes the call, waits until it is held, denies or approves it, and returns what the owner was shown and the agent's answer. */
async function held(
  t: TestServer,
  run: () => Promise<{ isError: boolean; body: Record<string, unknown> }>,
  verb: 'approve' | 'deny',
): Promise<{ entry: HeldWrite; answer: { isError: boolean; body: Record<string, unknown> } }> {
  const answer = run();
  let entry: HeldWrite | undefined;
  await eventually('a held write', async () => (entry = (await pendingWrites(t))[0] as HeldWrite | undefined) !== undefined);
  assert.equal((await decideWrite(t, entry!.approval_id, verb)).status, 200);
  return { entry: entry!, answer: await answer };
}

const shown = (e: HeldWrite) => (e.changes ?? []).map((c) => `${c.op} ${c.manchester}`).sort();

test('held writes of every axiom-changing tool show their exact changes; nothing is applied before the owner approves', async () => {
  const t = await startTestServer([fixture('zoo.ttl')], { confirm_each_write: true, approval_timeout_s: '30' });
  const c = await connect(t);
  try {
    const label = await held(t, () => call(c, 'set_label', { entity: 'Bird', value: 'fowl', lang: 'en' }), 'deny');
    assert.equal(label.entry.changes?.length, 2, 'the old label goes, the new one comes');
    assert.ok(
      shown(label.entry).some((s) => s.startsWith('remove_axiom') && s.includes('"bird"@en')),
      JSON.stringify(label.entry.changes),
    );
    assert.ok(
      shown(label.entry).some((s) => s.startsWith('add_axiom') && s.includes('"fowl"@en')),
      JSON.stringify(label.entry.changes),
    );
    assert.equal(label.answer.body.error_code, 'write_declined');
    const still = await call(c, 'get_entity', { entity: 'Bird' });
    assert.match(JSON.stringify(still.body), /"bird"/, 'the rehearsal applied nothing');
    assert.doesNotMatch(JSON.stringify(still.body), /fowl/);

    const sub = await held(t, () => call(c, 'add_subclass_of', { child: 'Mammal', parent: 'eats some Bird' }), 'approve');
    assert.deepEqual(shown(sub.entry), ['add_axiom mammal SubClassOf eats some bird']);
    assert.equal(sub.answer.isError, false, JSON.stringify(sub.answer.body));

    const undo = await held(t, () => call(c, 'undo_change', {}), 'approve');
    assert.deepEqual(shown(undo.entry), ['remove_axiom mammal SubClassOf eats some bird'], 'undo shows the inverse it applies');
    assert.equal(undo.answer.isError, false, JSON.stringify(undo.answer.body));

    const rename = await held(t, () => call(c, 'rename_entity', { entity: 'Bird', new_iri: 'http://example.org/zoo#Aves' }), 'deny');
    const renamed = shown(rename.entry);
    assert.ok(renamed.includes('remove_axiom bird SubClassOf animal'), JSON.stringify(renamed));
    assert.ok(
      renamed.some((s) => s.startsWith('add_axiom') && s.includes('SubClassOf animal') && !s.includes('bird SubClassOf')),
      JSON.stringify(renamed),
    );
    assert.equal((await call(c, 'get_entity', { entity: 'http://example.org/zoo#Aves' })).isError, true, 'a denied rename changed nothing');

    const gone = await held(t, () => call(c, 'delete_entity', { entity: 'eats' }), 'deny');
    assert.ok(
      shown(gone.entry).some((s) => s.startsWith('remove_axiom') && s.includes('eats')),
      JSON.stringify(gone.entry.changes),
    );
    assert.ok(shown(gone.entry).every((s) => s.startsWith('remove_axiom')));

    const header = await held(t, () => call(c, 'set_prefix', { prefix: 'zoo', namespace: 'http://example.org/zoo#' }), 'deny');
    assert.deepEqual(shown(header.entry), ['set_prefix Prefix: zoo: <http://example.org/zoo#>']);

    // saving changes a file, not the ontology's content: the owner sees the tool's summary, and no rehearsal ran
    const save = await held(t, () => call(c, 'save_ontology', {}), 'deny');
    assert.equal(save.entry.changes, undefined);
    assert.match(save.entry.summary, /save_ontology/);
  } finally {
    await c.close();
    await t.stop();
  }
});
