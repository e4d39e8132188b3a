// RFC 7591 dynamic client registration: validation of the submitted client metadata. Only public clients
// (PKCE, no secret) using the authorization-code flow; redirect URIs are loopback http, https, or a
// private-use scheme (RFC 8252 §7); sizes are bounded. Unknown metadata fields are ignored (RFC 7591 §2).

import * as v from 'valibot';
import type { ClientMetadata } from './authority.js';
import { isScopeError, resolveScope } from './scopes.js';

export const REGISTRATION_BODY_LIMIT = 32 * 1024;
export const MAX_CLIENT_NAME = 200;
export const MAX_REDIRECT_URIS = 10;
export const MAX_REDIRECT_URI_LENGTH = 2000;

const GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;

export interface RegistrationError {
  readonly error: 'invalid_client_metadata' | 'invalid_redirect_uri';
  readonly error_description: string;
}

const MetadataSchema = v.looseObject(
  {
    redirect_uris: v.pipe(
      v.array(v.string('each redirect URI must be a string')),
      v.minLength(1, 'redirect_uris must name at least one URI'),
      v.maxLength(MAX_REDIRECT_URIS, `redirect_uris may name at most ${MAX_REDIRECT_URIS} URIs`),
    ),
    client_name: v.optional(
      v.pipe(
        v.string('client_name must be a string'),
        v.trim(),
        v.maxLength(MAX_CLIENT_NAME, `client_name may be at most ${MAX_CLIENT_NAME} characters`),
      ),
    ),
    token_endpoint_auth_method: v.optional(
      v.literal('none', "token_endpoint_auth_method must be 'none': only public clients (PKCE) can register"),
    ),
    grant_types: v.optional(
      v.pipe(
        v.array(v.picklist(GRANT_TYPES, `grant_types may only hold ${GRANT_TYPES.join(', ')}`)),
        v.includes('authorization_code', 'grant_types must include authorization_code'),
      ),
    ),
    response_types: v.optional(v.array(v.literal('code', "response_types may only hold 'code'"))),
    scope: v.optional(v.string('scope must be a string')),
  },
  'the client metadata must be a JSON object',
);

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);
/** A private-use scheme in reverse-domain form (RFC 8252 §7.1): it must contain a period. */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

/** Why a redirect URI is refused, or null when it is acceptable. */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return `a redirect URI may be at most ${MAX_REDIRECT_URI_LENGTH} characters`;
  if (uri.includes('#')) return `redirect URI '${uri}' must not contain a fragment`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `redirect URI '${uri}' is not an absolute URI`;
  }
  if (url.username !== '' || url.password !== '') return `redirect URI '${uri}' must not carry credentials`;
  if (url.protocol === 'https:') return url.hostname === '' ? `redirect URI '${uri}' has no host` : null;
  if (url.protocol === 'http:') {
    return LOOPBACK_HOSTS.has(url.hostname)
      ? null
      : `redirect URI '${uri}' uses plain http on a host other than the loopback (127.0.0.1, [::1], localhost)`;
  }
  if (PRIVATE_USE_SCHEME.test(url.protocol)) return null;
  return `redirect URI '${uri}' must be loopback http, https, or a private-use scheme in reverse-domain form (com.example.app:/callback)`;
}

function describe(issue: v.BaseIssue<unknown>): string {
  const where = v.getDotPath(issue);
  return where === null ? issue.message : `${where}: ${issue.message}`;
}

/** Validates a registration request body (already size-checked) into the metadata the authority stores. */
export function validateClientMetadata(body: string): ClientMetadata | RegistrationError {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { error: 'invalid_client_metadata', error_description: 'the registration body is not valid JSON' };
  }
  const parsed = v.safeParse(MetadataSchema, json);
  if (!parsed.success) return { error: 'invalid_client_metadata', error_description: parsed.issues.map(describe).join('; ') };
  const m = parsed.output;
  for (const uri of m.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem !== null) return { error: 'invalid_redirect_uri', error_description: problem };
  }
  if (m.scope !== undefined) {
    const granted = resolveScope(m.scope);
    if (isScopeError(granted)) return { error: 'invalid_client_metadata', error_description: granted.error_description };
  }
  const name = m.client_name === undefined || m.client_name === '' ? 'Unnamed client' : m.client_name;
  return {
    client_name: name,
    redirect_uris: [...new Set(m.redirect_uris)],
    grant_types: m.grant_types === undefined ? [...GRANT_TYPES] : [...new Set(m.grant_types)],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...(m.scope !== undefined ? { scope: m.scope } : {}),
  };
}

export function isRegistrationError(value: ClientMetadata | RegistrationError): value is RegistrationError {
  return 'error' in value;
}

/**
 * Whether a requested redirect URI is one the client registered: exactly, or, for an http loopback URI,
 * equal in everything but the port (RFC 8252 §7.3: native apps bind an ephemeral port at request time).
 */
export function redirectMatches(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  let want: URL;
  try {
    want = new URL(requested);
  } catch {
    return false;
  }
  if (want.protocol !== 'http:' || !LOOPBACK_HOSTS.has(want.hostname)) return false;
  return registered.some((r) => {
    const have = URL.canParse(r) ? new URL(r) : null;
    if (have === null || have.protocol !== 'http:' || have.hostname !== want.hostname) return false;
    return (
      have.pathname === want.pathname && have.search === want.search && have.username === want.username && have.password === want.password
    );
  });
}
