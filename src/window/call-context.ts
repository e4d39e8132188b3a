// What domain code may know about the call it serves: the window's workspace and settings, the caller and
// the call's signal. The tool layer's context extends it; the domain never sees the tool layer.

import type { Principal } from '../auth/principal.js';
import type { Workspace } from '../model/workspace.js';
import type { WorkspaceResolver } from '../model/resolver.js';
import type { ChangeRecorder } from '../journal/recorder.js';
import type { ToolProfile } from '../settings/settings.js';
import type { WindowState } from './state.js';

/** Window-level settings the tools and the gate see. */
export interface WindowSettings {
  readonly read_only: boolean;
  readonly confirm_each_write: boolean;
  readonly approval_timeout_s: number;
  readonly label_language: string;
  /** Each successful result is checked against its tool's declared shape (settings `check_output_shapes`); absent: false. */
  readonly check_output_shapes?: boolean;
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

/** What the serving session reports about the server (a release names its generator by it). */
export interface SessionInfo {
  /** What `initialize` reported as serverInfo. */
  readonly serverInfo: { readonly name: string; readonly version: string };
}

/** Everything domain code may touch during a call: the window's workspace and the caller. */
export interface CallContext {
  readonly workspace: Workspace;
  readonly resolver: WorkspaceResolver;
  /** Everything the window owns (its workspace and resolver are the two fields above). */
  readonly window: WindowState;
  readonly settings: WindowSettings;
  readonly principal: Principal;
  readonly sessionId: string | null;
  readonly windowId: string;
  /** The window's change journal; absent when it is off or in a server-less context. */
  readonly changes?: ChangeRecorder | undefined;
  /** Runs the handler so that the change journal attributes its commits to this call. */
  readonly attribute?: (<T>(handler: () => T) => T) | undefined;
  /** Aborted when the client cancels the request (`notifications/cancelled`) or its HTTP request goes away. */
  readonly signal: AbortSignal;
  /** The same cancellation, read without making `signal` where that is made only when first asked for (a session's call). */
  readonly cancellation?: Cancellation | undefined;
  /** Present in a window actor's MCP sessions; absent in a server-less context. */
  readonly session?: SessionInfo | undefined;
  /**
   * Tells a client that asked for progress what a long call is doing now; the session repeats it every
   * second, with `measure` (how far along of a known total) when the phase has one.
   */
  readonly progress?: ((message: string, measure?: ProgressMeasure) => void) | undefined;
}

/** A call's cancellation: `aborted` answers without making the AbortSignal, which may be made only when asked for. */
export interface Cancellation {
  readonly aborted: boolean;
  readonly signal: AbortSignal;
}

/** Whether the call was cancelled; asks its signal only when nothing cheaper can say. */
export function isCancelled(ctx: CallContext): boolean {
  return ctx.cancellation?.aborted ?? ctx.signal.aborted;
}

/** The context under another cancellation (a job's, a sub-task's): `signal` alone then says whether it was cancelled. */
export function withSignal(ctx: CallContext, signal: AbortSignal): CallContext {
  return { ...ctx, signal, cancellation: undefined };
}

/** How far a phase of a call has come, read at every progress beat: `done` of `total` (same unit). */
export interface ProgressMeasure {
  readonly total: number;
  readonly done: () => number;
}
