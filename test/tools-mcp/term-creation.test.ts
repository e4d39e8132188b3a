// create_term, create_terms, create_property, create_properties through the real server: the curation
// suite each writes, strict, data-property errors, batch atomicity, one undo entry per call, previews
// committed with commit_change_set, live verify with rollback, and read-only mode.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveTempOntology, call, callOk, axiomCount, undoDepth, type ServedTempOntology, type Row } from '../server/support.js';
import { toolContext, runInContext } from '../support/tool-context.js';
import { Ontology } from '../../src/model/ontology.js';
import { at } from '../support/at.js';

const ZOO = 'http://example.org/zoo#';
const TTL = `@prefix :     <http://example.org/zoo#> .
@prefix owl:  <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
<http://example.org/zoo> a owl:Ontology .
skos:definition a owl:AnnotationProperty ; rdfs:label "definition"@en .
:Animal a owl:Class ; rdfs:label "animal"@en ; rdfs:comment "A living thing that moves." .
:Plant a owl:Class ; rdfs:label "plant"@en ; rdfs:comment "A living thing that grows in place." .
:Animal owl:disjointWith :Plant .
:eats a owl:ObjectProperty ; rdfs:label "eats"@en ; rdfs:comment "Feeds on." ; rdfs:domain :Animal ; rdfs:range owl:Thing .
`;

let s: ServedTempOntology;
before(async () => {
  s = await serveTempOntology('athene-terms-', 'zoo.ttl', TTL);
});
after(async () => {
  await s.close();
});

const ok = (name: string, args: Row = {}): Promise<Row> => callOk(s.c, name, args);
const axiomsOf = async (entity: string) =>
  (((await ok('get_axioms_for_entity', { entity, limit: 1000 })).axioms as Row).items as Row[]).map((r) => r.rendering as string).sort();

test('create_term writes label, definition, parents (incl. an expression), equivalents and nested annotations as one undo entry', async () => {
  const depth = await undoDepth(s.c);
  const base = await axiomCount(s.c);
  const made = await ok('create_term', {
    name: 'Herbivore',
    label: 'herbivore',
    label_lang: 'en',
    definition: 'An animal that eats only plants.',
    definition_property: 'skos:definition',
    definition_lang: 'en',
    parents: ['Animal', 'eats some Plant'],
    equivalent_to: ['Animal and (eats only Plant)'],
    annotations: [{ property: 'rdfs:comment', value: 'curated', annotations: [{ property: 'rdfs:comment', value: 'by the zoo' }] }],
  });
  assert.deepEqual(made.created, { iri: ZOO + 'Herbivore', display: 'herbivore', type: 'Class' });
  assert.equal(made.applied, true);
  assert.deepEqual(
    (made.new_entities as Row[]).map((e) => e.iri),
    [ZOO + 'Herbivore'],
  );
  assert.deepEqual(await axiomsOf(ZOO + 'Herbivore'), [
    'Annotations: rdfs:comment "by the zoo" herbivore rdfs:comment "curated"',
    'Class: herbivore',
    'animal and eats only plant EquivalentTo herbivore',
    'herbivore SubClassOf animal',
    'herbivore SubClassOf eats some plant',
    'herbivore definition "An animal that eats only plants."@en',
    'herbivore rdfs:label "herbivore"@en',
  ]);
  assert.equal(await axiomCount(s.c), base + 7);
  assert.equal(await undoDepth(s.c), depth + 1);
  const undone = await ok('undo_change');
  assert.equal(undone.net_axiom_change, -7);
  assert.equal(await axiomCount(s.c), base);
});

test('create_property writes object and data properties with domain, range (incl. a data range), characteristics, inverse', async () => {
  const obj = await ok('create_property', {
    name: 'eatenBy',
    domain: 'Plant',
    range: 'Animal',
    super_properties: ['topObjectProperty'],
    characteristics: ['inverse_functional', 'irreflexive'],
    inverse_of: 'eats',
    definition: 'Inverse of eats.',
  });
  assert.deepEqual(obj.created, { iri: ZOO + 'eatenBy', display: 'eatenBy', type: 'ObjectProperty' });
  assert.equal(obj.applied, true);
  assert.deepEqual(await axiomsOf(ZOO + 'eatenBy'), [
    'InverseFunctional: eatenBy',
    'Irreflexive: eatenBy',
    'ObjectProperty: eatenBy',
    'eatenBy Domain plant',
    'eatenBy IAO_0000115 "Inverse of eats."',
    'eatenBy InverseOf eats',
    'eatenBy Range animal',
    'eatenBy SubPropertyOf topObjectProperty',
    'eatenBy rdfs:label "eatenBy"',
  ]);
  const data = await ok('create_property', {
    name: 'weightKg',
    property_type: 'data',
    domain: 'Animal',
    range: 'xsd:decimal[>= 0.0]',
    characteristics: ['functional'],
  });
  assert.deepEqual(data.created, { iri: ZOO + 'weightKg', display: 'weightKg', type: 'DataProperty' });
  assert.deepEqual(await axiomsOf(ZOO + 'weightKg'), [
    'DataProperty: weightKg',
    'Functional: weightKg',
    'weightKg Domain animal',
    'weightKg Range xsd:decimal[>= 0.0]',
    'weightKg rdfs:label "weightKg"',
  ]);
  await ok('undo_change');
  await ok('undo_change');
});

test('data-property errors and strict refuse without changing anything', async () => {
  const base = await axiomCount(s.c);
  const inverse = await call(s.c, 'create_property', { name: 'ageYears', property_type: 'data', inverse_of: 'eats' });
  assert.equal(inverse.isError, true);
  assert.equal(inverse.body.error_code, 'invalid_argument');
  assert.equal(inverse.body.field, 'inverse_of');
  const transitive = await call(s.c, 'create_property', {
    name: 'ageYears',
    property_type: 'data',
    characteristics: ['functional', 'transitive'],
  });
  assert.equal(transitive.body.field, 'characteristics[1]');
  assert.match(transitive.body.error as string, /transitive/);
  const strict = await call(s.c, 'create_term', { name: 'Carnivore', parents: ['eats some Meat'], strict: true });
  assert.equal(strict.isError, true);
  assert.equal(strict.body.field, 'parents[0]');
  assert.match(strict.body.error as string, /Meat.*strict/);
  const strictOk = await ok('create_term', { name: 'Omnivore', parents: ['Animal'], strict: true });
  assert.equal(strictOk.applied, true, 'the term itself is not minting under strict');
  await ok('undo_change');
  assert.equal(await axiomCount(s.c), base);
});

test('create_terms is atomic: a bad item or a duplicate IRI fails with its index and applies nothing', async () => {
  const base = await axiomCount(s.c);
  const depth = await undoDepth(s.c);
  const bad = await call(s.c, 'create_terms', {
    terms: [
      { name: 'Cat', parents: ['Animal'] },
      { name: 'Dog', parents: ['Animal and ('] },
    ],
  });
  assert.equal(bad.isError, true);
  assert.equal(bad.body.index, 1);
  assert.equal(bad.body.field, 'parents[0]');
  assert.match(bad.body.error as string, /^terms\[1\]\.parents\[0\]/);
  const dup = await call(s.c, 'create_terms', { terms: [{ name: 'Cat' }, { iri: ZOO + 'Cat' }] });
  assert.equal(dup.body.index, 1);
  assert.match(dup.body.error as string, /already created by item 0/);
  const strict = await call(s.c, 'create_terms', { strict: true, terms: [{ name: 'Cat' }, { name: 'Dog', parents: ['Wolf'] }] });
  assert.equal(strict.body.index, 1);
  assert.equal(await axiomCount(s.c), base);
  assert.equal(await undoDepth(s.c), depth);
  assert.equal((await call(s.c, 'get_entity', { entity: ZOO + 'Cat' })).isError, true);
});

test('create_terms and create_properties apply a batch as one undo entry with defaults and already_existed', async () => {
  const base = await axiomCount(s.c);
  const depth = await undoDepth(s.c);
  const made = await ok('create_terms', {
    namespace: 'http://example.org/pets#',
    definition_property: 'skos:definition',
    terms: [
      { name: 'Cat', definition: 'A cat.', parents: ['Animal'] },
      { name: 'Dog', parents: ['Animal'] },
      { iri: ZOO + 'Animal', no_label: true },
    ],
  });
  assert.deepEqual(made.created, [
    { iri: 'http://example.org/pets#Cat', display: 'Cat', type: 'Class' },
    { iri: 'http://example.org/pets#Dog', display: 'Dog', type: 'Class' },
    { iri: ZOO + 'Animal', display: 'animal', type: 'Class', already_existed: true },
  ]);
  assert.equal(made.count, 3);
  assert.equal(made.applied, true);
  assert.equal(made.no_ops, 1, 'the declaration of Animal was already present');
  assert.equal((made.new_entities as Row[]).length, 2);
  assert.ok((await axiomsOf('http://example.org/pets#Cat')).includes('Cat definition "A cat."'));
  const props = await ok('create_properties', {
    property_type: 'data',
    properties: [
      { name: 'nickname', range: 'xsd:string' },
      { name: 'likes', property_type: 'object' },
    ],
  });
  assert.deepEqual(
    (props.created as Row[]).map((r) => r.type),
    ['DataProperty', 'ObjectProperty'],
  );
  assert.equal(await undoDepth(s.c), depth + 2);
  await ok('undo_change');
  await ok('undo_change');
  assert.equal(await axiomCount(s.c), base);
});

test('preview=true caches a change set that commit_change_set commits as one undo entry; rebase replays it', async () => {
  const base = await axiomCount(s.c);
  const preview = await ok('create_terms', {
    preview: true,
    terms: [
      { name: 'Fish', definition: 'A swimming animal.', parents: ['Animal'] },
      { name: 'Shark', definition: 'A big fish.', parents: ['Fish'] },
    ],
  });
  assert.equal(preview.live_mutated, false);
  assert.equal(preview.committable, true, JSON.stringify((preview.preflight as Row).findings));
  assert.equal(preview.created, undefined);
  assert.equal(await axiomCount(s.c), base, 'a preview changes nothing');
  assert.ok((preview.normalized_changes as Row[]).some((r) => r.axiom === 'Shark SubClassOf Fish'));
  const rebased = await ok('rebase_change_set', { change_set_id: preview.change_set_id });
  assert.equal(rebased.resolution_verified, true);
  const committed = await ok('commit_change_set', { change_set_id: rebased.change_set_id, expected_revision: rebased.base_revision });
  assert.equal(committed.committed, true);
  assert.equal(committed.undo_depth_after, (committed.undo_depth_before as number) + 1);
  // two classes × (declaration, label, definition, parent) + the declaration of the definition property IAO:0000115
  assert.equal(await axiomCount(s.c), base + 9);
  await ok('undo_change');
  const props = await ok('create_properties', { preview: true, properties: [{ name: 'swimsIn' }] });
  assert.equal(props.committable, true);
  await ok('discard_change_set', { change_set_id: props.change_set_id });
  const mixed = await call(s.c, 'create_terms', { preview: true, verify: 'report', terms: [{ name: 'X' }] });
  assert.equal(mixed.isError, true);
  const stray = await call(s.c, 'create_terms', { ttl_seconds: 60, terms: [{ name: 'X' }] });
  assert.equal(stray.isError, true);
  assert.match(stray.body.error as string, /preview=true/);
});

test('verify runs with the default auto reasoner; verify=rollback undoes a batch that makes a class unsatisfiable', async () => {
  const base = await axiomCount(s.c);
  const byAuto = await ok('create_terms', { verify: 'rollback', terms: [{ name: 'Chimera', parents: ['Animal', 'Plant'] }] });
  assert.equal((byAuto.verify as Row).mode, 'rollback');
  assert.equal(await axiomCount(s.c), base, 'auto is selected from the start: the unsatisfiable Chimera is rolled back');
  await ok('set_reasoner', { reasoner: 'el' });
  const depth = await undoDepth(s.c);
  const rolled = await ok('create_terms', {
    verify: 'rollback',
    terms: [
      { name: 'Chimera', parents: ['Animal', 'Plant'] },
      { name: 'Tree', parents: ['Plant'] },
    ],
  });
  const verify = rolled.verify as Row;
  assert.equal(verify.mode, 'rollback');
  assert.equal(verify.regression, true);
  assert.deepEqual(verify.newly_unsatisfiable, [ZOO + 'Chimera']);
  assert.equal(verify.rolled_back, true);
  assert.equal(verify.applied, false);
  assert.equal(verify.classification_completed, true);
  assert.equal(verify.was_inconsistent, false);
  assert.equal(rolled.applied, false);
  assert.equal(await axiomCount(s.c), base, 'the whole batch is gone');
  assert.equal(await undoDepth(s.c), depth);
  const reported = await ok('create_terms', { verify: 'report', terms: [{ name: 'Chimera', parents: ['Animal', 'Plant'] }] });
  assert.equal((reported.verify as Row).regression, true);
  assert.equal((reported.verify as Row).rolled_back, false);
  assert.equal(reported.applied, true, 'report keeps a regressing batch');
  await ok('undo_change');
  const kept = await ok('create_terms', { verify: 'report', terms: [{ name: 'Tree', parents: ['Plant'] }] });
  assert.equal((kept.verify as Row).regression, false);
  assert.equal((kept.verify as Row).rolled_back, false);
  assert.equal(kept.applied, true);
  await ok('undo_change');
});

test('read-only mode refuses the writing calls but not a preview', async () => {
  const o = new Ontology();
  o.id = { iri: 'http://example.org/x', versionIri: null };
  const readOnly = toolContext([o], undefined, { read_only: true });
  for (const [name, args] of [
    ['create_term', { name: 'A' }],
    ['create_terms', { terms: [{ name: 'A' }] }],
    ['create_property', { name: 'p' }],
    ['create_properties', { properties: [{ name: 'p' }] }],
  ] as const) {
    assert.equal((await runInContext(name, args, readOnly)).body.error_code, 'read_only', name);
  }
  const preview = await runInContext('create_terms', { preview: true, terms: [{ name: 'A' }] }, readOnly);
  assert.equal(preview.isError, false, JSON.stringify(preview.body));
  assert.equal(o.axiomCount, 0);
});

test('with generated ids a created term carries only its own label, applied or previewed', async () => {
  const gen = await serveTempOntology('athene-terms-gen-', 'zoo.ttl', TTL, {
    new_entity_namespace: 'http://example.org/gen/',
    new_entity_ids: 'generated',
  });
  try {
    const made = await callOk(gen.c, 'create_term', { name: 'Lynx', label: 'lynx', label_lang: 'en', parents: ['Predator'] });
    const lynx = made.created as Row;
    assert.match(lynx.iri as string, /^http:\/\/example\.org\/gen\/id-/);
    const rows = (((await callOk(gen.c, 'get_axioms_for_entity', { entity: lynx.iri })).axioms as Row).items as Row[]).map(
      (r) => r.rendering,
    );
    assert.deepEqual(rows.sort(), ['Class: lynx', 'lynx SubClassOf Predator', 'lynx rdfs:label "lynx"@en']);
    const preview = await callOk(gen.c, 'create_terms', { preview: true, terms: [{ name: 'Ocelot', label: 'ocelot', label_lang: 'en' }] });
    const labels = (preview.normalized_changes as Row[])
      .filter((r) => r.axiom_type === 'AnnotationAssertion')
      .map((r) => r.axiom as string);
    assert.equal(labels.length, 1);
    assert.match(at(labels, 0), /rdfs:label "ocelot"@en$/);
  } finally {
    await gen.close();
  }
});

test('a preview takes at most 2000 items and says so before evaluating anything', async () => {
  const terms = Array.from({ length: 2001 }, (_, i) => ({ name: `T${i}` }));
  const tooMany = await call(s.c, 'create_terms', { preview: true, terms });
  assert.equal(tooMany.body.error_code, 'change_set_too_large');
  assert.equal(tooMany.body.limit, 2000);
});

test('create_term defines with IAO:0000115 by default, which validate_ontology accepts; well-known prefixes resolve undeclared', async () => {
  // A document that declares neither obo: nor skos:.
  const bare = await serveTempOntology(
    'athene-terms-bare-',
    'bare.ttl',
    '@prefix : <http://example.org/bare#> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n<http://example.org/bare> a owl:Ontology .\n',
  );
  try {
    await callOk(bare.c, 'create_term', { name: 'Rock', definition: 'A solid mineral mass.' });
    await callOk(bare.c, 'create_term', { name: 'Sand', definition: 'Loose grains of rock.', definition_property: 'skos:definition' });
    await callOk(bare.c, 'create_term', { name: 'Pebble', definition: 'A small stone.', definition_property: 'dcterms:description' });
    const rock = ((await callOk(bare.c, 'get_axioms_for_entity', { entity: 'Rock', limit: 100 })).axioms as Row).items as Row[];
    assert.ok(
      rock.some(
        (r) =>
          r.axiom_type === 'AnnotationAssertion' &&
          /IAO_0000115/.test(JSON.stringify(r)) &&
          /A solid mineral mass/.test(r.rendering as string),
      ),
      JSON.stringify(rock),
    );
    const checks = (await callOk(bare.c, 'validate_ontology', { checks: ['missing_definition'], limit: 100 })).checks as Row[];
    const undefined_ = ((at(checks, 0).examples as Row[]) ?? []).map((e) => e.iri);
    assert.ok(!undefined_.includes('http://example.org/bare#Rock'), 'the default definition property counts as a definition');
    assert.ok(!undefined_.includes('http://example.org/bare#Sand'), 'skos:definition counts as a definition');
    assert.ok(undefined_.includes('http://example.org/bare#Pebble'), 'dcterms:description is no definition');
    const sand = await callOk(bare.c, 'get_axioms_for_entity', { entity: 'http://example.org/bare#Sand', limit: 100 });
    assert.ok(((sand.axioms as Row).items as Row[]).some((r) => r.rendering === 'Sand definition "Loose grains of rock."'));
    assert.deepEqual((await callOk(bare.c, 'get_entity', { entity: 'skos:definition' })).matches, [
      { iri: 'http://www.w3.org/2004/02/skos/core#definition', display: 'definition', type: 'AnnotationProperty' },
    ]);
  } finally {
    await bare.close();
  }
});
