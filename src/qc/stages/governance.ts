// The `governance` QC stage (TOOLS.md validate_governance, run_qc_suite): project conventions over the
// terms the audited scope owns (declares): IRI policy (required namespaces, an IRI pattern), required
// annotations on classes and properties, and import layering (logical axioms about imported terms).
//
// Severities: a configured IRI policy or required annotation that is not met is an `error` (the caller asked
// for it explicitly); import layering is a `warn` (re-axiomatizing an imported term is sometimes deliberate,
// and it is checked by default).

import { isEntity, isLogicalAxiom, type Axiom, type Entity, type EntityKind, type IRI, type Node } from '../../model/terms.js';
import type { Ontology } from '../../model/ontology.js';
import { FunctionalRenderer } from '../../model/formats/functional/renderer.js';
import { displayName, localName } from '../../model/display.js';
import { IAO_DEFINITION } from '../../model/formats/obo/vocab.js';
import { BUILT_IN_ANNOTATION_PROPERTIES, RDFS_LABEL, STANDARD_PREFIXES } from '../../model/vocab.js';
import { isReserved } from '../../model/profiles/closure-facts.js';
import type { Finding, QcSnapshot, Severity, StageOutcome } from '../finding.js';
import { findingId } from '../identity.js';

export interface GovernanceOptions {
  /** Owned IRIs must start with one of these. */
  readonly required_namespaces?: readonly string[];
  /** ECMAScript regular expression every owned IRI must match (searched in the full IRI). */
  readonly iri_pattern?: string;
  /** IRI, CURIE or name of an annotation property, or `label` / `definition`. */
  readonly required_annotations?: readonly string[];
  /** Flag logical axioms whose subject is an imported term (default true). */
  readonly check_ownership?: boolean;
  /** The whole imports closure is the audited scope (default false: the snapshot's own ontology). */
  readonly include_imports?: boolean;
}

export type GovernanceCheckId = 'iri_policy' | 'required_annotations' | 'import_layering';

export const GOVERNANCE_CHECKS: readonly GovernanceCheckId[] = ['iri_policy', 'required_annotations', 'import_layering'];

export const GOVERNANCE_SEVERITY: Readonly<Record<GovernanceCheckId, Severity>> = {
  iri_policy: 'error', required_annotations: 'error', import_layering: 'warn',
};

/** Annotation properties whose presence counts as a definition. */
export const DEFINITION_PROPERTIES: readonly IRI[] = [IAO_DEFINITION, 'http://www.w3.org/2004/02/skos/core#definition'];

/** Compiles `iri_pattern`; throws an Error naming the problem when it is not a valid ECMAScript regex. */
export function compileIriPattern(pattern: string): RegExp {
  try {
    return new RegExp(pattern);
  } catch (e) {
    throw new Error(`invalid iri_pattern: ${(e as Error).message}`);
  }
}

/** A required annotation as configured, with the property IRIs that satisfy it (empty: unresolved). */
export interface RequiredAnnotation {
  readonly ref: string;
  readonly iris: readonly IRI[];
}

const KINDS_NEEDING_ANNOTATIONS: ReadonlySet<EntityKind> = new Set(['Class', 'ObjectProperty', 'DataProperty', 'AnnotationProperty']);

/** Resolves one `required_annotations` entry; a note explains an entry that resolves to no single property. */
export function resolveRequiredAnnotation(ref: string, s: QcSnapshot): { resolved: RequiredAnnotation; note?: string } {
  if (ref === 'label') return { resolved: { ref, iris: [RDFS_LABEL] } };
  if (ref === 'definition') return { resolved: { ref, iris: DEFINITION_PROPERTIES } };
  if (ref.startsWith('<') && ref.endsWith('>')) return { resolved: { ref, iris: [ref.slice(1, -1)] } };
  const colon = ref.indexOf(':');
  if (colon >= 0) {
    const prefix = ref.slice(0, colon + 1);
    const ns = s.ontology.prefixes.get(prefix) ?? STANDARD_PREFIXES.find(([p]) => p === prefix)?.[1];
    if (ns !== undefined) return { resolved: { ref, iris: [ns + ref.slice(colon + 1)] } };
    if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(ref)) return { resolved: { ref, iris: [ref] } };
  }
  const candidates = new Set<IRI>();
  const consider = (iri: IRI) => {
    if (displayName(iri, s.closure, s.labelLanguage) === ref || localName(iri) === ref) candidates.add(iri);
  };
  for (const iri of BUILT_IN_ANNOTATION_PROPERTIES) consider(iri);
  for (const o of s.closure) for (const e of o.entities('AnnotationProperty')) consider(e.iri);
  if (candidates.size === 1) return { resolved: { ref, iris: [...candidates] } };
  const why = candidates.size === 0 ? 'no annotation property has that IRI, CURIE or name'
    : `it names several annotation properties (${[...candidates].sort().join(', ')})`;
  return { resolved: { ref, iris: [] }, note: `required annotation "${ref}" is not checked: ${why}.` };
}

/** The audited scope, the terms it owns (declares) and the terms only imported members declare. */
interface Ownership {
  readonly scope: readonly Ontology[];
  readonly owned: ReadonlyMap<IRI, readonly Entity[]>;
  readonly imported: ReadonlySet<Entity>;
}

function ownership(s: QcSnapshot, includeImports: boolean): Ownership {
  const scope = includeImports ? s.closure : [s.ontology];
  const ownedSet = new Set<Entity>();
  for (const o of scope) for (const d of o.axiomsOfKind('Declaration')) ownedSet.add(d.entity);
  const imported = new Set<Entity>();
  for (const o of s.closure) {
    if (scope.includes(o)) continue;
    for (const d of o.axiomsOfKind('Declaration')) if (!ownedSet.has(d.entity)) imported.add(d.entity);
  }
  const owned = new Map<IRI, Entity[]>();
  for (const e of ownedSet) {
    if (isReserved(e.iri)) continue;
    const list = owned.get(e.iri);
    if (list === undefined) owned.set(e.iri, [e]);
    else list.push(e);
  }
  return { scope, owned, imported };
}

function finding(check: GovernanceCheckId, message: string, focus: string | null, axiom: string | null, details: Record<string, unknown>, discriminator?: string): Finding {
  return {
    id: findingId('governance', check, focus, axiom, discriminator),
    source: 'governance', severity: GOVERNANCE_SEVERITY[check], message, focus_iri: focus, axiom, path: null, rule_id: check, waiver: null, details,
  };
}

const sortedIris = (m: ReadonlyMap<IRI, unknown>) => [...m.keys()].sort();

function iriPolicy(own: Ownership, namespaces: readonly string[] | undefined, pattern: RegExp | null): Finding[] {
  if ((namespaces === undefined || namespaces.length === 0) && pattern === null) return [];
  const out: Finding[] = [];
  for (const iri of sortedIris(own.owned)) {
    const inNamespace = namespaces === undefined || namespaces.length === 0 || namespaces.some((ns) => iri.startsWith(ns));
    const matches = pattern === null || pattern.test(iri);
    if (inNamespace && matches) continue;
    const why = [
      ...(inNamespace ? [] : [`is outside the required namespaces (${namespaces!.join(', ')})`]),
      ...(matches ? [] : [`does not match iri_pattern ${pattern!.source}`]),
    ].join(' and ');
    out.push(finding('iri_policy', `<${iri}> ${why}.`, iri, null, { in_required_namespace: inNamespace, matches_pattern: matches }));
  }
  return out;
}

function requiredAnnotations(own: Ownership, s: QcSnapshot, required: readonly RequiredAnnotation[]): Finding[] {
  const active = required.filter((r) => r.iris.length > 0);
  if (active.length === 0) return [];
  const out: Finding[] = [];
  for (const iri of sortedIris(own.owned)) {
    const kinds = own.owned.get(iri)!.map((e) => e.kind).filter((k) => KINDS_NEEDING_ANNOTATIONS.has(k));
    if (kinds.length === 0) continue;
    const present = new Set<IRI>();
    for (const o of s.closure) for (const a of o.index.annotationsBySubject.get(iri) ?? []) present.add(a.property.iri);
    for (const r of active) {
      if (r.iris.some((p) => present.has(p))) continue;
      out.push(finding('required_annotations', `${kinds.sort().join('/')} <${iri}> has no ${r.ref} annotation (${r.iris.join(' or ')}).`, iri, null,
        { required: r.ref, properties: r.iris }, r.ref));
    }
  }
  return out;
}

/** The named terms an axiom is about; an axiom is re-axiomatization when every one of them is imported. */
export function axiomSubjects(a: Axiom): readonly Entity[] {
  const named = (xs: readonly Node[]): Entity[] => xs.filter(isEntity);
  switch (a.kind) {
    case 'SubClassOf': return a.sub.kind === 'Class' ? [a.sub] : [];
    case 'EquivalentClasses': return named(a.classes);
    case 'DisjointUnion': return [a.cls];
    case 'HasKey': return a.cls.kind === 'Class' ? [a.cls] : [];
    case 'SubObjectPropertyOf': case 'SubDataPropertyOf': return named([a.sub]);
    case 'SubPropertyChainOf': return named([a.sup]);
    case 'EquivalentObjectProperties': case 'EquivalentDataProperties': return named(a.properties);
    case 'InverseObjectProperties': return named([a.first, a.second]);
    case 'ObjectPropertyDomain': case 'ObjectPropertyRange': case 'DataPropertyDomain': case 'DataPropertyRange':
    case 'FunctionalObjectProperty': case 'InverseFunctionalObjectProperty': case 'ReflexiveObjectProperty':
    case 'IrreflexiveObjectProperty': case 'SymmetricObjectProperty': case 'AsymmetricObjectProperty':
    case 'TransitiveObjectProperty': case 'FunctionalDataProperty':
      return named([a.property]);
    case 'DatatypeDefinition': return [a.datatype];
    case 'ClassAssertion': return named([a.individual]);
    case 'ObjectPropertyAssertion': case 'NegativeObjectPropertyAssertion': case 'DataPropertyAssertion': case 'NegativeDataPropertyAssertion':
      return named([a.subject]);
    case 'SameIndividual': return named(a.individuals);
    default: return [];
  }
}

function importLayering(own: Ownership): Finding[] {
  if (own.imported.size === 0) return [];
  const renderer = new FunctionalRenderer();
  const out: Finding[] = [];
  for (const o of own.scope) {
    for (const a of o.axioms()) {
      if (!isLogicalAxiom(a)) continue;
      const subjects = axiomSubjects(a);
      if (subjects.length === 0 || !subjects.every((e) => own.imported.has(e))) continue;
      const focus = subjects.map((e) => e.iri).sort()[0];
      const text = renderer.axiom(a);
      out.push(finding('import_layering', `${a.kind} axiom about imported term <${focus}> is asserted in the audited ontology.`, focus, text, { axiom_type: a.kind }));
    }
  }
  return out.sort((x, y) => (x.focus_iri! < y.focus_iri! ? -1 : x.focus_iri! > y.focus_iri! ? 1 : x.axiom! < y.axiom! ? -1 : x.axiom! > y.axiom! ? 1 : 0));
}

export interface GovernanceResult {
  readonly findings: readonly Finding[];
  /** Configuration problems (unresolvable annotation references). */
  readonly notes: readonly string[];
}

/** Runs the governance checks (iri_policy, required_annotations, import_layering, in that order). */
export function runGovernance(s: QcSnapshot, options: GovernanceOptions): GovernanceResult {
  const pattern = options.iri_pattern === undefined ? null : compileIriPattern(options.iri_pattern);
  const own = ownership(s, options.include_imports ?? false);
  const notes: string[] = [];
  const required = (options.required_annotations ?? []).map((ref) => {
    const r = resolveRequiredAnnotation(ref, s);
    if (r.note !== undefined) notes.push(r.note);
    return r.resolved;
  });
  const findings = [
    ...iriPolicy(own, options.required_namespaces, pattern),
    ...requiredAnnotations(own, s, required),
    ...((options.check_ownership ?? true) ? importLayering(own) : []),
  ];
  return { findings, notes };
}

export function governanceStage(snapshot: QcSnapshot, options: GovernanceOptions = {}): StageOutcome {
  let result: GovernanceResult;
  try {
    result = runGovernance(snapshot, options);
  } catch (e) {
    return { stage: 'governance', status: 'error', reason: (e as Error).message, findings: [] };
  }
  const { findings, notes } = result;
  const verdict = findings.some((f) => f.severity === 'error') ? 'fail' : findings.length > 0 ? 'warn' : 'pass';
  const counts = Object.fromEntries(GOVERNANCE_CHECKS.map((c) => [c, findings.filter((f) => f.rule_id === c).length]));
  return {
    stage: 'governance', status: 'completed', verdict, findings,
    details: { scope: options.include_imports ? 'imports_closure' : 'active_ontology', counts, ...(notes.length > 0 ? { notes } : {}) },
  };
}
