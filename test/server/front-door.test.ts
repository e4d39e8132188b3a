// The front door's transport-level rules, through whichever transport ATHENE_HTTP_SERVER selects (npm test
// runs this file once per transport): the transport in use, header limits (431), Host and Origin checks,
// nesting depth, empty batches, and hop-by-hop headers on the way to another process's window.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { startTestServer, fixture, TEST_TRANSPORT, INIT_BODY, type TestServer } from './support.js';
import { freePort, spawnAthene, stopAthene } from '../broker/support.js';
import { at } from '../support/at.js';

let t: TestServer;
before(async () => {
  t = await startTestServer([fixture('zoo.ttl')]);
});
after(async () => {
  await t.stop();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request on its own connection, headers exactly as given (a Host of our choosing included). */
export function request(
  port: number,
  o: { method?: string; path?: string; headers?: [string, string][]; body?: string | string[]; host?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: string[] = ['host', o.host ?? `127.0.0.1:${port}`];
    for (const [k, v] of o.headers ?? []) headers.push(k, v);
    const req = http.request(
      { host: '127.0.0.1', port, method: o.method ?? 'GET', path: o.path ?? '/health', headers, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    if (Array.isArray(o.body)) for (const part of o.body) req.write(part);
    else if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}

const auth = (): [string, string] => ['authorization', `Bearer ${t.token}`];

test('the server runs on the transport the test run asked for', () => {
  if (TEST_TRANSPORT === 'node') assert.equal(t.server.transport.kind, 'node');
  else if (TEST_TRANSPORT === 'uws') assert.equal(t.server.transport.kind, 'uws');
  else assert.equal(t.server.transport.kind, t.server.transport.fallback === null ? 'uws' : 'node');
});

test('too many or too large request headers get 431 with a JSON-RPC error', async () => {
  const many: [string, string][] = [auth()];
  for (let i = 0; i < 44; i++) many.push([`x-filler-${i}`, 'x']);
  const tooMany = await request(t.server.port, { headers: many });
  assert.equal(tooMany.status, 431);
  assert.equal((JSON.parse(tooMany.body) as { error: { code: number } }).error.code, -32000);
  const tooLarge = await request(t.server.port, { headers: [auth(), ['x-big', 'b'.repeat(20_000)]] });
  assert.equal(tooLarge.status, 431);
  const fine = await request(t.server.port, { headers: [auth(), ['x-some', 's'.repeat(2000)]] });
  assert.equal(fine.status, 200);
});

/**
 * Sends `parts` on a fresh connection (pausing between them, so each arrives in its own read) and resolves
 * with the answer: its status and body, or null when the server closed the connection without one.
 */
function rawExchange(port: number, parts: string[]): Promise<{ status: number; body: string } | null> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    const answer = (): { status: number; body: string } | null => {
      const text = data.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return null;
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1] ?? NaN);
      if (!(data.length - end - 4 >= length)) return null;
      return { status: Number(text.slice(9, 12)), body: data.subarray(end + 4, end + 4 + length).toString('utf8') };
    };
    socket.on('data', (d: Buffer) => {
      data = Buffer.concat([data, d]);
      const a = answer();
      if (a !== null) {
        socket.destroy();
        resolve(a);
      }
    });
    socket.on('close', () => resolve(answer()));
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' ? resolve(null) : reject(err)));
    void (async () => {
      for (const [i, part] of parts.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, 200));
        if (!socket.destroyed) socket.write(part);
      }
    })();
  });
}

const head = (lines: string[]) => `GET /health HTTP/1.1\r\n${lines.map((l) => l + '\r\n').join('')}\r\n`;

test("requests uWS's parser refuses are closed unanswered there and answered with a JSON-RPC 4xx by node:http; the server keeps serving", async () => {
  const port = t.server.port;
  const host = `host: 127.0.0.1:${port}`;
  const authLine = `authorization: Bearer ${t.token}`;
  const onNode = t.server.transport.kind === 'node';
  const fillers = (n: number) => Array.from({ length: n }, (_, i) => `x-filler-${i}: x`);
  const cases: { what: string; parts: string[]; node: number }[] = [
    { what: '60 header fields', parts: [head([host, authLine, ...fillers(58)])], node: 431 },
    { what: 'a header line without a colon', parts: [head([host, authLine, 'no-colon-here'])], node: 400 },
    { what: 'a malformed request line', parts: ['NOT HTTP AT ALL\r\n\r\n'], node: 400 },
    { what: 'no Host header', parts: [head([authLine])], node: 403 },
    // a 5 KB head whose first bytes come in a read of their own: over uWS's 4 KB buffer for a head in pieces
    {
      what: 'a 5 KB head in two reads',
      parts: (() => {
        const text = head([host, authLine, `x-some: ${'s'.repeat(5000)}`]);
        return [text.slice(0, 100), text.slice(100)];
      })(),
      node: 200,
    },
  ];
  // 48 header fields, the most uWS's parser takes: the front door's 431 on both transports
  const most = await rawExchange(port, [head([host, authLine, ...fillers(46)])]);
  assert.equal(most?.status, 431);
  assert.equal((JSON.parse(most.body) as { error: { code: number } }).error.code, -32000);
  // each case on its own connection at once: uWS drops some of them only at its 10 s idle timeout
  await Promise.all(
    cases.map(async (c) => {
      const answer = await rawExchange(port, c.parts);
      if (onNode) {
        assert.equal(answer?.status, c.node, c.what);
        if (c.node !== 200) assert.equal((JSON.parse(answer!.body) as { error: { code: number } }).error.code, -32000, c.what);
      } else {
        assert.equal(answer, null, `uWS closes the connection without an answer: ${c.what}`);
      }
      assert.equal((await request(port, { headers: [auth()] })).status, 200, `the next request is served after ${c.what}`);
    }),
  );
  // over node's own parser limit (4 × 16 KB): its 431 is a JSON-RPC error too
  const huge = await rawExchange(port, [head([host, authLine, `x-huge: ${'h'.repeat(100_000)}`])]);
  if (onNode) {
    assert.equal(huge?.status, 431);
    assert.match((JSON.parse(huge!.body) as { error: { message: string } }).error.message, /Request Header Fields Too Large/);
  }
  assert.equal((await request(port, { headers: [auth()] })).status, 200);
});

const MCP: [string, string][] = [
  ['content-type', 'application/json'],
  ['accept', 'application/json, text/event-stream'],
];

test('a loopback Host with any port is accepted; a foreign Host or Origin gets 403 before anything else', async () => {
  for (const host of ['localhost:1', `localhost:${t.server.port}`, '127.0.0.9:8080', '[::1]:9', 'LOCALHOST']) {
    assert.equal((await request(t.server.port, { host, headers: [auth()] })).status, 200, host);
  }
  for (const host of [`evil.example:${t.server.port}`, 'localhost.evil.example', '', '127.0.0.1.evil.example']) {
    const refused = await request(t.server.port, { host, headers: [auth()] });
    assert.equal(refused.status, 403, host);
    assert.match((JSON.parse(refused.body) as { error: { message: string } }).error.message, /not a name of this server/);
  }
  const noToken = await request(t.server.port, { host: 'evil.example', path: '/mcp', method: 'POST', headers: MCP, body: INIT_BODY });
  assert.equal(noToken.status, 403, 'refused before the bearer check');
  assert.equal((await request(t.server.port, { headers: [auth(), ['origin', 'http://localhost:3000']] })).status, 200);
  assert.equal((await request(t.server.port, { headers: [auth(), ['origin', 'http://evil.example']] })).status, 403);
  assert.equal((await request(t.server.port, { headers: [auth(), ['origin', `http://evil.example:${t.server.port}`]] })).status, 403);
});

test('a server bound to 127.0.0.2 accepts its own URL and still refuses foreign names', async () => {
  const other = await startTestServer([fixture('zoo.ttl')], { bind_address: '127.0.0.2', allowed_hosts: 'ontology.test' });
  try {
    const url = new URL(other.server.url);
    assert.equal(url.hostname, '127.0.0.2');
    const own = await fetch(new URL('/health', url), { headers: { authorization: `Bearer ${other.token}`, origin: url.origin } });
    assert.equal(own.status, 200);
    const get = (host: string) =>
      new Promise<number>((resolve, reject) => {
        http
          .get(
            {
              host: '127.0.0.2',
              port: other.server.port,
              path: '/health',
              headers: { host, authorization: `Bearer ${other.token}` },
              agent: false,
            },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          )
          .on('error', reject);
      });
    assert.equal(await get('ontology.test:443'), 200, 'a name from allowed_hosts');
    assert.equal(await get('evil.example'), 403);
  } finally {
    await other.stop();
  }
});

test('JSON nested deeper than max_json_depth and an empty batch get one JSON-RPC -32600 error', async () => {
  const deep = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { x: JSON.parse('['.repeat(70) + ']'.repeat(70)) } });
  const refused = await request(t.server.port, { method: 'POST', path: '/mcp', headers: [auth(), ...MCP], body: deep });
  assert.equal(refused.status, 400);
  const body = JSON.parse(refused.body) as { error: { code: number; message: string }; id: null };
  assert.equal(body.error.code, -32600);
  assert.match(body.error.message, /nested deeper than 64 levels/);
  const hugeDepth = '['.repeat(100_000) + ']'.repeat(100_000);
  assert.equal((await request(t.server.port, { method: 'POST', path: '/mcp', headers: [auth(), ...MCP], body: hugeDepth })).status, 400);
  const init = await request(t.server.port, { method: 'POST', path: '/mcp', headers: [auth(), ...MCP], body: INIT_BODY });
  assert.equal(init.status, 200);
  const session: [string, string][] = [
    ['mcp-session-id', String(init.headers['mcp-session-id'])],
    ['mcp-protocol-version', '2025-06-18'],
  ];
  const empty = await request(t.server.port, { method: 'POST', path: '/mcp', headers: [auth(), ...MCP, ...session], body: ' [ ] ' });
  assert.equal(empty.status, 400);
  const one = JSON.parse(empty.body) as { jsonrpc: string; error: { code: number }; id: null };
  assert.ok(!Array.isArray(one), 'one error, not a batch');
  assert.equal(one.error.code, -32600);
  assert.equal(one.id, null);
});

test('hop-by-hop headers are not forwarded: a chunked request reaches a window of another process', async () => {
  const port = await freePort();
  const broker = await startTestServer([fixture('zoo.ttl')], { port: String(port), broker_idle_linger_s: '0' });
  // a registered process that never starts still lets the broker stop (else the file never ends)
  try {
    const registered = await spawnAthene(broker.home, port, fixture('context.ttl'));
    try {
      const listed = await request(port, { path: '/instances', headers: [['authorization', `Bearer ${broker.token}`]] });
      const ids = (JSON.parse(listed.body) as { instances: { id: string }[] }).instances.map((i) => i.id);
      const remote = ids.find((id) => id !== at(broker.server.registry.local, 0).id)!;
      const half = Math.floor(INIT_BODY.length / 2);
      const chunked = await request(port, {
        method: 'POST',
        path: `/instances/${remote}/mcp`,
        body: [INIT_BODY.slice(0, half), INIT_BODY.slice(half)],
        headers: [
          ['authorization', `Bearer ${broker.token}`],
          ...MCP,
          ['transfer-encoding', 'chunked'],
          ['te', 'trailers'],
          ['connection', 'keep-alive, x-hop'],
          ['x-hop', 'only for this connection'],
          ['keep-alive', 'timeout=5'],
          ['proxy-authorization', 'Basic eDp5'],
        ],
      });
      assert.equal(chunked.status, 200, chunked.body);
      assert.ok(chunked.headers['mcp-session-id'], 'the remote window answered the initialize');
    } finally {
      await stopAthene(registered);
    }
  } finally {
    await broker.stop();
  }
});

test('the route table: OAuth, owner and internal routes before the bearer check, 401 before any other, 405 with Allow, the JSON-RPC 404 last', async () => {
  const port = t.server.port;
  const json = (a: Answer) => JSON.parse(a.body) as Record<string, unknown> & { error: unknown };
  // no credential needed: the OAuth endpoints (their own 404 shape), the owner's routes, the internal API's secret check
  const oauthMissing = await request(port, { path: '/oauth/nothing' });
  assert.equal(oauthMissing.status, 404);
  assert.equal(json(oauthMissing).error, 'not_found');
  assert.equal((await request(port, { path: '/.well-known/oauth-authorization-server' })).status, 200);
  const loginPost = await request(port, { method: 'POST', path: '/owner/login' });
  assert.equal(loginPost.status, 405);
  assert.equal(loginPost.headers.allow, 'GET');
  const regenerate = await request(port, { method: 'POST', path: '/admin/api/token/regenerate' });
  assert.equal(regenerate.status, 403);
  assert.equal(json(regenerate).error_code, 'owner_required');
  assert.equal((await request(port, { path: '/admin/' })).status, 401, 'the server view needs the owner session');
  const internal = await request(port, { path: '/internal/clients' });
  assert.equal(internal.status, 403);
  assert.equal(json(internal).error, 'forbidden');
  // everything else needs a bearer token first, whether or not the path exists
  const requests: [string, string][] = [
    ['GET', '/nothing'],
    ['POST', '/health'],
    ['PUT', '/mcp'],
    ['GET', '/admin/api/clients'],
  ];
  for (const [method, path] of requests) {
    const anonymous = await request(port, { method, path });
    assert.equal(anonymous.status, 401, `${method} ${path}`);
    assert.match(String(anonymous.headers['www-authenticate']), /^Bearer /);
  }
  const putMcp = await request(port, { method: 'PUT', path: '/mcp', headers: [auth()] });
  assert.equal(putMcp.status, 405);
  assert.equal(putMcp.headers.allow, 'GET, POST, DELETE');
  assert.equal((json(putMcp).error as { code: number }).code, -32000);
  const deleteProfile = await request(port, { method: 'DELETE', path: '/admin/api/tool-profile', headers: [auth()] });
  assert.equal(deleteProfile.status, 405);
  assert.equal(deleteProfile.headers.allow, 'GET, PUT');
  for (const path of ['/nothing', '/admin/api/nothing', '/mcp/']) {
    const missing = await request(port, { path, headers: [auth()] });
    assert.equal(missing.status, 404, path);
    assert.equal((json(missing).error as { code: number }).code, -32601);
  }
  assert.equal((await request(port, { path: '/health', headers: [auth()] })).status, 200);
});
