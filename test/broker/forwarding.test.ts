// What crosses the broker → backend hop: session pins by OAuth client, the forwarded principal (and the
// legacy profile when an old broker forwards none), and commit fences, which reach a window of another
// process, quarantined or not. The broker runs in
// this process (so the test can present a window's broker secret as the broker does); the registered
// process is a real `athene serve`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fenceFor } from '../../src/actors/fences.js';
import { PRINCIPAL_VERSION, CAPABILITIES, type Principal } from '../../src/auth/principal.js';
import { encodePrincipal, PRINCIPAL_HEADER, PROTOCOL_HEADER, SECRET_HEADER } from '../../src/broker/wire.js';
import { INIT, brokerFixture, eventually, freePort, listInstances, postToBackend as post, spawnAthene, stopAthene } from './support.js';
import { startTestServer } from '../server/support.js';
import { authorize, registerClient } from '../server/oauth-grant.js';
import { at } from '../support/at.js';

test("across the hop: pins refuse another OAuth client, the forwarded principal is honoured, an old broker's requests get the legacy profile, fences hold, also on a quarantined endpoint", async () => {
  const port = await freePort();
  const t = await startTestServer([brokerFixture('alpha.ttl')], { port: String(port), broker_idle_linger_s: '0' });
  const { server, home } = t;
  const b = await spawnAthene(home, port, brokerFixture('beta.ttl'));
  try {
    assert.equal(server.role.kind, 'broker');
    if (server.role.kind !== 'broker') return;
    const brokered = server.role.host.registry;
    const [endpoint] = brokered.endpoints();
    assert.ok(endpoint, 'the beta window is brokered');
    const backend = `http://127.0.0.1:${endpoint.port}/w/${encodeURIComponent(endpoint.windowId)}/mcp`;

    // a session on the other process's window, created by one OAuth client, refuses another client's token
    const first = await authorize(t, await registerClient(t, 'First client'));
    const second = await authorize(t, await registerClient(t, 'Second client'));
    const opened = await post(server.url, { authorization: `Bearer ${first.accessToken}` }, INIT);
    assert.equal(opened.status, 200);
    const pinned = opened.headers.get('mcp-session-id')!;
    await opened.body?.cancel();
    assert.equal(
      (await listInstances(server.url, t.token)).find((i) => i.pid === b.pid)!.sessions,
      1,
      "the session went to the other process's window",
    );
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const replay = await post(server.url, { authorization: `Bearer ${second.accessToken}` }, list, pinned);
    assert.equal(replay.status, 403, 'another client cannot use the session');
    await replay.body?.cancel();
    const own = await post(server.url, { authorization: `Bearer ${first.accessToken}` }, list, pinned);
    assert.equal(own.status, 200, 'its own client still can');
    await own.body?.cancel();

    const noPrincipal = await post(backend, { [SECRET_HEADER]: endpoint.secret, [PROTOCOL_HEADER]: '2' }, INIT);
    assert.equal(noPrincipal.status, 400, 'the current protocol without a principal is refused');
    await noPrincipal.body?.cancel();

    const legacy = await post(backend, { [SECRET_HEADER]: endpoint.secret }, INIT);
    assert.equal(legacy.status, 200, 'a request through a version-1 broker is served');
    await legacy.body?.cancel();
    const token = t.token;
    const flagged = await eventually(async () => {
      const entry = (await listInstances(server.url, token)).find((i) => i.id === endpoint.id);
      return entry?.behind_legacy_broker === true ? entry : undefined;
    }, 'the legacy flag in /instances');
    assert.equal(flagged.legacy_principal_requests, 1);
    assert.equal((await listInstances(server.url, token)).find((i) => i.pid === process.pid)?.behind_legacy_broker, false);

    const fence = fenceFor({ client_id: 'revoked-client', grant_ids: ['g1'] });
    const targets = server.registry.fenceTargets();
    assert.equal(targets.length, 2);
    assert.deepEqual(
      await Promise.all(targets.map((t) => t.fence(fence))),
      [true, true],
      "the fence is confirmed by the other process's window too",
    );

    const revoked: Principal = {
      version: PRINCIPAL_VERSION,
      type: 'oauth',
      client_id: 'revoked-client',
      display_name: 'revoked',
      grant_id: 'g1',
      capabilities: [...CAPABILITIES],
    };
    const as = { [SECRET_HEADER]: endpoint.secret, [PROTOCOL_HEADER]: '2', [PRINCIPAL_HEADER]: encodePrincipal(revoked) };
    const init = await post(backend, as, INIT);
    assert.equal(init.status, 200);
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.body?.cancel();
    await (await post(backend, as, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), sessionId)).body?.cancel();
    const write = await post(
      backend,
      as,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'add_axiom', arguments: { axiom_type: 'subclass_of', sub: 'Dog', super: 'ThingBeta' } },
      }),
      sessionId,
    );
    const result = ((await write.json()) as { result: { isError: boolean; structuredContent: { error_code?: string } } }).result;
    assert.equal(result.isError, true, "a fenced client's write does not commit in the other process");
    assert.equal(result.structuredContent.error_code, 'authorization_revoked');

    // stale (stopped) and back: the process registers again under fresh secrets; its old endpoint stays
    // quarantined while the PID lives, and fences still reach it
    b.child.kill('SIGSTOP');
    await eventually(async () => (endpoint.state === 'quarantined' ? true : undefined), 'quarantine', 15_000);
    b.child.kill('SIGCONT');
    const renewed = await eventually(
      async () => [...brokered.endpoints()].find((e) => e.state === 'live' && e.pid === b.pid),
      're-registration',
    );
    assert.notEqual(renewed.id, endpoint.id);
    assert.equal(endpoint.state, 'quarantined');
    const later = fenceFor({ client_id: 'another', grant_ids: ['g2'] });
    const all = server.registry.fenceTargets();
    assert.deepEqual(all.map((t) => t.id).sort(), [at(server.registry.local, 0).id, endpoint.id, renewed.id].sort());
    assert.deepEqual(await Promise.all(all.map((t) => t.fence(later))), [true, true, true], 'a quarantined endpoint is still fenced');
    const stale = await post(
      backend,
      { [SECRET_HEADER]: endpoint.secret, [PROTOCOL_HEADER]: '2', [PRINCIPAL_HEADER]: encodePrincipal(revoked) },
      INIT,
    );
    assert.equal(stale.status, 403, 'a replaced secret admits fences only');
    await stale.body?.cancel();
  } finally {
    await stopAthene(b);
    await t.stop();
  }
});
