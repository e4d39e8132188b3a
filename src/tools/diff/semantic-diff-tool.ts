// The `semantic_diff` tool declaration (TOOLS.md 3.2); the work is src/diff/semantic-diff.ts, shared with
// the jobs subsystem.

import { semanticDiff, SemanticDiffArgs } from '../../diff/semantic-diff.js';
import { documentReader } from './ontology-diff.js';
import { defineTool, never } from '../core/tool.js';

export const semanticDiffTool = defineTool({
  name: 'semantic_diff',
  description: 'Release diff (entities, renames, compatibility) against right or right_document; mode=inferred classifies.',
  input: SemanticDiffArgs,
  capabilities: ['ontology:read'],
  mutating: never,
  openWorld: true,
  handler: (args, ctx) => semanticDiff(ctx, args, ctx.signal, documentReader),
});
