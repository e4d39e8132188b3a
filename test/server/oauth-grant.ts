// An OAuth grant obtained straight from the server's authority (register, approved code, PKCE exchange),
// for tests about what happens to its tokens, sessions and calls; the consent page is tested elsewhere.

import { randomBytes } from 'node:crypto';
import { s256Challenge } from '../../src/auth/oauth/pkce.js';
import { resolveScope, isScopeError } from '../../src/auth/oauth/scopes.js';
import type { TestServer } from './support.js';

export interface Grant {
  readonly clientId: string;
  readonly accessToken: string;
  readonly refreshToken: string;
}

const REDIRECT = 'http://127.0.0.1:9/callback';

export async function registerClient(t: TestServer, name: string): Promise<string> {
  const reg = await t.server.authority.register({
    client_name: name,
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  });
  return reg.client_id;
}

/** A new grant of `clientId` (a fresh authorization of the client) with `scope`. */
export async function authorize(t: TestServer, clientId: string, scope = 'mcp'): Promise<Grant> {
  const granted = resolveScope(scope);
  if (isScopeError(granted)) throw new Error(granted.error_description);
  const verifier = randomBytes(32).toString('base64url');
  const code = await t.server.authority.issueCode({
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: s256Challenge(verifier),
    scope: granted.scope,
    capabilities: granted.capabilities,
  });
  const tokens = await t.server.authority.exchangeCode({ client_id: clientId, code, redirect_uri: REDIRECT, code_verifier: verifier });
  if ('error' in tokens) throw new Error(`${tokens.error}: ${tokens.error_description}`);
  return { clientId, accessToken: tokens.access_token, refreshToken: tokens.refresh_token };
}
