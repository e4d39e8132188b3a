// Asynchronous job tools (TOOLS.md 3.13): start_job, get_job, cancel_job, list_jobs, export_job_artifact.
// Jobs live in the window actor's job store (src/jobs), owned by the exact actor, principal, client and
// grant; another owner's job answers like an unknown one.

import * as v from 'valibot';
import { lstat, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { missingCapabilities } from '../../auth/principal.js';
import { resolvePolicy } from '../../policy/resolve.js';
import type { PolicyResolution } from '../../policy/resolution.js';
import { authorizeLocalPath } from '../../policy/authorize.js';
import { writeFileAtomic } from '../../util/atomic-file.js';
import { sha256Digest } from '../../util/digest.js';
import type { JobManager } from '../../jobs/manager.js';
import { jobOwner } from '../../jobs/owner.js';
import { JOB_TYPE_NAMES, JOB_TYPES_BY_NAME } from '../../jobs/job-types.js';
import type { JobType } from '../../jobs/types/job-type.js';
import { revisionEnvelope } from '../../model/revision.js';
import { always, defineTool, never, ToolFailure, type ToolContext } from '../core/tool.js';
import { documentReader } from '../diff/ontology-diff.js';
import { AnyList, AnyObject } from '../core/result-shapes.js';

const START_CAPABILITIES = ['ontology:read', 'filesystem:project:read'] as const;

const JobId = v.pipe(v.string(), v.uuid('job_id must be a UUID'));

/** Runs a job-store operation as the caller (its refusals are JobStoreErrors, which the gate reports). */
function store<T>(ctx: ToolContext, op: (m: JobManager, owner: ReturnType<typeof jobOwner>) => T): T {
  return op(ctx.window.jobs, jobOwner(ctx.workspace.id, ctx.principal));
}

function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .map((i) => {
      const where = v.getDotPath(i);
      return where === null ? i.message : `request.${where}: ${i.message}`;
    })
    .join('; ');
}

/** A v2 policy's `jobs` block may switch jobs off or narrow the types; an invalid policy admits only self-reporting types. */
function checkPolicy(res: PolicyResolution, type: JobType): void {
  if (res.loaded && !res.valid && !type.runsUnderInvalidPolicy) {
    throw new ToolFailure(
      `The project policy ${res.file ?? ''} is invalid, so no ${type.type} job can start; see validate_project_policy`,
      'policy_invalid',
      { policy_path: res.file, effects_prevented: true },
    );
  }
  const policy = res.policy;
  if (policy === null || policy.version !== 2) return;
  if (!policy.jobs.enabled)
    throw new ToolFailure(`The project policy ${res.file ?? ''} disables jobs (jobs.enabled: false)`, 'jobs_disabled', {
      policy_path: res.file,
    });
  if (!(policy.jobs.allowed_types as readonly string[]).includes(type.type)) {
    throw new ToolFailure(
      `The project policy ${res.file ?? ''} does not allow ${type.type} jobs (jobs.allowed_types: ${policy.jobs.allowed_types.join(', ')})`,
      'job_type_not_allowed',
      { policy_path: res.file, allowed_types: [...policy.jobs.allowed_types] },
    );
  }
}

export const startJob = defineTool({
  name: 'start_job',
  description: 'Queue a background job; poll get_job. A repeated idempotency_key returns the job.',
  input: v.strictObject({
    type: v.picklist(JOB_TYPE_NAMES),
    idempotency_key: v.pipe(
      v.string(),
      v.regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, 'idempotency_key must match [A-Za-z0-9][A-Za-z0-9._:-]{0,127}'),
    ),
    request: v.pipe(
      v.record(v.string(), v.unknown()),
      v.description(
        'By type: classification {limit, policy_path}; project_qc {limit, lock_mode, policy_path}; semantic_diff {right_document, limit, policy_path}; inference_materialization: materialize_inferences arguments.',
      ),
    ),
  }),
  output: v.object({ job: AnyObject, reused: v.boolean() }),
  capabilities: [...START_CAPABILITIES],
  mutating: never,
  changesServerState: true,
  handler: async (args, ctx) => {
    const type = JOB_TYPES_BY_NAME.get(args.type)!;
    const parsed = v.safeParse(type.request, args.request);
    if (!parsed.success)
      throw new ToolFailure(`Invalid request for a ${type.type} job: ${describeIssues(parsed.issues)}`, 'invalid_argument', {
        argument: 'request',
      });
    const request = parsed.output;
    const missing = missingCapabilities(ctx.principal, type.capabilities);
    if (missing.length > 0) {
      throw new ToolFailure(`A ${type.type} job requires capabilities the caller lacks: ${missing.join(', ')}`, 'authorization_denied', {
        missing_capabilities: missing,
        effects_prevented: true,
      });
    }
    const res = await resolvePolicy(ctx, request.policy_path as string | undefined);
    checkPolicy(res, type);
    const base = revisionEnvelope(ctx.workspace);
    const prepared = await type.prepare(ctx, request, res, documentReader);
    const identity = {
      type: type.type,
      request,
      workspace_id: base.workspace_id,
      semantic_fingerprint: base.semantic_fingerprint,
      document_fingerprint: base.document_fingerprint,
      policy_digest: res.digest,
      ...prepared.identity,
    };
    const started = store(ctx, (m, owner) =>
      m.start(owner, {
        type: type.type,
        idempotencyKey: args.idempotency_key,
        inputIdentity: sha256Digest(JSON.stringify(identity)),
        baseRevision: base,
        policyDigest: res.digest,
        requiredCapabilities: [...new Set([...START_CAPABILITIES, ...type.capabilities])].sort(),
        resultDiscriminator: type.resultDiscriminator,
        run: prepared.run,
      }),
    );
    return { job: started.job, reused: started.reused };
  },
});

export const getJob = defineTool({
  name: 'get_job',
  description: "A job's state, progress and result.",
  input: v.strictObject({ job_id: JobId }),
  output: v.object({ job: AnyObject }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (args, ctx) => ({ job: store(ctx, (m, owner) => m.get(owner, args.job_id)) }),
});

export const cancelJob = defineTool({
  name: 'cancel_job',
  description: 'Request cancellation of a job.',
  input: v.strictObject({ job_id: JobId }),
  output: v.object({ job: AnyObject, outcome: v.string() }),
  capabilities: ['ontology:read'],
  mutating: never,
  changesServerState: true,
  destructive: true,
  handler: (args, ctx) => store(ctx, (m, owner) => m.cancel(owner, args.job_id)),
});

export const listJobs = defineTool({
  name: 'list_jobs',
  description: 'Your jobs in this window, newest first.',
  input: v.strictObject({
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 50),
    cursor: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(1024))),
  }),
  output: v.object({ jobs: AnyList, next_cursor: v.optional(v.string()) }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (args, ctx) => store(ctx, (m, owner) => m.list(owner, args.limit, args.cursor)),
});

const Digest = v.pipe(
  v.string(),
  v.regex(/^sha256:[0-9a-f]{64}$/, 'expected_target_digest must be sha256: followed by 64 lowercase hex digits'),
);

/** The current target's bytes, or null when nothing is there; a non-file target is refused. */
async function currentTarget(target: string): Promise<Buffer | null> {
  const info = await lstat(target).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw new ToolFailure(`Cannot inspect ${target}: ${err.message}`, 'io_error', { exported: false });
  });
  if (info === null) return null;
  if (!info.isFile())
    throw new ToolFailure(`${target} exists and is not a regular file; nothing was written`, 'target_not_file', {
      exported: false,
      path: target,
    });
  return readFile(target);
}

async function requireParent(target: string): Promise<void> {
  const parent = path.dirname(target);
  const info = await stat(parent).catch(() => null);
  if (info === null || !info.isDirectory()) {
    throw new ToolFailure(
      `The destination's parent directory ${parent} does not exist (it is never created); nothing was written`,
      'parent_not_found',
      { exported: false, path: target },
    );
  }
}

async function write(target: string, data: Uint8Array): Promise<void> {
  try {
    await writeFileAtomic(target, data);
  } catch (err) {
    throw new ToolFailure(`Cannot write ${target}: ${(err as Error).message}`, 'io_error', { exported: false });
  }
}

export const exportJobArtifact = defineTool({
  name: 'export_job_artifact',
  description: "Copy a job's artifact to a project path.",
  input: v.strictObject({
    job_id: JobId,
    artifact_id: v.pipe(v.string(), v.uuid('artifact_id must be a UUID')),
    destination: v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096), v.description('Its directory must exist.')),
    confirm: v.literal(true, 'confirm must be true'),
    overwrite: v.optional(v.boolean(), false),
    expected_target_digest: v.optional(Digest),
    policy_path: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096))),
  }),
  output: v.object({
    exported: v.boolean(),
    job_id: v.string(),
    artifact_id: v.string(),
    path: v.string(),
    sha256: v.string(),
    bytes: v.number(),
    overwritten: v.boolean(),
    backup_path: v.nullable(v.string()),
    interactive_write_confirmation: v.boolean(),
  }),
  capabilities: ['ontology:read', 'filesystem:project:read', 'filesystem:project:write'],
  mutating: always,
  destructive: true,
  summary: (args) => `export job artifact ${args.artifact_id} to ${args.destination}`,
  refusalContext: { exported: false },
  handler: async (args, ctx) => {
    const artifact = store(ctx, (m, owner) => m.artifact(owner, args.job_id, args.artifact_id));
    const res = await resolvePolicy(ctx, args.policy_path);
    const target = await authorizeLocalPath(ctx, 'export_job_artifact', args.destination, 'write', { resolution: res });
    await requireParent(target);
    const data = await artifact.read().catch((err: Error) => {
      throw new ToolFailure(`The artifact ${args.artifact_id} can no longer be read: ${err.message}`, 'unknown_artifact', {
        exported: false,
        job_id: args.job_id,
        artifact_id: args.artifact_id,
      });
    });
    const digest = sha256Digest(data);
    if (digest !== artifact.ref.sha256) {
      throw new ToolFailure(
        `The artifact ${args.artifact_id} no longer matches its recorded digest; nothing was written`,
        'artifact_corrupt',
        { exported: false, expected_sha256: artifact.ref.sha256, actual_sha256: digest },
      );
    }
    const existing = await currentTarget(target);
    if (existing !== null && !args.overwrite) {
      throw new ToolFailure(
        `${target} already exists; pass overwrite=true with its expected_target_digest to replace it`,
        'target_exists',
        { exported: false, path: target },
      );
    }
    // the digest is required only when something is there to overwrite: overwrite=true onto a new file just writes it
    if (existing !== null && args.expected_target_digest === undefined) {
      throw new ToolFailure(
        'expected_target_digest is required to overwrite: pass the sha256 digest of the file being replaced',
        'invalid_argument',
        { argument: 'expected_target_digest', exported: false, actual_target_digest: sha256Digest(existing) },
      );
    }
    if (args.expected_target_digest !== undefined) {
      const actual = existing === null ? null : sha256Digest(existing);
      if (actual !== args.expected_target_digest) {
        throw new ToolFailure(`${target} does not match expected_target_digest; nothing was written`, 'digest_mismatch', {
          exported: false,
          path: target,
          expected_target_digest: args.expected_target_digest,
          actual_target_digest: actual,
        });
      }
    }
    let backupPath: string | null = null;
    if (existing !== null) {
      backupPath = target + '.bak';
      await write(backupPath, existing);
    }
    await write(target, data);
    return {
      exported: true,
      job_id: args.job_id,
      artifact_id: args.artifact_id,
      path: target,
      sha256: digest,
      bytes: data.byteLength,
      overwritten: existing !== null,
      backup_path: backupPath,
      // the gate ran the handler only after an approval when confirm_each_write is on
      interactive_write_confirmation: ctx.settings.confirm_each_write,
    };
  },
});
