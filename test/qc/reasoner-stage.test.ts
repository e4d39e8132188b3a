import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reasonerById } from '../../src/reasoner/registry.js';
import { reasonerStage, RULES_IGNORED_WARNING } from '../../src/qc/stages/reasoner.js';
import { runGate } from '../../src/qc/gate.js';
import { captureSnapshot } from '../../src/qc/snapshot.js';
import { EX, ontology, workspace, windowOf } from './support.js';
import { at } from '../support/at.js';

const EL = reasonerById('el');
const BASE = `Declaration(Class(:A)) Declaration(Class(:B)) Declaration(Class(:C)) Declaration(ObjectProperty(:p))
  Declaration(NamedIndividual(:i)) SubClassOf(:A :B)`;
const run = (body: string, signal = new AbortController().signal) =>
  reasonerStage(captureSnapshot(windowOf(workspace(ontology(body))), [], 'en'), { reasoner: EL, deadline: Date.now() + 60_000, signal });

test('a consistent, coherent snapshot passes with the reasoner configuration in details', async () => {
  const out = await run(BASE);
  assert.equal(out.status, 'completed');
  assert.equal(out.verdict, 'pass');
  assert.deepEqual(out.findings, []);
  const config = out.details!.reasoner_configuration as Record<string, unknown>;
  assert.equal(config.id, 'el');
  assert.equal(config.name, EL.name);
  assert.match(config.implementation_digest as string, /^sha256:/);
  assert.equal(out.details!.consistent, true);
  assert.equal(out.details!.warning, undefined);
});

test('unsatisfiable classes are findings with their focus IRI', async () => {
  const out = await run(`${BASE} DisjointClasses(:B :C) SubClassOf(:A :C)`);
  assert.equal(out.verdict, 'fail');
  assert.deepEqual(
    out.findings.map((f) => [f.rule_id, f.focus_iri, f.severity]),
    [['unsatisfiable_class', EX + 'A', 'error']],
  );
  assert.equal(out.details!.unsatisfiable_count, 1);
});

test('an inconsistent snapshot is one finding without a focus', async () => {
  const out = await run(`${BASE} DisjointClasses(:B :C) ClassAssertion(:B :i) ClassAssertion(:C :i)`);
  assert.equal(out.verdict, 'fail');
  assert.deepEqual(
    out.findings.map((f) => [f.rule_id, f.focus_iri]),
    [['inconsistent_ontology', null]],
  );
  assert.equal(out.details!.consistent, false);
});

test('the stage judges the snapshot with its delta, not the live ontology', async () => {
  const ws = workspace(ontology(`${BASE} DisjointClasses(:B :C)`));
  const live = ws.active;
  const [sub] = live.axiomsOfKind('SubClassOf');
  assert.ok(sub);
  const { subClassOf, cls } = await import('../../src/model/terms.js');
  const snap = captureSnapshot(windowOf(ws), [{ kind: 'AddAxiom', ontology: live, axiom: subClassOf(cls(EX + 'A'), cls(EX + 'C')) }], 'en');
  const out = await reasonerStage(snap, { reasoner: EL, deadline: Date.now() + 60_000, signal: new AbortController().signal });
  assert.equal(out.verdict, 'fail');
  const liveOut = await reasonerStage(captureSnapshot(windowOf(ws), [], 'en'), {
    reasoner: EL,
    deadline: Date.now() + 60_000,
    signal: new AbortController().signal,
  });
  assert.equal(liveOut.verdict, 'pass');
  assert.ok(live.has(sub));
});

test('SWRL rules add a non-gating warning', async () => {
  const out = await run(`${BASE} DLSafeRule(Body(ClassAtom(:A Variable(<urn:x>))) Head(ClassAtom(:C Variable(<urn:x>))))`);
  assert.equal(out.verdict, 'pass');
  assert.equal(out.details!.warning, RULES_IGNORED_WARNING);
  const g = await runGate({
    snapshot: captureSnapshot(
      windowOf(workspace(ontology(`${BASE} DLSafeRule(Body(ClassAtom(:A Variable(<urn:x>))) Head(ClassAtom(:C Variable(<urn:x>))))`))),
      [],
      'en',
    ),
    stages: ['reasoner'],
    required: ['reasoner'],
    reasoner: EL,
    timeoutMs: 60_000,
    signal: new AbortController().signal,
    limit: 10,
  });
  assert.equal(g.gate, 'pass');
  assert.equal(at(g.stages, 0).findings_summary.warning, RULES_IGNORED_WARNING);
  assert.equal(g.satisfiability_checked, true);
});

test('cancellation is an error, and a required errored stage errors the gate', async () => {
  const controller = new AbortController();
  const pending = run(BASE, controller.signal);
  controller.abort();
  const cancelled = await pending;
  assert.equal(cancelled.status, 'error');
  assert.match(cancelled.reason!, /cancelled/);
  const aborted = new AbortController();
  aborted.abort();
  const g = await runGate({
    snapshot: captureSnapshot(windowOf(workspace(ontology(BASE))), [], 'en'),
    stages: ['reasoner'],
    required: ['reasoner'],
    reasoner: EL,
    timeoutMs: 60_000,
    signal: aborted.signal,
    limit: 10,
  });
  assert.equal(g.gate, 'error');
  assert.equal(g.satisfiability_checked, false);
  assert.match(g.satisfiability_note!, /reasoner failure/);
});
