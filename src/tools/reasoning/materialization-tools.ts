// Materialization tools (TOOLS.md 3.8): `materialize_inferences` previews inferred axioms into a private
// artifact (src/materialization/preview.ts); `commit_materialization` publishes one after re-verifying it
// (src/materialization/commit.ts).

import * as v from 'valibot';
import { always, defineTool, never } from '../core/tool.js';
import { previewMaterialization } from '../../materialization/preview.js';
import { MaterializationRequestSchema } from '../../materialization/request.js';
import { commitMaterialization } from '../../materialization/commit.js';

export const materializeInferences = defineTool({
  name: 'materialize_inferences',
  description: 'Preview inferred axioms by category for commit_materialization; changes nothing.',
  input: MaterializationRequestSchema,
  capabilities: ['ontology:read', 'filesystem:project:read'],
  mutating: never,
  handler: (args, ctx) => previewMaterialization(ctx, args, ctx.signal),
});

const Digest = v.pipe(v.string(), v.regex(/^sha256:[0-9a-f]{64}$/, 'must be sha256: followed by 64 lowercase hex digits'));

export const commitMaterializationTool = defineTool({
  name: 'commit_materialization',
  description: 'Publish a materialize_inferences preview: into the ontology, a new ontology or a file.',
  input: v.strictObject({
    artifact_id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9._-]{1,128}$/, 'must match [A-Za-z0-9._-]{1,128}')),
    artifact_fingerprint: Digest,
    confirm: v.literal(true),
    allow_source: v.optional(v.pipe(v.boolean(), v.description('Needed to commit into the active ontology.'))),
    collision_mode: v.optional(v.picklist(['reject', 'merge', 'replace']), 'reject'),
    overwrite: v.optional(v.pipe(v.boolean(), v.description('Needs expected_target_digest.')), false),
    expected_target_digest: v.optional(Digest),
    policy_path: v.optional(v.pipe(v.string(), v.nonEmpty())),
  }),
  capabilities: ['ontology:admin', 'ontology:curate', 'filesystem:project:read'],
  mutating: always,
  destructive: true,
  summary: (args) => `commit_materialization ${args.artifact_id}`,
  refusalContext: { committed: false },
  handler: (args, ctx) => commitMaterialization(ctx, args),
});
