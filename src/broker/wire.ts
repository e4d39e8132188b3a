// The broker protocol between the front door that owns the shared port and the backends of other athene
// processes: header names, the protocol version, and the principal's header encoding. Registration bodies
// are in registration.ts.

import { asPrincipal, type Principal } from '../auth/principal.js';

/**
 * Version 1 forwarded no principal (INTERFACE.md 9: such requests get the legacy local-admin profile);
 * version 2 forwards the versioned principal with every request.
 */
export const BROKER_PROTOCOL = 2;
export const FIRST_PRINCIPAL_PROTOCOL = 2;

export const SECRET_HEADER = 'x-athene-broker-secret';
export const PRINCIPAL_HEADER = 'x-athene-principal';
export const PROTOCOL_HEADER = 'x-athene-broker-protocol';

/** A registered process sends a heartbeat this often; the broker marks it stale after STALE_AFTER_MS without one. */
export const HEARTBEAT_MS = 1000;
export const STALE_AFTER_MS = 5000;

/** Header-safe form of a principal: base64url of its JSON (display names may hold any character). */
export function encodePrincipal(p: Principal): string {
  return Buffer.from(JSON.stringify(p), 'utf8').toString('base64url');
}

/** The principal of a header value; null when absent, malformed, or of another principal version. */
export function decodePrincipal(value: string | undefined): Principal | null {
  if (value === undefined || value === '') return null;
  try {
    return asPrincipal(JSON.parse(Buffer.from(value, 'base64url').toString('utf8')));
  } catch {
    return null;
  }
}

/** The protocol a request claims; a request without the header comes from a version-1 broker. */
export function protocolOf(value: string | undefined): number {
  if (value === undefined) return 1;
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** The address to reach a front door bound to `bind` from this machine. */
export function loopbackFor(bind: string): string {
  if (bind === '0.0.0.0') return '127.0.0.1';
  if (bind === '::' || bind === '::1') return '[::1]';
  return bind.includes(':') ? `[${bind}]` : bind;
}
