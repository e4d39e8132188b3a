// The change journal's records (issue 16): one entry per committed change batch and document, and the
// markers (save, set aside for recovery, resolved) that say which entries are still unsaved. Changes are
// stored exactly as the change engine applied them, axioms and annotations in functional syntax with full
// IRIs, so a replay is deterministic.

import type { Principal } from '../auth/principal.js';
import type { Annotation, Axiom } from '../model/terms.js';
import { editedAxiomLine } from '../model/fingerprint.js';
import type { Change } from '../model/changes.js';
import type { Ontology } from '../model/ontology.js';
import { LineRenderer } from '../model/render/axiom-lines.js';
import { readFunctional } from '../model/formats/functional/reader.js';
import type { BlankNodes } from './blank-nodes.js';
import { unreachable } from '../util/unreachable.js';

export type StoredChange =
  | { readonly op: 'add_axiom' | 'remove_axiom'; readonly axiom: string }
  | {
      readonly op: 'set_ontology_id';
      readonly iri: string | null;
      readonly version_iri: string | null;
      readonly previous: { readonly iri: string | null; readonly version_iri: string | null };
    }
  | { readonly op: 'add_import' | 'remove_import'; readonly iri: string }
  | { readonly op: 'add_ontology_annotation' | 'remove_ontology_annotation'; readonly annotation: string }
  | { readonly op: 'set_prefix'; readonly prefix: string; readonly namespace: string; readonly previous: string | null }
  | { readonly op: 'remove_prefix'; readonly prefix: string; readonly previous: string };

/** Who made a change: the principal without anything secret; the static token is the local admin. */
export interface PrincipalRecord {
  readonly kind: 'static token' | 'oauth';
  readonly client_id: string;
  readonly name: string;
  readonly grant_id: string | null;
  readonly scopes: readonly string[];
}

export interface ChangeEntry {
  readonly type: 'change';
  seq: number;
  readonly time: string;
  readonly document: string;
  /** Shared by the entries of one batch that touched several documents. */
  readonly batch: string;
  /** Null for changes no tool call made (none today but the replay, which is not journaled). */
  readonly principal: PrincipalRecord | null;
  /** The MCP client as its `initialize` named itself. */
  readonly client: { readonly name: string; readonly version: string } | null;
  readonly session_id: string | null;
  readonly tool: string | null;
  readonly cause: 'apply' | 'undo' | 'redo';
  /** The entry this undo reverted, or this redo re-applied (same document). */
  undoes?: number;
  redoes?: number;
  /** The entries a revert_changes call reverted. */
  reverts?: readonly number[];
  readonly changes: readonly StoredChange[];
  /** IRIs of the entities the changes mention, for entity filters and blame. */
  readonly entities: readonly string[];
  readonly revision_before: number;
  readonly revision_after: number;
  readonly fingerprint_before: string;
  readonly fingerprint_after: string;
}

/** The document was saved with every entry up to `seq`; its content then had `fingerprint`. */
export interface SaveMarker {
  readonly type: 'save';
  readonly seq: number;
  readonly time: string;
  readonly fingerprint: string;
}

/** The unsaved entries in (from, upto] did not fit the document on disk: they wait for the recovery tool. */
export interface AsideMarker {
  readonly type: 'aside';
  readonly from: number;
  readonly upto: number;
  readonly time: string;
}

/** The entries set aside up to `upto` were applied or discarded by the recovery tool. */
export interface ResolvedMarker {
  readonly type: 'resolved';
  readonly upto: number;
  readonly time: string;
  readonly action: 'applied' | 'discarded';
}

export type JournalRecord = ChangeEntry | SaveMarker | AsideMarker | ResolvedMarker;

/** Principals are immutable and a window reuses one per caller: its record is built once, not per entry. */
const principalRecords = new WeakMap<Principal, PrincipalRecord>();

export function principalRecord(p: Principal): PrincipalRecord {
  let r = principalRecords.get(p);
  if (r === undefined) {
    r = Object.freeze({
      kind: p.type === 'static' ? 'static token' : 'oauth',
      client_id: p.client_id,
      name: p.display_name,
      grant_id: p.grant_id,
      scopes: Object.freeze([...p.capabilities]),
    });
    principalRecords.set(p, r);
  }
  return r;
}

const renderer = new LineRenderer((a) => '_:' + a.nodeId);

/** The axiom's line: the fingerprint rendered it as the edit was applied, unless it has anonymous individuals. */
const axiomLine = (a: Axiom): string => editedAxiomLine(a) ?? renderer.axiom(a);

/** The change as stored; `restore` (what the engine recorded to undo it) gives the previous value of setters. */
export function storeChange(c: Change, restore: Change | null): StoredChange {
  switch (c.kind) {
    case 'AddAxiom':
      return { op: 'add_axiom', axiom: axiomLine(c.axiom) };
    case 'RemoveAxiom':
      return { op: 'remove_axiom', axiom: axiomLine(c.axiom) };
    case 'SetOntologyId': {
      const previous = restore?.kind === 'SetOntologyId' ? restore.id : c.ontology.id;
      return {
        op: 'set_ontology_id',
        iri: c.id.iri,
        version_iri: c.id.versionIri,
        previous: { iri: previous.iri, version_iri: previous.versionIri },
      };
    }
    case 'AddImport':
      return { op: 'add_import', iri: c.iri };
    case 'RemoveImport':
      return { op: 'remove_import', iri: c.iri };
    case 'AddOntologyAnnotation':
      return { op: 'add_ontology_annotation', annotation: renderer.annotation(c.annotation) };
    case 'RemoveOntologyAnnotation':
      return { op: 'remove_ontology_annotation', annotation: renderer.annotation(c.annotation) };
    case 'SetPrefix':
      return {
        op: 'set_prefix',
        prefix: c.prefix,
        namespace: c.namespace,
        previous: restore?.kind === 'SetPrefix' ? restore.namespace : null,
      };
    case 'RemovePrefix':
      return { op: 'remove_prefix', prefix: c.prefix, previous: restore?.kind === 'SetPrefix' ? restore.namespace : '' };
    default:
      return unreachable(c);
  }
}

export function parseAnnotation(text: string): Annotation {
  const [annotation] = readFunctional('Ontology(' + text + ')', { keepBlankNodeLabels: true }).annotations;
  if (annotation === undefined) throw new Error(`not an annotation: ${text}`);
  return annotation;
}

/**
 * The stored change as a change of `o` (parsing its functional syntax); `blanks` carries what the earlier
 * changes of the same replay or plan found out about anonymous individuals.
 */
export function loadChange(s: StoredChange, o: Ontology, blanks: BlankNodes): Change {
  switch (s.op) {
    case 'add_axiom':
      return { kind: 'AddAxiom', ontology: o, axiom: blanks.axiom(s.axiom, o, false) };
    case 'remove_axiom':
      return { kind: 'RemoveAxiom', ontology: o, axiom: blanks.axiom(s.axiom, o, true) };
    case 'set_ontology_id':
      return { kind: 'SetOntologyId', ontology: o, id: { iri: s.iri, versionIri: s.version_iri } };
    case 'add_import':
      return { kind: 'AddImport', ontology: o, iri: s.iri };
    case 'remove_import':
      return { kind: 'RemoveImport', ontology: o, iri: s.iri };
    case 'add_ontology_annotation':
      return { kind: 'AddOntologyAnnotation', ontology: o, annotation: parseAnnotation(s.annotation) };
    case 'remove_ontology_annotation':
      return { kind: 'RemoveOntologyAnnotation', ontology: o, annotation: parseAnnotation(s.annotation) };
    case 'set_prefix':
      return { kind: 'SetPrefix', ontology: o, prefix: s.prefix, namespace: s.namespace };
    case 'remove_prefix':
      return { kind: 'RemovePrefix', ontology: o, prefix: s.prefix };
    default:
      return unreachable(s);
  }
}

/** The change that takes a stored change back. */
export function inverseOf(s: StoredChange): StoredChange {
  switch (s.op) {
    case 'add_axiom':
      return { op: 'remove_axiom', axiom: s.axiom };
    case 'remove_axiom':
      return { op: 'add_axiom', axiom: s.axiom };
    case 'set_ontology_id':
      return {
        op: 'set_ontology_id',
        iri: s.previous.iri,
        version_iri: s.previous.version_iri,
        previous: { iri: s.iri, version_iri: s.version_iri },
      };
    case 'add_import':
      return { op: 'remove_import', iri: s.iri };
    case 'remove_import':
      return { op: 'add_import', iri: s.iri };
    case 'add_ontology_annotation':
      return { op: 'remove_ontology_annotation', annotation: s.annotation };
    case 'remove_ontology_annotation':
      return { op: 'add_ontology_annotation', annotation: s.annotation };
    case 'set_prefix':
      return s.previous === null
        ? { op: 'remove_prefix', prefix: s.prefix, previous: s.namespace }
        : { op: 'set_prefix', prefix: s.prefix, namespace: s.previous, previous: s.namespace };
    case 'remove_prefix':
      return { op: 'set_prefix', prefix: s.prefix, namespace: s.previous, previous: null };
    default:
      return unreachable(s);
  }
}
