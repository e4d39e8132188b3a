// A read-only mirror of the workspace's undo/redo stacks, built from its change events, so `undo_change
// peek` can show what the next undo would revert without reaching into the workspace's internals.

import { isUndoable, type Change } from '../model/changes.js';
import type { ChangeEvent, Workspace } from '../model/workspace.js';

export class UndoJournal {
  private undo: Change[][] = [];
  private redo: Change[][] = [];

  constructor(private readonly workspace: Workspace) {
    workspace.onChange((e) => this.follow(e));
  }

  /** The changes the next undo reverts; null when the mirror is out of step with the workspace. */
  nextUndo(): readonly Change[] | null {
    if (this.undo.length !== this.workspace.undoDepth) return null;
    return this.undo.at(-1) ?? null;
  }

  private follow(e: ChangeEvent): void {
    const unit = e.changes.filter((r) => r.effective && isUndoable(r.change)).map((r) => r.change);
    if (e.cause === 'apply') {
      if (unit.length === 0) return;
      this.undo.push(unit);
      this.redo = [];
    } else if (e.cause === 'undo') {
      const top = this.undo.pop();
      if (top !== undefined) this.redo.push(top);
    } else {
      const top = this.redo.pop();
      if (top !== undefined) this.undo.push(top);
    }
  }
}
