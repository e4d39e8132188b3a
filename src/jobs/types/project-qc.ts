// The `project_qc` job: the strict policy gate of run_project_qc, run when a worker is free, with the full
// report kept as a private artifact. Its inputs (revision and policy digest) are captured at start and
// checked when it runs: a job whose window moved on meanwhile fails `job_inputs_changed` instead of judging
// other content than the caller asked about.

import * as v from 'valibot';
import { runProjectQc } from '../../qc/project-qc.js';
import type { JsonObject } from '../../util/json-object.js';
import { JobRunError } from '../job.js';
import { defineJobType, jobContext, limitField, PolicyPathField, requireRevision } from './job-type.js';

const Request = v.strictObject({
  limit: limitField(25),
  lock_mode: v.optional(v.picklist(['ignore', 'verify', 'required']), 'ignore'),
  policy_path: PolicyPathField,
});
type ProjectQcRequest = v.InferOutput<typeof Request>;

export const projectQcJob = defineJobType<ProjectQcRequest>({
  type: 'project_qc',
  request: Request,
  capabilities: ['ontology:read', 'filesystem:project:read'],
  resultDiscriminator: 'project_qc.v1',
  runsUnderInvalidPolicy: true,
  prepare: async (ctx, request, res) => {
    const revision = ctx.workspace.revision;
    return {
      identity: {},
      run: async (handle) => {
        requireRevision(ctx, revision);
        handle.progress('validating', 'Running the project QC gate');
        const report = await runProjectQc(jobContext(ctx, handle.signal), {
          surface: 'run_project_qc',
          policyPath: request.policy_path,
          limit: request.limit,
          lockMode: request.lock_mode,
        });
        if (report.policy_digest !== res.digest) {
          throw new JobRunError(
            'The project policy changed between the start of the job and its run; start it again',
            'job_inputs_changed',
            true,
          );
        }
        handle.progress('reporting', 'Keeping the report');
        const artifact = await handle.artifact('qc_report', 'application/json', Buffer.from(JSON.stringify(report) + '\n'));
        const result: JsonObject = { ...report, report_artifact_id: artifact.artifact_id, artifacts: [artifact] };
        return result;
      },
    };
  },
});
