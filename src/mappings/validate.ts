// Validation of a mapping set beyond its TSV structure (TOOLS.md 3.11 validate_mappings): required slots,
// CURIE expansion, value vocabularies (justifications, enums, scores, dates, URIs), the project policy's
// allowed predicates and licenses, existence of the endpoints in the loaded imports closure, exact-match
// conflicts (asserted and negated, one-to-many, many-to-one within a source scope), declared cardinalities
// and directional cycles. Pure: the caller supplies the closure lookup and the policy rules.

import { stronglyConnectedComponents } from '../util/strongly-connected.js';
import { effectivePrefixes, expanderFor, identityFields, type Expand, type MappingDocument, type MappingRecord } from './document.js';
import { isAbsoluteIri } from '../model/iri.js';
import { finding, type MappingFinding } from './finding.js';
import {
  BROADER_PREDICATES,
  DATE_SLOTS,
  ENTITY_REFERENCES,
  ENTITY_TYPE_KINDS,
  ENUMS,
  EXACT_PREDICATES,
  JUSTIFICATIONS,
  MULTIVALUED,
  NARROWER_PREDICATES,
  NO_TERM_FOUND,
  SCORE_SLOTS,
  STANDARD_PREDICATES,
  URI_SLOTS,
} from './slots.js';

export interface MappingPolicyRules {
  /** Full IRIs; empty = any predicate. */
  readonly allowedPredicates: readonly string[];
  /** Full IRIs; empty = any license. */
  readonly allowedLicenses: readonly string[];
}

export interface ValidationContext {
  /** OWL entity kinds of an IRI in the loaded imports closure; absent when no ontology is loaded. */
  readonly kindsOf?: (iri: string) => ReadonlySet<string>;
  readonly policy?: MappingPolicyRules;
}

/** The CURIE map and its memoized expansion. */
interface Terms {
  readonly prefixes: Readonly<Record<string, string>>;
  readonly expand: Expand;
}

/** Joins key parts (IRIs and labels never hold NUL). */
const SEP = '\u0000';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const isDate = (s: string) =>
  ISO_DATE.test(s) && !Number.isNaN(Date.parse(s + 'T00:00:00Z')) && new Date(s + 'T00:00:00Z').toISOString().startsWith(s);
const isScore = (s: string) => /^(?:0|1|0?\.\d+|[01]\.\d+|[01]\.?\d*[eE][+-]?\d+)$/.test(s) && Number(s) >= 0 && Number(s) <= 1;

/** The problem of one value of a slot, or null. */
function valueProblem(slot: string, value: string, terms: Terms): { code: string; message: string } | null {
  if (value === '') return { code: 'value_invalid', message: "an empty value in a '|'-separated list" };
  if (ENTITY_REFERENCES.has(slot) && terms.expand(value) === null) {
    const colon = value.indexOf(':');
    return {
      code: 'curie_unresolved',
      message:
        colon > 0
          ? `the prefix '${value.slice(0, colon).slice(0, 64)}' is not in the curie_map`
          : `'${value.slice(0, 128)}' is neither a CURIE nor an absolute IRI`,
    };
  }
  // a declared prefix as the "scheme" is a CURIE where SSSOM wants a full URI
  if (URI_SLOTS.has(slot) && (!isAbsoluteIri(value) || Object.hasOwn(terms.prefixes, value.slice(0, value.indexOf(':'))))) {
    return { code: 'uri_invalid', message: `'${value.slice(0, 128)}' is not an absolute IRI (URI slots take no CURIEs)` };
  }
  const allowed = ENUMS[slot];
  if (allowed !== undefined && !allowed.has(value))
    return { code: 'enum_invalid', message: `'${value.slice(0, 64)}' is not one of ${[...allowed].join(', ')}` };
  if (SCORE_SLOTS.has(slot) && !isScore(value))
    return { code: 'score_invalid', message: `'${value.slice(0, 64)}' is not a number between 0 and 1` };
  if (DATE_SLOTS.has(slot) && !isDate(value))
    return { code: 'date_invalid', message: `'${value.slice(0, 64)}' is not an ISO 8601 date (YYYY-MM-DD)` };
  return null;
}

/** Appends the problems of one slot's cell to `out` (each `|`-separated value of a multivalued slot on its own). */
function valueFindings(slot: string, cell: string, terms: Terms, mappingId: string | undefined, out: MappingFinding[]): void {
  const check = (value: string) => {
    const problem = valueProblem(slot, value, terms);
    if (problem === null) return;
    const subject = mappingId === undefined ? `metadata ${slot}` : slot;
    out.push(
      finding(
        'error',
        problem.code,
        `${subject}: ${problem.message}`,
        mappingId === undefined ? { column: slot } : { mapping_id: mappingId, column: slot },
      ),
    );
  };
  if (MULTIVALUED.has(slot)) for (const value of cell.split('|')) check(value);
  else check(cell);
}

function metadataFindings(doc: MappingDocument, terms: Terms, policy: MappingPolicyRules | undefined): MappingFinding[] {
  const out: MappingFinding[] = [];
  for (const slot of ['mapping_set_id', 'license']) {
    if (doc.metadata[slot] === undefined)
      out.push(finding('error', `${slot}_missing`, `the metadata header has no ${slot} (SSSOM requires one)`, { column: slot }));
  }
  for (const [slot, value] of Object.entries(doc.metadata)) {
    for (const v of typeof value === 'string' ? [value] : value) valueFindings(slot, v, terms, undefined, out);
  }
  const license = doc.metadata.license;
  if (
    policy !== undefined &&
    policy.allowedLicenses.length > 0 &&
    typeof license === 'string' &&
    !policy.allowedLicenses.includes(license)
  ) {
    out.push(
      finding('error', 'license_not_allowed', `the mapping set license ${license} is not in the policy's mappings.allowed_licenses`, {
        column: 'license',
      }),
    );
  }
  return out;
}

const literal = (r: MappingRecord, side: 'subject' | 'object') =>
  (side === 'subject' ? r.cells.subject_type : r.cells.object_type) === 'rdfs literal';

function requiredFindings(r: MappingRecord): MappingFinding[] {
  const out: MappingFinding[] = [];
  const need = (column: string, why = '') => {
    if (r.cells[column] === undefined)
      out.push(finding('error', 'required_missing', `${column} is required${why}`, { mapping_id: r.mapping_id, column }));
  };
  need(literal(r, 'subject') ? 'subject_label' : 'subject_id', literal(r, 'subject') ? ' for a literal subject' : '');
  need('predicate_id');
  need(literal(r, 'object') ? 'object_label' : 'object_id', literal(r, 'object') ? ' for a literal object' : '');
  need('mapping_justification');
  return out;
}

interface Endpoints {
  readonly record: MappingRecord;
  readonly subject: string | null;
  readonly predicate: string | null;
  readonly object: string | null;
  readonly negated: boolean;
  readonly scope: string;
}

/** A record's expanded subject, predicate and object (null for literal or unresolvable endpoints). */
function endpointsOf(r: MappingRecord, terms: Terms): Endpoints {
  const ref = (slot: string) => (r.cells[slot] === undefined ? null : terms.expand(r.cells[slot]));
  return {
    record: r,
    subject: literal(r, 'subject') ? null : ref('subject_id'),
    predicate: ref('predicate_id'),
    object: literal(r, 'object') ? null : ref('object_id'),
    negated: r.cells.predicate_modifier === 'Not',
    scope: [ref('subject_source') ?? '', ref('object_source') ?? ''].join(SEP),
  };
}

function recordFindings(e: Endpoints, terms: Terms, ctx: ValidationContext): MappingFinding[] {
  const r = e.record;
  const id = r.mapping_id;
  const out = requiredFindings(r);
  for (const [slot, value] of Object.entries(r.cells)) valueFindings(slot, value, terms, id, out);
  const justification = r.cells.mapping_justification === undefined ? null : terms.expand(r.cells.mapping_justification);
  if (justification !== null && !JUSTIFICATIONS.has(justification)) {
    out.push(
      finding(
        'error',
        'justification_invalid',
        `mapping_justification ${r.cells.mapping_justification} is not a SEMAPV mapping justification`,
        { mapping_id: id, column: 'mapping_justification' },
      ),
    );
  }
  if (e.predicate !== null) {
    const allowed = ctx.policy?.allowedPredicates ?? [];
    if (allowed.length > 0 && !allowed.includes(e.predicate)) {
      out.push(
        finding('error', 'predicate_not_allowed', `predicate ${r.cells.predicate_id} is not in the policy's mappings.allowed_predicates`, {
          mapping_id: id,
          column: 'predicate_id',
        }),
      );
    } else if (!STANDARD_PREDICATES.has(e.predicate)) {
      out.push(
        finding('warn', 'predicate_nonstandard', `predicate ${r.cells.predicate_id} is not one of the mapping predicates SSSOM names`, {
          mapping_id: id,
          column: 'predicate_id',
        }),
      );
    }
  }
  const license = r.cells.license;
  const licenses = ctx.policy?.allowedLicenses ?? [];
  if (license !== undefined && licenses.length > 0 && !licenses.includes(license)) {
    out.push(
      finding('error', 'license_not_allowed', `license ${license} is not in the policy's mappings.allowed_licenses`, {
        mapping_id: id,
        column: 'license',
      }),
    );
  }
  if (e.subject !== null && e.subject === e.object) {
    out.push(finding('error', 'mapping_self', 'the subject and the object are the same entity', { mapping_id: id, column: 'object_id' }));
  }
  if (ctx.kindsOf !== undefined) out.push(...existenceFindings(e, ctx.kindsOf));
  return out;
}

/** At least one endpoint should be an entity of the loaded closure; an endpoint found there should have the declared type. */
function existenceFindings(e: Endpoints, kindsOf: (iri: string) => ReadonlySet<string>): MappingFinding[] {
  const out: MappingFinding[] = [];
  const id = e.record.mapping_id;
  const ends = (['subject', 'object'] as const).filter((side) => e[side] !== null && e[side] !== NO_TERM_FOUND);
  if (ends.length > 0 && ends.every((side) => kindsOf(e[side]!).size === 0)) {
    out.push(
      finding(
        'warn',
        'entity_not_found',
        `neither endpoint (${ends.map((s) => e.record.cells[`${s}_id`]).join(', ')}) is an entity of the loaded ontology or its imports`,
        { mapping_id: id },
      ),
    );
  }
  for (const side of ends) {
    const kinds = kindsOf(e[side]!);
    const declared = e.record.cells[`${side}_type`];
    const kind = declared === undefined ? undefined : ENTITY_TYPE_KINDS[declared];
    if (kind !== undefined && kinds.size > 0 && !kinds.has(kind)) {
      out.push(
        finding(
          'warn',
          'entity_type_mismatch',
          `${side}_type is '${declared}' but the ontology has ${e.record.cells[`${side}_id`]} as ${[...kinds].sort().join(', ')}`,
          { mapping_id: id, column: `${side}_type` },
        ),
      );
    }
  }
  return out;
}

const push = <K, V>(m: Map<K, V[]>, k: K, v: V) => {
  const list = m.get(k);
  if (list === undefined) m.set(k, [v]);
  else list.push(v);
};

/** The same mapping under two ids, and a mapping asserted and negated. */
function duplicateFindings(all: readonly Endpoints[], terms: Terms): MappingFinding[] {
  const out: MappingFinding[] = [];
  const byIdentity = new Map<string, string[]>();
  for (const e of all) push(byIdentity, identityFields(e.record.cells, terms.expand).join(SEP), e.record.mapping_id);
  for (const ids of byIdentity.values()) {
    for (const id of ids.slice(1))
      out.push(finding('warn', 'mapping_duplicate', `the same mapping as ${ids[0]} under another mapping_id`, { mapping_id: id }));
  }
  const positive = new Map<string, string[]>();
  for (const e of all)
    if (!e.negated && e.subject !== null && e.object !== null)
      push(positive, [e.subject, e.predicate, e.object].join(SEP), e.record.mapping_id);
  for (const e of all) {
    if (!e.negated || e.subject === null || e.object === null) continue;
    for (const other of positive.get([e.subject, e.predicate, e.object].join(SEP)) ?? []) {
      out.push(
        finding(
          'error',
          'mapping_negation_conflict',
          `asserted by ${other} and negated (predicate_modifier Not) by ${e.record.mapping_id}`,
          { mapping_id: other, column: 'predicate_modifier' },
        ),
      );
    }
  }
  return out;
}

/** Positive mappings between two named entities (no literal or sssom:NoTermFound endpoint). */
const named = (e: Endpoints) =>
  !e.negated && e.subject !== null && e.object !== null && e.subject !== NO_TERM_FOUND && e.object !== NO_TERM_FOUND;

/** Keys of a record's subject and object within its source scope. */
const subjectKey = (e: Endpoints) => e.scope + SEP + e.subject;
const objectKey = (e: Endpoints) => e.scope + SEP + e.object;

/** Distinct values per key: a lone value stays a string (most keys have one), several become a set. */
class DistinctValues {
  private readonly map = new Map<string, string | Set<string>>();

  add(key: string, value: string): void {
    const seen = this.map.get(key);
    if (seen === undefined) this.map.set(key, value);
    else if (typeof seen === 'string') {
      if (seen !== value) this.map.set(key, new Set([seen, value]));
    } else seen.add(value);
  }

  count(key: string): number {
    const seen = this.map.get(key);
    return seen === undefined ? 0 : typeof seen === 'string' ? 1 : seen.size;
  }
}

/** How many distinct objects each subject has, and subjects each object, among `pairs` (by scope). */
function fanOut(pairs: readonly Endpoints[]): { objects: DistinctValues; subjects: DistinctValues } {
  const objects = new DistinctValues();
  const subjects = new DistinctValues();
  for (const e of pairs) {
    if (e.object !== NO_TERM_FOUND) objects.add(subjectKey(e), e.object!);
    if (e.subject !== NO_TERM_FOUND) subjects.add(objectKey(e), e.subject!);
  }
  return { objects, subjects };
}

/** Exact matches from one subject to several objects (or the reverse) within one subject/object source scope. */
function exactFindings(all: readonly Endpoints[]): MappingFinding[] {
  const out: MappingFinding[] = [];
  const exact = all.filter((e) => named(e) && EXACT_PREDICATES.has(e.predicate ?? ''));
  const { objects, subjects } = fanOut(exact);
  for (const e of exact) {
    const many = objects.count(subjectKey(e));
    if (many > 1) {
      out.push(
        finding(
          'warn',
          'exact_match_one_to_many',
          `${e.record.cells.subject_id} is exactly matched to ${many} objects of the same source scope`,
          { mapping_id: e.record.mapping_id, column: 'subject_id' },
        ),
      );
    }
    const from = subjects.count(objectKey(e));
    if (from > 1) {
      out.push(
        finding(
          'warn',
          'exact_match_many_to_one',
          `${e.record.cells.object_id} is exactly matched from ${from} subjects of the same source scope`,
          { mapping_id: e.record.mapping_id, column: 'object_id' },
        ),
      );
    }
  }
  return out;
}

/** A declared mapping_cardinality must be what the set's positive mappings in the same source scope show. */
function cardinalityFindings(all: readonly Endpoints[]): MappingFinding[] {
  const out: MappingFinding[] = [];
  const pairs = all.filter((e) => !e.negated && e.subject !== null && e.object !== null);
  if (!pairs.some((e) => e.record.cells.mapping_cardinality !== undefined)) return out;
  const { objects, subjects } = fanOut(pairs);
  for (const e of pairs) {
    const declared = e.record.cells.mapping_cardinality;
    if (declared === undefined) continue;
    const left = e.subject === NO_TERM_FOUND ? '0' : subjects.count(objectKey(e)) > 1 ? 'n' : '1';
    const right = e.object === NO_TERM_FOUND ? '0' : objects.count(subjectKey(e)) > 1 ? 'n' : '1';
    const actual = `${left}:${right}`;
    if (declared !== actual) {
      out.push(
        finding('error', 'cardinality_mismatch', `mapping_cardinality is ${declared} but the set shows ${actual} within its source scope`, {
          mapping_id: e.record.mapping_id,
          column: 'mapping_cardinality',
        }),
      );
    }
  }
  return out;
}

/** Narrower-than edges (broadMatch, subClassOf, subPropertyOf; narrowMatch reversed) that close a cycle. */
function cycleFindings(all: readonly Endpoints[]): MappingFinding[] {
  const edges = new Map<string, { to: string; id: string }[]>();
  for (const e of all) {
    if (!named(e)) continue;
    if (NARROWER_PREDICATES.has(e.predicate!)) push(edges, e.subject!, { to: e.object!, id: e.record.mapping_id });
    else if (BROADER_PREDICATES.has(e.predicate!)) push(edges, e.object!, { to: e.subject!, id: e.record.mapping_id });
  }
  const out: MappingFinding[] = [];
  const successors = new Map([...edges].map(([from, list]) => [from, list.map((x) => x.to)]));
  const components = stronglyConnectedComponents([...edges.keys()].sort(), (n) => successors.get(n) ?? []);
  for (const component of components) {
    if (component.length < 2) continue;
    const members = new Set(component);
    const names = [...members].sort();
    const shown = names.slice(0, 8).join(', ') + (names.length > 8 ? `, … (${names.length} in all)` : '');
    for (const from of component) {
      for (const edge of edges.get(from) ?? []) {
        if (members.has(edge.to))
          out.push(
            finding('error', 'mapping_cycle', `a directional cycle (each narrower than the next) through ${shown}`, {
              mapping_id: edge.id,
              column: 'predicate_id',
            }),
          );
      }
    }
  }
  return out;
}

/** Every finding of a mapping set (unsorted; `report` in finding.ts sorts, counts and caps). */
export function validateDocument(doc: MappingDocument, ctx: ValidationContext = {}): MappingFinding[] {
  const prefixes = effectivePrefixes(doc);
  const terms = { prefixes, expand: expanderFor(prefixes) };
  const all = doc.records.map((r) => endpointsOf(r, terms));
  return [
    ...metadataFindings(doc, terms, ctx.policy),
    ...all.flatMap((e) => recordFindings(e, terms, ctx)),
    ...duplicateFindings(all, terms),
    ...exactFindings(all),
    ...cardinalityFindings(all),
    ...cycleFindings(all),
  ];
}
