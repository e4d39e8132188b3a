// Issue 13 §1 against the real server and real processes: consent, held writes and the static token need
// the owner (an owner session from a single-use login URL, or the command line reading the private
// directory), never a loopback address or a bearer token.

import test from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { s256Challenge } from '../../src/auth/oauth/pkce.js';
import { consentFields, fixture, ownerLogin, raw, sharedServer, startTestServer, type TestServer } from '../server/support.js';
import { at } from '../support/at.js';

const run = promisify(execFile);
const MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'cli', 'main.js');
// consent, client and login tests each work on their own client or nonce, and share one server
const zoo = sharedServer([fixture('zoo.ttl')]);
const REDIRECT = 'http://127.0.0.1:9/callback';

async function register(t: TestServer, name: string): Promise<string> {
  const res = await fetch(new URL('/oauth/register', t.server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: name, redirect_uris: [REDIRECT] }),
  });
  return ((await res.json()) as { client_id: string }).client_id;
}

function authorizeQuery(clientId: string, verifier: string): string {
  return new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    code_challenge: s256Challenge(verifier),
    code_challenge_method: 'S256',
    scope: 'mcp',
    state: 's',
  }).toString();
}

async function cli(t: TestServer, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [MAIN, ...args, '--home', t.home, '--url', t.server.url]);
  return stdout;
}

/** The attack of issue 13 §1 as a script: register, open the consent page, answer it, try every way to a code. */
const ATTACK = `
const [base, home] = process.argv.slice(1);
const fs = require('node:fs');
const out = { uid: process.getuid(), secretReadable: true, codes: [] };
try { fs.readFileSync(home + '/directory-secret'); } catch { out.secretReadable = false; }
(async () => {
  const crypto = require('node:crypto');
  const verifier = crypto.randomBytes(32).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  const redirect = 'http://127.0.0.1:9/callback';
  const reg = await (await fetch(base + '/oauth/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'Intruder', redirect_uris: [redirect] }) })).json();
  const q = new URLSearchParams({ client_id: reg.client_id, redirect_uri: redirect, response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', scope: 'mcp' });
  const page = await (await fetch(base + '/oauth/authorize?' + q)).text();
  out.pageOffersForm = /name="decision"/.test(page);
  out.explainsCli = /athene consent approve/.test(page);
  out.refreshes = /http-equiv="refresh"/.test(page);
  const id = /id="consent-id">([^<]+)</.exec(page)?.[1] ?? '';
  const wait = /url=[^"]*[?&]amp;?w=([^"&]+)/.exec(page)?.[1] ?? /[?&]w=([A-Za-z0-9_-]+)/.exec(page)?.[1] ?? '';
  for (const body of [{ decision: 'allow', consent: id, wait, csrf: '' }, { decision: 'allow', consent: id, wait }]) {
    const post = await fetch(base + '/oauth/authorize', { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) });
    const loc = post.headers.get('location') ?? '';
    if (loc.includes('code=')) out.codes.push(loc);
    out.postStatus = post.status;
  }
  for (let i = 0; i < 3; i++) {
    const poll = await fetch(base + '/oauth/authorize/wait?' + new URLSearchParams({ id, w: wait }), { redirect: 'manual' });
    const loc = poll.headers.get('location') ?? '';
    if (loc.includes('code=')) out.codes.push(loc);
  }
  const internal = await fetch(base + '/internal/consents/decide', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id, approve: true }) });
  out.internalStatus = internal.status;
  process.stdout.write(JSON.stringify(out));
})().catch((e) => { process.stdout.write(JSON.stringify({ error: String(e) })); });
`;

test('another OS user on this machine cannot approve its own consent (runs the client as uid 65534)', async (ctx) => {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    console.log('# skipped: running a client under another uid needs root; this test runs as uid ' + (process.getuid?.() ?? 'unknown'));
    return ctx.skip('not root: cannot run a client under another uid');
  }
  const { t } = await zoo();
  const origin = new URL(t.server.url).origin;
  const child = spawn(process.execPath, ['-e', ATTACK, origin, t.home], {
    uid: 65534,
    gid: 65534,
    cwd: '/',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  await new Promise((resolve) => child.on('close', resolve));
  const out = JSON.parse(stdout) as {
    uid: number;
    secretReadable: boolean;
    codes: string[];
    pageOffersForm: boolean;
    explainsCli: boolean;
    refreshes: boolean;
    postStatus: number;
    internalStatus: number;
    error?: string;
  };
  assert.equal(out.error, undefined, out.error);
  assert.equal(out.uid, 65534);
  assert.equal(out.secretReadable, false, 'the private directory is closed to other users');
  assert.equal(out.pageOffersForm, false, 'without an owner session the page offers no Allow');
  assert.equal(out.explainsCli, true, 'the page says how the owner approves');
  assert.equal(out.refreshes, true, 'the page refreshes itself');
  assert.equal(out.postStatus, 403);
  assert.equal(out.internalStatus, 403);
  assert.deepEqual(out.codes, [], 'no code was ever issued');
});

test('the owner approves a waiting consent from the command line; the waiting browser then gets its code', async () => {
  const { t } = await zoo();
  const clientId = await register(t, 'CLI approved');
  const verifier = randomBytes(32).toString('base64url');
  const page = await (await fetch(new URL(`/oauth/authorize?${authorizeQuery(clientId, verifier)}`, t.server.url))).text();
  assert.equal(consentFields(page), null, 'no form without the owner');
  const refresh = at(/url=([^"]+)"/.exec(page) ?? [], 1, 'refresh url').replace(/&amp;/g, '&');
  const before = await fetch(new URL(refresh, t.server.url), { redirect: 'manual' });
  assert.equal(before.status, 200, 'still waiting');
  const listed = JSON.parse(await cli(t, 'consent', 'list')) as { id: string; client_id: string; scope: string }[];
  const mine = listed.find((c) => c.client_id === clientId)!;
  assert.equal(mine.scope, 'mcp');
  assert.match(page, new RegExp(`athene consent approve ${mine.id}`));
  assert.match(await cli(t, 'consent', 'approve', mine.id), /approved/);
  const after = await fetch(new URL(refresh, t.server.url), { redirect: 'manual' });
  assert.equal(after.status, 302);
  const code = new URL(after.headers.get('location')!).searchParams.get('code')!;
  const tokens = await fetch(new URL('/oauth/token', t.server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
    }),
  });
  assert.equal(tokens.status, 200);
  const access = ((await tokens.json()) as { access_token: string }).access_token;
  // an OAuth principal, even with scope mcp, never obtains the static token
  const regen = await raw(t, { path: '/admin/api/token/regenerate', method: 'POST', headers: { authorization: `Bearer ${access}` } });
  assert.equal(regen.status, 403);
  assert.ok(!(await regen.text()).includes(t.token));
  // the owner revokes it from the command line, and nothing it obtained keeps working
  const clients = JSON.parse(await cli(t, 'clients', 'list')) as { client_id: string }[];
  assert.ok(clients.some((c) => c.client_id === clientId));
  assert.match(await cli(t, 'clients', 'revoke', clientId), /"revoked": true/);
  const mcp = await raw(t, {
    path: '/mcp',
    method: 'POST',
    headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
  });
  assert.equal(mcp.status, 401);
  // a denied request redirects the waiting browser with access_denied
  const other = await register(t, 'CLI denied');
  const page2 = await (await fetch(new URL(`/oauth/authorize?${authorizeQuery(other, verifier)}`, t.server.url))).text();
  const id2 = at(/id="consent-id">([^<]+)</.exec(page2) ?? [], 1, 'consent id');
  await cli(t, 'consent', 'deny', id2);
  const denied = await fetch(new URL(at(/url=([^"]+)"/.exec(page2) ?? [], 1, 'refresh url').replace(/&amp;/g, '&'), t.server.url), {
    redirect: 'manual',
  });
  assert.equal(new URL(denied.headers.get('location')!).searchParams.get('error'), 'access_denied');
});

test('the owner login URL is single use and sets an httpOnly, SameSite=Strict, host-only cookie with an expiry', async () => {
  const { t } = await zoo();
  const url = (await cli(t, 'open', '--print-url')).trim();
  const first = await fetch(url, { redirect: 'manual' });
  assert.equal(first.status, 303);
  const cookie = first.headers.get('set-cookie')!;
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Strict/);
  assert.match(cookie, /Max-Age=\d+/);
  assert.doesNotMatch(cookie, /Domain=/i);
  assert.equal((await fetch(url, { redirect: 'manual' })).status, 403, 'single use');
  const forged = new URL(url);
  forged.searchParams.set('n', randomBytes(24).toString('base64url'));
  assert.equal((await fetch(forged, { redirect: 'manual' })).status, 403, 'the code is bound to its nonce');
});

test('held writes are decided only by the owner: a bearer token is refused, the CLI and the owner session work', async () => {
  const t = await startTestServer([fixture('zoo.ttl')], { confirm_each_write: true });
  try {
    const { connect, call, pendingWrites } = await import('../server/support.js');
    const c = await connect(t);
    // one write held at a time, so each approval id is known to belong to its call
    const heldIds = async (count: number): Promise<string[]> => {
      let pending: { approval_id: string }[] = [];
      for (let i = 0; i < 400 && pending.length < count; i++) {
        pending = await pendingWrites(t);
        if (pending.length < count) await new Promise((r) => setTimeout(r, 25));
      }
      assert.equal(pending.length, count);
      return pending.map((p) => p.approval_id);
    };
    const first = call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Mammal', super: 'Bird' });
    const one = at(await heldIds(1), 0);
    const second = call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Bird', super: 'Mammal' });
    const two = (await heldIds(2)).find((id) => id !== one)!;
    const byBearer = await raw(t, {
      method: 'POST',
      path: `/admin/api/pending/${one}/approve`,
      headers: { authorization: `Bearer ${t.token}` },
    });
    assert.equal(byBearer.status, 403, 'an agent holding the static token cannot approve its own write');
    assert.equal(((await byBearer.json()) as { error_code: string }).error_code, 'owner_required');
    const listed = JSON.parse(await cli(t, 'pending', 'list')) as { approval_id: string }[];
    assert.equal(listed.length, 2);
    assert.match(await cli(t, 'pending', 'approve', one), /approved/);
    const owner = await ownerLogin(t);
    const noCsrf = await raw(t, { method: 'POST', path: `/admin/api/pending/${two}/deny`, headers: { cookie: owner.cookie } });
    assert.equal(noCsrf.status, 403, 'the session alone is not enough: its CSRF token is required');
    const byOwner = await raw(t, {
      method: 'POST',
      path: `/admin/api/pending/${two}/deny`,
      headers: { cookie: owner.cookie, 'x-athene-csrf': owner.csrf },
    });
    assert.equal(byOwner.status, 200);
    const [r1, r2] = await Promise.all([first, second]);
    assert.equal(r1.isError, false);
    assert.equal(r2.isError, true);
    await c.close();
  } finally {
    await t.stop();
  }
});
