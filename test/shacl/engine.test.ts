import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ShaclEngine, ShaclFailure, type DataGraph } from '../../src/shacl/engine.js';
import { shaclReport } from '../../src/shacl/report.js';
import type { ShapesDocument, ShapesFormat } from '../../src/shacl/protocol.js';
import { at } from '../support/at.js';

const EX = 'http://ex.org/';
const RDF_TYPE = '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** People: ann is fine, bob has a string age, two ages and no name, cy is known by bob and has a name in German only. */
const DATA = [
  `<${EX}ann> ${RDF_TYPE} <${EX}Person> .`,
  `<${EX}ann> <${EX}age> "30"^^<${XSD}integer> .`,
  `<${EX}ann> <${EX}name> "Ann" .`,
  `<${EX}bob> ${RDF_TYPE} <${EX}Person> .`,
  `<${EX}bob> <${EX}age> "old" .`,
  `<${EX}bob> <${EX}age> "40"^^<${XSD}integer> .`,
  `<${EX}bob> <${EX}knows> <${EX}cy> .`,
  `<${EX}cy> ${RDF_TYPE} <${EX}Person> .`,
  `<${EX}cy> <${EX}name> "Cy"@de .`,
  `<${EX}cy> <${EX}age> "3"^^<${XSD}integer> .`,
  '',
].join('\n');

const PREFIXES = `@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix ex: <${EX}> . @prefix xsd: <${XSD}> .\n`;

const SHAPES = `${PREFIXES}
ex:PersonShape a sh:NodeShape ; sh:targetClass ex:Person ;
  sh:property ex:AgeShape, ex:NameShape, ex:KnownShape .
ex:AgeShape sh:path ex:age ; sh:datatype xsd:integer ; sh:maxCount 1 .
ex:NameShape sh:path ex:name ; sh:minCount 1 ; sh:datatype xsd:string ; sh:severity sh:Warning ;
  sh:message "needs a plain name"@en, "braucht einen Namen"@de .
ex:KnownShape sh:path [ sh:inversePath ex:knows ] ; sh:maxCount 0 ; sh:severity sh:Info ; sh:message "is known by someone" .
`;

const engine = new ShaclEngine();

function turtle(text: string, format: ShapesFormat = 'turtle'): ShapesDocument {
  return { text, format, origin: 'shapes' };
}

function data(text: string, key: string | null = null): DataGraph & { built: number } {
  const graph = {
    key,
    built: 0,
    documents: () => {
      graph.built++;
      return [text];
    },
  };
  return graph;
}

async function validate(shapes: ShapesDocument | ShapesDocument[], graph: DataGraph = data(DATA), language = 'en') {
  const results = await engine.validate({
    shapes: Array.isArray(shapes) ? shapes : [shapes],
    data: graph,
    language,
    timeoutMs: 60_000,
    signal: new AbortController().signal,
  });
  return shaclReport(results, 1000);
}

test('conforming data: no results, conforms, no worst severity', async () => {
  const r = await validate(
    turtle(`${PREFIXES} ex:S a sh:NodeShape ; sh:targetClass ex:Person ; sh:property [ sh:path ex:age ; sh:minCount 1 ] .`),
  );
  assert.deepEqual([r.conforms, r.total_results, r.violations, r.warnings, r.infos, r.worst_severity], [true, 0, 0, 0, 0, null]);
  assert.deepEqual(r.results, []);
});

test('violating data: every result with focus, path, value, severity, component, shape and message, in a total order', async () => {
  const r = await validate(turtle(SHAPES));
  assert.deepEqual([r.conforms, r.total_results, r.violations, r.warnings, r.infos, r.worst_severity], [false, 5, 2, 2, 1, 'Violation']);
  assert.deepEqual(r.results, [
    {
      focus_node: `${EX}bob`,
      result_path: `${EX}age`,
      value: null,
      severity: 'Violation',
      constraint_component: 'http://www.w3.org/ns/shacl#MaxCountConstraintComponent',
      source_shape: `${EX}AgeShape`,
      message: 'More than 1 values',
    },
    {
      focus_node: `${EX}bob`,
      result_path: `${EX}age`,
      value: '"old"',
      severity: 'Violation',
      constraint_component: 'http://www.w3.org/ns/shacl#DatatypeConstraintComponent',
      source_shape: `${EX}AgeShape`,
      message: `Value does not have datatype <${XSD}integer>`,
    },
    {
      focus_node: `${EX}bob`,
      result_path: `${EX}name`,
      value: null,
      severity: 'Warning',
      constraint_component: 'http://www.w3.org/ns/shacl#MinCountConstraintComponent',
      source_shape: `${EX}NameShape`,
      message: 'needs a plain name',
    },
    {
      focus_node: `${EX}cy`,
      result_path: `^<${EX}knows>`,
      value: null,
      severity: 'Info',
      constraint_component: 'http://www.w3.org/ns/shacl#MaxCountConstraintComponent',
      source_shape: `${EX}KnownShape`,
      message: 'is known by someone',
    },
    {
      focus_node: `${EX}cy`,
      result_path: `${EX}name`,
      value: '"Cy"@de',
      severity: 'Warning',
      constraint_component: 'http://www.w3.org/ns/shacl#DatatypeConstraintComponent',
      source_shape: `${EX}NameShape`,
      message: 'needs a plain name',
    },
  ]);
  const german = await validate(turtle(SHAPES), data(DATA), 'de');
  assert.equal(at(german.results, 2).message, 'braucht einen Namen', 'the message in the preferred language');
  assert.equal(german.identity_digest === r.identity_digest, false, 'the digest covers the messages');
});

test('the same input gives byte-identical results, blank nodes included; the digest covers results past the limit', async () => {
  const anonymous = `${PREFIXES} [] a sh:NodeShape ; sh:targetSubjectsOf ex:knows ; sh:property [ sh:path ( ex:knows ex:name ) ; sh:minCount 1 ; sh:datatype xsd:string ] .`;
  const withBlank = `${DATA}_:x <${EX}knows> _:y .\n_:y <${EX}name> "Y"@en .\n`;
  const first = await validate(turtle(anonymous), data(withBlank));
  const second = await validate(turtle(anonymous), data(withBlank));
  assert.equal(JSON.stringify(second), JSON.stringify(first));
  assert.ok(
    first.results.some((x) => x.focus_node.startsWith('_:')),
    JSON.stringify(first.results),
  );
  assert.ok(
    first.results.every((x) => x.result_path === `<${EX}knows>/<${EX}name>`),
    'a sequence path in property-path syntax',
  );
  assert.ok(
    first.results.every((x) => x.source_shape.startsWith('_:')),
    'anonymous shapes by stable blank labels',
  );
  const capped = shaclReport(
    await engine.validate({
      shapes: [turtle(SHAPES)],
      data: data(DATA),
      language: 'en',
      timeoutMs: 60_000,
      signal: new AbortController().signal,
    }),
    2,
  );
  const full = await validate(turtle(SHAPES));
  assert.deepEqual([capped.results.length, capped.truncated, capped.total_results], [2, 3, 5]);
  assert.deepEqual(capped.results, full.results.slice(0, 2));
  assert.equal(capped.identity_digest, full.identity_digest);
});

test('shapes in N-Triples, TriG, JSON-LD and RDF/XML validate like the Turtle they were written from', async () => {
  const sh = 'http://www.w3.org/ns/shacl#';
  const nt = [
    `<${EX}S> <${sh}targetClass> <${EX}Person> .`,
    `<${EX}S> <${sh}property> _:p .`,
    `_:p <${sh}path> <${EX}age> .`,
    `_:p <${sh}maxCount> "1"^^<${XSD}integer> .`,
  ].join('\n');
  const jsonld = JSON.stringify({
    '@id': `${EX}S`,
    [`${sh}targetClass`]: { '@id': `${EX}Person` },
    [`${sh}property`]: { [`${sh}path`]: { '@id': `${EX}age` }, [`${sh}maxCount`]: { '@value': '1', '@type': `${XSD}integer` } },
  });
  const rdfxml = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:sh="${sh}">
  <rdf:Description rdf:about="${EX}S">
    <sh:targetClass rdf:resource="${EX}Person"/>
    <sh:property><rdf:Description><sh:path rdf:resource="${EX}age"/><sh:maxCount rdf:datatype="${XSD}integer">1</sh:maxCount></rdf:Description></sh:property>
  </rdf:Description>
</rdf:RDF>`;
  const expected = await validate(turtle(nt, 'ntriples'));
  assert.equal(expected.total_results, 1);
  assert.equal(at(expected.results, 0).focus_node, `${EX}bob`);
  for (const [text, format] of [
    [`<${EX}g> { ${nt} }`, 'trig'],
    [jsonld, 'jsonld'],
    [rdfxml, 'rdfxml'],
    [nt, 'nquads'],
  ] as const) {
    const r = await validate(turtle(text, format));
    assert.deepEqual(
      r.results.map((x) => ({ ...x, source_shape: '' })),
      expected.results.map((x) => ({ ...x, source_shape: '' })),
      format,
    );
  }
});

test('several shapes documents form one shapes graph', async () => {
  const age = turtle(`${PREFIXES} ex:S a sh:NodeShape ; sh:targetClass ex:Person ; sh:property ex:P .`);
  const rule = { ...turtle(`${PREFIXES} ex:P sh:path ex:age ; sh:maxCount 1 .`), origin: 'second' };
  assert.equal((await validate([age, rule])).total_results, 1);
});

test('SPARQL-based constraints run', async () => {
  const shapes = `${PREFIXES} ex:Young a sh:NodeShape ; sh:targetClass ex:Person ;
    sh:sparql [ sh:message "too young: {?age}" ; sh:select """SELECT $this ?age WHERE { $this <${EX}age> ?age . FILTER(?age < 18) }""" ] .`;
  const r = await validate(turtle(shapes));
  assert.equal(r.total_results, 1);
  assert.deepEqual(
    [at(r.results, 0).focus_node, at(r.results, 0).constraint_component],
    [`${EX}cy`, 'http://www.w3.org/ns/shacl#SPARQLConstraintComponent'],
  );
  assert.match(at(r.results, 0).message, /^too young: "3"/);
});

async function refusal(shapes: ShapesDocument): Promise<ShaclFailure> {
  const err = await validate(shapes).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(err instanceof ShaclFailure, String(err));
  return err;
}

test('bad shapes are precise errors: syntax with the line, no shapes at all, an invalid pattern', async () => {
  const syntax = await refusal({
    ...turtle(`${PREFIXES}\nex:S a sh:NodeShape ;\n  sh:targetClass ex:Person ;\n  sh:property [ sh:path ex:age ; sh:maxCount 1 .\n`),
    origin: '/p/shapes.ttl',
  });
  assert.equal(syntax.reason, 'shapes');
  assert.match(syntax.message, /^\/p\/shapes\.ttl: the SHACL shapes \(turtle\) do not parse: line 5: /);
  const prefix = await refusal(turtle('ex:S a ex:T .'));
  assert.match(prefix.message, /line 1: Undefined prefix "ex:"/);
  const none = await refusal(turtle(`<${EX}a> <${EX}b> <${EX}c> .`));
  assert.match(none.message, /declares no SHACL shapes/);
  const json = await refusal(turtle('{"@id": ', 'jsonld'));
  assert.match(json.message, /jsonld\) do not parse: line 1/);
  const xml = await refusal(turtle('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description>', 'rdfxml'));
  assert.match(xml.message, /rdfxml\) do not parse: .*not closed/);
  const pattern = await refusal(turtle(`${PREFIXES} ex:S sh:targetClass ex:Person ; sh:property [ sh:path ex:name ; sh:pattern "(" ] .`));
  assert.match(pattern.message, /regular expression/i);
});

test('the data graph is reused while its key is unchanged and rebuilt for a new key', async () => {
  const graph = data(DATA, 'state-1');
  await validate(turtle(SHAPES), graph);
  await validate(turtle(SHAPES), graph);
  assert.equal(graph.built, 1);
  const next = data(DATA.replace('"old"', '"41"^^<http://www.w3.org/2001/XMLSchema#integer>'), 'state-2');
  assert.equal((await validate(turtle(SHAPES), next)).violations, 1, 'the new state is judged');
  assert.equal(next.built, 1);
});

test('a validation that outlives timeout_ms fails with timeout and the next call runs on a fresh thread', async () => {
  // Enough focus nodes and a recursive path that a 1 ms bound cannot be met.
  const lines: string[] = [];
  for (let i = 0; i < 20_000; i++) lines.push(`<${EX}n${i}> <${EX}next> <${EX}n${i + 1}> .`);
  const chain = `${PREFIXES} ex:S sh:targetSubjectsOf ex:next ; sh:property [ sh:path [ sh:oneOrMorePath ex:next ] ; sh:minCount 1 ] .`;
  const err = await engine
    .validate({ shapes: [turtle(chain)], data: data(lines.join('\n')), language: 'en', timeoutMs: 1, signal: new AbortController().signal })
    .then(
      () => null,
      (e: unknown) => e,
    );
  assert.ok(err instanceof ShaclFailure && err.reason === 'timeout', String(err));
  assert.equal((await validate(turtle(SHAPES))).total_results, 5);
});

test('a cancelled call stops with cancelled', async () => {
  const controller = new AbortController();
  controller.abort();
  const err = await engine
    .validate({ shapes: [turtle(SHAPES)], data: data(DATA), language: 'en', timeoutMs: 60_000, signal: controller.signal })
    .then(
      () => null,
      (e: unknown) => e,
    );
  assert.ok(err instanceof ShaclFailure && err.reason === 'cancelled', String(err));
});
