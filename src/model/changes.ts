// Ontology changes: a closed set of records, each naming the ontology it targets, applied one by one or as
// an atomic batch. Applying a change records what it takes to restore the previous state, so a batch that
// fails midway is rolled back and an applied batch can be undone.

import type { Annotation, Axiom, IRI } from './terms.js';
import type { Ontology, OntologyId } from './ontology.js';
import { unreachable } from '../util/unreachable.js';
import { DomainError } from '../util/errors.js';

export type Change =
  | { readonly kind: 'AddAxiom'; readonly ontology: Ontology; readonly axiom: Axiom }
  | { readonly kind: 'RemoveAxiom'; readonly ontology: Ontology; readonly axiom: Axiom }
  | { readonly kind: 'SetOntologyId'; readonly ontology: Ontology; readonly id: OntologyId }
  | { readonly kind: 'AddImport'; readonly ontology: Ontology; readonly iri: IRI }
  | { readonly kind: 'RemoveImport'; readonly ontology: Ontology; readonly iri: IRI }
  | { readonly kind: 'AddOntologyAnnotation'; readonly ontology: Ontology; readonly annotation: Annotation }
  | { readonly kind: 'RemoveOntologyAnnotation'; readonly ontology: Ontology; readonly annotation: Annotation }
  /** Binds a prefix (with its trailing ':') to a namespace; not undoable. */
  | { readonly kind: 'SetPrefix'; readonly ontology: Ontology; readonly prefix: string; readonly namespace: string }
  /** Unbinds a prefix; not undoable. */
  | { readonly kind: 'RemovePrefix'; readonly ontology: Ontology; readonly prefix: string };

export type ChangeKind = Change['kind'];

/** The outcome of applying one change. */
export interface ChangeResult {
  readonly change: Change;
  /** False when the change found the ontology already in the requested state (e.g. adding a present axiom). */
  readonly effective: boolean;
  /** The change that restores the previous state; null when the change had no effect. */
  readonly restore: Change | null;
}

/** A change that cannot be applied as given (checked before anything in its batch is applied). */
export class ChangeError extends DomainError {
  constructor(
    message: string,
    readonly change: Change,
  ) {
    super(message, 'invalid_change');
    this.name = 'ChangeError';
  }
}

/** Prefix-map edits are document-format changes, which the undo stack does not record. */
export function isUndoable(c: Change): boolean {
  return c.kind !== 'SetPrefix' && c.kind !== 'RemovePrefix';
}

/** Document formats without a prefix map. */
const NO_PREFIX_MAP: ReadonlySet<string> = new Set(['ntriples', 'nquads']);

export function hasPrefixMap(o: Ontology): boolean {
  return !NO_PREFIX_MAP.has(o.format);
}

/** Throws a ChangeError when the change is malformed for its ontology. */
export function validateChange(c: Change): void {
  switch (c.kind) {
    case 'SetOntologyId':
      if (c.id.iri === null && c.id.versionIri !== null) throw new ChangeError('An anonymous ontology cannot have a version IRI', c);
      if (c.id.iri === '' || c.id.versionIri === '') throw new ChangeError('Ontology and version IRIs must not be empty', c);
      return;
    case 'AddImport':
    case 'RemoveImport':
      if (c.iri === '') throw new ChangeError('Import IRI must not be empty', c);
      return;
    case 'SetPrefix':
      checkPrefix(c, c.prefix);
      if (c.namespace === '') throw new ChangeError(`Namespace of prefix ${c.prefix} must not be empty`, c);
      return;
    case 'RemovePrefix':
      checkPrefix(c, c.prefix);
      return;
    case 'AddAxiom':
    case 'RemoveAxiom':
    case 'AddOntologyAnnotation':
    case 'RemoveOntologyAnnotation':
      return;
    default:
      return unreachable(c);
  }
}

function checkPrefix(c: Change, prefix: string): void {
  if (!hasPrefixMap(c.ontology)) throw new ChangeError(`The ${c.ontology.format} document format has no prefix map`, c);
  if (!prefix.endsWith(':') || prefix.indexOf(':') !== prefix.length - 1) {
    throw new ChangeError(`Prefix name must end with its only ':' (got ${JSON.stringify(prefix)})`, c);
  }
}

const sameId = (a: OntologyId, b: OntologyId) => a.iri === b.iri && a.versionIri === b.versionIri;

/** Applies one change (unvalidated) and reports its effect and how to restore the previous state. */
export function applyChange(c: Change): ChangeResult {
  const o = c.ontology;
  switch (c.kind) {
    case 'AddAxiom':
      return o.add(c.axiom) ? done(c, { kind: 'RemoveAxiom', ontology: o, axiom: c.axiom }) : noop(c);
    case 'RemoveAxiom':
      return o.remove(c.axiom) ? done(c, { kind: 'AddAxiom', ontology: o, axiom: c.axiom }) : noop(c);
    case 'SetOntologyId': {
      const previous = o.id;
      if (sameId(previous, c.id)) return noop(c);
      o.id = Object.freeze({ iri: c.id.iri, versionIri: c.id.versionIri });
      return done(c, { kind: 'SetOntologyId', ontology: o, id: previous });
    }
    case 'AddImport':
      if (o.imports.has(c.iri)) return noop(c);
      o.imports.add(c.iri);
      return done(c, { kind: 'RemoveImport', ontology: o, iri: c.iri });
    case 'RemoveImport':
      return o.imports.delete(c.iri) ? done(c, { kind: 'AddImport', ontology: o, iri: c.iri }) : noop(c);
    case 'AddOntologyAnnotation':
      if (o.annotations.has(c.annotation)) return noop(c);
      o.annotations.add(c.annotation);
      return done(c, { kind: 'RemoveOntologyAnnotation', ontology: o, annotation: c.annotation });
    case 'RemoveOntologyAnnotation':
      return o.annotations.delete(c.annotation)
        ? done(c, { kind: 'AddOntologyAnnotation', ontology: o, annotation: c.annotation })
        : noop(c);
    case 'SetPrefix': {
      const previous = o.prefixes.get(c.prefix);
      if (previous === c.namespace) return noop(c);
      o.prefixes.set(c.prefix, c.namespace);
      return done(
        c,
        previous === undefined
          ? { kind: 'RemovePrefix', ontology: o, prefix: c.prefix }
          : { kind: 'SetPrefix', ontology: o, prefix: c.prefix, namespace: previous },
      );
    }
    case 'RemovePrefix': {
      const previous = o.prefixes.get(c.prefix);
      if (previous === undefined) return noop(c);
      o.prefixes.delete(c.prefix);
      return done(c, { kind: 'SetPrefix', ontology: o, prefix: c.prefix, namespace: previous });
    }
    default:
      return unreachable(c);
  }
}

const done = (change: Change, restore: Change): ChangeResult => ({ change, effective: true, restore });
const noop = (change: Change): ChangeResult => ({ change, effective: false, restore: null });

/** The change that undoes an applied change, or null when there is nothing to undo or it is not undoable. */
export function invertChange(r: ChangeResult): Change | null {
  return r.effective && isUndoable(r.change) ? r.restore : null;
}

/**
 * Applies changes atomically: all are validated first (by `validateChange` and the optional `validate`
 * hook), then applied in order; if any application throws, the ones already applied are restored in
 * reverse order and the error is rethrown, so the ontologies are never left half-changed.
 */
export function applyBatch(changes: readonly Change[], validate?: (c: Change) => void): ChangeResult[] {
  for (const c of changes) {
    validateChange(c);
    validate?.(c);
  }
  const results: ChangeResult[] = [];
  try {
    for (const c of changes) results.push(applyChange(c));
  } catch (err) {
    rollBack(results);
    throw err;
  }
  return results;
}

/** Restores the state before `results` were applied (last first). */
export function rollBack(results: readonly ChangeResult[]): void {
  for (let i = results.length - 1; i >= 0; i--) {
    const restore = results[i]!.restore;
    if (restore !== null) applyChange(restore);
  }
}
