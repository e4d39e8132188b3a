// The bounds of the per-actor job store (TOOLS.md 3.13). One table, so the manager, the tools and the tests
// read the same numbers.

export interface JobLimits {
  /** Jobs running at once per actor. */
  readonly workers: number;
  /** Jobs waiting for a worker per actor. */
  readonly queue: number;
  /** Queued, running or cancel-pending jobs per principal. */
  readonly activePerPrincipal: number;
  /** Jobs in any state kept per principal. */
  readonly retainedPerPrincipal: number;
  /** Jobs in any state kept per actor. */
  readonly retainedPerActor: number;
  /** How long a finished job (and its artifacts) is kept. */
  readonly terminalRetentionMs: number;
  readonly artifactsPerJob: number;
  readonly artifactBytes: number;
  readonly artifactBytesPerJob: number;
  /** Serialized result JSON (UTF-8 bytes). */
  readonly resultBytes: number;
  /** How long a running job may take to stop after cancellation before it is declared cancelled anyway. */
  readonly cancellationGraceMs: number;
  /** How long an idempotency key returns the job it started. */
  readonly idempotencyWindowMs: number;
}

const MiB = 1024 * 1024;

export const JOB_LIMITS: JobLimits = {
  workers: 2,
  queue: 32,
  activePerPrincipal: 8,
  retainedPerPrincipal: 32,
  retainedPerActor: 128,
  terminalRetentionMs: 60 * 60 * 1000,
  artifactsPerJob: 4,
  artifactBytes: 64 * MiB,
  artifactBytesPerJob: 128 * MiB,
  resultBytes: MiB,
  cancellationGraceMs: 5_000,
  idempotencyWindowMs: 15 * 60 * 1000,
};
