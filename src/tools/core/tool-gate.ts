// The tool gate (TOOLS.md 1.2): arguments → static capabilities → read-only → confirm-each-write → handler.
// Every outcome is one JSON object delivered as structuredContent and mirrored as one text block.

import * as v from 'valibot';
import { missingCapabilities, type Principal } from '../../auth/principal.js';
import type { ApprovalQueue } from '../../window/approvals.js';
import { waitMeasure, type JsonObject, type ToolContext, type ToolDefinition } from './tool.js';
import { DomainError, type ErrorCode } from '../../util/errors.js';
import { rehearsedChanges } from './rehearsal.js';
import { inputJsonSchema } from './tool-listing.js';
import { auditCall, newGateTrace, type GateTrace } from '../../audit/call-audit.js';
import { isCancelled } from '../../window/call-context.js';
import type { ToolResult } from '../../window/tool-host.js';

export function success(body: JsonObject): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, isError: false };
}

/**
 * A result's JSON text as a `CallToolResult`: its text block already is the serialization of its
 * structuredContent (success and failure make every result so), which is reused rather than redone.
 */
export function resultJson(result: ToolResult): string {
  const text = result.content[0]!.text; // a result holds one text item, its structuredContent as JSON
  return `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text},"isError":${result.isError}}`;
}

export function failure(message: string, code?: ErrorCode, context: JsonObject = {}): ToolResult {
  const body: JsonObject = { error: message, ...(code === undefined ? {} : { error_code: code }), ...context };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, isError: true };
}

function describeIssue(issue: v.BaseIssue<unknown>): string {
  const where = v.getDotPath(issue);
  return where === null ? issue.message : `${where}: ${issue.message}`;
}

/** The failure of a call whose principal's authorization was revoked (a commit fence holds it). */
export function revokedFailure(message: string): ToolResult {
  return failure(message, 'authorization_revoked', { effects_prevented: true });
}

/**
 * Runs one call through the gate. Never throws: every failure becomes a tool failure result. `revoked`
 * (the window's commit fence) is asked before the handler and again after a held write was approved.
 * Every call, allowed or denied, is then queued for the project audit stream.
 */
export async function runTool(
  def: ToolDefinition,
  rawArgs: unknown,
  ctx: ToolContext,
  approvals: ApprovalQueue,
  revoked: (principal: Principal) => string | null = () => null,
): Promise<ToolResult> {
  const trace = newGateTrace();
  const result = await gateCall(def, rawArgs, ctx, approvals, revoked, trace);
  auditCall(def.name, declaredArguments(def), rawArgs, ctx, result.structuredContent, result.isError, trace);
  return result;
}

const declaredNames = new WeakMap<ToolDefinition, ReadonlySet<string>>();

/** The argument names a tool's listed schema declares (computed once per tool). */
function declaredArguments(def: ToolDefinition): ReadonlySet<string> {
  let names = declaredNames.get(def);
  if (names === undefined) {
    names = new Set(Object.keys((inputJsonSchema(def).properties ?? {}) as object));
    declaredNames.set(def, names);
  }
  return names;
}

async function gateCall(
  def: ToolDefinition,
  rawArgs: unknown,
  ctx: ToolContext,
  approvals: ApprovalQueue,
  revoked: (principal: Principal) => string | null,
  trace: GateTrace,
): Promise<ToolResult> {
  const refuse = (result: ToolResult) => (def.refusalContext === undefined ? result : withContext(result, def.refusalContext));
  // TOOLS.md 1.2: static capabilities come first, so a caller without them learns nothing about the arguments.
  const missing = missingCapabilities(ctx.principal, def.capabilities);
  if (missing.length > 0) {
    return refuse(
      failure(`${def.name} requires capabilities the caller lacks: ${missing.join(', ')}`, 'authorization_denied', {
        missing_capabilities: missing,
        effects_prevented: true,
      }),
    );
  }
  const parsed = v.safeParse(def.input, rawArgs ?? {});
  if (!parsed.success) {
    return refuse(failure(`Invalid arguments for ${def.name}: ${parsed.issues.map(describeIssue).join('; ')}`, 'invalid_argument'));
  }
  const args = parsed.output;
  const mutating = def.mutating(args);
  trace.mutating = mutating;
  if (mutating && ctx.settings.read_only) {
    return refuse(failure(`${def.name} is refused: the server is in read-only mode`, 'read_only', { effects_prevented: true }));
  }
  const refusal = revoked(ctx.principal);
  if (refusal !== null) return refuse(revokedFailure(refusal));
  if (mutating && ctx.settings.confirm_each_write) {
    const changes = await rehearsedChanges(def, args, ctx);
    ctx.progress?.(
      `${def.name}: waiting for the owner's approval (at most ${ctx.settings.approval_timeout_s} s)`,
      waitMeasure(ctx.settings.approval_timeout_s),
    );
    const approved = await approvals.request(
      {
        session_id: ctx.sessionId,
        tool: def.name,
        client: ctx.principal.display_name,
        summary: def.summary?.(args) ?? `${def.name} ${JSON.stringify(args)}`,
        ...(changes === null ? {} : { changes }),
      },
      ctx.settings.approval_timeout_s * 1000,
      ctx.signal,
    );
    if (isCancelled(ctx)) return refuse(cancelled(def.name));
    trace.confirmation = approved ? 'approved' : 'declined';
    if (!approved)
      return refuse(failure(`${def.name} was not approved; nothing was applied`, 'write_declined', { effects_prevented: true }));
    const late = revoked(ctx.principal);
    if (late !== null) return refuse(revokedFailure(late));
  }
  if (isCancelled(ctx)) return refuse(cancelled(def.name));
  ctx.progress?.(`${def.name}: running`);
  try {
    const handler = () => def.handler(args, ctx);
    const body = await ctx.resolver.inCall(() => (ctx.attribute === undefined ? handler() : ctx.attribute(handler)));
    return ctx.settings.check_output_shapes === true ? checkedShape(def, body) : success(body);
  } catch (err) {
    return isCancelled(ctx) ? cancelled(def.name) : failureOf(err);
  }
}

/**
 * A success whose body fits the tool's declared result shape; else a loud internal error naming the tool and
 * each misfit's path (settings `check_output_shapes`: the tests reach every mode of every tool through it).
 */
function checkedShape(def: ToolDefinition, body: JsonObject): ToolResult {
  if (def.output === undefined) return success(body);
  const typed = v.safeParse(def.output, body);
  if (typed.success) return success(body);
  return failure(
    `${def.name}: the result does not fit its declared shape: ${typed.issues.map(describeIssue).join('; ')}`,
    'internal_error',
  );
}

/** A gate refusal with the tool's refusal context (e.g. `committed:false`) added. */
function withContext(result: ToolResult, context: JsonObject): ToolResult {
  const { error, error_code, ...rest } = result.structuredContent;
  return failure(String(error), typeof error_code === 'string' ? (error_code as ErrorCode) : undefined, { ...rest, ...context });
}

/** The client cancelled the call (or its HTTP request went away) before it committed. */
function cancelled(tool: string): ToolResult {
  return failure(`${tool} was cancelled by the client; nothing was applied`, 'cancelled', { effects_prevented: true });
}

/** The one place domain and model refusals become tool failures; anything else is an internal error (message kept). */
function failureOf(err: unknown): ToolResult {
  if (err instanceof DomainError) return failure(err.message, err.code, err.context);
  return failure(err instanceof Error ? err.message : String(err), 'internal_error');
}
