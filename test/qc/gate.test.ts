import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { combine, runGate, StageIdSchema, type GateStageReport } from '../../src/qc/gate.js';
import { identityDigest } from '../../src/qc/identity.js';
import { captureSnapshot } from '../../src/qc/snapshot.js';
import type { StageId, Verdict } from '../../src/qc/finding.js';
import { ontology, workspace, windowOf } from './support.js';
import { reasonerById } from '../../src/reasoner/registry.js';
import { at } from '../support/at.js';

const NONE = { total: 0, error: 0, warn: 0, info: 0 };
const report = (stage: StageId, status: GateStageReport['status'], verdict?: Verdict, required = false): GateStageReport => ({
  stage,
  ran: status === 'completed',
  required,
  status,
  ...(verdict ? { verdict } : {}),
  findings_summary: NONE,
  identity_digest: identityDigest([]),
});

const LABELLED = 'Declaration(Class(:A)) AnnotationAssertion(rdfs:label :A "A")';
const SMELLY = `${LABELLED} Declaration(Class(:B)) AnnotationAssertion(rdfs:label :B "B") SubClassOf(:A :A) SubClassOf(:B :B) SubClassOf(:A :B)`;
const snapshotOf = (body: string) => captureSnapshot(windowOf(workspace(ontology(body))), [], 'en');
const gate = (body: string, over: Partial<Parameters<typeof runGate>[0]> = {}) =>
  runGate({
    snapshot: snapshotOf(body),
    stages: ['structural'],
    required: [],
    reasoner: reasonerById('el'),
    timeoutMs: 60_000,
    signal: new AbortController().signal,
    limit: 25,
    ...over,
  });

test('combine: error beats fail, a required stage that did not complete is error, fail_on decides the rest', () => {
  assert.equal(combine([report('structural', 'completed', 'fail'), report('reasoner', 'error')], 'error'), 'error');
  assert.equal(combine([report('structural', 'completed', 'fail'), report('reasoner', 'skipped', undefined, true)], 'error'), 'error');
  assert.equal(combine([report('structural', 'completed', 'pass'), report('reasoner', 'skipped')], 'error'), 'pass');
  assert.equal(combine([report('structural', 'completed', 'fail')], 'error'), 'fail');
  assert.equal(combine([report('structural', 'completed', 'fail')], 'none'), 'pass');
  assert.equal(combine([report('governance', 'completed', 'warn')], 'error'), 'pass');
  assert.equal(combine([report('governance', 'completed', 'warn')], 'warn'), 'fail');
  assert.equal(combine([report('governance', 'completed', 'info')], 'warn'), 'pass');
  assert.equal(combine([report('structural', 'completed', 'fail'), report('reasoner', 'error')], 'none'), 'error');
});

test('a required stage that is skipped makes the gate error and is listed as missing', async () => {
  const r = await gate(LABELLED, { required: ['provider_evidence'] });
  assert.equal(r.gate, 'error');
  assert.deepEqual(r.required_stages, ['provider_evidence']);
  assert.deepEqual(r.stages_skipped, ['provider_evidence']);
  assert.deepEqual(r.missing_required_stages, ['provider_evidence']);
  const stage = r.stages.find((s) => s.stage === 'provider_evidence')!;
  assert.deepEqual([stage.ran, stage.required, stage.status, stage.reason], [false, true, 'skipped', 'provider_evidence_unavailable']);
  assert.equal(r.satisfiability_checked, false);
  assert.match(r.satisfiability_note!, /the reasoner stage was not requested/);
});

test('error wins over fail: failing structural smells with a required stage that cannot run', async () => {
  const r = await gate(SMELLY, { required: ['shacl'], failOn: 'warn' });
  assert.equal(r.stages.find((s) => s.stage === 'structural')!.verdict, 'warn');
  assert.equal(r.gate, 'error');
});

test('fail_on decides what the worst ran stage means; a skipped optional stage does not gate', async () => {
  // structural smells are warnings: they fail the gate only when fail_on is warn
  assert.equal((await gate(SMELLY)).gate, 'pass');
  assert.equal((await gate(SMELLY, { failOn: 'warn' })).gate, 'fail');
  assert.equal((await gate(SMELLY, { failOn: 'none' })).gate, 'pass');
  const clean = await gate(LABELLED, { stages: ['provider_evidence', 'structural'], failOn: 'warn' });
  assert.equal(clean.stages.find((s) => s.stage === 'structural')!.verdict, 'info');
  assert.equal(clean.gate, 'pass');
  assert.deepEqual(clean.stages_ran, ['structural']);
  assert.deepEqual(clean.stages_skipped, ['provider_evidence']);
});

test('findings are capped per stage while counts and digests cover the complete set', async () => {
  const r = await gate(SMELLY, { limit: 1 });
  const s = at(r.stages, 0);
  assert.equal(r.findings.length, 1);
  assert.ok(r.finding_count >= 3);
  assert.equal(s.findings_summary.total, r.finding_count);
  assert.equal(s.findings_summary.warn, 2);
  const full = await gate(SMELLY, { limit: 1000 });
  assert.equal(full.findings.length, r.finding_count);
  assert.equal(r.identity_digest, identityDigest(full.findings));
  assert.equal(r.identity_digest, full.identity_digest);
  assert.notEqual(r.identity_digest, (await gate(LABELLED)).identity_digest);
});

test('stage names are validated against the known stages', () => {
  assert.ok(v.safeParse(StageIdSchema, 'structural').success);
  assert.ok(v.safeParse(StageIdSchema, 'provider_evidence').success);
  assert.ok(!v.safeParse(StageIdSchema, 'lint').success);
});

test('the no-policy default stages run over one snapshot; profile and governance take their options', async () => {
  const body = `${LABELLED} Declaration(Class(:B)) Declaration(Class(:C)) AnnotationAssertion(rdfs:label :B "B") AnnotationAssertion(rdfs:label :C "C")
    SubClassOf(:A ObjectUnionOf(:B :C))`;
  const stages = ['reasoner', 'profile', 'governance', 'structural'] as const;
  const dl = await gate(body, { stages });
  assert.deepEqual(
    dl.stages.map((s) => s.stage),
    ['reasoner', 'profile', 'structural', 'governance'],
  );
  assert.deepEqual(dl.stages_ran, ['reasoner', 'profile', 'structural', 'governance']);
  assert.equal(dl.stages.find((s) => s.stage === 'profile')!.verdict, 'pass');
  assert.equal(dl.gate, 'pass');
  const el = await gate(body, { stages, options: { owlProfile: 'EL' } });
  assert.equal(el.stages.find((s) => s.stage === 'profile')!.verdict, 'fail');
  assert.equal(el.gate, 'fail');
  const ns = await gate(body, { stages, options: { governance: { required_namespaces: ['http://elsewhere.org/'] } } });
  assert.equal(ns.stages.find((s) => s.stage === 'governance')!.verdict, 'fail');
  assert.ok(ns.findings.some((f) => f.source === 'governance' && f.rule_id === 'iri_policy'));
  assert.equal(ns.gate, 'fail');
});

test('the rules stage passes an empty SWRL corpus and errors on rules no installed reasoner executes', async () => {
  const empty = await gate(LABELLED, { stages: ['rules'], required: ['rules'] });
  assert.deepEqual([at(empty.stages, 0).status, at(empty.stages, 0).verdict, empty.gate], ['completed', 'pass', 'pass']);
  const rule = `${LABELLED} Declaration(Class(:B)) AnnotationAssertion(rdfs:label :B "B") SubClassOf(:A :B)
    DLSafeRule(Body(ClassAtom(:A Variable(<urn:x>))) Head(ClassAtom(:B Variable(<urn:x>))))`;
  const withRule = await gate(rule, { stages: ['rules'] });
  assert.equal(at(withRule.stages, 0).status, 'error');
  assert.match(
    at(withRule.stages, 0).reason!,
    /1 SWRL rule\(s\) cannot be evaluated: Athene EL\+\+ Classifier [^ ]+ does not execute SWRL rules/,
  );
  assert.equal(withRule.gate, 'error');
});
