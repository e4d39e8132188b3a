// The front door: authorization, DNS-rebinding protection, malformed requests, token rotation, health.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { regenerateToken } from '../../src/auth/static-token.js';
import { startTestServer, fixture, raw, INIT_BODY, MCP_HEADERS, type TestServer, connect, call } from './support.js';
import { LazyCancellation, plainMessage } from '../../src/actors/session-transport.js';
import {
  putMessage,
  putReply,
  putRequest,
  readFromWindow,
  readToWindow,
  type Batch,
  type ForwardedRequest,
  type FromWindow,
  type ToWindow,
} from '../../src/actors/protocol.js';
import { staticPrincipal } from '../../src/auth/principal.js';
import { at } from '../support/at.js';

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
  const body = (await res.json()) as { error: { message: string } };
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
    const req = http.request(
      { host: '127.0.0.1', port: t.server.port, path: '/health', headers: { ...auth(), host: `rebind.example:${t.server.port}` } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
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
  assert.equal(((await malformed.json()) as { error: { code: number } }).error.code, -32700);
  const init = await raw(t, { method: 'POST', headers: { ...MCP_HEADERS, ...auth() }, body: INIT_BODY });
  const sid = init.headers.get('mcp-session-id')!;
  await init.text();
  const inSession = await raw(t, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...auth(), 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
    body: '[{"jsonrpc":',
  });
  assert.equal(inSession.status, 400);
  assert.equal(((await inSession.json()) as { error: { code: number } }).error.code, -32700);
  const mistyped = await raw(t, { method: 'POST', headers: { ...MCP_HEADERS, ...auth(), 'content-type': 'text/plain' }, body: INIT_BODY });
  assert.equal(mistyped.status, 415);
  const health = await raw(t, { path: '/health', headers: auth() });
  assert.equal(health.status, 200);
  assert.equal(((await health.json()) as { windows: number }).windows, 1);
  const client = await connect(t);
  assert.equal((await call(client, 'get_active_ontology')).body.ontology_iri, 'http://example.org/zoo');
  await client.close();
});

test('an unknown session id gets 404 and unknown paths 404', async () => {
  const res = await raw(t, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...auth(), 'mcp-session-id': 'no-such-session' },
    body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
  });
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
  const after = await raw(t, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...auth(), 'mcp-session-id': sid },
    body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
  });
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

/** Opens a session with a raw initialize; returns the headers for requests in it. */
async function rawSession(): Promise<Record<string, string> & { 'mcp-session-id': string }> {
  const init = await raw(t, { method: 'POST', headers: { ...MCP_HEADERS, ...auth() }, body: INIT_BODY });
  assert.equal(init.status, 200);
  await init.text();
  const sid = init.headers.get('mcp-session-id');
  assert.ok(sid);
  return { ...MCP_HEADERS, ...auth(), 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
}

const TOOL_CALL = (id: number | string) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_entity', arguments: { entity: 'Mammal' } } });

test('an in-session tool call answers with the JSON-RPC response, its id and the session header', async () => {
  const h = await rawSession();
  const notified = await raw(t, { method: 'POST', headers: h, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
  assert.equal(notified.status, 202);
  assert.equal(await notified.text(), '');
  for (const id of [7, 'seven']) {
    const res = await raw(t, { method: 'POST', headers: h, body: TOOL_CALL(id) });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.equal(res.headers.get('mcp-session-id'), h['mcp-session-id']);
    const body = (await res.json()) as {
      jsonrpc: string;
      id: unknown;
      result: { isError?: boolean; structuredContent: { matches: { iri: string }[] } };
    };
    assert.equal(body.jsonrpc, '2.0');
    assert.equal(body.id, id);
    assert.notEqual(body.result.isError, true);
    assert.equal(at(body.result.structuredContent.matches, 0).iri, 'http://example.org/zoo#Mammal');
  }
  const batch = await raw(t, { method: 'POST', headers: h, body: `[${TOOL_CALL(8)},${TOOL_CALL(9)}]` });
  assert.equal(batch.status, 200);
  assert.deepEqual(
    ((await batch.json()) as { id: number }[]).map((r) => r.id),
    [8, 9],
  );
});

test('in-session requests the SDK would refuse are refused as it does', async () => {
  const h = await rawSession();
  const cases: [Record<string, string>, string, number, number][] = [
    [{ ...h, accept: 'application/json' }, TOOL_CALL(1), 406, -32000],
    [{ ...h, 'mcp-protocol-version': '1999-01-01' }, TOOL_CALL(2), 400, -32000],
    [h, INIT_BODY, 400, -32600],
    [h, '{"jsonrpc":"2.0","id":3,"method":"tools/list","extra":true}', 400, -32700],
    [h, '{"jsonrpc":"1.0","id":4,"method":"tools/list"}', 400, -32700],
    [h, '{"jsonrpc":"2.0","id":5.5,"method":"tools/list"}', 400, -32700],
  ];
  for (const [headers, body, status, code] of cases) {
    const res = await raw(t, { method: 'POST', headers, body });
    assert.equal(res.status, status, body);
    assert.equal(((await res.json()) as { error: { code: number } }).error.code, code, body);
  }
  const still = await raw(t, { method: 'POST', headers: h, body: TOOL_CALL(6) });
  assert.equal(still.status, 200, 'the session survives refused requests');
  await still.text();
});

test('a GET in a session opens an event stream at once, and calls answer while it is open', async () => {
  const h = await rawSession();
  const controller = new AbortController();
  const opened = performance.now();
  const stream = await raw(t, {
    method: 'GET',
    headers: { ...auth(), accept: 'text/event-stream', 'mcp-session-id': h['mcp-session-id'] },
    signal: controller.signal,
  });
  assert.equal(stream.status, 200);
  assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
  assert.ok(performance.now() - opened < 5000, 'the head arrives before the first keep-alive event');
  const res = await raw(t, { method: 'POST', headers: h, body: TOOL_CALL(1) });
  assert.equal(res.status, 200);
  await res.text();
  controller.abort();
});

test('concurrent calls in many sessions each get their own answer', async () => {
  const sessions = await Promise.all(Array.from({ length: 8 }, () => rawSession()));
  const calls = sessions.flatMap((h, s) => Array.from({ length: 5 }, (_, k) => ({ h, id: s * 100 + k })));
  const answers = await Promise.all(
    calls.map(async ({ h, id }) => {
      const res = await raw(t, { method: 'POST', headers: h, body: TOOL_CALL(id) });
      return { id, session: res.headers.get('mcp-session-id'), body: (await res.json()) as { id: number } };
    }),
  );
  for (const [i, a] of answers.entries()) {
    assert.equal(a.body.id, a.id);
    assert.equal(a.session, at(calls, i).h['mcp-session-id']);
  }
});

test('a tool call served without the SDK Server answers exactly what the Server answers in a batch', async () => {
  const h = await rawSession();
  const calls = [
    { name: 'get_entity', arguments: { entity: 'Mammal' } },
    { name: 'get_entity', arguments: { entity: 'NoSuchThing' } },
    { name: 'get_entity', arguments: { entity: 5 } },
    { name: 'get_entity' },
    { name: 'no_such_tool', arguments: {} },
    { name: 'get_entity', arguments: ['Mammal'] },
    { arguments: {} },
  ];
  for (const [i, params] of calls.entries()) {
    const body = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });
    const plain = await raw(t, { method: 'POST', headers: h, body: body(i) });
    assert.equal(plain.status, 200, JSON.stringify(params));
    const batch = await raw(t, { method: 'POST', headers: h, body: `[${body(i)}]` });
    // the SDK transport answers a batch of one with its one response
    const answered = (await batch.json()) as unknown;
    const viaServer = Array.isArray(answered) ? answered[0] : answered;
    assert.deepEqual(await plain.json(), viaServer, JSON.stringify(params));
  }
});

test('a ping served without the SDK Server answers exactly what the Server answers in a batch', async () => {
  const h = await rawSession();
  for (const [id, params] of [
    [1, undefined],
    ['p', {}],
  ] as const) {
    const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'ping', params });
    const plain = await raw(t, { method: 'POST', headers: h, body });
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.get('content-type'), 'application/json');
    const answered = await plain.json();
    assert.deepEqual(answered, { jsonrpc: '2.0', id, result: {} });
    const batch = await raw(t, { method: 'POST', headers: h, body: `[${body}]` });
    const viaServer = (await batch.json()) as unknown;
    assert.deepEqual(answered, Array.isArray(viaServer) ? viaServer[0] : viaServer);
  }
});

test("a call's signal, made only when asked for, aborts as an AbortController's would, before or after it was made", () => {
  const early = new LazyCancellation();
  assert.equal(early.aborted, false);
  early.abort('client cancelled');
  early.abort('a second cancellation changes nothing');
  assert.equal(early.aborted, true);
  assert.equal(early.signal.aborted, true);
  assert.equal(early.signal.reason, 'client cancelled');
  assert.equal(early.signal, early.signal, 'one signal per call');

  const late = new LazyCancellation();
  const heard: unknown[] = [];
  late.signal.addEventListener('abort', () => heard.push(late.signal.reason));
  assert.equal(late.signal.aborted, false);
  late.abort();
  assert.equal(late.aborted, true);
  assert.equal(heard.length, 1);
  assert.equal((heard[0] as Error).name, 'AbortError', 'no reason gives the AbortError an AbortController gives');

  const unread = new LazyCancellation();
  unread.abort();
  assert.equal((unread.signal.reason as Error).name, 'AbortError');
});

test('the fast path takes only messages the SDK schemas certainly accept', () => {
  assert.ok(plainMessage({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } }));
  assert.ok(plainMessage({ jsonrpc: '2.0', id: 'a', method: 'tools/list' }));
  assert.ok(plainMessage({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  assert.ok(
    plainMessage({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: { progressToken: 'p' } } }),
    'a progress token is answered as a stream',
  );
  for (const m of [
    null,
    [],
    'x',
    { jsonrpc: '2.0', id: 1 },
    { jsonrpc: '2.0', id: 1.5, method: 'm' },
    { jsonrpc: '2.0', id: null, method: 'm' },
    { jsonrpc: '2.0', id: 1, method: 'm', extra: 1 },
    { jsonrpc: '2.0', id: 1, method: 'm', params: [] },
    { jsonrpc: '2.0', id: 1, method: 'm', params: { _meta: { progressToken: 1, other: 1 } } },
    { jsonrpc: '2.0', id: 1, method: 'm', params: { _meta: { progressToken: 1.5 } } },
    { jsonrpc: '2.0', id: 1, method: 'm', params: { _meta: { other: 1 } } },
    { id: 1, method: 'm' },
  ])
    assert.equal(plainMessage(m), null, JSON.stringify(m));
});

test('batches between the threads carry requests, replies and messages in order', () => {
  const principal = staticPrincipal();
  const request: ForwardedRequest = {
    method: 'POST',
    url: '/mcp',
    headers: ['accept', 'application/json', 'mcp-session-id', 's1'],
    body: '{}',
    principal,
  };
  const toWindow: Batch = [];
  putRequest(toWindow, 1, request, JSON.stringify(principal));
  putMessage(toWindow, { type: 'abort', id: 1 });
  putRequest(toWindow, 2, { ...request, method: 'GET', headers: [], body: null }, JSON.stringify(principal));
  const seen: unknown[] = [];
  readToWindow(
    structuredClone(toWindow),
    {
      message: (m: ToWindow) => seen.push(m),
      request: (id, r) => seen.push([id, r.method, r.url, r.headers, r.body, r.principal.client_id]),
    },
    (json) => JSON.parse(json),
  );
  assert.deepEqual(seen, [
    [1, 'POST', '/mcp', ['accept', 'application/json', 'mcp-session-id', 's1'], '{}', principal.client_id],
    { type: 'abort', id: 1 },
    [2, 'GET', '/mcp', [], null, principal.client_id],
  ]);
  const fromWindow: Batch = [];
  putReply(fromWindow, 1, 200, '{"ok":1}');
  putMessage(fromWindow, { type: 'session-closed', sessionId: 's1' });
  putReply(fromWindow, 2, 202, null);
  const back: unknown[] = [];
  readFromWindow(structuredClone(fromWindow), {
    message: (m: FromWindow) => back.push(m),
    reply: (id, status, body) => back.push([id, status, body]),
  });
  assert.deepEqual(back, [[1, 200, '{"ok":1}'], { type: 'session-closed', sessionId: 's1' }, [2, 202, null]]);
});
