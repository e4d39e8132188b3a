// The project policy's schema (TOOLS.md 1.9, 3.3): version 1 and version 2, closed at every level (an
// unknown field is an error) and bounded (string lengths, list sizes), with deterministic defaults so the
// effective policy, and its digest, depend only on what the file means: not on comments, key order or
// whether a default was spelled out.

import * as v from 'valibot';
import { STAGE_IDS, type StageId } from '../qc/finding.js';
import type { FormatId } from '../model/ontology.js';
import type { PolicyIssue } from './resolution.js';
import { sha256Digest } from '../util/digest.js';
import { ABSOLUTE_IRI } from '../model/iri.js';

// ---------------------------------------------------------------- bounded scalars

const text = (max: number) => v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(max, `at most ${max} characters`));

const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const identifier = v.pipe(text(128), v.regex(IDENTIFIER, 'letters, digits, ".", "_" or "-", starting with a letter or digit'));

const iri = v.pipe(text(2048), v.regex(ABSOLUTE_IRI, 'an absolute IRI'));

/** A full IRI or a CURIE (`prefix:local`); CURIEs are expanded against `prefixes` by the live checks. */
const iriOrCurie = iri;

/** A path relative to the project root: no scheme, not absolute, no NUL. Escapes are caught when resolved. */
const relativePath = v.pipe(
  text(1024),
  v.check((p) => !p.includes('\0'), 'no NUL characters'),
  v.check(
    (p) => !p.startsWith('/') && !p.startsWith('\\') && !/^[A-Za-z]:/.test(p),
    'a path relative to the project root (no scheme, not absolute)',
  ),
);

const HOST = /^(?:\*\.)?[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(?::[0-9]{1,5})?$/;
const host = v.pipe(text(261), v.regex(HOST, 'a host name (optionally "*." first and ":port" last)'));

/** BCP 47-ish language tag, or `und` for untagged literals. */
const LANGUAGE = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;
const language = v.pipe(text(35), v.regex(LANGUAGE, 'a language tag (e.g. en, en-GB) or und'));

const unique = <T>(items: readonly T[]) => new Set(items).size === items.length;

/** A bounded list of distinct items. */
function list<S extends v.GenericSchema>(item: S, max: number, min = 0) {
  type T = v.InferOutput<S>[];
  return v.pipe(
    v.array(item),
    v.minLength<T, number, string>(min, `at least ${min} item(s)`),
    v.maxLength<T, number, string>(max, `at most ${max} items`),
    v.check<T, string>((xs) => unique(xs.map((x) => JSON.stringify(x))), 'items must be distinct'),
  );
}

const PREFIX_NAME = /^[A-Za-z_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_-])?$|^$/;

/** Every document format Athene reads and writes (FormatId). */
const FORMATS = [
  'turtle',
  'ntriples',
  'nquads',
  'trig',
  'rdfxml',
  'jsonld',
  'owlxml',
  'ofn',
  'manchester',
  'obo',
] as const satisfies readonly FormatId[];
const PROFILES = ['DL', 'EL', 'QL', 'RL', 'Full', 'none'] as const;

// ---------------------------------------------------------------- blocks shared by both versions

const Interoperability = v.strictObject({
  /** Serialization of the root artifact. */
  format: v.optional(v.picklist(FORMATS), 'turtle'),
  /** OWL 2 profile the `profile` stage enforces (`none`/`Full`: skipped). */
  owl_profile: v.optional(v.picklist(PROFILES), 'DL'),
  /** Further formats the ontology must round-trip through without loss. */
  round_trip_formats: v.optional(list(v.picklist(FORMATS), FORMATS.length), []),
});

const Filesystem = v.strictObject({
  allow_external_paths: v.optional(v.boolean(), false),
});

const Network = v.strictObject({
  default: v.optional(v.picklist(['deny', 'allow']), 'deny'),
  allowed_hosts: v.optional(list(host, 64, 1)),
});

const Imports = v.strictObject({
  mode: v.optional(v.picklist(['locked', 'unlocked']), 'unlocked'),
  /** Stricter override of `network.default` for import fetches; it can only deny more. */
  network: v.optional(v.picklist(['deny', 'allow'])),
  lockfile: v.optional(relativePath),
});

const Reasoning = v.strictObject({
  reasoner: v.optional(text(200)),
  required: v.optional(v.boolean(), false),
  timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3_600_000)), 120_000),
});

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

function isIsoDate(s: string): boolean {
  return ISO_DATE.test(s) && !Number.isNaN(Date.parse(s));
}

const Waiver = v.strictObject({
  rule_id: text(128),
  focus_iri: v.optional(v.nullable(iriOrCurie), null),
  reason: text(1024),
  /** ISO-8601 date or date-time; past it the waiver is itself a finding. */
  expires: v.optional(v.nullable(v.pipe(text(40), v.check(isIsoDate, 'an ISO-8601 date (YYYY-MM-DD) or UTC date-time'))), null),
});

const V1_STAGES = STAGE_IDS.filter((s) => s !== 'provider_evidence');

const validation = (stages: readonly StageId[]) =>
  v.strictObject({
    required_stages: v.optional(list(v.picklist(stages as StageId[]), stages.length), ['profile', 'structural', 'governance']),
    fail_on: v.optional(v.picklist(['none', 'warn', 'error']), 'error'),
    waivers: v.optional(list(Waiver, 256), []),
  });

export const DEFAULT_PREFERRED_PROPERTIES = ['rdfs:label', 'skos:prefLabel'] as const;
export const DEFAULT_SYNONYM_PROPERTIES = ['skos:altLabel', 'oboInOwl:hasExactSynonym', 'oboInOwl:hasRelatedSynonym'] as const;
export const DEFAULT_PREFERRED_LANGUAGES = ['en'] as const;
export const DEFAULT_FALLBACK_LANGUAGES = ['und'] as const;

const EntitySearch = v.pipe(
  v.strictObject({
    preferred_properties: v.optional(list(iriOrCurie, 16, 1), [...DEFAULT_PREFERRED_PROPERTIES]),
    synonym_properties: v.optional(list(iriOrCurie, 16), [...DEFAULT_SYNONYM_PROPERTIES]),
    preferred_languages: v.optional(list(language, 4), [...DEFAULT_PREFERRED_LANGUAGES]),
    fallback_languages: v.optional(list(language, 4), [...DEFAULT_FALLBACK_LANGUAGES]),
  }),
  v.check(
    (b) => b.preferred_languages.every((l) => !b.fallback_languages.includes(l)),
    'preferred_languages and fallback_languages must be disjoint',
  ),
  v.check(
    (b) => b.preferred_properties.every((p) => !b.synonym_properties.includes(p)),
    'preferred_properties and synonym_properties must be disjoint',
  ),
);

const Prefixes = v.pipe(
  v.record(v.pipe(v.string(), v.maxLength(64), v.regex(PREFIX_NAME, 'a prefix name without ":"')), iri),
  v.check((r) => Object.keys(r).length <= 256, 'at most 256 prefixes'),
);

const Module = v.strictObject({
  id: identifier,
  path: relativePath,
  iri: v.optional(iri),
  /** Namespaces whose terms this module owns. */
  namespaces: v.optional(list(iri, 32), []),
});

const LabelRules = v.strictObject({
  property: v.optional(iriOrCurie, 'rdfs:label'),
  required: v.optional(v.boolean(), true),
  languages: v.optional(list(language, 8), []),
  max_per_language: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(16)), 1),
});

const DefinitionRules = v.strictObject({
  property: v.optional(iriOrCurie, 'obo:IAO_0000115'),
  required: v.optional(v.boolean(), false),
  languages: v.optional(list(language, 8), []),
  datatype: v.optional(iriOrCurie),
  /** Texts that mark a definition as not written yet (compared case-insensitively, trimmed). */
  placeholders: v.optional(list(text(128), 32), []),
});

const Annotations = v.strictObject({
  required: v.optional(list(iriOrCurie, 32), []),
  label: v.optional(LabelRules, {}),
  definition: v.optional(DefinitionRules, {}),
});

const IriPolicy = v.strictObject({
  required_namespaces: v.optional(list(iri, 32), []),
  /** ECMAScript regular expression over the full IRI of owned terms. */
  pattern: v.optional(text(512)),
});

const Lifecycle = v.strictObject({
  status_property: v.optional(iriOrCurie),
  allowed_statuses: v.optional(list(text(128), 32), []),
  replacement_property: v.optional(iriOrCurie, 'obo:IAO_0100001'),
  deprecated_requires_replacement: v.optional(v.boolean(), false),
});

const Assets = v.strictObject({ paths: list(relativePath, 64, 1) });

const Release = v.strictObject({
  output_dir: v.optional(relativePath, 'release'),
  require_version_iri: v.optional(v.boolean(), true),
  require_clean_round_trip: v.optional(v.boolean(), true),
  format: v.optional(v.picklist(FORMATS), 'turtle'),
});

// ---------------------------------------------------------------- version-2 blocks (never endpoints or credentials)

const Provider = v.strictObject({
  id: v.pipe(text(64), v.regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, 'a provider id')),
  profile: v.literal('ols4'),
  enabled: v.optional(v.boolean(), false),
  /** Names an origin of the owner's private binding; the policy never holds the endpoint itself. */
  origin_alias: identifier,
  ontologies: list(v.pipe(text(64), v.regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'an ontology id')), 64, 1),
  languages: v.optional(list(language, 8, 1), ['en']),
  ttl_seconds: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(86_400)), 3600),
  freshness: v.optional(v.picklist(['cache_ok', 'fresh_required']), 'cache_ok'),
  max_results: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 20),
  /** Names a credential of the owner's private binding; never the secret. */
  credential_id: v.optional(identifier),
});

const ExternalTerms = v.strictObject({
  providers: v.optional(
    v.pipe(
      list(Provider, 8),
      v.check((ps) => unique(ps.map((p) => p.id)), 'provider ids must be distinct'),
    ),
    [],
  ),
});

const Mappings = v.strictObject({
  path: relativePath,
  allowed_predicates: v.optional(list(iriOrCurie, 32), []),
  allowed_licenses: v.optional(list(iri, 16), []),
});

const JOB_TYPES = ['classification', 'project_qc', 'semantic_diff', 'inference_materialization'] as const;

const Jobs = v.strictObject({
  enabled: v.optional(v.boolean(), true),
  allowed_types: v.optional(list(v.picklist(JOB_TYPES), JOB_TYPES.length), [...JOB_TYPES]),
});

const MATERIALIZATION_CATEGORIES = [
  'subclass_axioms',
  'equivalent_class_axioms',
  'class_assertions',
  'property_hierarchy_axioms',
  'object_property_assertions',
  'data_property_assertions',
] as const;

const Materialization = v.strictObject({
  allowed_categories: v.optional(list(v.picklist(MATERIALIZATION_CATEGORIES), MATERIALIZATION_CATEGORIES.length), [
    ...MATERIALIZATION_CATEGORIES,
  ]),
  max_axioms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(500)), 500),
  output_dir: v.optional(relativePath),
  /** Whether commit_materialization may write inferred axioms into the active ontology (kind active_source). */
  allow_source_write: v.optional(v.boolean(), false),
});

// ---------------------------------------------------------------- whole files

const common = (stages: readonly StageId[]) => ({
  project_id: identifier,
  root_ontology: iri,
  /** The root ontology's document, relative to the project root. */
  root_artifact: v.optional(relativePath),
  project_root: v.optional(relativePath, '.'),
  interoperability: v.optional(Interoperability, {}),
  filesystem: v.optional(Filesystem, {}),
  network: v.optional(Network, {}),
  imports: v.optional(Imports, {}),
  reasoning: v.optional(Reasoning, {}),
  validation: v.optional(validation(stages), {}),
  entity_search: v.optional(EntitySearch, {}),
  prefixes: v.optional(Prefixes, {}),
  modules: v.optional(
    v.pipe(
      list(Module, 256),
      v.check((ms) => unique(ms.map((m) => m.id)), 'module ids must be distinct'),
    ),
    [],
  ),
  annotations: v.optional(Annotations, {}),
  iri_policy: v.optional(IriPolicy, {}),
  lifecycle: v.optional(Lifecycle, {}),
  invariants: v.optional(Assets),
  shacl: v.optional(Assets),
  cqs: v.optional(Assets),
  release: v.optional(Release, {}),
});

const PolicyV1 = v.strictObject({ version: v.literal(1), ...common(V1_STAGES) });

const PolicyV2 = v.strictObject({
  version: v.literal(2),
  ...common(STAGE_IDS),
  external_terms: v.optional(ExternalTerms, {}),
  mappings: v.optional(Mappings),
  jobs: v.optional(Jobs, {}),
  materialization: v.optional(Materialization, {}),
});

type V1 = v.InferOutput<typeof PolicyV1>;
type V2 = v.InferOutput<typeof PolicyV2>;

/** The effective policy: every default filled in; v2-only blocks present only in version 2. */
export type EffectivePolicy = V1 | V2;
export type EntitySearchPolicy = EffectivePolicy['entity_search'];
export type PolicyFormat = (typeof FORMATS)[number];

const MAX_ISSUES = 128;
const MAX_MESSAGE = 2048;

/** A key name safe to repeat in a message (rejected values are never quoted; odd keys are not either). */
const SAFE_KEY = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

function dotted(issue: v.BaseIssue<unknown>): string {
  const parts = (issue.path ?? []).map((item) => {
    const key = (item as { key?: unknown }).key;
    if (typeof key === 'number') return String(key);
    return typeof key === 'string' && SAFE_KEY.test(key) ? key : '(key)';
  });
  return parts.join('.');
}

/** Describes a schema issue in the schema's own words, never the offending value. */
function describe(issue: v.BaseIssue<unknown>): PolicyIssue {
  let where = dotted(issue);
  let message: string;
  let code = 'schema_invalid';
  if (issue.type === 'strict_object' && issue.expected === 'never') {
    const key = (issue.path?.[issue.path.length - 1] as { key?: unknown } | undefined)?.key;
    code = 'unknown_field';
    message = `unknown field${typeof key === 'string' && SAFE_KEY.test(key) ? ` '${key}'` : ''}`;
  } else if (issue.kind === 'schema') {
    message = issue.received === 'undefined' ? `required field missing (expected ${issue.expected})` : `expected ${issue.expected}`;
    if (issue.received === 'undefined') code = 'missing_field';
  } else {
    // valibot's own wording ("Invalid length: Expected 4 but received 5") quotes the value; ours never does
    message = issue.message.startsWith('Invalid ') ? `expected ${issue.expected ?? 'a valid value'}` : issue.message;
  }
  if (where === '') where = '(root)';
  return { severity: 'error', code, path: where, message: `${where}: ${message}`.slice(0, MAX_MESSAGE) };
}

export type SchemaResult =
  { readonly ok: true; readonly policy: EffectivePolicy } | { readonly ok: false; readonly errors: readonly PolicyIssue[] };

/** Validates parsed policy data against the schema its `version` names and fills the defaults. */
export function validatePolicyData(data: unknown): SchemaResult {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, errors: [{ severity: 'error', code: 'schema_invalid', path: '(root)', message: 'the policy must be a mapping' }] };
  }
  const version = (data as Record<string, unknown>).version;
  if (version !== 1 && version !== 2) {
    return {
      ok: false,
      errors: [{ severity: 'error', code: 'unsupported_version', path: 'version', message: 'version: expected 1 or 2' }],
    };
  }
  const parsed = version === 1 ? v.safeParse(PolicyV1, data, { abortEarly: false }) : v.safeParse(PolicyV2, data, { abortEarly: false });
  if (parsed.success) return { ok: true, policy: parsed.output as EffectivePolicy };
  return { ok: false, errors: parsed.issues.slice(0, MAX_ISSUES).map(describe) };
}

/** JSON with object keys sorted at every level (arrays keep their order, which is meaningful). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined);
    return `{${entries.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** `sha256:` digest of the canonical effective policy. */
export function policyDigest(policy: EffectivePolicy): string {
  return sha256Digest(canonicalJson(policy));
}

/** What a policy asset path must name. */
export type AssetKind = 'file' | 'file_or_directory' | 'directory' | 'lockfile' | 'store';

/** Every relative asset path the policy names, with the dotted field that names it. */
export function assetPaths(policy: EffectivePolicy): { field: string; path: string; kind: AssetKind }[] {
  const out: { field: string; path: string; kind: AssetKind }[] = [];
  if (policy.root_artifact !== undefined) out.push({ field: 'root_artifact', path: policy.root_artifact, kind: 'file' });
  policy.modules.forEach((m, i) => out.push({ field: `modules.${i}.path`, path: m.path, kind: 'file' }));
  if (policy.imports.lockfile !== undefined) out.push({ field: 'imports.lockfile', path: policy.imports.lockfile, kind: 'lockfile' });
  // invariant and CQ assets may be directories of query files (a `cqs/` folder); SHACL shapes are files
  for (const block of ['invariants', 'shacl', 'cqs'] as const) {
    policy[block]?.paths.forEach((p, i) =>
      out.push({ field: `${block}.paths.${i}`, path: p, kind: block === 'shacl' ? 'file' : 'file_or_directory' }),
    );
  }
  out.push({ field: 'release.output_dir', path: policy.release.output_dir, kind: 'directory' });
  if (policy.version === 2) {
    if (policy.mappings !== undefined) out.push({ field: 'mappings.path', path: policy.mappings.path, kind: 'store' });
    if (policy.materialization.output_dir !== undefined)
      out.push({ field: 'materialization.output_dir', path: policy.materialization.output_dir, kind: 'directory' });
  }
  return out;
}

/** Every CURIE-or-IRI field, for the live check that each expands. */
export function termReferences(policy: EffectivePolicy): { field: string; value: string }[] {
  const out: { field: string; value: string }[] = [];
  const add = (field: string, values: readonly string[]) => values.forEach((value, i) => out.push({ field: `${field}.${i}`, value }));
  add('entity_search.preferred_properties', policy.entity_search.preferred_properties);
  add('entity_search.synonym_properties', policy.entity_search.synonym_properties);
  add('annotations.required', policy.annotations.required);
  out.push({ field: 'annotations.label.property', value: policy.annotations.label.property });
  out.push({ field: 'annotations.definition.property', value: policy.annotations.definition.property });
  if (policy.annotations.definition.datatype !== undefined)
    out.push({ field: 'annotations.definition.datatype', value: policy.annotations.definition.datatype });
  if (policy.lifecycle.status_property !== undefined)
    out.push({ field: 'lifecycle.status_property', value: policy.lifecycle.status_property });
  out.push({ field: 'lifecycle.replacement_property', value: policy.lifecycle.replacement_property });
  policy.validation.waivers.forEach((w, i) => {
    if (w.focus_iri !== null) out.push({ field: `validation.waivers.${i}.focus_iri`, value: w.focus_iri });
  });
  if (policy.version === 2 && policy.mappings !== undefined) add('mappings.allowed_predicates', policy.mappings.allowed_predicates);
  return out;
}
