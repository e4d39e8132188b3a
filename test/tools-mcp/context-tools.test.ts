// The explore/context tools through the real server: summarize_ontology, list_classes,
// get_axioms_for_entity, get_ontology_context and get_entity_context (fixture: context.ttl importing
// context-base.ttl), plus argument validation, capabilities and read-only mode without the server.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestServer, fixture, connect, call, callOk, serveTempOntology, principalWith, type TestServer } from '../server/support.js';
import { toolContext, runInContext } from '../support/tool-context.js';
import { Ontology } from '../../src/model/ontology.js';
import {
  annotationAssertion,
  annotationProperty,
  dataProperty,
  dataPropertyRange,
  datatype,
  declaration,
  iriNode,
  literal,
} from '../../src/model/terms.js';
import { at } from '../support/at.js';

const CTX = 'http://example.org/ctx#';
const BASE = 'http://example.org/base#';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
type Row = Record<string, unknown>;
type Capped = { count: number; items: Row[]; truncated?: number };

let t: TestServer;
let c: Client;

before(async () => {
  t = await startTestServer([fixture('context.ttl')]);
  c = await connect(t);
  const loaded = await call(c, 'load_ontology', { source: fixture('context-base.ttl'), keep_active: true });
  assert.equal(loaded.isError, false, JSON.stringify(loaded.body));
});
after(async () => {
  await c.close();
  await t.stop();
});

const ok = (name: string, args: Row = {}): Promise<Row> => callOk(c, name, args);
const iris = (list: unknown) => (list as Capped).items.map((x) => (x.iri ?? x.expression) as string);
const card = (body: Row, i = 0) => at(body.entities as Row[], i, 'entity card');

test('tools/list shows the five context tools as read-only; each refuses an unknown argument', async () => {
  const { tools } = await c.listTools();
  for (const name of ['summarize_ontology', 'list_classes', 'get_axioms_for_entity', 'get_ontology_context', 'get_entity_context']) {
    const tool = tools.find((x) => x.name === name);
    assert.ok(tool, name);
    assert.equal(tool.annotations?.readOnlyHint, true, name);
    assert.equal((await call(c, name, { unknown_argument: 1 })).body.error_code, 'invalid_argument', name);
  }
  const entityContext = tools.find((x) => x.name === 'get_entity_context')!;
  assert.deepEqual(entityContext.inputSchema.required, ['entity']);
});

test('summarize_ontology counts the active ontology, then its imports closure, and caps axiom-type rows', async () => {
  const active = await ok('summarize_ontology');
  assert.equal(active.scope, 'active');
  assert.equal(active.ontologies, 1);
  assert.equal(active.axioms, 73);
  assert.equal(active.logical_axioms, 26);
  assert.equal(active.ontology_annotations, 2);
  assert.equal(active.import_declarations, 1);
  // xsd:integer, xsd:decimal and xsd:boolean are named; the plain literals' xsd:string / rdf:langString are not
  assert.deepEqual(active.entity_types, {
    Class: 11,
    AnnotationProperty: 6,
    NamedIndividual: 5,
    ObjectProperty: 4,
    Datatype: 3,
    DataProperty: 2,
  });
  assert.equal(active.signature_entities, 31);
  const types = Object.entries(active.axiom_types as Record<string, number>);
  assert.deepEqual(types.slice(0, 3), [
    ['AnnotationAssertion', 22],
    ['Declaration', 22],
    ['SubClassOf', 6],
  ]);
  assert.equal(
    types.reduce((n, [, k]) => n + k, 0),
    73,
  );
  assert.equal(active.axiom_types_truncated, undefined);

  const closure = await ok('summarize_ontology', { include_imports: true, limit: 2 });
  assert.equal(closure.scope, 'imports_closure');
  assert.equal(closure.ontologies, 2);
  assert.equal(closure.axioms, 77);
  assert.equal(closure.signature_entities, 32, 'base:partOf joins; base:LivingThing was already referenced');
  assert.deepEqual(closure.axiom_types, { AnnotationAssertion: 24, Declaration: 24 });
  assert.equal(closure.axiom_types_truncated, types.length - 2);
});

test('summarize_ontology counts a plain-literal datatype only where an axiom names it', async () => {
  const o = new Ontology();
  o.id = { iri: 'http://example.org/s', versionIri: null };
  const p = dataProperty('http://example.org/s#p');
  o.add(declaration(p));
  o.add(annotationAssertion(annotationProperty('http://www.w3.org/2000/01/rdf-schema#label'), iriNode(p.iri), literal('p')));
  o.add(
    annotationAssertion(annotationProperty('http://www.w3.org/2000/01/rdf-schema#label'), iriNode(p.iri), literal('p', undefined, 'en')),
  );
  const ctx = toolContext([o]);
  const before = (await runInContext('summarize_ontology', {}, ctx)).body;
  assert.deepEqual(before.entity_types, { AnnotationProperty: 1, DataProperty: 1 });
  o.add(dataPropertyRange(p, datatype(XSD + 'string')));
  const after = (await runInContext('summarize_ontology', {}, ctx)).body;
  assert.deepEqual(after.entity_types, { AnnotationProperty: 1, DataProperty: 1, Datatype: 1 });
});

test('list_classes pages the signature by display name then IRI without drops or repeats', async () => {
  const all = await ok('list_classes', { limit: 100 });
  assert.equal(all.count, 11);
  assert.equal(all.next_offset, undefined);
  const rows = all.items as { iri: string; display: string }[];
  assert.deepEqual(
    rows.slice(0, 4).map((r) => r.display),
    ['animal', 'cat', 'dog', 'jaguar'],
  );
  assert.deepEqual(
    rows.slice(3, 5).map((r) => r.iri),
    [CTX + 'Jaguar', CTX + 'JaguarCar'],
    'equal displays order by IRI',
  );
  const paged: unknown[] = [];
  let offset: number | undefined = 0;
  while (offset !== undefined) {
    const page: Row = await ok('list_classes', { limit: 4, offset });
    assert.equal(page.count, 11);
    assert.equal(page.offset, offset);
    assert.equal(page.returned, (page.items as unknown[]).length);
    paged.push(...(page.items as unknown[]));
    offset = page.next_offset as number | undefined;
  }
  assert.deepEqual(paged, rows);
  const beyond = await ok('list_classes', { offset: 50 });
  assert.deepEqual([beyond.returned, beyond.next_offset], [0, undefined]);
});

test('get_axioms_for_entity lists usage and annotations, every punned sense, sorted and paged', async () => {
  const own = await ok('get_axioms_for_entity', { entity: 'base:LivingThing' });
  assert.deepEqual(own.entity, { iri: BASE + 'LivingThing', display: 'living thing', type: 'Class' });
  assert.equal(own.include_imports, false);
  assert.deepEqual((own.axioms as Capped).items, [{ axiom_type: 'SubClassOf', rendering: "animal SubClassOf 'living thing'" }]);
  const wide = (await ok('get_axioms_for_entity', { entity: 'living thing', include_imports: true })).axioms as Row;
  assert.deepEqual(
    (wide.items as Row[]).map((r) => r.axiom_type),
    ['AnnotationAssertion', 'Declaration', 'SubClassOf'],
  );

  const punned = (await ok('get_axioms_for_entity', { entity: CTX + 'Jaguar', limit: 2 })).axioms as Row;
  assert.equal(punned.count, 4);
  assert.equal(punned.next_offset, 2);
  assert.deepEqual(
    (punned.items as Row[]).map((r) => r.rendering),
    ['Class: jaguar', 'Individual: jaguar'],
  );
  const rest = (await ok('get_axioms_for_entity', { entity: CTX + 'Jaguar', limit: 2, offset: 2 })).axioms as Row;
  assert.deepEqual(
    (rest.items as Row[]).map((r) => r.rendering),
    ['jaguar SubClassOf mammal', 'jaguar rdfs:label "jaguar"@en'],
  );
  assert.equal(rest.next_offset, undefined);

  const ambiguous = await call(c, 'get_axioms_for_entity', { entity: 'jaguar' });
  assert.equal(ambiguous.body.error_code, 'ambiguous_reference');
  assert.deepEqual(ambiguous.body.candidates, [CTX + 'Jaguar', CTX + 'JaguarCar']);
  const missing = await call(c, 'get_axioms_for_entity', { entity: 'Unicorn' });
  assert.equal(missing.isError, true);
  assert.equal(missing.body.error, "No entity found for 'Unicorn'.");
  assert.equal(missing.body.error_code, 'not_found');
});

test('get_ontology_context orients on the active ontology with capped lists', async () => {
  const body = await ok('get_ontology_context', { limit: 3 });
  assert.deepEqual(body.active_ontology, { ontology_iri: 'http://example.org/ctx', version_iri: null, anonymous: false });
  assert.deepEqual(body.counts, {
    axioms: 73,
    logical_axioms: 26,
    classes: 11,
    object_properties: 4,
    data_properties: 2,
    annotation_properties: 6,
    individuals: 5,
    datatypes: 3,
  });
  assert.deepEqual(body.imports, ['http://example.org/base']);
  assert.deepEqual(body.ontology_annotations, [
    { property: 'owl:versionInfo', property_iri: 'http://www.w3.org/2002/07/owl#versionInfo', value: '1.0' },
    { property: 'rdfs:comment', property_iri: 'http://www.w3.org/2000/01/rdf-schema#comment', value: 'Context fixture', lang: 'en' },
  ]);
  const roots = body.root_classes as Capped;
  assert.equal(roots.count, 6, 'JaguarCar, living thing, old thing, person, pet, plant: no named superclass');
  assert.equal(roots.truncated, 3);
  assert.deepEqual(iris(roots), [CTX + 'JaguarCar', BASE + 'LivingThing', CTX + 'OldThing']);
  assert.deepEqual([(body.object_properties as Capped).count, (body.object_properties as Capped).truncated], [4, 1]);
  assert.deepEqual(iris(body.data_properties), [CTX + 'age', CTX + 'weight']);
  assert.deepEqual(body.reasoner, {
    selected_id: 'auto',
    selected_name: 'Athene Automatic Reasoner 0.1.0',
    status: 'not_initialized',
    results_available: false,
  });
  assert.equal((body.prefixes as Record<string, string>)['base:'], BASE);
  assert.equal(body.write_protection, 'writable');
  assert.equal(typeof body.note, 'string');
  const full = await ok('get_ontology_context');
  assert.equal((full.root_classes as Capped).truncated, undefined);
  assert.equal(JSON.stringify(await ok('get_ontology_context')), JSON.stringify(full), 'unchanged state, identical JSON');
});

test('get_entity_context builds a class card with named and anonymous neighbours', async () => {
  const dog = card(await ok('get_entity_context', { entity: 'dog' }));
  assert.equal(dog.type, 'Class');
  assert.equal(dog.deprecated, false);
  assert.equal(dog.referencing_axioms, 6);
  assert.deepEqual(dog.annotations, [
    { property: 'rdfs:label', property_iri: 'http://www.w3.org/2000/01/rdf-schema#label', value: 'dog', lang: 'en' },
  ]);
  assert.deepEqual((dog.super_classes as Capped).items, [
    { iri: CTX + 'Mammal', display: 'mammal', type: 'Class' },
    { expression: 'eats some animal', anonymous: true },
  ]);
  assert.deepEqual(iris(dog.disjoint_classes), [CTX + 'Cat']);
  assert.deepEqual(iris(dog.instances), [CTX + 'rex']);
  assert.deepEqual(dog.sub_classes, { count: 0, items: [] });
  const mammal = card(await ok('get_entity_context', { entity: 'Säugetier', limit: 2 }));
  assert.equal(mammal.display, 'mammal', 'the preferred language wins for display');
  assert.deepEqual(mammal.sub_classes, {
    count: 3,
    truncated: 1,
    items: [
      { iri: CTX + 'Cat', display: 'cat', type: 'Class' },
      { iri: CTX + 'Dog', display: 'dog', type: 'Class' },
    ],
  });
  // the annotation list is bounded by limit too: two labels and a definition, two shown
  assert.equal((mammal.annotations as Row[]).length, 2);
  assert.deepEqual([mammal.annotation_count, mammal.annotations_truncated], [3, 1]);
  const full = card(await ok('get_entity_context', { entity: 'Säugetier', limit: 3 }));
  assert.equal(full.annotations_truncated, undefined);
  assert.ok((full.annotations as Row[]).some((a) => a.property === 'skos:definition' && a.value === 'A warm-blooded animal.'));
  const pet = card(await ok('get_entity_context', { entity: 'pet' }));
  assert.deepEqual((pet.equivalent_classes as Capped).items, [{ expression: "'has owner' some person and animal", anonymous: true }]);
  assert.equal(card(await ok('get_entity_context', { entity: 'old thing' })).deprecated, true);
});

test('get_entity_context builds property and individual cards', async () => {
  const owner = card(await ok('get_entity_context', { entity: 'has owner' }));
  assert.deepEqual(iris(owner.domains), [CTX + 'Pet']);
  assert.deepEqual(iris(owner.ranges), [CTX + 'Person']);
  assert.deepEqual(iris(owner.super_properties), [CTX + 'relatedTo']);
  assert.deepEqual(iris(owner.inverses), [CTX + 'owns']);
  assert.deepEqual(owner.characteristics, ['functional']);
  assert.deepEqual(iris(card(await ok('get_entity_context', { entity: 'owns' })).inverses), [CTX + 'hasOwner'], 'inverses read both ways');
  assert.deepEqual(iris(card(await ok('get_entity_context', { entity: 'eats' })).ranges), ['animal or plant']);

  const age = card(await ok('get_entity_context', { entity: 'age' }));
  assert.equal(age.type, 'DataProperty');
  assert.equal(age.functional, true);
  assert.deepEqual((age.ranges as Capped).items, [{ iri: XSD + 'integer', display: 'xsd:integer', type: 'Datatype' }]);
  const weight = card(await ok('get_entity_context', { entity: 'weight' }));
  assert.equal(weight.functional, false);
  assert.deepEqual(iris(weight.ranges), ['xsd:decimal[>= 0]']);

  const note = card(await ok('get_entity_context', { entity: CTX + 'note' }));
  assert.equal(note.type, 'AnnotationProperty');
  assert.deepEqual(iris(note.super_properties), ['http://www.w3.org/2000/01/rdf-schema#comment']);
  assert.deepEqual(note.domains, [CTX + 'Animal']);
  assert.deepEqual(note.ranges, [XSD + 'string']);

  const rex = card(await ok('get_entity_context', { entity: 'Rex' }));
  assert.deepEqual(iris(rex.types), [CTX + 'Dog']);
  assert.deepEqual((rex.object_property_values as Capped).items, [
    { property: 'has owner', property_iri: CTX + 'hasOwner', values: [{ iri: CTX + 'alice', display: 'Alice', type: 'NamedIndividual' }] },
  ]);
  assert.deepEqual((rex.data_property_values as Capped).items, [{ property: 'age', property_iri: CTX + 'age', values: ['5'] }]);
  assert.deepEqual(
    (rex.annotations as Row[]).map((a) => a.property),
    ['note', 'rdfs:label'],
  );
  const alice = card(await ok('get_entity_context', { entity: 'Alice' }));
  assert.deepEqual(iris(alice.same_as), [CTX + 'alicia']);
  assert.deepEqual(iris(alice.different_from), [CTX + 'bob']);
});

test('get_entity_context returns a card per punned type and per ambiguous candidate, and honours include_imports', async () => {
  const punned = await ok('get_entity_context', { entity: ':Jaguar' });
  assert.equal(punned.count, 2);
  assert.deepEqual(
    (punned.entities as Row[]).map((e) => e.type),
    ['Class', 'NamedIndividual'],
  );
  assert.match(punned.note as string, /punned/);
  const shared = await ok('get_entity_context', { entity: 'jaguar' });
  assert.equal(shared.count, 3);
  assert.deepEqual(
    (shared.entities as Row[]).map((e) => `${e.iri} ${e.type}`),
    [CTX + 'Jaguar Class', CTX + 'Jaguar NamedIndividual', CTX + 'JaguarCar Class'],
  );
  assert.match(shared.note as string, /several IRIs/);
  assert.equal((await ok('get_entity_context', { entity: 'dog' })).note, undefined);

  const wide = await ok('get_entity_context', { entity: 'base:LivingThing' });
  assert.equal(wide.include_imports, true);
  assert.equal((card(wide).annotations as Row[]).length, 1, 'the label lives in the imported ontology');
  const narrow = card(await ok('get_entity_context', { entity: 'base:LivingThing', include_imports: false }));
  assert.deepEqual(narrow.annotations, []);
  assert.equal(narrow.display, 'living thing', 'display names still come from the closure');
  assert.deepEqual(iris(narrow.sub_classes), [CTX + 'Animal']);

  const missing = await call(c, 'get_entity_context', { entity: 'Unicorn' });
  assert.equal(missing.body.error_code, 'not_found');
  assert.match(missing.body.error as string, /search_entities/);
});

test('invalid arguments are refused before the handler', async () => {
  const cases: [string, Row][] = [
    ['summarize_ontology', { limit: 0 }],
    ['summarize_ontology', { include_imports: 'yes' }],
    ['list_classes', { offset: -1 }],
    ['list_classes', { limit: 2.5 }],
    ['get_axioms_for_entity', {}],
    ['get_axioms_for_entity', { entity: '' }],
    ['get_ontology_context', { verbose: true }],
    ['get_entity_context', { entity: 'dog', limit: -3 }],
  ];
  for (const [name, args] of cases) {
    const r = await call(c, name, args);
    assert.equal(r.body.error_code, 'invalid_argument', `${name} ${JSON.stringify(args)}`);
  }
});

test('the context tools need only ontology:read and run in read-only mode', async () => {
  const o = new Ontology();
  o.id = { iri: 'http://example.org/r', versionIri: null };
  o.add(declaration(dataProperty('http://example.org/r#p')));
  const calls: [string, Row][] = [
    ['summarize_ontology', {}],
    ['list_classes', {}],
    ['get_axioms_for_entity', { entity: 'p' }],
    ['get_ontology_context', {}],
    ['get_entity_context', { entity: 'p' }],
  ];
  const reader = toolContext([o], principalWith(['ontology:read']), { read_only: true });
  for (const [name, args] of calls) assert.equal((await runInContext(name, args, reader)).isError, false, name);
  assert.equal((await runInContext('get_ontology_context', {}, reader)).body.write_protection, 'read-only');
  const nobody = toolContext([o], principalWith([]));
  const denied = await runInContext('get_entity_context', { entity: 'p' }, nobody);
  assert.equal(denied.body.error_code, 'authorization_denied');
  assert.deepEqual(denied.body.missing_capabilities, ['ontology:read']);
});

test('summarize_ontology names a property chain SubObjectPropertyOf, as the axiom rows do', async () => {
  const chained = await serveTempOntology(
    'athene-chain-',
    'chain.ofn',
    'Prefix(:=<http://example.org/chain#>)\nOntology(<http://example.org/chain>\nDeclaration(ObjectProperty(:p))\nDeclaration(ObjectProperty(:q))\n' +
      'SubObjectPropertyOf(ObjectPropertyChain(:p :q) :p)\nSubObjectPropertyOf(:q :p)\n)\n',
  );
  try {
    const summary = await callOk(chained.c, 'summarize_ontology');
    assert.deepEqual(summary.axiom_types, { Declaration: 2, SubObjectPropertyOf: 2 });
    const rows = ((await callOk(chained.c, 'get_axioms_for_entity', { entity: 'p' })).axioms as Capped).items;
    const types = rows.filter((r) => r.axiom_type !== 'Declaration').map((r) => r.axiom_type);
    assert.deepEqual(types, ['SubObjectPropertyOf', 'SubObjectPropertyOf']);
  } finally {
    await chained.close();
  }
});
