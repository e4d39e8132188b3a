// OAuth scopes → capabilities. `mcp` (or no scope at all, as older clients send) is the local-admin
// profile; `read` is an alias of `ontology:read`; every other scope is a capability name. Scopes compose
// literally: the capabilities of a scope string are the union of its tokens', nothing is implied.

import { CAPABILITIES, type Capability } from '../principal.js';

/** The scope of the full local-admin profile, also granted when a client asks for none. */
export const ADMIN_SCOPE = 'mcp';
export const READ_SCOPE = 'read';

/** Every scope this server understands, as authorization-server metadata lists them. */
export const SCOPES_SUPPORTED: readonly string[] = [ADMIN_SCOPE, READ_SCOPE, ...CAPABILITIES];

const CAPABILITY_SET: ReadonlySet<string> = new Set(CAPABILITIES);

export interface GrantedScope {
  /** The scope as granted: the requested tokens, deduplicated, in request order (`mcp` when none). */
  readonly scope: string;
  /** What it composes to, in the canonical order of CAPABILITIES. */
  readonly capabilities: readonly Capability[];
}

export interface ScopeError {
  readonly error: 'invalid_scope';
  readonly error_description: string;
}

function capabilitiesOf(token: string): readonly Capability[] | null {
  if (token === ADMIN_SCOPE) return CAPABILITIES;
  if (token === READ_SCOPE) return ['ontology:read'];
  return CAPABILITY_SET.has(token) ? [token as Capability] : null;
}

/** Resolves a requested scope (undefined, empty, or space-separated tokens) or names the first unknown token. */
export function resolveScope(requested: string | undefined | null): GrantedScope | ScopeError {
  const tokens = [...new Set((requested ?? '').split(' ').filter((t) => t !== ''))];
  if (tokens.length === 0) return { scope: ADMIN_SCOPE, capabilities: CAPABILITIES };
  const held = new Set<Capability>();
  for (const token of tokens) {
    const caps = capabilitiesOf(token);
    if (caps === null) {
      return {
        error: 'invalid_scope',
        error_description: `Unknown scope '${token}'; the supported scopes are: ${SCOPES_SUPPORTED.join(', ')}`,
      };
    }
    for (const c of caps) held.add(c);
  }
  return { scope: tokens.join(' '), capabilities: CAPABILITIES.filter((c) => held.has(c)) };
}

export function isScopeError(value: GrantedScope | ScopeError): value is ScopeError {
  return 'error' in value;
}
