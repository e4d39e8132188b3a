// Which of a sequence of stored changes still apply to the ontologies as they are now (for revert_changes
// and the recovery tool): each change is checked against the state the ones before it would leave, so a
// change that no longer applies is reported, never forced.

import type { Change } from '../model/changes.js';
import type { Ontology } from '../model/ontology.js';
import { BlankNodes } from './blank-nodes.js';
import { loadChange, type StoredChange } from './records.js';
import { unreachable } from '../util/unreachable.js';

export interface PlannedChange {
  readonly seq: number;
  readonly stored: StoredChange;
}

export interface Conflict extends PlannedChange {
  readonly reason: string;
}

export interface Plan {
  readonly changes: Change[];
  readonly applied: PlannedChange[];
  readonly conflicts: Conflict[];
}

/** What would apply, in order, and what would not (with why); `ontology` names the target of each seq. */
export function planChanges(items: readonly PlannedChange[], ontology: (seq: number) => Ontology): Plan {
  const overlay = new Map<string, boolean>();
  const ids = new Map<Ontology, { iri: string | null; versionIri: string | null }>();
  const plan: Plan = { changes: [], applied: [], conflicts: [] };
  const blanks = new BlankNodes();
  for (const item of items) {
    const o = ontology(item.seq);
    let change: Change;
    try {
      change = loadChange(item.stored, o, blanks);
    } catch (err) {
      plan.conflicts.push({ ...item, reason: `cannot be read: ${(err as Error).message}` });
      continue;
    }
    const reason = conflict(change, item.stored, overlay, ids);
    if (reason !== null) {
      plan.conflicts.push({ ...item, reason });
      continue;
    }
    plan.changes.push(change);
    plan.applied.push(item);
  }
  return plan;
}

function conflict(
  c: Change,
  s: StoredChange,
  overlay: Map<string, boolean>,
  ids: Map<Ontology, { iri: string | null; versionIri: string | null }>,
): string | null {
  const o = c.ontology;
  const present = (key: string, now: boolean) => overlay.get(key) ?? now;
  const set = (key: string, value: boolean) => overlay.set(key, value);
  switch (c.kind) {
    case 'AddAxiom':
    case 'RemoveAxiom': {
      const key = 'a ' + c.axiom.id + ' ' + ontologyKey(o);
      const has = present(key, o.has(c.axiom));
      if (c.kind === 'AddAxiom' && has) return 'the axiom is already present';
      if (c.kind === 'RemoveAxiom' && !has) return 'the axiom is no longer present';
      set(key, c.kind === 'AddAxiom');
      return null;
    }
    case 'AddImport':
    case 'RemoveImport': {
      const key = 'i ' + c.iri + ' ' + ontologyKey(o);
      const has = present(key, o.imports.has(c.iri));
      if (c.kind === 'AddImport' && has) return 'the import is already present';
      if (c.kind === 'RemoveImport' && !has) return 'the import is no longer present';
      set(key, c.kind === 'AddImport');
      return null;
    }
    case 'AddOntologyAnnotation':
    case 'RemoveOntologyAnnotation': {
      const key =
        'n ' + (s.op === 'add_ontology_annotation' || s.op === 'remove_ontology_annotation' ? s.annotation : '') + ' ' + ontologyKey(o);
      const has = present(key, o.annotations.has(c.annotation));
      if (c.kind === 'AddOntologyAnnotation' && has) return 'the annotation is already present';
      if (c.kind === 'RemoveOntologyAnnotation' && !has) return 'the annotation is no longer present';
      set(key, c.kind === 'AddOntologyAnnotation');
      return null;
    }
    case 'SetOntologyId': {
      const current = ids.get(o) ?? o.id;
      if (s.op === 'set_ontology_id' && (current.iri !== s.previous.iri || current.versionIri !== s.previous.version_iri))
        return 'the ontology id was changed since';
      ids.set(o, c.id);
      return null;
    }
    case 'SetPrefix':
    case 'RemovePrefix': {
      const key = 'p ' + c.prefix + ' ' + ontologyKey(o);
      const bound = present(key, o.prefixes.has(c.prefix));
      if (c.kind === 'RemovePrefix' && !bound) return 'the prefix is no longer bound';
      set(key, c.kind === 'SetPrefix');
      return null;
    }
    default:
      return unreachable(c);
  }
}

const keys = new WeakMap<Ontology, string>();
let nextKey = 0;

function ontologyKey(o: Ontology): string {
  let k = keys.get(o);
  if (k === undefined) keys.set(o, (k = String(nextKey++)));
  return k;
}
