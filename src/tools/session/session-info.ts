// get_session_info (TOOLS.md §3.14): where a client stands, in one call. It tells the caller about itself
// only: its own principal's kind, client, scopes and capabilities, its own session's held writes, and of
// everything else counts and ids; never a token, a secret, or another principal's identity.

import * as v from 'valibot';
import { ontologyLabel } from '../../model/workspace.js';
import type { WindowState } from '../../window/state.js';
import type { Principal } from '../../auth/principal.js';
import type { ApprovalEntry } from '../../window/approvals.js';
import { revisionEnvelope } from '../../model/revision.js';
import { defineTool, never, ToolFailure, type JsonObject, type ToolContext, type WindowSettings } from '../core/tool.js';
import type { ServerView } from '../../broker/server-view.js';
import { jobCounts } from '../../jobs/actor-jobs.js';
import { journalSummary } from '../history/change-journal-tools.js';
import { AnyObject } from '../core/result-shapes.js';

const Args = v.strictObject({
  include_instances: v.optional(v.pipe(v.boolean(), v.description('Every window of this server.')), false),
  include_pending: v.optional(v.boolean(), true),
});

function instanceOf(window: WindowState, instanceId: string, view: ServerView | null): JsonObject {
  const ws = window.workspace;
  const active = ws.hasActive ? ontologyLabel(ws.active) : null;
  const reasoning = window.reasoning;
  const selected = reasoning.selected;
  return {
    instance_id: instanceId,
    // the label `/instances` shows; a window without a front door has only its active ontology
    label: view?.instances.find((i) => i.instance_id === instanceId)?.label ?? active ?? '(no ontology)',
    active_ontology: active,
    ontologies: ws.ontologies.map(ontologyLabel),
    dirty_count: ws.dirtyCount,
    undo_depth: ws.undoDepth,
    redo_depth: ws.redoDepth,
    revision: ws.hasActive ? revisionEnvelope(ws) : null,
    reasoner: { selected_id: selected.id, selected_name: selected.name, status: reasoning.status() },
  };
}

function sessionOf(principal: Principal, sessionId: string | null, instanceId: string): JsonObject {
  const oauth = principal.type === 'oauth';
  return {
    session_id: sessionId,
    pinned_instance_id: instanceId,
    auth: oauth ? 'oauth' : 'static_token',
    ...(oauth ? { client_id: principal.client_id, client_name: principal.display_name } : {}),
    // the static token is no OAuth grant, so it has no scope; a grant's scope is listed in its granted order
    scopes: oauth && principal.scope !== undefined ? principal.scope.split(' ').filter((s) => s !== '') : [],
    capabilities: [...principal.capabilities].sort(),
    legacy_profile: principal.legacy_profile === true,
  };
}

function gatesOf(settings: WindowSettings): JsonObject {
  return {
    read_only: settings.read_only,
    confirm_each_write: settings.confirm_each_write,
    approval_timeout_s: settings.approval_timeout_s,
    allow_unrestricted_paths_without_policy: settings.allow_unrestricted_paths_without_policy ?? true,
  };
}

/** The count covers every session of the actor; the items (and their summaries) only the caller's own. */
function pendingOf(entries: readonly ApprovalEntry[], sessionId: string | null, withItems: boolean): JsonObject {
  if (!withItems) return { count: entries.length };
  const own = sessionId === null ? [] : entries.filter((e) => e.session_id === sessionId);
  return {
    count: entries.length,
    items: own.map((e) => ({
      approval_id: e.approval_id,
      tool: e.tool,
      summary: e.summary,
      created_at: e.created_at,
      expires_at: e.expires_at,
    })),
  };
}

function changeSetsOf(window: WindowState): JsonObject {
  const items = window.changeSets
    .entries()
    .filter((e) => e.state !== 'committed')
    .map((e) => ({
      change_set_id: e.id,
      state: e.state,
      created_at: new Date(e.createdAt).toISOString(),
      expires_at: new Date(e.expiresAt).toISOString(),
    }));
  return { count: items.length, items };
}

export const getSessionInfo = defineTool({
  name: 'get_session_info',
  description: "This session's window, permissions, gates and pending writes.",
  input: Args,
  output: v.object({
    server: AnyObject,
    instance: AnyObject,
    session: AnyObject,
    gates: AnyObject,
    pending_writes: AnyObject,
    jobs: AnyObject,
    change_sets: AnyObject,
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: async (args, ctx: ToolContext) => {
    const facts = ctx.session;
    if (facts === undefined) throw new ToolFailure('get_session_info is answered only inside an MCP session', 'no_session');
    const view = await facts.server();
    const instanceId = view?.instance_id ?? ctx.windowId;
    return {
      server: {
        name: facts.serverInfo.name,
        version: facts.serverInfo.version,
        protocol_version: facts.protocolVersion,
        tool_count: facts.toolCount,
        prompt_count: facts.promptCount,
        mode: view?.mode ?? null,
        base_url: view?.base_url ?? null,
      },
      instance: { ...instanceOf(ctx.window, instanceId, view), ...journalSummary(ctx) },
      session: sessionOf(ctx.principal, ctx.sessionId, instanceId),
      gates: gatesOf(ctx.settings),
      pending_writes: pendingOf(facts.approvals(), ctx.sessionId, args.include_pending),
      jobs: jobCounts(ctx),
      change_sets: changeSetsOf(ctx.window),
      ...(args.include_instances ? { instances: view?.instances ?? [] } : {}),
    };
  },
});
