// Batch editing tools (TOOLS.md 3.4): preview_changes (a dry run) and apply_changes (one undo unit, or a
// preflighted commit with verify=report|rollback). Both plan a batch the same way (batch-plan.ts).

import * as v from 'valibot';
import { defineTool, always, never, type ToolContext } from './tool.js';
import { appliedResult, counts, distinctNewEntities, MAX_OPERATIONS, OPERATION_JSON, operations, plan, previewRow } from './batch-plan.js';
import { applyVerified } from './verified-apply.js';
import { AnyList, AnyObject } from './common.js';

export const previewChanges = defineTool({
  name: 'preview_changes',
  description: 'Dry-run a batch of axiom additions and removals on the active ontology: per operation whether it would add, remove or be a no-op, and which entities it would introduce. Nothing is applied.',
  input: v.strictObject({ operations }),
  listedSchema: {
    type: 'object',
    properties: { operations: { type: 'array', items: OPERATION_JSON, minItems: 1, maxItems: MAX_OPERATIONS, description: 'Operand sets with optional op add|remove.' } },
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
      summary: { operations: rows.length, adds: c.adds, removes: c.removes, no_ops: c.noOps, errors: c.errors, new_entities: distinctNewEntities(rows).length },
      note: 'Preview only: nothing was applied. Operations are evaluated in order, each seeing the effect of the earlier ones.',
    };
  },
});

export const applyChanges = defineTool({
  name: 'apply_changes',
  description: 'Apply a batch of axiom additions and removals to the active ontology as one undo entry; rows that fail to build are reported and skipped. strict=true skips adds that would mint.',
  input: v.strictObject({
    operations,
    strict: v.optional(v.pipe(v.boolean(), v.description('Skip (as a row error) adds that would introduce a new entity.')), false),
    verify: v.optional(v.picklist(['none', 'report', 'rollback']), 'none'),
    timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3_600_000)), 60000),
  }),
  listedSchema: {
    type: 'object',
    properties: {
      operations: { type: 'array', items: OPERATION_JSON, minItems: 1, maxItems: MAX_OPERATIONS, description: 'Operand sets with optional op add|remove.' },
      strict: { type: 'boolean', description: 'Skip (as a row error) adds that would introduce a new entity.' },
      verify: { type: 'string', enum: ['none', 'report', 'rollback'], description: 'Preflight verification (default none).' },
      timeout_ms: { type: 'integer', minimum: 1, maximum: 3_600_000, description: 'Preflight budget in ms (default 60000).' },
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
    if (args.verify !== 'none') return applyVerified({ operations: args.operations, strict: args.strict, verify: args.verify, timeoutMs: args.timeout_ms }, ctx);
    const { rows, delta } = plan(args.operations, ctx, args.strict);
    const result = delta.length > 0 ? ctx.workspace.apply(delta) : null;
    return appliedResult(rows, result !== null && result.effective, ctx);
  },
});
