// Batch editing tools (TOOLS.md 3.4): preview_changes (a dry run) and apply_changes (one undo unit).
// Both plan a batch the same way: each operation is built with the shared operand builder and evaluated
// in order against the active ontology as the earlier operations of the batch would leave it.

import * as v from 'valibot';
import type { Axiom, Entity } from '../model/terms.js';
import type { Ontology } from '../model/ontology.js';
import type { Change } from '../model/changes.js';
import { buildAxiom, OperandError } from '../model/operands/builder.js';
import { AXIOM_TYPES } from '../model/operands/schema.js';
import { NameError } from '../model/names.js';
import { ParseError } from '../model/formats/errors.js';
import { defineTool, always, never, ToolFailure, type JsonObject, type ToolContext } from './tool.js';
import { newEntityRow, renderAxiom } from './common.js';

/** The change-set limit of TOOLS.md 1.11. */
const MAX_OPERATIONS = 2000;

const Operation = v.looseObject({
  op: v.optional(v.picklist(['add', 'remove'])),
  axiom_type: v.string(),
});

const operations = v.pipe(v.array(Operation), v.minLength(1), v.maxLength(MAX_OPERATIONS),
  v.description('Operand sets (axiom_type plus its operands, TOOLS.md 2) with optional op add|remove (default add).'));

/** `tools/list` schema of one operation: the operand set stays open here and is checked per row. */
const OPERATION_JSON: JsonObject = {
  type: 'object',
  properties: {
    op: { type: 'string', enum: ['add', 'remove'], description: 'add (default) or remove.' },
    axiom_type: { type: 'string', enum: [...AXIOM_TYPES], description: 'The kind of axiom; it decides which operands are required.' },
  },
  required: ['axiom_type'],
};

type Op = 'add' | 'remove';

/** One planned row: the built axiom and what it does, or the error that kept it from building. */
interface PlannedRow {
  readonly index: number;
  readonly op: Op;
  readonly axiom?: Axiom;
  readonly error?: string;
  /** Adds: the axiom was present before this row; removes: the axiom was present (so it is removed). */
  readonly present: boolean;
  readonly newEntities: readonly Entity[];
}

interface Plan {
  readonly rows: readonly PlannedRow[];
  /** The net difference between the ontology before and after the batch, as changes. */
  readonly delta: readonly Change[];
}

/** Failures that belong to one row (operands, names, syntax) rather than to the whole call. */
function rowError(err: unknown): string | null {
  if (err instanceof OperandError || err instanceof NameError || err instanceof ParseError || err instanceof ToolFailure) return err.message;
  return null;
}

/**
 * Evaluates the operations in order on a virtual copy of the active ontology's axiom set (only the touched
 * axioms are tracked). `strict` turns an add that would mint into a row error.
 */
function plan(ops: readonly JsonObject[], ctx: ToolContext, strict: boolean): Plan {
  const o: Ontology = ctx.workspace.active;
  const state = new Map<Axiom, boolean>();
  const isPresent = (a: Axiom) => state.get(a) ?? o.has(a);
  const rows: PlannedRow[] = ops.map((raw, index) => {
    const { op: opArg, ...operands } = raw;
    const op: Op = opArg === 'remove' ? 'remove' : 'add';
    let built;
    try {
      built = buildAxiom(operands, ctx.resolver, { strict: strict && op === 'add' });
    } catch (err) {
      const message = rowError(err);
      if (message === null) throw err;
      return { index, op, error: message, present: false, newEntities: [] };
    }
    const present = isPresent(built.axiom);
    if (op === 'remove') {
      state.set(built.axiom, false);
      return { index, op, axiom: built.axiom, present, newEntities: [] };
    }
    for (const d of [...built.declarations, ...built.labels]) state.set(d, true);
    state.set(built.axiom, true);
    return { index, op, axiom: built.axiom, present, newEntities: built.newEntities };
  });
  const delta: Change[] = [];
  for (const [axiom, now] of state) {
    if (now === o.has(axiom)) continue;
    delta.push({ kind: now ? 'AddAxiom' : 'RemoveAxiom', ontology: o, axiom });
  }
  return { rows, delta };
}

/** Distinct new entities over the rows that built. */
function distinctNewEntities(rows: readonly PlannedRow[]): Entity[] {
  const out = new Set<Entity>();
  for (const r of rows) for (const e of r.newEntities) out.add(e);
  return [...out];
}

function previewRow(r: PlannedRow, ctx: ToolContext): JsonObject {
  if (r.axiom === undefined) return { index: r.index, op: r.op, error: r.error };
  const base = { index: r.index, op: r.op, axiom: renderAxiom(r.axiom, ctx) };
  if (r.op === 'remove') return { ...base, present: r.present, effect: r.present ? 'would remove' : 'no-op (not present)' };
  return {
    ...base,
    already_present: r.present,
    new_entities: r.newEntities.map((e) => newEntityRow(e, ctx)),
    effect: r.present ? 'no-op (already present)' : 'would add',
  };
}

function applyRow(r: PlannedRow, ctx: ToolContext): JsonObject {
  if (r.axiom === undefined) return { index: r.index, op: r.op, error: r.error };
  const base = { index: r.index, op: r.op, axiom: renderAxiom(r.axiom, ctx) };
  if (r.op === 'remove') return { ...base, removed: r.present, ...(r.present ? {} : { note: 'not present' }) };
  return { ...base, applied: !r.present, ...(r.present ? { note: 'already present' } : {}), new_entities: r.newEntities.map((e) => newEntityRow(e, ctx)) };
}

function counts(rows: readonly PlannedRow[]) {
  let adds = 0;
  let removes = 0;
  let noOps = 0;
  let errors = 0;
  for (const r of rows) {
    if (r.axiom === undefined) errors++;
    else if (r.op === 'add' ? r.present : !r.present) noOps++;
    else if (r.op === 'add') adds++;
    else removes++;
  }
  return { adds, removes, noOps, errors };
}

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
  capabilities: ['ontology:read'],
  mutating: never,
  undoable: false,
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
  undoable: true,
  summary: (args) => `apply_changes: ${args.operations.length} operation${args.operations.length === 1 ? '' : 's'}`,
  handler: (args, ctx) => {
    if (args.verify !== 'none') {
      // No reasoner can be selected in this build and no project policy is interpreted, so the preflight
      // gate has nothing to run: refuse before any change rather than report an unverified verdict.
      throw new ToolFailure(`apply_changes verify=${args.verify} needs a selected reasoner or a project policy, and neither is available; nothing was applied (use verify=none)`,
        'verification_unavailable', { effects_prevented: true, prevented_before_apply: true });
    }
    const { rows, delta } = plan(args.operations, ctx, args.strict);
    const result = delta.length > 0 ? ctx.workspace.apply(delta) : null;
    const c = counts(rows);
    return {
      operations: rows.map((r) => applyRow(r, ctx)),
      summary: {
        operations: rows.length, added: c.adds, removed: c.removes, no_ops: c.noOps, errors: c.errors,
        single_undo: result !== null && result.effective, new_entities: distinctNewEntities(rows).length,
      },
    };
  },
});
