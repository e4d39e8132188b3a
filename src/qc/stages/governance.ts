// The `governance` QC stage (TOOLS.md validate_governance, run_qc_suite): project conventions over the
// terms the audited scope owns (declares): IRI policy (required namespaces, an IRI pattern), required
// annotations on classes and properties, and import layering (logical axioms about imported terms). Under a
// project policy it also checks label language and cardinality, definition presence, language, datatype and
// placeholders, lifecycle status values and replacements of deprecated terms (TOOLS.md run_project_qc).
//
// Severities: a configured IRI policy or required annotation that is not met is an `error` (the caller asked
// for it explicitly); import layering is a `warn` (re-axiomatizing an imported term is sometimes deliberate,
// and it is checked by default).

import { axiomTypeName, isLogicalAxiom, type AnnotationAssertion, type Entity, type EntityKind, type IRI } from '../../model/terms.js';
import { axiomSubjects } from '../../model/walk.js';
import type { Ontology } from '../../model/ontology.js';
import { FunctionalRenderer } from '../../model/formats/functional/renderer.js';
import { displayName, localName } from '../../model/display.js';
import { IAO_DEFINITION } from '../../model/formats/obo/vocab.js';
import { BUILT_IN_ANNOTATION_PROPERTIES, OWL_DEPRECATED, RDF_LANG_STRING, RDFS_LABEL, STANDARD_PREFIXES } from '../../model/vocab.js';
import { isReserved } from '../../model/profiles/closure-facts.js';
import type { Finding, QcSnapshot, Severity, StageOutcome } from '../finding.js';
import { findingId } from '../identity.js';

export interface GovernanceOptions {
  /** Owned IRIs must start with one of these. */
  readonly required_namespaces?: readonly string[] | undefined;
  /** ECMAScript regular expression every owned IRI must match (searched in the full IRI). */
  readonly iri_pattern?: string | undefined;
  /** IRI, CURIE or name of an annotation property, or `label` / `definition`. */
  readonly required_annotations?: readonly string[] | undefined;
  /** Flag logical axioms whose subject is an imported term (default true). */
  readonly check_ownership?: boolean | undefined;
  /** The whole imports closure is the audited scope (default false: the snapshot's own ontology). */
  readonly include_imports?: boolean | undefined;
  /** Policy `annotations.label` (IRIs expanded); absent: not checked. */
  readonly label_rules?: LabelRules | undefined;
  /** Policy `annotations.definition` (IRIs expanded); absent: not checked. */
  readonly definition_rules?: DefinitionRules | undefined;
  /** Policy `lifecycle` (IRIs expanded); absent: not checked. */
  readonly lifecycle_rules?: LifecycleRules | undefined;
}

/**
 * Label conventions of a project policy. `languages`: a term that has (or must have) a label needs one in each
 * (untagged labels count as `und`); `max_per_language` bounds the labels of one language.
 */
export interface LabelRules {
  readonly property: IRI;
  readonly required: boolean;
  readonly languages: readonly string[];
  readonly max_per_language: number;
}

/**
 * Definition conventions of a project policy. `languages`: a term that has (or must have) a definition needs
 * one in each; `placeholders` are compared trimmed and case-insensitively.
 */
export interface DefinitionRules {
  readonly property: IRI;
  readonly required: boolean;
  readonly languages: readonly string[];
  readonly datatype: IRI | null;
  readonly placeholders: readonly string[];
}

/** Lifecycle conventions of a project policy: status values, and replacements for deprecated terms. */
export interface LifecycleRules {
  readonly status_property: IRI | null;
  /** Literal lexical forms or full IRIs; empty: any status is allowed. */
  readonly allowed_statuses: readonly string[];
  readonly replacement_property: IRI;
  readonly deprecated_requires_replacement: boolean;
}

/** Rule ids of the policy-only checks (every one an `error`: the policy asks for it explicitly). */
export const POLICY_GOVERNANCE_RULES = [
  'annotations.label_missing',
  'annotations.label_language',
  'annotations.label_cardinality',
  'annotations.definition_missing',
  'annotations.definition_language',
  'annotations.definition_datatype',
  'annotations.definition_placeholder',
  'lifecycle.status_invalid',
  'lifecycle.replacement_missing',
] as const;

export type PolicyGovernanceRule = (typeof POLICY_GOVERNANCE_RULES)[number];

export type GovernanceCheckId = 'iri_policy' | 'required_annotations' | 'import_layering';

export const GOVERNANCE_CHECKS: readonly GovernanceCheckId[] = ['iri_policy', 'required_annotations', 'import_layering'];

export const GOVERNANCE_SEVERITY: Readonly<Record<GovernanceCheckId, Severity>> = {
  iri_policy: 'error',
  required_annotations: 'error',
  import_layering: 'warn',
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
  const why =
    candidates.size === 0
      ? 'no annotation property has that IRI, CURIE or name'
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

function finding(
  check: GovernanceCheckId,
  message: string,
  focus: string | null,
  axiom: string | null,
  details: Record<string, unknown>,
  discriminator?: string,
): Finding {
  return {
    id: findingId('governance', check, focus, axiom, discriminator),
    source: 'governance',
    severity: GOVERNANCE_SEVERITY[check],
    message,
    focus_iri: focus,
    axiom,
    path: null,
    rule_id: check,
    waiver: null,
    details,
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
    const kinds = own.owned
      .get(iri)!
      .map((e) => e.kind)
      .filter((k) => KINDS_NEEDING_ANNOTATIONS.has(k));
    if (kinds.length === 0) continue;
    const present = new Set<IRI>();
    for (const o of s.closure) for (const a of o.index.annotationsBySubject.get(iri) ?? []) present.add(a.property.iri);
    for (const r of active) {
      if (r.iris.some((p) => present.has(p))) continue;
      out.push(
        finding(
          'required_annotations',
          `${kinds.sort().join('/')} <${iri}> has no ${r.ref} annotation (${r.iris.join(' or ')}).`,
          iri,
          null,
          { required: r.ref, properties: r.iris },
          r.ref,
        ),
      );
    }
  }
  return out;
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
      const focus = subjects.map((e) => e.iri).reduce((least, iri) => (iri < least ? iri : least));
      const text = renderer.axiom(a);
      out.push(
        finding('import_layering', `${a.kind} axiom about imported term <${focus}> is asserted in the audited ontology.`, focus, text, {
          axiom_type: axiomTypeName(a),
        }),
      );
    }
  }
  return out.sort((x, y) =>
    x.focus_iri! < y.focus_iri! ? -1 : x.focus_iri! > y.focus_iri! ? 1 : x.axiom! < y.axiom! ? -1 : x.axiom! > y.axiom! ? 1 : 0,
  );
}

const FULL_IRIS = new FunctionalRenderer();

/** A policy finding about one owned term; `axiom` is the annotation assertion concerned, if one. */
function policyFinding(
  rule: PolicyGovernanceRule,
  message: string,
  focus: IRI,
  axiom: AnnotationAssertion | null,
  details: Record<string, unknown>,
  discriminator?: string,
): Finding {
  const text = axiom === null ? null : FULL_IRIS.axiom(axiom);
  return {
    id: findingId('governance', rule, focus, text, discriminator),
    source: 'governance',
    severity: 'error',
    message,
    focus_iri: focus,
    axiom: text,
    path: null,
    rule_id: rule,
    waiver: null,
    details,
  };
}

/** The assertions of `property` on `iri` anywhere in the closure, each once. */
function valuesOf(s: QcSnapshot, iri: IRI, property: IRI): AnnotationAssertion[] {
  const out = new Set<AnnotationAssertion>();
  for (const o of s.closure) for (const a of o.index.annotationsBySubject.get(iri) ?? []) if (a.property.iri === property) out.add(a);
  return [...out];
}

/** The language tag of a value, lower-cased; untagged literals and IRIs are `und`. */
const languageOf = (a: AnnotationAssertion): string =>
  a.value.kind === 'Literal' && a.value.lang !== '' ? a.value.lang.toLowerCase() : 'und';

/** Languages of `wanted` with no value among `values`. */
function missingLanguages(values: readonly AnnotationAssertion[], wanted: readonly string[]): string[] {
  const have = new Set(values.map(languageOf));
  return wanted.filter((l) => !have.has(l.toLowerCase()));
}

/** Owned terms that carry labels and definitions (classes and properties), sorted by IRI. */
function annotatedTerms(own: Ownership): { iri: IRI; kinds: string }[] {
  const out: { iri: IRI; kinds: string }[] = [];
  for (const iri of sortedIris(own.owned)) {
    const kinds = own.owned
      .get(iri)!
      .map((e) => e.kind)
      .filter((k) => KINDS_NEEDING_ANNOTATIONS.has(k));
    if (kinds.length > 0) out.push({ iri, kinds: kinds.sort().join('/') });
  }
  return out;
}

/** The rules of the checks labels and definitions share, with their rule ids. */
const PRESENCE_RULES = {
  label: { missing: 'annotations.label_missing', language: 'annotations.label_language' },
  definition: { missing: 'annotations.definition_missing', language: 'annotations.definition_language' },
} as const;

/**
 * Over each owned annotated term, the checks labels and definitions share: none at all (when required) and
 * none in a required language; `more` adds the checks of the one kind over a term that has some.
 */
function presenceChecks(
  own: Ownership,
  s: QcSnapshot,
  what: keyof typeof PRESENCE_RULES,
  rules: LabelRules | DefinitionRules,
  more: (iri: IRI, values: readonly AnnotationAssertion[], kinds: string) => Finding[],
): Finding[] {
  const ids = PRESENCE_RULES[what];
  const out: Finding[] = [];
  for (const { iri, kinds } of annotatedTerms(own)) {
    const values = valuesOf(s, iri, rules.property);
    if (values.length === 0) {
      if (rules.required)
        out.push(
          policyFinding(ids.missing, `${kinds} <${iri}> has no ${what} (${rules.property}).`, iri, null, { property: rules.property }),
        );
      continue;
    }
    for (const lang of missingLanguages(values, rules.languages)) {
      out.push(
        policyFinding(
          ids.language,
          `${kinds} <${iri}> has no ${what} in language ${lang} (${rules.property}).`,
          iri,
          null,
          { property: rules.property, language: lang },
          lang,
        ),
      );
    }
    out.push(...more(iri, values, kinds));
  }
  return out;
}

function labelChecks(own: Ownership, s: QcSnapshot, rules: LabelRules): Finding[] {
  return presenceChecks(own, s, 'label', rules, (iri, labels, kinds) => {
    const perLanguage = new Map<string, AnnotationAssertion[]>();
    for (const a of labels) {
      const list = perLanguage.get(languageOf(a));
      if (list === undefined) perLanguage.set(languageOf(a), [a]);
      else list.push(a);
    }
    return [...perLanguage]
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
      .filter(([, list]) => list.length > rules.max_per_language)
      .map(([lang, list]) =>
        policyFinding(
          'annotations.label_cardinality',
          `${kinds} <${iri}> has ${list.length} labels in language ${lang}; the policy allows ${rules.max_per_language}.`,
          iri,
          null,
          {
            property: rules.property,
            language: lang,
            count: list.length,
            max_per_language: rules.max_per_language,
            labels: list.map((a) => FULL_IRIS.axiom(a)).sort(),
          },
          lang,
        ),
      );
  });
}

/** The datatype of a definition value (null for an IRI or anonymous value). */
function datatypeOf(a: AnnotationAssertion): IRI | null {
  if (a.value.kind !== 'Literal') return null;
  return a.value.lang !== '' ? RDF_LANG_STRING : a.value.datatype;
}

function definitionChecks(own: Ownership, s: QcSnapshot, rules: DefinitionRules): Finding[] {
  const placeholders = new Set(rules.placeholders.map((p) => p.trim().toLowerCase()));
  return presenceChecks(own, s, 'definition', rules, (iri, definitions) => {
    const out: Finding[] = [];
    for (const a of definitions) {
      const datatype = datatypeOf(a);
      if (rules.datatype !== null && datatype !== rules.datatype) {
        out.push(
          policyFinding(
            'annotations.definition_datatype',
            `A definition of <${iri}> is ${datatype === null ? 'not a literal' : `typed ${datatype}`}; the policy requires ${rules.datatype}.`,
            iri,
            a,
            { property: rules.property, datatype, required_datatype: rules.datatype },
          ),
        );
      }
      if (a.value.kind === 'Literal' && placeholders.has(a.value.lex.trim().toLowerCase())) {
        out.push(
          policyFinding(
            'annotations.definition_placeholder',
            `The definition of <${iri}> is the placeholder "${a.value.lex.trim()}".`,
            iri,
            a,
            { property: rules.property },
          ),
        );
      }
    }
    return out;
  });
}

/** The status value as the policy lists it: a literal's lexical form or an IRI. */
function statusText(a: AnnotationAssertion): string | null {
  if (a.value.kind === 'Literal') return a.value.lex;
  return a.value.kind === 'IRI' ? a.value.iri : null;
}

const isTrue = (a: AnnotationAssertion) => a.value.kind === 'Literal' && (a.value.lex.trim() === 'true' || a.value.lex.trim() === '1');

function lifecycleChecks(own: Ownership, s: QcSnapshot, rules: LifecycleRules): Finding[] {
  const allowed = new Set(rules.allowed_statuses);
  const out: Finding[] = [];
  for (const iri of sortedIris(own.owned)) {
    if (rules.status_property !== null && allowed.size > 0) {
      for (const a of valuesOf(s, iri, rules.status_property)) {
        const status = statusText(a);
        if (status !== null && allowed.has(status)) continue;
        out.push(
          policyFinding(
            'lifecycle.status_invalid',
            `<${iri}> has status ${status ?? '(an anonymous value)'}, which the policy does not allow (${rules.allowed_statuses.join(', ')}).`,
            iri,
            a,
            { property: rules.status_property, status, allowed_statuses: rules.allowed_statuses },
          ),
        );
      }
    }
    if (
      rules.deprecated_requires_replacement &&
      valuesOf(s, iri, OWL_DEPRECATED).some(isTrue) &&
      valuesOf(s, iri, rules.replacement_property).length === 0
    ) {
      out.push(
        policyFinding(
          'lifecycle.replacement_missing',
          `Deprecated <${iri}> names no replacement (${rules.replacement_property}).`,
          iri,
          null,
          { replacement_property: rules.replacement_property },
        ),
      );
    }
  }
  return out;
}

/** The policy-only checks that are configured, in POLICY_GOVERNANCE_RULES order per family. */
function policyChecks(own: Ownership, s: QcSnapshot, options: GovernanceOptions): Finding[] {
  return [
    ...(options.label_rules === undefined ? [] : labelChecks(own, s, options.label_rules)),
    ...(options.definition_rules === undefined ? [] : definitionChecks(own, s, options.definition_rules)),
    ...(options.lifecycle_rules === undefined ? [] : lifecycleChecks(own, s, options.lifecycle_rules)),
  ];
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
    ...policyChecks(own, s, options),
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
  const policyConfigured =
    options.label_rules !== undefined || options.definition_rules !== undefined || options.lifecycle_rules !== undefined;
  const counts = Object.fromEntries(
    [...GOVERNANCE_CHECKS, ...(policyConfigured ? POLICY_GOVERNANCE_RULES : [])].map((c) => [
      c,
      findings.filter((f) => f.rule_id === c).length,
    ]),
  );
  return {
    stage: 'governance',
    status: 'completed',
    verdict,
    findings,
    details: { scope: options.include_imports ? 'imports_closure' : 'active_ontology', counts, ...(notes.length > 0 ? { notes } : {}) },
  };
}
