// The `semantic_diff` tool declaration (TOOLS.md 3.2); the work is src/diff/semantic-diff.ts, shared with
// the jobs subsystem.

import { semanticDiff, SemanticDiffArgs } from '../diff/semantic-diff.js';
import { documentReader } from './diff.js';
import { defineTool, never } from './tool.js';

export const semanticDiffTool = defineTool({
  name: 'semantic_diff',
  description: 'Release-oriented diff of a loaded ontology (default: the active one) against another (right) or a privately read document (right_document): header, typed entity changes, rename candidates, annotation changes, axiom groups and a compatibility class; mode=inferred|both also classifies both sides and adds module ownership and QC stage deltas.',
  input: SemanticDiffArgs,
  capabilities: ['ontology:read'],
  mutating: never,
  openWorld: true,
  handler: (args, ctx) => semanticDiff(ctx, args, ctx.signal, documentReader),
});
