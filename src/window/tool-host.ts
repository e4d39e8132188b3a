// What a window hands the tool layer and what it gets back: the window actor serves MCP sessions and the
// owner's view without importing the tool layer; the tool layer's entry (src/tools/window-thread.ts) gives
// the window a ToolHost. The types a call crosses that boundary with live here, the tool layer re-exports them.

import type { Principal } from '../auth/principal.js';
import type { ServerView } from '../broker/server-view.js';
import type { ToolProfile } from '../settings/settings.js';
import type { ErrorCode } from '../util/errors.js';
import type { JsonObject } from '../util/json-object.js';
import type { ApprovalEntry, ApprovalQueue } from './approvals.js';
import type { CallContext, SessionInfo } from './call-context.js';

/** What the serving MCP session knows beyond the workspace (read by `get_session_info`). */
export interface SessionFacts extends SessionInfo {
  /** The MCP protocol version the session negotiated. */
  readonly protocolVersion: string;
  readonly toolCount: number;
  readonly promptCount: number;
  /** The window's pending-write queue (every session's entries). */
  readonly approvals: () => readonly ApprovalEntry[];
  /** Asks the main thread how the endpoint is served; null when no front door answers (a bare registry). */
  readonly server: () => Promise<ServerView | null>;
}

/** What a handler may touch: the call context the domain sees, plus what the MCP session knows. */
export interface ToolContext extends CallContext {
  /** Present in a window actor's MCP sessions; absent in a server-less context. */
  readonly session?: SessionFacts;
}

/** A tool call's outcome as MCP carries it: one JSON object as structuredContent, mirrored as one text block. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: JsonObject;
  isError: boolean;
}

export interface ToolAnnotations {
  readOnlyHint?: true;
  destructiveHint?: false;
  idempotentHint?: true;
  openWorldHint: boolean;
}

/** A tool as `tools/list` shows it. */
export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema?: { type: 'object'; [key: string]: unknown };
  annotations: ToolAnnotations;
}

/** The tool layer as a window uses it. */
export interface ToolHost {
  /** The tools a profile offers, in `tools/list` order; made anew each time (it derives every JSON Schema), so kept by the caller. */
  listing(profile: ToolProfile): ListedTool[];
  /** Whether the catalog declares a tool of this name (in any profile). */
  declares(name: string): boolean;
  /**
   * Runs the named tool through the gate; never throws (an unknown name, like every failure, is a failure
   * result). `revoked` is the window's commit fence, asked before the handler and after a held write.
   */
  run(
    name: string,
    args: unknown,
    ctx: ToolContext,
    approvals: ApprovalQueue,
    revoked: (principal: Principal) => string | null,
  ): Promise<ToolResult>;
  /** A failure result, as the gate makes them, for a failure the window finds itself (the journal's). */
  failure(message: string, code: ErrorCode, context?: JsonObject): ToolResult;
  /** A result's JSON text as a `CallToolResult`. */
  resultJson(result: ToolResult): string;
}
