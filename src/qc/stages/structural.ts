// The structural audit (validate_ontology and the `structural` QC stage): modelling smells read from the
// asserted axioms only, never a consistency proof. One pass over the closure's annotation assertions and
// declarations gathers labels, definitions, deprecation and declarations; each check then reads those facts
// and the ontology indexes.
//
// Severities: `warn` marks a smell that is a defect in any curated ontology (the term cannot be named or
// told apart, a retired term is still used, an entity has no declaration, the told hierarchy loops); those
// are the smells that gate (the stage verdict is `warn` when one is found, so `fail_on` decides whether they
// block). `info` marks advice whose absence is often deliberate (definitions, domains and ranges, classes
// kept only as annotated terms).

import type { Axiom, DataProperty, Entity, EntityKind, IRI, ObjectProperty, ObjectPropertyExpression } from '../../model/terms.js';
import type { Ontology } from '../../model/ontology.js';
import { isLogicalAxiom } from '../../model/terms.js';
import { isBuiltIn } from '../../model/resolver.js';
import { displayName } from '../../model/display.js';
import { FunctionalRenderer } from '../../model/formats/functional/renderer.js';
import { OWL_DEPRECATED, OWL_THING, RDFS_LABEL, RDF_LANG_STRING } from '../../model/vocab.js';
import type { Finding, QcSnapshot, Severity, StageOutcome } from '../finding.js';
import { findingId } from '../identity.js';
import { DEFINITION_PROPERTIES } from './governance.js';
import { stronglyConnectedComponents } from '../../util/strongly-connected.js';

export const STRUCTURAL_CHECKS = [
  'missing_label',
  'missing_definition',
  'duplicate_label',
  'multiple_labels',
  'deprecated_in_use',
  'undeclared_entity',
  'property_missing_domain',
  'property_missing_range',
  'self_subclass',
  'subclass_cycle',
  'isolated_class',
] as const;

export type StructuralCheckId = (typeof STRUCTURAL_CHECKS)[number];

interface CheckInfo {
  readonly severity: Severity;
  readonly title: string;
  readonly suggestion: string;
}

export const CHECK_INFO: Readonly<Record<StructuralCheckId, CheckInfo>> = {
  missing_label: {
    severity: 'warn',
    title: 'Classes and properties without an rdfs:label',
    suggestion: 'Add an rdfs:label (set_label) so the term can be named by people and by display-name references.',
  },
  missing_definition: {
    severity: 'info',
    title: 'Classes and properties without a textual definition',
    suggestion: 'Add a definition (IAO:0000115 or skos:definition) stating what the term means.',
  },
  duplicate_label: {
    severity: 'warn',
    title: 'Different terms sharing one label',
    suggestion: 'Make each label unique (within its language), or merge the terms if they mean the same thing.',
  },
  multiple_labels: {
    severity: 'warn',
    title: 'Terms with more than one rdfs:label in the same language',
    suggestion: 'Keep one rdfs:label per language; move the others to a synonym property.',
  },
  deprecated_in_use: {
    severity: 'warn',
    title: 'Deprecated terms still used in logical axioms',
    suggestion: 'Replace the deprecated term by its successor in these axioms, or remove the axioms.',
  },
  undeclared_entity: {
    severity: 'warn',
    title: 'Entities used without a declaration',
    suggestion: 'Declare the entity with its type (add_axiom declaration), or correct a mistyped IRI.',
  },
  property_missing_domain: {
    severity: 'info',
    title: 'Object and data properties without a domain',
    suggestion: 'State a domain (object_property_domain / data_property_domain) if the property applies to one kind of thing.',
  },
  property_missing_range: {
    severity: 'info',
    title: 'Object and data properties without a range',
    suggestion: 'State a range (object_property_range / data_property_range) for the values of the property.',
  },
  self_subclass: {
    severity: 'warn',
    title: 'Classes asserted as subclasses of themselves',
    suggestion: 'Remove the SubClassOf axiom: it states nothing.',
  },
  subclass_cycle: {
    severity: 'warn',
    title: 'Cycles in the asserted subclass hierarchy',
    suggestion: 'Break the cycle, or state the classes as equivalent if that is what is meant.',
  },
  isolated_class: {
    severity: 'info',
    title: 'Classes used in no logical axiom',
    suggestion: 'Place the class in the hierarchy (add_subclass_of) or remove it if unused.',
  },
};

const DEFINITIONS: ReadonlySet<IRI> = new Set(DEFINITION_PROPERTIES);

/** Terms the server itself mints for competency questions are exempt (TOOLS.md validate_ontology). */
const CQ_NAMESPACE = 'urn:athene:cq#';

const LABELLED_KINDS: ReadonlySet<EntityKind> = new Set(['Class', 'ObjectProperty', 'DataProperty', 'AnnotationProperty']);
const DEFINED_KINDS: ReadonlySet<EntityKind> = new Set(['Class', 'ObjectProperty', 'DataProperty']);

/** One problem: the entities concerned (the focus first), the axiom if one is to blame, a rendered detail. */
export interface StructuralIssue {
  readonly entities: readonly Entity[];
  readonly axiom: Axiom | null;
  readonly message: string;
  readonly detail?: string;
}

export interface CheckReport extends CheckInfo {
  readonly id: StructuralCheckId;
  readonly issues: readonly StructuralIssue[];
}

/** What the audit reads: the active ontology (or its private copy) and its imports closure, itself first. */
export interface AuditView {
  readonly ontology: Ontology;
  readonly closure: readonly Ontology[];
  readonly labelLanguage: string;
}

export interface AuditOptions {
  readonly checks?: readonly StructuralCheckId[] | undefined;
  /** Audit the whole closure and treat imported terms as owned. */
  readonly includeImports: boolean;
  /** Absolute time (ms since the epoch); passing it throws an AuditTimeout. */
  readonly deadline: number;
}

export class AuditTimeout extends Error {
  constructor() {
    super('the structural audit did not finish within its time bound');
    this.name = 'AuditTimeout';
  }
}

interface Label {
  readonly lex: string;
  readonly lang: string;
  readonly axiom: Axiom;
}

/** Facts gathered once from the closure. */
interface Facts {
  readonly labels: Map<IRI, Label[]>;
  readonly defined: Set<IRI>;
  readonly deprecated: Set<IRI>;
  /** Declared entities per closure member position: 0 = the audited ontology itself. */
  readonly declaredHere: Set<Entity>;
  readonly declaredElsewhere: Set<Entity>;
}

class Clock {
  private ticks = 0;
  constructor(private readonly deadline: number) {}
  /** Cheap enough for inner loops: the clock is read every 1,024 calls. */
  tick(): void {
    if ((++this.ticks & 1023) === 0 && Date.now() > this.deadline) throw new AuditTimeout();
  }
}

const isTrue = (lex: string) => lex === 'true' || lex === '1';

function gatherFacts(view: AuditView, clock: Clock): Facts {
  const facts: Facts = {
    labels: new Map(),
    defined: new Set(),
    deprecated: new Set(),
    declaredHere: new Set(),
    declaredElsewhere: new Set(),
  };
  for (const o of view.closure) {
    for (const a of o.axiomsOfKind('AnnotationAssertion')) {
      clock.tick();
      if (a.subject.kind !== 'IRI') continue;
      const iri = a.subject.iri;
      const p = a.property.iri;
      if (p === RDFS_LABEL && a.value.kind === 'Literal') {
        let list = facts.labels.get(iri);
        if (list === undefined) facts.labels.set(iri, (list = []));
        list.push({ lex: a.value.lex, lang: a.value.datatype === RDF_LANG_STRING ? a.value.lang.toLowerCase() : '', axiom: a });
      } else if (DEFINITIONS.has(p)) {
        facts.defined.add(iri);
      } else if (p === OWL_DEPRECATED && a.value.kind === 'Literal' && isTrue(a.value.lex)) {
        facts.deprecated.add(iri);
      }
    }
    const into = o === view.ontology ? facts.declaredHere : facts.declaredElsewhere;
    for (const d of o.axiomsOfKind('Declaration')) into.add(d.entity);
  }
  return facts;
}

/** The audited ontologies: the active one, or the whole closure with include_imports. */
const scopeOf = (view: AuditView, includeImports: boolean): readonly Ontology[] => (includeImports ? view.closure : [view.ontology]);

const ENTITY_KINDS_SET: ReadonlySet<string> = new Set([
  'Class',
  'ObjectProperty',
  'DataProperty',
  'AnnotationProperty',
  'NamedIndividual',
  'Datatype',
]);

const byIri = (a: Entity, b: Entity) => (a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0);

/** Issues by their first entity (every issue names one; an issue without would come first). */
function byFirstEntity(x: StructuralIssue, y: StructuralIssue): number {
  const [a] = x.entities;
  const [b] = y.entities;
  return a === undefined || b === undefined ? (a === undefined ? 0 : 1) - (b === undefined ? 0 : 1) : byIri(a, b);
}

/** Entities in the signature of the audited ontologies, built-ins and the CQ namespace left out, by IRI. */
function scopeTerms(scope: readonly Ontology[]): Entity[] {
  const out = new Set<Entity>();
  for (const o of scope) {
    for (const k of o.index.referencing.keys()) {
      if (!ENTITY_KINDS_SET.has(k.kind)) continue;
      const e = k as Entity;
      if (!isBuiltIn(e) && !e.iri.startsWith(CQ_NAMESPACE)) out.add(e);
    }
  }
  return [...out].sort(byIri);
}

interface Audit {
  readonly view: AuditView;
  readonly facts: Facts;
  readonly scope: readonly Ontology[];
  readonly terms: readonly Entity[];
  /** Terms the audit answers for: declared in the audited ontology, or declared nowhere else. */
  readonly owned: readonly Entity[];
  readonly clock: Clock;
}

const name = (au: Audit, iri: IRI) => displayName(iri, au.view.closure, au.view.labelLanguage);

/** Labels, definitions and deprecation belong to an IRI: a punned IRI is one term for those checks. */
function oncePerIri(entities: readonly Entity[]): Entity[] {
  const seen = new Set<IRI>();
  return entities.filter((e) => !seen.has(e.iri) && seen.add(e.iri) !== undefined);
}

function missingLabel(au: Audit): StructuralIssue[] {
  return oncePerIri(au.owned.filter((e) => LABELLED_KINDS.has(e.kind)))
    .filter((e) => !au.facts.labels.has(e.iri))
    .map((e) => ({ entities: [e], axiom: null, message: `${e.kind} ${name(au, e.iri)} has no rdfs:label.` }));
}

function missingDefinition(au: Audit): StructuralIssue[] {
  return oncePerIri(au.owned.filter((e) => DEFINED_KINDS.has(e.kind)))
    .filter((e) => !au.facts.defined.has(e.iri) && !au.facts.deprecated.has(e.iri))
    .map((e) => ({ entities: [e], axiom: null, message: `${e.kind} ${name(au, e.iri)} has no definition.` }));
}

const normalizeLabel = (lex: string) => lex.trim().replace(/\s+/g, ' ').toLowerCase();

/** Labels shared by different IRIs (same language, compared case- and space-insensitively); deprecated terms aside. */
function duplicateLabel(au: Audit): StructuralIssue[] {
  const byLabel = new Map<string, { labels: Label[]; entities: Entity[] }>();
  for (const e of oncePerIri(au.terms)) {
    au.clock.tick();
    if (au.facts.deprecated.has(e.iri)) continue;
    const keys = new Set<string>();
    for (const l of au.facts.labels.get(e.iri) ?? []) {
      const key = l.lang + '\u0000' + normalizeLabel(l.lex);
      if (keys.has(key)) continue;
      keys.add(key);
      const group = byLabel.get(key);
      if (group === undefined) byLabel.set(key, { labels: [l], entities: [e] });
      else {
        group.labels.push(l);
        group.entities.push(e);
      }
    }
  }
  const ownedIris = new Set(au.owned.map((e) => e.iri));
  const out: StructuralIssue[] = [];
  for (const { labels, entities } of byLabel.values()) {
    const [label] = labels;
    if (label === undefined || entities.length < 2 || !entities.some((e) => ownedIris.has(e.iri))) continue;
    const shown = JSON.stringify(label.lex) + (label.lang === '' ? '' : '@' + label.lang);
    const iris = entities.map((e) => e.iri).join(', ');
    // the focus's own label assertion is the axiom concerned: it keeps the finding id apart from the focus's other labels
    out.push({
      entities,
      axiom: label.axiom,
      message: `Label ${shown} is used by ${entities.length} terms: ${iris}.`,
      detail: `${shown}: ${iris}`,
    });
  }
  return out.sort((x, y) => byFirstEntity(x, y) || (x.detail! < y.detail! ? -1 : x.detail! > y.detail! ? 1 : 0));
}

function multipleLabels(au: Audit): StructuralIssue[] {
  const out: StructuralIssue[] = [];
  for (const e of oncePerIri(au.owned)) {
    const perLang = new Map<string, number>();
    for (const l of au.facts.labels.get(e.iri) ?? []) perLang.set(l.lang, (perLang.get(l.lang) ?? 0) + 1);
    const langs = [...perLang]
      .filter(([, n]) => n > 1)
      .map(([lang]) => (lang === '' ? 'untagged' : lang))
      .sort();
    if (langs.length > 0)
      out.push({
        entities: [e],
        axiom: null,
        message: `${name(au, e.iri)} has several rdfs:labels in the same language (${langs.join(', ')}).`,
        detail: `${e.iri}: ${langs.join(', ')}`,
      });
  }
  return out;
}

/** The audited logical axioms that mention `e`, in their canonical rendering order. */
function logicalUses(au: Audit, e: Entity): Axiom[] {
  const out: Axiom[] = [];
  for (const o of au.scope) for (const a of o.index.referencing.get(e) ?? []) if (isLogicalAxiom(a)) out.push(a);
  return out;
}

const functional = new FunctionalRenderer();
const renderOrder = (a: Axiom, b: Axiom) => {
  const x = functional.axiom(a);
  const y = functional.axiom(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

/** One issue per use, so a new use of a deprecated term is a new finding and the known ones keep their ids. */
function deprecatedInUse(au: Audit): StructuralIssue[] {
  const out: StructuralIssue[] = [];
  for (const e of au.terms) {
    if (!au.facts.deprecated.has(e.iri)) continue;
    for (const a of logicalUses(au, e).sort(renderOrder)) {
      out.push({ entities: [e], axiom: a, message: `Deprecated ${e.kind} ${name(au, e.iri)} is still used in a ${a.kind} axiom.` });
    }
  }
  return out;
}

/** One issue per IRI (its undeclared kinds together), so a punned IRI keeps one stable finding id. */
function undeclaredEntity(au: Audit): StructuralIssue[] {
  const byIriMap = new Map<IRI, Entity[]>();
  for (const e of au.terms) {
    if (au.facts.declaredHere.has(e) || au.facts.declaredElsewhere.has(e)) continue;
    const list = byIriMap.get(e.iri);
    if (list === undefined) byIriMap.set(e.iri, [e]);
    else list.push(e);
  }
  return [...byIriMap].map(([iri, entities]) => ({
    entities,
    axiom: null,
    message: `${entities.map((e) => e.kind).join(' and ')} ${name(au, iri)} is used but not declared.`,
  }));
}

/** Properties with a told domain (or range), directly, through an inverse, or from a told super-property. */
function coveredProperties(au: Audit, which: 'domain' | 'range'): (p: Entity) => boolean {
  const direct = new Set<Entity>();
  const note = (p: ObjectPropertyExpression | DataProperty, isDomain: boolean) => {
    if (p.kind === 'ObjectInverseOf') {
      if (isDomain !== (which === 'domain')) direct.add(p.property);
    } else if (isDomain === (which === 'domain')) direct.add(p);
  };
  for (const o of au.view.closure) {
    for (const a of o.axiomsOfKind('ObjectPropertyDomain')) note(a.property, true);
    for (const a of o.axiomsOfKind('ObjectPropertyRange')) note(a.property, false);
    for (const a of o.axiomsOfKind('DataPropertyDomain')) note(a.property, true);
    for (const a of o.axiomsOfKind('DataPropertyRange')) note(a.property, false);
  }
  const memo = new Map<Entity, boolean>();
  const covered = (p: ObjectProperty | DataProperty, visiting: Set<Entity>): boolean => {
    const known = memo.get(p);
    if (known !== undefined) return known;
    if (direct.has(p)) return true;
    if (visiting.has(p)) return false;
    visiting.add(p);
    let found = false;
    for (const o of au.view.closure) {
      for (const sup of o.index.superProperties(p)) {
        if (typeof sup !== 'string' && (sup.kind === 'ObjectProperty' || sup.kind === 'DataProperty') && covered(sup, visiting))
          found = true;
      }
    }
    visiting.delete(p);
    memo.set(p, found);
    return found;
  };
  return (p) => (p.kind === 'ObjectProperty' || p.kind === 'DataProperty') && covered(p, new Set());
}

function propertyMissing(au: Audit, which: 'domain' | 'range'): StructuralIssue[] {
  const covered = coveredProperties(au, which);
  return au.owned
    .filter((e) => (e.kind === 'ObjectProperty' || e.kind === 'DataProperty') && !covered(e))
    .map((e) => ({
      entities: [e],
      axiom: null,
      message: `${e.kind} ${name(au, e.iri)} has no ${which} (none asserted, none inherited from a super-property).`,
    }));
}

function selfSubclass(au: Audit): StructuralIssue[] {
  const out: StructuralIssue[] = [];
  for (const o of au.scope) {
    for (const a of o.axiomsOfKind('SubClassOf')) {
      au.clock.tick();
      if (a.sub === a.sup && a.sub.kind === 'Class')
        out.push({ entities: [a.sub], axiom: a, message: `${name(au, a.sub.iri)} is asserted to be a subclass of itself.` });
    }
  }
  return out.sort(byFirstEntity);
}

/** One cycle through the component's first member (by IRI), found by breadth-first search inside it. */
function cycleThrough(comp: readonly [Entity, ...Entity[]], edges: ReadonlyMap<Entity, readonly Entity[]>): Entity[] {
  const members = new Set(comp);
  const start = comp.reduce((least, e) => (byIri(e, least) < 0 ? e : least));
  const parent = new Map<Entity, Entity>();
  const queue: Entity[] = [start];
  // breadth-first: for…of visits the entities pushed while it runs
  for (const v of queue) {
    for (const w of edges.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        for (let head = v; head !== start;) {
          head = parent.get(head)!; // every queued entity but start has a parent
          path.unshift(head);
        }
        return [...path, start];
      }
      if (!parent.has(w)) {
        parent.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

function subclassCycle(au: Audit): StructuralIssue[] {
  const edges = new Map<Entity, Entity[]>();
  for (const o of au.scope) {
    for (const a of o.axiomsOfKind('SubClassOf')) {
      if (a.sub.kind !== 'Class' || a.sup.kind !== 'Class' || a.sub === a.sup) continue;
      let list = edges.get(a.sub);
      if (list === undefined) edges.set(a.sub, (list = []));
      list.push(a.sup);
    }
  }
  for (const list of edges.values()) list.sort(byIri);
  // a hierarchy cycle is a component of two or more classes; a told self-subclass is selfSubclass's finding
  return stronglyConnectedComponents(
    edges.keys(),
    (n) => edges.get(n) ?? [],
    () => au.clock.tick(),
  )
    .filter((comp): comp is [Entity, ...Entity[]] => comp.length > 1)
    .map((comp) => {
      const path = cycleThrough(comp, edges);
      const rendered = path.map((e) => name(au, e.iri)).join(' → ');
      return {
        entities: [...comp].sort(byIri),
        axiom: null,
        message: `The asserted subclass hierarchy loops: ${rendered}.`,
        detail: rendered,
      };
    })
    .sort(byFirstEntity);
}

function isolatedClass(au: Audit): StructuralIssue[] {
  const out: StructuralIssue[] = [];
  for (const e of au.owned) {
    if (e.kind !== 'Class' || e.iri === OWL_THING) continue;
    au.clock.tick();
    let used = false;
    for (const o of au.view.closure) {
      for (const a of o.index.referencing.get(e) ?? []) {
        if (isLogicalAxiom(a)) {
          used = true;
          break;
        }
      }
      if (used) break;
    }
    if (!used)
      out.push({
        entities: [e],
        axiom: null,
        message: `Class ${name(au, e.iri)} is used in no logical axiom (no superclass, subclass, restriction or instance).`,
      });
  }
  return out;
}

const CHECKS: Readonly<Record<StructuralCheckId, (au: Audit) => StructuralIssue[]>> = {
  missing_label: missingLabel,
  missing_definition: missingDefinition,
  duplicate_label: duplicateLabel,
  multiple_labels: multipleLabels,
  deprecated_in_use: deprecatedInUse,
  undeclared_entity: undeclaredEntity,
  property_missing_domain: (au) => propertyMissing(au, 'domain'),
  property_missing_range: (au) => propertyMissing(au, 'range'),
  self_subclass: selfSubclass,
  subclass_cycle: subclassCycle,
  isolated_class: isolatedClass,
};

/** Runs the selected checks (all by default) in report order. Throws AuditTimeout past the deadline. */
export function auditStructure(view: AuditView, options: AuditOptions): CheckReport[] {
  const clock = new Clock(options.deadline);
  const facts = gatherFacts(view, clock);
  const scope = scopeOf(view, options.includeImports);
  const terms = scopeTerms(scope);
  const owned = options.includeImports ? terms : terms.filter((e) => facts.declaredHere.has(e) || !facts.declaredElsewhere.has(e));
  const au: Audit = { view, facts, scope, terms, owned, clock };
  const wanted = new Set(options.checks ?? STRUCTURAL_CHECKS);
  const out: CheckReport[] = [];
  for (const id of STRUCTURAL_CHECKS) {
    if (!wanted.has(id)) continue;
    if (Date.now() > options.deadline) throw new AuditTimeout();
    out.push({ id, ...CHECK_INFO[id], issues: CHECKS[id](au) });
  }
  return out;
}

/** The issue as a QC finding (focus = its first entity; axiom in functional syntax with full IRIs). */
function toFinding(check: CheckReport, issue: StructuralIssue): Finding {
  const focus = issue.entities[0]?.iri ?? null;
  const axiom = issue.axiom === null ? null : functional.axiom(issue.axiom);
  const others = issue.entities.slice(1).map((e) => e.iri);
  return {
    id: findingId('structural', check.id, focus, axiom),
    source: 'structural',
    severity: check.severity,
    message: issue.message,
    focus_iri: focus,
    axiom,
    path: null,
    rule_id: check.id,
    waiver: null,
    ...(others.length > 0 || issue.detail !== undefined
      ? {
          details: {
            ...(others.length > 0 ? { related_iris: others } : {}),
            ...(issue.detail !== undefined ? { detail: issue.detail } : {}),
          },
        }
      : {}),
  };
}

export interface StructuralStageOptions {
  readonly includeImports: boolean;
  readonly deadline: number;
}

/** The `structural` stage: only warn-severity smells gate (verdict `warn`, judged by `fail_on`); info advice alone is verdict `info`. */
export function structuralStage(s: QcSnapshot, options: StructuralStageOptions): StageOutcome {
  const reports = auditStructure(s, { includeImports: options.includeImports, deadline: options.deadline });
  const findings = reports.flatMap((r) => r.issues.map((i) => toFinding(r, i)));
  const counts = Object.fromEntries(reports.map((r) => [r.id, r.issues.length]));
  const verdict = findings.some((f) => f.severity === 'warn') ? 'warn' : findings.length > 0 ? 'info' : 'pass';
  return {
    stage: 'structural',
    status: 'completed',
    verdict,
    findings,
    details: { checks: counts, include_imports: options.includeImports },
  };
}
