// OAuth through the real server: discovery from the 401, metadata, registration errors, the MCP SDK
// client's own OAuth flow (registration, PKCE, consent from loopback, token, refresh, RFC 7009 revocation),
// scopes enforced by the tool gate, the authorization endpoint's refusals and the admin API.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { MemoryAuth } from './memory-auth.js';
import {
  startTestServer,
  fixture,
  raw,
  call,
  connect,
  ownerLogin,
  consentFields,
  INIT_BODY,
  MCP_HEADERS,
  type TestServer,
} from './support.js';
import { TOOLS } from '../../src/tools/core/tool-catalog.js';
import { CAPABILITIES } from '../../src/auth/principal.js';
import { s256Challenge } from '../../src/auth/oauth/pkce.js';
import { at } from '../support/at.js';

const REDIRECT = 'http://127.0.0.1:7/callback';

let t: TestServer;
before(async () => {
  t = await startTestServer([fixture('zoo.ttl')]);
});
after(async () => {
  await t.stop();
});

const base = () => new URL(t.server.url).origin;
const adminAuth = () => ({ authorization: `Bearer ${t.token}` });

/** Approves a consent page as the owner would in a signed-in browser: read the form, post Allow. */
async function consent(authorizationUrl: URL | string, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
  const owner = await ownerLogin(t);
  const page = await fetch(authorizationUrl, { redirect: 'manual', headers: { cookie: owner.cookie } });
  assert.equal(page.status, 200, `consent page: ${page.status} ${await page.clone().text()}`);
  const fields = consentFields(await page.text());
  assert.ok(fields !== null, "the owner's consent page carries the form fields");
  const answer = await fetch(new URL('/oauth/authorize', base()), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: owner.cookie },
    body: new URLSearchParams({ ...fields, decision }),
  });
  assert.equal(answer.status, 302);
  return new URL(answer.headers.get('location')!);
}

/** An OAuthClientProvider kept in memory; it answers the consent page itself while `approve` is true. */
class TestProvider extends MemoryAuth {
  code: string | undefined;
  consents = 0;
  approve = true;

  constructor(
    private readonly scope: string | undefined,
    private readonly name = 'SDK test client',
  ) {
    super();
  }

  get redirectUrl(): string {
    return REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.scope === undefined ? {} : { scope: this.scope }),
    };
  }

  state(): string {
    return 'state-' + this.consents;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.consents++;
    if (!this.approve) return;
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    const back = await consent(url);
    assert.equal(back.searchParams.get('state'), url.searchParams.get('state'), 'state is echoed');
    this.code = back.searchParams.get('code') ?? undefined;
  }
}

function oauthClient(provider: TestProvider): { client: Client; transport: StreamableHTTPClientTransport } {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', base()), { authProvider: provider });
  return { client: new Client({ name: 'oauth-test', version: '1.0.0' }), transport };
}

/** The SDK flow: a 401 starts discovery, registration and consent; finishAuth exchanges the code; reconnect. */
async function oauthConnect(scope: string | undefined, name?: string): Promise<{ client: Client; provider: TestProvider }> {
  const provider = new TestProvider(scope, name);
  const first = oauthClient(provider);
  await assert.rejects(first.client.connect(first.transport), UnauthorizedError);
  assert.ok(provider.code !== undefined, 'consent produced a code');
  await first.transport.finishAuth(provider.code);
  const second = oauthClient(provider);
  await second.client.connect(second.transport);
  return { client: second.client, provider };
}

function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

async function mcpStatus(token: string): Promise<Response> {
  return raw(t, { method: 'POST', headers: { ...MCP_HEADERS, ...bearer(token) }, body: INIT_BODY });
}

function form(path: string, params: Record<string, string>): Promise<Response> {
  return raw(t, {
    path,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params),
  });
}

async function register(metadata: unknown): Promise<Response> {
  return raw(t, {
    path: '/oauth/register',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  });
}

test('a 401 points at the protected-resource metadata, which names the authorization server', async () => {
  const none = await raw(t, { method: 'POST', headers: MCP_HEADERS, body: INIT_BODY });
  assert.equal(none.status, 401);
  const challenge = `Bearer resource_metadata="${base()}/.well-known/oauth-protected-resource"`;
  assert.equal(none.headers.get('www-authenticate'), challenge);
  const wrong = await mcpStatus('not-a-token');
  assert.equal(wrong.status, 401);
  assert.equal(wrong.headers.get('www-authenticate'), challenge + ', error="invalid_token"');

  const prm = (await (await raw(t, { path: '/.well-known/oauth-protected-resource' })).json()) as Record<string, unknown>;
  assert.deepEqual(prm.authorization_servers, [base()]);
  assert.equal(prm.resource, base());
  const prmMcp = (await (await raw(t, { path: '/.well-known/oauth-protected-resource/mcp' })).json()) as Record<string, unknown>;
  assert.equal(prmMcp.resource, `${base()}/mcp`);
  const as = await raw(t, { path: '/.well-known/oauth-authorization-server' });
  assert.equal(as.status, 200);
  const meta = (await as.json()) as Record<string, unknown>;
  assert.equal(meta.issuer, base());
  assert.equal(meta.token_endpoint, `${base()}/oauth/token`);
  assert.deepEqual(meta.code_challenge_methods_supported, ['S256']);
  assert.deepEqual(meta.scopes_supported, ['mcp', 'read', ...CAPABILITIES]);
  assert.deepEqual(meta.token_endpoint_auth_methods_supported, ['none']);
  assert.equal((await raw(t, { path: '/.well-known/unknown' })).status, 404);
});

test('registration refuses bad metadata with invalid_client_metadata or invalid_redirect_uri', async () => {
  const ok = await register({ client_name: 'Registered', redirect_uris: [REDIRECT] });
  assert.equal(ok.status, 201);
  const reg = (await ok.json()) as Record<string, unknown>;
  assert.match(String(reg.client_id), /^[\w-]{16,}$/);
  assert.equal(reg.token_endpoint_auth_method, 'none');
  assert.equal(ok.headers.get('cache-control'), 'no-store');

  const badUri = await register({ client_name: 'x', redirect_uris: ['http://evil.example/cb'] });
  assert.equal(badUri.status, 400);
  assert.equal(((await badUri.json()) as { error: string }).error, 'invalid_redirect_uri');
  const secret = await register({ client_name: 'x', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_post' });
  assert.equal(secret.status, 400);
  const body = (await secret.json()) as { error: string; error_description: string };
  assert.equal(body.error, 'invalid_client_metadata');
  assert.match(body.error_description, /public clients/);
  const huge = await register({ client_name: 'x', redirect_uris: [REDIRECT], padding: 'p'.repeat(40_000) });
  assert.equal(huge.status, 413);
  const notJson = await raw(t, { path: '/oauth/register', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
  assert.equal(((await notJson.json()) as { error: string }).error, 'invalid_client_metadata');
});

test('the SDK client authorizes end to end, refreshes, detects refresh-token reuse, and a revoked token gets 401', async () => {
  const { client, provider } = await oauthConnect(undefined);
  assert.equal(provider.consents, 1);
  const tools = await client.listTools();
  assert.ok(tools.tools.some((x) => x.name === 'get_active_ontology'));
  assert.equal((await call(client, 'get_active_ontology')).body.ontology_iri, 'http://example.org/zoo');
  const first = provider.saved!;
  assert.equal(first.scope, 'mcp', 'an omitted scope is granted as mcp');

  // The SDK's own refresh: auth() with stored tokens rotates the refresh token.
  assert.equal(await auth(provider, { serverUrl: new URL('/mcp', base()) }), 'AUTHORIZED');
  const second = provider.saved!;
  assert.notEqual(second.refresh_token, first.refresh_token);
  assert.notEqual(second.access_token, first.access_token);
  assert.equal((await mcpStatus(second.access_token)).status, 200);
  assert.equal((await mcpStatus(first.access_token)).status, 401, 'the rotated-away access token is dead');

  const reuse = await form('/oauth/token', {
    grant_type: 'refresh_token',
    refresh_token: first.refresh_token!,
    client_id: provider.info!.client_id,
  });
  assert.equal(reuse.status, 400);
  assert.equal(((await reuse.json()) as { error: string }).error, 'invalid_grant');
  assert.equal((await mcpStatus(second.access_token)).status, 401, 'reuse revoked the whole grant');
  const afterReuse = await form('/oauth/token', {
    grant_type: 'refresh_token',
    refresh_token: second.refresh_token!,
    client_id: provider.info!.client_id,
  });
  assert.equal(afterReuse.status, 400, 'the current refresh token of the revoked grant is dead too');
  await client.close();

  // A fresh grant, revoked through RFC 7009: the next call is 401 and the SDK cannot silently recover.
  const again = await oauthConnect('mcp', 'Revoked via RFC 7009');
  assert.equal((await call(again.client, 'list_ontologies')).isError, false);
  const tokens = again.provider.saved!;
  const revoke = await form('/oauth/revoke', { token: tokens.access_token, client_id: again.provider.info!.client_id });
  assert.equal(revoke.status, 200);
  const next = await mcpStatus(tokens.access_token);
  assert.equal(next.status, 401);
  assert.match(next.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  again.provider.approve = false;
  await assert.rejects(again.client.callTool({ name: 'list_ontologies', arguments: {} }));
  const refreshRevoked = await form('/oauth/token', {
    grant_type: 'refresh_token',
    refresh_token: tokens.refresh_token!,
    client_id: again.provider.info!.client_id,
  });
  assert.equal(((await refreshRevoked.json()) as { error: string }).error, 'invalid_grant');
  assert.equal((await form('/oauth/revoke', { token: 'never-issued' })).status, 200, 'an unknown token is not an error (RFC 7009)');
  await again.client.close().catch(() => undefined);
});

/** Valid arguments for a tool, from its listed JSON Schema: required properties only, simplest values. */
function sample(schema: Record<string, unknown>): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('const' in schema) return schema.const;
  for (const k of ['anyOf', 'oneOf']) if (Array.isArray(schema[k])) return sample(at(schema[k] as Record<string, unknown>[], 0));
  switch (schema.type) {
    case 'string':
      return 'Dog';
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1;
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: Number(schema.minItems ?? 0) }, () => sample((schema.items ?? {}) as Record<string, unknown>));
    default: {
      const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      return Object.fromEntries(
        ((schema.required ?? []) as string[]).map((k) => {
          const prop = props[k];
          assert.ok(prop, `required ${k} has a schema`);
          return [k, sample(prop)];
        }),
      );
    }
  }
}

/** Arguments for tools whose schema alone does not make a valid call. */
const ARGS: Readonly<Record<string, Record<string, unknown>>> = {
  create_class: { name: 'Lion' },
  create_entity: { entity_type: 'class', name: 'Lion' },
  create_term: { name: 'Lion' },
  create_terms: { terms: [{ name: 'Lion' }] },
  create_property: { name: 'hunts' },
  create_properties: { properties: [{ name: 'hunts' }] },
  add_annotation: { entity: 'Animal', property: 'rdfs:comment', value: 'x' },
  add_axiom: { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' },
  remove_axiom: { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' },
  materialize_inferences: {
    categories: ['subclass_axioms'],
    destination: { kind: 'new_ontology', identifier: 'http://example.org/inferred' },
    provenance: { generator: 'test', purpose: 'test' },
    limits: { max_axioms_per_category: 10, max_axioms_total: 10, max_bytes: 4096, timeout_ms: 1000 },
  },
  commit_materialization: { artifact_id: 'mat-0', artifact_fingerprint: 'sha256:' + '0'.repeat(64), confirm: true },
  export_job_artifact: {
    job_id: '00000000-0000-4000-8000-000000000000',
    artifact_id: '00000000-0000-4000-8000-000000000001',
    destination: 'taxonomy.json',
    confirm: true,
  },
  add_mapping: { expected_mapping_revision: 'sha256:' + '0'.repeat(64), mapping: { subject_id: 'zoo:Dog' }, confirm: true },
  remove_mapping: { expected_mapping_revision: 'sha256:' + '0'.repeat(64), mapping_id: 'm1', confirm: true },
  import_sssom: { expected_mapping_revision: 'sha256:' + '0'.repeat(64), source: 'in.sssom.tsv', mode: 'merge', confirm: true },
  export_sssom: { expected_mapping_revision: 'sha256:' + '0'.repeat(64), destination: 'out.sssom.tsv', confirm: true },
  inspect_external_term: { provider_id: 'ols', ontology: 'uberon', iri: 'http://purl.obolibrary.org/obo/UBERON_0000948' },
  propose_term_reuse: {
    provider_id: 'ols',
    ontology: 'uberon',
    iri: 'http://purl.obolibrary.org/obo/UBERON_0000948',
    term_fingerprint: 'sha256:' + '0'.repeat(64),
    action: 'reuse_iri',
  },
  accept_reuse_proposal: { proposal_id: 'a'.repeat(43), proposal_fingerprint: 'sha256:' + '0'.repeat(64), confirm: true },
};

/** What a window shows of its state; byte-identical JSON when nothing changed. */
async function snapshot(c: Client): Promise<string> {
  const parts = [];
  for (const name of ['list_ontologies', 'get_active_ontology', 'summarize_ontology']) parts.push((await call(c, name)).body);
  return JSON.stringify(parts);
}

test('a read grant calls read tools and is refused every other tool before its handler', async () => {
  const { client, provider } = await oauthConnect('read', 'Reader');
  const admin = await connect(t);
  try {
    assert.equal((await call(client, 'get_active_ontology')).isError, false);
    assert.equal((await call(client, 'get_entity', { entity: 'Animal' })).isError, false);
    const before = await snapshot(admin);
    const listed = new Map((await client.listTools()).tools.map((x) => [x.name, x.inputSchema as Record<string, unknown>]));
    const guarded = TOOLS.filter((d) => !(d.capabilities.length === 1 && d.capabilities[0] === 'ontology:read'));
    assert.ok(guarded.length >= 10, 'the catalog has mutating tools');
    const wrong: string[] = [];
    for (const def of guarded) {
      const r = await call(client, def.name, ARGS[def.name] ?? (sample(listed.get(def.name)!) as Record<string, unknown>));
      const missing = def.capabilities.filter((c) => c !== 'ontology:read');
      const refused =
        r.isError &&
        r.body.error_code === 'authorization_denied' &&
        r.body.effects_prevented === true &&
        JSON.stringify(r.body.missing_capabilities) === JSON.stringify(missing);
      if (!refused) wrong.push(`${def.name}: ${JSON.stringify(r.body)}`);
    }
    assert.deepEqual(wrong, [], 'every tool beyond ontology:read is refused with authorization_denied');
    const malformed = await call(client, 'add_axiom', { bogus: 1 });
    assert.equal(malformed.body.error_code, 'authorization_denied', 'capabilities are checked before the arguments');
    assert.equal(await snapshot(admin), before, 'no refused call changed the window');
    const adminApi = await raw(t, { path: '/admin/api/clients', headers: bearer(provider.saved!.access_token) });
    assert.equal(adminApi.status, 403, 'a read grant is not a server admin');
  } finally {
    await client.close();
    await admin.close();
  }
});

test('ontology:curate alone cannot read; mcp is local admin', async () => {
  const curate = await oauthConnect('ontology:curate', 'Curator');
  const denied = await call(curate.client, 'get_active_ontology');
  assert.equal(denied.body.error_code, 'authorization_denied');
  assert.deepEqual(denied.body.missing_capabilities, ['ontology:read']);
  await curate.client.close();

  const full = await oauthConnect('mcp', 'Full');
  assert.equal(full.provider.saved!.scope, 'mcp');
  const list = await raw(t, { path: '/admin/api/clients', headers: bearer(full.provider.saved!.access_token) });
  assert.equal(list.status, 200, 'mcp carries server:admin');
  const added = await call(full.client, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Lion', super: 'Animal' });
  assert.equal(added.isError, false, JSON.stringify(added.body));
  assert.equal((await call(full.client, 'undo_change', {})).isError, false);
  await full.client.close();
});

async function registeredClient(name: string): Promise<string> {
  const res = await register({ client_name: name, redirect_uris: [REDIRECT] });
  return ((await res.json()) as { client_id: string }).client_id;
}

function authorizeUrl(params: Record<string, string>): URL {
  const url = new URL('/oauth/authorize', base());
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url;
}

const VERIFIER = 'v'.repeat(64);

test('the authorization endpoint refuses before consent: unknown scope, no PKCE, foreign redirect URI', async () => {
  const clientId = await registeredClient('Refusals');
  const good = {
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    code_challenge: s256Challenge(VERIFIER),
    code_challenge_method: 'S256',
    state: 'xyz',
  };

  const unknown = await fetch(authorizeUrl({ ...good, scope: 'read everything' }), { redirect: 'manual' });
  assert.equal(unknown.status, 302, 'an unknown scope never reaches the consent page');
  const back = new URL(unknown.headers.get('location')!);
  assert.equal(back.origin + back.pathname, REDIRECT);
  assert.equal(back.searchParams.get('error'), 'invalid_scope');
  assert.match(back.searchParams.get('error_description')!, /everything/);
  assert.equal(back.searchParams.get('state'), 'xyz');
  assert.equal(back.searchParams.get('code'), null);

  const plain = await fetch(authorizeUrl({ ...good, code_challenge_method: 'plain' }), { redirect: 'manual' });
  assert.equal(new URL(plain.headers.get('location')!).searchParams.get('error'), 'invalid_request');
  const { code_challenge: _omit, ...noChallenge } = good;
  const missing = await fetch(authorizeUrl(noChallenge), { redirect: 'manual' });
  assert.match(new URL(missing.headers.get('location')!).searchParams.get('error_description')!, /code_challenge/);
  const token = await fetch(authorizeUrl({ ...good, response_type: 'token' }), { redirect: 'manual' });
  assert.equal(new URL(token.headers.get('location')!).searchParams.get('error'), 'unsupported_response_type');

  const foreign = await fetch(authorizeUrl({ ...good, redirect_uri: 'http://127.0.0.1:7/elsewhere' }), { redirect: 'manual' });
  assert.equal(foreign.status, 400, 'an unregistered redirect URI is never redirected to');
  assert.match(foreign.headers.get('content-type')!, /text\/html/);
  const unknownClient = await fetch(authorizeUrl({ ...good, client_id: 'nobody' }), { redirect: 'manual' });
  assert.equal(unknownClient.status, 400);

  const owner = await ownerLogin(t);
  const page = await fetch(authorizeUrl({ ...good, scope: 'read' }), { redirect: 'manual', headers: { cookie: owner.cookie } });
  assert.equal(page.status, 200);
  assert.equal(page.headers.get('x-frame-options'), 'DENY');
  assert.equal(page.headers.get('cache-control'), 'no-store');
  assert.match(page.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
  const fields = consentFields(await page.text())!;
  const forged = await fetch(new URL('/oauth/authorize', base()), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: owner.cookie },
    body: new URLSearchParams({ ...fields, csrf: 'forged', decision: 'allow' }),
  });
  assert.equal(forged.status, 403, "a post without the session's CSRF token is refused");
  const denied = await fetch(new URL('/oauth/authorize', base()), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: owner.cookie },
    body: new URLSearchParams({ ...fields, decision: 'deny' }),
  });
  const deniedAt = new URL(denied.headers.get('location')!);
  assert.equal(deniedAt.searchParams.get('error'), 'access_denied');
  assert.equal(deniedAt.searchParams.get('state'), 'xyz');
  const replay = await fetch(new URL('/oauth/authorize', base()), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: owner.cookie },
    body: new URLSearchParams({ ...fields, decision: 'allow' }),
  });
  assert.equal(replay.status, 400, 'a request is answered once');
});

test('codes are bound to the PKCE verifier and used once', async () => {
  const clientId = await registeredClient('PKCE');
  const url = authorizeUrl({
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    code_challenge: s256Challenge(VERIFIER),
    code_challenge_method: 'S256',
    scope: 'read',
  });
  const code = (await consent(url)).searchParams.get('code')!;
  const exchange = (verifier: string) =>
    form('/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
  const wrong = await exchange('w'.repeat(64));
  assert.equal(((await wrong.json()) as { error: string }).error, 'invalid_grant');
  const ok = await exchange(VERIFIER);
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get('cache-control'), 'no-store');
  const tokens = (await ok.json()) as { access_token: string; token_type: string; expires_in: number; scope: string };
  assert.equal(tokens.token_type, 'Bearer');
  assert.equal(tokens.scope, 'read');
  assert.equal(tokens.expires_in, 30 * 24 * 3600);
  const reused = await exchange(VERIFIER);
  assert.equal(((await reused.json()) as { error: string }).error, 'invalid_grant');
  const unsupported = await form('/oauth/token', { grant_type: 'password', username: 'a' });
  assert.equal(((await unsupported.json()) as { error: string }).error, 'unsupported_grant_type');
  const json = await raw(t, { path: '/oauth/token', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.equal(((await json.json()) as { error: string }).error, 'invalid_request');
});

test('the admin API lists clients without tokens, revokes a client, and regenerates the static token', async () => {
  const { client, provider } = await oauthConnect('read', 'Listed client');
  const tokens = provider.saved!;
  const list = await raw(t, { path: '/admin/api/clients', headers: adminAuth() });
  assert.equal(list.status, 200);
  const text = await list.text();
  assert.ok(!text.includes(tokens.access_token) && !text.includes(tokens.refresh_token!), 'never a token');
  const clients = (JSON.parse(text) as { clients: { client_id: string; client_name: string; grants: { scope: string }[] }[] }).clients;
  const mine = clients.find((c) => c.client_id === provider.info!.client_id)!;
  assert.equal(mine.client_name, 'Listed client');
  assert.deepEqual(
    mine.grants.map((g) => g.scope),
    ['read'],
  );

  const noAdmin = await raw(t, {
    path: `/admin/api/clients/${mine.client_id}/revoke`,
    method: 'POST',
    headers: bearer(tokens.access_token),
  });
  assert.equal(noAdmin.status, 403);
  const pending = await raw(t, { path: '/admin/api/pending', headers: bearer(tokens.access_token) });
  assert.equal(pending.status, 403, 'held writes need server:admin too');
  const revoked = await raw(t, { path: `/admin/api/clients/${mine.client_id}/revoke`, method: 'POST', headers: adminAuth() });
  assert.equal(revoked.status, 200);
  assert.equal(((await revoked.json()) as { revoked: boolean }).revoked, true);
  assert.equal((await mcpStatus(tokens.access_token)).status, 401);
  const refresh = await form('/oauth/token', {
    grant_type: 'refresh_token',
    refresh_token: tokens.refresh_token!,
    client_id: mine.client_id,
  });
  assert.equal(refresh.status, 400);
  assert.equal((await raw(t, { path: '/admin/api/clients/nobody/revoke', method: 'POST', headers: adminAuth() })).status, 404);
  await client.close().catch(() => undefined);

  const byBearer = await raw(t, { path: '/admin/api/token/regenerate', method: 'POST', headers: adminAuth() });
  assert.equal(byBearer.status, 403, 'a bearer token never mints a static token');
  const owner = await ownerLogin(t);
  const regen = await raw(t, {
    path: '/admin/api/token/regenerate',
    method: 'POST',
    headers: { cookie: owner.cookie, 'x-athene-csrf': owner.csrf },
  });
  assert.equal(regen.status, 200);
  assert.equal(regen.headers.get('cache-control'), 'no-store');
  const fresh = ((await regen.json()) as { token: string }).token;
  assert.notEqual(fresh, t.token);
  assert.equal((await raw(t, { path: '/health', headers: adminAuth() })).status, 401, 'the old static token stops working at once');
  assert.equal((await raw(t, { path: '/health', headers: bearer(fresh) })).status, 200);
  t.token = fresh;
});

const run = promisify(execFile);

/** A network namespace joined to this one by a veth pair: a second machine as far as the server can tell. */
async function remoteHost(): Promise<{ hostAddress: string; exec(args: string[]): Promise<string>; remove(): Promise<void> }> {
  const id = randomBytes(3).toString('hex');
  const ns = `athene-${id}`;
  const [here, there] = [`ath${id}a`, `ath${id}b`];
  const net = `10.${randomInt(200, 255)}.${randomInt(0, 256)}`;
  const ip = (...args: string[]) => run('ip', args);
  const remove = async () => {
    await ip('link', 'del', here).catch(() => undefined);
    await ip('netns', 'del', ns).catch(() => undefined);
  };
  try {
    await ip('netns', 'add', ns);
    await ip('link', 'add', here, 'type', 'veth', 'peer', 'name', there);
    await ip('link', 'set', there, 'netns', ns);
    await ip('addr', 'add', `${net}.1/30`, 'dev', here);
    await ip('link', 'set', here, 'up');
    await ip('netns', 'exec', ns, 'ip', 'addr', 'add', `${net}.2/30`, 'dev', there);
    await ip('netns', 'exec', ns, 'ip', 'link', 'set', there, 'up');
  } catch (err) {
    await remove();
    throw err;
  }
  return {
    hostAddress: `${net}.1`,
    exec: async (args) => (await run('ip', ['netns', 'exec', ns, ...args])).stdout,
    remove,
  };
}

/** Status and body of a request made from inside the namespace, by a node process living there. */
const REMOTE_FETCH = `const [url, method, body] = process.argv.slice(1);
fetch(url, { method, redirect: 'manual', headers: body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}, body: body || undefined })
  .then(async (r) => console.log(JSON.stringify({ status: r.status, body: await r.text() })));`;

test('a consent request from another machine gets 403 pointing at the static token (network namespace)', async (ctx) => {
  if (process.getuid?.() !== 0) return ctx.skip('needs root to create a network namespace');
  let remote;
  try {
    remote = await remoteHost();
  } catch (err) {
    return ctx.skip(`no network namespace: ${(err as Error).message.split('\n')[0]}`);
  }
  const open = await startTestServer([fixture('zoo.ttl')], { bind_address: '0.0.0.0' });
  try {
    const port = open.server.port;
    const reg = await fetch(`http://127.0.0.1:${port}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Remote', redirect_uris: [REDIRECT] }),
    });
    const clientId = ((await reg.json()) as { client_id: string }).client_id;
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      code_challenge: s256Challenge(VERIFIER),
      code_challenge_method: 'S256',
    });
    const owner = await ownerLogin(open);
    const local = await fetch(`http://127.0.0.1:${port}/oauth/authorize?${query}`, { headers: { cookie: owner.cookie } });
    assert.equal(local.status, 200, 'the same request from this machine reaches the consent page');
    const { csrf } = consentFields(await local.text())!;

    const ask = async (method: string, path: string, body = '') =>
      JSON.parse(
        await remote.exec([process.execPath, '-e', REMOTE_FETCH, `http://${remote.hostAddress}:${port}${path}`, method, body]),
      ) as { status: number; body: string };
    const page = await ask('GET', `/oauth/authorize?${query}`);
    assert.equal(page.status, 403);
    assert.match(page.body, /athene token/);
    assert.ok(!page.body.includes('name="csrf"'));
    const post = await ask('POST', '/oauth/authorize', new URLSearchParams({ csrf, decision: 'allow' }).toString());
    assert.equal(post.status, 403, 'a remote peer cannot answer a consent page either');
    const login = new URL(open.server.ownerLoginUrl());
    const remoteLogin = await ask('GET', `${login.pathname}${login.search}`);
    assert.equal(remoteLogin.status, 403, 'the owner login works only on this machine, even with a valid link');
    assert.match(remoteLogin.body, /on the machine this server runs on/);
    assert.equal((await fetch(login, { redirect: 'manual' })).status, 303, 'the refused link was not spent');
    const meta = await ask('GET', '/.well-known/oauth-authorization-server');
    assert.equal(meta.status, 200, 'discovery stays open to remote clients');
  } finally {
    await open.stop();
    await remote.remove();
  }
});
