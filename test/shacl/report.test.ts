// The shacl_validate report: a total order over results, counts per severity, the worst severity, and a
// digest over every result; and which serialization a shapes file is read in.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { shaclReport, sortResults } from '../../src/shacl/report.js';
import { readShapesFile, shapesFormatOf } from '../../src/shacl/shapes.js';
import type { ShaclResult } from '../../src/shacl/protocol.js';
import { ToolFailure } from '../../src/tools/core/tool.js';
import { at } from '../support/at.js';

const row = (over: Partial<ShaclResult>): ShaclResult => ({
  focus_node: 'http://e/a',
  result_path: null,
  value: null,
  severity: 'Violation',
  constraint_component: 'http://www.w3.org/ns/shacl#MinCountConstraintComponent',
  source_shape: 'http://e/S',
  message: 'm',
  ...over,
});

test('results sort by every field in turn, null first, by code unit (not locale)', () => {
  const rows = [
    row({ focus_node: 'http://e/b' }),
    row({ result_path: 'http://e/p', value: '"x"' }),
    row({ result_path: 'http://e/p' }),
    row({ focus_node: '_:d0b1' }),
    row({ focus_node: 'http://e/B' }),
    row({ message: 'M' }),
  ];
  const sorted = sortResults(rows);
  assert.deepEqual(
    sorted.map((r) => [r.focus_node, r.result_path, r.value, r.message]),
    [
      ['_:d0b1', null, null, 'm'],
      ['http://e/B', null, null, 'm'],
      ['http://e/a', null, null, 'M'],
      ['http://e/a', 'http://e/p', null, 'm'],
      ['http://e/a', 'http://e/p', '"x"', 'm'],
      ['http://e/b', null, null, 'm'],
    ],
  );
  assert.deepEqual(sortResults([...rows].reverse()), sorted, 'the order does not depend on the input order');
});

test('counts, worst severity (a non-standard severity counts as a violation), limit and digest', () => {
  const rows = [
    row({ severity: 'Info' }),
    row({ severity: 'Warning', focus_node: 'http://e/b' }),
    row({ severity: 'Info', focus_node: 'http://e/c' }),
  ];
  const r = shaclReport(rows, 1);
  assert.deepEqual(
    [r.conforms, r.total_results, r.violations, r.warnings, r.infos, r.worst_severity, r.truncated],
    [false, 3, 0, 1, 2, 'Warning', 2],
  );
  assert.equal(r.results.length, 1);
  assert.match(r.identity_digest, /^sha256:[0-9a-f]{64}$/);
  assert.equal(shaclReport([...rows].reverse(), 3).identity_digest, r.identity_digest, 'the digest covers every result, in any order');
  assert.notEqual(shaclReport(rows.slice(1), 3).identity_digest, r.identity_digest);
  assert.equal('truncated' in shaclReport(rows, 3), false);
  const custom = shaclReport([row({ severity: 'http://e/Severe' })], 10);
  assert.deepEqual([custom.violations, custom.worst_severity, at(custom.results, 0).severity], [1, 'Violation', 'http://e/Severe']);
  const none = shaclReport([], 10);
  assert.deepEqual([none.conforms, none.worst_severity], [true, null]);
});

test("a shapes file's format comes from its extension; an unknown one, a directory or a missing file are precise failures", async () => {
  assert.deepEqual(['a.ttl', 'a.NT', 'a.nq', 'a.trig', 'a.jsonld', 'a.rdf', 'a.owl'].map(shapesFormatOf), [
    'turtle',
    'ntriples',
    'nquads',
    'trig',
    'jsonld',
    'rdfxml',
    'rdfxml',
  ]);
  assert.equal(shapesFormatOf('shapes.shex'), null);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-shapes-'));
  try {
    await writeFile(path.join(dir, 'shapes.ttl'), '# shapes\n');
    await writeFile(path.join(dir, 'shapes.shex'), 'x');
    await mkdir(path.join(dir, 'folder.ttl'));
    const doc = await readShapesFile(path.join(dir, 'shapes.ttl'));
    assert.deepEqual(
      [doc.format, doc.origin, doc.base],
      ['turtle', path.join(dir, 'shapes.ttl'), 'file://' + path.join(dir, 'shapes.ttl')],
    );
    const code = (p: string) =>
      readShapesFile(path.join(dir, p), 'shapes_path').then(
        () => null,
        (e: unknown) => (e instanceof ToolFailure ? e.code : String(e)),
      );
    assert.equal(await code('shapes.shex'), 'invalid_argument');
    assert.equal(await code('folder.ttl'), 'not_found');
    assert.equal(await code('absent.ttl'), 'not_found');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
