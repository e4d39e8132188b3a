// Server-less test support: a window context without a server, and tool calls through the real gate in it.
// Apart from test/server/support.ts, so that files which only need a served client never load the tool catalog,
// and files which only need a context load it only when they run a tool.

import { staticPrincipal, type Principal } from '../../src/auth/principal.js';
import { Workspace } from '../../src/model/workspace.js';
import { WorkspaceResolver } from '../../src/model/resolver.js';
import type { Ontology } from '../../src/model/ontology.js';
import { WindowState } from '../../src/window/state.js';
import { ApprovalQueue } from '../../src/window/approvals.js';
import type { ToolContext, WindowSettings } from '../../src/tools/core/tool.js';
import type { CallOutcome } from '../server/support.js';

/** A window context without the server: a workspace holding `ontologies` (the first active). */
export function toolContext(
  ontologies: Ontology[],
  principal: Principal = staticPrincipal(),
  settings: Partial<WindowSettings> = {},
): ToolContext {
  const workspace = new Workspace();
  for (const o of ontologies) workspace.load(o);
  const window = new WindowState({ workspace, resolver: new WorkspaceResolver(workspace), windowId: 'w-unit' });
  return {
    workspace,
    resolver: window.resolver,
    window,
    settings: { read_only: false, confirm_each_write: false, approval_timeout_s: 5, label_language: 'en', ...settings },
    principal,
    sessionId: 's-unit',
    windowId: 'w-unit',
    signal: new AbortController().signal,
  };
}

/** Runs one tool through the real gate in a server-less context; returns its structured body. */
export async function runInContext(tool: string, args: Record<string, unknown>, ctx: ToolContext): Promise<CallOutcome> {
  const [{ TOOLS_BY_NAME }, { runTool }] = await Promise.all([
    import('../../src/tools/core/tool-catalog.js'),
    import('../../src/tools/core/tool-gate.js'),
  ]);
  const def = TOOLS_BY_NAME.get(tool);
  if (def === undefined) throw new Error(`unknown tool ${tool}`);
  const result = await runTool(def, args, ctx, new ApprovalQueue(ctx.windowId));
  return { isError: result.isError, body: result.structuredContent };
}
