// The job as TOOLS.md 3.13 describes it: states, the descriptor every job tool returns, the error a job ends
// with, and the failures the store reports. A job's owner is the exact actor, principal, client and grant;
// only digests of them ever appear in a descriptor.

import type { RevisionEnvelope } from '../model/revision.js';
import type { JsonObject } from '../util/json-object.js';
import { DomainError, type ErrorCode } from '../util/errors.js';

export const JOB_STATES = ['queued', 'running', 'cancel_pending', 'succeeded', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const TERMINAL_STATES: ReadonlySet<JobState> = new Set(['succeeded', 'failed', 'cancelled']);

export function isTerminal(state: JobState): boolean {
  return TERMINAL_STATES.has(state);
}

/** Who owns a job: the actor plus digests of the principal, its client and its grant. */
export interface JobOwner {
  readonly workspaceId: string;
  readonly ownerFingerprint: string;
  readonly principalFingerprint: string;
  readonly clientFingerprint: string;
  readonly grantFingerprint: string;
  /** The OAuth grant itself (null for the static token): kept in memory only, so a revocation can reach its jobs. */
  readonly grantId: string | null;
}

/** Why a job ended without a result. */
export interface JobErrorBody {
  readonly code: ErrorCode;
  readonly message: string;
  readonly retryable: boolean;
  readonly details?: JsonObject;
}

export interface JobDescriptor {
  readonly job_id: string;
  readonly workspace_id: string;
  readonly owner_fingerprint: string;
  readonly principal_fingerprint: string;
  readonly client_fingerprint: string;
  readonly grant_fingerprint: string;
  readonly type: string;
  readonly state: JobState;
  readonly created_at: string;
  readonly started_at: string | null;
  readonly completed_at: string | null;
  readonly base_revision: RevisionEnvelope;
  readonly policy_digest: string | null;
  readonly phase: string;
  readonly progress_message: string;
  readonly progress_sequence: number;
  readonly cancellation_requested: boolean;
  readonly cancellation_effective: boolean;
  readonly commit_started: boolean;
  readonly idempotency_key: string;
  readonly required_capabilities: readonly string[];
  readonly input_identity: string;
  readonly result_discriminator: string;
  readonly result: JsonObject | null;
  readonly error: JobErrorBody | null;
}

/** A job as list_jobs shows it: the descriptor without its result (get_job returns that), saying whether there is one. */
export type JobSummary = Omit<JobDescriptor, 'result'> & { readonly result_available: boolean };

export type JobStoreErrorCode =
  'unknown_job' | 'unknown_artifact' | 'idempotency_conflict' | 'job_queue_full' | 'job_quota_exceeded' | 'cursor_invalid' | 'jobs_closed';

/** A refusal by the job store, a failure of the tool that asked with the same code and context. */
export class JobStoreError extends DomainError {
  declare readonly code: JobStoreErrorCode;
  constructor(message: string, code: JobStoreErrorCode, context: JsonObject = {}) {
    super(message, code, context);
    this.name = 'JobStoreError';
  }
}

/** A job runner's own failure: ends the job `failed` with this code (anything else thrown is `job_failed`). */
export class JobRunError extends Error {
  constructor(
    message: string,
    readonly code: ErrorCode,
    readonly retryable = false,
    readonly details?: JsonObject,
  ) {
    super(message);
    this.name = 'JobRunError';
  }
}
