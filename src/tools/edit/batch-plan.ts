// Planning a batch of axiom operations (TOOLS.md 3.4), shared by preview_changes, apply_changes and the
// change-set tools: each operation is built with the shared operand builder and evaluated in order against
// the active ontology as the earlier operations of the batch would leave it. The plan's delta is the exact
// net list of changes a commit applies.

import * as v from 'valibot';
import type { Axiom, Entity } from '../../model/terms.js';
import type { Ontology } from '../../model/ontology.js';
import type { Change } from '../../model/changes.js';
import { buildAxiom } from '../../model/operands/builder.js';
import { AXIOM_TYPES } from '../../model/operands/schema.js';
import { ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';
import { newEntityRow, renderAxiom } from '../../report/rows.js';
import { ENTRY_LIMITS } from '../../qc/change-set-store.js';

/** The change-set limit of TOOLS.md 1.11, which every batch tool shares. */
export const MAX_OPERATIONS = ENTRY_LIMITS.operations;

const Operation = v.looseObject({
  op: v.optional(v.picklist(['add', 'remove'])),
  axiom_type: v.string(),
});

export const operations = v.pipe(v.array(Operation), v.minLength(1), v.maxLength(MAX_OPERATIONS));

/** `tools/list` schema of one operation: the operand set stays open here and is checked per row. */
export const OPERATION_JSON: JsonObject = {
  type: 'object',
  properties: {
    op: { type: 'string', enum: ['add', 'remove'], default: 'add' },
    axiom_type: { type: 'string', enum: [...AXIOM_TYPES] },
  },
  required: ['axiom_type'],
};

export type Op = 'add' | 'remove';

/** One planned row: the built axiom and what it does, or the error that kept it from building. */
export interface PlannedRow {
  readonly index: number;
  readonly op: Op;
  readonly axiom?: Axiom;
  readonly error?: string;
  /** Adds: the axiom was present before this row; removes: the axiom was present (so it is removed). */
  readonly present: boolean;
  readonly newEntities: readonly Entity[];
}

export interface Plan {
  readonly rows: readonly PlannedRow[];
  /** The net difference between the ontology before and after the batch, as changes. */
  readonly delta: readonly Change[];
}

/** Failures that belong to one row (the builder's refusals: operands, names, syntax) rather than to the whole call. */
function rowError(err: unknown): string | null {
  return err instanceof ToolFailure ? err.message : null;
}

/**
 * Evaluates the operations in order on a virtual copy of the active ontology's axiom set (only the touched
 * axioms are tracked). `strict` turns an add that would mint into a row error.
 */
export function plan(ops: readonly JsonObject[], ctx: ToolContext, strict: boolean): Plan {
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
export function distinctNewEntities(rows: readonly PlannedRow[]): Entity[] {
  const out = new Set<Entity>();
  for (const r of rows) for (const e of r.newEntities) out.add(e);
  return [...out];
}

export function previewRow(r: PlannedRow, ctx: ToolContext): JsonObject {
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
  return {
    ...base,
    applied: !r.present,
    ...(r.present ? { note: 'already present' } : {}),
    new_entities: r.newEntities.map((e) => newEntityRow(e, ctx)),
  };
}

export function counts(rows: readonly PlannedRow[]) {
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

/** apply_changes' result for a batch whose delta was applied (`effective`: it changed the ontology). */
export function appliedResult(rows: readonly PlannedRow[], effective: boolean, ctx: ToolContext): JsonObject {
  const c = counts(rows);
  return {
    operations: rows.map((r) => applyRow(r, ctx)),
    summary: {
      operations: rows.length,
      added: c.adds,
      removed: c.removes,
      no_ops: c.noOps,
      errors: c.errors,
      single_undo: effective,
      new_entities: distinctNewEntities(rows).length,
    },
  };
}

/** apply_changes' result for a batch of which nothing landed (prevented or conflicted): every row says so. */
export function unappliedResult(rows: readonly PlannedRow[], why: string, ctx: ToolContext): JsonObject {
  const c = counts(rows);
  return {
    operations: rows.map((r) => {
      if (r.axiom === undefined) return { index: r.index, op: r.op, error: r.error };
      const base = { index: r.index, op: r.op, axiom: renderAxiom(r.axiom, ctx), note: why };
      return r.op === 'remove' ? { ...base, removed: false } : { ...base, applied: false, new_entities: [] };
    }),
    summary: { operations: rows.length, added: 0, removed: 0, no_ops: c.noOps, errors: c.errors, single_undo: false, new_entities: 0 },
  };
}
