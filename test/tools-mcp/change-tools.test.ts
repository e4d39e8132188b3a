// preview_changes and apply_changes through the real server: per-row planning, one undo unit per batch,
// row errors, strict mode, net-zero batches, verify=rollback refusal, argument validation, gates.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Ontology } from '../../src/model/ontology.js';
import { startTestServer, fixture, connect, call, principalWith, type TestServer } from '../server/support.js';
import { toolContext, runInContext } from '../support/tool-context.js';
import { at } from '../support/at.js';

const ZOO = 'http://example.org/zoo#';
let t: TestServer;
let c: Client;

before(async () => {
  t = await startTestServer([fixture('zoo.ttl')]);
  c = await connect(t);
});
after(async () => {
  await c.close();
  await t.stop();
});

const axiomCount = async () => (await call(c, 'get_active_ontology')).body.axioms as number;
const undoDepth = async () => (await call(c, 'undo_change', { peek: true })).body.undo_depth as number;

type Row = Record<string, unknown>;

test('preview_changes plans each row in order and applies nothing', async () => {
  const count = await axiomCount();
  const depth = await undoDepth();
  const result = await call(c, 'preview_changes', {
    operations: [
      { axiom_type: 'subclass_of', sub: 'Dog', super: 'mammal' },
      { op: 'add', axiom_type: 'subclass_of', sub: 'mammal', super: 'animal' },
      { op: 'remove', axiom_type: 'subclass_of', sub: 'bird', super: 'animal' },
      { op: 'remove', axiom_type: 'subclass_of', sub: 'bird', super: 'animal' },
      { op: 'remove', axiom_type: 'class_assertion', class: 'bird', individual: 'tweety' },
      { axiom_type: 'disjoint_classes', classes: ['bird'] },
      { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal and (eats some' },
    ],
  });
  assert.equal(result.isError, false, JSON.stringify(result.body));
  const rows = result.body.operations as Row[];
  assert.deepEqual(rows[0], {
    index: 0,
    op: 'add',
    axiom: 'Dog SubClassOf mammal',
    already_present: false,
    new_entities: [{ iri: ZOO + 'Dog', display: 'Dog', type: 'Class' }],
    effect: 'would add',
  });
  assert.deepEqual(rows[1], {
    index: 1,
    op: 'add',
    axiom: 'mammal SubClassOf animal',
    already_present: true,
    new_entities: [],
    effect: 'no-op (already present)',
  });
  assert.deepEqual(rows[2], { index: 2, op: 'remove', axiom: 'bird SubClassOf animal', present: true, effect: 'would remove' });
  assert.equal(at(rows, 3).effect, 'no-op (not present)', 'the earlier row already removed it');
  assert.equal(at(rows, 4).present, false);
  assert.match(at(rows, 5).error as string, /at least 2 members/);
  assert.equal(at(rows, 5).axiom, undefined);
  assert.match(at(rows, 6).error as string, /super/);
  assert.deepEqual(result.body.summary, { operations: 7, adds: 1, removes: 1, no_ops: 3, errors: 2, new_entities: 1 });
  assert.match(result.body.note as string, /nothing was applied/);
  assert.equal(await axiomCount(), count);
  assert.equal(await undoDepth(), depth);
  assert.equal((await call(c, 'get_entity', { entity: 'Dog' })).isError, true);
});

test('apply_changes applies the good rows of a batch as one undo unit and reports the bad ones', async () => {
  const count = await axiomCount();
  const depth = await undoDepth();
  const result = await call(c, 'apply_changes', {
    operations: [
      { axiom_type: 'subclass_of', sub: 'Dog', super: 'mammal' },
      { axiom_type: 'class_assertion', class: 'Dog', individual: 'rex' },
      { op: 'remove', axiom_type: 'subclass_of', sub: 'bird', super: 'animal' },
      { op: 'remove', axiom_type: 'subclass_of', sub: 'Dog', super: 'bird' },
      { axiom_type: 'subclass_of', sub: 'mammal', super: 'animal' },
      { axiom_type: 'subclass_of', sub: 'Dog' },
    ],
  });
  assert.equal(result.isError, false, JSON.stringify(result.body));
  const rows = result.body.operations as Row[];
  assert.deepEqual(rows[0], {
    index: 0,
    op: 'add',
    axiom: 'Dog SubClassOf mammal',
    applied: true,
    new_entities: [{ iri: ZOO + 'Dog', display: 'Dog', type: 'Class' }],
  });
  assert.deepEqual(
    (at(rows, 1).new_entities as { iri: string }[]).map((e) => e.iri),
    [ZOO + 'Dog', ZOO + 'rex'],
    'nothing exists until the batch commits',
  );
  assert.deepEqual(rows[2], { index: 2, op: 'remove', axiom: 'bird SubClassOf animal', removed: true });
  assert.deepEqual(rows[3], { index: 3, op: 'remove', axiom: 'Dog SubClassOf bird', removed: false, note: 'not present' });
  assert.deepEqual(rows[4], {
    index: 4,
    op: 'add',
    axiom: 'mammal SubClassOf animal',
    applied: false,
    note: 'already present',
    new_entities: [],
  });
  assert.match(at(rows, 5).error as string, /Missing required operand 'super'/);
  assert.deepEqual(result.body.summary, { operations: 6, added: 2, removed: 1, no_ops: 2, errors: 1, single_undo: true, new_entities: 2 });
  // two axioms and two declarations added, one axiom removed
  assert.equal(await axiomCount(), count + 3);
  assert.equal(await undoDepth(), depth + 1);
  const undone = (await call(c, 'undo_change')).body;
  assert.equal(undone.net_axiom_change, -3, 'one undo reverts the whole batch');
  assert.equal(await axiomCount(), count);
});

test('apply_changes strict=true skips adds that would mint, and a net-zero batch lands nothing', async () => {
  const count = await axiomCount();
  const depth = await undoDepth();
  const strict = await call(c, 'apply_changes', {
    strict: true,
    operations: [
      { axiom_type: 'subclass_of', sub: 'Cat', super: 'mammal' },
      { axiom_type: 'disjoint_classes', classes: ['mammal', 'bird'] },
    ],
  });
  const rows = strict.body.operations as Row[];
  assert.match(at(rows, 0).error as string, /strict mode refuses to mint/);
  assert.equal(at(rows, 1).applied, true);
  assert.equal(await axiomCount(), count + 1);
  await call(c, 'undo_change');

  const netZero = await call(c, 'apply_changes', {
    operations: [
      { axiom_type: 'subclass_of', sub: 'bird', super: 'mammal' },
      { op: 'remove', axiom_type: 'subclass_of', sub: 'bird', super: 'mammal' },
    ],
  });
  assert.equal(at(netZero.body.operations as Row[], 1).removed, true);
  assert.equal((netZero.body.summary as Row).single_undo, false);
  assert.equal(await axiomCount(), count);
  assert.equal(await undoDepth(), depth, 'no undo unit for a batch that changed nothing');
});

// set_reasoner cannot deselect, so "no policy and no reasoner" cannot arise: auto judges the batch from the start.
test('apply_changes verify=rollback without a policy is judged by the default auto reasoner before any change', async () => {
  const count = await axiomCount();
  const depth = await undoDepth();
  const r = await call(c, 'apply_changes', {
    verify: 'rollback',
    operations: [
      { axiom_type: 'disjoint_classes', classes: ['bird', 'mammal'] },
      { axiom_type: 'subclass_of', sub: 'bird', super: 'mammal' },
    ],
  });
  assert.equal(r.isError, false, JSON.stringify(r.body));
  const verify = r.body.verify as Row;
  assert.equal(verify.prevented_before_apply, true);
  assert.equal(verify.applied, false);
  assert.deepEqual(verify.newly_unsatisfiable, [`${ZOO}Bird`]);
  assert.equal(await axiomCount(), count);
  assert.equal(await undoDepth(), depth);
});

test('invalid batch arguments are rejected before the handler runs', async () => {
  const count = await axiomCount();
  const op = { axiom_type: 'subclass_of', sub: 'bird', super: 'mammal' };
  const cases: [string, Record<string, unknown>][] = [
    ['apply_changes', {}],
    ['apply_changes', { operations: [] }],
    ['apply_changes', { operations: [{ ...op, op: 'delete' }] }],
    ['apply_changes', { operations: [op], bogus: true }],
    ['apply_changes', { operations: [op], timeout_ms: 0 }],
    ['apply_changes', { operations: [op], verify: 'sometimes' }],
    ['apply_changes', { operations: ['subclass_of'] }],
    ['apply_changes', { operations: Array.from({ length: 2001 }, () => op) }],
    ['preview_changes', { operations: [op], strict: true }],
    ['preview_changes', { operations: [{ sub: 'bird' }] }],
  ];
  for (const [name, args] of cases) {
    const r = await call(c, name, args);
    assert.equal(r.body.error_code, 'invalid_argument', `${name} ${JSON.stringify(args).slice(0, 80)}`);
  }
  assert.equal(await axiomCount(), count);
});

test('preview_changes needs only ontology:read and runs in read-only mode; apply_changes needs curate and is refused there', async () => {
  const op = { axiom_type: 'declaration', entity: 'http://example.org/x#A', entity_type: 'class' };
  const o = new Ontology();
  o.id = { iri: 'http://example.org/x', versionIri: null };
  const reader = toolContext([o], principalWith(['ontology:read']));
  const preview = await runInContext('preview_changes', { operations: [op] }, reader);
  assert.equal(preview.isError, false);
  assert.equal((preview.body.summary as Row).adds, 1);
  const denied = await runInContext('apply_changes', { operations: [op] }, reader);
  assert.equal(denied.body.error_code, 'authorization_denied');
  assert.deepEqual(denied.body.missing_capabilities, ['ontology:curate']);
  const readOnly = toolContext([o], undefined, { read_only: true });
  assert.equal((await runInContext('preview_changes', { operations: [op] }, readOnly)).isError, false);
  assert.equal((await runInContext('apply_changes', { operations: [op] }, readOnly)).body.error_code, 'read_only');
  assert.equal(o.axiomCount, 0);
});
