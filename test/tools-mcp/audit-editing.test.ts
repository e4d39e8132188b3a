// TOOLS.md conformance of the editing, header, history and document tools through the real server: every
// axiom_type of §2 through add_axiom/remove_axiom, the builder rules, and the result fields and error
// conditions of §3.4–3.6 and §3.10 that the per-tool test files do not already cover.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AXIOM_TYPES } from '../../src/model/operands/schema.js';
import { Ontology } from '../../src/model/ontology.js';
import {
  call,
  callOk,
  serveTempOntology,
  startOrigin,
  axiomCount,
  type Row,
  type ServedTempOntology,
  type TestOrigin,
} from '../server/support.js';
import { toolContext, runInContext } from '../support/tool-context.js';
import { at } from '../support/at.js';

const ZOO = 'http://example.org/zoo';
const Z = ZOO + '#';
const PREFIXES =
  '@prefix : <http://example.org/zoo#> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n' +
  '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n';

/** Every kind of entity the operand sets below name, declared, so no operand mints. */
const ZOO_TTL =
  PREFIXES +
  `<${ZOO}> a owl:Ontology .
:Animal a owl:Class . :Mammal a owl:Class . :Bird a owl:Class . :Cat a owl:Class . :Dog a owl:Class .
:eats a owl:ObjectProperty . :hasParent a owl:ObjectProperty . :hasChild a owl:ObjectProperty .
:hasGrandparent a owl:ObjectProperty . :likes a owl:ObjectProperty .
:age a owl:DatatypeProperty . :name a owl:DatatypeProperty . :weight a owl:DatatypeProperty .
:note a owl:AnnotationProperty . :remark a owl:AnnotationProperty .
:rex a owl:NamedIndividual . :tom a owl:NamedIndividual . :tweety a owl:NamedIndividual .
:Age a rdfs:Datatype .
`;

let served: ServedTempOntology;
let c: Client;
let scratch: string;
let web: TestOrigin;

before(async () => {
  // /silent.ttl accepts the request and never answers, for connection_timeout_ms
  web = await startOrigin({}, ['/silent.ttl']);
  served = await serveTempOntology('athene-audit-editing-', 'zoo.ttl', ZOO_TTL);
  ({ dir: scratch, c } = served);
});
after(async () => {
  await served.close();
  await web.close();
});

const active = async () => callOk(c, 'get_active_ontology');
const peek = async () => callOk(c, 'undo_change', { peek: true });

// ---------------------------------------------------------------- undo_change / redo_change (run first: empty stack)

test('undo_change and redo_change on an empty stack: peek says so, undo and redo fail with the documented messages', async () => {
  const empty = await peek();
  assert.deepEqual(empty, { peek: true, undo_depth: 0, can_undo: false, can_redo: false, note: 'Nothing to undo.' });
  const undo = await call(c, 'undo_change');
  assert.equal(undo.isError, true);
  assert.equal(undo.body.error, 'Nothing to undo.');
  const redo = await call(c, 'redo_change');
  assert.equal(redo.isError, true);
  assert.equal(redo.body.error, 'Nothing to redo.');
  assert.equal((await call(c, 'redo_change', { peek: true })).body.error_code, 'invalid_argument', 'redo_change takes no arguments');
  assert.equal((await call(c, 'undo_change', { peek: 'yes' })).body.error_code, 'invalid_argument');
});

test('undo_change and redo_change report every documented field; a new edit clears the redo stack', async () => {
  const base = await axiomCount(c);
  const names = Array.from({ length: 25 }, (_, i) => `${Z}Extra${String(i).padStart(2, '0')}`);
  await callOk(c, 'apply_changes', { operations: names.map((entity) => ({ axiom_type: 'declaration', entity, entity_type: 'class' })) });
  const next = (await peek()).next_undo as { changes: number; sample: { op: string; axiom: string }[]; non_axiom_changes?: number };
  assert.equal(next.changes, 25);
  assert.equal(next.sample.length, 20, 'the sample is capped at 20');
  assert.ok(next.sample.every((s) => s.op === 'add' && s.axiom.startsWith('Class: Extra')));
  assert.equal(next.non_axiom_changes, undefined);

  const undone = await callOk(c, 'undo_change');
  assert.deepEqual(undone, {
    undone: true,
    message: undone.message,
    axioms_before: base + 25,
    axioms_after: base,
    net_axiom_change: -25,
    undo_depth: 0,
    can_undo: false,
    can_redo: true,
    dirty: true,
    dirty_note: undone.dirty_note,
  });
  assert.equal(typeof undone.message, 'string');
  assert.match(undone.dirty_note as string, /save/);
  const redone = await callOk(c, 'redo_change');
  assert.deepEqual(redone, {
    redone: true,
    message: redone.message,
    axioms_before: base,
    axioms_after: base + 25,
    net_axiom_change: 25,
    undo_depth: 1,
    can_undo: true,
    can_redo: false,
  });
  await callOk(c, 'undo_change');
  await callOk(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Cat', super: 'Mammal' });
  const after = await peek();
  assert.equal(after.can_redo, false, 'a new edit clears the redo stack');
  assert.equal((await call(c, 'redo_change')).body.error, 'Nothing to redo.');
  await callOk(c, 'undo_change');
});

test('undo_change peek counts header changes as non-axiom changes', async () => {
  await callOk(c, 'set_ontology_id', { ontology_iri: ZOO + '/renamed' });
  const next = (await peek()).next_undo;
  assert.deepEqual(next, { changes: 1, sample: [], non_axiom_changes: 1 });
  const undone = await callOk(c, 'undo_change');
  assert.equal(undone.net_axiom_change, 0);
  assert.equal((await active()).ontology_iri, ZOO);
});

test('undo_change peek runs in read-only mode; undo_change and redo_change are refused there', async () => {
  const o = new Ontology();
  o.id = { iri: 'http://example.org/ro', versionIri: null };
  const ctx = toolContext([o], undefined, { read_only: true });
  const peeked = await runInContext('undo_change', { peek: true }, ctx);
  assert.equal(peeked.isError, false);
  assert.equal(peeked.body.note, 'Nothing to undo.');
  assert.equal((await runInContext('undo_change', {}, ctx)).body.error_code, 'read_only');
  assert.equal((await runInContext('redo_change', {}, ctx)).body.error_code, 'read_only');
});

// ---------------------------------------------------------------- add_axiom / remove_axiom: every axiom_type

/** One operand set per axiom_type, the entity whose axioms show it, its functional-syntax name and Manchester rendering. */
const CASES: { operands: Row; focus: string; type: string; rendering: string; minted?: Row[] }[] = [
  {
    operands: { axiom_type: 'subclass_of', sub: 'Cat', super: 'Mammal and (eats some Bird)' },
    focus: 'Cat',
    type: 'SubClassOf',
    rendering: 'Cat SubClassOf Mammal and eats some Bird',
  },
  {
    operands: { axiom_type: 'equivalent_classes', classes: ['Cat', 'Dog'] },
    focus: 'Cat',
    type: 'EquivalentClasses',
    rendering: 'Cat EquivalentTo Dog',
  },
  {
    operands: { axiom_type: 'disjoint_classes', classes: ['Cat', 'Dog', 'Bird'] },
    focus: 'Cat',
    type: 'DisjointClasses',
    rendering: 'DisjointClasses: Bird, Cat, Dog',
  },
  {
    operands: { axiom_type: 'disjoint_union', class: 'Animal', classes: ['Mammal', 'Bird'] },
    focus: 'Animal',
    type: 'DisjointUnion',
    rendering: 'Animal DisjointUnionOf Bird, Mammal',
  },
  {
    operands: { axiom_type: 'class_assertion', class: 'Cat', individual: 'tom' },
    focus: 'tom',
    type: 'ClassAssertion',
    rendering: 'tom Type Cat',
  },
  {
    operands: { axiom_type: 'object_property_assertion', property: 'likes', subject: 'tom', object: 'rex' },
    focus: 'tom',
    type: 'ObjectPropertyAssertion',
    rendering: 'tom likes rex',
  },
  {
    operands: { axiom_type: 'data_property_assertion', property: 'age', subject: 'tom', value: '3', datatype: 'xsd:integer' },
    focus: 'tom',
    type: 'DataPropertyAssertion',
    rendering: 'tom age 3',
  },
  {
    operands: { axiom_type: 'negative_object_property_assertion', property: 'likes', subject: 'tom', object: 'tweety' },
    focus: 'tom',
    type: 'NegativeObjectPropertyAssertion',
    rendering: 'not tom likes tweety',
  },
  {
    operands: { axiom_type: 'negative_data_property_assertion', property: 'name', subject: 'tom', value: 'Rex', lang: 'en' },
    focus: 'tom',
    type: 'NegativeDataPropertyAssertion',
    rendering: 'not tom name "Rex"@en',
  },
  {
    operands: { axiom_type: 'same_individual', individuals: ['rex', 'tom'] },
    focus: 'rex',
    type: 'SameIndividual',
    rendering: 'rex SameAs tom',
  },
  {
    operands: { axiom_type: 'different_individuals', individuals: ['rex', 'tom', 'tweety'] },
    focus: 'rex',
    type: 'DifferentIndividuals',
    rendering: 'DifferentIndividuals: rex, tom, tweety',
  },
  {
    operands: { axiom_type: 'sub_object_property_of', property: 'hasParent', super_property: 'likes' },
    focus: 'hasParent',
    type: 'SubObjectPropertyOf',
    rendering: 'hasParent SubPropertyOf likes',
  },
  {
    operands: { axiom_type: 'sub_data_property_of', property: 'age', super_property: 'weight' },
    focus: 'age',
    type: 'SubDataPropertyOf',
    rendering: 'age SubPropertyOf weight',
  },
  // a chain is a SubObjectPropertyOf in functional syntax (TOOLS.md 1.5)
  {
    operands: { axiom_type: 'sub_property_chain_of', chain: ['hasParent', 'hasParent'], super_property: 'hasGrandparent' },
    focus: 'hasGrandparent',
    type: 'SubObjectPropertyOf',
    rendering: 'hasParent o hasParent SubPropertyOf hasGrandparent',
  },
  {
    operands: { axiom_type: 'equivalent_object_properties', properties: ['likes', 'eats'] },
    focus: 'likes',
    type: 'EquivalentObjectProperties',
    rendering: 'eats EquivalentTo likes',
  },
  {
    operands: { axiom_type: 'disjoint_object_properties', properties: ['likes', 'eats'] },
    focus: 'likes',
    type: 'DisjointObjectProperties',
    rendering: 'eats DisjointWith likes',
  },
  {
    operands: { axiom_type: 'equivalent_data_properties', properties: ['age', 'weight'] },
    focus: 'age',
    type: 'EquivalentDataProperties',
    rendering: 'age EquivalentTo weight',
  },
  {
    operands: { axiom_type: 'disjoint_data_properties', properties: ['age', 'name'] },
    focus: 'age',
    type: 'DisjointDataProperties',
    rendering: 'age DisjointWith name',
  },
  {
    operands: { axiom_type: 'inverse_object_properties', property: 'hasParent', inverse_property: 'hasChild' },
    focus: 'hasParent',
    type: 'InverseObjectProperties',
    rendering: 'hasChild InverseOf hasParent',
  },
  {
    operands: { axiom_type: 'transitive_object_property', property: 'hasParent' },
    focus: 'hasParent',
    type: 'TransitiveObjectProperty',
    rendering: 'Transitive: hasParent',
  },
  {
    operands: { axiom_type: 'functional_object_property', property: 'hasParent' },
    focus: 'hasParent',
    type: 'FunctionalObjectProperty',
    rendering: 'Functional: hasParent',
  },
  {
    operands: { axiom_type: 'inverse_functional_object_property', property: 'hasParent' },
    focus: 'hasParent',
    type: 'InverseFunctionalObjectProperty',
    rendering: 'InverseFunctional: hasParent',
  },
  {
    operands: { axiom_type: 'symmetric_object_property', property: 'likes' },
    focus: 'likes',
    type: 'SymmetricObjectProperty',
    rendering: 'Symmetric: likes',
  },
  {
    operands: { axiom_type: 'asymmetric_object_property', property: 'likes' },
    focus: 'likes',
    type: 'AsymmetricObjectProperty',
    rendering: 'Asymmetric: likes',
  },
  {
    operands: { axiom_type: 'reflexive_object_property', property: 'likes' },
    focus: 'likes',
    type: 'ReflexiveObjectProperty',
    rendering: 'Reflexive: likes',
  },
  {
    operands: { axiom_type: 'irreflexive_object_property', property: 'likes' },
    focus: 'likes',
    type: 'IrreflexiveObjectProperty',
    rendering: 'Irreflexive: likes',
  },
  {
    operands: { axiom_type: 'functional_data_property', property: 'age' },
    focus: 'age',
    type: 'FunctionalDataProperty',
    rendering: 'Functional: age',
  },
  {
    operands: { axiom_type: 'has_key', class: 'Cat', properties: ['likes', 'name'] },
    focus: 'Cat',
    type: 'HasKey',
    rendering: 'Cat HasKey likes, name',
  },
  {
    operands: { axiom_type: 'object_property_domain', property: 'eats', domain: 'Animal' },
    focus: 'eats',
    type: 'ObjectPropertyDomain',
    rendering: 'eats Domain Animal',
  },
  {
    operands: { axiom_type: 'object_property_range', property: 'eats', range: 'Animal or Bird' },
    focus: 'eats',
    type: 'ObjectPropertyRange',
    rendering: 'eats Range Animal or Bird',
  },
  {
    operands: { axiom_type: 'data_property_domain', property: 'age', domain: 'Animal' },
    focus: 'age',
    type: 'DataPropertyDomain',
    rendering: 'age Domain Animal',
  },
  {
    operands: { axiom_type: 'data_property_range', property: 'age', range: 'xsd:integer[>= 0]' },
    focus: 'age',
    type: 'DataPropertyRange',
    rendering: 'age Range xsd:integer[>= 0]',
  },
  // a French label leaves Cat's (English-preferring) display name as it is
  {
    operands: { axiom_type: 'annotation_assertion', subject: 'Cat', value: 'Petit félin', lang: 'fr' },
    focus: 'Cat',
    type: 'AnnotationAssertion',
    rendering: 'Cat rdfs:label "Petit félin"@fr',
  },
  {
    operands: { axiom_type: 'sub_annotation_property_of', property: 'note', super_property: 'rdfs:comment' },
    focus: 'note',
    type: 'SubAnnotationPropertyOf',
    rendering: 'note SubPropertyOf rdfs:comment',
  },
  {
    operands: { axiom_type: 'annotation_property_domain', property: 'note', domain: Z + 'Animal' },
    focus: 'note',
    type: 'AnnotationPropertyDomain',
    rendering: 'note Domain Animal',
  },
  {
    operands: { axiom_type: 'annotation_property_range', property: 'note', range: 'xsd:string' },
    focus: 'note',
    type: 'AnnotationPropertyRange',
    rendering: 'note Range xsd:string',
  },
  {
    operands: { axiom_type: 'declaration', entity: Z + 'Fish', entity_type: 'class' },
    focus: Z + 'Fish',
    type: 'Declaration',
    rendering: 'Class: Fish',
    minted: [{ iri: Z + 'Fish', display: 'Fish', type: 'Class' }],
  },
  {
    operands: { axiom_type: 'datatype_definition', datatype: 'Age', range: 'xsd:integer[>= 0, <= 200]' },
    focus: 'Age',
    type: 'DatatypeDefinition',
    rendering: 'Age EquivalentTo xsd:integer[<= 200, >= 0]',
  },
];

test('every axiom_type of §2.2 has a case here', () => {
  assert.deepEqual(
    CASES.map((x) => x.operands.axiom_type),
    [...AXIOM_TYPES],
  );
});

test('add_axiom and remove_axiom handle every axiom_type symmetrically, with the documented results and errors', async () => {
  const base = await axiomCount(c);
  for (const { operands, focus, type, rendering, minted } of CASES) {
    const label = operands.axiom_type as string;
    const added = await callOk(c, 'add_axiom', operands);
    assert.deepEqual(added, { applied: true, axiom: rendering, ...(minted === undefined ? {} : { new_entities: minted }) }, label);
    const rows = (
      (await callOk(c, 'get_axioms_for_entity', { entity: focus })).axioms as { items: { axiom_type: string; rendering: string }[] }
    ).items;
    const row = rows.find((r) => r.rendering === rendering);
    assert.ok(row !== undefined, `${label}: asserted (${JSON.stringify(rows)})`);
    assert.equal(row.axiom_type, type, label);

    const again = await callOk(c, 'add_axiom', operands);
    assert.equal(again.applied, true, `${label}: applied means the axiom is present`);
    assert.equal(again.axiom, rendering, label);
    assert.match(again.note as string, /already present/, label);

    const removed = await callOk(c, 'remove_axiom', operands);
    assert.deepEqual(removed, { removed: true, axiom: rendering }, label);
    const absent = await call(c, 'remove_axiom', operands);
    assert.equal(absent.isError, true, label);
    assert.equal(absent.body.error, `Axiom not asserted in the active ontology: ${rendering}`, label);
    assert.equal(await axiomCount(c), base, `${label}: nothing left behind`);
  }
});

test('add_axiom reports new_entities and declares them; remove_axiom leaves the declarations', async () => {
  const base = await axiomCount(c);
  const added = await callOk(c, 'add_axiom', {
    axiom_type: 'object_property_assertion',
    property: 'hunts',
    subject: 'tom',
    object: 'jerry',
  });
  assert.deepEqual(added.new_entities, [
    { iri: Z + 'hunts', display: 'hunts', type: 'ObjectProperty' },
    { iri: Z + 'jerry', display: 'jerry', type: 'NamedIndividual' },
  ]);
  assert.equal(await axiomCount(c), base + 3, 'the assertion and two declarations');
  assert.equal(((await peek()).next_undo as { changes: number }).changes, 3, 'one undo unit');
  await callOk(c, 'remove_axiom', { axiom_type: 'object_property_assertion', property: 'hunts', subject: 'tom', object: 'jerry' });
  assert.equal(await axiomCount(c), base + 2);
  await callOk(c, 'undo_change');
  await callOk(c, 'undo_change');
  assert.equal(await axiomCount(c), base);

  const strict = await call(c, 'add_axiom', { axiom_type: 'class_assertion', class: 'Cat', individual: 'garfield', strict: true });
  assert.equal(strict.isError, true);
  assert.equal(strict.body.error_code, 'invalid_argument');
  assert.equal(strict.body.operand, 'individual');
  assert.match(strict.body.error as string, /'individual'.*garfield.*strict/);
  assert.equal(
    (await callOk(c, 'add_axiom', { axiom_type: 'class_assertion', class: 'Cat', individual: 'tom', strict: true })).applied,
    true,
    'strict allows known entities',
  );
  await callOk(c, 'undo_change');
  assert.equal(await axiomCount(c), base);
});

test('builder rules 1–3 through add_axiom and remove_axiom: value_iri wins, datatype wins, annotations are part of the axiom', async () => {
  const base = await axiomCount(c);
  const both = await callOk(c, 'add_axiom', {
    axiom_type: 'annotation_assertion',
    property: 'rdfs:seeAlso',
    subject: 'Cat',
    value: 'ignored',
    value_iri: 'Dog',
  });
  assert.equal(both.axiom, 'Cat rdfs:seeAlso Dog');
  assert.equal(
    (
      await callOk(c, 'remove_axiom', {
        axiom_type: 'annotation_assertion',
        property: 'rdfs:seeAlso',
        subject: 'Cat',
        value_iri: Z + 'Dog',
      })
    ).removed,
    true,
    'the IRI-valued assertion is the one that was added',
  );

  const typed = await callOk(c, 'add_axiom', {
    axiom_type: 'data_property_assertion',
    property: 'age',
    subject: 'rex',
    value: '7',
    datatype: 'xsd:integer',
    lang: 'en',
  });
  assert.equal(typed.axiom, 'rex age 7');
  const tagged = await call(c, 'remove_axiom', {
    axiom_type: 'data_property_assertion',
    property: 'age',
    subject: 'rex',
    value: '7',
    lang: 'en',
  });
  assert.equal(tagged.isError, true, 'the lang tag was ignored, so a tagged literal is a different axiom');
  assert.equal(
    (
      await callOk(c, 'remove_axiom', {
        axiom_type: 'data_property_assertion',
        property: 'age',
        subject: 'rex',
        value: '7',
        datatype: 'xsd:integer',
      })
    ).removed,
    true,
  );
  const plain = await callOk(c, 'add_axiom', { axiom_type: 'data_property_assertion', property: 'name', subject: 'rex', value: 'Rex' });
  assert.equal(plain.axiom, 'rex name "Rex"');
  await callOk(c, 'remove_axiom', { axiom_type: 'data_property_assertion', property: 'name', subject: 'rex', value: 'Rex' });

  const annotated = {
    axiom_type: 'subclass_of',
    sub: 'Dog',
    super: 'Mammal',
    annotations: [
      { property: 'rdfs:comment', value: 'by observation', annotations: [{ property: 'note', value_iri: 'http://example.org/source' }] },
    ],
  };
  const added = await callOk(c, 'add_axiom', annotated);
  assert.equal(added.applied, true);
  assert.match(added.axiom as string, /^Annotations: .*by observation.*Dog SubClassOf Mammal$/s);
  const bare = await call(c, 'remove_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'Mammal' });
  assert.equal(bare.isError, true, 'the unannotated axiom is not asserted');
  const partly = await call(c, 'remove_axiom', { ...annotated, annotations: [{ property: 'rdfs:comment', value: 'by observation' }] });
  assert.equal(partly.isError, true, 'nested annotations are part of the identity');
  assert.equal((await callOk(c, 'remove_axiom', annotated)).removed, true);
  assert.equal(await axiomCount(c), base);
});

test('builder rules 4–5: an unknown axiom_type names every supported type; operand problems are invalid_argument and change nothing', async () => {
  const base = await axiomCount(c);
  for (const tool of ['add_axiom', 'remove_axiom']) {
    const unknown = await call(c, tool, { axiom_type: 'subclass', sub: 'Cat', super: 'Mammal' });
    assert.equal(unknown.body.error_code, 'invalid_argument', tool);
    for (const type of AXIOM_TYPES) assert.ok((unknown.body.error as string).includes(`"${type}"`), `${tool} names ${type}`);
  }
  const row = at((await callOk(c, 'preview_changes', { operations: [{ axiom_type: 'subclass' }] })).operations as Row[], 0);
  assert.match(row.error as string, /Unknown axiom_type "subclass"; supported types: subclass_of, .*datatype_definition$/);

  const bad: [string, Row][] = [
    ['list below its minimum', { axiom_type: 'equivalent_classes', classes: ['Cat'] }],
    ['has_key with no property', { axiom_type: 'has_key', class: 'Cat', properties: [] }],
    ['chain of one', { axiom_type: 'sub_property_chain_of', chain: ['hasParent'], super_property: 'hasGrandparent' }],
    ['missing operand', { axiom_type: 'inverse_object_properties', property: 'hasParent' }],
    ['missing axiom_type', { sub: 'Cat', super: 'Mammal' }],
    ['unknown entity_type', { axiom_type: 'declaration', entity: 'Cat', entity_type: 'concept' }],
    ['operand of another type', { axiom_type: 'class_assertion', class: 'Cat', individual: 'tom', subject: 'tom' }],
    ['list where a string is due', { axiom_type: 'subclass_of', sub: ['Cat'], super: 'Mammal' }],
    ['annotation without a value', { axiom_type: 'subclass_of', sub: 'Cat', super: 'Mammal', annotations: [{ property: 'rdfs:comment' }] }],
    ['unknown annotation field', { axiom_type: 'subclass_of', sub: 'Cat', super: 'Mammal', annotations: [{ value: 'x', colour: 'red' }] }],
    ['a malformed language tag', { axiom_type: 'annotation_assertion', subject: 'Cat', value: 'x', lang: 'not a tag' }],
    ['annotation_assertion without a value', { axiom_type: 'annotation_assertion', subject: 'Cat' }],
    ['a Manchester syntax error', { axiom_type: 'subclass_of', sub: 'Cat', super: 'eats some (' }],
  ];
  for (const [what, operands] of bad) {
    for (const tool of ['add_axiom', 'remove_axiom']) {
      const r = await call(c, tool, operands);
      assert.equal(r.isError, true, `${tool}: ${what}`);
      assert.equal(r.body.error_code, 'invalid_argument', `${tool}: ${what} (${JSON.stringify(r.body)})`);
    }
  }
  const parse = await call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Cat', super: 'eats some (' });
  assert.match(parse.body.error as string, /^super: /, 'a parse error quotes the parser message and names the operand');
  assert.equal(await axiomCount(c), base);
});

test('add_axiom and remove_axiom refuse a display name two IRIs share, listing both (TOOLS.md 1.4)', async () => {
  await callOk(c, 'apply_changes', {
    operations: [
      { axiom_type: 'annotation_assertion', subject: 'Cat', value: 'moggy', lang: 'en' },
      { axiom_type: 'annotation_assertion', subject: 'Dog', value: 'moggy', lang: 'en' },
    ],
  });
  const base = await axiomCount(c);
  for (const tool of ['add_axiom', 'remove_axiom']) {
    const r = await call(c, tool, { axiom_type: 'subclass_of', sub: 'moggy', super: 'Animal' });
    assert.equal(r.body.error_code, 'ambiguous_reference', tool);
    assert.deepEqual([...(r.body.candidates as string[])].sort(), [Z + 'Cat', Z + 'Dog'], tool);
    assert.match(r.body.error as string, /^sub: /, tool);
  }
  assert.equal(await axiomCount(c), base);
  await callOk(c, 'undo_change');
});

// ---------------------------------------------------------------- preview_changes / apply_changes (verify=none)

test('preview_changes detects new entities over the imports closure; apply_changes bounds timeout_ms and ignores it with verify=none', async () => {
  const imported = path.join(scratch, 'imported.ttl');
  await writeFile(imported, PREFIXES + '<http://example.org/imp> a owl:Ontology .\n<http://example.org/imp#Reptile> a owl:Class .\n');
  await callOk(c, 'add_import', { iri: 'http://example.org/imp', document: imported });
  const preview = await callOk(c, 'preview_changes', {
    operations: [
      { axiom_type: 'subclass_of', sub: 'http://example.org/imp#Reptile', super: 'Animal' },
      { axiom_type: 'subclass_of', sub: 'Lizard', super: 'http://example.org/imp#Reptile' },
    ],
  });
  const rows = preview.operations as { new_entities: { iri: string }[] }[];
  assert.deepEqual(at(rows, 0).new_entities, [], 'an imported class is not new');
  assert.deepEqual(
    at(rows, 1).new_entities.map((e) => e.iri),
    [Z + 'Lizard'],
  );
  assert.deepEqual(preview.summary, { operations: 2, adds: 2, removes: 0, no_ops: 0, errors: 0, new_entities: 1 });
  await callOk(c, 'undo_change');

  const op = { axiom_type: 'subclass_of', sub: 'Cat', super: 'Animal' };
  assert.equal((await call(c, 'apply_changes', { operations: [op], timeout_ms: 3_600_001 })).body.error_code, 'invalid_argument');
  assert.equal((await call(c, 'apply_changes', { operations: [op], strict: 'yes' })).body.error_code, 'invalid_argument');
  const applied = await callOk(c, 'apply_changes', { operations: [op], timeout_ms: 1, verify: 'none' });
  assert.deepEqual(applied.summary, { operations: 1, added: 1, removed: 0, no_ops: 0, errors: 0, single_undo: true, new_entities: 0 });
  assert.equal(applied.verify, undefined, 'no verify block with verify=none');
  await callOk(c, 'undo_change');
});

// ---------------------------------------------------------------- header tools

test('set_ontology_id refuses an IRI or version IRI that another loaded ontology holds as its version IRI', async () => {
  await callOk(c, 'create_ontology', {
    ontology_iri: 'http://example.org/other',
    version_iri: 'http://example.org/other/2.0',
    keep_active: true,
  });
  for (const args of [
    { ontology_iri: 'http://example.org/other/2.0' },
    { ontology_iri: ZOO + '/fresh', version_iri: 'http://example.org/other' },
  ]) {
    const r = await call(c, 'set_ontology_id', args);
    assert.equal(r.isError, true, JSON.stringify(args));
    assert.equal(r.body.error_code, 'id_in_use');
    assert.match(r.body.error as string, /already in use/);
  }
  const a = await active();
  assert.equal(a.ontology_iri, ZOO);
  assert.equal(a.version_iri, null);
  assert.equal((await call(c, 'set_ontology_id', { ontology_iri: ZOO, version_iri: 'not absolute' })).body.error_code, 'invalid_argument');
});

test('set_prefix binds the default namespace with ":" alone; remove_prefix keeps a sibling bound to the same namespace', async () => {
  const before = (await callOk(c, 'get_ontology_context')).prefixes as Record<string, string>;
  const colon = await callOk(c, 'set_prefix', { prefix: ':', namespace: 'http://example.org/zoo2#' });
  assert.equal(colon.prefix, ':');
  assert.equal((colon.prefixes as Record<string, string>)[':'], 'http://example.org/zoo2#');
  const empty = await callOk(c, 'set_prefix', { prefix: '', namespace: Z });
  assert.equal(empty.prefix, ':', 'an empty name is the default namespace too');

  await callOk(c, 'set_prefix', { prefix: 'z1', namespace: Z });
  await callOk(c, 'set_prefix', { prefix: 'z2:', namespace: Z });
  const removed = await callOk(c, 'remove_prefix', { prefix: 'z1:' });
  assert.equal(removed.namespace, Z);
  const map = removed.prefixes as Record<string, string>;
  assert.equal(map['z1:'], undefined);
  assert.equal(map['z2:'], Z, 'the sibling binding stays');
  assert.equal(map[':'], Z);
  assert.match(
    (await callOk(c, 'add_axiom', { axiom_type: 'declaration', entity: 'z2:Cat', entity_type: 'class' })).note as string,
    /already present/,
    'z2: still parses',
  );
  const gone = await call(c, 'add_axiom', { axiom_type: 'declaration', entity: 'z1:Cat', entity_type: 'class', strict: true });
  assert.equal(gone.isError, true, 'z1: no longer parses as a prefix');
  await callOk(c, 'remove_prefix', { prefix: 'z2' });
  assert.deepEqual((await callOk(c, 'get_ontology_context')).prefixes, before);
  assert.equal((await call(c, 'remove_prefix', {})).body.error_code, 'invalid_argument');
  assert.equal((await call(c, 'set_prefix', { prefix: 'a', namespace: 'http://a#', extra: 1 })).body.error_code, 'invalid_argument');
});

test('add_import with a document loads nothing when the declaration already resolves; an unanswered fetch is load_failed', async () => {
  const count = (await callOk(c, 'list_ontologies')).count as number;
  const r = await callOk(c, 'add_import', { iri: 'http://example.org/other', document: path.join(scratch, 'does-not-exist.ttl') });
  assert.deepEqual(r, {
    added: true,
    iri: 'http://example.org/other',
    already_present: false,
    resolved: true,
    document: path.join(scratch, 'does-not-exist.ttl'),
  });
  assert.equal((await callOk(c, 'list_ontologies')).count, count);
  await callOk(c, 'undo_change');
  const silent = await call(c, 'add_import', {
    iri: 'http://example.org/silent',
    document: `${web.base}/silent.ttl`,
    connection_timeout_ms: 200,
  });
  assert.equal(silent.body.error_code, 'load_failed');
  assert.match(silent.body.error as string, /within 200 ms \(connection_timeout_ms\)/);
  assert.ok(!((await active()).direct_imports as string[]).includes('http://example.org/silent'), 'nothing was declared');
});

test('add_ontology_annotation defaults the property to rdfs:label; value_iri wins over value in add and remove', async () => {
  const label = await callOk(c, 'add_ontology_annotation', { value: 'The zoo' });
  assert.deepEqual(label.annotation, {
    property: 'rdfs:label',
    property_iri: 'http://www.w3.org/2000/01/rdf-schema#label',
    value: 'The zoo',
  });
  const both = await callOk(c, 'add_ontology_annotation', {
    property: 'rdfs:seeAlso',
    value: 'ignored',
    value_iri: 'http://example.org/zoo-home',
  });
  assert.deepEqual(both.annotation, {
    property: 'rdfs:seeAlso',
    property_iri: 'http://www.w3.org/2000/01/rdf-schema#seeAlso',
    value_iri: 'http://example.org/zoo-home',
  });
  const literal = await call(c, 'remove_ontology_annotation', { property: 'rdfs:seeAlso', value: 'ignored' });
  assert.equal(literal.body.error, 'Ontology annotation not present: rdfs:seeAlso = "ignored"');
  assert.equal(
    (await callOk(c, 'remove_ontology_annotation', { property: 'rdfs:seeAlso', value_iri: 'http://example.org/zoo-home' })).removed,
    true,
  );
  assert.equal((await callOk(c, 'remove_ontology_annotation', { value: 'The zoo' })).removed, true);
  assert.equal((await call(c, 'remove_ontology_annotation', { value: 'x', bogus: 1 })).body.error_code, 'invalid_argument');
});

// ---------------------------------------------------------------- save_ontology

const sha256 = (text: Buffer) => 'sha256:' + createHash('sha256').update(text).digest('hex');

test('save_ontology atomic=true verifies the round trip and reports bytes, sha256, round_trip, atomic and the revision envelope', async () => {
  await callOk(c, 'add_axiom', {
    axiom_type: 'subclass_of',
    sub: 'Dog',
    super: 'Mammal',
    annotations: [{ property: 'rdfs:comment', value: 'reified', lang: 'en' }],
  });
  for (const ext of ['ttl', 'owl', 'ofn', 'owx', 'omn']) {
    const target = path.join(scratch, `verified.${ext}`);
    const saved = await callOk(c, 'save_ontology', { path: target, atomic: true });
    const file = await readFile(target);
    assert.equal(saved.saved, true, ext);
    assert.equal(saved.path, target, ext);
    assert.equal(saved.verified, true, ext);
    assert.equal(saved.atomic, true, ext);
    assert.equal(saved.bytes, file.length, ext);
    assert.equal(saved.sha256, sha256(file), ext);
    const round = saved.round_trip as Row;
    assert.deepEqual(
      { ...round, round_trip_class: undefined },
      { ontology_id: true, direct_imports: true, ontology_annotations: true, axioms: true, round_trip_class: undefined },
      ext,
    );
    assert.ok(['byte_for_byte', 'axiom_identical'].includes(round.round_trip_class as string), ext);
    assert.equal(saved.backup_path, undefined, ext);
    assert.deepEqual(saved.revision, (await callOk(c, 'get_model_revision')).revision, `${ext}: the envelope after the save`);
  }
  const bare = path.join(scratch, 'verified-no-extension');
  const kept = await callOk(c, 'save_ontology', { path: bare });
  assert.equal(kept.format, 'manchester', 'a path without an extension keeps the current format');
  assert.match(await readFile(bare, 'utf8'), /^Prefix: /m);
  const turtle = await callOk(c, 'save_ontology', { path: path.join(scratch, 'verified.ttl'), verify_round_trip: true });
  assert.equal((turtle.round_trip as Row).round_trip_class, 'byte_for_byte', 'Athene reads back its own Turtle to the same bytes');
  assert.equal((await active()).ontology_iri, ZOO);
  await callOk(c, 'undo_change');
});

test('save_ontology backup=true keeps the previous file as <path>.bak; a plain save clears the dirty flag', async () => {
  const target = path.join(scratch, 'backed.ttl');
  await writeFile(target, 'previous content\n');
  const saved = await callOk(c, 'save_ontology', { path: target, backup: true });
  assert.equal(saved.backup_path, target + '.bak');
  assert.equal(saved.verified, true, 'backup implies verification');
  assert.equal(await readFile(target + '.bak', 'utf8'), 'previous content\n');
  assert.match(await readFile(target, 'utf8'), /owl:Ontology/);

  await callOk(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Cat', super: 'Mammal' });
  const dirty = (await callOk(c, 'list_ontologies')).ontologies as { id: string; dirty: boolean; document: string }[];
  assert.equal(dirty.find((o) => o.document === target)?.dirty, true);
  const plain = await callOk(c, 'save_ontology');
  assert.deepEqual(plain, { saved: true, path: target }, 'a plain save reports no format and no verification');
  assert.match(await readFile(target, 'utf8'), /rdfs:subClassOf :Mammal/);
  const clean = (await callOk(c, 'list_ontologies')).ontologies as { document: string; dirty: boolean }[];
  assert.equal(clean.find((o) => o.document === target)?.dirty, false);
  await callOk(c, 'undo_change');
  assert.equal((await callOk(c, 'get_model_revision')).dirty, true, 'an undo after a save dirties again');
  await callOk(c, 'save_ontology');
});

test('save_ontology refuses what TOOLS.md lists, writing nothing', async () => {
  for (const ext of ['nt', 'jsonld', 'docx']) {
    const target = path.join(scratch, `refused.${ext}`);
    const r = await call(c, 'save_ontology', { path: target });
    assert.equal(r.body.error_code, 'invalid_argument', ext);
    assert.match(r.body.error as string, new RegExp(`Unknown file extension '\\.${ext}'`), ext);
    await assert.rejects(access(target), ext);
  }
  const both = await call(c, 'save_ontology', { path: path.join(scratch, 'x.ttl'), all: true });
  assert.equal(both.body.error_code, 'invalid_argument');
  assert.match(both.body.error as string, /all=true cannot be combined with path/);
  const bootstrap = await call(c, 'save_ontology', { policy_bootstrap: true });
  assert.equal(bootstrap.body.error_code, 'invalid_argument');
  assert.match(bootstrap.body.error as string, /policy_bootstrap needs path/);
  assert.equal((await call(c, 'save_ontology', { on_lossy: 'ignore' })).body.error_code, 'invalid_argument');

  const blocker = path.join(scratch, 'blocker');
  await writeFile(blocker, 'a file where a directory should be');
  const dir = await call(c, 'save_ontology', { path: path.join(blocker, 'sub', 'zoo.ttl') });
  assert.equal(dir.isError, true);
  assert.equal(dir.body.error_code, 'io_error');
  assert.equal(dir.body.saved, false);
  assert.match(dir.body.error as string, /Cannot write/);

  await callOk(c, 'create_ontology', { ontology_iri: 'http://example.org/untitled' });
  const untitled = await call(c, 'save_ontology');
  assert.equal(untitled.body.error_code, 'invalid_argument');
  assert.match(untitled.body.error as string, /give path/);
  await callOk(c, 'add_axiom', { axiom_type: 'declaration', entity: 'http://example.org/untitled#C', entity_type: 'class' });
  await callOk(c, 'set_active_ontology', { ontology_iri: ZOO });
});

test('verified saves compare up to blank-node renaming and allow the declarations the RDF writers add', async () => {
  // An anonymous individual, and entities used without a declaration (the writers declare them).
  const anonymous = path.join(scratch, 'anonymous.ttl');
  await writeFile(anonymous, PREFIXES + '<http://example.org/anon> a owl:Ontology .\n:rex :likes [ a :Cat ; :likes [ a :Dog ] ] .\n');
  await callOk(c, 'load_ontology', { source: anonymous });
  try {
    for (const ext of ['ttl', 'owl', 'ofn', 'owx']) {
      const target = path.join(scratch, `anonymous-saved.${ext}`);
      const saved = await call(c, 'save_ontology', { path: target, verify_round_trip: true });
      assert.equal(saved.isError, false, `${ext}: ${JSON.stringify(saved.body)}`);
      assert.equal(saved.body.verified, true, ext);
      assert.equal((saved.body.round_trip as Row).axioms, true, ext);
    }
    // RDF cannot hold an annotation by a non-built-in property of the RDFS namespace (a typo of
    // rdfs:comment is reserved vocabulary to the RDF mapping): the refusal names what differs, with samples.
    await callOk(c, 'add_axiom', {
      axiom_type: 'annotation_assertion',
      subject: 'Cat',
      property: '<http://www.w3.org/2000/01/rdf-schema#commment>',
      value: 'typo',
    });
    const typo = path.join(scratch, 'anonymous-typo.ttl');
    const refused = await call(c, 'save_ontology', { path: typo, verify_round_trip: true });
    assert.equal(refused.body.error_code, 'round_trip_mismatch', JSON.stringify(refused.body));
    const round = refused.body.round_trip as Row;
    assert.equal(round.axioms, false);
    const lost = (round.differences as Row[]).find((d) => d.rule === 'axioms_lost')!;
    assert.ok(
      ((lost.axioms as Row).sample as string[]).some((line) => line.includes('rdf-schema#commment')),
      JSON.stringify(lost),
    );
    assert.match(refused.body.error as string, /loses 1 axiom/);
    await assert.rejects(access(typo), 'nothing written');
    await callOk(c, 'undo_change');
    // OBO keeps what it has no tag for (a disjoint union, the anonymous individuals) in owl-axioms
    await callOk(c, 'add_axiom', { axiom_type: 'disjoint_union', class: 'Cat', classes: ['Dog', 'Mammal'] });
    const obo = path.join(scratch, 'anonymous-saved.obo');
    const kept = await call(c, 'save_ontology', { path: obo, verify_round_trip: true });
    assert.equal(kept.isError, false, JSON.stringify(kept.body));
    assert.equal((kept.body.round_trip as Row).axioms, true);
    await callOk(c, 'undo_change');
    await callOk(c, 'save_ontology');
  } finally {
    await callOk(c, 'set_active_ontology', { ontology_iri: ZOO });
  }
});

test('save_ontology all=true saves every dirty ontology to its own document and lists the ones it cannot', async () => {
  const target = path.join(scratch, 'backed.ttl');
  await callOk(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Bird', super: 'Animal' });
  const all = await callOk(c, 'save_ontology', { all: true });
  const saved = all.saved as { ontology: string; path: string }[];
  const skipped = all.skipped as { ontology: string; reason: string }[];
  assert.deepEqual(saved, [{ ontology: ZOO, path: target }]);
  assert.ok(
    skipped.some((s) => s.ontology === 'http://example.org/untitled' && /no local document/.test(s.reason)),
    JSON.stringify(skipped),
  );
  assert.equal(all.message, `Saved 1 ontology, skipped ${skipped.length}.`);
  assert.match(await readFile(target, 'utf8'), /:Bird .*rdfs:subClassOf :Animal/s);
  const rows = (await callOk(c, 'list_ontologies')).ontologies as { id: string; dirty: boolean }[];
  assert.equal(rows.find((o) => o.id === ZOO)?.dirty, false);
  assert.equal(rows.find((o) => o.id === 'http://example.org/untitled')?.dirty, true);
  await callOk(c, 'undo_change');
});

// ---------------------------------------------------------------- load_ontology, create_ontology

test('load_ontology keep_active=true reports the loaded ontology and the unchanged active one; reloading reuses it', async () => {
  const file = path.join(scratch, 'kept.ttl');
  await writeFile(
    file,
    PREFIXES +
      '<http://example.org/kept> a owl:Ontology ; rdfs:comment "k" .\n<http://example.org/kept#K> a owl:Class .\n<http://example.org/kept#K> rdfs:subClassOf <http://example.org/kept#K2> .\n',
  );
  const before = await active();
  const loaded = await callOk(c, 'load_ontology', { source: file, keep_active: true });
  assert.deepEqual(loaded, {
    loaded_document: file,
    loaded_ontology: 'http://example.org/kept',
    loaded_axioms: 2,
    active_ontology: ZOO,
    kept_active: true,
    document_iri: file,
    active: {
      axioms: before.axioms,
      logical_axioms: before.logical_axioms,
      direct_imports: (before.direct_imports as string[]).length,
      ontology_annotations: 0,
    },
    added_ontologies: 1,
    already_loaded: false,
    workspace_ontologies: loaded.workspace_ontologies,
    missing_imports_mode: 'warn',
    resolved_imports: [],
    unresolved_imports: [],
    note: loaded.note,
  });
  assert.match(loaded.note as string, /not undoable/);
  const again = await callOk(c, 'load_ontology', { source: file });
  assert.equal(again.already_loaded, true);
  assert.equal(again.added_ontologies, 0);
  assert.equal(again.workspace_ontologies, loaded.workspace_ontologies);
  assert.equal(again.active_ontology, 'http://example.org/kept');
  assert.deepEqual(again.active, { axioms: 2, logical_axioms: 1, direct_imports: 0, ontology_annotations: 1 });
  await callOk(c, 'set_active_ontology', { ontology_iri: ZOO });
});

test('load_ontology reports unreachable, silent and refused remote sources as failures and bounds its arguments', async () => {
  const count = (await callOk(c, 'list_ontologies')).count;
  const refusedPort = await startOrigin({});
  const closedUrl = `${refusedPort.base}/x.ttl`;
  await refusedPort.close();
  const unreachable = await call(c, 'load_ontology', { source: closedUrl });
  assert.equal(unreachable.body.error_code, 'load_failed');
  assert.match(unreachable.body.error as string, new RegExp(`^Cannot fetch ${closedUrl.replace(/[.]/g, '\\.')}: .*ECONNREFUSED`));

  const silent = await call(c, 'load_ontology', { source: `${web.base}/silent.ttl`, connection_timeout_ms: 200 });
  assert.equal(silent.body.error_code, 'load_failed');
  assert.match(silent.body.error as string, /within 200 ms \(connection_timeout_ms\)/);
  const hits = web.hits;
  const denied = await call(c, 'load_ontology', { source: `${web.base}/x.ttl`, network: 'deny' });
  assert.equal(denied.body.error_code, 'network_denied');
  assert.equal(web.hits, hits, 'nothing was fetched');
  const scheme = await call(c, 'load_ontology', { source: 'ftp://example.org/x.ttl' });
  assert.equal(scheme.body.error_code, 'invalid_argument');
  for (const args of [
    { source: `${web.base}/x.ttl`, connection_timeout_ms: 0 },
    { source: 'x.ttl', lock_mode: 'strict' },
    { source: 'x.ttl', keep_active: 'no' },
    { source: '' },
  ]) {
    assert.equal((await call(c, 'load_ontology', args)).body.error_code, 'invalid_argument', JSON.stringify(args));
  }
  assert.equal((await callOk(c, 'list_ontologies')).count, count);
  assert.equal((await active()).ontology_iri, ZOO);
});

test('load_ontology: an untitled in-memory ontology satisfies an import under warn but never under missing_imports=error', async () => {
  await callOk(c, 'create_ontology', { ontology_iri: 'http://example.org/memory', keep_active: true });
  const importer = path.join(scratch, 'importer.ttl');
  await writeFile(importer, PREFIXES + '<http://example.org/importer> a owl:Ontology ; owl:imports <http://example.org/memory> .\n');
  const count = (await callOk(c, 'list_ontologies')).count;
  const strict = await call(c, 'load_ontology', { source: importer, missing_imports: 'error' });
  assert.equal(strict.body.error_code, 'missing_imports');
  const missing = strict.body.unresolved_imports as { import_iri: string; reason: string }[];
  assert.deepEqual(
    missing.map((m) => m.import_iri),
    ['http://example.org/memory'],
  );
  assert.match(at(missing, 0).reason, /untitled in-memory ontology/);
  assert.equal((await callOk(c, 'list_ontologies')).count, count, 'nothing was attached');
  const lenient = await callOk(c, 'load_ontology', { source: importer, keep_active: true });
  assert.deepEqual(
    (lenient.resolved_imports as { target_ontology: string; location: string }[]).map((e) => [e.target_ontology, e.location]),
    [['http://example.org/memory', 'memory']],
  );
  assert.deepEqual(lenient.unresolved_imports, []);
});

test('create_ontology binds only the extensions a save can write; no extension binds Turtle', async () => {
  const refused = await call(c, 'create_ontology', { ontology_iri: 'http://example.org/nt', path: path.join(scratch, 'new', 'o.nt') });
  assert.equal(refused.body.error_code, 'invalid_argument');
  assert.match(refused.body.error as string, /Unknown file extension '\.nt'/);
  await assert.rejects(access(path.join(scratch, 'new')), 'no directory was created');
  const plain = path.join(scratch, 'new', 'plain');
  const created = await callOk(c, 'create_ontology', { ontology_iri: 'http://example.org/plain', path: plain });
  assert.equal(created.document_iri, plain);
  await callOk(c, 'add_axiom', { axiom_type: 'declaration', entity: 'A', entity_type: 'class' });
  await callOk(c, 'save_ontology');
  assert.match(await readFile(plain, 'utf8'), /^@prefix [\s\S]*<http:\/\/example\.org\/plain> a owl:Ontology/, 'a Turtle document');
  await callOk(c, 'set_active_ontology', { ontology_iri: ZOO });
});
