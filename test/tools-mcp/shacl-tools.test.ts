// SHACL through the real server and SDK client: shacl_validate over the imports closure (inline shapes and
// shape files, inferences, limits, every argument error, path authorization), the `shacl` stage of
// run_qc_suite's inline branch, and a project policy whose required `shacl` stage gates pass or fail.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, callOk, principalWith, serveTempOntology, withProjectPolicy, type Row, type ServedTempOntology } from '../server/support.js';
import { runInContext, toolContext } from '../support/tool-context.js';
import { loadOntologyFile } from '../../src/model/io.js';
import { at } from '../support/at.js';

const ZOO = 'http://example.org/zoo#';

// rex is a Dog (so an Animal only by inference); tom is an Animal with a string age.
const ONTOLOGY = `@prefix : <${ZOO}> .
@prefix owl:  <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd:  <http://www.w3.org/2001/XMLSchema#> .

<http://example.org/zoo> a owl:Ontology .
:Animal a owl:Class ; rdfs:label "animal"@en .
:Dog a owl:Class ; rdfs:subClassOf :Animal ; rdfs:label "dog"@en .
:age a owl:DatatypeProperty ; rdfs:label "age"@en .
:rex a owl:NamedIndividual, :Dog ; rdfs:label "Rex"@en ; :age "4"^^xsd:integer .
:tom a owl:NamedIndividual, :Animal ; rdfs:label "Tom"@en ; :age "old" .
`;

const SHAPES = `@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix : <${ZOO}> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
:AnimalShape a sh:NodeShape ; sh:targetClass :Animal ;
  sh:property [ sh:path :age ; sh:datatype xsd:integer ; sh:message "age must be an integer" ] ;
  sh:property [ sh:path :name ; sh:minCount 1 ; sh:severity sh:Warning ] .
`;

let served: ServedTempOntology;
let dir: string;
let c: Client;
let shapesFile: string;

before(async () => {
  served = await serveTempOntology('athene-shacl-tools-', 'zoo.ttl', ONTOLOGY);
  ({ dir, c } = served);
  shapesFile = path.join(dir, 'shapes.ttl');
  await writeFile(shapesFile, SHAPES);
});
after(() => served.close());

const results = (r: Row) => r.results as Row[];

test('shacl_validate: asserted closure against inline Turtle shapes', async () => {
  const r = await callOk(c, 'shacl_validate', { shapes: SHAPES });
  assert.deepEqual([r.conforms, r.total_results, r.violations, r.warnings, r.infos, r.worst_severity], [false, 2, 1, 1, 0, 'Violation']);
  assert.match(r.identity_digest as string, /^sha256:[0-9a-f]{64}$/);
  assert.equal('truncated' in r, false);
  const [violation, warning] = results(r);
  assert.ok(warning);
  assert.ok(violation);
  assert.deepEqual(violation, {
    focus_node: `${ZOO}tom`,
    result_path: `${ZOO}age`,
    value: '"old"',
    severity: 'Violation',
    constraint_component: 'http://www.w3.org/ns/shacl#DatatypeConstraintComponent',
    source_shape: violation.source_shape,
    message: 'age must be an integer',
  });
  assert.match(violation.source_shape as string, /^_:/);
  assert.deepEqual([warning.focus_node, warning.result_path, warning.severity], [`${ZOO}tom`, `${ZOO}name`, 'Warning']);
  assert.equal(
    JSON.stringify(await callOk(c, 'shacl_validate', { shapes: SHAPES })),
    JSON.stringify(r),
    'unchanged state, byte-identical result',
  );
});

test('shacl_validate: a shapes file gives the same report; limit caps rows, never counts or digest', async () => {
  const inline = await callOk(c, 'shacl_validate', { shapes: SHAPES });
  const file = await callOk(c, 'shacl_validate', { shapes_path: shapesFile });
  assert.deepEqual(file, inline);
  const capped = await callOk(c, 'shacl_validate', { shapes_path: shapesFile, limit: 1 });
  assert.deepEqual(
    [results(capped).length, capped.truncated, capped.total_results, capped.identity_digest],
    [1, 1, 2, inline.identity_digest],
  );
  assert.deepEqual(results(capped)[0], results(inline)[0]);
});

test('shacl_validate sees edits at once and validates the whole imports closure', async () => {
  await callOk(c, 'add_axiom', {
    axiom_type: 'data_property_assertion',
    subject: 'Tom',
    property: 'age',
    value: '7',
    datatype: 'xsd:integer',
  });
  try {
    const r = await callOk(c, 'shacl_validate', { shapes: SHAPES });
    assert.equal(r.total_results, 2, 'the string age is still there');
  } finally {
    await callOk(c, 'undo_change');
  }
  const pets = path.join(dir, 'pets.ttl');
  await writeFile(
    pets,
    `@prefix : <${ZOO}> . @prefix owl: <http://www.w3.org/2002/07/owl#> .
<http://example.org/pets> a owl:Ontology .
:fido a owl:NamedIndividual, :Animal ; :age "young" .
`,
  );
  await callOk(c, 'add_import', { iri: 'http://example.org/pets', document: pets });
  try {
    const r = await callOk(c, 'shacl_validate', { shapes: SHAPES });
    assert.deepEqual(
      results(r)
        .filter((x) => x.severity === 'Violation')
        .map((x) => x.focus_node),
      [`${ZOO}fido`, `${ZOO}tom`],
      'the imported individual too',
    );
  } finally {
    await callOk(c, 'undo_change');
  }
  const extra = `@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix owl: <http://www.w3.org/2002/07/owl#> .
    [] sh:targetClass owl:Ontology ; sh:property [ sh:path owl:versionIRI ; sh:minCount 1 ; sh:severity sh:Info ] .`;
  const header = await callOk(c, 'shacl_validate', { shapes: extra });
  assert.deepEqual([header.infos, at(results(header), 0).focus_node], [1, 'http://example.org/zoo'], 'the ontology header is RDF too');
});

test('shacl_validate argument errors are precise failures', async () => {
  const cases: [Row, string, RegExp][] = [
    [{}, 'invalid_argument', /exactly one of shapes/],
    [{ shapes: SHAPES, shapes_path: shapesFile }, 'invalid_argument', /exactly one of shapes/],
    [{ shapes_path: 'https://example.org/shapes.ttl' }, 'invalid_argument', /URLs are refused/],
    [{ shapes_path: path.join(dir, 'absent.ttl') }, 'not_found', /absent\.ttl is not a readable file/],
    [{ shapes_path: served.file.replace(/\.ttl$/, '.shex') }, 'invalid_argument', /unknown shapes file extension/],
    [
      { shapes: '@prefix sh: <http://www.w3.org/ns/shacl#> .\n:S a sh:NodeShape .' },
      'invalid_argument',
      /shapes: the SHACL shapes \(turtle\) do not parse: line 2: Undefined prefix/,
    ],
    [{ shapes: `<${ZOO}a> <${ZOO}b> <${ZOO}c> .` }, 'invalid_argument', /declares no SHACL shapes/],
    [{ shapes: SHAPES, limit: -1 }, 'invalid_argument', /limit/],
    [{ shapes: SHAPES, timeout_ms: 0 }, 'invalid_argument', /timeout_ms/],
    [{ shapes: SHAPES, bogus: true }, 'invalid_argument', /bogus/],
  ];
  for (const [args, code, message] of cases) {
    const r = await call(c, 'shacl_validate', args);
    assert.equal(r.isError, true, JSON.stringify(args));
    assert.equal(r.body.error_code, code, `${JSON.stringify(args)}: ${JSON.stringify(r.body)}`);
    assert.match(r.body.error as string, message, JSON.stringify(args));
  }
});

test('a shapes file needs filesystem:project:read, and under a policy it must lie in the project root', async () => {
  const o = await loadOntologyFile(served.file);
  const ctx = toolContext([o], principalWith(['ontology:read']));
  assert.equal((await runInContext('shacl_validate', { shapes: SHAPES }, ctx)).isError, false, 'inline shapes need only ontology:read');
  const denied = await runInContext('shacl_validate', { shapes_path: shapesFile }, ctx);
  assert.equal(denied.body.error_code, 'authorization_denied');
  assert.deepEqual(denied.body.missing_capabilities, ['filesystem:project:read']);
  const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'athene-shacl-elsewhere-'));
  try {
    await writeFile(path.join(elsewhere, 'shapes.ttl'), SHAPES);
    await withProjectPolicy(dir, 'version: 1\nproject_id: zoo\nroot_ontology: http://example.org/zoo\n', async () => {
      const outside = await call(c, 'shacl_validate', { shapes_path: path.join(elsewhere, 'shapes.ttl') });
      assert.equal(outside.body.error_code, 'authorization_denied');
      assert.match(outside.body.error as string, /outside the project root/);
      assert.equal((await callOk(c, 'shacl_validate', { shapes_path: shapesFile })).total_results, 2, 'inside the root is fine');
    });
  } finally {
    await rm(elsewhere, { recursive: true, force: true });
  }
});

const stageOf = (r: Row, stage: string) => (r.stages as Row[]).find((s) => s.stage === stage)!;

test('run_qc_suite: inline shapes or a shapes file run the shacl stage; violations fail the gate', async () => {
  const inline = await callOk(c, 'run_qc_suite', { stages: ['profile'], shacl_shapes: SHAPES });
  assert.equal(inline.gate, 'fail');
  const stage = stageOf(inline, 'shacl');
  assert.deepEqual([stage.ran, stage.verdict, stage.findings_summary], [true, 'fail', { total: 2, error: 1, warn: 1, info: 0 }]);
  const shaclFindings = (inline.findings as Row[]).filter((f) => f.source === 'shacl');
  assert.deepEqual(
    shaclFindings.map((f) => [f.severity, f.rule_id, f.focus_iri]),
    [
      ['error', 'shacl.DatatypeConstraintComponent', `${ZOO}tom`],
      ['warn', 'shacl.MinCountConstraintComponent', `${ZOO}tom`],
    ],
  );
  const file = await callOk(c, 'run_qc_suite', { stages: ['profile'], shacl_shapes_path: shapesFile });
  assert.equal(file.identity_digest, inline.identity_digest);
  const lenient = await callOk(c, 'run_qc_suite', { stages: [], shacl_shapes: SHAPES, fail_on: 'none' });
  assert.equal(lenient.gate, 'pass');
  const broken = await callOk(c, 'run_qc_suite', { stages: [], shacl_shapes: '@prefix sh: <http://www.w3.org/ns/shacl#> . :x' });
  assert.deepEqual([broken.gate, stageOf(broken, 'shacl').ran], ['error', false]);
  assert.match(stageOf(broken, 'shacl').reason as string, /do not parse/);
});

test('a policy requiring shacl: its shapes files gate pass or fail (not error); a broken asset is error', async () => {
  const policy = (paths: string) =>
    `version: 1\nproject_id: zoo\nroot_ontology: http://example.org/zoo\nvalidation:\n  required_stages: [shacl]\nshacl:\n  paths: [${paths}]\n`;
  await writeFile(
    path.join(dir, 'ages.ttl'),
    `@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix : <${ZOO}> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
    :AgeShape sh:targetClass :Animal ; sh:property [ sh:path :age ; sh:datatype xsd:integer ] .`,
  );
  await writeFile(path.join(dir, 'broken.ttl'), '@prefix sh: <http://www.w3.org/ns/shacl#> . :x');
  await withProjectPolicy(dir, policy('ages.ttl'), async () => {
    const failing = await callOk(c, 'run_project_qc');
    assert.equal(failing.gate, 'fail', JSON.stringify(failing.stages));
    const stage = stageOf(failing, 'shacl');
    assert.deepEqual([stage.required, stage.status, stage.verdict], [true, 'completed', 'fail']);
    assert.equal((failing.findings as Row[]).find((f) => f.source === 'shacl')!.focus_iri, `${ZOO}tom`);
    const suite = await callOk(c, 'run_qc_suite', { policy_path: path.join(dir, '.athene', 'project.yaml') });
    assert.deepEqual([suite.gate, suite.surface], ['fail', 'run_qc_suite']);
    await callOk(c, 'remove_axiom', { axiom_type: 'data_property_assertion', subject: 'Tom', property: 'age', value: 'old' });
    try {
      const passing = await callOk(c, 'run_project_qc');
      assert.equal(passing.gate, 'pass', JSON.stringify(passing.stages));
      assert.equal(stageOf(passing, 'shacl').verdict, 'pass');
    } finally {
      await callOk(c, 'undo_change');
    }
  });
  await withProjectPolicy(dir, policy('broken.ttl'), async () => {
    const r = await callOk(c, 'run_project_qc');
    assert.equal(r.gate, 'error');
    assert.equal(stageOf(r, 'shacl').status, 'error');
    assert.match(stageOf(r, 'shacl').reason as string, /broken\.ttl: the SHACL shapes \(turtle\) do not parse/);
  });
});

// Last: the tests above run before any classification (the default auto reasoner has no results yet).
test('include_inferred needs a classified reasoner and then validates inferred types', async () => {
  const asserted = await callOk(c, 'shacl_validate', { shapes: SHAPES });
  assert.equal(
    results(asserted).some((x) => x.focus_node === `${ZOO}rex`),
    false,
    'rex is an Animal only by inference',
  );
  const none = await call(c, 'shacl_validate', { shapes: SHAPES, include_inferred: true });
  assert.equal(none.body.error_code, 'reasoner_not_ready', 'auto is selected from the start, not yet run');
  await callOk(c, 'set_reasoner', { reasoner: 'el' });
  assert.equal((await call(c, 'shacl_validate', { shapes: SHAPES, include_inferred: true })).body.error_code, 'reasoner_not_ready');
  await callOk(c, 'run_reasoner');
  const inferred = await callOk(c, 'shacl_validate', { shapes: SHAPES, include_inferred: true });
  assert.deepEqual(
    results(inferred)
      .filter((x) => x.focus_node === `${ZOO}rex`)
      .map((x) => x.severity),
    ['Warning'],
    'rex has no name',
  );
  assert.match(inferred.note as string, /materialized/);
});
