// OAuth pieces without a server: scopes → capabilities, registration validation, the consent-peer
// decision, the consent page's escaping and CSRF store, and the discovery documents.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CAPABILITIES } from '../../src/auth/principal.js';
import { SCOPES_SUPPORTED, isScopeError, resolveScope } from '../../src/auth/oauth/scopes.js';
import { isRegistrationError, redirectUriProblem, validateClientMetadata } from '../../src/auth/oauth/registration.js';
import { consentRefusal, guardedOrigin, redirectWith, singleParams } from '../../src/http/oauth-routes.js';
import { ConsentRequests, CONSENT_TTL_MS, MAX_PENDING_CONSENTS, type PendingConsent } from '../../src/auth/oauth/consent-requests.js';
import { authorizationServerMetadata, baseUrl, bearerChallenge, protectedResourceMetadata } from '../../src/auth/oauth/metadata.js';
import { CAPABILITY_WORDS, consentPage, escapeHtml, pageHeaders, redirectHost } from '../../src/web/consent-page.js';

test('scope mcp, an omitted scope and an empty one give all ten capabilities', () => {
  for (const requested of ['mcp', undefined, null, '', '  ']) {
    const granted = resolveScope(requested);
    assert.ok(!isScopeError(granted));
    assert.deepEqual(granted.capabilities, [...CAPABILITIES]);
    assert.equal(granted.scope, 'mcp');
  }
  assert.equal(CAPABILITIES.length, 10);
});

test('scope read gives ontology:read only, and capability scopes compose literally', () => {
  const read = resolveScope('read');
  assert.ok(!isScopeError(read));
  assert.deepEqual(read.capabilities, ['ontology:read']);
  const curate = resolveScope('ontology:curate');
  assert.ok(!isScopeError(curate));
  assert.deepEqual(curate.capabilities, ['ontology:curate'], 'curate does not imply read');
  const files = resolveScope('filesystem:project:write');
  assert.ok(!isScopeError(files));
  assert.deepEqual(files.capabilities, ['filesystem:project:write'], 'write does not imply read');
  const both = resolveScope('ontology:curate read ontology:curate');
  assert.ok(!isScopeError(both));
  assert.deepEqual(both.capabilities, ['ontology:read', 'ontology:curate']);
  assert.equal(both.scope, 'ontology:curate read', 'duplicates are dropped, order kept');
  for (const c of CAPABILITIES) {
    const one = resolveScope(c);
    assert.ok(!isScopeError(one));
    assert.deepEqual(one.capabilities, [c]);
  }
});

test('an unknown scope is rejected with invalid_scope naming it', () => {
  for (const [requested, culprit] of [
    ['admin', 'admin'],
    ['read write', 'write'],
    ['ontology:READ', 'ontology:READ'],
    ['mcp\tread', 'mcp\tread'],
  ]) {
    const r = resolveScope(requested);
    assert.ok(isScopeError(r), requested);
    assert.equal(r.error, 'invalid_scope');
    assert.ok(r.error_description.includes(`'${culprit}'`), r.error_description);
  }
  assert.deepEqual(SCOPES_SUPPORTED, ['mcp', 'read', ...CAPABILITIES]);
});

const valid = { client_name: 'Test client', redirect_uris: ['http://127.0.0.1:5555/cb'] };

function registration(body: unknown) {
  return validateClientMetadata(typeof body === 'string' ? body : JSON.stringify(body));
}

test('registration accepts a public client and fills the defaults', () => {
  const m = registration({ ...valid, token_endpoint_auth_method: 'none', client_uri: 'https://ignored.example', scope: 'read' });
  assert.ok(!isRegistrationError(m));
  assert.deepEqual(m, {
    client_name: 'Test client',
    redirect_uris: ['http://127.0.0.1:5555/cb'],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    scope: 'read',
  });
  const unnamed = registration({ redirect_uris: ['com.example.app:/oauth2redirect'] });
  assert.ok(!isRegistrationError(unnamed));
  assert.equal(unnamed.client_name, 'Unnamed client');
});

test('redirect URIs: loopback http, https and private-use schemes only; no fragments, no credentials', () => {
  for (const ok of [
    'http://127.0.0.1/cb',
    'http://127.0.0.1:49152/callback?x=1',
    'http://[::1]:8080/cb',
    'http://localhost:3000/',
    'https://app.example.com/oauth/callback',
    'com.example.app:/oauth2redirect',
    'org.example.tool:callback',
  ]) {
    assert.equal(redirectUriProblem(ok), null, ok);
  }
  const refused: [string, RegExp][] = [
    ['http://app.example.com/cb', /loopback/],
    ['http://192.168.1.5/cb', /loopback/],
    ['http://127.0.0.1/cb#frag', /fragment/],
    ['http://127.0.0.1/cb#', /fragment/],
    ['https://user:pw@app.example.com/cb', /credentials/],
    ['javascript:alert(1)', /private-use/],
    ['myapp:/cb', /private-use/],
    ['file:///etc/passwd', /private-use/],
    ['/relative/cb', /absolute/],
    ['https://app.example.com/' + 'a'.repeat(2000), /2000 characters/],
  ];
  for (const [uri, why] of refused) assert.match(redirectUriProblem(uri) ?? 'accepted', why, uri);
  const r = registration({ ...valid, redirect_uris: ['http://127.0.0.1/ok', 'http://evil.example/cb'] });
  assert.ok(isRegistrationError(r));
  assert.equal(r.error, 'invalid_redirect_uri');
  assert.match(r.error_description, /evil\.example/);
});

test('registration errors are invalid_client_metadata with a description', () => {
  const cases: [unknown, RegExp][] = [
    ['{not json', /not valid JSON/],
    [[1, 2], /JSON object/],
    [{ client_name: 'x' }, /redirect_uris/],
    [{ ...valid, redirect_uris: [] }, /at least one/],
    [{ ...valid, redirect_uris: Array.from({ length: 11 }, (_, i) => `http://127.0.0.1:${4000 + i}/cb`) }, /at most 10/],
    [{ ...valid, client_name: 'n'.repeat(201) }, /200 characters/],
    [{ ...valid, client_name: 7 }, /client_name must be a string/],
    [{ ...valid, token_endpoint_auth_method: 'client_secret_basic' }, /public clients/],
    [{ ...valid, grant_types: ['client_credentials'] }, /grant_types/],
    [{ ...valid, grant_types: ['refresh_token'] }, /must include authorization_code/],
    [{ ...valid, response_types: ['token'] }, /response_types/],
    [{ ...valid, scope: 'read everything' }, /Unknown scope 'everything'/],
  ];
  for (const [body, why] of cases) {
    const r = registration(body);
    assert.ok(isRegistrationError(r), JSON.stringify(body).slice(0, 80));
    assert.equal(r.error, 'invalid_client_metadata');
    assert.match(r.error_description, why);
  }
});

test('consent is refused to any peer but the local machine, whatever its address form', () => {
  for (const local of [
    '127.0.0.1',
    '127.0.0.53',
    '::1',
    '0000:0000:0000:0000:0000:0000:0000:0001',
    '::ffff:127.0.0.1',
    '0000:0000:0000:0000:0000:ffff:7f00:0001',
  ]) {
    assert.equal(consentRefusal(local), null, local);
  }
  for (const remote of [
    '10.0.0.7',
    '192.168.1.20',
    '0.0.0.0',
    '::',
    'fe80::1',
    '2001:db8::1',
    '::ffff:10.0.0.7',
    '0000:0000:0000:0000:0000:ffff:0a00:0007',
    '',
    'localhost',
    'garbage',
  ]) {
    const refusal = consentRefusal(remote);
    assert.notEqual(refusal, null, remote);
    assert.match(refusal!, /athene token/);
    assert.match(refusal!, /Authorization: Bearer/);
  }
});

const pending: PendingConsent = {
  client_id: 'c1',
  redirect_uri: 'http://127.0.0.1:1/cb',
  code_challenge: 'x'.repeat(43),
  scope: 'read',
  capabilities: ['ontology:read'],
  state: 's',
};

test('a consent request is answered once, only through decide, and its outcome reaches only the waiting browser', () => {
  let now = 1_000_000;
  const store = new ConsentRequests(() => now);
  const opened = store.open(pending);
  assert.match(opened.wait, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(store.poll(opened.id, 'not-the-key'), null);
  assert.equal(store.poll(opened.id, opened.wait)?.status, 'pending', 'polling never approves');
  assert.equal(store.decide(opened.id, true), true);
  assert.equal(store.decide(opened.id, false), false, 'answered once');
  assert.deepEqual(store.poll(opened.id, opened.wait)?.request, pending);
  assert.equal(store.poll(opened.id, opened.wait), null, 'delivered once');
  const late = store.open(pending);
  now += CONSENT_TTL_MS;
  assert.equal(store.decide(late.id, true), false, 'expired');
  const first = store.open(pending);
  for (let i = 0; i < MAX_PENDING_CONSENTS; i++) store.open(pending);
  assert.equal(store.size, MAX_PENDING_CONSENTS);
  assert.equal(store.get(first.id), null, 'the oldest was dropped');
});

test('the consent page escapes what the client chose and describes every capability in words', () => {
  const html = consentPage({
    clientName: '<script>alert("x")</script>',
    clientId: 'id&1',
    redirectUri: 'http://127.0.0.1:4000/cb',
    scope: 'ontology:read ontology:curate',
    capabilities: ['ontology:read', 'ontology:curate'],
    action: '/oauth/authorize',
    csrf: 'tok"en',
    consentId: 'c1',
    wait: 'w',
  });
  assert.ok(!html.includes('<script>'));
  assert.ok(html.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'));
  assert.ok(html.includes('value="tok&quot;en"'));
  assert.ok(html.includes(CAPABILITY_WORDS['ontology:read']));
  assert.ok(html.includes(CAPABILITY_WORDS['ontology:curate']));
  assert.ok(!html.includes(CAPABILITY_WORDS['server:admin']));
  assert.ok(html.includes('127.0.0.1:4000'));
  assert.equal(escapeHtml(`a&b<c>"d"'e'`), 'a&amp;b&lt;c&gt;&quot;d&quot;&#39;e&#39;');
  assert.equal(redirectHost('com.example.app:/cb'), 'com.example.app');
  assert.equal(redirectHost('https://app.example.com:8443/cb'), 'app.example.com:8443');
  for (const c of CAPABILITIES) assert.ok(CAPABILITY_WORDS[c].length > 0);
});

test('redirects keep the registered query and add the response parameters; repeated parameters are caught', () => {
  assert.equal(
    redirectWith('http://127.0.0.1:9/cb?x=1', { code: 'abc', state: 'st&8' }),
    'http://127.0.0.1:9/cb?x=1&code=abc&state=st%268',
  );
  assert.equal(redirectWith('com.example.app:/cb', { error: 'access_denied', state: null }), 'com.example.app:/cb?error=access_denied');
  assert.deepEqual(singleParams('a=1&b=2&a=3'), { repeated: 'a' });
  const ok = singleParams('a=1&b=x%20y');
  assert.ok('params' in ok);
  assert.equal(ok.params.get('b'), 'x y');
});

test('discovery metadata names every endpoint from one base URL', () => {
  const base = baseUrl('127.0.0.1:8123', '127.0.0.1', 8123);
  assert.equal(base, 'http://127.0.0.1:8123');
  assert.equal(baseUrl('', '::1', 9000), 'http://[::1]:9000');
  assert.equal(baseUrl('LocalHost:7', '127.0.0.1', 7), 'http://localhost:7');
  assert.deepEqual(protectedResourceMetadata(base, ''), {
    resource: base,
    authorization_servers: [base],
    bearer_methods_supported: ['header'],
    resource_name: 'Athene MCP server',
  });
  assert.equal(protectedResourceMetadata(base, '/mcp').resource, `${base}/mcp`);
  const as = authorizationServerMetadata(base);
  assert.equal(as.issuer, base);
  assert.equal(as.authorization_endpoint, `${base}/oauth/authorize`);
  assert.equal(as.token_endpoint, `${base}/oauth/token`);
  assert.equal(as.registration_endpoint, `${base}/oauth/register`);
  assert.equal(as.revocation_endpoint, `${base}/oauth/revoke`);
  assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
  assert.deepEqual(as.response_types_supported, ['code']);
  assert.deepEqual(as.grant_types_supported, ['authorization_code', 'refresh_token']);
  assert.deepEqual(as.token_endpoint_auth_methods_supported, ['none']);
  assert.deepEqual(as.revocation_endpoint_auth_methods_supported, ['none']);
  assert.deepEqual(as.scopes_supported, [...SCOPES_SUPPORTED]);
  assert.equal(bearerChallenge(base, false), `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"`);
  assert.equal(
    bearerChallenge(base, true),
    `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource", error="invalid_token"`,
  );
});

test("the consent page's headers forbid framing, caching and referrers, and let its form reach only the redirect target", () => {
  const headers = new Map(pageHeaders('http://127.0.0.1:4000/cb?x=1'));
  assert.equal(
    headers.get('content-security-policy'),
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http://127.0.0.1:4000; frame-ancestors 'none'",
  );
  assert.equal(headers.get('x-frame-options'), 'DENY');
  assert.equal(headers.get('cache-control'), 'no-store');
  assert.equal(headers.get('referrer-policy'), 'no-referrer');
  assert.match(new Map(pageHeaders('com.example.app:/cb')).get('content-security-policy')!, /form-action 'self' com\.example\.app:;/);
  assert.match(new Map(pageHeaders()).get('content-security-policy')!, /form-action 'self';/);
});

test("only the consent page's own same-origin post may arrive with Origin: null", () => {
  assert.equal(guardedOrigin('POST', '/oauth/authorize', 'null', 'same-origin'), '');
  assert.equal(guardedOrigin('POST', '/oauth/authorize', 'null', 'cross-site'), 'null');
  assert.equal(guardedOrigin('POST', '/oauth/authorize', 'null', ''), 'null');
  assert.equal(guardedOrigin('POST', '/oauth/token', 'null', 'same-origin'), 'null');
  assert.equal(guardedOrigin('POST', '/oauth/authorize', 'http://evil.example', 'same-origin'), 'http://evil.example');
  assert.equal(guardedOrigin('GET', '/mcp', '', ''), '');
});
