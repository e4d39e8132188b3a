// Sessions are bounded: an idle session ends (404 on its next request; /health counts it), and the
// per-principal (429) and global (503) caps refuse new sessions with a JSON-RPC error.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, fixture, raw, INIT_BODY, MCP_HEADERS, type TestServer } from './support.js';

const LIST = '{"jsonrpc":"2.0","id":2,"method":"tools/list"}';

async function initialize(t: TestServer): Promise<Response> {
  return raw(t, { method: 'POST', headers: { ...MCP_HEADERS, authorization: `Bearer ${t.token}` }, body: INIT_BODY });
}

function inSession(t: TestServer, sid: string, init: RequestInit = {}): Promise<Response> {
  return raw(t, {
    method: 'POST',
    body: LIST,
    ...init,
    headers: { ...MCP_HEADERS, authorization: `Bearer ${t.token}`, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
  });
}

test('an idle session expires: 404 on its next request, counted in /health; a new one can start', async () => {
  const t = await startTestServer([fixture('zoo.ttl')], { session_idle_timeout_s: '1' });
  try {
    const init = await initialize(t);
    assert.equal(init.status, 200);
    await init.text();
    const sid = init.headers.get('mcp-session-id')!;
    assert.equal((await inSession(t, sid)).status, 200);
    await new Promise((r) => setTimeout(r, 2500));
    const late = await inSession(t, sid);
    assert.equal(late.status, 404);
    assert.equal(((await late.json()) as { jsonrpc: string }).jsonrpc, '2.0');
    const health = (await (await raw(t, { path: '/health', headers: { authorization: `Bearer ${t.token}` } })).json()) as {
      sessions_expired: number;
      session_idle_timeout_s: number;
      sessions: number;
    };
    assert.ok(health.sessions_expired >= 1, JSON.stringify(health));
    assert.equal(health.session_idle_timeout_s, 1);
    assert.equal(health.sessions, 0);
    assert.equal((await initialize(t)).status, 200, 'the client re-initializes');
  } finally {
    await t.stop();
  }
});

test('the per-principal cap answers 429 and the global cap 503, each with a JSON-RPC error', async () => {
  const t = await startTestServer([fixture('zoo.ttl')], { max_sessions_per_principal: '2' });
  try {
    const first = await initialize(t);
    await first.text();
    await (await initialize(t)).text();
    const third = await initialize(t);
    assert.equal(third.status, 429);
    assert.match(((await third.json()) as { error: { message: string } }).error.message, /maximum of 2 sessions/);
    const sid = first.headers.get('mcp-session-id')!;
    const closed = await raw(t, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${t.token}`, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
    });
    assert.ok(closed.status === 200 || closed.status === 204);
    assert.equal((await initialize(t)).status, 200, 'a closed session frees its place');
  } finally {
    await t.stop();
  }
  const g = await startTestServer([fixture('zoo.ttl')], { max_sessions: '1' });
  try {
    await (await initialize(g)).text();
    const over = await initialize(g);
    assert.equal(over.status, 503);
    assert.match(((await over.json()) as { error: { message: string } }).error.message, /maximum of 1 sessions/);
  } finally {
    await g.stop();
  }
});
