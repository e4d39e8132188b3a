// The refactoring tools through the real server: rename_entity, delete_entity, deprecate_entity and
// move_class on a shop ontology that imports a base ontology (both written to a temporary directory). Each
// test starts from and returns to the loaded state (checked with the semantic fingerprint), so one undo
// entry per call and an exact undo are checked everywhere.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestServer, connect, call, callOk, principalWith, type TestServer } from '../server/support.js';
import { toolContext, runInContext } from '../support/tool-context.js';
import { readFunctional } from '../../src/model/formats/functional/reader.js';

const SHOP = 'http://example.org/shop#';
const BASE = 'http://example.org/base#';
const OBO = 'http://purl.obolibrary.org/obo/';
type Row = Record<string, unknown>;

const PREFIXES = `Prefix(:=<${SHOP}>)
Prefix(base:=<${BASE}>)
Prefix(owl:=<http://www.w3.org/2002/07/owl#>)
Prefix(rdfs:=<http://www.w3.org/2000/01/rdf-schema#>)
Prefix(xsd:=<http://www.w3.org/2001/XMLSchema#>)
`;

const SHOP_DOC = `${PREFIXES}
Ontology(<http://example.org/shop>
Import(<http://example.org/base>)
Annotation(rdfs:seeAlso :Widget)
Declaration(Class(:Product))
Declaration(Class(:Widget))
Declaration(NamedIndividual(:Widget))
Declaration(Class(:Gadget))
Declaration(Class(:Gizmo))
Declaration(Class(:Part))
Declaration(Class(:Legacy))
Declaration(Class(:DupA))
Declaration(Class(:DupB))
Declaration(ObjectProperty(:hasPart))
Declaration(NamedIndividual(:w1))
Declaration(AnnotationProperty(:reviewer))
AnnotationAssertion(rdfs:label :Widget "widget"@en)
AnnotationAssertion(rdfs:label :DupA "dup")
AnnotationAssertion(rdfs:label :DupB "dup")
SubClassOf(:Widget :Product)
SubClassOf(:Widget ObjectSomeValuesFrom(:hasPart :Part))
SubClassOf(:Gadget :Product)
SubClassOf(:Gizmo :Gadget)
SubClassOf(:Legacy :Product)
ClassAssertion(:Widget :w1)
ClassAssertion(:Product :Widget)
AnnotationAssertion(Annotation(:reviewer :Widget) rdfs:comment :Gadget "like a widget")
AnnotationAssertion(rdfs:seeAlso :Gadget :Widget)
DLSafeRule(Body(ClassAtom(:Widget Variable(:x))) Head(ClassAtom(:Product Variable(:x))))
)
`;

const BASE_DOC = `${PREFIXES}
Ontology(<http://example.org/base>
Declaration(Class(base:Item))
Declaration(Class(base:OnlyThere))
SubClassOf(:Widget base:Item)
)
`;

let t: TestServer;
let c: Client;
let dir: string;
let baseline: string;

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'athene-refactor-'));
  await writeFile(path.join(dir, 'shop.ofn'), SHOP_DOC);
  await writeFile(path.join(dir, 'base.ofn'), BASE_DOC);
  t = await startTestServer([path.join(dir, 'shop.ofn')]);
  c = await connect(t);
  await callOk(c, 'load_ontology', { source: path.join(dir, 'base.ofn'), keep_active: true });
  baseline = await fingerprint();
});
after(async () => {
  await c.close();
  await t.stop();
  await rm(dir, { recursive: true, force: true });
});

const ok = (name: string, args: Row = {}): Promise<Row> => callOk(c, name, args);
async function fingerprint(): Promise<string> {
  return (await ok('get_model_revision')).semantic_fingerprint as string;
}
const undoDepth = async () => (await ok('undo_change', { peek: true })).undo_depth as number;
/** Renderings of the asserted axioms about an entity in the active ontology (or with its imports). */
async function axiomsOf(entity: string, include_imports = false): Promise<string[]> {
  const r = await ok('get_axioms_for_entity', { entity, include_imports, limit: 1000 });
  return ((r.axioms as Row).items as Row[]).map((x) => x.rendering as string);
}
/** The active ontology as the functional-syntax document a save writes. */
async function savedText(name: string): Promise<string> {
  const file = path.join(dir, name);
  await ok('save_ontology', { path: file });
  return readFile(file, 'utf8');
}
/** Undoes `n` units and checks the ontology is exactly as loaded. */
async function undoBack(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await ok('undo_change');
  assert.equal(await fingerprint(), baseline, 'undo restored the loaded content exactly');
}
async function refused(name: string, args: Row, code: string, message?: RegExp): Promise<Row> {
  const depth = await undoDepth();
  const r = await call(c, name, args);
  assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} should fail`);
  assert.equal(r.body.error_code, code, `${name} ${JSON.stringify(args)}: ${JSON.stringify(r.body)}`);
  if (message !== undefined) assert.match(r.body.error as string, message);
  assert.equal(await fingerprint(), baseline, 'a refused call changes nothing');
  assert.equal(await undoDepth(), depth, 'a refused call logs no undo entry');
  return r.body;
}

test('rename_entity preview reports the rewrite and changes nothing', async () => {
  const depth = await undoDepth();
  const p = await ok('rename_entity', { entity: 'widget', new_iri: SHOP + 'Thingamajig', preview: true });
  assert.equal(p.preview, true);
  assert.equal(p.old_iri, SHOP + 'Widget');
  assert.equal(p.new_iri, SHOP + 'Thingamajig');
  assert.equal(p.new_iri_already_in_signature, false);
  // 10 axioms mention the IRI (2 declarations, label, 2 SubClassOf, 2 ClassAssertion, 2 annotation
  // assertions, the rule): 10 removes and 10 adds, plus the header annotation removed and added
  assert.equal(p.changes, 22);
  const sample = p.rewritten_axioms_sample as Row[];
  assert.equal(sample.length, 10);
  const renderings = sample.map((r) => r.rendering as string);
  assert.deepEqual(renderings, [...renderings].sort(), 'ordered by rendering');
  assert.ok(
    renderings.every((r) => !r.includes('Widget')),
    renderings.join('\n'),
  );
  assert.ok(sample.some((r) => r.axiom_type === 'DLSafeRule'));
  assert.match(p.note as string, /Nothing was changed/);
  assert.equal(await fingerprint(), baseline);
  assert.equal(await undoDepth(), depth);
});

test('rename_entity rewrites every use in the active ontology as one undo entry, imports untouched', async () => {
  const depth = await undoDepth();
  const r = await ok('rename_entity', { entity: ':Widget', new_iri: ':Thingamajig' });
  assert.deepEqual(r, { renamed: true, old_iri: SHOP + 'Widget', new_iri: SHOP + 'Thingamajig', changes: 22 });
  assert.equal(await undoDepth(), depth + 1, 'one undo entry');
  const text = await savedText('renamed.ofn');
  assert.equal(/Widget/.test(text), false, 'no use of the old IRI is left in the active ontology');
  for (const use of [
    'Declaration(Class(:Thingamajig))',
    'Declaration(NamedIndividual(:Thingamajig))',
    'ClassAssertion(:Product :Thingamajig)',
    'Annotation(:reviewer :Thingamajig)',
    'ClassAtom(:Thingamajig Variable(:x))',
    'Annotation(rdfs:seeAlso :Thingamajig)',
    'AnnotationAssertion(rdfs:seeAlso :Gadget :Thingamajig)',
    'AnnotationAssertion(rdfs:label :Thingamajig "widget"@en)',
  ]) {
    assert.ok(text.includes(use), `${use} in\n${text}`);
  }
  assert.deepEqual(await axiomsOf(SHOP + 'Widget', true), ['Widget SubClassOf base:Item'], 'the import still says what it said');
  await undoBack(1);
  await ok('redo_change');
  assert.notEqual(await fingerprint(), baseline);
  await undoBack(1);
});

test('rename_entity onto an existing IRI merges the two entities', async () => {
  const p = await ok('rename_entity', { entity: 'Gizmo', new_iri: SHOP + 'Gadget', preview: true });
  assert.equal(p.new_iri_already_in_signature, true);
  assert.match(p.note as string, /merge/);
  const r = await ok('rename_entity', { entity: 'Gizmo', new_iri: '<' + SHOP + 'Gadget>' });
  assert.equal(r.renamed, true);
  assert.match(r.note as string, /merged/);
  // Declaration(Class(:Gizmo)) becomes the existing Declaration(Class(:Gadget)): nothing to add
  assert.equal(r.changes, 3);
  assert.ok((await axiomsOf('Gadget')).includes('Gadget SubClassOf Gadget'));
  assert.equal((await call(c, 'get_entity', { entity: SHOP + 'Gizmo' })).isError, true);
  await undoBack(1);
});

test('rename_entity refuses bad requests without changing anything', async () => {
  await refused('rename_entity', { entity: 'NoSuchThing', new_iri: SHOP + 'X' }, 'not_found');
  await refused('rename_entity', { entity: 'nope:Widget', new_iri: SHOP + 'X' }, 'not_found');
  await refused('rename_entity', { entity: 'dup', new_iri: SHOP + 'X' }, 'ambiguous_reference');
  await refused('rename_entity', { entity: 'Widget', new_iri: 'Thingamajig' }, 'invalid_argument', /absolute IRI/);
  await refused('rename_entity', { entity: 'Widget', new_iri: 'nope:Thingamajig' }, 'invalid_argument', /absolute IRI/);
  await refused('rename_entity', { entity: 'Widget', new_iri: 'http://example.org/a b' }, 'invalid_argument', /absolute IRI/);
  await refused('rename_entity', { entity: 'Widget', new_iri: SHOP + 'Widget' }, 'invalid_argument', /already the IRI/);
  await refused('rename_entity', { entity: 'base:OnlyThere', new_iri: SHOP + 'X' }, 'not_referenced', /import/);
  await refused('rename_entity', { entity: 'owl:Thing', new_iri: SHOP + 'X' }, 'invalid_argument', /OWL 2 vocabulary/);
  await refused('rename_entity', { entity: 'Widget' }, 'invalid_argument');
  await refused('rename_entity', { entity: 'Widget', new_iri: SHOP + 'X', preview: 'yes' }, 'invalid_argument');
  await refused('rename_entity', { entity: 'Widget', new_iri: SHOP + 'X', force: true }, 'invalid_argument');
});

test('delete_entity preview lists every sense and axiom that would go, and changes nothing', async () => {
  const p = await ok('delete_entity', { entity: 'widget', preview: true });
  assert.deepEqual(p.would_delete, [
    { iri: SHOP + 'Widget', display: 'widget', type: 'Class' },
    { iri: SHOP + 'Widget', display: 'widget', type: 'NamedIndividual' },
  ]);
  // both declarations, 2 SubClassOf, 2 ClassAssertion, the rule and the label (its own annotation)
  assert.equal(p.removed_axioms, 8);
  const sample = p.removed_axioms_sample as Row[];
  assert.equal(sample.length, 8);
  assert.deepEqual(
    sample.map((r) => r.rendering),
    [...sample.map((r) => r.rendering as string)].sort(),
  );
  assert.match(p.note as string, /Nothing was changed/);
  assert.match(p.note as string, /2 remaining axiom\(s\) still use/);
  assert.equal(await fingerprint(), baseline);
});

test('delete_entity removes the entity and what references it as one undo entry; entity_type narrows a pun', async () => {
  const depth = await undoDepth();
  const individual = await ok('delete_entity', { entity: 'widget', entity_type: 'individual' });
  assert.deepEqual(individual.deleted, [{ iri: SHOP + 'Widget', display: 'widget', type: 'NamedIndividual' }]);
  assert.equal(individual.removed_axioms, 2, 'its declaration and its class assertion; the shared label stays');
  assert.equal(individual.note, undefined);
  assert.equal(await undoDepth(), depth + 1);
  const entity = await ok('get_entity', { entity: SHOP + 'Widget' });
  assert.deepEqual(
    (entity.matches as Row[]).map((m) => m.type),
    ['Class'],
    'the class sense stays, imports included',
  );

  const rest = await ok('delete_entity', { entity: SHOP + 'Widget' });
  assert.deepEqual(
    (rest.deleted as Row[]).map((d) => d.type),
    ['Class'],
  );
  assert.equal(rest.removed_axioms, 6);
  assert.match(rest.note as string, /2 remaining axiom\(s\)/);
  assert.deepEqual(await axiomsOf(SHOP + 'Widget', true), ['Widget SubClassOf base:Item'], 'the import keeps its axiom');
  const text = await savedText('deleted.ofn');
  assert.equal(/Declaration\([A-Za-z]+\(:Widget\)\)/.test(text), false);
  assert.equal(/rdfs:label :Widget/.test(text), false);
  await undoBack(2);
});

test('delete_entity refuses what it cannot delete', async () => {
  await refused('delete_entity', { entity: 'NoSuchThing' }, 'not_found');
  await refused('delete_entity', { entity: 'Gadget', entity_type: 'object_property' }, 'not_found', /is no object_property/);
  await refused('delete_entity', { entity: 'base:OnlyThere' }, 'not_referenced');
  await refused('delete_entity', { entity: 'rdfs:label' }, 'invalid_argument', /OWL 2 vocabulary/);
  await refused('delete_entity', { entity: 'dup' }, 'ambiguous_reference');
  await refused('delete_entity', { entity: 'Widget', entity_type: 'thing' }, 'invalid_argument');
});

test('deprecate_entity adds owl:deprecated, the replacement pointer and annotations once, as one undo entry', async () => {
  const depth = await undoDepth();
  const r = await ok('deprecate_entity', {
    entity: 'Legacy',
    replaced_by: 'Product',
    annotations: [
      { property: 'rdfs:comment', value: 'superseded', lang: 'en', annotations: [{ property: 'rdfs:comment', value: 'ticket 42' }] },
    ],
  });
  assert.deepEqual(r.deprecated, { iri: SHOP + 'Legacy', display: 'Legacy', type: 'Class' });
  assert.equal(r.replaced_by, SHOP + 'Product');
  // owl:deprecated, the pointer, the declaration of the IAO property it introduces, the comment
  assert.equal(r.applied, 4);
  assert.deepEqual(r.new_entities, [{ iri: OBO + 'IAO_0100001', display: 'IAO_0100001', type: 'AnnotationProperty' }]);
  assert.equal(await undoDepth(), depth + 1);
  const text = await savedText('deprecated.ofn');
  assert.ok(text.includes('AnnotationAssertion(owl:deprecated :Legacy "true"^^xsd:boolean)'), text);
  assert.ok(text.includes(`AnnotationAssertion(<${OBO}IAO_0100001> :Legacy :Product)`), text);
  assert.ok(text.includes(`Declaration(AnnotationProperty(<${OBO}IAO_0100001>))`), text);
  assert.ok(text.includes('AnnotationAssertion(Annotation(rdfs:comment "ticket 42") rdfs:comment :Legacy "superseded"@en)'), text);

  const again = await ok('deprecate_entity', {
    entity: 'Legacy',
    replaced_by: SHOP + 'Product',
    annotations: [{ property: 'rdfs:comment', value: 'superseded', lang: 'en' }],
  });
  assert.equal(again.applied, 0);
  assert.match(again.note as string, /already deprecated/);
  assert.equal(await undoDepth(), depth + 1, 'a no-op logs no undo entry');
  await undoBack(1);
});

test('deprecate_entity takes another replacement property, and counts an existing deprecation', async () => {
  const first = await ok('deprecate_entity', { entity: 'Gizmo' });
  assert.equal(first.applied, 1);
  assert.equal(first.replaced_by, undefined);
  const pointer = await ok('deprecate_entity', { entity: 'Gizmo', replaced_by: 'Gadget', replaced_by_property: 'rdfs:seeAlso' });
  assert.equal(pointer.applied, 1, 'deprecated already: only the pointer is added');
  assert.deepEqual(
    await axiomsOf('Gizmo'),
    ['Class: Gizmo', 'Gizmo SubClassOf Gadget', 'Gizmo owl:deprecated true', 'Gizmo rdfs:seeAlso Gadget'].sort(),
  );
  await undoBack(2);
});

test('deprecate_entity refuses what it cannot deprecate', async () => {
  await refused('deprecate_entity', { entity: 'NoSuchThing' }, 'not_found');
  await refused('deprecate_entity', { entity: 'Legacy', replaced_by: 'NoSuchThing' }, 'not_found', /replaced_by/);
  await refused('deprecate_entity', { entity: 'Legacy', replaced_by: 'Legacy' }, 'invalid_argument', /itself/);
  await refused(
    'deprecate_entity',
    { entity: 'Legacy', replaced_by_property: 'nope:x', replaced_by: 'Product' },
    'invalid_argument',
    /replaced_by_property/,
  );
  await refused(
    'deprecate_entity',
    { entity: 'Legacy', annotations: [{ property: 'rdfs:comment' }] },
    'invalid_argument',
    /annotations\[0\]/,
  );
  await refused('deprecate_entity', { entity: 'Legacy', annotations: [{ value: 'x', colour: 'red' }] }, 'invalid_argument');
  await refused('deprecate_entity', { entity: 'owl:Thing' }, 'invalid_argument');
});

test('move_class replaces named parents, keeps restrictions, and is one undo entry', async () => {
  const depth = await undoDepth();
  const moved = await ok('move_class', { entity: 'widget', new_parent: 'Gadget' });
  assert.deepEqual(moved.moved, { iri: SHOP + 'Widget', display: 'widget', type: 'Class' });
  assert.equal(moved.new_parent, 'Gadget');
  assert.deepEqual(moved.removed_parents, ['Product']);
  assert.equal(moved.applied, 2);
  assert.equal(await undoDepth(), depth + 1);
  const parents = (await axiomsOf('widget')).filter((x) => x.startsWith('widget SubClassOf'));
  assert.deepEqual(parents, ['widget SubClassOf Gadget', 'widget SubClassOf hasPart some Part']);

  const same = await ok('move_class', { entity: 'widget', new_parent: 'Gadget' });
  assert.equal(same.applied, 0);
  assert.deepEqual(same.removed_parents, []);
  assert.match(same.note as string, /nothing changed/);

  const added = await ok('move_class', { entity: 'widget', new_parent: 'Product and (hasPart some Part)', keep_other_parents: true });
  assert.equal(added.new_parent, 'Product and hasPart some Part');
  assert.equal(added.applied, 1);

  const root = await ok('move_class', { entity: 'widget' });
  assert.deepEqual(root.removed_parents, ['Gadget']);
  assert.equal(root.new_parent, undefined);
  const left = (await axiomsOf('widget')).filter((x) => x.startsWith('widget SubClassOf'));
  assert.deepEqual(
    left,
    ['widget SubClassOf Product and hasPart some Part', 'widget SubClassOf hasPart some Part'],
    'anonymous parents stay',
  );
  await undoBack(3);
});

test('move_class declares a new parent it introduces and reports it', async () => {
  const r = await ok('move_class', { entity: 'Legacy', new_parent: 'Archive' });
  assert.deepEqual(r.new_entities, [{ iri: SHOP + 'Archive', display: 'Archive', type: 'Class' }]);
  assert.equal(r.applied, 3, 'removed Legacy SubClassOf Product, declared Archive, added the new parent');
  await undoBack(1);
});

test('move_class refuses what it cannot move', async () => {
  await refused('move_class', { entity: 'Widget', keep_other_parents: true }, 'invalid_argument', /keep_other_parents/);
  await refused('move_class', { entity: 'NoSuchThing', new_parent: 'Product' }, 'not_found');
  await refused('move_class', { entity: 'w1', new_parent: 'Product' }, 'not_found', /not a class/);
  await refused('move_class', { entity: 'Gadget', new_parent: 'Gizmo' }, 'invalid_argument', /cycle/);
  await refused('move_class', { entity: 'Gadget', new_parent: 'Gadget' }, 'invalid_argument', /cycle/);
  await refused('move_class', { entity: 'Gadget', new_parent: 'Product and (' }, 'invalid_argument', /new_parent/);
  await refused('move_class', { entity: 'owl:Thing', new_parent: 'Product' }, 'invalid_argument');
});

test('read-only mode runs only the previews; ontology:read alone runs nothing', async () => {
  const o = () => readFunctional(SHOP_DOC);
  const writes: [string, Row][] = [
    ['rename_entity', { entity: 'Widget', new_iri: SHOP + 'X' }],
    ['delete_entity', { entity: 'Widget' }],
    ['deprecate_entity', { entity: 'Legacy' }],
    ['move_class', { entity: 'Widget', new_parent: 'Gadget' }],
  ];
  const previews: [string, Row][] = [
    ['rename_entity', { entity: 'Widget', new_iri: SHOP + 'X', preview: true }],
    ['delete_entity', { entity: 'Widget', preview: true }],
  ];
  const readOnly = toolContext([o()], undefined, { read_only: true });
  for (const [name, args] of writes) assert.equal((await runInContext(name, args, readOnly)).body.error_code, 'read_only', name);
  for (const [name, args] of previews) assert.equal((await runInContext(name, args, readOnly)).isError, false, name);
  assert.equal(readOnly.workspace.undoDepth, 0);
  const reader = toolContext([o()], principalWith(['ontology:read']));
  for (const [name, args] of [...writes, ...previews]) {
    assert.equal((await runInContext(name, args, reader)).body.error_code, 'authorization_denied', name);
  }
  for (const [name, args] of writes) {
    const curator = toolContext([o()], principalWith(['ontology:curate']));
    assert.equal((await runInContext(name, args, curator)).isError, false, name);
    assert.equal(curator.workspace.undoDepth, 1, name);
  }
});
