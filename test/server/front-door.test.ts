// The front door's transport-level rules, through whichever transport ATHENE_HTTP_SERVER selects (npm test
// runs this file once per transport): the transport in use, header limits (431).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startTestServer, fixture, TEST_TRANSPORT, type TestServer } from './support.js';

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
export function request(port: number, o: { method?: string; path?: string; headers?: [string, string][]; body?: string | string[]; host?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: string[] = ['host', o.host ?? `127.0.0.1:${port}`];
    for (const [k, v] of o.headers ?? []) headers.push(k, v);
    const req = http.request({ host: '127.0.0.1', port, method: o.method ?? 'GET', path: o.path ?? '/health', headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
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
