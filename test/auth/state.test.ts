// The OAuth state machine, driven with an injected clock: code issue and exchange (PKCE, redirect, client,
// single use, 10-minute life), 30-day access tokens, refresh rotation and reuse detection, revocation, and
// the cleanup rules of INTERFACE.md 5.2.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ACCESS_TOKEN_TTL_MS,
  CODE_TTL_MS,
  SILENT_CLIENT_TTL_MS,
  UNFINISHED_REGISTRATION_TTL_MS,
  applyRevocation,
  emptyState,
  exchangeCode,
  hashToken,
  isOAuthError,
  issueCode,
  mintGrant,
  mintIdentifier,
  mintToken,
  mintTokens,
  refresh,
  register,
  revokeClient,
  revokeToken,
  sweep,
  touch,
  type OAuthState,
} from '../../src/auth/oauth/state.js';
import { s256Challenge, verifyS256 } from '../../src/auth/oauth/pkce.js';
import type { ClientMetadata, IssuedTokens, OAuthError } from '../../src/auth/oauth/authority.js';

const T0 = Date.UTC(2026, 0, 1);
const REDIRECT = 'http://127.0.0.1:33418/callback';
const VERIFIER = 'v'.repeat(20) + '-._~' + 'A1'.repeat(10);

function metadata(name = 'Agent'): ClientMetadata {
  return {
    client_name: name,
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}

function tokens(value: IssuedTokens | OAuthError): IssuedTokens {
  assert.ok(!isOAuthError(value), `expected tokens, got ${JSON.stringify(value)}`);
  return value;
}

function oauthError(value: IssuedTokens | OAuthError | true, error: string): OAuthError {
  assert.ok(isOAuthError(value), `expected ${error}, got ${JSON.stringify(value)}`);
  assert.equal(value.error, error);
  return value;
}

interface Registered {
  state: OAuthState;
  clientId: string;
}

function registered(state: OAuthState, now: number, name = 'Agent'): Registered {
  const clientId = mintToken();
  return { state: register(state, metadata(name), now, clientId).state, clientId };
}

function withCode(
  state: OAuthState,
  clientId: string,
  now: number,
  scope = 'mcp',
  capabilities = ['ontology:read'],
): { state: OAuthState; code: string } {
  const code = mintToken();
  const t = issueCode(
    state,
    { client_id: clientId, redirect_uri: REDIRECT, code_challenge: s256Challenge(VERIFIER), scope, capabilities },
    now,
    code,
  );
  assert.equal(t.outcome, true);
  return { state: t.state, code };
}

/** A registered client with one grant, at T0. */
function authorized(name = 'Agent'): { state: OAuthState; clientId: string; issued: IssuedTokens } {
  const r = registered(emptyState(), T0, name);
  const c = withCode(r.state, r.clientId, T0);
  const t = exchangeCode(
    c.state,
    { client_id: r.clientId, code: c.code, redirect_uri: REDIRECT, code_verifier: VERIFIER },
    T0,
    mintGrant(),
  );
  return { state: t.state, clientId: r.clientId, issued: tokens(t.outcome) };
}

function grantOfAccess(state: OAuthState, accessToken: string): string | undefined {
  return state.accessIndex.get(hashToken(accessToken));
}

test('PKCE S256: the verifier must hash to the challenge and be 43-128 characters of the RFC 7636 set', () => {
  const challenge = s256Challenge(VERIFIER);
  assert.equal(verifyS256(VERIFIER, challenge), true);
  assert.equal(verifyS256(VERIFIER + 'x', challenge), false);
  assert.equal(verifyS256('a'.repeat(42), s256Challenge('a'.repeat(42))), false);
  assert.equal(verifyS256('a'.repeat(129), s256Challenge('a'.repeat(129))), false);
  assert.equal(verifyS256('a'.repeat(42) + '!', s256Challenge('a'.repeat(42) + '!')), false);
  // RFC 7636 appendix B
  assert.equal(s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'), 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
});

test('registration stores the metadata and no secret; a code exchange yields a grant stored only as hashes', () => {
  const { state, clientId, issued } = authorized();
  assert.equal(state.clients.get(clientId)?.client_name, 'Agent');
  assert.equal(state.clients.get(clientId)?.authorized_at, T0);
  assert.equal(issued.token_type, 'Bearer');
  assert.equal(issued.expires_in, 30 * 24 * 3600);
  assert.equal(Buffer.from(issued.access_token, 'base64url').length, 32);
  const stored = JSON.stringify([...state.grants.values(), ...state.codes.values()]);
  assert.ok(!stored.includes(issued.access_token) && !stored.includes(issued.refresh_token));
  const grantId = grantOfAccess(state, issued.access_token)!;
  assert.equal(state.grants.get(grantId)?.access_expires_at, T0 + ACCESS_TOKEN_TTL_MS);
  assert.deepEqual(state.grants.get(grantId)?.capabilities, ['ontology:read']);
});

test('a code is refused for a PKCE mismatch, another redirect URI, another client, and once expired', () => {
  const r = registered(emptyState(), T0);
  const other = registered(r.state, T0, 'Other');
  const c = withCode(other.state, r.clientId, T0);
  const input = { client_id: r.clientId, code: c.code, redirect_uri: REDIRECT, code_verifier: VERIFIER };
  const pkce = exchangeCode(c.state, { ...input, code_verifier: VERIFIER.replace('v', 'w') }, T0, mintGrant());
  assert.match(oauthError(pkce.outcome, 'invalid_grant').error_description, /PKCE/);
  assert.equal(pkce.state, c.state);
  oauthError(exchangeCode(c.state, { ...input, redirect_uri: 'http://127.0.0.1:33418/other' }, T0, mintGrant()).outcome, 'invalid_grant');
  oauthError(exchangeCode(c.state, { ...input, client_id: other.clientId }, T0, mintGrant()).outcome, 'invalid_grant');
  oauthError(exchangeCode(c.state, input, T0 + CODE_TTL_MS, mintGrant()).outcome, 'invalid_grant');
  tokens(exchangeCode(c.state, input, T0 + CODE_TTL_MS - 1, mintGrant()).outcome);
});

test('a code is single use: its reuse fails and revokes the grant it produced', () => {
  const r = registered(emptyState(), T0);
  const c = withCode(r.state, r.clientId, T0);
  const input = { client_id: r.clientId, code: c.code, redirect_uri: REDIRECT, code_verifier: VERIFIER };
  const first = exchangeCode(c.state, input, T0, mintGrant());
  const issued = tokens(first.outcome);
  const again = exchangeCode(first.state, input, T0 + 1000, mintGrant());
  oauthError(again.outcome, 'invalid_grant');
  assert.equal(again.revocation?.kind, 'grant-reuse');
  assert.equal(grantOfAccess(again.state, issued.access_token), undefined);
  assert.equal(again.state.grants.size, 0);
});

test('issuing a code checks the client, its registered redirect URI and the challenge form', () => {
  const r = registered(emptyState(), T0);
  const request = {
    client_id: r.clientId,
    redirect_uri: REDIRECT,
    code_challenge: s256Challenge(VERIFIER),
    scope: 'mcp',
    capabilities: [],
  };
  oauthError(issueCode(r.state, { ...request, client_id: 'nobody' }, T0, mintToken()).outcome, 'invalid_client');
  oauthError(issueCode(r.state, { ...request, redirect_uri: 'http://127.0.0.1:1/x' }, T0, mintToken()).outcome, 'invalid_request');
  oauthError(issueCode(r.state, { ...request, code_challenge: 'plain' }, T0, mintToken()).outcome, 'invalid_request');
});

test('refresh rotates both tokens; the access token lives 30 days from its issue', () => {
  const { state, clientId, issued } = authorized();
  const later = T0 + 10 * 24 * 3600_000;
  const t = refresh(state, { client_id: clientId, refresh_token: issued.refresh_token }, later, mintTokens());
  const next = tokens(t.outcome);
  assert.notEqual(next.refresh_token, issued.refresh_token);
  assert.equal(grantOfAccess(t.state, issued.access_token), undefined, 'the old access token is retired');
  const grantId = grantOfAccess(t.state, next.access_token)!;
  assert.equal(t.state.grants.get(grantId)?.access_expires_at, later + ACCESS_TOKEN_TTL_MS);
  assert.equal(t.state.clients.get(clientId)?.last_seen, later);
});

test('reusing a rotated refresh token revokes the whole grant, and the current one stops working', () => {
  const { state, clientId, issued } = authorized();
  const first = refresh(state, { client_id: clientId, refresh_token: issued.refresh_token }, T0 + 1, mintTokens());
  const current = tokens(first.outcome);
  const reuse = refresh(first.state, { client_id: clientId, refresh_token: issued.refresh_token }, T0 + 2, mintTokens());
  oauthError(reuse.outcome, 'invalid_grant');
  assert.equal(reuse.revocation?.kind, 'grant-reuse');
  assert.equal(reuse.state.grants.size, 0);
  assert.equal(grantOfAccess(reuse.state, current.access_token), undefined);
  oauthError(
    refresh(reuse.state, { client_id: clientId, refresh_token: current.refresh_token }, T0 + 3, mintTokens()).outcome,
    'invalid_grant',
  );
});

test('refresh is bound to the client and to the grant scope', () => {
  const { state, clientId, issued } = authorized();
  const other = registered(state, T0, 'Other');
  oauthError(
    refresh(other.state, { client_id: other.clientId, refresh_token: issued.refresh_token }, T0, mintTokens()).outcome,
    'invalid_grant',
  );
  oauthError(
    refresh(state, { client_id: clientId, refresh_token: issued.refresh_token, scope: 'ontology:curate' }, T0, mintTokens()).outcome,
    'invalid_scope',
  );
  oauthError(
    refresh(state, { client_id: clientId, refresh_token: issued.refresh_token, scope: 'bogus' }, T0, mintTokens()).outcome,
    'invalid_scope',
  );
  tokens(refresh(state, { client_id: clientId, refresh_token: issued.refresh_token, scope: 'read' }, T0, mintTokens()).outcome);
});

test('revoking by access or refresh token removes the grant; a refresh after it can never recreate it', () => {
  const { state, clientId, issued } = authorized();
  for (const token of [issued.access_token, issued.refresh_token]) {
    const t = revokeToken(state, token, clientId, T0);
    assert.equal(t.revocation?.kind, 'revoke-grant');
    assert.equal(t.outcome.grant_ids.length, 1);
    assert.equal(t.state.grants.size, 0);
    oauthError(
      refresh(t.state, { client_id: clientId, refresh_token: issued.refresh_token }, T0 + 1, mintTokens()).outcome,
      'invalid_grant',
    );
  }
  const unknown = revokeToken(state, mintToken(), undefined, T0);
  assert.deepEqual(unknown.outcome, { client_id: null, grant_ids: [] });
  assert.equal(unknown.revocation, undefined);
  const foreign = revokeToken(state, issued.access_token, 'someone-else', T0);
  assert.equal(foreign.state.grants.size, 1, "another client's token is not revoked");
});

test('revoking a client removes its grants and pending codes, keeps its registration, and replays idempotently', () => {
  const { state, clientId, issued } = authorized();
  const pending = withCode(state, clientId, T0 + 5);
  const t = revokeClient(pending.state, clientId, T0 + 10);
  assert.equal(t.revocation?.kind, 'revoke-client');
  assert.equal(t.state.grants.size, 0);
  assert.ok(t.state.clients.has(clientId));
  const exchange = exchangeCode(
    t.state,
    { client_id: clientId, code: pending.code, redirect_uri: REDIRECT, code_verifier: VERIFIER },
    T0 + 11,
    mintGrant(),
  );
  oauthError(exchange.outcome, 'invalid_grant');
  const replayed = applyRevocation(t.state, t.revocation!);
  assert.equal(replayed.state.grants.size, 0);
  assert.equal(replayed.changes.grants.size, 0);
  assert.equal(grantOfAccess(replayed.state, issued.access_token), undefined);
});

test('a replayed client revocation spares a grant created after it', () => {
  const { state, clientId } = authorized();
  const t = revokeClient(state, clientId, T0 + 10);
  const c = withCode(t.state, clientId, T0 + 20);
  const again = exchangeCode(
    c.state,
    { client_id: clientId, code: c.code, redirect_uri: REDIRECT, code_verifier: VERIFIER },
    T0 + 21,
    mintGrant(),
  );
  tokens(again.outcome);
  assert.equal(applyRevocation(again.state, t.revocation!).state.grants.size, 1);
});

test('cleanup: a registration that never finishes authorizing disappears after one hour', () => {
  const r = registered(emptyState(), T0);
  assert.ok(sweep(r.state, T0 + UNFINISHED_REGISTRATION_TTL_MS - 1).state.clients.has(r.clientId));
  const t = sweep(r.state, T0 + UNFINISHED_REGISTRATION_TTL_MS);
  assert.deepEqual(t.outcome.removed_clients, [r.clientId]);
  assert.equal(t.state.clients.size, 0);
});

test('cleanup: a client silent for 60 days is removed with its tokens; activity resets the clock', () => {
  const { state, clientId, issued } = authorized();
  const day = 24 * 3600_000;
  assert.equal(sweep(state, T0 + SILENT_CLIENT_TTL_MS - 1).state.clients.size, 1);
  const gone = sweep(state, T0 + SILENT_CLIENT_TTL_MS);
  assert.equal(gone.state.clients.size, 0);
  assert.equal(grantOfAccess(gone.state, issued.access_token), undefined);
  assert.equal(gone.outcome.removed_grants.length, 1);
  const seen = touch(state, new Map([[clientId, T0 + 30 * day]])).state;
  assert.equal(sweep(seen, T0 + SILENT_CLIENT_TTL_MS).state.clients.size, 1);
  assert.equal(sweep(seen, T0 + 30 * day + SILENT_CLIENT_TTL_MS).state.clients.size, 0);
  assert.equal(touch(seen, new Map([[clientId, T0]])).state.clients.get(clientId)?.last_seen, T0 + 30 * day, 'last-seen never moves back');
});

test('cleanup: expired codes are dropped by the sweep', () => {
  const r = registered(emptyState(), T0);
  const c = withCode(r.state, r.clientId, T0);
  assert.equal(sweep(c.state, T0 + CODE_TTL_MS - 1).state.codes.size, 1);
  assert.equal(sweep(c.state, T0 + CODE_TTL_MS).state.codes.size, 0);
});

test('cleanup: a client re-registered under the same name drops its older registrations when it completes authorization', () => {
  const old = authorized('Claude');
  const unrelated = registered(old.state, T0 + 1, 'Other');
  const fresh = registered(unrelated.state, T0 + 2, 'Claude');
  const newer = registered(fresh.state, T0 + 3, 'Claude');
  assert.equal(newer.state.clients.size, 4, 'registering alone drops nothing');
  const c = withCode(newer.state, fresh.clientId, T0 + 4);
  const t = exchangeCode(
    c.state,
    { client_id: fresh.clientId, code: c.code, redirect_uri: REDIRECT, code_verifier: VERIFIER },
    T0 + 5,
    mintGrant(),
  );
  tokens(t.outcome);
  assert.deepEqual([...t.state.clients.keys()].sort(), [unrelated.clientId, fresh.clientId, newer.clientId].sort());
  assert.equal(grantOfAccess(t.state, old.issued.access_token), undefined, "the old registration's tokens are gone");
  assert.ok(t.changes.clients.has(old.clientId) && t.changes.grants.size === 2);
});

test('transitions never mutate the state they start from', () => {
  const { state, clientId, issued } = authorized();
  const snapshot = JSON.stringify([
    [...state.clients],
    [...state.grants],
    [...state.codes],
    [...state.accessIndex],
    [...state.refreshIndex],
  ]);
  refresh(state, { client_id: clientId, refresh_token: issued.refresh_token }, T0 + 1, mintTokens());
  revokeClient(state, clientId, T0 + 1);
  sweep(state, T0 + SILENT_CLIENT_TTL_MS);
  assert.equal(
    JSON.stringify([[...state.clients], [...state.grants], [...state.codes], [...state.accessIndex], [...state.refreshIndex]]),
    snapshot,
  );
});

test('client and grant identifiers never start with a dash, so the owner can type them after a CLI verb', () => {
  for (let i = 0; i < 10_000; i++) {
    const id = mintIdentifier();
    assert.match(id, /^[A-Za-z0-9_][A-Za-z0-9_-]{42}$/);
    assert.match(mintGrant().grant_id, /^[^-]/);
  }
});
