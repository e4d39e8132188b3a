// What the gate records of one tool call once its outcome is known (TOOLS.md 1.2: every call, allowed or
// denied). Only facts the envelope allows are taken from the result: its error code, a change-set id and a
// policy digest; nothing else of the result or the arguments' values leaves here.

import { localDocumentOf } from '../policy/paths.js';
import type { JsonObject } from '../util/json-object.js';
import type { CallContext } from '../window/call-context.js';
import type { Ontology } from '../model/ontology.js';
import type { AuditEvent } from './event.js';
import { auditRecorder } from './stream.js';

/** How the gate decided, filled in as the call passes it. */
export interface GateTrace {
  mutating: boolean;
  confirmation: AuditEvent['gate']['confirmation'];
}

export const newGateTrace = (): GateTrace => ({ mutating: false, confirmation: 'not_required' });

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * The failures that are refusals of the call, by the gate or by a policy the handler applies (a path
 * outside the project root, a network rule): the audit outcome `denied`. Every other outcome, a mistyped
 * argument included, is an `allowed` call that succeeded or failed with its error code.
 */
const DENIALS: ReadonlySet<string> = new Set([
  'authorization_denied',
  'network_denied',
  'read_only',
  'write_declined',
  'authorization_revoked',
]);

/** The active document; a `file:` IRI that names no local path (another host) audits as none rather than failing the call. */
function documentOf(o: Ontology): string | null {
  try {
    return localDocumentOf(o);
  } catch {
    return null;
  }
}

/** Queues the call's audit event when the window has a private directory; never throws. */
export function auditCall(
  operation: string,
  declaredArguments: ReadonlySet<string>,
  rawArgs: unknown,
  ctx: CallContext,
  body: JsonObject,
  isError: boolean,
  trace: GateTrace,
): void {
  const home = ctx.settings.audit_home;
  if (home === undefined) return;
  const ws = ctx.workspace;
  const active = ws.hasActive ? ws.active : null;
  const errorCode = isError ? (typeof body.error_code === 'string' ? body.error_code : 'error') : undefined;
  auditRecorder(home).record({
    workspaceId: ws.id,
    windowId: ctx.windowId,
    principal: ctx.principal,
    operation,
    ontologyIri: active?.id.iri ?? null,
    document: active === null ? null : documentOf(active),
    rawArgs,
    declaredArguments,
    outcome: {
      status: errorCode !== undefined && DENIALS.has(errorCode) ? 'denied' : 'allowed',
      ...(errorCode === undefined ? {} : { error_code: errorCode }),
    },
    gate: { mutating: trace.mutating, confirmation: trace.confirmation },
    ...(typeof body.change_set_id === 'string' ? { changeSetId: body.change_set_id } : {}),
    ...(typeof body.policy_digest === 'string' && DIGEST.test(body.policy_digest) ? { policyDigest: body.policy_digest } : {}),
  });
}
