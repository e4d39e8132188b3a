// The entity authoring tools through the real server (fixture zoo.ttl): create_class, create_entity,
// add_subclass_of, add_annotation and set_label — minting, strict, declarations, one undo entry per call,
// argument validation, capabilities and read-only mode.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestServer, fixture, connect, call, callOk, principalWith, type TestServer } from '../server/support.js';
import { toolContext, runInContext } from '../support/tool-context.js';
import { Ontology } from '../../src/model/ontology.js';

const ZOO = 'http://example.org/zoo#';
type Row = Record<string, unknown>;

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

const ok = (name: string, args: Row = {}): Promise<Row> => callOk(c, name, args);
const axiomCount = async () => (await ok('get_active_ontology')).axioms as number;
/** Renderings of the asserted axioms about an entity. */
const axiomsOf = async (entity: string) =>
  (((await ok('get_axioms_for_entity', { entity, limit: 1000 })).axioms as Row).items as Row[]).map((r) => r.rendering);
const exists = async (entity: string) => !(await call(c, 'get_entity', { entity })).isError;

test('create_class mints in the ontology namespace with label and parent, as one undo entry', async () => {
  const base = await axiomCount();
  const made = await ok('create_class', { name: 'Horse', parent: 'Animal and (eats some Grass)' });
  assert.deepEqual(made.created, { iri: ZOO + 'Horse', display: 'Horse', type: 'Class' });
  assert.equal(made.parent, 'Animal and (eats some Grass)');
  assert.equal(made.present, true);
  assert.deepEqual(
    (made.new_entities as Row[]).map((e) => e.iri),
    [ZOO + 'Horse', ZOO + 'Grass'],
  );
  assert.deepEqual(await axiomsOf(ZOO + 'Horse'), [
    'Class: Horse',
    'Horse SubClassOf animal and eats some Grass',
    'Horse rdfs:label "Horse"',
  ]);
  assert.ok(await exists(ZOO + 'Grass'), 'the minted filler class is declared');
  assert.equal(await axiomCount(), base + 4);

  const again = await ok('create_class', { name: 'Horse', parent: 'Animal and (eats some Grass)' });
  assert.match(again.note as string, /already existed/);
  assert.equal(again.new_entities, undefined);
  assert.equal(await axiomCount(), base + 4);

  const undone = await ok('undo_change');
  assert.equal(undone.net_axiom_change, -4, 'the whole call was one undo entry');
  assert.equal(await exists(ZOO + 'Horse'), false);
  assert.equal(await exists(ZOO + 'Grass'), false);
  await ok('redo_change');
  assert.ok(await exists('Horse'));
});

test('create_class honours iri, namespace, label, label_lang and no_label', async () => {
  const byIri = await ok('create_class', { iri: 'http://other.org/onto#Zebra', label: 'zebra', label_lang: 'EN' });
  assert.deepEqual(byIri.created, { iri: 'http://other.org/onto#Zebra', display: 'zebra', type: 'Class' });
  assert.deepEqual(await axiomsOf('http://other.org/onto#Zebra'), ['Class: zebra', 'zebra rdfs:label "zebra"@en']);
  const byCurie = await ok('create_class', { iri: 'owl:Thing' });
  assert.equal((byCurie.created as Row).iri, 'http://www.w3.org/2002/07/owl#Thing');
  const inNamespace = await ok('create_class', { name: 'Okapi', namespace: 'http://other.org/onto#', no_label: true });
  assert.equal((inNamespace.created as Row).iri, 'http://other.org/onto#Okapi');
  assert.deepEqual(await axiomsOf('http://other.org/onto#Okapi'), ['Class: Okapi']);
});

test('create_class refuses bad identities and a bad parent without changing anything', async () => {
  const base = await axiomCount();
  const cases: [Row, RegExp | null][] = [
    [{}, null],
    [{ label: 'only a label' }, null],
    [{ name: 'big cat' }, /name/],
    [{ iri: 'not an iri' }, /absolute IRI/],
    [{ name: 'Lion', namespace: 'nowhere' }, /namespace/],
    [{ name: 'Lion', label_lang: 'not a tag' }, null],
    [{ name: 'Lion', parent: 'Animal and (' }, /parent/],
    [{ name: 'Lion', colour: 'gold' }, null],
  ];
  for (const [args, message] of cases) {
    const r = await call(c, 'create_class', args);
    assert.equal(r.isError, true, JSON.stringify(args));
    assert.equal(r.body.error_code, 'invalid_argument', JSON.stringify(args));
    if (message !== null) assert.match(r.body.error as string, message);
  }
  assert.equal(await exists(ZOO + 'Lion'), false);
  assert.equal(await axiomCount(), base);
});

test('create_entity creates each entity type', async () => {
  const made = await ok('create_entity', { entity_type: 'object_property', name: 'hunts' });
  assert.deepEqual(made.created, { iri: ZOO + 'hunts', display: 'hunts', type: 'ObjectProperty' });
  assert.deepEqual(
    (made.new_entities as Row[]).map((e) => e.type),
    ['ObjectProperty'],
  );
  const types: [string, string][] = [
    ['class', 'Class'],
    ['data_property', 'DataProperty'],
    ['annotation_property', 'AnnotationProperty'],
    ['individual', 'NamedIndividual'],
    ['datatype', 'Datatype'],
  ];
  for (const [input, type] of types) {
    const r = await ok('create_entity', { entity_type: input, iri: `http://other.org/kinds#${input}`, no_label: true });
    assert.equal((r.created as Row).type, type);
    assert.deepEqual(await axiomsOf(`http://other.org/kinds#${input}`), [`${type === 'NamedIndividual' ? 'Individual' : type}: ${input}`]);
  }
  assert.equal((await call(c, 'create_entity', { entity_type: 'thing', name: 'x' })).body.error_code, 'invalid_argument');
  assert.equal((await call(c, 'create_entity', { name: 'x' })).body.error_code, 'invalid_argument');
});

test('add_subclass_of adds once, declares what it mints, and strict refuses to mint', async () => {
  const base = await axiomCount();
  const added = await ok('add_subclass_of', { child: 'Eagle', parent: 'bird' });
  assert.equal(added.applied, true);
  assert.equal(added.axiom, 'Eagle SubClassOf bird');
  assert.deepEqual(added.new_entities, [{ iri: ZOO + 'Eagle', display: 'Eagle', type: 'Class' }]);
  assert.equal(await axiomCount(), base + 2);
  const again = await ok('add_subclass_of', { child: 'Eagle', parent: 'bird' });
  assert.equal(again.applied, true, 'applied: the axiom is now present');
  assert.match(again.note as string, /already present/);
  const expression = await ok('add_subclass_of', { child: 'Eagle', parent: 'eats some Animal', strict: true });
  assert.equal(expression.axiom, 'Eagle SubClassOf eats some animal');
  assert.equal(expression.new_entities, undefined);

  const refused = await call(c, 'add_subclass_of', { child: 'Owl', parent: 'bird', strict: true });
  assert.equal(refused.body.error_code, 'invalid_argument');
  assert.equal(refused.body.operand, 'child');
  assert.match(refused.body.error as string, /'child'.*strict/);
  const badParent = await call(c, 'add_subclass_of', { child: 'Eagle', parent: 'Hawk', strict: true });
  assert.equal(badParent.body.operand, 'parent');
  assert.equal(await axiomCount(), base + 3);

  assert.equal((await ok('undo_change')).net_axiom_change, -1);
  assert.equal((await ok('undo_change')).net_axiom_change, -2);
  assert.equal(await exists(ZOO + 'Eagle'), false);
  for (const args of [{ child: 'Eagle' }, { child: 'Eagle', parent: 'bird', strict: 'no' }, { child: '', parent: 'bird' }]) {
    assert.equal((await call(c, 'add_subclass_of', args)).body.error_code, 'invalid_argument', JSON.stringify(args));
  }
});

test('add_annotation annotates entities and absolute IRIs with literals, IRIs and axiom annotations', async () => {
  const base = await axiomCount();
  const comment = await ok('add_annotation', { entity: 'mammal', property: 'rdfs:comment', value: 'Hairy.', lang: 'en' });
  assert.equal(comment.applied, true);
  assert.equal(comment.axiom, 'mammal rdfs:comment "Hairy."@en');
  assert.equal(comment.new_entities, undefined);
  const typed = await ok('add_annotation', { entity: 'Bird', property: 'legs', value: '2', datatype: 'xsd:integer' });
  assert.equal(typed.axiom, 'bird legs 2');
  assert.deepEqual(typed.new_entities, [{ iri: ZOO + 'legs', display: 'legs', type: 'AnnotationProperty' }]);
  assert.ok((await axiomsOf(ZOO + 'legs')).includes('AnnotationProperty: legs'), 'the new annotation property is declared');
  const link = await ok('add_annotation', { entity: 'http://example.org/elsewhere/page', property: 'rdfs:seeAlso', value_iri: 'Mammal' });
  assert.equal(link.axiom, 'page rdfs:seeAlso mammal');
  assert.equal(link.applied, true);
  const annotated = await ok('add_annotation', {
    entity: 'eats',
    value: 'frisst',
    lang: 'de',
    annotations: [{ property: 'rdfs:comment', value: 'German label' }],
  });
  assert.match(annotated.axiom as string, /Annotations: rdfs:comment "German label"/);
  const already = await ok('add_annotation', { entity: 'mammal', property: 'rdfs:comment', value: 'Hairy.', lang: 'en' });
  assert.equal(already.applied, true, 'applied: the axiom is now present');
  assert.match(already.note as string, /already present/);
  assert.equal(await axiomCount(), base + 5);

  const unknown = await call(c, 'add_annotation', { entity: 'Unicorn', value: 'x' });
  assert.equal(unknown.body.error_code, 'not_found');
  const strict = await call(c, 'add_annotation', { entity: 'mammal', property: 'synonym', value: 'x', strict: true });
  assert.equal(strict.body.error_code, 'invalid_argument');
  assert.equal(strict.body.operand, 'property');
  for (const args of [
    { entity: 'mammal' },
    { entity: 'mammal', value: 'x', lang: 'e n' },
    { entity: 'mammal', value: 'x', annotations: [{ valu: 'y' }] },
  ]) {
    assert.equal((await call(c, 'add_annotation', args)).body.error_code, 'invalid_argument', JSON.stringify(args));
  }
  assert.equal(await axiomCount(), base + 5);
  assert.equal((await ok('undo_change')).net_axiom_change, -1, 'an annotated assertion is one undo entry');
});

test('set_label replaces the labels of one language and is undone in one step', async () => {
  await ok('add_annotation', { entity: 'Bird', value: 'birdie', lang: 'en' });
  await ok('add_annotation', { entity: 'Bird', value: 'Vogel', lang: 'de' });
  await ok('add_annotation', { entity: 'Bird', value: 'untagged bird' });
  const labels = async () =>
    (await axiomsOf(ZOO + 'Bird'))
      .filter((r) => (r as string).includes('rdfs:label'))
      .map((r) => (r as string).replace(/^\S+ rdfs:label /, ''))
      .sort();
  const set = await ok('set_label', { entity: ZOO + 'Bird', value: 'Bird', lang: 'EN' });
  assert.deepEqual(set, { entity: ZOO + 'Bird', label: 'Bird', lang: 'en', removed_previous: 2 });
  assert.deepEqual(await labels(), ['"Bird"@en', '"Vogel"@de', '"untagged bird"']);
  const plain = await ok('set_label', { entity: ZOO + 'Bird', value: 'a bird' });
  assert.deepEqual(plain, { entity: ZOO + 'Bird', label: 'a bird', removed_previous: 1 });
  const same = await ok('set_label', { entity: ZOO + 'Bird', value: 'a bird' });
  assert.equal(same.removed_previous, 0);
  assert.equal((await ok('undo_change')).net_axiom_change, 0, 'the untagged swap: one removal and one addition');
  assert.deepEqual(await labels(), ['"Bird"@en', '"Vogel"@de', '"untagged bird"']);
  await ok('undo_change');
  assert.deepEqual(await labels(), ['"Vogel"@de', '"bird"@en', '"birdie"@en', '"untagged bird"']);

  assert.equal((await call(c, 'set_label', { entity: 'Unicorn', value: 'x' })).body.error_code, 'not_found');
  for (const args of [{ entity: 'Bird' }, { entity: 'Bird', value: '' }, { entity: 'Bird', value: 'x', lang: '' }]) {
    assert.equal((await call(c, 'set_label', args)).body.error_code, 'invalid_argument', JSON.stringify(args));
  }
});

test('the authoring tools need ontology:curate and are refused in read-only mode', async () => {
  const calls: [string, Row][] = [
    ['create_class', { name: 'A' }],
    ['create_entity', { entity_type: 'individual', name: 'a' }],
    ['add_subclass_of', { child: 'A', parent: 'B' }],
    ['add_annotation', { entity: 'http://example.org/x#A', value: 'x' }],
    ['set_label', { entity: 'http://example.org/x#A', value: 'x' }],
  ];
  const o = new Ontology();
  o.id = { iri: 'http://example.org/x', versionIri: null };
  const reader = toolContext([o], principalWith(['ontology:read']));
  const readOnly = toolContext([o], undefined, { read_only: true });
  for (const [name, args] of calls) {
    const denied = await runInContext(name, args, reader);
    assert.equal(denied.body.error_code, 'authorization_denied', name);
    assert.deepEqual(denied.body.missing_capabilities, ['ontology:curate'], name);
    assert.equal((await runInContext(name, args, readOnly)).body.error_code, 'read_only', name);
  }
  assert.equal(o.axiomCount, 0);
  const curator = toolContext([o], principalWith(['ontology:curate']));
  for (const [name, args] of calls) assert.equal((await runInContext(name, args, curator)).isError, false, name);
  assert.ok(o.axiomCount > 0);
});
