// The per-actor job store (TOOLS.md 3.13): a bounded queue feeding a fixed number of workers, quotas per
// principal and per actor, idempotent starts, a monotonic cancellation tombstone with a bounded grace,
// expiry of finished jobs, and private artifacts that live exactly as long as their job. Everything is in
// memory; closing the store cancels every job and deletes every artifact.

import { randomUUID } from 'node:crypto';
import type { RevisionEnvelope } from '../model/revision.js';
import type { JsonObject } from '../util/json-object.js';
import { ArtifactFiles } from './artifacts.js';
import { CursorSeal } from './cursor.js';
import {
  isTerminal,
  JobRunError,
  JobStoreError,
  type JobDescriptor,
  type JobSummary,
  type JobErrorBody,
  type JobOwner,
  type JobState,
} from './job.js';
import { JOB_LIMITS, type JobLimits } from './limits.js';

/** A private artifact as results reference it: by opaque id, never by path. */
export interface ArtifactRef {
  readonly artifact_id: string;
  readonly kind: string;
  readonly media_type: string;
  readonly bytes: number;
  readonly sha256: string;
}

/** What a running job may do besides returning its result. */
export interface JobRunHandle {
  /** Aborted when the job is cancelled or its store closes. */
  readonly signal: AbortSignal;
  progress(phase: string, message: string): void;
  /** Keeps `data` as a private artifact of this job (bounded per job; see JobLimits). */
  artifact(kind: string, mediaType: string, data: Uint8Array): Promise<ArtifactRef>;
  /** From here on the job is committing: cancellation can no longer stop it. */
  commitStarted(): void;
}

/** Everything a job needs, captured when it is started. */
export interface JobSpec {
  readonly type: string;
  readonly idempotencyKey: string;
  readonly inputIdentity: string;
  readonly baseRevision: RevisionEnvelope;
  readonly policyDigest: string | null;
  readonly requiredCapabilities: readonly string[];
  readonly resultDiscriminator: string;
  readonly run: (handle: JobRunHandle) => Promise<JsonObject>;
}

export type CancelOutcome = 'cancelled' | 'cancel_requested' | 'already_terminal' | 'commit_in_progress';

interface JobRecord {
  readonly seq: number;
  readonly id: string;
  readonly owner: JobOwner;
  readonly spec: JobSpec;
  readonly controller: AbortController;
  readonly createdAt: number;
  state: JobState;
  startedAt: number | null;
  completedAt: number | null;
  phase: string;
  progressMessage: string;
  progressSequence: number;
  cancellationRequested: boolean;
  cancellationEffective: boolean;
  commitStarted: boolean;
  result: JsonObject | null;
  error: JobErrorBody | null;
  artifacts: ArtifactRef[];
  grace: NodeJS.Timeout | null;
}

interface IdempotencyEntry {
  readonly jobId: string;
  readonly inputIdentity: string;
  readonly createdAt: number;
}

export interface JobManagerOptions {
  /** Where this actor's artifact directory is made (see artifactsParent). */
  readonly artifactsParent: string;
  /** Names the directory (see artifactsDir), so the actor that started this store's thread can remove it if the thread dies. */
  readonly artifactsId?: string | undefined;
  readonly limits?: Partial<JobLimits>;
  readonly now?: () => number;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export class JobManager {
  readonly limits: JobLimits;
  private readonly now: () => number;
  private readonly files: ArtifactFiles;
  private readonly seal = new CursorSeal();
  private readonly jobs = new Map<string, JobRecord>();
  private readonly queue: JobRecord[] = [];
  private readonly running = new Set<JobRecord>();
  private readonly idempotency = new Map<string, IdempotencyEntry>();
  /** Bumped whenever a job joins or leaves an owner's list: list cursors are bound to it. */
  private readonly ownerRevisions = new Map<string, number>();
  private seq = 0;
  private closed = false;

  constructor(options: JobManagerOptions) {
    this.limits = { ...JOB_LIMITS, ...options.limits };
    this.now = options.now ?? Date.now;
    this.files = new ArtifactFiles(options.artifactsParent, options.artifactsId);
  }

  /** The directory holding this store's artifacts (made on the first artifact). */
  get artifactDir(): string {
    return this.files.dir;
  }

  /**
   * Starts (enqueues) a job, or returns the one this owner started with the same type and idempotency key
   * within the idempotency window when its input identity is the same.
   */
  start(owner: JobOwner, spec: JobSpec): { job: JobDescriptor; reused: boolean } {
    this.open();
    this.sweep();
    const key = JSON.stringify([owner.ownerFingerprint, spec.type, spec.idempotencyKey]);
    const known = this.idempotency.get(key);
    const prior = known === undefined ? undefined : this.jobs.get(known.jobId);
    if (known !== undefined && prior !== undefined && this.now() - known.createdAt < this.limits.idempotencyWindowMs) {
      if (known.inputIdentity === spec.inputIdentity) return { job: describe(prior), reused: true };
      throw new JobStoreError(
        `idempotency_key '${spec.idempotencyKey}' already started a ${spec.type} job with different inputs; use a new key`,
        'idempotency_conflict',
        { job_id: prior.id, input_identity: spec.inputIdentity, existing_input_identity: known.inputIdentity },
      );
    }
    this.admit(owner);
    const record: JobRecord = {
      seq: this.seq++,
      id: randomUUID(),
      owner,
      spec,
      controller: new AbortController(),
      createdAt: this.now(),
      state: 'queued',
      startedAt: null,
      completedAt: null,
      phase: 'queued',
      progressMessage: 'Waiting for a worker',
      progressSequence: 0,
      cancellationRequested: false,
      cancellationEffective: false,
      commitStarted: false,
      result: null,
      error: null,
      artifacts: [],
      grace: null,
    };
    this.jobs.set(record.id, record);
    this.bump(owner.ownerFingerprint);
    this.idempotency.set(key, { jobId: record.id, inputIdentity: spec.inputIdentity, createdAt: record.createdAt });
    this.queue.push(record);
    this.pump();
    return { job: describe(record), reused: false };
  }

  /** The owner's job; `unknown_job` when there is none (another owner's job answers the same). */
  get(owner: JobOwner, jobId: string): JobDescriptor {
    return describe(this.find(owner, jobId));
  }

  /** Records the cancellation tombstone without waiting for the job to stop. */
  cancel(owner: JobOwner, jobId: string): { job: JobDescriptor; outcome: CancelOutcome } {
    const r = this.find(owner, jobId);
    if (isTerminal(r.state)) return { job: describe(r), outcome: 'already_terminal' };
    r.cancellationRequested = true;
    if (r.commitStarted) return { job: describe(r), outcome: 'commit_in_progress' };
    if (r.state === 'queued') {
      this.queue.splice(this.queue.indexOf(r), 1);
      this.end(r, 'cancelled', 'Cancelled before it started');
      return { job: describe(r), outcome: 'cancelled' };
    }
    if (r.state === 'running') {
      r.state = 'cancel_pending';
      this.progress(r, 'cancelling', 'Cancellation requested; waiting for the job to stop');
      r.controller.abort();
      r.grace = setTimeout(() => this.abandon(r), this.limits.cancellationGraceMs);
      r.grace.unref();
    }
    return { job: describe(r), outcome: 'cancel_requested' };
  }

  /** The owner's jobs, newest first, `limit` at a time. */
  list(owner: JobOwner, limit: number, cursor?: string): { jobs: JobSummary[]; next_cursor?: string } {
    this.sweep();
    const fp = owner.ownerFingerprint;
    const revision = this.ownerRevisions.get(fp) ?? 0;
    const offset = cursor === undefined ? 0 : this.seal.open(cursor, fp, revision);
    const mine = [...this.jobs.values()].filter((r) => r.owner.ownerFingerprint === fp).sort((a, b) => b.seq - a.seq);
    const page = mine.slice(offset, offset + limit).map(summarize);
    const end = offset + page.length;
    return end < mine.length ? { jobs: page, next_cursor: this.seal.seal(fp, revision, end) } : { jobs: page };
  }

  /** A retained artifact of the owner's job and a reader of its bytes. */
  artifact(owner: JobOwner, jobId: string, artifactId: string): { ref: ArtifactRef; read: () => Promise<Buffer> } {
    const r = this.find(owner, jobId);
    const ref = r.artifacts.find((a) => a.artifact_id === artifactId);
    if (ref === undefined) {
      throw new JobStoreError(
        `Job ${jobId} has no artifact ${artifactId} (unknown, or deleted when the job did not succeed)`,
        'unknown_artifact',
        { job_id: jobId, artifact_id: artifactId },
      );
    }
    return { ref, read: () => this.files.read(ref.artifact_id) };
  }

  /** Cancels every unfinished job of the revoked grants (their owners can no longer ask for them). */
  cancelGrants(grantIds: ReadonlySet<string>): void {
    for (const r of [...this.jobs.values()]) {
      if (r.owner.grantId !== null && grantIds.has(r.owner.grantId) && !isTerminal(r.state)) this.cancel(r.owner, r.id);
    }
  }

  /** This principal's jobs waiting and under way (cancel-pending ones still hold a worker). */
  counts(principalFingerprint: string): { queued: number; running: number } {
    let queued = 0;
    let running = 0;
    for (const r of this.jobs.values()) {
      if (r.owner.principalFingerprint !== principalFingerprint) continue;
      if (r.state === 'queued') queued++;
      else if (r.state === 'running' || r.state === 'cancel_pending') running++;
    }
    return { queued, running };
  }

  /** Cancels every job, forgets every id and deletes every artifact (the actor is closing). */
  async close(): Promise<void> {
    this.closed = true;
    for (const r of this.jobs.values()) {
      r.controller.abort();
      if (r.grace !== null) clearTimeout(r.grace);
    }
    this.jobs.clear();
    this.queue.length = 0;
    this.running.clear();
    this.idempotency.clear();
    await this.files.removeAll();
  }

  private open(): void {
    if (this.closed) throw new JobStoreError('The window is closing; no job can start', 'jobs_closed');
  }

  private find(owner: JobOwner, jobId: string): JobRecord {
    this.sweep();
    const r = this.jobs.get(jobId);
    if (r === undefined || r.owner.ownerFingerprint !== owner.ownerFingerprint) {
      throw new JobStoreError(`No job ${jobId} (unknown, expired, or not yours)`, 'unknown_job', { job_id: jobId });
    }
    return r;
  }

  /** Checks the quotas for one more job of `owner`, making room by forgetting the caller's oldest finished jobs. */
  private admit(owner: JobOwner): void {
    const L = this.limits;
    const principal = owner.principalFingerprint;
    const mine = [...this.jobs.values()].filter((r) => r.owner.principalFingerprint === principal);
    const active = mine.filter((r) => !isTerminal(r.state)).length;
    if (active >= L.activePerPrincipal) {
      throw new JobStoreError(
        `You already have ${active} unfinished jobs (the limit is ${L.activePerPrincipal}); wait for one to finish or cancel one`,
        'job_quota_exceeded',
        { quota: 'active_per_principal', limit: L.activePerPrincipal, retryable: true },
      );
    }
    if (this.running.size >= L.workers && this.queue.length >= L.queue) {
      throw new JobStoreError(`The job queue of this window is full (${L.queue} waiting); try again later`, 'job_queue_full', {
        limit: L.queue,
        retryable: true,
      });
    }
    const finished = mine.filter((r) => isTerminal(r.state)).sort((a, b) => a.completedAt! - b.completedAt! || a.seq - b.seq);
    let retained = mine.length;
    while (retained >= L.retainedPerPrincipal || (this.jobs.size >= L.retainedPerActor && finished.length > 0)) {
      const oldest = finished.shift();
      if (oldest === undefined) break;
      this.remove(oldest);
      retained--;
    }
    if (this.jobs.size >= L.retainedPerActor) {
      throw new JobStoreError(
        `This window already keeps ${this.jobs.size} jobs (the limit is ${L.retainedPerActor}); try again when some have finished or expired`,
        'job_quota_exceeded',
        { quota: 'retained_per_actor', limit: L.retainedPerActor, retryable: true },
      );
    }
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.limits.workers && this.queue.length > 0) this.launch(this.queue.shift()!);
  }

  private launch(r: JobRecord): void {
    this.running.add(r);
    r.state = 'running';
    r.startedAt = this.now();
    this.progress(r, 'running', 'Started');
    const handle: JobRunHandle = {
      signal: r.controller.signal,
      progress: (phase, message) => {
        if (!isTerminal(r.state)) this.progress(r, phase, message);
      },
      artifact: (kind, mediaType, data) => this.keepArtifact(r, kind, mediaType, data),
      commitStarted: () => {
        if (!isTerminal(r.state)) r.commitStarted = true;
      },
    };
    void Promise.resolve()
      .then(() => r.spec.run(handle))
      .then(
        (result) => this.succeed(r, result),
        (err: unknown) => this.fail(r, err),
      );
  }

  private async keepArtifact(r: JobRecord, kind: string, mediaType: string, data: Uint8Array): Promise<ArtifactRef> {
    const L = this.limits;
    if (r.artifacts.length >= L.artifactsPerJob)
      throw new JobRunError(`A job keeps at most ${L.artifactsPerJob} artifacts`, 'job_artifact_limit');
    const total = r.artifacts.reduce((n, a) => n + a.bytes, 0);
    if (data.byteLength > L.artifactBytes || total + data.byteLength > L.artifactBytesPerJob) {
      throw new JobRunError(
        `The ${kind} artifact (${data.byteLength} bytes) exceeds the artifact bounds (${L.artifactBytes} bytes each, ${L.artifactBytesPerJob} per job)`,
        'job_artifact_too_large',
        false,
        { bytes: data.byteLength, limit: L.artifactBytes, job_limit: L.artifactBytesPerJob },
      );
    }
    if (this.closed || isTerminal(r.state)) throw new JobRunError('The job has ended; no artifact is kept', 'cancelled');
    const stored = await this.files.write(data);
    if (this.closed || isTerminal(r.state) || this.jobs.get(r.id) !== r) {
      // after close the write may have made the directory again: remove all of it
      await (this.closed ? this.files.removeAll() : this.files.remove(stored.artifact_id));
      throw new JobRunError('The job ended while its artifact was being written', 'cancelled');
    }
    const ref: ArtifactRef = { artifact_id: stored.artifact_id, kind, media_type: mediaType, bytes: stored.bytes, sha256: stored.sha256 };
    r.artifacts.push(ref);
    return ref;
  }

  private succeed(r: JobRecord, result: JsonObject): void {
    if (isTerminal(r.state) || this.jobs.get(r.id) !== r) return;
    if (r.cancellationRequested && !r.commitStarted) {
      this.end(r, 'cancelled', 'Cancelled; the result was discarded');
      return;
    }
    const bytes = Buffer.byteLength(JSON.stringify(result), 'utf8');
    if (bytes > this.limits.resultBytes) {
      r.error = {
        code: 'job_result_too_large',
        message: `The result (${bytes} bytes) exceeds ${this.limits.resultBytes} bytes; start the job again with a smaller limit`,
        retryable: false,
        details: { bytes, limit: this.limits.resultBytes },
      };
      this.end(r, 'failed', 'The result was too large');
      return;
    }
    r.result = result;
    this.end(r, 'succeeded', 'Done');
  }

  private fail(r: JobRecord, err: unknown): void {
    if (isTerminal(r.state) || this.jobs.get(r.id) !== r) return;
    if (r.cancellationRequested && !r.commitStarted) {
      this.end(r, 'cancelled', 'Cancelled');
      return;
    }
    r.error =
      err instanceof JobRunError
        ? { code: err.code, message: err.message, retryable: err.retryable, ...(err.details === undefined ? {} : { details: err.details }) }
        : { code: 'job_failed', message: (err as Error)?.message ?? String(err), retryable: false };
    this.end(r, 'failed', r.error.message);
  }

  /** The grace after a cancellation ran out: the job counts as cancelled and frees its worker; a late result is dropped. */
  private abandon(r: JobRecord): void {
    if (r.state === 'cancel_pending' && this.jobs.get(r.id) === r)
      this.end(r, 'cancelled', `Cancelled; the job did not stop within ${this.limits.cancellationGraceMs} ms and was abandoned`);
  }

  private end(r: JobRecord, state: 'succeeded' | 'failed' | 'cancelled', message: string): void {
    r.state = state;
    r.completedAt = this.now();
    if (state === 'cancelled') r.cancellationEffective = true;
    if (r.grace !== null) clearTimeout(r.grace);
    r.grace = null;
    this.progress(r, state, message);
    if (state !== 'succeeded') this.dropArtifacts(r);
    // an idle window still deletes expired artifacts from disk; unref'd, so it keeps no thread alive
    setTimeout(() => this.sweep(), this.limits.terminalRetentionMs + 1000).unref();
    this.running.delete(r);
    this.pump();
  }

  private progress(r: JobRecord, phase: string, message: string): void {
    r.phase = phase;
    r.progressMessage = message;
    r.progressSequence++;
  }

  private dropArtifacts(r: JobRecord): void {
    for (const a of r.artifacts) void this.files.remove(a.artifact_id);
    r.artifacts = [];
  }

  /** Forgets finished jobs past their retention. */
  private sweep(): void {
    const cutoff = this.now() - this.limits.terminalRetentionMs;
    for (const r of [...this.jobs.values()]) if (r.completedAt !== null && r.completedAt <= cutoff) this.remove(r);
  }

  private remove(r: JobRecord): void {
    this.jobs.delete(r.id);
    this.bump(r.owner.ownerFingerprint);
    this.dropArtifacts(r);
    for (const [key, entry] of this.idempotency) if (entry.jobId === r.id) this.idempotency.delete(key);
  }

  private bump(ownerFingerprint: string): void {
    this.ownerRevisions.set(ownerFingerprint, (this.ownerRevisions.get(ownerFingerprint) ?? 0) + 1);
  }
}

/** A list row: results can be large (a classification's is), so only get_job returns them. */
function summarize(r: JobRecord): JobSummary {
  const { result, ...rest } = describe(r);
  return { ...rest, result_available: result !== null };
}

function describe(r: JobRecord): JobDescriptor {
  return {
    job_id: r.id,
    workspace_id: r.owner.workspaceId,
    owner_fingerprint: r.owner.ownerFingerprint,
    principal_fingerprint: r.owner.principalFingerprint,
    client_fingerprint: r.owner.clientFingerprint,
    grant_fingerprint: r.owner.grantFingerprint,
    type: r.spec.type,
    state: r.state,
    created_at: iso(r.createdAt)!,
    started_at: iso(r.startedAt),
    completed_at: iso(r.completedAt),
    base_revision: r.spec.baseRevision,
    policy_digest: r.spec.policyDigest,
    phase: r.phase,
    progress_message: r.progressMessage,
    progress_sequence: r.progressSequence,
    cancellation_requested: r.cancellationRequested,
    cancellation_effective: r.cancellationEffective,
    commit_started: r.commitStarted,
    idempotency_key: r.spec.idempotencyKey,
    required_capabilities: [...r.spec.requiredCapabilities],
    input_identity: r.spec.inputIdentity,
    result_discriminator: r.spec.resultDiscriminator,
    result: r.result,
    error: r.error,
  };
}
