// Batch editing tools (TOOLS.md 3.4): preview_changes (a dry run) and apply_changes (one undo unit, or a
// preflighted commit with verify=report|rollback). Both plan a batch the same way (batch-plan.ts).

import * as v from 'valibot';
import { defineTool, always, never, type ToolContext } from '../core/tool.js';
import { appliedResult, counts, distinctNewEntities, MAX_OPERATIONS, OPERATION_JSON, operations, plan, previewRow } from './batch-plan.js';
import { applyVerified } from './verified-apply.js';
import { AnyList, AnyObject } from '../core/result-shapes.js';

export const previewChanges = defineTool({
  name: 'preview_changes',
  description: 'Dry-run a batch of axiom additions and removals; nothing is applied.',
  input: v.strictObject({ operations }),
  listedSchema: {
    type: 'object',
    properties: {
      operations: {
        type: 'array',
        items: OPERATION_JSON,
        minItems: 1,
        maxItems: MAX_OPERATIONS,
        description: 'add_axiom operands plus op.',
      },
    },
    required: ['operations'],
    additionalProperties: false,
  },
  output: v.object({ operations: AnyList, summary: AnyObject, note: v.string() }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (args, ctx) => {
    const { rows } = plan(args.operations, ctx, false);
    const c = counts(rows);
    return {
      operations: rows.map((r) => previewRow(r, ctx)),
      summary: {
        operations: rows.length,
        adds: c.adds,
        removes: c.removes,
        no_ops: c.noOps,
        errors: c.errors,
        new_entities: distinctNewEntities(rows).length,
      },
      note: 'Preview only: nothing was applied. Operations are evaluated in order, each seeing the effect of the earlier ones.',
    };
  },
});

export const applyChanges = defineTool({
  name: 'apply_changes',
  description: 'Apply a batch of axiom additions and removals as one undo entry; failing rows are skipped.',
  input: v.strictObject({
    operations,
    strict: v.optional(v.boolean(), false),
    verify: v.optional(v.picklist(['none', 'report', 'rollback']), 'none'),
    timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3_600_000)), 60000),
  }),
  listedSchema: {
    type: 'object',
    properties: {
      operations: {
        type: 'array',
        items: OPERATION_JSON,
        minItems: 1,
        maxItems: MAX_OPERATIONS,
        description: 'add_axiom operands plus op.',
      },
      strict: { type: 'boolean', description: 'Skip adds that would mint (row error).' },
      verify: { type: 'string', enum: ['none', 'report', 'rollback'] },
      timeout_ms: { type: 'integer', minimum: 1, maximum: 3_600_000 },
    },
    required: ['operations'],
    additionalProperties: false,
  },
  capabilities: ['ontology:curate'],
  mutating: always,
  rehearse: true,
  destructive: true,
  summary: (args) => `apply_changes: ${args.operations.length} operation${args.operations.length === 1 ? '' : 's'}`,
  handler: (args, ctx: ToolContext) => {
    if (args.verify !== 'none')
      return applyVerified({ operations: args.operations, strict: args.strict, verify: args.verify, timeoutMs: args.timeout_ms }, ctx);
    const { rows, delta } = plan(args.operations, ctx, args.strict);
    const result = delta.length > 0 ? ctx.workspace.apply(delta) : null;
    return appliedResult(rows, result !== null && result.effective, ctx);
  },
});
