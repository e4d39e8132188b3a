// SSSOM/TSV reading and canonical writing: round trips, a revision that ignores presentation (row, column,
// header and prefix order, CRLF, BOM), explicit and stable mapping ids, spreadsheet-safe export, and
// malformed files rejected with the line that is wrong.

import test from 'node:test';
import assert from 'node:assert/strict';
import { parseSssom, serializeSssom, canonicalText, MAX_CELL_BYTES } from '../../src/mappings/tsv.js';
import type { MappingDocument } from '../../src/mappings/document.js';
import type { MappingFinding } from '../../src/mappings/finding.js';
import { sha256Digest } from '../../src/util/digest.js';
import { BASIC_COLUMNS, LICENSE, OTHER, SET_ID, ZOO, header, sssom, table } from './support.js';
import { at } from '../support/at.js';

const ROWS: [string, string, string, string][] = [
  ['zoo:Dog', 'skos:exactMatch', 'other:Dog', 'semapv:ManualMappingCuration'],
  ['zoo:Cat', 'skos:exactMatch', 'other:Cat', 'semapv:LexicalMatching'],
  ['zoo:Lion', 'skos:broadMatch', 'other:Cat', 'semapv:ManualMappingCuration'],
];

function parsed(text: string | Uint8Array): MappingDocument {
  const r = parseSssom(text);
  assert.ok(r.ok, `expected a parse: ${JSON.stringify(r.ok ? null : r.findings)}`);
  return r.document;
}

function rejected(text: string | Uint8Array): readonly MappingFinding[] {
  const r = parseSssom(text);
  assert.equal(r.ok, false, 'expected a rejection');
  return r.ok ? [] : r.findings;
}

const revision = (text: string) => sha256Digest(canonicalText(parsed(text)));

test('a set reads into metadata, prefixes and records, and its canonical text reads back to the same set', () => {
  const doc = parsed(sssom(ROWS));
  assert.equal(doc.metadata.mapping_set_id, SET_ID);
  assert.equal(doc.metadata.license, LICENSE);
  assert.deepEqual(doc.prefixes, { zoo: ZOO, other: OTHER });
  assert.equal(doc.records.length, 3);
  assert.deepEqual(
    doc.records.map((r) => r.mapping_id),
    [...doc.records.map((r) => r.mapping_id)].sort(),
    'records sorted by id',
  );
  const text = canonicalText(doc);
  assert.deepEqual(parsed(text), doc, 'canonical text reads back to the same set');
  assert.equal(canonicalText(parsed(text)), text, 'canonical writing is idempotent');
  assert.match(text, /^#curie_map:\n/);
  assert.ok(
    text.includes('\nmapping_id\tsubject_id\tpredicate_id\tobject_id\tmapping_justification\n'),
    'mapping_id first, then slots in SSSOM order',
  );
  assert.ok(text.includes('#  - slot_name: mapping_id\n'), 'mapping_id is declared as an extension slot');
});

test('the revision ignores row order, column order, header order, prefix order, CRLF and a BOM', () => {
  const base = revision(sssom(ROWS));
  assert.equal(revision(sssom([...ROWS].reverse())), base, 'row order');
  const swapped = ['object_id', 'mapping_justification', 'subject_id', 'predicate_id'];
  assert.equal(
    revision(
      header() +
        table(
          swapped,
          ROWS.map((r) => [r[2], r[3], r[0], r[1]]),
        ),
    ),
    base,
    'column order',
  );
  const reordered =
    ['#license: ' + LICENSE, '#mapping_set_id: ' + SET_ID, '#curie_map:', `#  other: ${OTHER}`, `#  zoo: "${ZOO}"`].join('\n') + '\n';
  assert.equal(revision(reordered + table(BASIC_COLUMNS, ROWS)), base, 'header key and prefix order');
  assert.equal(revision(sssom(ROWS).replace(/\n/g, '\r\n')), base, 'CRLF line ends');
  assert.equal(revision('\uFEFF' + sssom(ROWS)), base, 'byte order mark');
  assert.equal(
    revision(
      sssom(
        ROWS.map((r) => [...r, '']),
        [...BASIC_COLUMNS, 'comment'],
      ),
    ),
    base,
    'an all-empty column',
  );
  assert.notEqual(revision(sssom(ROWS.slice(1))), base, 'a removed row changes it');
  assert.notEqual(revision(sssom(ROWS, BASIC_COLUMNS, ['mapping_set_version: "2"'])), base, 'metadata changes it');
});

test('a stable mapping id depends on the expanded identity, not on CURIE spelling or extra cells', () => {
  const curie = parsed(sssom([at(ROWS, 0)]));
  const full = parsed(
    sssom([[`${ZOO}Dog`, 'http://www.w3.org/2004/02/skos/core#exactMatch', 'other:Dog', 'semapv:ManualMappingCuration']]),
  );
  assert.equal(at(curie.records, 0).mapping_id, at(full.records, 0).mapping_id);
  assert.match(at(curie.records, 0).mapping_id, /^sha256:[0-9a-f]{64}$/);
  const labelled = parsed(sssom([[...at(ROWS, 0), 'Dog']], [...BASIC_COLUMNS, 'subject_label']));
  assert.equal(at(labelled.records, 0).mapping_id, at(curie.records, 0).mapping_id, 'labels are not identity');
  const negated = parsed(sssom([[...at(ROWS, 0), 'Not']], [...BASIC_COLUMNS, 'predicate_modifier']));
  assert.notEqual(at(negated.records, 0).mapping_id, at(curie.records, 0).mapping_id, 'negation is identity');
  const explicit = parsed(sssom([['m-1', ...at(ROWS, 0)]], ['mapping_id', ...BASIC_COLUMNS]));
  assert.equal(at(explicit.records, 0).mapping_id, 'm-1');
  assert.equal(at(explicit.records, 0).cells.mapping_id, undefined, 'the id is not a cell');
});

test('metadata keeps declared extensions, multivalued lists and strings YAML would misread', () => {
  const extra = [
    'mapping_set_version: "1.0"',
    'creator_label:',
    '  - "yes"',
    '  - Ann',
    'mapping_date: "2024-05-01"',
    'extension_definitions:',
    '  - slot_name: reviewed_in',
    '    property: http://example.org/reviewedIn',
    'reviewed_in: sprint 4',
  ];
  const doc = parsed(sssom([[...at(ROWS, 0), 'r1']], [...BASIC_COLUMNS, 'reviewed_in'], extra));
  assert.deepEqual(doc.metadata.creator_label, ['yes', 'Ann']);
  assert.equal(doc.metadata.reviewed_in, 'sprint 4');
  assert.deepEqual(doc.extensions, [{ slot_name: 'reviewed_in', property: 'http://example.org/reviewedIn' }]);
  const text = canonicalText(doc);
  assert.ok(
    text.includes('#  - "yes"\n') && text.includes('#mapping_set_version: "1.0"\n') && text.includes('#mapping_date: "2024-05-01"\n'),
    text,
  );
  assert.deepEqual(parsed(text), doc);
});

test('spreadsheet-safe export prefixes formula-like cells and says how many it altered', () => {
  const doc = parsed(
    sssom(
      [
        [...at(ROWS, 0), '=HYPERLINK("x")'],
        [...at(ROWS, 1), 'plain'],
      ],
      [...BASIC_COLUMNS, 'comment'],
    ),
  );
  const safe = serializeSssom(doc, { spreadsheetSafe: true });
  assert.equal(safe.altered, 1);
  assert.ok(safe.text.includes('\t\'=HYPERLINK("x")\n'));
  assert.equal(serializeSssom(doc).altered, 0);
  assert.equal(serializeSssom(doc).text, canonicalText(doc));
});

test('an empty file is an empty set; metadata without a table is a set without mappings', () => {
  assert.equal(parsed('').records.length, 0);
  const doc = parsed(header());
  assert.equal(doc.records.length, 0);
  assert.equal(doc.metadata.mapping_set_id, SET_ID);
});

test('malformed tables are rejected with the line that is wrong', () => {
  const short = rejected(sssom([at(ROWS, 0), at(ROWS, 1).slice(0, 3)]));
  assert.equal(at(short, 0).code, 'column_count');
  assert.match(at(short, 0).message, /^line 8: 3 cells where the header names 4 columns/);

  const dup = rejected(header() + table(['subject_id', 'subject_id', 'predicate_id'], []));
  assert.equal(at(dup, 0).code, 'column_duplicate');
  assert.match(at(dup, 0).message, /^line 6:/);

  const unknown = rejected(sssom([[...at(ROWS, 0), 'x']], [...BASIC_COLUMNS, 'colour']));
  assert.equal(at(unknown, 0).code, 'column_unknown');
  assert.equal(at(unknown, 0).column, 'colour');
  assert.match(at(unknown, 0).message, /extension_definitions/);

  const comment = rejected(sssom([at(ROWS, 0)]) + '# late comment\n');
  assert.equal(at(comment, 0).code, 'comment_misplaced');
  assert.match(at(comment, 0).message, /^line 8:/);

  const blank = rejected(sssom([at(ROWS, 0)]) + '\n' + at(ROWS, 1).join('\t') + '\n');
  assert.equal(at(blank, 0).code, 'row_empty');

  const twice = rejected(sssom([at(ROWS, 0), at(ROWS, 0)]));
  assert.equal(at(twice, 0).code, 'mapping_id_duplicate');
  assert.match(at(twice, 0).message, /^line 8: .* repeats line 7/);

  const badId = rejected(sssom([['has space', ...at(ROWS, 0)]], ['mapping_id', ...BASIC_COLUMNS]));
  assert.equal(at(badId, 0).code, 'mapping_id_invalid');

  const big = rejected(sssom([[...at(ROWS, 0), 'x'.repeat(MAX_CELL_BYTES + 1)]], [...BASIC_COLUMNS, 'comment']));
  assert.equal(at(big, 0).code, 'cell_too_large');
});

test('malformed headers are rejected with their line, and never parsed leniently', () => {
  const yaml = rejected(`#curie_map:\n#  zoo: ${ZOO}\n#  zoo: ${OTHER}\n` + table(BASIC_COLUMNS, []));
  assert.equal(at(yaml, 0).code, 'metadata_yaml');
  assert.match(at(yaml, 0).message, /duplicate mapping key at line 3/);
  assert.equal(at(rejected('#a: &x 1\n#b: *x\n' + table(BASIC_COLUMNS, [])), 0).code, 'metadata_yaml');
  const unknownKey = rejected(header(['sssom_version: "1.1"']) + table(BASIC_COLUMNS, []));
  assert.equal(at(unknownKey, 0).code, 'metadata_unknown');
  const number = rejected(header(['mapping_set_version: 1.0']) + table(BASIC_COLUMNS, []));
  assert.equal(at(number, 0).code, 'metadata_invalid');
  assert.match(at(number, 0).message, /quote/);
  const rebind = rejected('#curie_map:\n#  skos: http://example.org/not-skos#\n' + table(BASIC_COLUMNS, []));
  assert.equal(at(rebind, 0).code, 'prefix_builtin_conflict');
  assert.equal(at(rejected(new Uint8Array([0x23, 0xff, 0x0a])), 0).code, 'encoding_invalid');
});
