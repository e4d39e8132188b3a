// A window's change recorder: follows the workspace's committed batches (edits, undo, redo, header
// changes, merges, materialization commits) and appends one entry per batch and document to the store,
// attributed to the tool call that made it; records saves; at the window's start replays what was not
// saved, undo/redo stacks included, when the document on disk is still the one the journal started
// from, and otherwise sets those entries aside for the recovery tool.

import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Principal } from '../auth/principal.js';
import type { ChangeResult } from '../model/changes.js';
import type { Ontology } from '../model/ontology.js';
import type { ChangeEvent, Workspace } from '../model/workspace.js';
import { documentFingerprint } from '../model/fingerprint.js';
import { UndoMirror } from '../model/undo-mirror.js';
import { signature } from '../model/walk.js';
import { BlankNodes } from './blank-nodes.js';
import { loadChange, principalRecord, storeChange, type ChangeEntry, type PrincipalRecord, type StoredChange } from './records.js';
import { asideEntries, unsavedEntries, type ChangeStore, type JournalState } from './store.js';
import { isoNow } from '../util/iso-now.js';
import { CallSlot } from '../util/call-slot.js';

/** The tool call a batch belongs to; `durable` collects the appends the call must wait for. */
export interface CallRecord {
  readonly principal: Principal;
  readonly sessionId: string | null;
  readonly tool: string;
  readonly client: { readonly name: string; readonly version: string } | null;
  /** Set by revert_changes before it applies: the entries it reverts. */
  reverts?: readonly number[];
  durable?: Promise<unknown>;
}

/** Who last changed an entity, for get_entity and get_entity_context. */
export interface LastChange {
  readonly seq: number;
  readonly time: string;
  readonly document: string;
  readonly tool: string | null;
  readonly principal: PrincipalRecord | null;
  readonly client: { readonly name: string; readonly version: string } | null;
  readonly session_id: string | null;
}

export interface RecoveryNotice {
  readonly document: string;
  readonly count: number;
  readonly from: string;
  readonly message: string;
}

interface Track {
  /** The last seq this window's entries (or the journal when it was read) reached. */
  lastSeq: number;
}

/** An entry's document and where its seq lands once the store numbered it: all an undo/redo link needs of it. */
interface Numbered {
  readonly document: string;
  seq: number;
}

/**
 * The entries of one undo unit, one per document: most often one, held without a collection. Only their
 * seqs are kept: the mirror holds up to 1024 units, and what it holds outlives the young generation and is
 * copied into the old one (whole entries, or a Map per unit, would be).
 */
type Unit = Numbered | readonly Numbered[];

function unitEntry(unit: Unit, document: string): Numbered | undefined {
  if ('seq' in unit) return unit.document === document ? unit : undefined;
  return unit.find((n) => n.document === document);
}

/** The undo or redo entry's link to the unit it moves. */
interface Link {
  readonly field: 'undoes' | 'redoes';
  readonly target: Numbered;
}

function isThenable(x: unknown): x is PromiseLike<unknown> {
  return typeof x === 'object' && x !== null && typeof (x as { then?: unknown }).then === 'function';
}

/** An absolute local path: the documents the journal can reopen. */
export function journalDocument(o: Ontology): string | null {
  const d = o.documentIri;
  return d !== null && path.isAbsolute(d) ? d : null;
}

export class ChangeRecorder {
  private readonly tracks = new Map<string, Track>();
  private readonly fingerprints = new WeakMap<Ontology, string>();
  /** The document each ontology was last journaled under (a save to another path moves it). */
  private readonly documentOf = new WeakMap<Ontology, string>();
  /** The journal entries of the workspace's undo units, for the links of undo and redo entries. */
  private readonly units: UndoMirror<Unit>;
  private replayUnit: Unit | null = null;
  private readonly blame = new Map<string, LastChange>();
  private readonly notices = new Map<string, RecoveryNotice>();
  private lastWrite: Promise<unknown> = Promise.resolve();
  /** The write `lastWrite` last took in. */
  private lastSettled: Promise<unknown> | null = null;
  /** The call whose handler is running synchronously now. */
  private current: CallRecord | undefined;
  /**
   * Carries the call across the awaits of handlers that commit after one: a slot of the thread's one call
   * context (util/call-slot.ts), which costs a hook on every promise while it runs, so it runs only for
   * tools seen to return a promise (and for a tool's first call).
   */
  private readonly scope = new CallSlot<CallRecord>('journal call');
  private readonly syncTools = new Set<string>();
  private readonly asyncTools = new Set<string>();
  /** Batch ids: unique to this recorder (another window's or a restart's never match), cheaper than a UUID each. */
  private readonly batchPrefix = randomUUID() + '.';
  private batches = 0;
  recovered = 0;
  /** Replayed entries whose result did not have the recorded fingerprint. */
  replayMismatches = 0;

  constructor(
    private readonly ws: Workspace,
    readonly store: ChangeStore,
  ) {
    this.units = new UndoMirror(ws);
  }

  /** The tool call a commit made now belongs to. */
  currentCall(): CallRecord | undefined {
    return this.current ?? this.scope.get();
  }

  /** Runs a tool's handler as `call`: the batches it commits are attributed to the call. */
  attribute<T>(call: CallRecord, handler: () => T): T {
    if (this.syncTools.has(call.tool) && !this.asyncTools.has(call.tool)) return this.runSync(call, handler);
    const result = this.scope.run(call, () => this.runSync(call, handler));
    if (!isThenable(result)) this.syncTools.add(call.tool);
    return result;
  }

  private runSync<T>(call: CallRecord, handler: () => T): T {
    const previous = this.current;
    this.current = call;
    try {
      const result = handler();
      if (isThenable(result)) this.asyncTools.add(call.tool);
      return result;
    } finally {
      this.current = previous;
    }
  }

  /** Reads the journal of every loaded document, replays or sets aside what is unsaved, then follows the workspace. */
  async open(now: Date = new Date()): Promise<void> {
    const replay: { entry: ChangeEntry; ontology: Ontology }[] = [];
    let lastRevision = 0;
    for (const o of this.ws.ontologies) {
      const document = journalDocument(o);
      if (document === null || this.tracks.has(document)) continue;
      this.fingerprints.set(o, documentFingerprint(o));
      this.documentOf.set(o, document);
      const state = await this.store.readSince(document, 0);
      this.tracks.set(document, { lastSeq: state.lastSeq });
      for (const e of state.entries) {
        this.noteBlame(e);
        lastRevision = Math.max(lastRevision, e.revision_after);
      }
      this.noteAside(state);
      const unsaved = unsavedEntries(state);
      const [first] = unsaved;
      const last = unsaved.at(-1);
      if (first === undefined || last === undefined) continue;
      if (first.fingerprint_before === this.fingerprints.get(o)) {
        for (const entry of unsaved) replay.push({ entry, ontology: o });
      } else {
        await this.store.append(document, [{ type: 'aside', from: first.seq - 1, upto: last.seq, time: now.toISOString() }]);
        this.noteAside(await this.store.readSince(document, 0));
      }
    }
    // revisions go on from the journaled ones, so since_revision of get_change_history holds across restarts
    this.ws.continueRevisionsAfter(lastRevision);
    this.ws.onChange((e) => this.follow(e));
    this.ws.onSaved((o) => this.saved(o));
    const failed = this.replay(replay);
    // what could not be replayed waits for the recovery tool, like entries that did not fit the file
    for (const document of new Set(failed.map((f) => f.document))) {
      const seqs = failed.filter((f) => f.document === document).map((f) => f.seq);
      await this.store.append(document, [{ type: 'aside', from: Math.min(...seqs) - 1, upto: Math.max(...seqs), time: now.toISOString() }]);
      this.noteAside(await this.store.readSince(document, 0));
    }
  }

  /** Before every commit: the fingerprint of an ontology loaded since is taken while it is still unchanged. */
  prepare(): void {
    for (const o of this.ws.ontologies) if (!this.fingerprints.has(o)) this.fingerprints.set(o, documentFingerprint(o));
  }

  /** What the calls made so far still have to write. */
  durable(): Promise<unknown> {
    return this.lastWrite;
  }

  lastChange(iri: string): LastChange | null {
    return this.blame.get(iri) ?? null;
  }

  get recoveryNotices(): readonly RecoveryNotice[] {
    return [...this.notices.values()];
  }

  notice(document: string): RecoveryNotice | null {
    return this.notices.get(document) ?? null;
  }

  /** Every document this window has journaled. */
  get documents(): readonly string[] {
    return [...this.tracks.keys()];
  }

  /** The set-aside entries of a document were applied or discarded. */
  async resolve(document: string, state: JournalState, action: 'applied' | 'discarded'): Promise<void> {
    if (state.aside === null) return;
    await this.store.append(document, [{ type: 'resolved', upto: state.aside.upto, time: new Date().toISOString(), action }]);
    this.notices.delete(document);
  }

  private noteAside(state: JournalState): void {
    const aside = asideEntries(state);
    const [first] = aside;
    if (first === undefined) {
      this.notices.delete(state.document);
      return;
    }
    const from = first.time;
    this.notices.set(state.document, {
      document: state.document,
      count: aside.length,
      from,
      message: `${aside.length} unsaved change${aside.length === 1 ? '' : 's'} from ${from} could not be applied automatically (the document changed on disk); recover_unsaved_changes inspects, applies or discards them`,
    });
  }

  /**
   * Re-applies unsaved entries in their order; an undo or redo replays as one when the stacks agree. Stops at
   * the first batch that cannot be applied and returns it with everything after it.
   */
  private replay(items: readonly { entry: ChangeEntry; ontology: Ontology }[]): ChangeEntry[] {
    const blanks = new BlankNodes();
    const sorted = [...items].sort((a, b) =>
      a.entry.time < b.entry.time ? -1 : a.entry.time > b.entry.time ? 1 : a.entry.seq - b.entry.seq,
    );
    for (let i = 0; i < sorted.length;) {
      const batch = sorted[i]?.entry.batch;
      let j = i + 1;
      while (j < sorted.length && sorted[j]?.entry.batch === batch) j++;
      const group = sorted.slice(i, j);
      i = j;
      const unit: Unit = group.map((g) => g.entry);
      this.replayUnit = unit;
      try {
        this.replayGroup(group, blanks);
      } catch {
        return sorted.slice(i - group.length).map((x) => x.entry);
      } finally {
        this.replayUnit = null;
      }
      for (const g of group) {
        if (documentFingerprint(g.ontology) !== g.entry.fingerprint_after) this.replayMismatches++;
        this.fingerprints.set(g.ontology, g.entry.fingerprint_after);
      }
      this.recovered += group.length;
    }
    return [];
  }

  private replayGroup(group: readonly { entry: ChangeEntry; ontology: Ontology }[], blanks: BlankNodes): void {
    // a group holds one batch's entries, at least one
    const cause = group[0]!.entry.cause;
    const matches = (stack: 'undo' | 'redo', link: 'undoes' | 'redoes') => {
      const top = this.units.next(stack);
      return top !== null && group.every((g) => unitEntry(top, g.entry.document)?.seq === g.entry[link]);
    };
    if (cause === 'undo' && matches('undo', 'undoes')) {
      this.ws.undo();
      return;
    }
    if (cause === 'redo' && matches('redo', 'redoes')) {
      this.ws.redo();
      return;
    }
    // an undo or redo whose unit was saved before the crash is replayed as the change it made
    this.ws.apply(group.flatMap((g) => g.entry.changes.map((s) => loadChange(s, g.ontology, blanks))));
  }

  private follow(e: ChangeEvent): void {
    this.units.follow(e, this.replayUnit ?? this.record(e));
  }

  /** Builds and appends the entries of a live batch; returns its unit for the undo/redo mirror. */
  private record(e: ChangeEvent): Unit {
    const call = this.currentCall();
    const byDocument = new Map<Ontology, ChangeResult[]>();
    for (const r of e.changes) {
      if (!r.effective) continue;
      let list = byDocument.get(r.change.ontology);
      if (list === undefined) byDocument.set(r.change.ontology, (list = []));
      list.push(r);
    }
    // a unit the mirror does not know links nothing rather than the wrong entry
    const linked = e.cause === 'apply' ? null : this.units.moving(e.cause);
    const unit: Numbered[] = [];
    const batch = this.batchPrefix + (++this.batches).toString(36);
    const time = isoNow();
    for (const [o, results] of byDocument) {
      const document = journalDocument(o);
      if (document === null) continue;
      const before = this.fingerprints.get(o) ?? documentFingerprint(o);
      const after = documentFingerprint(o);
      this.fingerprints.set(o, after);
      this.documentOf.set(o, document);
      const entities = new Set<string>();
      const changes: StoredChange[] = results.map((r) => {
        const c = r.change;
        if (c.kind === 'AddAxiom' || c.kind === 'RemoveAxiom') for (const x of signature(c.axiom)) entities.add(x.iri);
        return storeChange(c, r.restore);
      });
      const entry: ChangeEntry = {
        type: 'change',
        seq: 0,
        time,
        document,
        batch,
        principal: call === undefined ? null : principalRecord(call.principal),
        client: call?.client ?? null,
        session_id: call?.sessionId ?? null,
        tool: call?.tool ?? null,
        cause: e.cause,
        ...(call?.reverts === undefined ? {} : { reverts: [...call.reverts] }),
        changes,
        entities: [...entities],
        revision_before: e.revision - 1,
        revision_after: e.revision,
        fingerprint_before: before,
        fingerprint_after: after,
      };
      const target = linked === null ? undefined : unitEntry(linked, document);
      const link: Link | null = target === undefined ? null : { field: e.cause === 'undo' ? 'undoes' : 'redoes', target };
      const numbered: Numbered = { document, seq: 0 };
      unit.push(numbered);
      this.write(document, entry, call, numbered, link);
    }
    const [only] = unit;
    return unit.length === 1 && only !== undefined ? only : unit;
  }

  /** Appends an entry; the store numbers it (other windows of the document may append too). */
  private write(document: string, entry: ChangeEntry, call: CallRecord | undefined, numbered: Numbered, link: Link | null): void {
    let track = this.tracks.get(document);
    if (track === undefined) this.tracks.set(document, (track = { lastSeq: 0 }));
    const t = track;
    this.settle(
      this.store.append(document, [entry], (e) => this.numbered(e, t, numbered, link)),
      call,
    );
  }

  /** The entry has its seq: its undo/redo link (the linked entry was numbered before it) and blame follow. */
  private numbered(entry: ChangeEntry, track: Track, numbered: Numbered, link: Link | null): void {
    track.lastSeq = Math.max(track.lastSeq, entry.seq);
    numbered.seq = entry.seq;
    if (link !== null && link.target.seq > 0) entry[link.field] = link.target.seq;
    this.noteBlame(entry);
  }

  private settle(written: Promise<unknown>, call: CallRecord | undefined): void {
    // the calls of one batch share its promise: the chain grows once per batch, not per call
    if (written !== this.lastSettled) {
      this.lastSettled = written;
      // settles once this and every earlier write did; resolving to nothing, the chain does not nest values
      const earlier = this.lastWrite.catch(() => undefined);
      this.lastWrite = written.then(() => earlier);
    }
    if (call !== undefined)
      call.durable = call.durable === undefined || call.durable === written ? written : Promise.all([call.durable, written]);
    else written.catch((err: Error) => process.stderr.write(`athene: the change journal could not be written: ${err.message}\n`));
  }

  private noteBlame(e: ChangeEntry): void {
    const last: LastChange = {
      seq: e.seq,
      time: e.time,
      document: e.document,
      tool: e.tool,
      principal: e.principal,
      client: e.client,
      session_id: e.session_id,
    };
    for (const iri of e.entities) this.blame.set(iri, last);
  }

  /** A save: the entries so far are in the file; a save to another path also settles the old document. */
  private saved(o: Ontology): void {
    const document = journalDocument(o);
    if (document === null) return;
    const fingerprint = documentFingerprint(o);
    this.fingerprints.set(o, fingerprint);
    const previous = this.documentOf.get(o);
    this.documentOf.set(o, document);
    const targets = previous !== undefined && previous !== document ? [previous, document] : [document];
    const call = this.currentCall();
    for (const target of targets) {
      const written = this.lastWrite
        .catch(() => undefined)
        .then(async () => {
          const track = this.tracks.get(target);
          const seq = track?.lastSeq ?? (await this.store.readSince(target, Number.MAX_SAFE_INTEGER)).lastSeq;
          if (track === undefined) this.tracks.set(target, { lastSeq: seq });
          await this.store.markSaved(target, { type: 'save', seq, time: new Date().toISOString(), fingerprint });
          await this.store.compact(target, new Date());
        });
      this.settle(written, call);
    }
  }
}
