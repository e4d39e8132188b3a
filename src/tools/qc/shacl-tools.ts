// shacl_validate (TOOLS.md 3.3): the imports-closure RDF of the active ontology (asserted, or with the
// classified reasoner's inferences) against a SHACL shapes graph, on the window's validation thread
// (src/shacl/engine.ts), which a timeout terminates.

import * as v from 'valibot';
import { authorizeLocalPath } from '../../policy/authorize.js';
import { urlScheme } from '../../policy/paths.js';
import { inferredDocument } from '../../sparql/inferred.js';
import { ShaclFailure, shaclEngine } from '../../shacl/engine.js';
import { workspaceDataGraph } from '../../shacl/data-graph.js';
import { shaclReport } from '../../shacl/report.js';
import { inlineShapes, readShapesFile } from '../../shacl/shapes.js';
import type { ShaclResult, ShapesDocument } from '../../shacl/protocol.js';
import { defineTool, never, ToolFailure, type ToolContext } from '../core/tool.js';
import { AnyList } from '../core/result-shapes.js';
import { unreachable } from '../../util/unreachable.js';

const TOOL = 'shacl_validate';

/** The failure a ShaclFailure stands for; `argument` is the shapes argument the caller used. */
export function shaclToolFailure(e: ShaclFailure, argument: string, timeoutMs: number): ToolFailure {
  switch (e.reason) {
    case 'shapes':
      return new ToolFailure(e.message, 'invalid_argument', { argument });
    case 'timeout':
      return new ToolFailure(e.message, 'timeout', { timeout_ms: timeoutMs, retryable: true });
    case 'cancelled':
      return new ToolFailure(e.message, 'cancelled');
    case 'data':
    case 'engine':
      return new ToolFailure(e.message, 'shacl_engine_error', { retryable: true });
    default:
      return unreachable(e.reason);
  }
}

/** The caller's shapes: inline Turtle, or an authorized local file (URLs refused). */
async function callerShapes(ctx: ToolContext, shapes: string | undefined, shapesPath: string | undefined): Promise<ShapesDocument> {
  if ((shapes === undefined) === (shapesPath === undefined)) {
    throw new ToolFailure('give exactly one of shapes (Turtle text) and shapes_path (a local file)', 'invalid_argument', {
      argument: shapes === undefined ? 'shapes' : 'shapes_path',
    });
  }
  if (shapes !== undefined) return inlineShapes(shapes, 'shapes');
  const file = shapesPath as string;
  if (urlScheme(file) !== null)
    throw new ToolFailure('shapes_path must be a local file path (URLs are refused)', 'invalid_argument', { argument: 'shapes_path' });
  return readShapesFile(await authorizeLocalPath(ctx, TOOL, file, 'read'), 'shapes_path');
}

export const shaclValidate = defineTool({
  name: TOOL,
  description: 'Validate the imports closure (optionally with inferences) against SHACL shapes.',
  input: v.strictObject({
    shapes: v.optional(v.pipe(v.string(), v.nonEmpty(), v.description('Turtle; or shapes_path.'))),
    shapes_path: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096))),
    include_inferred: v.optional(v.boolean(), false),
    // TOOLS.md gives the default only; 0 reports counts and the digest without rows.
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100_000)), 1000),
    timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3_600_000)), 120_000),
  }),
  output: v.object({
    conforms: v.boolean(),
    total_results: v.number(),
    violations: v.number(),
    warnings: v.number(),
    infos: v.number(),
    worst_severity: v.nullable(v.string()),
    identity_digest: v.string(),
    results: AnyList,
    truncated: v.optional(v.number()),
    note: v.optional(v.string()),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: async (args, ctx) => {
    const shapes = await callerShapes(ctx, args.shapes, args.shapes_path);
    const inferred = args.include_inferred ? inferredDocument(ctx.window.reasoning) : null;
    if (inferred !== null && inferred.kind !== 'ready') throw new ToolFailure(inferred.message, inferred.code);
    let results: readonly ShaclResult[];
    try {
      results = await shaclEngine().validate({
        shapes: [shapes],
        data: workspaceDataGraph(ctx.workspace, inferred),
        language: ctx.settings.label_language,
        timeoutMs: args.timeout_ms,
        signal: ctx.signal,
      });
    } catch (e) {
      if (e instanceof ShaclFailure) throw shaclToolFailure(e, args.shapes === undefined ? 'shapes_path' : 'shapes', args.timeout_ms);
      throw e;
    }
    return { ...shaclReport(results, args.limit), ...(inferred === null ? {} : { note: inferred.note }) };
  },
});
