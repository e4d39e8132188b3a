// The `invariants` and `cqs` QC stages under a project policy (TOOLS.md run_project_qc): asset files the
// policy names (a directory of .rq invariants, a JSON manifest of competency questions) and the question
// stores beside the document are judged over the gate's snapshot: pass, fail on a violation (waivable per
// focus), and error on a malformed asset. Also run_qc_suite's inline invariants with inferences.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callOk, serveTempOntology, withProjectPolicy, type Row, type ServedTempOntology } from '../server/support.js';
import { at } from '../support/at.js';

const EX = 'http://example.org/inv#';

const ONTOLOGY = `@prefix : <${EX}> .
@prefix owl:  <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

<http://example.org/inv> a owl:Ontology .
:Animal a owl:Class .
:Cat a owl:Class ; rdfs:subClassOf :Animal .
:Dog a owl:Class ; rdfs:subClassOf :Animal .
:Puppy a owl:Class ; rdfs:subClassOf :Dog .
`;

let served: ServedTempOntology;
let dir: string;
let c: Client;

const NO_CAT_SUBCLASSES = '# id: no-cat-subclasses\n# message: Cats are not subdivided.\n\nSELECT ?c WHERE { ?c rdfs:subClassOf :Cat }\n';
const DOG_KINDS = {
  competency_questions: [
    {
      id: 'dog-kinds',
      text: 'Which kinds of dog are there?',
      query: 'SELECT ?d WHERE { ?d rdfs:subClassOf :Dog }',
      expected: { kind: 'count', op: '>=', value: 1 },
    },
  ],
};

before(async () => {
  served = await serveTempOntology('athene-qc-inv-', 'inv.ttl', ONTOLOGY);
  ({ dir, c } = served);
  await mkdir(path.join(dir, 'qc', 'invariants'), { recursive: true });
  await writeFile(path.join(dir, 'qc', 'invariants', 'no-cat-subclasses.rq'), NO_CAT_SUBCLASSES);
  await writeFile(path.join(dir, 'qc', 'cqs.json'), JSON.stringify(DOG_KINDS));
});
after(() => served.close());

const POLICY = [
  'version: 1',
  'project_id: inv',
  'root_ontology: http://example.org/inv',
  'validation:',
  '  required_stages: [invariants, cqs]',
  'invariants:',
  '  paths: [qc/invariants]',
  'cqs:',
  '  paths: [qc/cqs.json]',
  '',
].join('\n');
const stageOf = (r: Row, stage: string) => (r.stages as Row[]).find((s) => s.stage === stage)!;
const findings = (r: Row, source: string) => (r.findings as Row[]).filter((f) => f.source === source);

test('a policy requiring invariants and cqs passes when every asset holds, and reports what it checked', async () => {
  await withProjectPolicy(dir, POLICY, async () => {
    const r = await callOk(c, 'run_project_qc');
    assert.equal(r.gate, 'pass', JSON.stringify(r.stages));
    for (const stage of ['invariants', 'cqs']) {
      const s = stageOf(r, stage);
      assert.deepEqual([s.status, s.required, s.ran, s.verdict], ['completed', true, true, 'pass'], stage);
    }
    assert.deepEqual((stageOf(r, 'invariants').details as Row).invariants, [
      { id: 'no-cat-subclasses', severity: 'error', violated: false, source: 'qc/invariants/no-cat-subclasses.rq' },
    ]);
    assert.deepEqual(
      (stageOf(r, 'cqs').details as Row).questions,
      [
        {
          id: 'dog-kinds',
          text: 'Which kinds of dog are there?',
          expected: 'count >= 1',
          convention: 'sidecar-manifest',
          pass: true,
          actual_summary: { query_type: 'SELECT', row_count: 2 },
        },
      ],
      'the default automatic reasoner answers over the inferred axioms too: no asserted-only caveat, one more row',
    );
  });
});

test('a violated invariant and a failed question fail the gate (not error); a waiver covers one focus', async () => {
  await callOk(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Kitten', super: 'Cat' });
  await callOk(c, 'add_competency_question', {
    id: 'no-unicorns',
    query: 'ASK { ?u rdfs:subClassOf :Unicorn }',
    expected: 'nonEmpty',
    convention: 'ontology-annotations',
  });
  try {
    await withProjectPolicy(dir, POLICY, async () => {
      const r = await callOk(c, 'run_project_qc');
      assert.equal(r.gate, 'fail');
      assert.deepEqual([stageOf(r, 'invariants').status, stageOf(r, 'invariants').verdict], ['completed', 'fail']);
      const [violation] = findings(r, 'invariants');
      assert.ok(violation);
      assert.deepEqual(
        [violation.rule_id, violation.focus_iri, violation.severity, violation.message],
        ['invariant:no-cat-subclasses', EX + 'Kitten', 'error', 'Cats are not subdivided.'],
      );
      assert.deepEqual([stageOf(r, 'cqs').status, stageOf(r, 'cqs').verdict], ['completed', 'fail']);
      const [failed] = findings(r, 'cqs');
      assert.ok(failed);
      assert.equal(failed.rule_id, 'cq:no-unicorns', "the question stored in the snapshot's own annotations is judged too");
      assert.match(failed.message as string, /did not give the expected answer \(nonEmpty\)/);
    });
    const waived = POLICY.replace(
      '  required_stages: [invariants, cqs]',
      `  required_stages: [invariants]\n  waivers:\n    - rule_id: "invariant:no-cat-subclasses"\n      focus_iri: "${EX}Kitten"\n      reason: kittens are being reviewed`,
    );
    await withProjectPolicy(dir, waived, async () => {
      const r = await callOk(c, 'run_project_qc');
      assert.equal(r.gate, 'pass', JSON.stringify(r.findings));
      assert.equal((at(findings(r, 'invariants'), 0).waiver as Row).reason, 'kittens are being reviewed');
    });
  } finally {
    // undo the question, then the axiom: the window is as before
    await callOk(c, 'undo_change');
    await callOk(c, 'undo_change');
  }
});

test('a malformed asset makes the stage error, and the gate error', async () => {
  const bad = path.join(dir, 'qc', 'invariants', 'zz-bad.rq');
  await writeFile(bad, '# id: bad\n# severity: fatal\n\nASK {}\n');
  try {
    await withProjectPolicy(dir, POLICY, async () => {
      const r = await callOk(c, 'run_project_qc');
      assert.equal(r.gate, 'error');
      const s = stageOf(r, 'invariants');
      assert.equal(s.status, 'error');
      assert.match(s.reason as string, /zz-bad\.rq: # severity: severity must be error, warn or info, not 'fatal'/);
    });
  } finally {
    await rm(bad);
  }
});

test('a change-set preview listing the cqs gate judges the questions against the previewed delta', async () => {
  await callOk(c, 'add_competency_question', { id: 'puppy-is-dog', query: 'ASK { :Puppy rdfs:subClassOf :Dog }', include_inferred: false });
  try {
    const breaking = await callOk(c, 'preview_change_set', {
      operations: [{ op: 'remove', axiom_type: 'subclass_of', sub: 'Puppy', super: 'Dog' }],
      gates: ['cqs'],
    });
    assert.equal(breaking.committable, false);
    assert.ok(
      (breaking.committable_reasons as string[]).some((r) => r.startsWith('stage_failed: cqs')),
      JSON.stringify(breaking.committable_reasons),
    );
    const pre = breaking.preflight as Row;
    assert.deepEqual([pre.gate, stageOf(pre, 'cqs').verdict], ['fail', 'fail']);
    assert.equal(at(findings(pre, 'cqs'), 0).rule_id, 'cq:puppy-is-dog');
    const harmless = await callOk(c, 'preview_change_set', {
      operations: [{ op: 'add', axiom_type: 'subclass_of', sub: 'Kitten', super: 'Cat' }],
      gates: ['cqs'],
    });
    assert.equal(stageOf(harmless.preflight as Row, 'cqs').verdict, 'pass');
    assert.ok(!(harmless.committable_reasons as string[]).some((r) => r.includes('cqs')), JSON.stringify(harmless.committable_reasons));
    assert.equal(
      ((await callOk(c, 'run_competency_questions', { ids: ['puppy-is-dog'] })) as Row).passed,
      1,
      'the live ontology was not changed',
    );
  } finally {
    await callOk(c, 'remove_competency_question', { id: 'puppy-is-dog' });
  }
});

test("under a policy, a change-set preview reads the policy's invariant and question assets", async () => {
  await withProjectPolicy(dir, POLICY, async () => {
    const breaking = await callOk(c, 'preview_change_set', {
      operations: [{ op: 'add', axiom_type: 'subclass_of', sub: 'Kitten', super: 'Cat' }],
    });
    const pre = breaking.preflight as Row;
    assert.deepEqual(
      [stageOf(pre, 'invariants').status, stageOf(pre, 'invariants').verdict],
      ['completed', 'fail'],
      JSON.stringify(pre.stages),
    );
    assert.equal(at(findings(pre, 'invariants'), 0).rule_id, 'invariant:no-cat-subclasses');
    assert.equal(breaking.committable, false);
    const harmless = await callOk(c, 'preview_change_set', {
      operations: [{ op: 'add', axiom_type: 'subclass_of', sub: 'Puppy', super: 'Animal' }],
    });
    const ok = harmless.preflight as Row;
    assert.deepEqual([stageOf(ok, 'invariants').verdict, stageOf(ok, 'cqs').verdict], ['pass', 'pass'], JSON.stringify(ok.stages));
  });
});

test('run_qc_suite: inline invariants; include_inferred uses a private classification of the snapshot', async () => {
  const invariants = [
    { id: 'puppy-is-animal', sparql: 'ASK { :Puppy rdfs:subClassOf :Animal }', include_inferred: true, severity: 'warn' },
  ];
  const auto = await callOk(c, 'run_qc_suite', { stages: [], invariants });
  assert.deepEqual(
    [auto.gate, stageOf(auto, 'invariants').ran, stageOf(auto, 'invariants').verdict],
    ['pass', true, 'warn'],
    'the default automatic reasoner gives the invariant its inferences',
  );
  await callOk(c, 'set_reasoner', { reasoner: 'el' });
  const inferred = await callOk(c, 'run_qc_suite', { stages: [], invariants });
  assert.deepEqual(
    [inferred.gate, stageOf(inferred, 'invariants').verdict],
    ['pass', 'warn'],
    'a warn violation fails only with fail_on warn',
  );
  assert.equal((await callOk(c, 'run_qc_suite', { stages: [], invariants, fail_on: 'warn' })).gate, 'fail');
  const asserted = await callOk(c, 'run_qc_suite', { stages: [], invariants: [{ ...invariants[0], include_inferred: false }] });
  assert.equal(stageOf(asserted, 'invariants').verdict, 'pass', 'Puppy ⊑ Animal is only inferred');
});
