// The journal behind a narrow interface: append a batch, read since, mark saved, compact. The embedded
// default is files in the private directory (file-store.ts); a shared store can implement the same.

import type { ChangeEntry, JournalRecord, SaveMarker } from './records.js';

/** A document's journal as read: its change entries after `since` and where its saves and recovery stand. */
export interface JournalState {
  readonly document: string;
  /** Change entries with a greater seq than asked for, in seq order (history and unsaved alike). */
  readonly entries: readonly ChangeEntry[];
  readonly lastSeq: number;
  readonly saved: SaveMarker | null;
  /** Entries set aside for the recovery tool and not yet resolved: seq in (from, upto]. */
  readonly aside: { readonly from: number; readonly upto: number; readonly time: string } | null;
}

export interface ChangeStore {
  /**
   * Resolves once the records are durable; appends made while a write is under way share the next one.
   * A change entry with seq 0 gets the next seq of the document's journal, whoever else appends to it
   * (another window of the same document); `numbered` sees each entry once it has its seq, before it is written.
   */
  append(document: string, records: readonly JournalRecord[], numbered?: (entry: ChangeEntry) => void): Promise<void>;
  readSince(document: string, since: number): Promise<JournalState>;
  /** The document was saved with every entry up to the marker's seq: they move to the history. */
  markSaved(document: string, marker: SaveMarker): Promise<void>;
  /** Applies the history's retention (age, size). */
  compact(document: string, now: Date): Promise<void>;
  /** Documents whose journal holds unsaved or set-aside entries. */
  unsavedDocuments(): Promise<string[]>;
}

/** Entries after the last save that were not set aside: what a restart replays. */
export function unsavedEntries(state: JournalState): ChangeEntry[] {
  const after = Math.max(state.saved?.seq ?? 0, state.aside?.upto ?? 0);
  return state.entries.filter((e) => e.seq > after);
}

export function asideEntries(state: JournalState): ChangeEntry[] {
  const aside = state.aside;
  return aside === null ? [] : state.entries.filter((e) => e.seq > aside.from && e.seq <= aside.upto);
}
