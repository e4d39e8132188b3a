// The axiom-set diff of two scopes and the syntactic impact of a delta (TOOLS.md 3.2 `diff_ontologies`,
// `analyze_change_impact`). Pure functions over ontologies and axioms: nothing here reads files, renders
// for display or knows about tools.
//
// Anonymous individuals are document scoped: every parse gives its blank nodes fresh identities, so the
// same document read twice would share no axiom that mentions one. Such axioms therefore compare by their
// canonical line (axiom-lines.ts), where each anonymous individual is named by a hash of everything its
// side says about it: equal descriptions compare equal, and any change to what is said about a blank
// node shows every axiom that mentions it as removed and added. Axioms without blank nodes compare by
// identity (terms are interned), which is exact and cheap.

import type { AnonymousIndividual, Axiom, Entity, IRI, Node } from './terms.js';
import { entity, ENTITY_KINDS, isEntity, isLogicalAxiom } from './terms.js';
import type { Ontology } from './ontology.js';
import { anonymousIndividuals, axiomSubjects, forEachChild, signature } from './walk.js';
import { anonymousHashes, LineRenderer } from './render/axiom-lines.js';
import { OWL, OWL_DEPRECATED, RDF, RDFS, XML, XSD } from './vocab.js';

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

// ---------------------------------------------------------------- axiom-set diff

/** The axioms of a scope: the union over its ontologies (an axiom asserted twice counts once). */
export function scopeAxioms(ontologies: readonly Ontology[], logicalOnly: boolean): Set<Axiom> {
  // logical_only keeps OWL 2 logical axioms: declarations and every annotation axiom are left out
  const [only] = ontologies;
  if (only !== undefined && ontologies.length === 1 && !logicalOnly) return new Set(only.axioms());
  const out = new Set<Axiom>();
  for (const o of ontologies) for (const a of o.axioms()) if (!logicalOnly || isLogicalAxiom(a)) out.add(a);
  return out;
}

export interface AxiomSetDiff {
  readonly leftCount: number;
  readonly rightCount: number;
  readonly common: number;
  /** In no particular order: callers sort what they show. */
  readonly onlyInLeft: readonly Axiom[];
  readonly onlyInRight: readonly Axiom[];
}

/** A side's axioms that mention blank nodes, grouped by their hash-named canonical line. */
function blankNodeGroups(axioms: readonly Axiom[]): Map<string, Axiom[]> {
  const out = new Map<string, Axiom[]>();
  if (axioms.length === 0) return out;
  const hash = anonymousHashes(axioms);
  const renderer = new LineRenderer((x) => '_:h' + hash.get(x));
  for (const a of axioms) {
    const line = renderer.axiom(a);
    const group = out.get(line);
    if (group === undefined) out.set(line, [a]);
    else group.push(a);
  }
  return out;
}

const mentionsBlankNode = (a: Axiom) => anonymousIndividuals(a as Node).size > 0;

/**
 * The exact difference of two axiom sets. Blank-node axioms whose lines coincide on one side (two blank
 * nodes described alike) are matched as a multiset: `common` takes the smaller count, the rest is one-sided.
 */
export function diffAxiomSets(left: ReadonlySet<Axiom>, right: ReadonlySet<Axiom>): AxiomSetDiff {
  let common = 0;
  const onlyInLeft: Axiom[] = [];
  const onlyInRight: Axiom[] = [];
  const anonLeft: Axiom[] = [];
  const anonRight: Axiom[] = [];
  for (const a of left) {
    if (right.has(a)) common++;
    else if (mentionsBlankNode(a)) anonLeft.push(a);
    else onlyInLeft.push(a);
  }
  for (const a of right) {
    if (left.has(a)) continue;
    if (mentionsBlankNode(a)) anonRight.push(a);
    else onlyInRight.push(a);
  }
  // an axiom present on both sides as the same object needs no hashing; the others compare by content
  const l = blankNodeGroups(anonLeft);
  const r = blankNodeGroups(anonRight);
  for (const [line, ls] of l) {
    const rs = r.get(line) ?? [];
    common += Math.min(ls.length, rs.length);
    onlyInLeft.push(...ls.slice(rs.length));
  }
  for (const [line, rs] of r) onlyInRight.push(...rs.slice(l.get(line)?.length ?? 0));
  return { leftCount: left.size, rightCount: right.size, common, onlyInLeft, onlyInRight };
}

// ---------------------------------------------------------------- change impact

export interface Delta {
  readonly added: readonly Axiom[];
  readonly removed: readonly Axiom[];
}

const RESERVED = [OWL, RDF, RDFS, XSD, XML];

/** Built-in vocabulary (owl:Thing, rdfs:label, xsd:string, ...): no ontology can change it, so it is never "affected". */
export function isReserved(iri: IRI): boolean {
  return RESERVED.some((ns) => iri.startsWith(ns));
}

/** Every IRI an axiom names: its signature, annotation subjects and IRI values (nested annotations included). */
export function axiomIris(a: Axiom): Set<IRI> {
  const out = new Set<IRI>();
  const visit = (n: Node): void => {
    if (isEntity(n) || n.kind === 'IRI') out.add(n.iri);
    forEachChild(n, visit);
  };
  visit(a);
  if (a.kind === 'AnnotationAssertion' && a.subject.kind === 'IRI') out.add(a.subject.iri);
  if (a.kind === 'AnnotationPropertyDomain' || a.kind === 'AnnotationPropertyRange')
    out.add(a.kind === 'AnnotationPropertyDomain' ? a.domain : a.range);
  return out;
}

export interface AffectedTerm {
  readonly iri: IRI;
  /** Delta axioms naming it, by side. */
  readonly added: number;
  readonly removed: number;
}

/** Terms the delta names (reserved vocabulary left out), most affected first, then by IRI. */
export function directlyAffected(delta: Delta): AffectedTerm[] {
  const counts = new Map<IRI, { added: number; removed: number }>();
  const count = (axioms: readonly Axiom[], side: 'added' | 'removed') => {
    for (const a of axioms) {
      for (const iri of axiomIris(a)) {
        if (isReserved(iri)) continue;
        let c = counts.get(iri);
        if (c === undefined) counts.set(iri, (c = { added: 0, removed: 0 }));
        c[side]++;
      }
    }
  };
  count(delta.added, 'added');
  count(delta.removed, 'removed');
  return [...counts].map(([iri, c]) => ({ iri, ...c })).sort((x, y) => y.added + y.removed - (x.added + x.removed) || cmp(x.iri, y.iri));
}

/** Entities of any kind with this IRI (punning gives several) that `o` mentions. */
function entitiesOf(o: Ontology, iri: IRI): Entity[] {
  return ENTITY_KINDS.map((k) => entity(k, iri)).filter((e) => o.index.referencing.has(e));
}

/** Axioms of `o` that name `iri` as an entity or as an annotation subject (the indexed mentions). */
function indexedMentions(o: Ontology, iri: IRI, into: Set<Axiom>): void {
  for (const e of entitiesOf(o, iri)) for (const a of o.index.referencing.get(e)!) into.add(a);
  for (const a of o.index.annotationsBySubject.get(iri) ?? []) into.add(a);
}

/** In-scope axioms that name an affected term (also as an annotation IRI value) and are not in the delta. */
export function referencingAxioms(scope: readonly Ontology[], iris: ReadonlySet<IRI>, delta: Delta): Axiom[] {
  const found = new Set<Axiom>();
  for (const o of scope) {
    for (const iri of iris) indexedMentions(o, iri, found);
    for (const a of o.axiomsOfKind('AnnotationAssertion')) if (a.value.kind === 'IRI' && iris.has(a.value.iri)) found.add(a);
  }
  for (const a of delta.added) found.delete(a);
  for (const a of delta.removed) found.delete(a);
  return [...found];
}

export const DOWNSTREAM_DEPTH_CAP = 3;
export const DOWNSTREAM_SIZE_CAP = 1000;

export interface DownstreamTerms {
  /** By depth, then IRI. */
  readonly items: readonly { iri: IRI; depth: number }[];
  /** The search stopped at the size cap before the depth cap. */
  readonly searchTruncated: boolean;
}

/**
 * Terms syntactically reachable from the seeds: depth 1 co-occurs with a seed in an axiom, depth 2 with a
 * depth-1 term, up to `depthCap`. The edges are the scope's axioms plus the added ones, so a term that
 * gains or loses a connection through the change is reached either way. Annotation properties and
 * datatypes are reached but not expanded: they connect terms without making one depend on another.
 */
export function downstreamTerms(
  scope: readonly Ontology[],
  seeds: ReadonlySet<IRI>,
  added: readonly Axiom[],
  depthCap = DOWNSTREAM_DEPTH_CAP,
  sizeCap = DOWNSTREAM_SIZE_CAP,
): DownstreamTerms {
  const addedBy = new Map<IRI, Axiom[]>();
  for (const a of added) {
    for (const iri of axiomIris(a)) {
      const list = addedBy.get(iri);
      if (list === undefined) addedBy.set(iri, [a]);
      else list.push(a);
    }
  }
  const depthOf = new Map<IRI, number>();
  const found: { iri: IRI; depth: number }[] = [];
  let frontier = [...seeds].sort(cmp);
  for (const iri of frontier) depthOf.set(iri, 0);
  for (let depth = 1; depth <= depthCap && frontier.length > 0; depth++) {
    const next: IRI[] = [];
    for (const iri of frontier) {
      const axioms = new Set<Axiom>(addedBy.get(iri));
      for (const o of scope) indexedMentions(o, iri, axioms);
      throughBlankNodes(scope, added, axioms);
      const neighbours: Entity[] = [];
      for (const a of axioms) neighbours.push(...signature(a));
      neighbours.sort((x, y) => cmp(x.iri, y.iri));
      for (const e of neighbours) {
        if (depthOf.has(e.iri) || isReserved(e.iri)) continue;
        if (found.length >= sizeCap) return { items: byDepth(found), searchTruncated: true };
        depthOf.set(e.iri, depth);
        found.push({ iri: e.iri, depth });
        if (e.kind !== 'AnnotationProperty' && e.kind !== 'Datatype') next.push(e.iri);
      }
    }
    frontier = next.sort(cmp);
  }
  return { items: byDepth(found), searchTruncated: false };
}

/**
 * Adds to `axioms` every axiom that mentions an anonymous individual one of them mentions, transitively: a
 * blank node has no name to be reached by, so the terms described through it are as near as the node itself.
 */
function throughBlankNodes(scope: readonly Ontology[], added: readonly Axiom[], axioms: Set<Axiom>): void {
  const seen = new Set<AnonymousIndividual>();
  for (const a of axioms) {
    for (const x of anonymousIndividuals(a as Node)) {
      if (seen.has(x)) continue;
      seen.add(x);
      for (const o of scope) for (const b of o.index.referencing.get(x) ?? []) axioms.add(b);
      for (const b of added) if (anonymousIndividuals(b as Node).has(x)) axioms.add(b);
    }
  }
}

const byDepth = (items: { iri: IRI; depth: number }[]) => items.sort((x, y) => x.depth - y.depth || cmp(x.iri, y.iri));

export interface ForeignAxiom {
  readonly operation: 'add' | 'remove';
  readonly subject: IRI;
  readonly axiom: Axiom;
}

/** IRIs declared in an imported member and in no root (the same ownership rule as the governance stage). */
export function importedTerms(roots: readonly Ontology[], imported: readonly Ontology[]): Set<IRI> {
  const own = new Set<IRI>();
  for (const o of roots) for (const d of o.axiomsOfKind('Declaration')) own.add(d.entity.iri);
  const out = new Set<IRI>();
  for (const o of imported) for (const d of o.axiomsOfKind('Declaration')) if (!own.has(d.entity.iri)) out.add(d.entity.iri);
  return out;
}

/** The terms an axiom is about; an annotation assertion is about its IRI subject. */
function subjectIris(a: Axiom): IRI[] {
  if (a.kind === 'AnnotationAssertion') return a.subject.kind === 'IRI' ? [a.subject.iri] : [];
  return [...new Set(axiomSubjects(a).map((e) => e.iri))].sort(cmp);
}

/**
 * Delta axioms about terms declared only in imported members: edits of someone else's terms. An axiom an
 * imported member itself asserts is that member's own and not counted. Ordered add first, then subject.
 */
export function foreignReaxiomatization(delta: Delta, importedIris: ReadonlySet<IRI>, imported: readonly Ontology[]): ForeignAxiom[] {
  const out: ForeignAxiom[] = [];
  const scan = (axioms: readonly Axiom[], operation: 'add' | 'remove') => {
    for (const a of axioms) {
      if (imported.some((o) => o.has(a))) continue;
      const subjects = subjectIris(a);
      const [subject] = subjects;
      if (subject !== undefined && subjects.every((s) => importedIris.has(s))) out.push({ operation, subject, axiom: a });
    }
  };
  scan(delta.added, 'add');
  scan(delta.removed, 'remove');
  return out.sort((x, y) => cmp(x.operation, y.operation) || cmp(x.subject, y.subject));
}

/** owl:deprecated with a true value, as OWL tools write it ("true"^^xsd:boolean, or a plain "true"/"1"). */
function isDeprecation(a: Axiom): a is Extract<Axiom, { kind: 'AnnotationAssertion' }> {
  return (
    a.kind === 'AnnotationAssertion' &&
    a.property.iri === OWL_DEPRECATED &&
    a.subject.kind === 'IRI' &&
    a.value.kind === 'Literal' &&
    (a.value.lex.trim() === 'true' || a.value.lex.trim() === '1')
  );
}

/**
 * Affected terms that are deprecated after the change (a deprecation in scope not removed, or one added)
 * and still named by a logical axiom after it (a referencing axiom or an added one). Sorted by IRI.
 */
export function deprecatedTermsInUse(
  scope: readonly Ontology[],
  affected: ReadonlySet<IRI>,
  delta: Delta,
  referencing: readonly Axiom[],
): IRI[] {
  const removed = new Set(delta.removed);
  const deprecated = new Set<IRI>();
  const note = (a: Axiom) => {
    if (isDeprecation(a) && a.subject.kind === 'IRI' && affected.has(a.subject.iri) && !removed.has(a)) deprecated.add(a.subject.iri);
  };
  for (const o of scope) for (const iri of affected) for (const a of o.index.annotationsBySubject.get(iri) ?? []) note(a);
  delta.added.forEach(note);
  const used = new Set<IRI>();
  for (const a of [...referencing, ...delta.added]) {
    if (!isLogicalAxiom(a)) continue;
    for (const e of signature(a)) if (deprecated.has(e.iri)) used.add(e.iri);
  }
  return [...used].sort(cmp);
}

export interface ModuleRule {
  readonly id: string;
  /** Namespaces whose terms the module owns. */
  readonly namespaces: readonly string[];
}

export interface ModuleAttribution {
  /** Module id (co-owners comma-joined) → its terms, sorted by IRI; modules by id. */
  readonly modules: readonly { module: string; terms: readonly IRI[] }[];
  readonly unowned: readonly IRI[];
}

/** Attributes each term to the modules whose namespaces it starts with; a term in several is co-owned. */
export function attributeModules(iris: readonly IRI[], rules: readonly ModuleRule[]): ModuleAttribution {
  const byModule = new Map<string, IRI[]>();
  const unowned: IRI[] = [];
  for (const iri of [...iris].sort(cmp)) {
    const owners = rules
      .filter((m) => m.namespaces.some((ns) => iri.startsWith(ns)))
      .map((m) => m.id)
      .sort(cmp);
    if (owners.length === 0) {
      unowned.push(iri);
      continue;
    }
    const key = owners.join(',');
    const list = byModule.get(key);
    if (list === undefined) byModule.set(key, [iri]);
    else list.push(iri);
  }
  return { modules: [...byModule].sort((x, y) => cmp(x[0], y[0])).map(([module, terms]) => ({ module, terms })), unowned };
}
