// A workspace: the ontologies loaded in one window actor, the active one, the undo/redo stack, a revision
// counter, per-ontology dirty flags and change listeners. Every model edit goes through `apply`, which
// applies a batch of changes atomically and makes it one undo unit.

import { randomUUID } from 'node:crypto';
import type { IRI } from './terms.js';
import type { Ontology, OntologyId } from './ontology.js';
import { applyBatch, invertChange, type Change, type ChangeResult } from './changes.js';
import { noteAxiomChange, noteHeaderChange } from './fingerprint.js';
import { releaseInterned } from './terms.js';
import { CallSlot } from '../util/call-slot.js';
import { DomainError } from '../util/errors.js';

export type ChangeCause = 'apply' | 'undo' | 'redo';

export interface ChangeEvent {
  readonly cause: ChangeCause;
  readonly changes: readonly ChangeResult[];
  readonly revision: number;
}

export type ChangeListener = (event: ChangeEvent) => void;

export interface BatchResult {
  readonly results: readonly ChangeResult[];
  /** True when at least one change had an effect. */
  readonly effective: boolean;
  readonly revision: number;
}

/** A refused workspace operation (the id of another loaded ontology, an unknown ontology, ...). */
export class WorkspaceError extends DomainError {
  declare readonly code: 'id_in_use' | 'not_loaded' | 'already_loaded' | 'nothing_to_undo' | 'nothing_to_redo';
  constructor(message: string, code: WorkspaceError['code']) {
    super(message, code);
    this.name = 'WorkspaceError';
  }
}

/** One undo unit: the undoable changes of a batch that had an effect, and their inverses. */
interface UndoEntry {
  readonly forward: readonly Change[];
  readonly inverse: readonly Change[];
}

export function ontologyLabel(o: Ontology): string {
  if (o.id.iri === null) return '(anonymous ontology)';
  return o.id.versionIri === null ? o.id.iri : o.id.iri + ' ' + o.id.versionIri;
}

/**
 * Thrown at the commit of a rehearsed call (`Workspace.rehearse`): the changes it would have applied, or
 * null when it would have changed something other than ontology content (loaded an ontology, switched the
 * active one). Nothing was applied.
 */
export class Rehearsed extends Error {
  constructor(readonly changes: readonly Change[] | null) {
    super('A rehearsal stops at its commit; nothing was applied');
    this.name = 'Rehearsed';
  }
}

export class Workspace {
  readonly id: string = randomUUID();
  private readonly loaded: Ontology[] = [];
  private activeOntology: Ontology | null = null;
  private rev = 0;
  private readonly dirty = new Set<Ontology>();
  private undoStack: UndoEntry[] = [];
  private redoStack: UndoEntry[] = [];
  private readonly listeners = new Set<ChangeListener>();
  private readonly saveListeners = new Set<(o: Ontology) => void>();
  /**
   * Called before any change to the workspace is made (apply, undo, redo, load, unload, switching the
   * active ontology); throwing refuses the change with nothing applied. The window actor uses it for its
   * commit fence.
   */
  beforeCommit: (() => void) | null = null;
  /** Set while a call is rehearsed: a slot of the thread's one call context (util/call-slot.ts). */
  private readonly rehearsing = new CallSlot<true>('rehearsal');

  /** Increases with every model change, undo, redo, load, unload and switch of the active ontology. */
  get revision(): number {
    return this.rev;
  }

  /** Continues the revisions past `revision` (the last one a restored history recorded), so they never repeat. */
  continueRevisionsAfter(revision: number): void {
    this.rev = Math.max(this.rev, revision);
  }

  get ontologies(): readonly Ontology[] {
    return this.loaded;
  }

  get active(): Ontology {
    if (this.activeOntology === null) throw new WorkspaceError('No ontology is loaded', 'not_loaded');
    return this.activeOntology;
  }

  get hasActive(): boolean {
    return this.activeOntology !== null;
  }

  /** Adds a loaded ontology (not undoable); the first one, or any with `activate`, becomes active. */
  load(o: Ontology, activate = false): void {
    this.stopRehearsal(null);
    this.beforeCommit?.();
    if (this.loaded.includes(o)) throw new WorkspaceError(`Ontology already loaded: ${ontologyLabel(o)}`, 'already_loaded');
    this.checkIdFree(o, o.id);
    this.loaded.push(o);
    if (activate || this.activeOntology === null) this.activeOntology = o;
    this.rev++;
  }

  /** Removes an ontology and the undo/redo entries that touch it; the first remaining one becomes active. */
  unload(o: Ontology): void {
    this.stopRehearsal(null);
    this.beforeCommit?.();
    const i = this.requireLoaded(o);
    this.loaded.splice(i, 1);
    this.dirty.delete(o);
    const keep = (e: UndoEntry) => !e.forward.some((c) => c.ontology === o);
    this.undoStack = this.undoStack.filter(keep);
    this.redoStack = this.redoStack.filter(keep);
    if (this.activeOntology === o) this.activeOntology = this.loaded[0] ?? null;
    this.rev++;
    // the ontology's nodes are collected once nothing else holds them (the other ontologies keep theirs)
    releaseInterned(o);
  }

  setActive(o: Ontology): void {
    this.stopRehearsal(null);
    this.beforeCommit?.();
    this.requireLoaded(o);
    if (this.activeOntology === o) return;
    this.activeOntology = o;
    this.rev++;
  }

  /** The loaded ontology whose ontology IRI or version IRI is `iri`. */
  find(iri: IRI): Ontology | undefined {
    for (const o of this.loaded) if (o.id.iri === iri) return o;
    for (const o of this.loaded) if (o.id.versionIri === iri) return o;
    return undefined;
  }

  /** `o` followed by every loaded ontology it imports directly or indirectly (breadth first, no repeats). */
  importsClosure(o: Ontology): Ontology[] {
    const out = [o];
    const seen = new Set(out);
    // out grows while it is walked, so by index (i < out.length).
    for (let i = 0; i < out.length; i++) {
      for (const iri of out[i]!.imports) {
        const target = this.find(iri);
        if (target !== undefined && !seen.has(target)) {
          seen.add(target);
          out.push(target);
        }
      }
    }
    return out;
  }

  /** Import IRIs declared anywhere in the imports closure of `o` that no loaded ontology satisfies (sorted). */
  missingImports(o: Ontology): IRI[] {
    const missing = new Set<IRI>();
    for (const member of this.importsClosure(o)) {
      for (const iri of member.imports) if (this.find(iri) === undefined) missing.add(iri);
    }
    return [...missing].sort();
  }

  isDirty(o: Ontology): boolean {
    return this.dirty.has(o);
  }

  get dirtyCount(): number {
    return this.dirty.size;
  }

  /** Clears the dirty flag after the ontology was saved, and tells the save listeners. */
  markSaved(o: Ontology): void {
    this.dirty.delete(o);
    for (const listener of [...this.saveListeners]) notify(() => listener(o), null);
  }

  /** Called after an ontology was saved with everything applied so far (the change journal records it). */
  onSaved(listener: (o: Ontology) => void): () => void {
    this.saveListeners.add(listener);
    return () => {
      this.saveListeners.delete(listener);
    };
  }

  get undoDepth(): number {
    return this.undoStack.length;
  }

  get redoDepth(): number {
    return this.redoStack.length;
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * Applies a batch atomically as one undo unit. Throws a ChangeError or WorkspaceError (and changes
   * nothing) when a change is invalid, e.g. an ontology id already used by another loaded ontology.
   * A batch whose undoable changes had an effect clears the redo stack.
   */
  apply(changes: readonly Change[]): BatchResult {
    this.stopRehearsal(changes);
    this.beforeCommit?.();
    const results = this.run(changes);
    const entry = undoEntry(results);
    if (entry !== null) {
      this.undoStack.push(entry);
      this.redoStack = [];
    }
    return this.finish('apply', results);
  }

  /** Undoes the last undo unit (its undoable part); throws a WorkspaceError when there is none. */
  undo(): BatchResult {
    const entry = this.undoStack.at(-1);
    if (entry === undefined) throw new WorkspaceError('Nothing to undo.', 'nothing_to_undo');
    this.stopRehearsal(entry.inverse);
    this.beforeCommit?.();
    const results = this.run(entry.inverse);
    this.undoStack.pop();
    this.redoStack.push(entry);
    return this.finish('undo', results);
  }

  /** Re-applies the last undone unit; throws a WorkspaceError when there is none. */
  redo(): BatchResult {
    const entry = this.redoStack.at(-1);
    if (entry === undefined) throw new WorkspaceError('Nothing to redo.', 'nothing_to_redo');
    this.stopRehearsal(entry.forward);
    this.beforeCommit?.();
    const results = this.run(entry.forward);
    this.redoStack.pop();
    // Inverses are recomputed: a restored ontology id or annotation may differ from the first application.
    this.undoStack.push(undoEntry(results) ?? entry);
    return this.finish('redo', results);
  }

  /**
   * Runs `call` as a rehearsal: its first commit throws Rehearsed instead of applying, and this returns
   * what that commit would have changed (null: something other than ontology content; empty: it committed
   * nothing). Other calls running meanwhile commit as usual: the rehearsal is scoped to `call`'s async context.
   */
  async rehearse(call: () => unknown): Promise<readonly Change[] | null> {
    try {
      await this.rehearsing.run(true, call);
      return [];
    } catch (err) {
      if (err instanceof Rehearsed) return err.changes;
      throw err;
    }
  }

  private stopRehearsal(changes: readonly Change[] | null): void {
    if (this.rehearsing.get() === true) throw new Rehearsed(changes);
  }

  private run(changes: readonly Change[]): ChangeResult[] {
    for (const c of changes) this.requireLoaded(c.ontology);
    const pending = new Map<Ontology, OntologyId>();
    const results = applyBatch(changes, (c) => {
      if (c.kind !== 'SetOntologyId') return;
      this.checkIdFree(c.ontology, c.id, pending);
      pending.set(c.ontology, c.id);
    });
    for (const r of results) {
      if (!r.effective) continue;
      this.dirty.add(r.change.ontology);
      if (r.change.kind === 'AddAxiom' || r.change.kind === 'RemoveAxiom') {
        noteAxiomChange(r.change.ontology, r.change.axiom, r.change.kind === 'AddAxiom');
      } else {
        noteHeaderChange(r.change.ontology);
      }
    }
    return results;
  }

  private finish(cause: ChangeCause, results: readonly ChangeResult[]): BatchResult {
    const effective = results.some((r) => r.effective);
    if (effective) {
      this.rev++;
      const event: ChangeEvent = { cause, changes: results, revision: this.rev };
      for (const listener of [...this.listeners]) notify(listener, event);
    }
    return { results, effective, revision: this.rev };
  }

  /** Refuses an id whose IRI or version IRI names another loaded ontology (or one renamed earlier in the batch). */
  private checkIdFree(self: Ontology, id: OntologyId, pending?: ReadonlyMap<Ontology, OntologyId>): void {
    const wanted = [id.iri, id.versionIri].filter((x): x is IRI => x !== null);
    for (const other of this.loaded) {
      if (other === self) continue;
      const otherId = pending?.get(other) ?? other.id;
      if (wanted.some((iri) => iri === otherId.iri || iri === otherId.versionIri)) {
        throw new WorkspaceError(
          `Ontology id ${wanted.join(' ')} is already in use by another loaded ontology (${ontologyLabel(other)})`,
          'id_in_use',
        );
      }
    }
  }

  private requireLoaded(o: Ontology): number {
    const i = this.loaded.indexOf(o);
    if (i < 0) throw new WorkspaceError(`Ontology not loaded in this workspace: ${ontologyLabel(o)}`, 'not_loaded');
    return i;
  }
}

function undoEntry(results: readonly ChangeResult[]): UndoEntry | null {
  const forward: Change[] = [];
  const inverse: Change[] = [];
  for (const r of results) {
    const inv = invertChange(r);
    if (inv === null) continue;
    forward.push(r.change);
    inverse.push(inv);
  }
  return forward.length === 0 ? null : { forward, inverse: inverse.reverse() };
}

/** A listener that throws is reported, never rethrown: one bad listener must not take its window down. */
function notify<E>(listener: (event: E) => void, event: E): void {
  try {
    listener(event);
  } catch (err) {
    process.emitWarning(`a change listener threw: ${err instanceof Error ? err.message : String(err)}`, 'AtheneListenerWarning');
  }
}
