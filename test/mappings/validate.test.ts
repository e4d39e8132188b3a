// Mapping-set validation: one case per rule (required slots, CURIE expansion, vocabularies, policy
// predicates and licenses, entity existence and type, negation conflicts, exact-match cardinality within a
// source scope, declared cardinality, directional cycles), and the findings' total order.

import test from 'node:test';
import assert from 'node:assert/strict';
import { parseSssom } from '../../src/mappings/tsv.js';
import { validateDocument, type ValidationContext } from '../../src/mappings/validate.js';
import { compareFindings, report, type MappingFinding } from '../../src/mappings/finding.js';
import { EMPTY_DOCUMENT, type MappingDocument } from '../../src/mappings/document.js';
import { BASIC_COLUMNS, LICENSE, OTHER, ZOO, sssom, table } from './support.js';
import { at } from '../support/at.js';

const SKOS = 'http://www.w3.org/2004/02/skos/core#';

function doc(text: string): MappingDocument {
  const r = parseSssom(text);
  assert.ok(r.ok, JSON.stringify(r.ok ? null : r.findings));
  return r.document;
}

function findings(text: string, ctx: ValidationContext = {}): MappingFinding[] {
  return validateDocument(doc(text), ctx);
}

const codes = (fs: readonly MappingFinding[]) => fs.map((f) => f.code).sort();
const row = (s: string, p: string, o: string, j = 'semapv:ManualMappingCuration') => [s, p, o, j];

test('a clean set has no findings', () => {
  assert.deepEqual(findings(sssom([row('zoo:Dog', 'skos:exactMatch', 'other:Dog'), row('zoo:Lion', 'skos:broadMatch', 'other:Cat')])), []);
});

test('the set needs a mapping_set_id and a license, both absolute IRIs', () => {
  const fs = findings('#curie_map:\n#  zoo: "http://example.org/zoo#"\n#mapping_set_id: not-an-iri\n' + table(BASIC_COLUMNS, []));
  assert.deepEqual(codes(fs), ['license_missing', 'uri_invalid']);
  assert.equal(fs.find((f) => f.code === 'uri_invalid')!.column, 'mapping_set_id');
});

test('each row needs its endpoints, predicate and justification; literal endpoints need a label instead', () => {
  const fs = findings(sssom([['zoo:Dog', 'skos:exactMatch', '', '']]));
  assert.deepEqual(fs.map((f) => `${f.code}:${f.column}`).sort(), ['required_missing:mapping_justification', 'required_missing:object_id']);
  const literal = findings(
    sssom(
      [['', 'skos:exactMatch', 'other:Dog', 'semapv:LexicalMatching', 'rdfs literal', '']],
      [...BASIC_COLUMNS, 'subject_type', 'subject_label'],
    ),
  );
  assert.deepEqual(
    literal.map((f) => `${f.code}:${f.column}`),
    ['required_missing:subject_label'],
  );
});

test('CURIEs must expand through the curie_map; URI slots take absolute IRIs only', () => {
  const fs = findings(sssom([[...row('nope:Dog', 'skos:exactMatch', 'other:Dog'), 'zoo:license']], [...BASIC_COLUMNS, 'license']));
  assert.deepEqual(fs.map((f) => `${f.code}:${f.column}`).sort(), ['curie_unresolved:subject_id', 'uri_invalid:license']);
  assert.match(fs.find((f) => f.code === 'curie_unresolved')!.message, /prefix 'nope' is not in the curie_map/);
});

test('justifications must be SEMAPV; enums, scores and dates are checked; an unknown predicate is a warning', () => {
  const fs = findings(
    sssom(
      [
        [...row('zoo:Dog', 'skos:exactMatch', 'other:Dog', 'semapv:Guessing'), 'owl thing', '1.2', '2024-02-30'],
        [...row('zoo:Cat', 'zoo:resembles', 'other:Cat'), '', '0.5', '2024-02-29'],
      ],
      [...BASIC_COLUMNS, 'subject_type', 'confidence', 'mapping_date'],
    ),
  );
  assert.deepEqual(fs.map((f) => `${f.severity}:${f.code}`).sort(), [
    'error:date_invalid',
    'error:enum_invalid',
    'error:justification_invalid',
    'error:score_invalid',
    'warn:predicate_nonstandard',
  ]);
});

test('the policy restricts predicates and licenses', () => {
  const policy = { allowedPredicates: [SKOS + 'exactMatch'], allowedLicenses: ['https://example.org/license'] };
  const fs = findings(sssom([row('zoo:Dog', 'skos:exactMatch', 'other:Dog'), row('zoo:Lion', 'skos:broadMatch', 'other:Cat')]), { policy });
  assert.deepEqual(fs.map((f) => `${f.code}:${f.mapping_id === undefined ? 'set' : 'row'}`).sort(), [
    'license_not_allowed:set',
    'predicate_not_allowed:row',
  ]);
  assert.deepEqual(
    findings(sssom([row('zoo:Dog', 'skos:exactMatch', 'other:Dog')]), { policy: { allowedPredicates: [], allowedLicenses: [LICENSE] } }),
    [],
  );
});

test('endpoints are looked up in the loaded closure: neither found warns, a wrong type warns', () => {
  const kinds = new Map<string, ReadonlySet<string>>([[ZOO + 'Dog', new Set(['Class'])]]);
  const kindsOf = (iri: string) => kinds.get(iri) ?? new Set<string>();
  const fs = findings(
    sssom(
      [
        [...row('zoo:Dog', 'skos:exactMatch', 'other:Dog'), 'owl named individual'],
        [...row('zoo:Ghost', 'skos:exactMatch', 'other:Ghost'), ''],
      ],
      [...BASIC_COLUMNS, 'subject_type'],
    ),
    { kindsOf },
  );
  assert.deepEqual(fs.map((f) => `${f.severity}:${f.code}`).sort(), ['warn:entity_not_found', 'warn:entity_type_mismatch']);
  assert.match(fs.find((f) => f.code === 'entity_not_found')!.message, /zoo:Ghost, other:Ghost/);
});

test('a self-mapping is an error; a mapping asserted and negated is a conflict', () => {
  assert.deepEqual(codes(findings(sssom([row('zoo:Dog', 'skos:exactMatch', `${ZOO}Dog`)]))), ['mapping_self']);
  const fs = findings(
    sssom(
      [
        [...row('zoo:Dog', 'skos:exactMatch', 'other:Dog'), ''],
        [...row('zoo:Dog', 'skos:exactMatch', `${OTHER}Dog`), 'Not'],
      ],
      [...BASIC_COLUMNS, 'predicate_modifier'],
    ),
  );
  assert.deepEqual(codes(fs), ['mapping_negation_conflict']);
});

test('exact matches one-to-many and many-to-one within a source scope warn; other scopes do not count', () => {
  const fs = findings(
    sssom([
      row('zoo:Dog', 'skos:exactMatch', 'other:Dog'),
      row('zoo:Dog', 'skos:exactMatch', 'other:Hound'),
      row('zoo:Puppy', 'skos:exactMatch', 'other:Dog'),
    ]),
  );
  assert.deepEqual(fs.map((f) => f.code).sort(), [
    'exact_match_many_to_one',
    'exact_match_many_to_one',
    'exact_match_one_to_many',
    'exact_match_one_to_many',
  ]);
  const scoped = findings(
    sssom(
      [
        [...row('zoo:Dog', 'skos:exactMatch', 'other:Dog'), 'other:a'],
        [...row('zoo:Dog', 'skos:exactMatch', 'other:Hound'), 'other:b'],
      ],
      [...BASIC_COLUMNS, 'object_source'],
    ),
  );
  assert.deepEqual(scoped, [], 'different object sources are different scopes');
});

test('a declared mapping_cardinality must match the set', () => {
  const fs = findings(
    sssom(
      [
        [...row('zoo:Dog', 'skos:closeMatch', 'other:Dog'), '1:1'],
        [...row('zoo:Dog', 'skos:closeMatch', 'other:Hound'), '1:n'],
      ],
      [...BASIC_COLUMNS, 'mapping_cardinality'],
    ),
  );
  assert.deepEqual(
    fs.map((f) => `${f.code}`),
    ['cardinality_mismatch'],
  );
  assert.match(at(fs, 0).message, /mapping_cardinality is 1:1 but the set shows 1:n/);
});

test('directional predicates may not form a cycle (narrowMatch counts reversed)', () => {
  const fs = findings(
    sssom([
      row('zoo:Lion', 'skos:broadMatch', 'other:Cat'),
      row('other:Cat', 'rdfs:subClassOf', 'zoo:Felid'),
      row('zoo:Lion', 'skos:narrowMatch', 'zoo:Felid'),
      row('zoo:Felid', 'skos:broadMatch', 'other:Animal'),
    ]),
  );
  assert.deepEqual(codes(fs), ['mapping_cycle', 'mapping_cycle', 'mapping_cycle']);
  assert.deepEqual(
    findings(sssom([row('zoo:Lion', 'skos:broadMatch', 'other:Cat'), row('zoo:Tiger', 'skos:broadMatch', 'other:Cat')])),
    [],
  );
});

test('findings sort errors first, then by code, mapping id and column; the report counts and caps them', () => {
  const fs = findings(sssom([row('zoo:Dog', 'zoo:resembles', 'nope:x'), row('zoo:Cat', 'skos:exactMatch', 'zoo:Cat')]));
  const sorted = [...fs].sort(compareFindings);
  assert.deepEqual(
    sorted.map((f) => f.severity),
    ['error', 'error', 'warn'],
  );
  const r = report(fs);
  assert.deepEqual(r.findings, sorted);
  assert.equal(r.error_count, 2);
  assert.equal(r.warning_count, 1);
  assert.equal(r.valid, false);
  assert.equal(r.findings_truncated, false);
  assert.deepEqual(
    validateDocument(EMPTY_DOCUMENT)
      .map((f) => f.code)
      .sort(),
    ['license_missing', 'mapping_set_id_missing'],
  );
});
