// The `semantic_diff` job: semantic_diff in asserted mode between the active ontology and a project-confined
// local document, without imports and without network. The document's bytes are digested at start and must
// be unchanged when the job runs, as must the window's revision.

import * as v from 'valibot';

import { semanticDiff, DEFAULT_SEMANTIC_DIFF_TIMEOUT_MS } from '../../diff/semantic-diff.js';
import { authorizeLocalPath } from '../../policy/authorize.js';
import { urlScheme } from '../../policy/paths.js';
import { sha256Digest } from '../../util/digest.js';
import { DomainError } from '../../util/errors.js';
import { JobRunError } from '../job.js';
import { defineJobType, jobContext, PolicyPathField, requireRevision } from './job-type.js';
import { readRegularFile } from '../../util/file-read.js';

const Request = v.strictObject({
  right_document: v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096)),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000)), 50),
  policy_path: PolicyPathField,
  include_imports: v.optional(v.literal(false, 'include_imports must be false for a semantic_diff job'), false),
  network: v.optional(v.literal('deny', 'network must be deny for a semantic_diff job'), 'deny'),
});
type SemanticDiffJobRequest = v.InferOutput<typeof Request>;

async function digestOf(file: string): Promise<string> {
  try {
    return sha256Digest(await readRegularFile(file, 'document'));
  } catch (err) {
    throw new DomainError(`Cannot read right_document ${file}: ${(err as Error).message}`, 'document_not_found', { right_document: file });
  }
}

export const semanticDiffJob = defineJobType<SemanticDiffJobRequest>({
  type: 'semantic_diff',
  request: Request,
  capabilities: ['ontology:read', 'filesystem:project:read'],
  resultDiscriminator: 'semantic_diff.v1',
  runsUnderInvalidPolicy: false,
  prepare: async (ctx, request, res, documents) => {
    if (urlScheme(request.right_document) !== null) {
      throw new DomainError('right_document of a semantic_diff job must be a local path (no URL scheme)', 'invalid_argument', {
        argument: 'request.right_document',
      });
    }
    const file = await authorizeLocalPath(ctx, 'right_document', request.right_document, 'read', { resolution: res });
    const digest = await digestOf(file);
    const revision = ctx.workspace.revision;
    return {
      identity: { right_document: file, right_document_digest: digest },
      run: async (handle) => {
        requireRevision(ctx, revision);
        if ((await digestOf(file)) !== digest)
          throw new JobRunError(`${file} changed after the job was started; start it again`, 'job_inputs_changed', true);
        handle.progress('comparing', `Comparing the active ontology with ${file}`);
        const diff = await semanticDiff(
          jobContext(ctx, handle.signal),
          {
            right_document: file,
            include_imports: false,
            network: 'deny',
            limit: request.limit,
            mode: 'asserted',
            timeout_ms: DEFAULT_SEMANTIC_DIFF_TIMEOUT_MS,
          },
          handle.signal,
          documents,
        );
        requireRevision(ctx, revision);
        const artifact = await handle.artifact('semantic_diff_report', 'application/json', Buffer.from(JSON.stringify(diff) + '\n'));
        return { ...diff, report_artifact_id: artifact.artifact_id, artifacts: [artifact] };
      },
    };
  },
});
