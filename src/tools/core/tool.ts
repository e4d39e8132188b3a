// How a tool is declared: once, with its name, description, closed valibot input schema, required
// capabilities, effect flags and handler. The gate (tool-gate.ts) and the listing (tool-listing.ts) read nothing else.

import type * as v from 'valibot';
import type { Capability } from '../../auth/principal.js';
import type { ProgressMeasure } from '../../window/call-context.js';
import type { ToolContext } from '../../window/tool-host.js';
import type { JsonObject } from '../../util/json-object.js';

// The domain's types and error, as the tool layer names them (a tool failure is a domain error).
export type { JsonObject } from '../../util/json-object.js';
export type { ProgressMeasure, WindowSettings } from '../../window/call-context.js';
export type { SessionFacts, ToolContext } from '../../window/tool-host.js';
export { DomainError as ToolFailure } from '../../util/errors.js';

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
   * preview dropped): read-only mode and approvals let it through, as they do the tools that read, yet a
   * client is not told it is read-only. (The reasoner selection is M·N in TOOLS.md: set_reasoner is mutating.)
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
