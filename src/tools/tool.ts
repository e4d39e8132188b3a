// How a tool is declared: once, with its name, description, closed valibot input schema, required
// capabilities, effect flags and handler. The gate (gate.ts) and the listing (listing.ts) read nothing else.

import type * as v from 'valibot';
import type { Capability, Principal } from '../auth/principal.js';
import type { Workspace } from '../model/workspace.js';
import type { WorkspaceResolver } from '../model/resolver.js';
import type { WindowState } from '../window/state.js';
import type { ApprovalEntry } from '../window/approvals.js';
import type { ServerView } from '../broker/server-view.js';
import type { ChangeRecorder } from '../journal/recorder.js';
import type { ToolProfile } from '../settings/settings.js';

/** Window-level settings the tools and the gate see. */
export interface WindowSettings {
  readonly read_only: boolean;
  readonly confirm_each_write: boolean;
  readonly approval_timeout_s: number;
  readonly label_language: string;
  /** Namespace of entities minted from bare names (TOOLS.md 1.7); absent or null: the active ontology IRI + '#'. */
  readonly new_entity_namespace?: string | null;
  /** `generated`: minted local parts are generated ids labelled with the name; absent: `name`. */
  readonly new_entity_ids?: 'name' | 'generated';
  /** Without a project policy, caller-selected paths and URLs are allowed (TOOLS.md 1.9); absent: true. */
  readonly allow_unrestricted_paths_without_policy?: boolean;
  /** Where Konclude is and how its runs are bounded (settings `konclude_*`); absent: defaults. */
  readonly konclude_path?: string | null;
  readonly konclude_memory_mb?: number;
  readonly konclude_timeout_s?: number;
  /** The private directory whose `audit/` holds the project audit streams; absent: calls are not audited (server-less contexts). */
  readonly audit_home?: string;
  /** The change journal (in `audit_home`); absent: off. */
  readonly journal_enabled?: boolean;
  readonly journal_retention_days?: number;
  readonly journal_retention_mib?: number;
  /** The tool subset `tools/list` offers; absent: every tool. */
  readonly tool_profile?: ToolProfile;
  /** The private directory: no tool reads or writes inside it; absent in server-less contexts. */
  readonly private_home?: string;
  readonly max_document_bytes?: number;
  readonly max_policy_bytes?: number;
  readonly max_catalog_bytes?: number;
  readonly max_shapes_bytes?: number;
  readonly max_query_bytes?: number;
}

/** What the serving MCP session knows beyond the workspace (read by `get_session_info`). */
export interface SessionFacts {
  /** What `initialize` reported as serverInfo. */
  readonly serverInfo: { readonly name: string; readonly version: string };
  /** The MCP protocol version the session negotiated. */
  readonly protocolVersion: string;
  readonly toolCount: number;
  readonly promptCount: number;
  /** The window's pending-write queue (every session's entries). */
  readonly approvals: () => readonly ApprovalEntry[];
  /** Asks the main thread how the endpoint is served; null when no front door answers (a bare registry). */
  readonly server: () => Promise<ServerView | null>;
}

/** Everything a handler may touch: the window's workspace and the caller. */
export interface ToolContext {
  readonly workspace: Workspace;
  readonly resolver: WorkspaceResolver;
  /** Everything the window owns (its workspace and resolver are the two fields above). */
  readonly window: WindowState;
  readonly settings: WindowSettings;
  readonly principal: Principal;
  readonly sessionId: string | null;
  readonly windowId: string;
  /** The window's change journal; absent when it is off or in a server-less context. */
  readonly changes?: ChangeRecorder;
  /** Runs the handler so that the change journal attributes its commits to this call. */
  readonly attribute?: <T>(handler: () => T) => T;
  /** Aborted when the client cancels the request (`notifications/cancelled`) or its HTTP request goes away. */
  readonly signal: AbortSignal;
  /** Present in a window actor's MCP sessions; absent in a server-less context. */
  readonly session?: SessionFacts;
  /**
   * Tells a client that asked for progress what a long call is doing now; the session repeats it every
   * second, with `measure` (how far along of a known total) when the phase has one.
   */
  readonly progress?: (message: string, measure?: ProgressMeasure) => void;
}

/** How far a phase of a call has come, read at every progress beat: `done` of `total` (same unit). */
export interface ProgressMeasure {
  readonly total: number;
  readonly done: () => number;
}

/** A phase of unknown length as step `step` (from 0) of `total`: each read creeps on, never reaching the next step. */
export function stepMeasure(step: number, total: number): ProgressMeasure {
  let reads = 0;
  return { total, done: () => step + 1 - 1 / (++reads + 1) };
}

/** Seconds waited, from now, out of a bound of `totalSeconds`. */
export function waitMeasure(totalSeconds: number): ProgressMeasure {
  const start = Date.now();
  return { total: totalSeconds, done: () => (Date.now() - start) / 1000 };
}

export type JsonObject = Record<string, unknown>;

/** One change a held write would make (`add_axiom`, `remove_axiom`, `add_import`, …), in Manchester syntax with display names. */
export interface PendingChange {
  readonly op: string;
  readonly manchester: string;
}

export interface ToolDefinition<I = JsonObject, O extends JsonObject = JsonObject> {
  readonly name: string;
  readonly description: string;
  readonly input: v.GenericSchema<unknown, I>;
  /**
   * The shape of a successful result, for a tool whose result shape is stable: listed as its outputSchema,
   * and the type the handler must return (so the two cannot drift apart).
   */
  readonly output?: v.GenericSchema<unknown, O>;
  /** The JSON Schema `tools/list` shows, when the one derived from `input` would not suit clients. */
  readonly listedSchema?: JsonObject;
  readonly capabilities: readonly Capability[];
  /**
   * Whether this call mutates (some tools are read-only in a preview/peek mode). `never` lists the tool
   * as read-only; any other function as one that may write.
   */
  readonly mutating: (args: I) => boolean;
  /**
   * May delete or overwrite what exists (an axiom, a label, a file, a store row, a prefix binding), whether
   * or not undo_change restores it: MCP's destructiveHint is false only for purely additive tools.
   */
  readonly destructive?: boolean;
  /**
   * Changes shared window state that is neither an ontology nor a file (a job queued or cancelled, a cached
   * preview dropped, the reasoner selection): read-only mode and approvals let it through, as they do the
   * tools that read, yet a client is not told it is read-only.
   */
  readonly changesServerState?: boolean;
  /** Repeating a call with the same arguments has no further effect. */
  readonly idempotent?: boolean;
  /** Reaches documents or services outside the project (http(s) fetches); implied by `network:access`. */
  readonly openWorld?: boolean;
  /** One-line description of a held write, for the approval queue. */
  readonly summary?: (args: I) => string;
  /**
   * Whether the gate may rehearse a held write of this tool (run the handler up to its commit, apply
   * nothing) to show the owner its exact changes: true when the tool changes ontology content and does
   * nothing with effects of its own (files, stores, the journal) before its commit. A tool without it
   * shows its summary.
   */
  readonly rehearse?: boolean | ((args: I) => boolean);
  /** Fields every refusal by the gate (arguments, capabilities, read-only, approval, cancellation) adds, e.g. `committed:false`. */
  readonly refusalContext?: JsonObject;
  readonly handler: (args: I, ctx: ToolContext) => NoInfer<O> | Promise<NoInfer<O>>;
}

/** A tool's reported failure: `{error, error_code?, ...context}` with isError. */
export class ToolFailure extends Error {
  constructor(message: string, readonly code?: string, readonly context: JsonObject = {}) {
    super(message);
    this.name = 'ToolFailure';
  }
}

/** Erases the input type so tools of different shapes share one list. */
export function defineTool<I, O extends JsonObject = JsonObject>(def: ToolDefinition<I, O>): ToolDefinition<JsonObject> {
  return def as unknown as ToolDefinition<JsonObject>;
}

/** Changes nothing a later call could notice: listed as read-only, and in the `review` profile. */
export function readOnlyTool(def: ToolDefinition): boolean {
  return def.mutating === never && def.changesServerState !== true;
}

export const always = (): boolean => true;
export const never = (): boolean => false;
