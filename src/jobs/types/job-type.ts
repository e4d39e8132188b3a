// What a job type declares: its closed request schema, the capabilities it needs on top of start_job's, and
// how it captures its inputs when started. `prepare` runs in the start_job call (it may refuse, as a tool
// failure); the returned `run` does the work later, on the job's worker slot, from what was captured.

import * as v from 'valibot';
import type { Capability } from '../../auth/principal.js';
import type { PolicyResolution } from '../../policy/resolution.js';
import type { DocumentReader } from '../../diff/pair.js';
import type { JsonObject } from '../../util/json-object.js';
import { withSignal, type CallContext } from '../../window/call-context.js';
import type { JobRunHandle } from '../manager.js';
import { JobRunError } from '../job.js';

export interface PreparedJob {
  /** What identifies the captured input beyond the request, the revision and the policy digest (e.g. the reasoner). */
  readonly identity: JsonObject;
  readonly run: (handle: JobRunHandle) => Promise<JsonObject>;
}

export interface JobType<R extends JsonObject = JsonObject> {
  readonly type: string;
  readonly request: v.GenericSchema<unknown, R>;
  readonly capabilities: readonly Capability[];
  /** Names the result shape (`result_discriminator`). */
  readonly resultDiscriminator: string;
  /** Whether a loaded but invalid project policy still lets the job start (it reports the diagnostics itself). */
  readonly runsUnderInvalidPolicy: boolean;
  /** `documents` reads a document privately (the semantic_diff job's right side). */
  prepare(ctx: CallContext, request: R, policy: PolicyResolution, documents: DocumentReader): Promise<PreparedJob>;
}

/** Erases the request type so job types of different shapes share one table. */
export function defineJobType<R extends JsonObject>(t: JobType<R>): JobType {
  return t as unknown as JobType;
}

/** A job's view of the starting call: the same window and principal, the job's own cancellation, no MCP session. */
export function jobContext(ctx: CallContext, signal: AbortSignal): CallContext {
  return { ...withSignal(ctx, signal), session: undefined };
}

/**
 * For job types that read the live window when they run: fails `job_inputs_changed` when the window is no
 * longer at the revision captured at start, instead of judging other content than the caller asked about.
 */
export function requireRevision(ctx: CallContext, revision: number): void {
  const now = ctx.workspace.revision;
  if (now !== revision)
    throw new JobRunError(
      `The window changed (revision ${revision} → ${now}) after the job was started; start it again`,
      'job_inputs_changed',
      true,
    );
}

export const PolicyPathField = v.optional(
  v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096), v.description('Local policy file; default: discovered.')),
);

/** Items kept in the result (0–10000); counts cover everything and artifacts hold the full output. */
export const limitField = (fallback: number) =>
  v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(0),
      v.maxValue(10_000),
      v.description(`Items kept in the result (0–10000, default ${fallback}); counts cover everything.`),
    ),
    fallback,
  );
