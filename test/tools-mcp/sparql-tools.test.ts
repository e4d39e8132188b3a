// The SPARQL tools through the real server: sparql_query (every form, binding shapes, limit, auto-prefixes,
// refusals of UPDATE and SERVICE, syntax errors, inferred triples, a query after an edit sees the edit),
// sparql_validate (validity as a result, unknown terms, dry run) and verify_ontology (violations, gate,
// per-item errors) and sparql_schema (vocabulary, keyword filter, limits, examples that run).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveTempOntology, call, callOk, type ServedTempOntology, type Row } from '../server/support.js';
import { at } from '../support/at.js';

const EX = 'http://example.org/zoo#';
const TTL = `@prefix : <${EX}> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<http://example.org/zoo> a owl:Ontology .
:Animal a owl:Class ; rdfs:label "animal"@en .
:Dog a owl:Class ; rdfs:subClassOf :Animal ; rdfs:label "dog" .
:Puppy a owl:Class ; rdfs:subClassOf :Dog .
:age a owl:DatatypeProperty ; rdfs:range xsd:integer .
:likes a owl:ObjectProperty ; rdfs:domain :Animal ; rdfs:range :Animal .
:rex a owl:NamedIndividual , :Puppy ; :age "2"^^xsd:integer .
`;

let s: ServedTempOntology;

before(async () => {
  s = await serveTempOntology('athene-sparql-', 'zoo.ttl', TTL);
});

after(async () => {
  await s.close();
});

const failure = async (tool: string, args: Row): Promise<Row> => {
  const r = await call(s.c, tool, args);
  assert.equal(r.isError, true, JSON.stringify(r.body));
  return r.body;
};

test('SELECT returns vars, count and typed bindings, with the ontology prefixes predeclared', async () => {
  const r = await callOk(s.c, 'sparql_query', { query: 'SELECT ?c ?label WHERE { ?c a owl:Class ; rdfs:label ?label } ORDER BY ?c' });
  assert.equal(r.query_type, 'SELECT');
  assert.deepEqual(r.vars, ['c', 'label']);
  assert.equal(r.count, 2);
  assert.deepEqual(r.bindings, [
    { c: { type: 'uri', value: `${EX}Animal` }, label: { type: 'literal', value: 'animal', lang: 'en' } },
    { c: { type: 'uri', value: `${EX}Dog` }, label: { type: 'literal', value: 'dog' } },
  ]);
  assert.equal(r.truncated, undefined);
  const typed = await callOk(s.c, 'sparql_query', { query: 'SELECT ?age WHERE { :rex :age ?age }' });
  assert.deepEqual(typed.bindings, [{ age: { type: 'literal', value: '2', datatype: 'http://www.w3.org/2001/XMLSchema#integer' } }]);
});

test('limit bounds the rows and truncated counts the rest', async () => {
  const r = await callOk(s.c, 'sparql_query', { query: 'SELECT ?s ?p ?o WHERE { ?s ?p ?o }', limit: 2 });
  assert.equal((r.bindings as Row[]).length, 2);
  assert.equal(r.truncated, (r.count as number) - 2);
  const all = await callOk(s.c, 'sparql_query', { query: 'SELECT ?s ?p ?o WHERE { ?s ?p ?o }', limit: 0 });
  assert.equal((all.bindings as Row[]).length, all.count);
});

test('ASK answers a boolean; CONSTRUCT answers sorted triples cut at limit', async () => {
  assert.equal((await callOk(s.c, 'sparql_query', { query: 'ASK { :Puppy rdfs:subClassOf :Dog }' })).boolean, true);
  assert.equal((await callOk(s.c, 'sparql_query', { query: 'ASK { :Puppy rdfs:subClassOf :Animal }' })).boolean, false);
  const q = 'CONSTRUCT { ?c rdfs:subClassOf ?d } WHERE { ?c rdfs:subClassOf ?d }';
  const full = await callOk(s.c, 'sparql_query', { query: q });
  assert.equal(full.query_type, 'CONSTRUCT');
  assert.equal(full.count, 2);
  assert.equal(
    full.turtle,
    `<${EX}Dog> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <${EX}Animal> .\n<${EX}Puppy> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <${EX}Dog> .\n`,
  );
  const cut = await callOk(s.c, 'sparql_query', { query: q, limit: 1 });
  assert.equal(cut.truncated, 1);
  assert.equal(cut.shown, 1);
  assert.equal(cut.turtle, (full.turtle as string).split('\n')[0] + '\n');
  const described = await callOk(s.c, 'sparql_query', { query: 'DESCRIBE :rex' });
  assert.equal(described.query_type, 'DESCRIBE');
  assert.match(described.turtle as string, /<http:\/\/example\.org\/zoo#rex> <http:\/\/example\.org\/zoo#age> "2"/);
});

test('UPDATE, SERVICE and syntax errors are refused with precise codes, before evaluation', async () => {
  const update = await failure('sparql_query', { query: 'INSERT DATA { :x a owl:Class }' });
  assert.equal(update.error_code, 'forbidden_query_form');
  const mixed = await failure('sparql_query', { query: 'SELECT * { ?s ?p ?o } ; DELETE WHERE { ?s ?p ?o }' });
  assert.equal(mixed.error_code, 'forbidden_query_form');
  const service = await failure('sparql_query', { query: 'SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }' });
  assert.equal(service.error_code, 'service_not_allowed');
  const syntax = await failure('sparql_query', { query: 'SELECT ?s WHERE {\n ?s ?p }' });
  assert.equal(syntax.error_code, 'parse_error');
  assert.match(syntax.error as string, /^SPARQL syntax error at line 2, column \d+: expected /);
  // the grammar's character classes are not dumped: one short sentence
  const dump = await failure('sparql_query', { query: 'SELECT ?x WHERE { ?x ' });
  assert.doesNotMatch(dump.error as string, /\\u\{|\n|'A' \.\.=/);
  assert.match(dump.error as string, /^SPARQL syntax error at line 1, column 22: expected one of "!", .* or \d+ more$/);
  assert.ok((dump.error as string).length < 200, dump.error as string);
  // The ontology is unchanged by the refused UPDATE.
  assert.equal((await callOk(s.c, 'sparql_query', { query: 'ASK { :x ?p ?o }' })).boolean, false);
  const bad = await failure('sparql_query', { query: 'ASK {}', limit: 1.5 });
  assert.equal(bad.error_code, 'invalid_argument');
});

test('a query after an edit, and after its undo, sees the current model', async () => {
  const q = { query: 'ASK { :Cat rdfs:subClassOf :Animal }' };
  assert.equal((await callOk(s.c, 'sparql_query', q)).boolean, false);
  await callOk(s.c, 'add_subclass_of', { child: `${EX}Cat`, parent: 'Animal' });
  assert.equal((await callOk(s.c, 'sparql_query', q)).boolean, true);
  await callOk(s.c, 'undo_change');
  assert.equal((await callOk(s.c, 'sparql_query', q)).boolean, false);
});

test('a prefix added to the ontology is predeclared in the next query; a query PREFIX overrides it', async () => {
  const q = 'SELECT ?c WHERE { ?c rdfs:subClassOf zz:Dog }';
  assert.equal((await failure('sparql_query', { query: q })).error_code, 'parse_error');
  await callOk(s.c, 'set_prefix', { prefix: 'zz', namespace: EX });
  assert.deepEqual((await callOk(s.c, 'sparql_query', { query: q })).bindings, [{ c: { type: 'uri', value: `${EX}Puppy` } }]);
  assert.equal((await callOk(s.c, 'sparql_query', { query: `PREFIX zz: <http://elsewhere/> ${q}` })).count, 0);
  await callOk(s.c, 'remove_prefix', { prefix: 'zz' });
});

test('include_inferred needs a classification and then adds the inferred taxonomy and types', async () => {
  const q = { query: 'ASK { :rex a :Animal . :Puppy rdfs:subClassOf :Animal }', include_inferred: true };
  assert.equal((await failure('sparql_query', q)).error_code, 'reasoner_not_ready', 'auto is selected from the start, not yet run');
  await callOk(s.c, 'set_reasoner', { reasoner: 'el' });
  assert.equal((await failure('sparql_query', q)).error_code, 'reasoner_not_ready');
  await callOk(s.c, 'run_reasoner');
  const r = await callOk(s.c, 'sparql_query', q);
  assert.equal(r.boolean, true);
  assert.match(r.note as string, /materialized/);
  assert.equal((await callOk(s.c, 'sparql_query', { ...q, include_inferred: false })).boolean, false);
});

test('sparql_validate reports validity, form, vars and unknown terms as a result', async () => {
  const ok = await callOk(s.c, 'sparql_validate', { query: 'SELECT ?x WHERE { ?x a :Dog , :Unicorn ; rdfs:label ?l }' });
  assert.equal(ok.valid, true);
  assert.equal(ok.query_type, 'SELECT');
  assert.equal(ok.executable, true);
  assert.deepEqual(ok.vars, ['x']);
  assert.equal(ok.uses_service, false);
  assert.deepEqual(ok.unknown_terms, [{ curie: ':Unicorn', iri: `${EX}Unicorn` }]);
  const broken = await callOk(s.c, 'sparql_validate', { query: 'SELECT ?x WHERE { ?x a }' });
  assert.equal(broken.valid, false);
  assert.equal(broken.executable, false);
  assert.match(broken.parse_error as string, /^line 1, column 25: expected /);
  const update = await callOk(s.c, 'sparql_validate', { query: 'DELETE WHERE { ?s ?p ?o }' });
  assert.equal(update.valid, true);
  assert.equal(update.query_type, 'UPDATE');
  assert.equal(update.executable, false);
  const service = await callOk(s.c, 'sparql_validate', { query: 'SELECT * { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }' });
  assert.equal(service.valid, true);
  assert.equal(service.uses_service, true);
  assert.equal(service.executable, false);
  const dry = await callOk(s.c, 'sparql_validate', {
    query: 'SELECT ?c WHERE { ?c a owl:Class } ORDER BY ?c',
    dry_run: true,
    sample_limit: 1,
  });
  assert.deepEqual(dry.sample, {
    query_type: 'SELECT',
    vars: ['c'],
    count: 3,
    bindings: [{ c: { type: 'uri', value: `${EX}Animal` } }],
    truncated: 2,
  });
});

test('verify_ontology reports violations per invariant and gates on fail_on', async () => {
  const queries = [
    { id: 'labelled', sparql: 'SELECT ?c WHERE { ?c a owl:Class FILTER NOT EXISTS { ?c rdfs:label ?l } }', severity: 'warn' },
    { sparql: 'ASK { ?x a :Dog }', message: 'No individual may be asserted a Dog.' },
    { sparql: 'ASK { ?x a :Cat }' },
  ];
  const r = await callOk(s.c, 'verify_ontology', { queries });
  assert.equal(r.checked, 3);
  assert.equal(r.violations, 1);
  assert.equal(r.errors, 0);
  assert.equal(r.gate, 'pass');
  const rows = r.invariants as Row[];
  assert.deepEqual(rows[0], {
    id: 'labelled',
    severity: 'warn',
    message: "Invariant 'labelled' violated.",
    violated: true,
    violation_count: 1,
    violations: [{ c: { type: 'uri', value: `${EX}Puppy` } }],
  });
  assert.deepEqual(rows[1], { id: 'invariant-2', severity: 'error', message: 'No individual may be asserted a Dog.', violated: false });
  assert.equal((await callOk(s.c, 'verify_ontology', { queries, fail_on: 'warn' })).gate, 'fail');
  assert.equal(
    (
      await callOk(s.c, 'verify_ontology', {
        queries: [{ sparql: 'ASK { :Puppy rdfs:subClassOf :Dog }', severity: 'info' }],
        fail_on: 'info',
      })
    ).gate,
    'fail',
  );
});

test('verify_ontology: an item that cannot run is an error that fails the gate; profile and duplicate ids fail', async () => {
  const r = await callOk(s.c, 'verify_ontology', {
    fail_on: 'none',
    queries: [
      { sparql: 'CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }' },
      { sparql: 'SELECT * WHERE { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }' },
      { sparql: 'SELECT ?x WHERE {' },
      { sparql: 'DROP ALL' },
      { sparql: 'ASK { ?x a :Dog }' },
    ],
  });
  assert.equal(r.errors, 4);
  assert.equal(r.gate, 'fail');
  const rows = r.invariants as Row[];
  assert.match(at(rows, 0).error as string, /CONSTRUCT/);
  assert.match(at(rows, 1).error as string, /SERVICE/);
  assert.match(at(rows, 2).error as string, /syntax/);
  assert.match(at(rows, 3).error as string, /UPDATE/);
  assert.equal(at(rows, 4).error, undefined);
  assert.equal((await failure('verify_ontology', { queries: [{ sparql: 'ASK {}' }], profile: 'release' })).error_code, 'profile_not_found');
  assert.equal(
    (
      await failure('verify_ontology', {
        queries: [
          { sparql: 'ASK {}', id: 'a' },
          { sparql: 'ASK {}', id: 'a' },
        ],
      })
    ).error_code,
    'invalid_argument',
  );
  assert.equal((await failure('verify_ontology', { queries: [] })).error_code, 'invalid_argument');
});

test('a query that outlives timeout_ms fails with timeout, and the next query runs on a fresh engine', async () => {
  const slow = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n1 ?o . ?q ?r ?t . ?u ?v ?w . ?x ?y ?z }';
  const r = await failure('sparql_query', { query: slow, timeout_ms: 200 });
  assert.equal(r.error_code, 'timeout');
  assert.match(r.error as string, /timeout_ms/);
  assert.equal((await callOk(s.c, 'sparql_query', { query: 'ASK { :Puppy rdfs:subClassOf :Dog }' })).boolean, true);
  // The bound is per invariant and covers starting the fresh engine (thread, store, snapshot) the second item
  // needs: 3 s did not hold at load 20 on 2 cores, 10 s does. The slow query never ends, so any bound times it out.
  const v = await callOk(s.c, 'verify_ontology', { queries: [{ sparql: slow }, { sparql: 'ASK { :rex a :Puppy }' }], timeout_ms: 10_000 });
  assert.equal(v.errors, 1);
  assert.equal(v.gate, 'fail');
  assert.match(at(v.invariants as Row[], 0).error as string, /timeout_ms/);
  assert.equal(at(v.invariants as Row[], 1).violated, true);
});

test('sparql_schema lists the vocabulary with CURIEs, domains, ranges and types, and its examples run', async () => {
  const r = await callOk(s.c, 'sparql_schema');
  assert.deepEqual(r.active_ontology, { ontology_iri: 'http://example.org/zoo', version_iri: null, scope: 'imports_closure' });
  assert.deepEqual(r.counts, { classes: 3, object_properties: 1, data_properties: 1, individuals: 1, datatypes: 0 });
  assert.deepEqual(r.classes, [
    { curie: ':Animal', iri: `${EX}Animal`, display: 'animal' },
    { curie: ':Dog', iri: `${EX}Dog`, display: 'dog' },
    { curie: ':Puppy', iri: `${EX}Puppy`, display: 'Puppy' },
  ]);
  const animal = { curie: ':Animal', iri: `${EX}Animal`, display: 'animal' };
  assert.deepEqual(r.object_properties, [{ curie: ':likes', iri: `${EX}likes`, display: 'likes', domains: [animal], ranges: [animal] }]);
  assert.deepEqual(at(r.data_properties as Row[], 0).ranges, [
    { curie: 'xsd:integer', iri: 'http://www.w3.org/2001/XMLSchema#integer', display: 'xsd:integer' },
  ]);
  assert.deepEqual(at(r.individuals as Row[], 0).types, [{ curie: ':Puppy', iri: `${EX}Puppy`, display: 'Puppy' }]);
  assert.equal((r.prefixes as Row).owl, 'http://www.w3.org/2002/07/owl#');
  assert.match(r.prefix_lines as string, /^PREFIX : <http:\/\/example\.org\/zoo#>$/m);
  for (const ex of r.examples as { title: string; query: string }[]) {
    assert.equal((await call(s.c, 'sparql_query', { query: ex.query })).isError, false, ex.title);
  }
  const dogs = await callOk(s.c, 'sparql_schema', { keyword: 'DOG', limit: 1, include_individuals: false, include_examples: false });
  assert.equal(dogs.keyword, 'DOG');
  assert.deepEqual(dogs.matched, { classes: 1, object_properties: 0, data_properties: 0, individuals: 0, datatypes: 0 });
  assert.deepEqual(dogs.classes, [{ curie: ':Dog', iri: `${EX}Dog`, display: 'dog' }]);
  assert.deepEqual(dogs.examples, []);
  const capped = await callOk(s.c, 'sparql_schema', { limit: 2 });
  assert.equal((capped.classes as Row[]).length, 2);
  assert.deepEqual(capped.truncated, { classes: 1 });
  assert.equal((await failure('sparql_schema', { limit: 'x' })).error_code, 'invalid_argument');
});
