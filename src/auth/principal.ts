// The authenticated principal: who makes a request and what it may do. The front door resolves every
// accepted bearer token to one and forwards it with the request; tools see only this, never the token.

export const CAPABILITIES = [
  'ontology:read',
  'ontology:curate',
  'ontology:admin',
  'ontology:release',
  'filesystem:project:read',
  'filesystem:project:write',
  'filesystem:external',
  'external-terms:read',
  'network:access',
  'server:admin',
] as const;

export type Capability = (typeof CAPABILITIES)[number];

/** Bumped whenever the principal's shape changes, so a window can refuse one it does not understand. */
export const PRINCIPAL_VERSION = 1;

export interface Principal {
  readonly version: number;
  readonly type: 'static' | 'oauth';
  readonly client_id: string;
  readonly display_name: string;
  /** The OAuth grant the token belongs to; null for the static token. */
  readonly grant_id: string | null;
  readonly capabilities: readonly string[];
  /** The OAuth scope as granted (space-separated); absent for the static token. */
  readonly scope?: string;
  /** True when a broker older than principal forwarding served the request: the local-admin profile was assumed. */
  readonly legacy_profile?: boolean;
}

/** The local-admin profile carried by the static bearer token: all ten capabilities. */
export function staticPrincipal(): Principal {
  return {
    version: PRINCIPAL_VERSION,
    type: 'static',
    client_id: 'static-token',
    display_name: 'Static bearer token (local admin)',
    grant_id: null,
    capabilities: [...CAPABILITIES],
  };
}

/** The local-admin profile: every capability (the static token, an OAuth grant of scope `mcp`). */
export function isLocalAdminProfile(principal: Principal): boolean {
  return missingCapabilities(principal, CAPABILITIES).length === 0;
}

/** The capabilities of `required` the principal lacks, in the order given. */
export function missingCapabilities(principal: Principal, required: readonly string[]): string[] {
  // a tool requires one or two of the dozen or so held: a scan costs less than a set made per call
  const held = principal.capabilities;
  return required.filter((c) => !held.includes(c));
}

/** Narrows a structured-cloned value back to a Principal; null when it is not one of this version. */
export function asPrincipal(value: unknown): Principal | null {
  if (typeof value !== 'object' || value === null) return null;
  const p = value as Partial<Principal>;
  if (p.version !== PRINCIPAL_VERSION || (p.type !== 'static' && p.type !== 'oauth')) return null;
  if (typeof p.client_id !== 'string' || typeof p.display_name !== 'string' || !Array.isArray(p.capabilities)) return null;
  return p as Principal;
}
