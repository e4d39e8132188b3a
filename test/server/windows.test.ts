// Window actors: session routing and pinning, isolation between windows, persistence across restarts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, fixture, connect, call } from './support.js';
import { at } from '../support/at.js';

const DEMO = 'http://athene.example.org/demo/library';
const ZOO = 'http://example.org/zoo';

test("sessions go to the newest window, stay pinned, and do not see other windows' edits", async () => {
  const t = await startTestServer([fixture('zoo.ttl')]);
  try {
    const a = await connect(t);
    assert.equal((await call(a, 'get_active_ontology')).body.ontology_iri, ZOO);
    await t.server.openWindow([fixture('../../../examples/demo.ttl')]);
    const b = await connect(t);
    assert.equal((await call(b, 'get_active_ontology')).body.ontology_iri, DEMO, 'a new session goes to the newest window');
    assert.equal((await call(a, 'get_active_ontology')).body.ontology_iri, ZOO, 'the old session stays pinned');

    assert.equal((await call(a, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' })).body.applied, true);
    assert.equal((await call(a, 'get_entity', { entity: 'Dog' })).isError, false);
    assert.equal((await call(b, 'get_entity', { entity: `${ZOO}#Dog` })).isError, true, "window B does not see window A's edit");
    assert.equal((await call(b, 'undo_change')).body.error, 'Nothing to undo.');

    const a2 = await connect(t);
    assert.equal((await call(a2, 'get_active_ontology')).body.ontology_iri, DEMO);
    const instances = await fetch(new URL('/instances', t.server.url), { headers: { authorization: `Bearer ${t.token}` } });
    const listed = ((await instances.json()) as { instances: { id: string; newest: boolean }[] }).instances;
    assert.equal(listed.length, 2);
    const first = listed.find((i) => !i.newest)!;
    const direct = await connect(t, t.token, `/instances/${first.id}/mcp`);
    assert.equal((await call(direct, 'get_entity', { entity: 'Dog' })).isError, false, '/instances/{id}/mcp reaches that window');
    await Promise.all([a.close(), b.close(), a2.close(), direct.close()]);
  } finally {
    await t.stop();
  }
});

test('a saved edit is there after a restart', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-restart-'));
  const doc = path.join(dir, 'zoo.ttl');
  // the document lives beside the private directory, never inside it (no tool reads there)
  const home = path.join(dir, 'home');
  await copyFile(fixture('zoo.ttl'), doc);
  try {
    const first = await startTestServer([doc], {}, home);
    const c1 = await connect(first);
    await call(c1, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'Mammal' });
    const before = (await call(c1, 'get_active_ontology')).body.axioms;
    const saved = await call(c1, 'save_ontology', {});
    assert.equal(saved.body.saved, true);
    assert.equal(saved.body.path, doc);
    await c1.close();
    await first.stop();

    const second = await startTestServer([doc], {}, home);
    assert.equal(second.token, first.token, 'the token survives a restart');
    const c2 = await connect(second);
    assert.equal((await call(c2, 'get_active_ontology')).body.axioms, before);
    const dog = await call(c2, 'get_entity', { entity: 'Dog' });
    assert.equal(dog.isError, false);
    await c2.close();
    await second.stop();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a crashed window is reported to its sessions and restarted with its journaled unsaved edits', async () => {
  const t = await startTestServer([fixture('zoo.ttl')]);
  try {
    const c = await connect(t);
    await call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' });
    const window = at(t.server.registry.all, 0);
    const worker = Reflect.get(window, 'worker') as { terminate(): Promise<number> };
    await worker.terminate();
    await assert.rejects(call(c, 'get_active_ontology'), /crashed|Session not found|404/);
    let fresh = null;
    for (let i = 0; i < 50 && fresh === null; i++) {
      fresh = await connect(t).catch(() => null);
      if (fresh === null) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(fresh !== null, 'a new session reaches the restarted window');
    assert.equal((await call(fresh, 'get_active_ontology')).body.ontology_iri, ZOO);
    assert.equal(
      (await call(fresh, 'get_entity', { entity: 'Dog' })).isError,
      false,
      'the acknowledged, unsaved edit is replayed from the journal',
    );
    await fresh.close();
    await c.close().catch(() => undefined);
  } finally {
    await t.stop();
  }
});
