// The invariant files a project policy names for the `invariants` QC stage: `.rq` files with header lines,
// `.json` lists in the verify_ontology shape, directories of `.rq` files; an asset outside the project
// root, missing or malformed is reported, never silently dropped.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { invariantFromRq, invariantsFromJson, loadInvariantAssets } from '../../src/qc/stages/invariants.js';
import { at } from '../support/at.js';

test('an .rq invariant: id from the header or the file name, message, severity and include_inferred from header lines', () => {
  assert.deepEqual(
    invariantFromRq(
      '# id: no-orphans\n# message: Every class has a parent.\n# severity: warn\n# include_inferred: true\n\nSELECT ?c WHERE { ?c a owl:Class }\n',
      '/p/x.rq',
    ),
    {
      id: 'no-orphans',
      sparql: 'SELECT ?c WHERE { ?c a owl:Class }',
      message: 'Every class has a parent.',
      severity: 'warn',
      includeInferred: true,
    },
  );
  assert.deepEqual(invariantFromRq('ASK { ?s ?p ?o }', '/p/anything.sparql'), {
    id: 'anything',
    sparql: 'ASK { ?s ?p ?o }',
    message: "Invariant 'anything' violated.",
    severity: 'error',
    includeInferred: false,
  });
  assert.throws(() => invariantFromRq('# severity: fatal\n\nASK {}', '/p/x.rq'), /severity must be error, warn or info/);
  assert.throws(() => invariantFromRq('# include_inferred: yes\n\nASK {}', '/p/x.rq'), /must be true or false/);
});

test('a .json invariant list: verify_ontology entries; unnamed entries are named after the file', () => {
  const specs = invariantsFromJson(
    JSON.stringify({ queries: [{ sparql: 'ASK {}' }, { sparql: 'ASK {}', id: 'named', severity: 'info' }] }),
    '/p/checks.json',
  );
  assert.deepEqual(
    specs.map((s) => [s.id, s.severity, s.message]),
    [
      ['checks-1', 'error', "Invariant 'checks-1' violated."],
      ['named', 'info', "Invariant 'named' violated."],
    ],
  );
  assert.throws(() => invariantsFromJson('[{"sparql": "ASK {}", "colour": 1}]', '/p/c.json'), /entry 0: unknown field colour/);
  assert.throws(() => invariantsFromJson('{"x": 1}', '/p/c.json'), /an invariant list is an array/);
  assert.throws(() => invariantsFromJson('[', '/p/c.json'), /not JSON/);
});

test('policy assets: a directory of files is read in name order; missing, empty and escaping assets are problems', async () => {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'athene-inv-assets-')));
  try {
    const root = path.join(base, 'project');
    await mkdir(path.join(root, 'checks'), { recursive: true });
    await mkdir(path.join(root, 'empty'));
    await writeFile(path.join(root, 'checks', 'b.rq'), 'ASK { ?s ?p ?o }');
    await writeFile(path.join(root, 'checks', 'a.rq'), '# id: first\n\nASK {}');
    await writeFile(path.join(base, 'outside.rq'), 'ASK {}');
    await symlink(path.join(base, 'outside.rq'), path.join(root, 'link.rq'));
    const load = await loadInvariantAssets({ root, paths: ['checks', 'missing.rq', 'empty', 'link.rq', '../outside.rq'] });
    assert.deepEqual(
      load.specs.map((s) => [s.spec.id, s.source]),
      [
        ['first', path.join('checks', 'a.rq')],
        ['b', path.join('checks', 'b.rq')],
      ],
    );
    assert.equal(load.problems.length, 4, load.problems.join('\n'));
    assert.match(at(load.problems, 0), /missing\.rq: .* cannot be read: ENOENT/);
    assert.match(at(load.problems, 1), /empty: the directory holds no \.rq or \.sparql file/);
    assert.match(at(load.problems, 2), /link\.rq: .* is outside the project root/);
    assert.match(at(load.problems, 3), /\.\.\/outside\.rq: .* is outside the project root/);
  } finally {
    await rm(base, { recursive: true, force: true });
  }
});
