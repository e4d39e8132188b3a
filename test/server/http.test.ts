// The front door: authorization, DNS-rebinding protection, malformed requests, token rotation, health.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { regenerateToken } from '../../src/auth/static-token.js';
import { startTestServer, fixture, raw, INIT_BODY, MCP_HEADERS, type TestServer, connect, call } from './support.js';

let t: TestServer;
before(async () => {
  t = await startTestServer([fixture('zoo.ttl')]);
});
after(async () => {
  await t.stop();
});

const auth = () => ({ authorization: `Bearer ${t.token}` });

test('a request without a token gets 401 with WWW-Authenticate: Bearer', async () => {
  const res = await raw(t, { method: 'POST', headers: MCP_HEADERS, body: INIT_BODY });
  assert.equal(res.status, 401);
  assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
  const body = await res.json() as { error: { message: string } };
  assert.match(body.error.message, /bearer token is required/);
});

test('a wrong token gets 401, also on /health', async () => {
  const res = await raw(t, { method: 'POST', headers: { ...MCP_HEADERS, authorization: 'Bearer not-the-token' }, body: INIT_BODY });
  assert.equal(res.status, 401);
  assert.match(res.headers.get('www-authenticate') ?? '', /invalid_token/);
  const health = await raw(t, { path: '/health', headers: { authorization: 'Bearer nope' } });
  assert.equal(health.status, 401);
});

test('a foreign Origin gets 403 even with a valid token', async () => {
  const res = await raw(t, { method: 'POST', headers: { ...MCP_HEADERS, ...auth(), origin: 'http://evil.example' }, body: INIT_BODY });
  assert.equal(res.status, 403);
  const own = await raw(t, { path: '/health', headers: { ...auth(), origin: `http://127.0.0.1:${t.server.port}` } });
  assert.equal(own.status, 200);
});

test('a non-loopback Host on a loopback bind gets 403 (DNS rebinding)', async () => {
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: t.server.port, path: '/health', headers: { ...auth(), host: `rebind.example:${t.server.port}` } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
  assert.equal(status, 403);
});

test('oversized, malformed and mistyped bodies get 413, 400 and 415, and the server keeps serving', async () => {
  const big = '{"x":"' + 'a'.repeat(5 * 1024 * 1024) + '"}';
  const tooLarge = await raw(t, { method: 'POST', headers: { ...MCP_HEADERS, ...auth() }, body: big }).catch(() => null);
  // the server may close the connection right after its 413
  if (tooLarge !== null) assert.equal(tooLarge.status, 413);
  const malformed = await raw(t, { method: 'POST', headers: { ...MCP_HEADERS, ...auth() }, body: '{"jsonrpc": "2.0", "id": 1, ' });
  assert.equal(malformed.status, 400);
  assert.equal((await malformed.json() as { error: { code: number } }).error.code, -32700);
  const init = await raw(t, { method: 'POST', headers: { ...MCP_HEADERS, ...auth() }, body: INIT_BODY });
  const sid = init.headers.get('mcp-session-id')!;
  await init.text();
  const inSession = await raw(t, { method: 'POST', headers: { ...MCP_HEADERS, ...auth(), 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' }, body: '[{"jsonrpc":' });
  assert.equal(inSession.status, 400);
  assert.equal((await inSession.json() as { error: { code: number } }).error.code, -32700);
  const mistyped = await raw(t, { method: 'POST', headers: { ...MCP_HEADERS, ...auth(), 'content-type': 'text/plain' }, body: INIT_BODY });
  assert.equal(mistyped.status, 415);
  const health = await raw(t, { path: '/health', headers: auth() });
  assert.equal(health.status, 200);
  assert.equal((await health.json() as { windows: number }).windows, 1);
  const client = await connect(t);
  assert.equal((await call(client, 'get_active_ontology')).body.ontology_iri, 'http://example.org/zoo');
  await client.close();
});

test('an unknown session id gets 404 and unknown paths 404', async () => {
  const res = await raw(t, { method: 'POST', headers: { ...MCP_HEADERS, ...auth(), 'mcp-session-id': 'no-such-session' }, body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' });
  assert.equal(res.status, 404);
  const other = await raw(t, { path: '/nowhere', headers: auth() });
  assert.equal(other.status, 404);
});

test('a DELETE ends the session', async () => {
  const init = await raw(t, { method: 'POST', headers: { ...MCP_HEADERS, ...auth() }, body: INIT_BODY });
  assert.equal(init.status, 200);
  const sid = init.headers.get('mcp-session-id');
  assert.ok(sid);
  await init.text();
  const del = await raw(t, { method: 'DELETE', headers: { ...auth(), 'mcp-session-id': sid } });
  assert.equal(del.status, 200);
  await del.text();
  const after = await raw(t, { method: 'POST', headers: { ...MCP_HEADERS, ...auth(), 'mcp-session-id': sid }, body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' });
  assert.equal(after.status, 404);
});

test('a regenerated token replaces the old one within a second', async () => {
  const old = t.token;
  const fresh = await regenerateToken(t.home);
  const deadline = Date.now() + 1500;
  let oldStatus = 200;
  while (Date.now() < deadline) {
    oldStatus = (await raw(t, { path: '/health', headers: { authorization: `Bearer ${old}` } })).status;
    if (oldStatus === 401) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(oldStatus, 401);
  assert.equal((await raw(t, { path: '/health', headers: { authorization: `Bearer ${fresh}` } })).status, 200);
  t.token = fresh;
});
