// The consent page in a real browser (headless Debian Chromium driven by playwright-core): it shows the
// client and the scope in words, Deny sends the user back with access_denied, Allow completes the flow,
// and another site cannot frame it.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestServer, fixture, connect, call, type TestServer } from '../test/server/support.js';
import { s256Challenge } from '../src/auth/oauth/pkce.js';
import { CAPABILITY_WORDS } from '../src/web/consent-page.js';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The client's side: a loopback listener that records where the browser was sent back to. */
class Callback {
  private readonly server = http.createServer((req, res) => this.answer(req, res));
  private waiting: ((url: URL) => void) | null = null;
  framingPage = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get redirectUri(): string {
    return `${this.origin}/callback`;
  }

  /** Resolves with the next callback URL the browser lands on. */
  next(): Promise<URL> {
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', this.origin);
    if (url.pathname === '/frame') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(this.framingPage);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('back at the client');
    if (url.pathname === '/callback' && this.waiting !== null) {
      this.waiting(url);
      this.waiting = null;
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let t: TestServer;
let browser: Browser;
const callback = new Callback();

before(async () => {
  t = await startTestServer([fixture('zoo.ttl')]);
  await callback.start();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
});

/** A page signed in as the owner (the single-use login URL sets the owner cookie): only the owner answers consent. */
async function ownerPage(): Promise<Page> {
  const page = await browser.newPage();
  const login = await page.goto(t.server.ownerLoginUrl());
  assert.equal(login?.ok(), true, 'the owner login URL signs the browser in');
  return page;
}

after(async () => {
  await browser?.close();
  await callback.close();
  await t.stop();
});

const base = () => new URL(t.server.url).origin;

async function registerClient(name: string): Promise<string> {
  const res = await fetch(new URL('/oauth/register', base()), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: name, redirect_uris: [callback.redirectUri] }),
  });
  assert.equal(res.status, 201);
  return ((await res.json()) as { client_id: string }).client_id;
}

function authorizeUrl(clientId: string, verifier: string, scope: string, state: string): string {
  const url = new URL('/oauth/authorize', base());
  url.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: callback.redirectUri,
    response_type: 'code',
    scope,
    state,
    code_challenge: s256Challenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  return url.href;
}

test('the page shows the client and its scope in words; Deny returns access_denied with the state', async () => {
  const clientId = await registerClient('Browser <Test> Client');
  const page = await ownerPage();
  try {
    await page.goto(authorizeUrl(clientId, randomBytes(32).toString('base64url'), 'read ontology:curate', 'deny-state'));
    assert.equal(await page.textContent('#client-name'), 'Browser <Test> Client');
    assert.equal(await page.textContent('#redirect-host'), new URL(callback.origin).host);
    assert.equal(await page.textContent('#scope'), 'read ontology:curate');
    const lines = await page.locator('#capabilities li').allTextContents();
    assert.equal(lines.length, 2);
    assert.ok(lines[0]?.includes(CAPABILITY_WORDS['ontology:read']));
    assert.ok(lines[1]?.includes(CAPABILITY_WORDS['ontology:curate']));
    const landed = callback.next();
    await page.click('#deny');
    const url = await landed;
    assert.equal(url.searchParams.get('error'), 'access_denied');
    assert.equal(url.searchParams.get('state'), 'deny-state');
    assert.equal(url.searchParams.get('code'), null);
  } finally {
    await page.close();
  }
});

test('Allow completes the flow: the code becomes a token that works on /mcp', async () => {
  const clientId = await registerClient('Browser Allow Client');
  const verifier = randomBytes(32).toString('base64url');
  const page = await ownerPage();
  let code: string;
  try {
    await page.goto(authorizeUrl(clientId, verifier, 'read', 'allow-state'));
    const landed = callback.next();
    await page.click('#allow');
    const url = await landed;
    assert.equal(url.searchParams.get('state'), 'allow-state');
    code = url.searchParams.get('code')!;
    assert.ok(code.length >= 43);
  } finally {
    await page.close();
  }
  const res = await fetch(new URL('/oauth/token', base()), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: callback.redirectUri,
      client_id: clientId,
      code_verifier: verifier,
    }),
  });
  assert.equal(res.status, 200);
  const tokens = (await res.json()) as { access_token: string; scope: string };
  assert.equal(tokens.scope, 'read');
  const client = await connect(t, tokens.access_token);
  try {
    assert.equal((await call(client, 'get_active_ontology')).body.ontology_iri, 'http://example.org/zoo');
    assert.equal(
      (await call(client, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' })).body.error_code,
      'authorization_denied',
    );
  } finally {
    await client.close();
  }
});

test('another site cannot frame the consent page', async () => {
  const clientId = await registerClient('Framed Client');
  callback.framingPage = `<!doctype html><iframe id="f" src="${authorizeUrl(clientId, randomBytes(32).toString('base64url'), 'mcp', 's')}"></iframe>`;
  const page = await browser.newPage();
  try {
    await page.goto(`${callback.origin}/frame`);
    await page.waitForLoadState('load');
    const frame = page.frames().find((f) => f !== page.mainFrame());
    assert.ok(frame !== undefined);
    assert.equal(await frame.$('#allow'), null, 'the Allow button never renders inside a frame');
  } finally {
    await page.close();
  }
});
