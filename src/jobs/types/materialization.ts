// The `inference_materialization` job: materialize_inferences' preview run in the background into the
// actor's materialization store (commit it with commit_materialization from the same session), for
// ontology destinations only and with axiom limits of at most 500. The preview report is kept as a job
// artifact.

import * as v from 'valibot';
import { previewMaterialization } from '../../materialization/preview.js';
import { MaterializationRequestSchema, ONTOLOGY_DESTINATION_CAP, type MaterializationRequest } from '../../materialization/request.js';
import type { JsonObject } from '../../util/json-object.js';
import { defineJobType, jobContext, requireRevision } from './job-type.js';
import { jobReasoner } from './job-reasoner.js';

const Request = v.pipe(
  MaterializationRequestSchema,
  v.check((r) => r.destination.kind !== 'project_file', 'destination.kind must be new_ontology or active_source for a job'),
  v.check(
    (r) => r.limits.max_axioms_per_category <= ONTOLOGY_DESTINATION_CAP && r.limits.max_axioms_total <= ONTOLOGY_DESTINATION_CAP,
    `limits.max_axioms_per_category and limits.max_axioms_total must be at most ${ONTOLOGY_DESTINATION_CAP} for a job`,
  ),
);

export const materializationJob = defineJobType<MaterializationRequest>({
  type: 'inference_materialization',
  request: Request,
  capabilities: ['ontology:read', 'filesystem:project:read'],
  resultDiscriminator: 'inference_materialization.v1',
  runsUnderInvalidPolicy: false,
  prepare: async (ctx, request) => {
    const reasoner = jobReasoner(ctx);
    const revision = ctx.workspace.revision;
    return {
      identity: { reasoner: reasoner.id, reasoner_version: reasoner.version },
      run: async (handle) => {
        requireRevision(ctx, revision);
        handle.progress('materializing', `Enumerating ${request.categories.join(', ')} with ${reasoner.name}`);
        const preview = await previewMaterialization(jobContext(ctx, handle.signal), request, handle.signal);
        const stored = preview.artifact as JsonObject;
        const report = await handle.artifact('materialization_report', 'application/json', Buffer.from(JSON.stringify(preview) + '\n'));
        return {
          materialization_artifact_id: stored.artifact_id,
          materialization_artifact_fingerprint: stored.artifact_fingerprint,
          materialization_digest: stored.materialization_digest,
          axiom_count: stored.axiom_count,
          report_artifact_id: report.artifact_id,
          artifacts: [report],
          preview,
        };
      },
    };
  },
});
