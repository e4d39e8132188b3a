// Discovery documents: RFC 9728 protected-resource metadata (what a client fetches after a 401) and
// RFC 8414 authorization-server metadata. The front door is both the resource and its authorization
// server, so every URL is built from one base: the server's own origin as the client reached it.

import { SCOPES_SUPPORTED } from './scopes.js';

export const OAUTH_PATHS = {
  protectedResource: '/.well-known/oauth-protected-resource',
  authorizationServer: '/.well-known/oauth-authorization-server',
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
} as const;

/** The MCP endpoint's own protected-resource document (RFC 9728 §3.1 inserts the well-known segment). */
export const MCP_RESOURCE_METADATA_PATH = `${OAUTH_PATHS.protectedResource}/mcp`;

/**
 * The origin a request reached the server at: its Host header (already vetted against DNS rebinding),
 * or the bound address and port when the client sent none.
 */
export function baseUrl(host: string, bind: string, port: number): string {
  if (host !== '') return `http://${host.toLowerCase()}`;
  return `http://${bind.includes(':') ? `[${bind}]` : bind}:${port}`;
}

/** The `WWW-Authenticate` value of a 401: where the client discovers how to obtain a token. */
export function bearerChallenge(base: string, tokenPresented: boolean): string {
  return `Bearer resource_metadata="${base}${OAUTH_PATHS.protectedResource}"` + (tokenPresented ? ', error="invalid_token"' : '');
}

/**
 * RFC 9728 metadata for `resource` (the whole origin, or `<base>/mcp`). `scopes_supported` is left out
 * on purpose: the MCP SDK would otherwise request every listed scope instead of the one its user chose.
 */
export function protectedResourceMetadata(base: string, resourcePath: '' | '/mcp') {
  return {
    resource: base + resourcePath,
    authorization_servers: [base],
    bearer_methods_supported: ['header'],
    resource_name: 'Athene MCP server',
  };
}

/** RFC 8414 metadata; the issuer is the base URL itself. */
export function authorizationServerMetadata(base: string) {
  return {
    issuer: base,
    authorization_endpoint: base + OAUTH_PATHS.authorize,
    token_endpoint: base + OAUTH_PATHS.token,
    registration_endpoint: base + OAUTH_PATHS.register,
    revocation_endpoint: base + OAUTH_PATHS.revoke,
    scopes_supported: [...SCOPES_SUPPORTED],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
  };
}
