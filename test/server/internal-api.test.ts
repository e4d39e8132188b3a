// The same-OS-user internal API: the directory secret, the client list (never token material),
// terminate-session, revoke-client failing closed when the journal cannot be written, precise 4xx answers,
// and no internal API at all on a server that fell back to an ephemeral port.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { DIRECTORY_SECRET_HEADER, directorySecretPath } from '../../src/auth/directory-secret.js';
import { startTestServer, fixture, connect, call, raw, type TestServer } from './support.js';
import { authorize, registerClient } from './oauth-grant.js';
import { openSession } from './raw-session.js';

let t: TestServer;
let secret: string;

before(async () => {
  t = await startTestServer([fixture('zoo.ttl')]);
  secret = (await readFile(directorySecretPath(t.home), 'utf8')).trim();
});

after(async () => {
  await t.stop();
});

function internal(
  path: string,
  init: { method?: string; body?: string | undefined; secret?: string | null; contentType?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  const presented = init.secret === undefined ? secret : init.secret;
  if (presented !== null) headers[DIRECTORY_SECRET_HEADER] = presented;
  if (init.body !== undefined) headers['content-type'] = init.contentType ?? 'application/json';
  return raw(t, { path, method: init.method ?? (init.body === undefined ? 'GET' : 'POST'), headers, body: init.body ?? null });
}

async function errorOf(res: Response): Promise<{ status: number; error: string; description: string }> {
  const body = (await res.json()) as { error: string; error_description: string };
  return { status: res.status, error: body.error, description: body.error_description };
}

test('the directory secret is 256 bits in an owner-only file, and every internal route needs it', async () => {
  assert.equal((await stat(directorySecretPath(t.home))).mode & 0o777, 0o600);
  assert.equal(Buffer.from(secret, 'base64url').length, 32);
  for (const [path, body] of [
    ['/internal/clients', undefined],
    ['/internal/revoke-client', '{"client_id":"x"}'],
    ['/internal/terminate-session', '{"session_id":"x"}'],
  ] as const) {
    const missing = await errorOf(await internal(path, { body, secret: null }));
    assert.equal(missing.status, 403);
    assert.match(missing.description, /x-athene-directory-secret/);
    assert.equal((await internal(path, { body, secret: secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A') })).status, 403);
    // the bearer token is no substitute
    const bearer = await raw(t, {
      path,
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: body ?? null,
    });
    assert.equal(bearer.status, 403);
  }
});

test('the client list shows clients, grants and connected sessions, and never token material', async () => {
  const clientId = await registerClient(t, 'Listed client');
  const grant = await authorize(t, clientId, 'read');
  const c = await connect(t, grant.accessToken);
  try {
    const res = await internal('/internal/clients');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const text = await res.text();
    const listed = (
      JSON.parse(text) as { clients: { client_id: string; client_name: string; connected_sessions: number; grants: { scope: string }[] }[] }
    ).clients;
    const mine = listed.find((x) => x.client_id === clientId);
    assert.ok(mine !== undefined);
    assert.equal(mine.client_name, 'Listed client');
    assert.equal(mine.connected_sessions, 1);
    assert.deepEqual(
      mine.grants.map((g) => g.scope),
      ['read'],
    );
    for (const secretText of [grant.accessToken, grant.refreshToken]) {
      assert.equal(text.includes(secretText), false);
      assert.equal(text.includes(createHash('sha256').update(secretText).digest('hex')), false);
      assert.equal(text.includes(createHash('sha256').update(secretText).digest('base64url')), false);
    }
    assert.doesNotMatch(text, /token/i, 'no token fields at all');
  } finally {
    await c.close();
  }
});

test('terminate-session ends the session: the next request on it is 404', async () => {
  const sid = await openSession(t, t.token);
  const res = await internal('/internal/terminate-session', { body: JSON.stringify({ session_id: sid }) });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { terminated: true, session_id: sid });
  const next = await raw(t, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${t.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sid,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  assert.equal(next.status, 404);
  const again = await errorOf(await internal('/internal/terminate-session', { body: JSON.stringify({ session_id: sid }) }));
  assert.equal(again.status, 404);
  assert.equal(again.error, 'unknown_session');
});

test('revoke-client answers 503 when the journal cannot be written, and the token keeps working', async () => {
  const clientId = await registerClient(t, 'Unrevokable for now');
  const grant = await authorize(t, clientId);
  const c = await connect(t, grant.accessToken);
  try {
    await t.server.authority.injectFaults({ failJournalAppend: true });
    const failed = await errorOf(await internal('/internal/revoke-client', { body: JSON.stringify({ client_id: clientId }) }));
    assert.equal(failed.status, 503);
    assert.equal(failed.error, 'temporarily_unavailable');
    assert.equal((await call(c, 'get_active_ontology')).isError, false, 'the token still works');

    await t.server.authority.injectFaults({});
    const res = await internal('/internal/revoke-client', { body: JSON.stringify({ client_id: clientId }) });
    assert.equal(res.status, 200);
    const report = (await res.json()) as Record<string, unknown>;
    assert.equal(report.revoked, true);
    assert.equal(report.dropped_sessions, 1);
    assert.equal(report.terminated_in_flight_requests, 0);
    assert.equal(report.in_flight_termination, false);
    await assert.rejects(call(c, 'get_active_ontology'));
  } finally {
    await t.server.authority.injectFaults({});
    await c.close().catch(() => undefined);
  }
});

test('bad internal requests get precise answers', async () => {
  const cases: [string, { method?: string; body?: string; contentType?: string }, number, RegExp][] = [
    ['/internal/revoke-client', { body: '{"client_id":' }, 400, /not valid JSON/],
    ['/internal/revoke-client', { body: '{}' }, 400, /client_id/],
    ['/internal/revoke-client', { body: '{"client_id":7}' }, 400, /client_id: must be a string/],
    ['/internal/revoke-client', { body: '{"client_id":"a","extra":1}' }, 400, /extra/],
    ['/internal/revoke-client', { body: '[]' }, 400, /object holding only client_id/],
    ['/internal/revoke-client', { body: `{"client_id":"${'x'.repeat(201)}"}` }, 400, /at most 200/],
    ['/internal/revoke-client', { body: '{"client_id":"nobody"}' }, 404, /No OAuth client nobody/],
    ['/internal/revoke-client', { body: '{"client_id":"a"}', contentType: 'text/plain' }, 415, /application\/json/],
    ['/internal/revoke-client', { body: JSON.stringify({ client_id: 'a', pad: 'p'.repeat(20_000) }) }, 413, /limit/],
    ['/internal/revoke-client', { method: 'GET' }, 405, /POST/],
    ['/internal/terminate-session', { body: '{"session":"x"}' }, 400, /session_id/],
    ['/internal/nothing', {}, 404, /No internal route/],
  ];
  for (const [path, init, status, message] of cases) {
    const res = await internal(path, init);
    assert.equal(res.status, status, `${path} ${JSON.stringify(init).slice(0, 80)}`);
    assert.match(await res.text(), message);
  }
});

test('a server that fell back to an ephemeral port serves no internal API', async () => {
  const second = await startTestServer([fixture('zoo.ttl')], { port: String(t.server.port) });
  try {
    assert.equal(second.server.fellBack, true);
    const mine = (await readFile(directorySecretPath(second.home), 'utf8')).trim();
    const res = await fetch(new URL('/internal/clients', second.server.url), { headers: { [DIRECTORY_SECRET_HEADER]: mine } });
    assert.equal(res.status, 404);
  } finally {
    await second.stop();
  }
});
