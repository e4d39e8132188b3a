// Test and bench support for the OAuth authority: a private temporary home, and a client taken through
// registration, consent (code issue) and PKCE code exchange.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Authority, IssuedTokens, OAuthError } from '../../src/auth/oauth/authority.js';
import { CAPABILITIES } from '../../src/auth/principal.js';
import { s256Challenge } from '../../src/auth/oauth/pkce.js';

export const REDIRECT = 'http://127.0.0.1:33418/callback';
export const VERIFIER = 'athene-test-verifier-0123456789-abcdefghijklmnop';

export async function tempHome(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'athene-auth-'));
}

export async function removeHome(home: string): Promise<void> {
  await rm(home, { recursive: true, force: true });
}

export function isTokens(value: IssuedTokens | OAuthError): value is IssuedTokens {
  return 'access_token' in value;
}

export function tokensOf(value: IssuedTokens | OAuthError): IssuedTokens {
  if (!isTokens(value)) throw new Error(`expected tokens, got ${value.error}: ${value.error_description}`);
  return value;
}

export interface AuthorizedClient {
  readonly clientId: string;
  readonly tokens: IssuedTokens;
}

export async function registerClient(authority: Authority, name = 'Agent'): Promise<string> {
  const registration = await authority.register({
    client_name: name,
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  });
  return registration.client_id;
}

/** One more grant for a registered client: consent, then the code exchanged with its PKCE verifier. */
export async function authorize(
  authority: Authority,
  clientId: string,
  scope = 'mcp',
  capabilities: readonly string[] = CAPABILITIES,
): Promise<IssuedTokens> {
  const code = await authority.issueCode({
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: s256Challenge(VERIFIER),
    scope,
    capabilities,
  });
  return tokensOf(await authority.exchangeCode({ client_id: clientId, code, redirect_uri: REDIRECT, code_verifier: VERIFIER }));
}

export async function authorizeClient(authority: Authority, name = 'Agent'): Promise<AuthorizedClient> {
  const clientId = await registerClient(authority, name);
  return { clientId, tokens: await authorize(authority, clientId) };
}
