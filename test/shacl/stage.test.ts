// The QC stage `shacl` over a private snapshot: findings from validation results (severity mapping, rule
// ids a waiver can name, stable ids), verdicts, the gate it feeds, and a policy's shapes files confined to
// the project root.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { shaclStage, type ShaclShapesSource } from '../../src/qc/stages/shacl.js';
import { runGate } from '../../src/qc/gate.js';
import { captureSnapshot } from '../../src/qc/snapshot.js';
import { EX, ontology, workspace, windowOf } from '../qc/support.js';
import { reasonerById } from '../../src/reasoner/registry.js';
import { at } from '../support/at.js';

const PEOPLE = `Declaration(Class(:Person)) Declaration(DataProperty(:age)) Declaration(NamedIndividual(:ann)) Declaration(NamedIndividual(:bob))
ClassAssertion(:Person :ann) ClassAssertion(:Person :bob)
DataPropertyAssertion(:age :ann "30"^^xsd:integer) DataPropertyAssertion(:age :bob "old")`;

const PREFIXES = `@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix : <${EX}> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n`;
const AGE = `${PREFIXES} :PersonShape sh:targetClass :Person ; sh:property :AgeShape, :LabelShape, :NoteShape .
:AgeShape sh:path :age ; sh:datatype xsd:integer .
:LabelShape sh:path <http://www.w3.org/2000/01/rdf-schema#label> ; sh:minCount 1 ; sh:severity sh:Warning .
:NoteShape sh:path <http://www.w3.org/2000/01/rdf-schema#comment> ; sh:minCount 1 ; sh:severity sh:Info .`;

const snapshot = () => captureSnapshot(windowOf(workspace(ontology(PEOPLE))), [], 'en');
const inline = (text: string): ShaclShapesSource => ({
  kind: 'documents',
  documents: [{ text, format: 'turtle', origin: 'shacl_shapes' }],
});
const run = (source: ShaclShapesSource | undefined) => shaclStage(snapshot(), source, Date.now() + 60_000, new AbortController().signal);

test('without shapes the stage is skipped with the reason', async () => {
  const r = await run(undefined);
  assert.deepEqual([r.status, r.reason, r.findings.length], ['skipped', 'no SHACL shapes given', 0]);
});

test('one finding per result: Violation → error, Warning → warn, Info → info, rule ids by constraint component, stable ids', async () => {
  const r = await run(inline(AGE));
  assert.equal(r.status, 'completed');
  assert.equal(r.verdict, 'fail');
  const rows = r.findings.map((f) => [f.severity, f.rule_id, f.focus_iri, f.path]);
  assert.deepEqual(rows, [
    ['info', 'shacl.MinCountConstraintComponent', EX + 'ann', 'http://www.w3.org/2000/01/rdf-schema#comment'],
    ['warn', 'shacl.MinCountConstraintComponent', EX + 'ann', 'http://www.w3.org/2000/01/rdf-schema#label'],
    ['error', 'shacl.DatatypeConstraintComponent', EX + 'bob', EX + 'age'],
    ['info', 'shacl.MinCountConstraintComponent', EX + 'bob', 'http://www.w3.org/2000/01/rdf-schema#comment'],
    ['warn', 'shacl.MinCountConstraintComponent', EX + 'bob', 'http://www.w3.org/2000/01/rdf-schema#label'],
  ]);
  const bad = at(r.findings, 2);
  assert.deepEqual([bad.source, bad.axiom, bad.waiver], ['shacl', null, null]);
  assert.equal((bad.details as Record<string, unknown>).value, '"old"');
  assert.equal((bad.details as Record<string, unknown>).source_shape, EX + 'AgeShape');
  assert.equal(new Set(r.findings.map((f) => f.id)).size, 5, 'distinct results, distinct ids');
  assert.deepEqual(
    (await run(inline(AGE))).findings.map((f) => f.id),
    r.findings.map((f) => f.id),
    'same content, same ids',
  );
  assert.deepEqual(r.details, { shapes: ['shacl_shapes'], total_results: 5, conforms: false });
});

test('the verdict is the worst severity: warn, info or pass', async () => {
  const only = (severity: string) =>
    inline(`${PREFIXES} :S sh:targetClass :Person ; sh:property [ sh:path :nick ; sh:minCount 1 ; sh:severity sh:${severity} ] .`);
  assert.equal((await run(only('Warning'))).verdict, 'warn');
  assert.equal((await run(only('Info'))).verdict, 'info');
  assert.equal(
    (await run(inline(`${PREFIXES} :S sh:targetClass :Person ; sh:property [ sh:path :age ; sh:minCount 1 ] .`))).verdict,
    'pass',
  );
});

test('malformed shapes make the stage an error, never a pass', async () => {
  const r = await run(inline(`${PREFIXES} :S sh:targetClass :Person ;`));
  assert.equal(r.status, 'error');
  assert.match(r.reason!, /shacl_shapes: the SHACL shapes \(turtle\) do not parse/);
});

test('in the gate: a completed violation fails (not error), a waiver naming rule and focus lifts it', async () => {
  const shapes = inline(`${PREFIXES} :S sh:targetClass :Person ; sh:property [ sh:path :age ; sh:datatype xsd:integer ] .`);
  const gate = (waivers = [] as { rule_id: string; focus_iri: string | null; reason: string; expires: string | null }[]) =>
    runGate({
      snapshot: snapshot(),
      stages: [],
      required: ['shacl'],
      reasoner: reasonerById('el'),
      timeoutMs: 60_000,
      signal: new AbortController().signal,
      limit: 25,
      options: { shacl: shapes },
      waivers,
    });
  const failing = await gate();
  assert.equal(failing.gate, 'fail');
  assert.deepEqual(failing.stages_ran, ['shacl']);
  assert.equal(at(failing.findings, 0).focus_iri, EX + 'bob');
  const waived = await gate([
    { rule_id: 'shacl.DatatypeConstraintComponent', focus_iri: EX + 'bob', reason: 'legacy data', expires: null },
  ]);
  assert.equal(waived.gate, 'pass');
});

test("a policy's shapes files are read from the project root; missing or escaping files are stage errors", async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'athene-shacl-stage-'));
  const outside = await mkdtemp(path.join(os.tmpdir(), 'athene-shacl-outside-'));
  try {
    await mkdir(path.join(root, 'shapes'));
    await writeFile(path.join(root, 'shapes', 'age.ttl'), AGE);
    await writeFile(path.join(outside, 'age.ttl'), AGE);
    await symlink(path.join(outside, 'age.ttl'), path.join(root, 'shapes', 'escape.ttl'));
    const policy = (paths: string[]): ShaclShapesSource => ({ kind: 'policy', projectRoot: root, paths });
    const ok = await run(policy(['shapes/age.ttl']));
    assert.deepEqual([ok.status, ok.findings.length], ['completed', 5]);
    assert.deepEqual(ok.details?.shapes, [path.join(root, 'shapes', 'age.ttl')]);
    const missing = await run(policy(['shapes/none.ttl']));
    assert.equal(missing.status, 'error');
    assert.match(missing.reason!, /none\.ttl is not a readable file/);
    const escaping = await run(policy(['shapes/escape.ttl']));
    assert.equal(escaping.status, 'error');
    assert.match(escaping.reason!, /resolves outside the project root/);
  } finally {
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  }
});
