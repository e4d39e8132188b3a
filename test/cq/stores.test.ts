// The three competency-question stores: .rq files with header lines, the sidecar manifest and ontology
// annotations. Round trips, in-place replacement, malformed entries skipped (never fatal) with their source,
// and writes that keep every other entry.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { questionFrom, questionJson } from '../../src/cq/question.js';
import { questionFromRq, questionToRq } from '../../src/cq/rq-file.js';
import {
  addToManifest,
  loadManifest,
  loadRqDirectory,
  removeFromManifest,
  removeRq,
  robotDirOf,
  rqTarget,
  sidecarOf,
  writeRq,
} from '../../src/cq/file-stores.js';
import { addChanges, CQ_PROPERTY, loadAnnotations, removeChange } from '../../src/cq/annotation-store.js';
import { loadQuestions } from '../../src/cq/load.js';
import { ontology, workspace } from '../qc/support.js';
import * as t from '../../src/model/terms.js';
import { at } from '../support/at.js';

async function tempDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'athene-cq-'));
}

test('a .rq file round-trips through its header lines; defaults fill what is absent', () => {
  const q = questionFrom({
    id: 'CQ-3',
    text: 'Which dogs?',
    type: 'Scoping',
    query: 'SELECT ?d WHERE { ?d rdfs:subClassOf :Dog }',
    include_inferred: false,
    expected: 'count >= 1',
    tags: ['dogs', 'taxonomy'],
  });
  const text = questionToRq(q);
  assert.equal(
    text,
    '# id: CQ-3\n# text: Which dogs?\n# type: Scoping\n# expected: count >= 1\n# include_inferred: false\n# tags: dogs, taxonomy\n\nSELECT ?d WHERE { ?d rdfs:subClassOf :Dog }\n',
  );
  assert.deepEqual(questionJson(questionFromRq(text, '/x/other.rq')), questionJson(q));
  const bare = questionFromRq('# Which classes exist?\nSELECT ?c WHERE { ?c a owl:Class }\n', '/x/classes.rq');
  assert.deepEqual(questionJson(bare), {
    id: 'classes',
    query_lang: 'sparql',
    query: 'SELECT ?c WHERE { ?c a owl:Class }',
    include_inferred: true,
    expected: { kind: 'nonEmpty' },
  });
  assert.throws(() => questionFromRq('# id: x\n# expected: sometimes\n\nASK {}', '/x/x.rq'), /expected must be/);
  assert.throws(() => questionFromRq('# id: x\n', '/x/x.rq'), /no query/);
  assert.throws(
    () => questionToRq(questionFrom({ id: 'x', query: 'ASK {}', expected: { kind: 'exactRows', rows: [] } })),
    /only be stored in a sidecar manifest/,
  );
});

test('robot-sparql-dir: malformed and duplicate files are skipped with the reason; a replacement rewrites the file holding the id', async () => {
  const dir = await tempDir();
  try {
    const cqs = robotDirOf(path.join(dir, 'pets.ttl'));
    await mkdir(cqs);
    await writeFile(path.join(cqs, 'a.rq'), '# id: CQ-1\n\nASK { ?s ?p ?o }\n');
    await writeFile(path.join(cqs, 'b.rq'), '# id: CQ-1\n\nASK {}\n');
    await writeFile(path.join(cqs, 'c.rq'), '# id: CQ-2\n# include_inferred: maybe\n\nASK {}\n');
    await writeFile(path.join(cqs, 'notes.txt'), 'not a query');
    const load = await loadRqDirectory(cqs);
    assert.deepEqual(
      load.questions.map((q) => [q.question.id, path.basename(q.file)]),
      [['CQ-1', 'a.rq']],
    );
    assert.deepEqual(
      load.skipped.map((s) => [path.basename(s.source), s.reason]),
      [
        ['b.rq', `duplicate id 'CQ-1' (also in ${path.join(cqs, 'a.rq')})`],
        ['c.rq', "# include_inferred: must be true or false, not 'maybe'"],
      ],
    );
    const replacement = questionFrom({ id: 'CQ-1', query: 'ASK { ?s a owl:Class }' });
    const target = await rqTarget(cqs, replacement);
    assert.equal(path.basename(target), 'a.rq', 'the file with the same # id: is rewritten in place');
    await writeRq(target, replacement);
    assert.match(await readFile(path.join(cqs, 'a.rq'), 'utf8'), /ASK \{ \?s a owl:Class \}/);
    await assert.rejects(rqTarget(cqs, questionFrom({ id: 'c', query: 'ASK {}' })), /not a valid question file/);
    assert.equal(path.basename((await removeRq(cqs, 'CQ-1'))!), 'a.rq');
    assert.deepEqual((await readdir(cqs)).sort(), ['b.rq', 'c.rq', 'notes.txt']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('sidecar-manifest: entries replace in place, malformed ones are skipped yet kept on rewrite; an unparseable manifest is never overwritten', async () => {
  const dir = await tempDir();
  try {
    const file = sidecarOf(path.join(dir, 'pets.owl'));
    assert.equal(path.basename(file), 'pets-cqs.json');
    const broken = { id: 'bad id', query: 'ASK {}' };
    await writeFile(
      file,
      JSON.stringify({ competency_questions: [{ id: 'CQ-1', query: 'ASK {}' }, broken, { id: 'CQ-1', query: 'ASK {}' }] }),
    );
    const load = await loadManifest(file);
    assert.deepEqual(
      load.questions.map((q) => q.question.id),
      ['CQ-1'],
    );
    assert.deepEqual(
      load.skipped.map((s) => s.source),
      [`${file}#1`, `${file}#2`],
    );
    assert.match(at(load.skipped, 1).reason, /duplicate id 'CQ-1'/);
    await addToManifest(
      file,
      questionFrom({
        id: 'CQ-2',
        query: 'SELECT ?x WHERE { ?x a owl:Class }',
        expected: { kind: 'exactRows', rows: [{ x: 'http://e/a' }] },
      }),
    );
    await addToManifest(file, questionFrom({ id: 'CQ-1', query: 'ASK { ?s ?p ?o }', expected: 'empty' }));
    const written = JSON.parse(await readFile(file, 'utf8')) as { competency_questions: unknown[] };
    assert.deepEqual(written.competency_questions[1], broken, 'a malformed entry is kept as it was');
    assert.deepEqual(
      written.competency_questions.map((e) => (e as { id: string }).id),
      ['CQ-1', 'bad id', 'CQ-1', 'CQ-2'],
    );
    assert.deepEqual((written.competency_questions[0] as { expected: unknown }).expected, { kind: 'empty' });
    assert.equal(await removeFromManifest(file, 'CQ-2'), true);
    assert.equal(await removeFromManifest(file, 'CQ-9'), false);
    await writeFile(file, '{"competency_questions": [');
    assert.match(at((await loadManifest(file)).skipped, 0).reason, /not JSON/);
    await assert.rejects(addToManifest(file, questionFrom({ id: 'x', query: 'ASK {}' })), /cannot be rewritten without losing content/);
    assert.equal(await readFile(file, 'utf8'), '{"competency_questions": [', 'nothing was lost');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('ontology-annotations: one JSON literal per question; replace and remove are changes; malformed values are skipped', () => {
  const o = ontology('');
  const ws = workspace(o);
  const q = questionFrom({ id: 'CQ-1', text: 'Any class?', query: 'ASK { ?c a owl:Class }' });
  ws.apply(addChanges(o, q));
  const loaded = loadAnnotations(o);
  assert.deepEqual(
    loaded.questions.map((a) => questionJson(a.question)),
    [questionJson(q)],
  );
  assert.ok(o.has(t.declaration(t.entity('AnnotationProperty', CQ_PROPERTY))), 'the annotation property is declared');
  ws.apply(addChanges(o, questionFrom({ id: 'CQ-1', query: 'ASK {}' })));
  assert.deepEqual(
    loadAnnotations(o).questions.map((a) => a.question.query),
    ['ASK {}'],
    'same id replaces',
  );
  const property = t.entity('AnnotationProperty', CQ_PROPERTY) as t.AnnotationProperty;
  ws.apply([{ kind: 'AddOntologyAnnotation', ontology: o, annotation: t.annotation(property, t.literal('{not json')) }]);
  const again = loadAnnotations(o);
  assert.equal(again.questions.length, 1);
  assert.equal(again.skipped.length, 1);
  assert.match(at(again.skipped, 0).reason, /not JSON/);
  ws.apply([removeChange(o, 'CQ-1')!]);
  assert.equal(loadAnnotations(o).questions.length, 0);
  assert.equal(removeChange(o, 'CQ-1'), null);
  ws.undo();
  assert.equal(loadAnnotations(o).questions.length, 1, 'the removal undoes');
});

test('loadQuestions reads all three stores of a saved ontology, by id then store', async () => {
  const dir = await tempDir();
  try {
    const document = path.join(dir, 'pets.ttl');
    const o = ontology('');
    o.documentIri = pathToFileURL(document).href;
    const ws = workspace(o);
    ws.apply(addChanges(o, questionFrom({ id: 'CQ-2', query: 'ASK {}' })));
    await mkdir(robotDirOf(document));
    await writeFile(path.join(robotDirOf(document), 'CQ-2.rq'), '# id: CQ-2\n\nASK {}\n');
    await addToManifest(sidecarOf(document), questionFrom({ id: 'CQ-1', query: 'ASK {}' }));
    const all = await loadQuestions(o);
    assert.deepEqual(
      all.questions.map((s) => [s.question.id, s.convention]),
      [
        ['CQ-1', 'sidecar-manifest'],
        ['CQ-2', 'robot-sparql-dir'],
        ['CQ-2', 'ontology-annotations'],
      ],
    );
    assert.deepEqual(all.conventionsFound, ['robot-sparql-dir', 'sidecar-manifest', 'ontology-annotations']);
    assert.deepEqual(all.skipped, []);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
