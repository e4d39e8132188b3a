// Revoke-client across processes. This process is the broker (it owns the home's OAuth registry, so the
// test can grant tokens); the client's session is on a window of another `athene serve` process that holds
// writes for confirmation. The revocation cuts the client's slow call and held write at the broker, its
// held write never commits, its token is refused, and a process that registers afterwards holds the fence
// from the moment it serves.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodePrincipal, PRINCIPAL_HEADER, PROTOCOL_HEADER, SECRET_HEADER } from '../../src/broker/wire.js';
import { call, decideWrite, pendingWrites, startOrigin, startTestServer, type TestServer } from '../server/support.js';
import { authorize, registerClient } from '../server/oauth-grant.js';
import { oauthPrincipal } from '../server/direct-window.js';
import {
  INIT,
  brokerFixture,
  connectTo,
  freePort,
  internal,
  listInstances,
  postToBackend,
  readDirectorySecret,
  spawnAthene,
  stopAthene,
  type Athene,
} from './support.js';
import { at } from '../support/at.js';

const BETA = 'http://example.org/beta';

/** The held write of `tool` once the broker's admin API lists it (it gathers every window's queue). */
/** The approval id of the held `tool` call; fails (instead of hanging the run) if none is held within a minute. */
async function heldWrite(t: TestServer, tool: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const pending = await pendingWrites(t);
    const entry = pending.find((p) => p.tool === tool);
    if (entry !== undefined) return entry.approval_id;
    if (Date.now() > deadline) assert.fail(`no held ${tool} call within 60 s; pending: ${JSON.stringify(pending)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('revoke-client across processes: the slow call and the held write are cut and counted, nothing commits, later calls are 401, and a process registering afterwards refuses the grant', async () => {
  const port = await freePort();
  const t = await startTestServer([brokerFixture('alpha.ttl')], { port: String(port), broker_idle_linger_s: '0' });
  const procs: Athene[] = [];
  const origin = await startOrigin({}, ['/slow.ttl']);
  try {
    assert.equal(t.server.role.kind, 'broker');
    if (t.server.role.kind !== 'broker') return;
    const brokered = t.server.role.host.registry;
    const b = await spawnAthene(t.home, port, brokerFixture('beta.ttl'), ['--confirm-writes']);
    procs.push(b);
    const base = t.server.url;
    const betaWindow = (await listInstances(base, t.token)).find((i) => i.pid === b.pid)!;

    const clientId = await registerClient(t, 'Revoked client');
    const grant = await authorize(t, clientId);
    const c = await connectTo(base, grant.accessToken);
    assert.equal((await call(c, 'get_active_ontology')).body.ontology_iri, BETA, "the session is on the other process's window");
    const admin = await connectTo(base, t.token, betaWindow.url);

    // the slow call: a load from an origin that never answers, approved, then awaiting it in the other process
    const loading = call(c, 'load_ontology', { source: `${origin.base}/slow.ttl`, connection_timeout_ms: 600_000 }).then(
      () => null,
      (err: Error) => err,
    );
    assert.equal((await decideWrite(t, await heldWrite(t, 'load_ontology'), 'approve')).status, 200);
    for (let i = 0; i < 400 && origin.hits === 0; i++) await new Promise((r) => setTimeout(r, 25));
    assert.equal(origin.hits, 1, 'the load reached the origin');
    const holding = call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'ThingBeta' }).then(
      () => null,
      (err: Error) => err,
    );
    const held = await heldWrite(t, 'add_axiom');

    const secret = await readDirectorySecret(t.home);
    const revoked = await internal(base, secret, '/internal/revoke-client', { client_id: clientId });
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body.in_flight_termination, true);
    assert.ok((revoked.body.terminated_in_flight_requests as number) >= 1, `cut ${String(revoked.body.terminated_in_flight_requests)}`);
    assert.equal(revoked.body.dropped_sessions, 1);
    assert.deepEqual(
      [...(revoked.body.fenced_windows as string[])].sort(),
      [at(t.server.registry.local, 0).id, betaWindow.id].sort(),
      "both processes' windows confirmed the fence",
    );
    assert.deepEqual(revoked.body.pending_windows, []);
    const grantIds = revoked.body.grant_ids as string[];
    assert.equal(grantIds.length, 1);

    for (const cut of [await loading, await holding]) {
      assert.ok(cut instanceof Error, 'the cut call failed at the client');
      assert.match(cut.message, /401|revoked/);
    }
    // the cut write was withdrawn in the other process; were it still queued, approving it would meet the fence
    assert.ok([200, 404].includes((await decideWrite(t, held, 'approve')).status));
    assert.equal((await call(admin, 'get_entity', { entity: 'Dog' })).isError, true, 'the held write never committed');

    const later = await postToBackend(new URL('/mcp', base).href, { authorization: `Bearer ${grant.accessToken}` }, INIT);
    assert.equal(later.status, 401);
    await later.body?.cancel();
    await assert.rejects(call(c, 'get_active_ontology'));

    // a process registering after the revocation: the broker forwards the revoked grant's principal (as it
    // would for a request it accepted before the revocation) the moment that process serves
    const g = await spawnAthene(t.home, port, brokerFixture('gamma.ttl'));
    procs.push(g);
    const endpoint = [...brokered.endpoints()].find((e) => e.pid === g.pid && e.state === 'live')!;
    const backend = `http://127.0.0.1:${endpoint.port}/w/${encodeURIComponent(endpoint.windowId)}/mcp`;
    const as = {
      [SECRET_HEADER]: endpoint.secret,
      [PROTOCOL_HEADER]: '2',
      [PRINCIPAL_HEADER]: encodePrincipal(oauthPrincipal(clientId, at(grantIds, 0))),
    };
    const init = await postToBackend(backend, as, INIT);
    assert.equal(init.status, 200);
    const sid = init.headers.get('mcp-session-id')!;
    await init.body?.cancel();
    await (await postToBackend(backend, as, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), sid)).body?.cancel();
    const write = await postToBackend(
      backend,
      as,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'add_axiom', arguments: { axiom_type: 'subclass_of', sub: 'Wolf', super: 'ThingGamma' } },
      }),
      sid,
    );
    const result = ((await write.json()) as { result: { isError: boolean; structuredContent: { error_code?: string } } }).result;
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent.error_code, 'authorization_revoked');
    const gammaAdmin = await connectTo(base, t.token, `/instances/${encodeURIComponent(endpoint.id)}/mcp`);
    assert.equal((await call(gammaAdmin, 'get_entity', { entity: 'Wolf' })).isError, true, 'nothing committed in the new process');
    assert.deepEqual(t.server.fanout.pendingFences(), [], 'no fence is left pending');

    const clients = await internal(base, secret, '/internal/clients');
    assert.equal(clients.status, 200);
    const listed = JSON.stringify(clients.body);
    assert.ok(listed.includes(clientId));
    for (const material of [grant.accessToken, grant.refreshToken])
      assert.ok(!listed.includes(material), '/internal/clients shows no token');
    assert.doesNotMatch(listed, /"(access_token|refresh_token|token_hash)"/);

    await Promise.all([admin.close(), gammaAdmin.close(), c.close().catch(() => undefined)]);
  } finally {
    await origin.close();
    for (const p of procs.reverse()) await stopAthene(p);
    await t.stop();
  }
});
