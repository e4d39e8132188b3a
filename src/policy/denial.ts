// The one failure shape of every authorization refusal (TOOLS.md 1.2): `authorization_denied` (or
// `network_denied` for the network rules) with the missing capabilities and `effects_prevented: true`, so a
// client can tell a refusal that changed nothing from a failure part-way through.

import { missingCapabilities, type Capability } from '../auth/principal.js';
import { DomainError, type ErrorCode } from '../util/errors.js';
import type { JsonObject } from '../util/json-object.js';
import type { CallContext } from '../window/call-context.js';

export function denied(
  message: string,
  missing: readonly string[],
  context: JsonObject = {},
  code: ErrorCode = 'authorization_denied',
): DomainError {
  return new DomainError(message, code, { missing_capabilities: [...missing], effects_prevented: true, ...context });
}

/** Throws the refusal when the caller lacks a conditional capability. */
export function requireCapabilities(ctx: CallContext, tool: string, required: readonly Capability[], why: string): void {
  const missing = missingCapabilities(ctx.principal, required);
  if (missing.length === 0) return;
  throw denied(`${tool} requires capabilities the caller lacks to ${why}: ${missing.join(', ')}`, missing);
}
