// A read-only mirror of the workspace's undo/redo stacks, built from its change events, so `undo_change
// peek` can show what the next undo would revert without reaching into the workspace's internals.

import { isUndoable, type Change } from '../model/changes.js';
import { UndoMirror } from '../model/undo-mirror.js';
import type { Workspace } from '../model/workspace.js';

export class UndoJournal {
  private readonly mirror: UndoMirror<Change[]>;

  constructor(workspace: Workspace) {
    this.mirror = new UndoMirror(workspace);
    workspace.onChange((e) =>
      this.mirror.follow(
        e,
        e.changes.filter((r) => r.effective && isUndoable(r.change)).map((r) => r.change),
      ),
    );
  }

  /** The changes the next undo reverts; null when the mirror does not know them (or is out of step with the workspace). */
  nextUndo(): readonly Change[] | null {
    return this.mirror.next('undo');
  }
}
