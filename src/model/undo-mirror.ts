// A mirror of the workspace's undo and redo stacks built from its change events: one unit of the caller's
// choosing per undo unit (the changes for `undo_change peek`, the journal entries for the change journal's
// undo/redo links), without reaching into the workspace's internals.

import { isUndoable } from './changes.js';
import type { ChangeEvent, Workspace } from './workspace.js';

/** Units kept below the top; deeper ones are forgotten (null) so an endless session does not grow memory. */
export const UNITS_KEPT = 1024;

export type UndoStack = 'undo' | 'redo';

export class UndoMirror<T> {
  /** Null marks a unit the mirror does not know (forgotten by the cap, or the mirror was out of step). */
  private undoUnits: (T | null)[] = [];
  private redoUnits: (T | null)[] = [];

  constructor(
    private readonly ws: Workspace,
    private readonly kept = UNITS_KEPT,
  ) {}

  /** The unit the next undo (or redo) takes; null when there is none, it is not known, or the mirror is out of step. */
  next(stack: UndoStack): T | null {
    return this.topIfDepths(stack, this.ws.undoDepth, this.ws.redoDepth);
  }

  /**
   * For a change listener that runs before `follow`, during an undo (or redo): the unit it moves. The
   * workspace's stacks have already moved by one unit, the mirror's not yet.
   */
  moving(stack: UndoStack): T | null {
    const shift = stack === 'undo' ? 1 : -1;
    return this.topIfDepths(stack, this.ws.undoDepth + shift, this.ws.redoDepth - shift);
  }

  private topIfDepths(stack: UndoStack, undoDepth: number, redoDepth: number): T | null {
    if (this.undoUnits.length !== undoDepth || this.redoUnits.length !== redoDepth) return null;
    return (stack === 'undo' ? this.undoUnits : this.redoUnits).at(-1) ?? null;
  }

  /** Follows a committed batch; an apply with an undoable effect, and a redo, push `unit`. */
  follow(e: ChangeEvent, unit: T): void {
    let pushed = false;
    if (e.cause === 'apply') {
      if (e.changes.some((r) => r.effective && isUndoable(r.change))) {
        this.push(unit);
        this.redoUnits = [];
        pushed = true;
      }
    } else if (e.cause === 'undo') {
      const top = this.undoUnits.pop();
      if (top !== undefined) this.redoUnits.push(top);
    } else {
      this.redoUnits.pop();
      this.push(unit);
      pushed = true;
    }
    if (this.undoUnits.length !== this.ws.undoDepth || this.redoUnits.length !== this.ws.redoDepth) this.resync(pushed ? unit : null);
  }

  private push(unit: T): void {
    this.undoUnits.push(unit);
    const forgotten = this.undoUnits.length - this.kept - 1;
    if (forgotten >= 0) this.undoUnits[forgotten] = null;
  }

  /** Out of step (an unloaded ontology took its units along): every unit below the one just pushed becomes unknown. */
  private resync(top: T | null): void {
    this.undoUnits = new Array<T | null>(this.ws.undoDepth).fill(null);
    if (top !== null && this.undoUnits.length > 0) this.undoUnits[this.undoUnits.length - 1] = top;
    this.redoUnits = new Array<T | null>(this.ws.redoDepth).fill(null);
  }
}
