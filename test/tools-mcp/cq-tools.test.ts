// Competency questions over MCP (TOOLS.md 3.3): adding to each of the three stores, listing them, running
// them as a regression (pass/fail, caveats, inferences, fail_on), removing them (ambiguity needs a
// convention), undo of the annotation store, and precise refusals that write nothing.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, callOk, principalWith, serveTempOntology, undoDepth, type Row, type ServedTempOntology } from '../server/support.js';
import { runInContext, toolContext } from '../support/tool-context.js';
import { loadOntologyFile } from '../../src/model/io.js';
import { at } from '../support/at.js';

const EX = 'http://example.org/cq#';

const ONTOLOGY = `@prefix : <${EX}> .
@prefix owl:  <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

<http://example.org/cq> a owl:Ontology .
:Animal a owl:Class .
:Dog a owl:Class ; rdfs:subClassOf :Animal .
:Puppy a owl:Class ; rdfs:subClassOf :Dog .
:rex a owl:NamedIndividual , :Puppy .
`;

let served: ServedTempOntology;
let c: Client;

before(async () => {
  served = await serveTempOntology('athene-cq-tools-', 'pets.ttl', ONTOLOGY);
  c = served.c;
});
after(() => served.close());

const questions = (r: Row) => r.questions as Row[];
const byId = (r: Row, id: string) => questions(r).find((q) => q.id === id)!;

test('add_competency_question writes cqs/<id>.rq beside a saved document by default; list shows it; ids auto-number', async () => {
  const added = await callOk(c, 'add_competency_question', {
    query: 'SELECT ?d WHERE { ?d rdfs:subClassOf :Dog }',
    text: 'Which kinds of dog are there?',
    type: 'Scoping',
    tags: ['dogs'],
  });
  assert.equal(added.convention, 'robot-sparql-dir');
  assert.equal(added.target, path.join(served.dir, 'cqs', 'CQ-1.rq'));
  assert.deepEqual(added.added, {
    id: 'CQ-1',
    text: 'Which kinds of dog are there?',
    type: 'Scoping',
    query_lang: 'sparql',
    query: 'SELECT ?d WHERE { ?d rdfs:subClassOf :Dog }',
    include_inferred: true,
    expected: { kind: 'nonEmpty' },
    tags: ['dogs'],
  });
  assert.match(
    await readFile(added.target as string, 'utf8'),
    /^# id: CQ-1\n# text: Which kinds of dog are there\?\n# type: Scoping\n# expected: nonEmpty\n/,
  );
  const second = await callOk(c, 'add_competency_question', { query: 'ASK { :rex a :Cat }', expected: 'empty' });
  assert.equal((second.added as Row).id, 'CQ-2', 'the next id follows the highest used');
  assert.equal(second.convention, 'robot-sparql-dir', 'the existing store is followed');
  const list = await callOk(c, 'list_competency_questions');
  assert.equal(list.count, 2);
  assert.deepEqual(list.conventions_found, ['robot-sparql-dir']);
  assert.deepEqual(
    (list.competency_questions as Row[]).map((q) => [q.id, q.convention]),
    [
      ['CQ-1', 'robot-sparql-dir'],
      ['CQ-2', 'robot-sparql-dir'],
    ],
  );
  assert.deepEqual(list.skipped, []);
});

test('run_competency_questions: pass and fail per expectation, the open-world caveat for empty, fail_on any', async () => {
  await callOk(c, 'add_competency_question', {
    id: 'too-many',
    query: 'SELECT ?c WHERE { ?c a owl:Class }',
    expected: 'count > 10',
    convention: 'sidecar-manifest',
  });
  const r = await callOk(c, 'run_competency_questions');
  assert.deepEqual([r.total, r.passed, r.failed, r.gate], [3, 2, 1, 'pass']);
  assert.deepEqual(byId(r, 'CQ-1').actual_summary, { query_type: 'SELECT', row_count: 1 });
  assert.equal(byId(r, 'CQ-1').pass, true);
  assert.match((byId(r, 'CQ-2').caveats as string[]).join(' '), /Open world/);
  assert.deepEqual(
    [byId(r, 'too-many').pass, byId(r, 'too-many').convention, byId(r, 'too-many').expected],
    [false, 'sidecar-manifest', 'count > 10'],
  );
  assert.equal(typeof byId(r, 'CQ-1').ms, 'number');
  const gated = await callOk(c, 'run_competency_questions', { fail_on: 'any', ids: ['too-many'] });
  assert.deepEqual([gated.total, gated.gate], [1, 'fail']);
  const onlySidecar = await callOk(c, 'run_competency_questions', { convention: 'sidecar-manifest' });
  assert.deepEqual(
    questions(onlySidecar).map((q) => q.id),
    ['too-many'],
  );
  const unknown = await call(c, 'run_competency_questions', { ids: ['CQ-1', 'nope'] });
  assert.deepEqual([unknown.isError, unknown.body.error_code, unknown.body.ids], [true, 'not_found', ['nope']]);
  const truncated = await callOk(c, 'run_competency_questions', { ids: ['too-many'], limit: 1 });
  assert.match((byId(truncated, 'too-many').caveats as string[]).join(' '), /truncated at limit/);
  assert.match(JSON.stringify(await readFile(path.join(served.dir, 'pets-cqs.json'), 'utf8')), /too-many/);
});

test('include_inferred questions use the classified reasoner; without one they run over asserted axioms and say so', async () => {
  await callOk(c, 'add_competency_question', { id: 'rex-animal', query: 'ASK { :rex a :Animal }', convention: 'sidecar-manifest' });
  const asserted = byId(await callOk(c, 'run_competency_questions', { ids: ['rex-animal'] }), 'rex-animal');
  assert.equal(asserted.pass, false);
  assert.match(at(asserted.caveats as string[], 0), /asserted axioms only/);
  await callOk(c, 'set_reasoner', { reasoner: 'el' });
  await callOk(c, 'run_reasoner');
  const inferred = byId(await callOk(c, 'run_competency_questions', { ids: ['rex-animal'] }), 'rex-animal');
  assert.deepEqual([inferred.pass, inferred.caveats], [true, undefined]);
});

test('the annotation store: an add is one undoable change; the same id in two stores needs a convention to remove', async () => {
  const depth = await undoDepth(c);
  const added = await callOk(c, 'add_competency_question', {
    id: 'CQ-1',
    query: 'ASK { :Dog rdfs:subClassOf :Animal }',
    convention: 'ontology-annotations',
  });
  assert.deepEqual([added.convention, added.target, added.replaced], ['ontology-annotations', 'the active ontology (annotations)', false]);
  assert.equal(await undoDepth(c), depth + 1);
  const annotations = await callOk(c, 'run_competency_questions', { ids: ['CQ-1'], convention: 'ontology-annotations' });
  assert.equal(byId(annotations, 'CQ-1').pass, true);
  const ambiguous = await call(c, 'remove_competency_question', { id: 'CQ-1' });
  assert.deepEqual(
    [ambiguous.isError, ambiguous.body.error_code, ambiguous.body.conventions],
    [true, 'ambiguous', ['robot-sparql-dir', 'ontology-annotations']],
  );
  await callOk(c, 'undo_change');
  assert.deepEqual(
    ((await callOk(c, 'list_competency_questions')) as Row).conventions_found,
    ['robot-sparql-dir', 'sidecar-manifest'],
    'undo removed the annotation',
  );
  await callOk(c, 'redo_change');
  const removed = await callOk(c, 'remove_competency_question', { id: 'CQ-1', convention: 'ontology-annotations' });
  assert.deepEqual([removed.removed, removed.convention], [true, 'ontology-annotations']);
  const fromDir = await callOk(c, 'remove_competency_question', { id: 'CQ-1' });
  assert.deepEqual([fromDir.convention, fromDir.target], ['robot-sparql-dir', path.join(served.dir, 'cqs', 'CQ-1.rq')]);
  assert.deepEqual(await readdir(path.join(served.dir, 'cqs')), ['CQ-2.rq']);
  const missing = await call(c, 'remove_competency_question', { id: 'CQ-1' });
  assert.deepEqual([missing.isError, missing.body.error_code], [true, 'not_found']);
});

test('bad questions are refused with a precise error and nothing is written', async () => {
  const before = await readdir(path.join(served.dir, 'cqs'));
  const cases: [Record<string, unknown>, string, RegExp][] = [
    [{ query: 'SELECT ?x WHERE {' }, 'parse_error', /syntax/],
    [{ query: 'CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }' }, 'forbidden_query_form', /SELECT or ASK/],
    [{ query: 'DELETE WHERE { ?s ?p ?o }' }, 'forbidden_query_form', /UPDATE/],
    [{ query: 'ASK {}', expected: 'count = 2' }, 'invalid_argument', /count OP N/],
    [{ query: 'ASK {}', id: '../escape' }, 'invalid_argument', /must match/],
    [{ query: 'ASK {}', text: 'two\nlines' }, 'invalid_argument', /one line/],
  ];
  for (const [args, code, message] of cases) {
    const r = await call(c, 'add_competency_question', args);
    assert.equal(r.isError, true, JSON.stringify(args));
    assert.equal(r.body.error_code, code, JSON.stringify(r.body));
    assert.match(r.body.error as string, message);
  }
  assert.deepEqual(await readdir(path.join(served.dir, 'cqs')), before);
});

test('malformed entries in a store are skipped with source and reason, never fatal', async () => {
  await mkdir(path.join(served.dir, 'cqs'), { recursive: true });
  await writeFile(path.join(served.dir, 'cqs', 'broken.rq'), '# id: broken\n# expected: often\n\nASK {}\n');
  try {
    const list = await callOk(c, 'list_competency_questions');
    assert.deepEqual(list.skipped, [
      {
        source: path.join(served.dir, 'cqs', 'broken.rq'),
        reason: "expected must be nonEmpty, empty or count OP N (OP one of >= <= == > <, N a non-negative integer), not 'often'",
      },
    ]);
    const run = await callOk(c, 'run_competency_questions');
    assert.equal((run.skipped as Row[]).length, 1);
    assert.ok(questions(run).length > 0, 'the valid questions still run');
  } finally {
    await writeFile(path.join(served.dir, 'cqs', 'broken.rq'), '# id: broken\n\nASK {}\n');
    await callOk(c, 'remove_competency_question', { id: 'broken' });
  }
});

test('a file store needs filesystem:project:write; the annotation store needs only ontology:curate', async () => {
  const o = await loadOntologyFile(served.file);
  const ctx = toolContext([o], principalWith(['ontology:read', 'ontology:curate']));
  const before = await readdir(path.join(served.dir, 'cqs'));
  const denied = await runInContext('add_competency_question', { id: 'limited', query: 'ASK {}', convention: 'robot-sparql-dir' }, ctx);
  assert.deepEqual(
    [denied.body.error_code, denied.body.missing_capabilities, denied.body.effects_prevented],
    ['authorization_denied', ['filesystem:project:write'], true],
  );
  assert.deepEqual(await readdir(path.join(served.dir, 'cqs')), before, 'nothing was written');
  const annotated = await runInContext(
    'add_competency_question',
    { id: 'limited', query: 'ASK {}', convention: 'ontology-annotations' },
    ctx,
  );
  assert.equal(annotated.isError, false, JSON.stringify(annotated.body));
  const listed = await runInContext('list_competency_questions', {}, toolContext([o], principalWith(['ontology:read'])));
  assert.ok(
    (listed.body.competency_questions as Row[]).some((q) => q.id === 'limited' && q.convention === 'ontology-annotations'),
    'a read grant lists every store',
  );
});
