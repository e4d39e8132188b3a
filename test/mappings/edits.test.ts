// The pure store changes: adding a mapping (first add needs set metadata; ids, prefixes and cells are
// checked), removing one, merging an imported set by mapping id, and the page cursors.

import test from 'node:test';
import assert from 'node:assert/strict';
import { ToolFailure } from '../../src/tools/core/tool.js';
import { EMPTY_DOCUMENT, type MappingDocument } from '../../src/mappings/document.js';
import { mergeDocuments, withAddedMapping, withoutMapping } from '../../src/mappings/edits.js';
import { parseSssom } from '../../src/mappings/tsv.js';
import { decodeCursor, encodeCursor } from '../../src/mappings/cursor.js';
import { LICENSE, OTHER, SET_ID, ZOO, sssom } from './support.js';
import { at } from '../support/at.js';

const DOG = {
  subject_id: 'zoo:Dog',
  predicate_id: 'skos:exactMatch',
  object_id: 'other:Dog',
  mapping_justification: 'semapv:ManualMappingCuration',
};
const PREFIXES = { zoo: ZOO, other: OTHER };

function doc(text: string): MappingDocument {
  const r = parseSssom(text);
  assert.ok(r.ok);
  return r.document;
}

function fails(code: string, body: () => unknown): ToolFailure {
  try {
    body();
  } catch (err) {
    assert.ok(err instanceof ToolFailure, String(err));
    assert.equal(err.code, code, err.message);
    return err;
  }
  assert.fail(`expected ${code}`);
}

test('the first add to an absent store needs mapping_set_id and license; later adds keep them', () => {
  const missing = fails('invalid_argument', () => withAddedMapping(EMPTY_DOCUMENT, false, { cells: DOG, prefix_map: PREFIXES }));
  assert.match(missing.message, /mapping_set_id is required on the first add/);
  const first = withAddedMapping(EMPTY_DOCUMENT, false, { cells: DOG, prefix_map: PREFIXES, mapping_set_id: SET_ID, license: LICENSE });
  assert.equal(first.document.metadata.license, LICENSE);
  assert.match(first.record.mapping_id, /^sha256:/);
  const second = withAddedMapping(first.document, true, { cells: { ...DOG, object_id: 'other:Hound', mapping_id: '' } });
  assert.equal(second.document.records.length, 2);
  fails('metadata_conflict', () => withAddedMapping(first.document, true, { cells: DOG, license: 'https://example.org/other' }));
});

test('adding an id already present, an unknown column, a control character or a rebound prefix is refused', () => {
  const base = doc(sssom([[DOG.subject_id, DOG.predicate_id, DOG.object_id, DOG.mapping_justification]]));
  const exists = fails('mapping_exists', () => withAddedMapping(base, true, { cells: DOG }));
  assert.equal(exists.context.mapping_id, at(base.records, 0).mapping_id);
  fails('invalid_argument', () => withAddedMapping(base, true, { cells: { ...DOG, colour: 'red' } }));
  fails('invalid_argument', () => withAddedMapping(base, true, { cells: { ...DOG, comment: 'a\tb' } }));
  fails('prefix_conflict', () => withAddedMapping(base, true, { cells: DOG, prefix_map: { zoo: 'http://elsewhere.org/' } }));
  fails('prefix_conflict', () => withAddedMapping(base, true, { cells: DOG, prefix_map: { skos: 'http://elsewhere.org/' } }));
  const explicit = withAddedMapping(base, true, { cells: { ...DOG, mapping_id: 'dog-1' } });
  assert.equal(explicit.record.mapping_id, 'dog-1', 'an explicit id is kept even for the same identity');
});

test('removing needs a known id', () => {
  const base = doc(sssom([[DOG.subject_id, DOG.predicate_id, DOG.object_id, DOG.mapping_justification]]));
  assert.equal(withoutMapping(base, at(base.records, 0).mapping_id).records.length, 0);
  fails('unknown_mapping', () => withoutMapping(base, 'nope'));
});

test('a merge adds and replaces by id; conflicting metadata, prefixes or extensions merge nothing', () => {
  const current = doc(
    sssom(
      [['zoo:Dog', 'skos:exactMatch', 'other:Dog', 'semapv:ManualMappingCuration', 'old']],
      ['subject_id', 'predicate_id', 'object_id', 'mapping_justification', 'comment'],
    ),
  );
  const incoming = doc(
    sssom(
      [
        ['zoo:Dog', 'skos:exactMatch', 'other:Dog', 'semapv:ManualMappingCuration', 'new'],
        ['zoo:Cat', 'skos:exactMatch', 'other:Cat', 'semapv:ManualMappingCuration', ''],
      ],
      ['subject_id', 'predicate_id', 'object_id', 'mapping_justification', 'comment'],
      ['mapping_set_title: Zoo'],
    ),
  );
  const merged = mergeDocuments(current, incoming);
  assert.deepEqual([merged.added, merged.updated, merged.unchanged], [1, 1, 0]);
  assert.equal(merged.document.records.find((r) => r.cells.subject_id === 'zoo:Dog')!.cells.comment, 'new');
  assert.equal(merged.document.metadata.mapping_set_title, 'Zoo');
  const again = mergeDocuments(merged.document, incoming);
  assert.deepEqual([again.added, again.updated, again.unchanged], [0, 0, 2]);
  const clash = doc(sssom([], undefined, []).replace(`license: ${LICENSE}`, 'license: https://example.org/other'));
  const refused = fails('incompatible_merge', () => mergeDocuments(current, clash));
  assert.deepEqual(refused.context.conflicts, ['metadata license']);
  const prefixClash = doc(sssom([]).replace(`other: ${OTHER}`, 'other: http://elsewhere.org/'));
  assert.deepEqual(fails('incompatible_merge', () => mergeDocuments(current, prefixClash)).context.conflicts, ['prefix other']);
});

test('a cursor carries its offset only for the listing, store and revision it was issued for', () => {
  const binding = { kind: 'list_mappings', scope: JSON.stringify(['/p/store.tsv', 'sha256:1']) };
  const cursor = encodeCursor(binding, 50);
  assert.equal(decodeCursor(cursor, binding), 50);
  fails('cursor_invalid', () => decodeCursor(cursor, { ...binding, scope: JSON.stringify(['/p/store.tsv', 'sha256:2']) }));
  fails('cursor_invalid', () => decodeCursor(cursor, { ...binding, kind: 'validate_mappings' }));
  const [payload, tag] = cursor.split('.');
  assert.ok(payload !== undefined && tag !== undefined, 'a cursor is payload.tag');
  const forged = Buffer.from(JSON.stringify(['list_mappings', binding.scope, 0])).toString('base64url');
  fails('cursor_invalid', () => decodeCursor(`${forged}.${tag}`, binding));
  fails('cursor_invalid', () => decodeCursor(payload, binding));
  fails('cursor_invalid', () => decodeCursor('garbage', binding));
});
