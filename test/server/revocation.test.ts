// Revocation through the real server: session pins bound to client and grant, forged principal headers,
// and revoke-client with a call in flight and a write held for confirmation (cut and counted, never
// committed, later calls 401, every window fenced, a window started afterwards fenced too).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { staticPrincipal } from '../../src/auth/principal.js';
import { DIRECTORY_SECRET_HEADER, directorySecretPath } from '../../src/auth/directory-secret.js';
import type { WindowHandle } from '../../src/actors/window.js';
import {
  startTestServer,
  fixture,
  connect,
  call,
  raw,
  decideWrite,
  startOrigin,
  INIT_BODY,
  MCP_HEADERS,
  type TestServer,
} from './support.js';
import { authorize, registerClient } from './oauth-grant.js';
import { DirectSession, oauthPrincipal } from './direct-window.js';
import { openSession } from './raw-session.js';
import { at } from '../support/at.js';

/** tools/list on session `sid` with `token` (and extra headers); status and JSON body. */
async function listOn(
  t: TestServer,
  sid: string,
  token: string,
  extra: Record<string, string> = {},
): Promise<{ status: number; body: { error?: { message: string } } }> {
  const res = await raw(t, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...extra, authorization: `Bearer ${token}`, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
  });
  return { status: res.status, body: (await res.json()) as { error?: { message: string } } };
}

async function pendingWrites(t: TestServer): Promise<{ approval_id: string; tool: string }[]> {
  const res = await raw(t, { path: '/admin/api/pending', headers: { authorization: `Bearer ${t.token}` } });
  assert.equal(res.status, 200);
  return ((await res.json()) as { pending: { approval_id: string; tool: string }[] }).pending;
}

/** The held write of `tool` once it shows in the approval queue. */
async function heldWrite(t: TestServer, tool: string): Promise<string> {
  for (;;) {
    const entry = (await pendingWrites(t)).find((p) => p.tool === tool);
    if (entry !== undefined) return entry.approval_id;
    await new Promise((r) => setTimeout(r, 20));
  }
}

function decide(t: TestServer, id: string, verb: 'approve' | 'deny'): Promise<Response> {
  return decideWrite(t, id, verb);
}

test('a pinned session refuses another client, another grant and another kind of credential; forged principal headers change nothing', async () => {
  const t = await startTestServer([fixture('zoo.ttl')]);
  try {
    const a = await registerClient(t, 'Client A');
    const a1 = await authorize(t, a);
    const a2 = await authorize(t, a);
    const b = await authorize(t, await registerClient(t, 'Client B'));
    const sid = await openSession(t, a1.accessToken);

    assert.equal((await listOn(t, sid, a1.accessToken)).status, 200);
    const other = await listOn(t, sid, b.accessToken);
    assert.equal(other.status, 403);
    assert.match(other.body.error!.message, /another OAuth client/);
    const grant = await listOn(t, sid, a2.accessToken);
    assert.equal(grant.status, 403);
    assert.match(grant.body.error!.message, /another authorization grant/);
    const staticToken = await listOn(t, sid, t.token);
    assert.equal(staticToken.status, 403);
    assert.match(staticToken.body.error!.message, /OAuth access token/);

    const staticSession = await openSession(t, t.token);
    const oauthOnStatic = await listOn(t, staticSession, a1.accessToken);
    assert.equal(oauthOnStatic.status, 403);
    assert.match(oauthOnStatic.body.error!.message, /static bearer token/);

    const forged = {
      'x-athene-principal': JSON.stringify({ ...staticPrincipal(), type: 'oauth', client_id: a, grant_id: null }),
      'x-athene-client-id': a,
      'x-athene-grant-id': 'x',
    };
    assert.equal((await listOn(t, sid, b.accessToken, forged)).status, 403, 'a forged principal header does not pass the pin');

    // a read-only grant claiming the local-admin profile in a header is still read-only
    const reader = await authorize(t, await registerClient(t, 'Reader'), 'read');
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', t.server.url), {
      requestInit: {
        headers: {
          Authorization: `Bearer ${reader.accessToken}`,
          'X-Athene-Principal': JSON.stringify(staticPrincipal()),
          'X-Athene-Capabilities': 'ontology:curate',
        },
      },
    });
    const client = new Client({ name: 'forger', version: '1' });
    await client.connect(transport);
    const add = await call(client, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' });
    assert.equal(add.body.error_code, 'authorization_denied');
    assert.equal((await call(client, 'get_entity', { entity: 'Animal' })).isError, false, 'reads still work');
    await client.close();
  } finally {
    await t.stop();
  }
});

test('revoke-client cuts the call in flight and the held write, neither commits, later calls are 401, and every window is fenced', async () => {
  const t = await startTestServer([fixture('zoo.ttl')], { confirm_each_write: true, approval_timeout_s: '120' });
  // the slow call: a load from an origin that never answers (a FIFO is refused at once: issue 13 §2)
  const origin = await startOrigin({}, ['/slow.ttl']);
  try {
    await t.server.openWindow([fixture('zoo.ttl')]);
    const [first, second] = t.server.registry.local as WindowHandle[];
    assert.ok(first);
    assert.ok(second);
    const clientId = await registerClient(t, 'Revoked client');
    const grant = await authorize(t, clientId);
    const bystanderGrant = await authorize(t, await registerClient(t, 'Bystander'));
    const c = await connect(t, grant.accessToken);
    const bystander = await connect(t, bystanderGrant.accessToken);
    const admin = await connect(t, t.token, `/instances/${second.id}/mcp`);

    const loading = call(c, 'load_ontology', { source: `${origin.base}/slow.ttl`, connection_timeout_ms: 600_000 }).then(
      () => null,
      (err: Error) => err,
    );
    assert.equal((await decide(t, await heldWrite(t, 'load_ontology'), 'approve')).status, 200);
    for (let i = 0; i < 400 && origin.hits === 0; i++) await new Promise((r) => setTimeout(r, 25));
    // the held write
    const holding = call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' }).then(
      () => null,
      (err: Error) => err,
    );
    const held = await heldWrite(t, 'add_axiom');

    const secret = (await readFile(directorySecretPath(t.home), 'utf8')).trim();
    const res = await raw(t, {
      method: 'POST',
      path: '/internal/revoke-client',
      body: JSON.stringify({ client_id: clientId }),
      headers: { 'content-type': 'application/json', [DIRECTORY_SECRET_HEADER]: secret },
    });
    assert.equal(res.status, 200);
    const report = (await res.json()) as Record<string, unknown>;
    assert.equal(report.in_flight_termination, true);
    assert.equal(report.terminated_in_flight_requests, 2);
    assert.equal(report.dropped_sessions, 1);
    assert.deepEqual([...(report.fenced_windows as string[])].sort(), [first.id, second.id].sort());
    assert.deepEqual(report.pending_windows, []);
    const grantIds = report.grant_ids as string[];
    assert.equal(grantIds.length, 1);

    for (const cut of [await loading, await holding]) {
      assert.ok(cut instanceof Error, 'the cut call failed at the client');
      assert.match(cut.message, /401|revoked/);
    }
    // the cut call withdrew its approval entry; were it still there, approving it would meet the fence
    assert.ok([200, 404].includes((await decide(t, held, 'approve')).status));
    assert.equal((await call(admin, 'get_entity', { entity: 'Dog' })).isError, true, 'the held write never committed');

    const later = await raw(t, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${grant.accessToken}` },
      body: INIT_BODY,
    });
    assert.equal(later.status, 401);
    assert.match(later.headers.get('www-authenticate') ?? '', /invalid_token/);
    await assert.rejects(call(c, 'get_active_ontology'));

    const revoked = oauthPrincipal(clientId, at(grantIds, 0));
    await t.server.openWindow([fixture('zoo.ttl')]);
    const third = t.server.registry.local.at(-1) as WindowHandle;
    const direct = await DirectSession.open(third, revoked);
    assert.equal(
      (await direct.call('get_entity', { entity: 'Animal' })).body.error_code,
      'authorization_revoked',
      'a window started after the revocation holds the fence',
    );

    assert.equal((await call(bystander, 'get_entity', { entity: 'Animal' })).isError, false, 'another client is untouched');
    await Promise.all([bystander.close(), admin.close(), c.close().catch(() => undefined)]);
  } finally {
    await origin.close();
    await t.stop();
  }
});

test("revoking one grant (RFC 7009) ends that grant's sessions only; a re-authorized client keeps working", async () => {
  const t = await startTestServer([fixture('zoo.ttl')]);
  try {
    const clientId = await registerClient(t, 'Two grants');
    const g1 = await authorize(t, clientId);
    const g2 = await authorize(t, clientId);
    const s1 = await openSession(t, g1.accessToken);
    const c2 = await connect(t, g2.accessToken);
    const result = await t.server.authority.revokeToken(g1.accessToken);
    assert.equal(result.ok, true);
    assert.equal((await listOn(t, s1, g1.accessToken)).status, 401);
    assert.equal(t.server.registry.pinOf(s1), undefined, "the revoked grant's session was dropped");
    assert.equal(
      (await call(c2, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' })).body.applied,
      true,
      'the other grant still commits',
    );

    await t.server.authority.revokeClient(clientId);
    const again = await authorize(t, clientId);
    const c3 = await connect(t, again.accessToken);
    assert.equal(
      (await call(c3, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Cat', super: 'Animal' })).body.applied,
      true,
      'a new authorization after revoke-client is not fenced',
    );
    await Promise.all([c2.close().catch(() => undefined), c3.close()]);
  } finally {
    await t.stop();
  }
});
