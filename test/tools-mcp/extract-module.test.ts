// extract_module through the real server: a known STAR module loaded into the workspace (not active), a ⊥
// module saved to a file and read back, punned seeds, the imports closure versus the active ontology,
// unresolved seeds and the time bound.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as t from '../../src/model/terms.js';
import { readDocument } from '../../src/model/formats/registry.js';
import { serveTempOntology, withProjectPolicy, call, callOk, type ServedTempOntology, type Row } from '../server/support.js';

const NS = 'http://example.org/mod#';
const LIB = 'http://example.org/mod-lib';
const c = (n: string) => t.cls(NS + n);

const ROOT = `Prefix(:=<${NS}>)
Prefix(rdfs:=<http://www.w3.org/2000/01/rdf-schema#>)
Ontology(<http://example.org/mod>
Import(<${LIB}>)
Declaration(Class(:A)) Declaration(Class(:B)) Declaration(Class(:C)) Declaration(Class(:D)) Declaration(Class(:E))
Declaration(Class(:P)) Declaration(NamedIndividual(:P)) Declaration(ObjectProperty(:r))
AnnotationAssertion(rdfs:label :A "alpha")
AnnotationAssertion(rdfs:label :D "delta")
SubClassOf(:A :B)
SubClassOf(:B :C)
SubClassOf(:D :A)
SubClassOf(:E ObjectSomeValuesFrom(:r :F))
ClassAssertion(:C :P)
SubClassOf(:P :Q)
)
`;
const LIBRARY = `Prefix(:=<${NS}>)
Ontology(<${LIB}>
Declaration(Class(:F)) Declaration(Class(:G))
SubClassOf(:F :G)
)
`;

let s: ServedTempOntology;

before(async () => {
  s = await serveTempOntology('athene-module-', 'placeholder.ofn', 'Ontology(<http://example.org/placeholder>)\n');
  await writeFile(path.join(s.dir, 'lib.ofn'), LIBRARY);
  await writeFile(
    path.join(s.dir, 'catalog-v001.xml'),
    `<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><uri name="${LIB}" uri="lib.ofn"/></catalog>`,
  );
  await writeFile(path.join(s.dir, 'root.ofn'), ROOT);
  await callOk(s.c, 'load_ontology', { source: path.join(s.dir, 'root.ofn'), missing_imports: 'error' });
});
after(async () => {
  await s.close();
});

const ontologies = async () => (await callOk(s.c, 'list_ontologies')).ontologies as Row[];

test('a STAR module is loaded as a new inactive ontology with its declarations and labels', async () => {
  const r = await callOk(s.c, 'extract_module', { signature: ['A', ':C'], iri: 'http://example.org/mod/star' });
  assert.deepEqual(r.module, { iri: 'http://example.org/mod/star', anonymous: false });
  assert.equal(r.module_type, 'STAR');
  assert.equal(r.source, 'imports_closure');
  assert.equal(r.loaded, 'workspace');
  // A ⊑ B, B ⊑ C, C(P); declarations of A, B, C and the individual P; A's label (D's stays out)
  assert.equal(r.axioms, 8);
  assert.deepEqual((r.seeds as Row).resolved, [
    { name: 'A', iri: NS + 'A', display: 'alpha', type: 'Class' },
    { name: ':C', iri: NS + 'C', display: 'C', type: 'Class' },
  ]);
  const listed = await ontologies();
  const module = listed.find((o) => o.id === 'http://example.org/mod/star')!;
  assert.equal(module.active, false);
  assert.equal(module.axioms, 8);
  assert.equal(module.logical_axioms, 3);
  assert.equal(listed.find((o) => o.active)!.id, 'http://example.org/mod');
  const again = await call(s.c, 'extract_module', { signature: ['A'], iri: 'http://example.org/mod/star' });
  assert.equal(again.body.error_code, 'id_in_use');
});

test('a ⊥ module saved to a file holds exactly the known axioms, the imported ones included', async () => {
  const file = path.join(s.dir, 'out', 'e-module.ofn');
  const r = await callOk(s.c, 'extract_module', { signature: ['E'], module_type: 'BOT', path: file });
  assert.equal(r.saved, true);
  assert.equal(r.path, file);
  assert.equal(r.format, 'ofn');
  const { ontology } = await readDocument(await readFile(file, 'utf8'), { base: 'file://' + file });
  assert.equal(ontology.id.iri, null, 'without iri the module is anonymous');
  const expected = [
    t.subClassOf(c('E'), t.objectSomeValuesFrom(t.objectProperty(NS + 'r'), c('F'))),
    t.subClassOf(c('F'), c('G')),
    // a class assertion is never ⊥-local: the individual's class cannot be empty
    t.classAssertion(c('C'), t.namedIndividual(NS + 'P')),
    ...['E', 'F', 'G', 'C'].map((n) => t.declaration(c(n))),
    t.declaration(t.objectProperty(NS + 'r')),
    t.declaration(t.namedIndividual(NS + 'P')),
  ];
  assert.equal(ontology.axiomCount, expected.length);
  for (const a of expected) assert.ok(ontology.has(a), t.axiomTypeName(a));
  assert.equal(r.axioms, expected.length);
});

test('source=active leaves out what only the imports say', async () => {
  const r = await callOk(s.c, 'extract_module', {
    signature: ['E'],
    module_type: 'BOT',
    source: 'active',
    path: path.join(s.dir, 'out', 'active.ofn'),
  });
  const { ontology } = await readDocument(await readFile(path.join(s.dir, 'out', 'active.ofn'), 'utf8'));
  assert.equal(ontology.has(t.subClassOf(c('F'), c('G'))), false);
  assert.equal(r.source, 'active');
});

test('a punned seed brings every sense; unknown seeds are reported, and all-unknown is an error', async () => {
  const r = await callOk(s.c, 'extract_module', {
    signature: [NS + 'P', 'NoSuchThing'],
    module_type: 'BOT',
    path: path.join(s.dir, 'out', 'p.ttl'),
  });
  assert.deepEqual(
    ((r.seeds as Row).resolved as Row[]).map((x) => x.type),
    ['Class', 'NamedIndividual'],
  );
  assert.deepEqual(
    ((r.seeds as Row).unresolved as Row[]).map((x) => x.name),
    ['NoSuchThing'],
  );
  assert.equal((r.seeds as Row).requested, 2);
  assert.equal(r.format, 'turtle');
  const { ontology } = await readDocument(await readFile(path.join(s.dir, 'out', 'p.ttl'), 'utf8'));
  assert.ok(ontology.has(t.subClassOf(c('P'), c('Q'))), 'the class sense of P brings its superclass');
  const none = await call(s.c, 'extract_module', { signature: ['NoSuchThing', 'nope:x'] });
  assert.equal(none.isError, true);
  assert.equal(none.body.error_code, 'not_found');
  assert.equal(((none.body.seeds as Row).unresolved as Row[]).length, 2);
});

test('an extraction that outlives timeout_ms fails with timeout and loads nothing', async () => {
  const lines = [`Prefix(:=<${NS}>)`, 'Ontology(<http://example.org/big>'];
  for (let i = 0; i < 30_000; i++) lines.push(`SubClassOf(:K${i} :K${i + 1})`);
  lines.push(')');
  const big = path.join(s.dir, 'big', 'big.ofn');
  await mkdir(path.dirname(big), { recursive: true });
  await writeFile(big, lines.join('\n'));
  await callOk(s.c, 'load_ontology', { source: big });
  const before = (await ontologies()).length;
  const r = await call(s.c, 'extract_module', { signature: ['K0'], module_type: 'BOT', timeout_ms: 1 });
  assert.equal(r.isError, true);
  assert.equal(r.body.error_code, 'timeout');
  assert.equal((await ontologies()).length, before);
  const ok = await callOk(s.c, 'extract_module', { signature: ['K29990'], module_type: 'BOT' });
  assert.equal(ok.axioms, 10, 'the ten subclass axioms up the chain');
});

test('under a project policy a module path outside the project root is refused and nothing is written', async () => {
  await callOk(s.c, 'set_active_ontology', { ontology_iri: 'http://example.org/mod' });
  const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'athene-module-outside-'));
  try {
    await withProjectPolicy(s.dir, 'version: 1\nproject_id: mod\nroot_ontology: http://example.org/mod\n', async () => {
      const r = await call(s.c, 'extract_module', { signature: ['A'], path: path.join(elsewhere, 'm.ofn') });
      assert.equal(r.body.error_code, 'authorization_denied');
      assert.equal(r.body.effects_prevented, true);
      const inside = await callOk(s.c, 'extract_module', {
        signature: ['A'],
        module_type: 'BOT',
        path: path.join(s.dir, 'out', 'inside.ofn'),
      });
      assert.equal(inside.saved, true);
    });
    await assert.rejects(readFile(path.join(elsewhere, 'm.ofn')), { code: 'ENOENT' });
  } finally {
    await rm(elsewhere, { recursive: true, force: true });
  }
});

test('a save that cannot be written fails with io_error and saved:false, loading nothing; malformed arguments are refused', async () => {
  await callOk(s.c, 'set_active_ontology', { ontology_iri: 'http://example.org/mod' });
  const before = (await ontologies()).length;
  const r = await call(s.c, 'extract_module', { signature: ['A'], path: path.join(s.dir, 'root.ofn', 'm.ofn') });
  assert.deepEqual([r.isError, r.body.error_code, r.body.saved], [true, 'io_error', false]);
  assert.equal((await ontologies()).length, before);
  for (const bad of [
    { signature: [] },
    { signature: ['A'], module_type: 'star' },
    { signature: ['A'], source: 'closure' },
    { signature: ['A'], timeout_ms: 0 },
  ]) {
    assert.equal((await call(s.c, 'extract_module', bad)).body.error_code, 'invalid_argument', JSON.stringify(bad));
  }
});

test('a TOP module holds what uses the seeds', async () => {
  const r = await callOk(s.c, 'extract_module', {
    signature: ['C'],
    module_type: 'TOP',
    source: 'active',
    path: path.join(s.dir, 'out', 'top.ofn'),
  });
  assert.deepEqual([r.module_type, r.source, r.saved, r.format], ['TOP', 'active', true, 'ofn']);
  const { ontology } = await readDocument(await readFile(path.join(s.dir, 'out', 'top.ofn'), 'utf8'));
  // D ⊑ A ⊑ B ⊑ C all lead to C; E ⊑ r some F says nothing about C
  const chain: [string, string][] = [
    ['B', 'C'],
    ['A', 'B'],
    ['D', 'A'],
  ];
  for (const [sub, sup] of chain) assert.ok(ontology.has(t.subClassOf(c(sub), c(sup))), `${sub} ⊑ ${sup}`);
  assert.equal(ontology.has(t.subClassOf(c('E'), t.objectSomeValuesFrom(t.objectProperty(NS + 'r'), c('F')))), false);
});

test("entities counts the module's signature: the seeds and what its axioms name", async () => {
  const r = await callOk(s.c, 'extract_module', { signature: ['A', ':C'], path: path.join(s.dir, 'out', 'star.ofn') });
  // A ⊑ B, B ⊑ C, C(P) name A, B, C and the individual P; A's label that follows adds rdfs:label and xsd:string
  assert.deepEqual([r.axioms, r.entities], [8, 6]);
});
