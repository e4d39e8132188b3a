// Revocation across processes: this process owns the endpoint (broker) and another `athene serve` process
// registers a window with it. Revoke-client while that process is stopped (SIGSTOP) leaves the fence
// pending for its window, persisted in fences.json; once the process runs again a retry confirms it and
// the file empties.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { DIRECTORY_SECRET_HEADER, directorySecretPath } from '../../src/auth/directory-secret.js';
import { loadPendingFences } from '../../src/actors/pending-fences.js';
import { startTestServer, fixture, connect, call, raw, type TestServer } from './support.js';
import { authorize, registerClient } from './oauth-grant.js';
import { freePort, spawnAthene, stopAthene, brokerFixture, type Athene } from '../broker/support.js';
import { at } from '../support/at.js';

async function windowsRegistered(t: TestServer, count: number): Promise<void> {
  while (t.server.registry.all.length < count) await new Promise((r) => setTimeout(r, 50));
}

test('a fence a stopped process did not confirm stays pending on disk and is confirmed once it runs again', async () => {
  const port = await freePort();
  const t = await startTestServer([fixture('zoo.ttl')], { port: String(port), broker_idle_linger_s: '0' });
  const children: Athene[] = [];
  try {
    children.push(await spawnAthene(t.home, port, brokerFixture('alpha.ttl')));
    await windowsRegistered(t, 2);
    const remote = t.server.registry.all.find((w) => !t.server.registry.local.includes(w as never))!;
    const clientId = await registerClient(t, 'Cross-process client');
    const grant = await authorize(t, clientId);
    const c = await connect(t, grant.accessToken);
    assert.equal((await call(c, 'get_active_ontology')).isError, false);

    at(children, 0).child.kill('SIGSTOP');
    const secret = (await readFile(directorySecretPath(t.home), 'utf8')).trim();
    const res = await raw(t, {
      method: 'POST',
      path: '/internal/revoke-client',
      body: JSON.stringify({ client_id: clientId }),
      headers: { 'content-type': 'application/json', [DIRECTORY_SECRET_HEADER]: secret },
    });
    assert.equal(res.status, 200);
    const report = (await res.json()) as {
      fenced_windows: string[];
      pending_windows: string[];
      fence_id: string;
      dropped_sessions: number;
    };
    assert.deepEqual(report.pending_windows, [remote.id]);
    assert.deepEqual(report.fenced_windows, [at(t.server.registry.local, 0).id]);
    assert.equal(report.dropped_sessions, 1, 'the session pinned to the remote window was dropped');
    const pending = await loadPendingFences(t.home);
    assert.deepEqual(
      pending.map((p) => [p.fence.fence_id, [...p.windows]]),
      [[report.fence_id, [remote.id]]],
    );
    await assert.rejects(call(c, 'get_active_ontology'), /401|nauthorized/);

    at(children, 0).child.kill('SIGCONT');
    while (t.server.fanout.pendingFences().length > 0) await t.server.fanout.retry();
    assert.deepEqual(await loadPendingFences(t.home), [], 'the confirmed fence left the file');

    await c.close().catch(() => undefined);
  } finally {
    for (const a of children) await stopAthene(a);
    await t.stop();
  }
});
