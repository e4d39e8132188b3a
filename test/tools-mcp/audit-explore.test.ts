// TOOLS.md conformance of the explore, search, context and authoring tools (3.1, 3.2, 3.4) through the real
// server: the result fields, orders, grounding rules and error conditions the other suites leave out.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, callOk, principalWith, serveTempOntology, type Row, type ServedTempOntology } from '../server/support.js';
import { toolContext, runInContext } from '../support/tool-context.js';
import { Ontology } from '../../src/model/ontology.js';
import { cls, declaration } from '../../src/model/terms.js';
import { at } from '../support/at.js';

const A = 'http://example.org/audit#';
const RDFS_LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const SKOS_PREF = 'http://www.w3.org/2004/02/skos/core#prefLabel';

const AUDIT_TTL = `@prefix :     <${A}> .
@prefix owl:  <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix xsd:  <http://www.w3.org/2001/XMLSchema#> .

<http://example.org/audit> a owl:Ontology ;
  owl:versionIRI <http://example.org/audit/2.0> ;
  owl:imports <http://example.org/zeta> , <http://example.org/alpha> .

:Animal a owl:Class ; rdfs:label "animal"@en .
:Cat a owl:Class ; rdfs:label "cat"@en ; rdfs:subClassOf :Animal ; skos:altLabel "kitty"@en .
:C001 a owl:Class ; rdfs:label "gato"@es ; skos:altLabel "gato"@en ; rdfs:subClassOf :Animal .
:Jaguar a owl:Class , owl:NamedIndividual ; rdfs:label "jaguar"@en .
:JaguarCar a owl:Class ; rdfs:label "jaguar"@en .
:eats a owl:ObjectProperty ; rdfs:label "eats"@en .
:tom a owl:NamedIndividual , :Cat ; rdfs:label "Tom"@en .
:lives a owl:DatatypeProperty ; rdfs:range xsd:integer .
`;

const ANONYMOUS_TTL = `@prefix owl: <http://www.w3.org/2002/07/owl#> .
<http://example.org/anon#Thing1> a owl:Class .
`;

/** 1,005 classes whose labels all contain "bulk": more matches than a search keeps. */
const BULK = 1005;
const bulkTtl = () => `@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<http://example.org/bulk> a owl:Ontology .
${Array.from({ length: BULK }, (_, i) => `<http://example.org/bulk#B${i}> a owl:Class ; rdfs:label "bulk term ${i}" .`).join('\n')}
`;

let served: ServedTempOntology;
let scratch: string;
let c: Client;

before(async () => {
  served = await serveTempOntology('athene-audit-explore-', 'audit.ttl', AUDIT_TTL);
  ({ dir: scratch, c } = served);
  await writeFile(path.join(scratch, 'anonymous.ttl'), ANONYMOUS_TTL);
  await writeFile(path.join(scratch, 'bulk.ttl'), bulkTtl());
});
after(() => served.close());

const ok = (name: string, args: Row = {}): Promise<Row> => callOk(c, name, args);
const failed = async (name: string, args: Row): Promise<Row> => {
  const r = await call(c, name, args);
  assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} should fail: ${JSON.stringify(r.body)}`);
  return r.body;
};
const items = (body: Row) => body.items as Row[];

test('get_active_ontology reports ids, sorted direct imports and counts; closed input', async () => {
  const active = await ok('get_active_ontology');
  assert.deepEqual(Object.keys(active).sort(), [
    'anonymous',
    'axioms',
    'direct_imports',
    'logical_axioms',
    'ontology_iri',
    'version_iri',
    'write_protection',
  ]);
  assert.equal(active.version_iri, 'http://example.org/audit/2.0');
  assert.equal(active.anonymous, false);
  assert.deepEqual(active.direct_imports, ['http://example.org/alpha', 'http://example.org/zeta'], 'sorted');
  assert.equal(active.logical_axioms, 4, 'two SubClassOf, a ClassAssertion and a DataPropertyRange');
  assert.equal((await failed('get_active_ontology', { verbose: true })).error_code, 'invalid_argument');

  const anonymous = new Ontology();
  anonymous.add(declaration(cls('http://example.org/x#A')));
  const readOnly = toolContext([anonymous], principalWith(['ontology:read']), { read_only: true });
  const body = (await runInContext('get_active_ontology', {}, readOnly)).body;
  assert.deepEqual([body.ontology_iri, body.version_iri, body.anonymous], [null, null, true]);
  assert.equal(body.write_protection, 'read-only (server setting)');
});

test('list_ontologies lists every loaded ontology in load order with dirty flags and documents', async () => {
  const fresh = await ok('list_ontologies');
  assert.deepEqual([fresh.count, fresh.dirty_count, fresh.active], [1, 0, 'http://example.org/audit http://example.org/audit/2.0']);
  assert.match(fresh.note as string, /save_ontology all=true/);
  assert.equal((await failed('list_ontologies', { all: true })).error_code, 'invalid_argument');

  await ok('load_ontology', { source: path.join(scratch, 'anonymous.ttl'), keep_active: true });
  await ok('create_ontology', { ontology_iri: 'http://example.org/scratch', keep_active: true });
  await ok('create_class', { name: 'Dirtying' });
  const list = await ok('list_ontologies');
  assert.equal(list.count, 3);
  assert.equal(list.dirty_count, 1, 'the edit dirtied the active ontology only');
  const rows = list.ontologies as Row[];
  assert.deepEqual(
    rows.map((r) => Object.keys(r).sort()),
    rows.map(() => ['active', 'anonymous', 'axioms', 'dirty', 'document', 'id', 'logical_axioms']),
  );
  assert.deepEqual(
    rows.map((r) => r.id),
    ['http://example.org/audit http://example.org/audit/2.0', '(anonymous ontology)', 'http://example.org/scratch'],
  );
  assert.deepEqual(
    rows.map((r) => r.active),
    [true, false, false],
  );
  assert.deepEqual(
    rows.map((r) => r.anonymous),
    [false, true, false],
  );
  assert.deepEqual(
    rows.map((r) => r.dirty),
    [true, false, false],
  );
  assert.deepEqual(
    rows.map((r) => r.document),
    [path.join(scratch, 'audit.ttl'), path.join(scratch, 'anonymous.ttl'), null],
  );
  assert.deepEqual([at(rows, 1).axioms, at(rows, 1).logical_axioms], [1, 0]);
  assert.equal(JSON.stringify(await ok('list_ontologies')), JSON.stringify(list), 'unchanged state, identical JSON');
  await ok('undo_change');
});

test('get_entity: punned IRIs, shared names, CURIEs and built-ins; unknown names and prefixes are not found', async () => {
  const punned = await ok('get_entity', { entity: A + 'Jaguar' });
  assert.deepEqual(Object.keys(punned).sort(), ['count', 'matches', 'note', 'query']);
  assert.equal(punned.query, A + 'Jaguar');
  assert.deepEqual(
    (punned.matches as Row[]).map((m) => m.type),
    ['Class', 'NamedIndividual'],
  );
  assert.match(punned.note as string, /punned/);
  const shared = await ok('get_entity', { entity: 'jaguar' });
  assert.deepEqual(
    (shared.matches as Row[]).map((m) => `${m.iri} ${m.type}`),
    [`${A}Jaguar Class`, `${A}Jaguar NamedIndividual`, `${A}JaguarCar Class`],
  );
  assert.equal(shared.count, 3);
  const single = await ok('get_entity', { entity: ':eats' });
  assert.deepEqual(single, { query: ':eats', count: 1, matches: [{ iri: A + 'eats', display: 'eats', type: 'ObjectProperty' }] });
  assert.deepEqual((await ok('get_entity', { entity: 'owl:Thing' })).matches, [
    { iri: 'http://www.w3.org/2002/07/owl#Thing', display: 'owl:Thing', type: 'Class' },
  ]);
  for (const ref of ['nope:Cat', 'Unicorn', A + 'Unicorn']) {
    const missing = await failed('get_entity', { entity: ref });
    assert.deepEqual([missing.error, missing.error_code], [`No entity found for '${ref}'.`, 'not_found']);
  }
  assert.equal((await failed('get_entity', { entity: 'cat', limit: 3 })).error_code, 'invalid_argument');
});

test('search_entities items carry every documented field; the default lexical policy is reported', async () => {
  const body = await ok('search_entities', { query: 'cat', type: 'class' });
  assert.deepEqual([body.query, body.type], ['cat', 'class']);
  const [cat] = items(body);
  assert.ok(cat);
  assert.deepEqual(Object.keys(cat).sort(), [
    'collision',
    'display',
    'iri',
    'language',
    'match_kind',
    'match_source',
    'matched_property',
    'matched_value',
    'needs_review',
    'normalization',
    'ontology',
    'score',
    'score_explanation',
    'type',
  ]);
  assert.equal(cat.iri, A + 'Cat');
  assert.equal(cat.match_kind, 'exact');
  assert.equal(typeof cat.score, 'number');
  assert.equal(typeof cat.normalization, 'string');
  assert.equal(typeof cat.score_explanation, 'string');
  assert.equal(cat.collision, false);
  assert.equal(cat.needs_review, false);
  assert.equal(body.best_match, A + 'Cat');
  assert.deepEqual([body.would_mint, body.mint_blocked_by_collision, body.reuse_candidate], [false, false, null]);
  assert.deepEqual(body.collisions, []);
  const policy = body.lexical_policy as Row;
  assert.equal(policy.source, 'default');
  assert.deepEqual(policy.preferred_properties, [RDFS_LABEL, SKOS_PREF]);
  assert.deepEqual(policy.preferred_languages, ['en']);
  assert.equal(body.lexical_match_count, undefined, 'only when more than 1,000 lexical candidates matched');
  assert.ok(items(await ok('search_entities', { query: 'Tom', type: 'individual' })).every((i) => i.type === 'NamedIndividual'));
});

test('search_entities listings: the own signature by type; implicit literal datatypes only for type=datatype', async () => {
  const XSD = 'http://www.w3.org/2001/XMLSchema#';
  const LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';
  const all = items(await ok('search_entities', { query: '' }));
  const datatypes = all.filter((i) => i.type === 'Datatype').map((i) => i.iri);
  assert.deepEqual(datatypes, [XSD + 'integer'], 'a datatype named by an axiom is listed, rdf:langString of the labels is not');
  assert.ok(all.every((i) => i.match_kind === 'wildcard' && i.needs_review === false));
  const onlyDatatypes = items(await ok('search_entities', { query: '**', type: 'datatype' }))
    .map((i) => i.iri)
    .sort();
  assert.deepEqual(onlyDatatypes, [LANG_STRING, XSD + 'integer']);
  const properties = await ok('search_entities', { query: '*', type: 'data_property' });
  assert.deepEqual([properties.type, items(properties).map((i) => i.iri)], ['data_property', [A + 'lives']]);
});

test('search_entities grounding: synonyms are review-only, any preferred label grounds, shared names collide', async () => {
  const synonym = await ok('search_entities', { query: 'kitty' });
  const [kitty] = items(synonym);
  assert.ok(kitty);
  assert.deepEqual([kitty.iri, kitty.match_source, kitty.matched_value, kitty.needs_review], [A + 'Cat', 'synonym', 'kitty', true]);
  assert.equal(kitty.matched_property, 'http://www.w3.org/2004/02/skos/core#altLabel');
  assert.equal(kitty.language, 'en');
  assert.equal(synonym.best_match, null);
  assert.equal(synonym.would_mint, true, 'a synonym hit never changes would_mint');
  assert.equal((synonym.reuse_candidate as Row).iri, A + 'Cat');

  // "gato" is a preferred label (@es, unlisted: −9) and a higher-scoring synonym (@en): the label still grounds
  const gato = await ok('search_entities', { query: 'gato' });
  assert.equal(at(items(gato), 0).match_source, 'synonym', 'the best-scoring evidence is shown');
  assert.deepEqual([gato.best_match, gato.would_mint, gato.reuse_candidate], [A + 'C001', false, null]);

  const jaguar = await ok('search_entities', { query: 'Jaguar' });
  assert.deepEqual([jaguar.best_match, jaguar.would_mint, jaguar.mint_blocked_by_collision], [null, false, true]);
  assert.deepEqual(jaguar.collisions, [{ name: 'Jaguar', iris: [A + 'Jaguar', A + 'JaguarCar'] }]);
  const colliding = items(jaguar).filter((i) => i.collision === true);
  assert.deepEqual(
    colliding.map((i) => `${i.iri} ${i.type}`),
    [`${A}Jaguar Class`, `${A}Jaguar NamedIndividual`, `${A}JaguarCar Class`],
  );
  for (const i of colliding) assert.deepEqual(i.collision_iris, [A + 'Jaguar', A + 'JaguarCar']);
});

test('search_entities mint rules: IRIs, CURIEs, expressions, several words and wildcards never mint', async () => {
  const byIri = await ok('search_entities', { query: A + 'Cat' });
  assert.deepEqual([byIri.best_match, byIri.would_mint], [A + 'Cat', false]);
  const byCurie = await ok('search_entities', { query: ':Cat' });
  assert.deepEqual([byCurie.best_match, byCurie.would_mint], [A + 'Cat', false]);
  const wrongCase = await ok('search_entities', { query: A.toUpperCase() + 'CAT' });
  assert.deepEqual([wrongCase.best_match, wrongCase.would_mint], [null, false], 'IRIs are case-sensitive');
  const unknownIri = await ok('search_entities', { query: A + 'Zebra' });
  assert.deepEqual([unknownIri.count, unknownIri.would_mint], [0, false]);
  for (const query of ['eats some animal', 'Cat and Animal', '(Zebra)', "'zebra'", 'Zeb*', '*', '', '   ', '\u0301']) {
    const r = await ok('search_entities', { query });
    assert.equal(r.would_mint, false, JSON.stringify(query));
    assert.equal(r.best_match, null, JSON.stringify(query));
  }
  const pattern = await ok('search_entities', { query: 'jag*' });
  assert.ok(items(pattern).every((i) => i.match_kind === 'wildcard'));
  assert.equal(pattern.mint_blocked_by_collision, false, 'a pattern grounds nothing');
  assert.equal((await ok('search_entities', { query: 'Zebra' })).would_mint, true);
});

test('search_entities pages a total order and validates its arguments', async () => {
  const all = await ok('search_entities', { query: 'a', limit: 5000 });
  const ranked = items(all);
  const key = (r: Row) => [-(r.score as number), r.display as string, r.iri as string] as const;
  for (let i = 1; i < ranked.length; i++) {
    const [p, q] = [key(at(ranked, i - 1)), key(at(ranked, i))];
    assert.ok(p[0] < q[0] || (p[0] === q[0] && (p[1] < q[1] || (p[1] === q[1] && p[2] <= q[2]))), `score desc, display, IRI at ${i}`);
  }
  const paged: Row[] = [];
  let offset: number | undefined = 0;
  while (offset !== undefined) {
    const page: Row = await ok('search_entities', { query: 'a', limit: 2, offset });
    assert.deepEqual([page.count, page.offset, page.returned], [all.count, offset, items(page).length]);
    paged.push(...items(page));
    offset = page.next_offset as number | undefined;
  }
  assert.deepEqual(paged, ranked, 'pages neither drop nor repeat');
  const cases: Row[] = [
    {},
    { query: 1 },
    { query: 'a', type: 'thing' },
    { query: 'a', limit: 0 },
    { query: 'a', offset: -1 },
    { query: 'a', limit: 1.5 },
    { query: 'a', lang: 'en' },
  ];
  for (const args of cases) assert.equal((await failed('search_entities', args)).error_code, 'invalid_argument', JSON.stringify(args));
});

test('get_ontology_context reports the selected reasoner, its results and staleness', async () => {
  const before = (await ok('get_ontology_context')).reasoner as Row;
  assert.deepEqual(before, {
    selected_id: 'auto',
    selected_name: 'Athene Automatic Reasoner 0.1.0',
    status: 'not_initialized',
    results_available: false,
  });
  await ok('set_reasoner', { reasoner: 'el' });
  const selected = (await ok('get_ontology_context')).reasoner as Row;
  assert.deepEqual(
    [selected.selected_id, selected.status, selected.results_available, selected.stale],
    ['el', 'not_initialized', false, undefined],
  );
  assert.match(selected.selected_name as string, /EL\+\+/);
  await ok('run_reasoner');
  const classified = (await ok('get_ontology_context')).reasoner as Row;
  assert.deepEqual([classified.status, classified.results_available, classified.stale], ['classified', true, undefined]);
  await ok('add_subclass_of', { child: 'Cat', parent: 'eats some Animal' });
  const stale = (await ok('get_ontology_context')).reasoner as Row;
  assert.deepEqual([stale.status, stale.results_available, stale.stale], ['out_of_sync', true, true]);
  await ok('undo_change');
  const context = await ok('get_ontology_context');
  assert.deepEqual(context.imports, ['http://example.org/alpha', 'http://example.org/zeta']);
  assert.deepEqual(context.active_ontology, {
    ontology_iri: 'http://example.org/audit',
    version_iri: 'http://example.org/audit/2.0',
    anonymous: false,
  });
  assert.equal((await failed('get_ontology_context', { limit: 0 })).error_code, 'invalid_argument');
});

test('get_axioms_for_entity and get_entity_context: datatype cards, ranges and ambiguous references', async () => {
  const integer = await ok('get_entity_context', { entity: 'xsd:integer' });
  assert.deepEqual(Object.keys(at(integer.entities as Row[], 0)).sort(), [
    'annotations',
    'deprecated',
    'display',
    'iri',
    'referencing_axioms',
    'type',
  ]);
  const tom = (await ok('get_entity_context', { entity: 'Tom' })).entities as Row[];
  assert.deepEqual(Object.keys(at(tom, 0)).sort(), [
    'annotations',
    'data_property_values',
    'deprecated',
    'different_from',
    'display',
    'iri',
    'object_property_values',
    'referencing_axioms',
    'same_as',
    'type',
    'types',
  ]);
  for (const args of [
    { entity: 'Tom', include_imports: 'no' },
    { entity: 'Tom', limit: 0 },
    { entity: 'Tom', offset: 1 },
  ]) {
    assert.equal((await failed('get_entity_context', args)).error_code, 'invalid_argument', JSON.stringify(args));
  }
  for (const args of [
    { entity: 'Tom', limit: 0 },
    { entity: 'Tom', offset: -1 },
    { entity: 'Tom', include_imports: 1 },
  ]) {
    assert.equal((await failed('get_axioms_for_entity', args)).error_code, 'invalid_argument', JSON.stringify(args));
  }
  const page = (await ok('get_axioms_for_entity', { entity: 'Tom', limit: 1 })).axioms as Row;
  assert.deepEqual([page.count, page.offset, page.returned, page.next_offset], [3, 0, 1, 1]);
  assert.deepEqual(Object.keys(at(page.items as Row[], 0)).sort(), ['axiom_type', 'rendering']);
});

test('authoring: applied means the axiom is present, and a shared name is an ambiguous reference', async () => {
  const added = await ok('add_subclass_of', { child: 'Cat', parent: 'Animal' });
  assert.deepEqual([added.applied, added.axiom], [true, 'cat SubClassOf animal']);
  assert.match(added.note as string, /already present/, 'the axiom was asserted before: no effect');
  const base = (await ok('get_active_ontology')).axioms;
  const calls: [string, Row, string][] = [
    ['add_subclass_of', { child: 'jaguar', parent: 'Animal' }, 'child'],
    ['add_subclass_of', { child: 'Cat', parent: 'jaguar and Animal' }, 'parent'],
    ['create_class', { name: 'Ocelot', parent: 'jaguar' }, 'parent'],
    ['add_annotation', { entity: 'jaguar', value: 'x' }, 'entity'],
    ['add_annotation', { entity: 'Cat', property: 'rdfs:seeAlso', value_iri: 'jaguar' }, 'value_iri'],
    ['set_label', { entity: 'jaguar', value: 'x' }, 'entity'],
  ];
  for (const [name, args] of calls) {
    const body = await failed(name, args);
    assert.equal(body.error_code, 'ambiguous_reference', `${name} ${JSON.stringify(args)}`);
    assert.deepEqual(body.candidates, [A + 'Jaguar', A + 'JaguarCar'], name);
  }
  const parse = await failed('add_subclass_of', { child: 'Cat', parent: 'Animal and (' });
  assert.equal(parse.error_code, 'invalid_argument');
  assert.match(parse.error as string, /parent/);
  assert.equal((await ok('get_active_ontology')).axioms, base, 'nothing was applied');
});

test('authoring: value_iri wins over value, set_label reaches a non-entity IRI, create_* identity rules', async () => {
  const both = await ok('add_annotation', { entity: 'Cat', property: 'rdfs:seeAlso', value: 'ignored', value_iri: 'Animal' });
  assert.equal(both.axiom, 'cat rdfs:seeAlso animal');
  const page = 'http://example.org/pages/cat';
  assert.deepEqual(await ok('set_label', { entity: page, value: 'Cat page', lang: 'en' }), {
    entity: page,
    label: 'Cat page',
    lang: 'en',
    removed_previous: 0,
  });
  const named = await ok('create_class', { name: 'Lynx', iri: 'http://example.org/other#Lynx' });
  assert.deepEqual(
    named.created,
    { iri: 'http://example.org/other#Lynx', display: 'Lynx', type: 'Class' },
    'iri wins; the name is still the label',
  );
  assert.equal(named.present, true);
  assert.equal(named.parent, undefined);
  const typed = await ok('create_entity', { entity_type: 'individual', name: 'felix', label: 'Felix', label_lang: 'en' });
  assert.deepEqual(typed.created, { iri: A + 'felix', display: 'Felix', type: 'NamedIndividual' });
  for (const args of [
    { entity_type: 'individual' },
    { entity_type: 'individual', name: 'x', label_lang: 'e n' },
    { entity_type: 'individual', name: 'x', parent: 'Cat' },
  ]) {
    assert.equal((await failed('create_entity', args)).error_code, 'invalid_argument', JSON.stringify(args));
  }
});

test('the explore tools need only ontology:read and run in read-only mode', async () => {
  const o = new Ontology();
  o.id = { iri: 'http://example.org/r', versionIri: null };
  o.add(declaration(cls('http://example.org/r#A')));
  const calls: [string, Row][] = [
    ['list_ontologies', {}],
    ['get_active_ontology', {}],
    ['search_entities', { query: 'A' }],
    ['get_entity', { entity: 'A' }],
  ];
  const reader = toolContext([o], principalWith(['ontology:read']), { read_only: true });
  const nobody = toolContext([o], principalWith(['ontology:curate']));
  for (const [name, args] of calls) {
    assert.equal((await runInContext(name, args, reader)).isError, false, name);
    const denied = (await runInContext(name, args, nobody)).body;
    assert.deepEqual(
      [denied.error_code, denied.missing_capabilities, denied.effects_prevented],
      ['authorization_denied', ['ontology:read'], true],
      name,
    );
  }
});

test('search_entities keeps the best 1,000 matches of a search and says how many it left out; listings are whole', async () => {
  await ok('load_ontology', { source: path.join(scratch, 'bulk.ttl'), keep_active: true });
  const capped = await ok('search_entities', { query: 'bulk', limit: 10 });
  assert.deepEqual([capped.count, capped.lexical_match_count, capped.lexical_candidates_truncated], [1000, BULK, BULK - 1000]);
  assert.equal(capped.next_offset, 10);
  const last = await ok('search_entities', { query: 'bulk', limit: 10, offset: 995 });
  assert.deepEqual([last.returned, last.next_offset], [5, undefined]);
  await ok('set_active_ontology', { ontology_iri: 'http://example.org/bulk' });
  try {
    const listing = await ok('search_entities', { query: '*', type: 'class', limit: 2000 });
    assert.deepEqual([listing.count, listing.returned, listing.lexical_match_count], [BULK, BULK, undefined]);
  } finally {
    await ok('set_active_ontology', { ontology_iri: 'http://example.org/audit' });
  }
});
