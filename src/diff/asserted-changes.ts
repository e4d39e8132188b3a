// The asserted half of `semantic_diff` (TOOLS.md 3.2): header changes, entities added and removed by type,
// rename candidates, annotation changes by category, axiom groups, and the compatibility classification.
// Pure functions over ontologies and an axiom-set diff (src/model/diff.ts); nothing here renders for display.

import type { Annotation, AnnotationAssertion, Axiom, Entity, EntityKind, IRI, Literal } from '../model/terms.js';
import { axiomTypeName, isLogicalAxiom } from '../model/terms.js';
import type { Ontology, OntologyId } from '../model/ontology.js';
import { anonymousIndividuals } from '../model/walk.js';
import { isReserved, type AxiomSetDiff } from '../model/diff.js';
import { IAO_DEFINITION, IAO_REPLACED_BY, OBO, OIO, OIO_CONSIDER, SYNONYM_SCOPES } from '../model/formats/obo/vocab.js';
import { OWL_DEPRECATED, RDFS_COMMENT, RDFS_LABEL } from '../model/vocab.js';
import { KIND_ORDER } from '../report/rows.js';

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

// ---------------------------------------------------------------- header

export interface Change<T> {
  readonly changed: boolean;
  readonly left: T;
  readonly right: T;
}

export function ontologyIdChange(left: OntologyId, right: OntologyId): Change<OntologyId> {
  return { changed: left.iri !== right.iri || left.versionIri !== right.versionIri, left, right };
}

/** Direct imports of the two roots, each sorted. */
export function importsChange(left: Ontology, right: Ontology): Change<IRI[]> {
  const l = [...left.imports].sort(cmp);
  const r = [...right.imports].sort(cmp);
  return { changed: l.length !== r.length || l.some((iri, i) => iri !== r[i]), left: l, right: r };
}

/** Ontology annotations of the two roots (interned, so equal annotations are the same object). */
export function ontologyAnnotationsChange(left: Ontology, right: Ontology): Change<Annotation[]> {
  const l = [...left.annotations];
  const r = [...right.annotations];
  return { changed: l.length !== r.length || l.some((a) => !right.annotations.has(a)), left: l, right: r };
}

// ---------------------------------------------------------------- entities

/** Entities the scope's axioms name, built-in vocabulary left out. */
export function scopeEntities(scope: readonly Ontology[]): Set<Entity> {
  const out = new Set<Entity>();
  for (const o of scope) {
    for (const k of o.index.referencing.keys()) if (k.kind !== 'AnonymousIndividual' && !isReserved(k.iri)) out.add(k);
  }
  return out;
}

const byKindThenIri = (a: Entity, b: Entity) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || cmp(a.iri, b.iri);

export interface EntityChanges {
  /** By kind (KIND_ORDER), then IRI. */
  readonly added: readonly Entity[];
  readonly removed: readonly Entity[];
}

/** Entities named on one side only (entities are interned: a punned IRI is one entity per kind). */
export function entityChanges(left: ReadonlySet<Entity>, right: ReadonlySet<Entity>): EntityChanges {
  return {
    added: [...right].filter((e) => !left.has(e)).sort(byKindThenIri),
    removed: [...left].filter((e) => !right.has(e)).sort(byKindThenIri),
  };
}

/** Entities grouped by kind, in KIND_ORDER, empty kinds left out. */
export function byKind(entities: readonly Entity[]): { kind: EntityKind; entities: Entity[] }[] {
  return KIND_ORDER.map((kind) => ({ kind, entities: entities.filter((e) => e.kind === kind) })).filter((g) => g.entities.length > 0);
}

// ---------------------------------------------------------------- rename candidates

export interface LabelEvidence {
  readonly label: string;
  readonly lang: string;
}

export interface RenameCandidate {
  readonly from: Entity;
  readonly to: Entity;
  /** Every exact rdfs:label the two share, sorted. */
  readonly labels: readonly LabelEvidence[];
}

/** The rdfs:label literals of `iri` in `ontologies`, as `lex@lang` keys. */
function labelKeys(iri: IRI, ontologies: readonly Ontology[]): Set<string> {
  const out = new Set<string>();
  for (const o of ontologies) {
    for (const a of o.index.annotationsBySubject.get(iri) ?? []) {
      if (a.property.iri === RDFS_LABEL && a.value.kind === 'Literal') out.add(labelKey(a.value));
    }
  }
  return out;
}

const labelKey = (l: Literal) => JSON.stringify([l.lex, l.lang]);

/** For each (kind, label) the entities carrying it. */
function labelIndex(entities: readonly Entity[], ontologies: readonly Ontology[]): Map<string, Entity[]> {
  const out = new Map<string, Entity[]>();
  for (const e of entities) {
    for (const key of labelKeys(e.iri, ontologies)) {
      const k = e.kind + ' ' + key;
      const list = out.get(k);
      if (list === undefined) out.set(k, [e]);
      else list.push(e);
    }
  }
  return out;
}

/**
 * Removed/added entity pairs of one kind that share an exact rdfs:label (same text, same language) which no
 * other removed or added entity of that kind carries, and that pair with nothing else: evidence of a
 * rename, never a claim. Sorted by `from`, then `to`.
 */
export function renameCandidates(
  changes: EntityChanges,
  leftClosure: readonly Ontology[],
  rightClosure: readonly Ontology[],
): RenameCandidate[] {
  const removed = labelIndex(changes.removed, leftClosure);
  const added = labelIndex(changes.added, rightClosure);
  const pairs = new Map<string, { from: Entity; to: Entity; labels: LabelEvidence[] }>();
  for (const [key, froms] of removed) {
    const tos = added.get(key);
    const [from] = froms;
    const [to] = tos ?? [];
    if (froms.length !== 1 || tos?.length !== 1 || from === undefined || to === undefined) continue;
    const [lex, lang] = JSON.parse(key.slice(key.indexOf(' ') + 1)) as [string, string];
    const id = from.kind + ' ' + from.iri + ' ' + to.iri;
    const pair = pairs.get(id);
    if (pair === undefined) pairs.set(id, { from, to, labels: [{ label: lex, lang }] });
    else pair.labels.push({ label: lex, lang });
  }
  const all = [...pairs.values()];
  const uses = new Map<Entity, number>();
  for (const p of all) for (const e of [p.from, p.to]) uses.set(e, (uses.get(e) ?? 0) + 1);
  return all
    .filter((p) => uses.get(p.from) === 1 && uses.get(p.to) === 1)
    .map((p) => ({ ...p, labels: p.labels.sort((a, b) => cmp(a.label, b.label) || cmp(a.lang, b.lang)) }))
    .sort((a, b) => cmp(a.from.iri, b.from.iri) || cmp(a.to.iri, b.to.iri) || cmp(a.from.kind, b.from.kind));
}

// ---------------------------------------------------------------- annotation changes

export type AnnotationCategory = 'label' | 'synonym' | 'definition' | 'comment' | 'deprecation' | 'replacement' | 'other';

const SKOS = 'http://www.w3.org/2004/02/skos/core#';

const CATEGORY_OF: ReadonlyMap<IRI, AnnotationCategory> = new Map<IRI, AnnotationCategory>([
  [RDFS_LABEL, 'label'],
  [SKOS + 'prefLabel', 'label'],
  [SKOS + 'altLabel', 'synonym'],
  [SKOS + 'hiddenLabel', 'synonym'],
  ...[...SYNONYM_SCOPES.values()].map((p) => [p, 'synonym'] as [IRI, AnnotationCategory]),
  [IAO_DEFINITION, 'definition'],
  [SKOS + 'definition', 'definition'],
  [RDFS_COMMENT, 'comment'],
  [SKOS + 'note', 'comment'],
  [SKOS + 'editorialNote', 'comment'],
  [OBO + 'IAO_0000116', 'comment'],
  [OWL_DEPRECATED, 'deprecation'],
  [OBO + 'IAO_0000231', 'deprecation'],
  [IAO_REPLACED_BY, 'replacement'],
  [OIO_CONSIDER, 'replacement'],
  [OIO + 'replacedBy', 'replacement'],
]);

/** The release-relevant kind of an annotation property; anything unknown is `other`. */
export function annotationCategory(property: IRI): AnnotationCategory {
  return CATEGORY_OF.get(property) ?? 'other';
}

export interface AnnotationChange {
  readonly focus: IRI;
  readonly added: readonly AnnotationAssertion[];
  readonly removed: readonly AnnotationAssertion[];
  /** Sorted, each once. */
  readonly categories: readonly AnnotationCategory[];
}

/** The diff's annotation assertions on IRI subjects, grouped by subject (sorted by IRI). */
export function annotationChanges(diff: AxiomSetDiff): AnnotationChange[] {
  const bySubject = new Map<IRI, { added: AnnotationAssertion[]; removed: AnnotationAssertion[] }>();
  const note = (axioms: readonly Axiom[], side: 'added' | 'removed') => {
    for (const a of axioms) {
      if (a.kind !== 'AnnotationAssertion' || a.subject.kind !== 'IRI') continue;
      let entry = bySubject.get(a.subject.iri);
      if (entry === undefined) bySubject.set(a.subject.iri, (entry = { added: [], removed: [] }));
      entry[side].push(a);
    }
  };
  note(diff.onlyInRight, 'added');
  note(diff.onlyInLeft, 'removed');
  return [...bySubject]
    .sort((a, b) => cmp(a[0], b[0]))
    .map(([focus, { added, removed }]) => ({
      focus,
      added,
      removed,
      categories: [...new Set([...added, ...removed].map((a) => annotationCategory(a.property.iri)))].sort(cmp),
    }));
}

// ---------------------------------------------------------------- axiom groups

/** Axioms grouped by their functional-syntax type name, groups sorted by that name. */
export function axiomGroups(axioms: readonly Axiom[]): { axiomType: string; axioms: Axiom[] }[] {
  const out = new Map<string, Axiom[]>();
  for (const a of axioms) {
    const t = axiomTypeName(a);
    const list = out.get(t);
    if (list === undefined) out.set(t, [a]);
    else list.push(a);
  }
  return [...out].sort((a, b) => cmp(a[0], b[0])).map(([axiomType, list]) => ({ axiomType, axioms: list }));
}

export const countLogical = (axioms: readonly Axiom[]): number => axioms.reduce((n, a) => n + (isLogicalAxiom(a) ? 1 : 0), 0);

/** One-sided axioms that mention an anonymous individual (whose identity is per document). */
export function anonymousChurn(diff: AxiomSetDiff): number {
  let n = 0;
  for (const a of [...diff.onlyInLeft, ...diff.onlyInRight]) if (anonymousIndividuals(a).size > 0) n++;
  return n;
}

// ---------------------------------------------------------------- compatibility

export type Compatibility = 'potentially_breaking' | 'non_breaking' | 'metadata_only';

export interface CompatibilityFacts {
  readonly headerChanged: boolean;
  readonly entitiesAdded: number;
  readonly entitiesRemoved: number;
  readonly logicalAdded: number;
  readonly logicalRemoved: number;
  /** Under include_imports, the right closure is missing imports. */
  readonly rightClosureTruncated: boolean;
  /** Reasons from the inferred modes (consistency transition, newly unsatisfiable, errored or suppressed categories, errored stage deltas). */
  readonly inferredReasons: readonly string[];
}

/**
 * TOOLS.md `compatibility`: potentially breaking when the header changed, an entity or logical axiom was
 * removed, a logical axiom was added, the right closure is truncated, or an inferred reason applies;
 * metadata only when nothing logical changed and no entity was added; otherwise non-breaking.
 */
export function classifyCompatibility(f: CompatibilityFacts): { classification: Compatibility; reasons: string[] } {
  const reasons: string[] = [];
  if (f.headerChanged) reasons.push('the ontology id or imports changed');
  if (f.entitiesRemoved > 0) reasons.push(`${f.entitiesRemoved} entit${f.entitiesRemoved === 1 ? 'y was' : 'ies were'} removed`);
  if (f.logicalRemoved > 0) reasons.push(`${f.logicalRemoved} logical axiom${f.logicalRemoved === 1 ? ' was' : 's were'} removed`);
  if (f.logicalAdded > 0) reasons.push(`${f.logicalAdded} logical axiom${f.logicalAdded === 1 ? ' was' : 's were'} added`);
  if (f.rightClosureTruncated) reasons.push('the right imports closure is truncated (unresolved imports)');
  reasons.push(...f.inferredReasons);
  if (reasons.length > 0) return { classification: 'potentially_breaking', reasons };
  if (f.entitiesAdded === 0) return { classification: 'metadata_only', reasons: ['no logical axiom or entity changed'] };
  return {
    classification: 'non_breaking',
    reasons: [`${f.entitiesAdded} entit${f.entitiesAdded === 1 ? 'y was' : 'ies were'} added without logical axioms`],
  };
}
