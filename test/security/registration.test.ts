// Issue 13 §5: RFC 7591 dynamic registration, open to anyone who reaches the endpoint, is rate-limited per
// source address and capped in registrations still waiting to authorize (real server, real sockets from two
// loopback source addresses); an unfinished registration is gone the moment its hour is over (real actor
// worker with an injected clock), before any sweep.

import test from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { startRevocationActor } from '../../src/auth/revocation/actor.js';
import { UNFINISHED_REGISTRATION_TTL_MS } from '../../src/auth/oauth/state.js';
import { s256Challenge } from '../../src/auth/oauth/pkce.js';
import { CAPABILITIES } from '../../src/auth/principal.js';
import { fixture, startTestServer, type TestServer } from '../server/support.js';
import { authorize } from '../server/oauth-grant.js';
import { REDIRECT, VERIFIER, registerClient, removeHome, tempHome } from '../auth/support.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/** POST /oauth/register over a real socket from the given local (source) address. */
function registerFrom(t: TestServer, source: string, name: string): Promise<Answer> {
  const url = new URL('/oauth/register', t.server.url);
  const body = JSON.stringify({ client_name: name, redirect_uris: ['http://127.0.0.1:9/callback'] });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: source,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) as Record<string, unknown> }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

test('registrations are rate-limited per source address; another source still registers', async () => {
  const t = await startTestServer([fixture('zoo.ttl')], { oauth_registrations_per_minute: '3' });
  try {
    for (let i = 0; i < 3; i++) assert.equal((await registerFrom(t, '127.0.0.1', `Agent ${i}`)).status, 201);
    const limited = await registerFrom(t, '127.0.0.1', 'One too many');
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error, 'temporarily_unavailable');
    assert.match(String(limited.body.error_description), /at most 3 a minute \(the oauth_registrations_per_minute limit\)/);
    const retry = Number(limited.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${String(limited.headers['retry-after'])}`);
    const other = await registerFrom(t, '127.0.0.2', 'Another process');
    assert.equal(other.status, 201, 'the limit is per source address');
    assert.equal(t.server.authority.listClients().length, 4, 'the refused registration left nothing behind');
  } finally {
    await t.stop();
  }
});

test('registrations still waiting to authorize are capped; an authorization frees a place', async () => {
  const t = await startTestServer([fixture('zoo.ttl')], { oauth_max_unfinished_clients: '2', oauth_registrations_per_minute: '100' });
  try {
    const first = await registerFrom(t, '127.0.0.1', 'First');
    assert.equal(first.status, 201);
    assert.equal((await registerFrom(t, '127.0.0.1', 'Second')).status, 201);
    const full = await Promise.all([registerFrom(t, '127.0.0.1', 'Third'), registerFrom(t, '127.0.0.2', 'Fourth')]);
    for (const r of full) {
      assert.equal(r.status, 429);
      assert.match(
        String(r.body.error_description),
        /2 registered clients are still waiting to authorize \(the oauth_max_unfinished_clients limit\)/,
      );
    }
    assert.equal(t.server.authority.unfinishedRegistrations(), 2);
    await authorize(t, String(first.body.client_id), 'read');
    assert.equal(t.server.authority.unfinishedRegistrations(), 1);
    assert.equal((await registerFrom(t, '127.0.0.1', 'Third again')).status, 201);
    assert.equal((await registerFrom(t, '127.0.0.1', 'Fifth')).status, 429);
  } finally {
    await t.stop();
  }
});

test('an unfinished registration is gone when its hour is over, before the sweep; an authorized one stays', async () => {
  const home = await tempHome();
  let now = Date.UTC(2026, 0, 1);
  const actor = await startRevocationActor({ home, now: () => now, sweepIntervalMs: 24 * 3_600_000 });
  try {
    const waiting = await registerClient(actor, 'Never finishes');
    const finished = await registerClient(actor, 'Finishes');
    const code = await actor.issueCode({
      client_id: finished,
      redirect_uri: REDIRECT,
      code_challenge: s256Challenge(VERIFIER),
      scope: 'mcp',
      capabilities: CAPABILITIES,
    });
    assert.equal(
      'access_token' in (await actor.exchangeCode({ client_id: finished, code, redirect_uri: REDIRECT, code_verifier: VERIFIER })),
      true,
    );
    assert.equal(actor.unfinishedRegistrations(), 1);
    now += UNFINISHED_REGISTRATION_TTL_MS - 1;
    assert.notEqual(actor.client(waiting), undefined, 'still valid just before the hour');
    now += 1;
    assert.equal(actor.client(waiting), undefined, 'unknown from the hour on');
    assert.equal(actor.unfinishedRegistrations(), 0);
    await assert.rejects(
      actor.issueCode({
        client_id: waiting,
        redirect_uri: REDIRECT,
        code_challenge: s256Challenge(VERIFIER),
        scope: 'mcp',
        capabilities: CAPABILITIES,
      }),
      /Unknown client/,
    );
    assert.notEqual(actor.client(finished), undefined);
    await actor.sweep();
    assert.deepEqual(
      actor.listClients().map((c) => c.client_id),
      [finished],
      'the sweep removes it for good',
    );
  } finally {
    await actor.close();
    await removeHome(home);
  }
});
