// History tools (TOOLS.md 3.10): undo_change and redo_change over the window's undo stack.

import * as v from 'valibot';
import type { Change } from '../../model/changes.js';
import type { Workspace } from '../../model/workspace.js';
import { always, defineTool, type ToolContext } from '../core/tool.js';
import { renderAxiom } from '../../report/rows.js';

const PEEK_SAMPLE = 20;

const StackState = { undo_depth: v.number(), can_undo: v.boolean(), can_redo: v.boolean() };

function stackState(ws: Workspace): { undo_depth: number; can_undo: boolean; can_redo: boolean } {
  return { undo_depth: ws.undoDepth, can_undo: ws.undoDepth > 0, can_redo: ws.redoDepth > 0 };
}

/** What the next undo would do (undo_change peek=true). */
const NextUndoOutput = v.object({
  changes: v.number(),
  sample: v.array(v.object({ op: v.string(), axiom: v.string() })),
  non_axiom_changes: v.optional(v.number()),
});

type StackStateRow = ReturnType<typeof stackState>;

function peek(ctx: ToolContext): StackStateRow & { peek: boolean; next_undo?: v.InferOutput<typeof NextUndoOutput>; note: string } {
  const ws = ctx.workspace;
  const next = ws.undoDepth > 0 ? ctx.window.undo.nextUndo() : null;
  const axiomChanges =
    next?.filter((c): c is Extract<Change, { kind: 'AddAxiom' | 'RemoveAxiom' }> => c.kind === 'AddAxiom' || c.kind === 'RemoveAxiom') ??
    [];
  const others = next === null ? 0 : next.length - axiomChanges.length;
  return {
    peek: true,
    ...stackState(ws),
    ...(next === null
      ? {}
      : {
          next_undo: {
            changes: next.length,
            sample: axiomChanges
              .slice(0, PEEK_SAMPLE)
              .map((c) => ({ op: c.kind === 'AddAxiom' ? 'add' : 'remove', axiom: renderAxiom(c.axiom, ctx) })),
            ...(others > 0 ? { non_axiom_changes: others } : {}),
          },
        }),
    note: ws.undoDepth === 0 ? 'Nothing to undo.' : 'Peek only: nothing was undone. Undo reverts this unit as a whole.',
  };
}

/** What an undo or redo reports besides `undone`/`redone`. */
const StepCounts = { message: v.string(), axioms_before: v.number(), axioms_after: v.number(), net_axiom_change: v.number() };

/** Runs an undo or redo and reports the axiom count of the active ontology before and after. */
function step(
  ctx: ToolContext,
  direction: 'undo' | 'redo',
): StackStateRow & { message: string; axioms_before: number; axioms_after: number; net_axiom_change: number } {
  const ws = ctx.workspace;
  const before = ws.active.axiomCount;
  if (direction === 'undo') ws.undo();
  else ws.redo();
  const after = ws.active.axiomCount;
  return {
    message: direction === 'undo' ? 'Undid the last change.' : 'Redid the last undone change.',
    axioms_before: before,
    axioms_after: after,
    net_axiom_change: after - before,
    ...stackState(ws),
  };
}

export const undoChange = defineTool({
  name: 'undo_change',
  description: "Undo this window's last change; peek=true only reports it.",
  input: v.strictObject({ peek: v.optional(v.boolean(), false) }),
  // an undo reports the step, a peek what the next undo would do: both report the stack
  output: v.object({
    ...StackState,
    undone: v.optional(v.boolean()),
    ...v.partial(v.object(StepCounts)).entries,
    dirty: v.optional(v.boolean()),
    dirty_note: v.optional(v.string()),
    peek: v.optional(v.boolean()),
    next_undo: v.optional(NextUndoOutput),
    note: v.optional(v.string()),
  }),
  capabilities: ['ontology:curate'],
  mutating: (args) => args.peek !== true,
  rehearse: true,
  destructive: true,
  summary: () => 'undo_change',
  handler: (args, ctx) => {
    if (args.peek) return peek(ctx);
    const result = step(ctx, 'undo');
    const dirty = ctx.workspace.isDirty(ctx.workspace.active);
    return { undone: true, ...result, dirty, dirty_note: 'The dirty flag is cleared only by a save; it stays set after an undo.' };
  },
});

export const redoChange = defineTool({
  name: 'redo_change',
  description: 'Redo the last undone change.',
  input: v.strictObject({}),
  output: v.object({ redone: v.boolean(), ...StepCounts, ...StackState }),
  capabilities: ['ontology:curate'],
  mutating: always,
  rehearse: true,
  destructive: true,
  summary: () => 'redo_change',
  handler: (_args, ctx) => ({ redone: true, ...step(ctx, 'redo') }),
});
