// Issue 13 §3 against a real server bound to 0.0.0.0 (a documented preset): a DNS-rebinding page (Host
// evil.example:PORT with the matching Origin) can neither register, reach the consent page, nor drive /mcp;
// the server's own names (loopback, this machine's host name) still work.

import test from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import os from 'node:os';
import { INIT_BODY, fixture, startTestServer, type TestServer } from '../server/support.js';

interface Answer {
  status: number;
  body: string;
}

function send(
  t: TestServer,
  host: string,
  origin: string | null,
  method: string,
  path: string,
  body = '',
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: t.server.port,
        method,
        path,
        agent: false,
        headers: {
          host,
          ...(origin === null ? {} : { origin }),
          ...headers,
          ...(body === '' ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

test('bound to 0.0.0.0, a rebinding Host with its matching Origin is refused on every route', async () => {
  const t = await startTestServer([fixture('zoo.ttl')], { bind_address: '0.0.0.0' });
  try {
    const port = t.server.port;
    const evil = `evil.example:${port}`;
    const registration = JSON.stringify({ client_name: 'Rebinder', redirect_uris: ['http://127.0.0.1:9/cb'] });
    const attempts = [
      await send(t, evil, `http://${evil}`, 'POST', '/oauth/register', registration, { 'content-type': 'application/json' }),
      await send(t, evil, `http://${evil}`, 'GET', '/oauth/authorize?client_id=x&response_type=code'),
      await send(t, evil, `http://${evil}`, 'POST', '/mcp', INIT_BODY, {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${t.token}`,
      }),
      await send(t, evil, null, 'GET', '/health', '', { authorization: `Bearer ${t.token}` }),
    ];
    for (const a of attempts) {
      assert.equal(a.status, 403, a.body);
      assert.match(a.body, /not a name of this server/);
    }
    assert.equal(t.server.authority.listClients().length, 0, 'nothing was registered');
    // a foreign Origin with an honest Host is refused too
    const foreignOrigin = await send(t, `127.0.0.1:${port}`, 'http://evil.example', 'POST', '/oauth/register', registration, {
      'content-type': 'application/json',
    });
    assert.equal(foreignOrigin.status, 403);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `${os.hostname()}:${port}`]) {
      const ok = await send(t, host, `http://${host}`, 'GET', '/health', '', { authorization: `Bearer ${t.token}` });
      assert.equal(ok.status, 200, `${host}: ${ok.body}`);
    }
  } finally {
    await t.stop();
  }
});
