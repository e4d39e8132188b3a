// Server-wide gates through the real server: read-only mode and confirm-each-write with the admin API.

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

async function waitForPending(t: TestServer): Promise<PendingWrite> {
  let first: PendingWrite | undefined;
  await eventually('a pending write', async () => (first = (await pendingWrites(t))[0]) !== undefined);
  return first!;
}

test('read-only mode rejects every mutating tool and still serves reads', async () => {
  const t = await startTestServer([fixture('zoo.ttl')], { read_only: true });
  const c = await connect(t);
  try {
    const add = await call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' });
    assert.equal(add.isError, true);
    assert.equal(add.body.error_code, 'read_only');
    assert.equal((await call(c, 'save_ontology', {})).body.error_code, 'read_only');
    assert.equal((await call(c, 'undo_change', {})).body.error_code, 'read_only');
    const peek = await call(c, 'undo_change', { peek: true });
    assert.equal(peek.isError, false);
    const active = await call(c, 'get_active_ontology');
    assert.equal(active.body.write_protection, 'read-only (server setting)');
    assert.equal((await call(c, 'get_entity', { entity: 'Dog' })).isError, true);
  } finally {
    await c.close();
    await t.stop();
  }
});

test('confirm-each-write holds a write until approved, and a denied or expired one changes nothing', async () => {
  const t = await startTestServer([fixture('zoo.ttl')], { confirm_each_write: true, approval_timeout_s: '1' });
  const c = await connect(t);
  try {
    const approvedCall = call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' });
    const entry = await waitForPending(t);
    assert.equal(entry.tool, 'add_axiom');
    assert.equal((await call(c, 'get_entity', { entity: 'Dog' })).isError, true, 'nothing applied while held');
    assert.equal((await decideWrite(t, entry.approval_id, 'approve')).status, 200);
    const approved = await approvedCall;
    assert.equal(approved.body.applied, true);
    assert.equal((await call(c, 'get_entity', { entity: 'Dog' })).isError, false);

    const deniedCall = call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Cat', super: 'Animal' });
    const second = await waitForPending(t);
    assert.equal((await decideWrite(t, second.approval_id, 'deny')).status, 200);
    const denied = await deniedCall;
    assert.equal(denied.isError, true);
    assert.equal(denied.body.error_code, 'write_declined');
    assert.equal((await call(c, 'get_entity', { entity: 'Cat' })).isError, true);

    const expired = await call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Cow', super: 'Animal' });
    assert.equal(expired.body.error_code, 'write_declined');
    assert.equal((await call(c, 'get_entity', { entity: 'Cow' })).isError, true);
    assert.equal((await decideWrite(t, second.approval_id, 'approve')).status, 404, 'a decided entry is gone');
    assert.deepEqual(await pendingWrites(t), []);
  } finally {
    await c.close();
    await t.stop();
  }
});
