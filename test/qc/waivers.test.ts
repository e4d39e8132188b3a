import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Finding, Severity, StageOutcome, Waiver } from '../../src/qc/finding.js';
import {
  covers,
  expiredWaiverFindings,
  expiryInstant,
  isLive,
  verdictWithout,
  waiveOutcome,
  WAIVER_EXPIRED_RULE,
  withExpiredWaivers,
} from '../../src/qc/waivers.js';
import { runGate } from '../../src/qc/gate.js';
import { captureSnapshot } from '../../src/qc/snapshot.js';
import { EX, ontology, workspace, windowOf } from './support.js';
import { reasonerById } from '../../src/reasoner/registry.js';
import { at } from '../support/at.js';

// A fixed clock: noon UTC on 2026-06-15.
const NOW = Date.parse('2026-06-15T12:00:00Z');

const finding = (rule_id: string, focus_iri: string | null, severity: Severity = 'error'): Finding => ({
  id: `${rule_id}|${focus_iri}`,
  source: 'governance',
  severity,
  message: rule_id,
  focus_iri,
  axiom: null,
  path: null,
  rule_id,
  waiver: null,
});
const waiver = (rule_id: string, focus_iri: string | null, expires: string | null = null): Waiver => ({
  rule_id,
  focus_iri,
  reason: 'reviewed',
  expires,
});
const outcome = (findings: Finding[], verdict: StageOutcome['verdict'] = 'fail'): StageOutcome => ({
  stage: 'governance',
  status: 'completed',
  verdict,
  findings,
  details: { counts: {} },
});

test('a waiver holds until its expiry: a date-only expiry holds through that UTC day', () => {
  assert.equal(expiryInstant(null), null);
  assert.equal(expiryInstant('2026-06-15'), Date.parse('2026-06-16T00:00:00Z'));
  assert.equal(expiryInstant('2026-06-15T12:00:00Z'), NOW);
  assert.ok(isLive(waiver('r', null), NOW));
  assert.ok(isLive(waiver('r', null, '2026-06-15'), NOW));
  assert.ok(!isLive(waiver('r', null, '2026-06-14'), NOW));
  assert.ok(!isLive(waiver('r', null, '2026-06-15T12:00:00Z'), NOW), 'the expiry instant itself is past');
  assert.ok(isLive(waiver('r', null, '2026-06-15T14:00:00+02:00'), NOW - 1));
});

test('a waiver covers only its rule and its focus', () => {
  const w = waiver('iri_policy', `${EX}A`);
  assert.ok(covers(w, finding('iri_policy', `${EX}A`)));
  assert.ok(!covers(w, finding('iri_policy', `${EX}B`)));
  assert.ok(!covers(w, finding('required_annotations', `${EX}A`)));
  assert.ok(!covers(w, finding('iri_policy', null)));
  assert.ok(covers(waiver('interoperability.axioms_lost', null), finding('interoperability.axioms_lost', null)));
  assert.ok(!covers(waiver('iri_policy', null), finding('iri_policy', `${EX}A`)), 'a waiver without focus does not waive a whole rule');
});

test('live waivers mark their findings, which stay visible and stop counting toward the verdict', () => {
  const a = finding('iri_policy', `${EX}A`);
  const b = finding('iri_policy', `${EX}B`);
  const w = waiver('iri_policy', `${EX}A`, '2026-12-31');
  const one = waiveOutcome(outcome([a, b]), [w], NOW);
  assert.deepEqual(
    one.findings.map((f) => f.waiver),
    [w, null],
  );
  assert.equal(one.verdict, 'fail', 'the unwaived finding still fails the stage');
  assert.equal(one.details?.waived_count, 1);
  const both = waiveOutcome(outcome([a, b]), [w, waiver('iri_policy', `${EX}B`)], NOW);
  assert.equal(both.findings.length, 2);
  assert.equal(both.verdict, 'pass');
  const expired = waiveOutcome(outcome([a]), [waiver('iri_policy', `${EX}A`, '2026-01-01')], NOW);
  assert.equal(at(expired.findings, 0).waiver, null);
  assert.equal(expired.verdict, 'fail');
});

test('the stage keeps its own judgement of the worst remaining severity, else the plain meaning of it', () => {
  const err = finding('x', `${EX}A`, 'error');
  const warn = finding('y', `${EX}A`, 'warn');
  const info = finding('z', `${EX}A`, 'info');
  // a stage that judges warn findings `fail` stays so while a warn finding remains
  assert.equal(verdictWithout('fail', [warn, info], [warn]), 'fail');
  assert.equal(verdictWithout('fail', [warn, info], [info]), 'info');
  assert.equal(verdictWithout('fail', [err, warn], [warn]), 'warn');
  assert.equal(verdictWithout('fail', [err], []), 'pass');
});

test('skipped and errored stages pass through untouched', () => {
  const skipped: StageOutcome = { stage: 'provider_evidence', status: 'skipped', reason: 'provider_evidence_unavailable', findings: [] };
  assert.equal(waiveOutcome(skipped, [waiver('x', null)], NOW), skipped);
  assert.equal(withExpiredWaivers(skipped, [waiver('x', null, '2000-01-01')], NOW), skipped);
});

test('an expired waiver is itself an error finding of the governance stage', () => {
  const old = waiver('iri_policy', `${EX}A`, '2026-06-14');
  const [f, ...rest] = expiredWaiverFindings([old, waiver('iri_policy', `${EX}B`, '2026-06-15')], NOW);
  assert.ok(f);
  assert.equal(rest.length, 0);
  assert.equal(f.rule_id, WAIVER_EXPIRED_RULE);
  assert.equal(f.severity, 'error');
  assert.equal(f.source, 'governance');
  assert.equal(f.focus_iri, `${EX}A`);
  assert.match(f.message, /iri_policy.*expired on 2026-06-14/);
  assert.deepEqual(f.details, { waived_rule_id: 'iri_policy', expires: '2026-06-14', reason: 'reviewed' });
  const judged = withExpiredWaivers(outcome([], 'pass'), [old], NOW);
  assert.equal(judged.verdict, 'fail');
  assert.deepEqual(
    judged.findings.map((x) => x.rule_id),
    [WAIVER_EXPIRED_RULE],
  );
  assert.equal(judged.details?.expired_waivers, 1);
  assert.equal(expiredWaiverFindings([old], Date.parse('2026-06-14T23:59:59Z')).length, 0, 'not yet expired the day before');
});

test('in the gate: a live waiver passes a failing governance stage, an expired one fails it', async () => {
  const snapshot = captureSnapshot(
    windowOf(
      workspace(ontology('Declaration(Class(<http://elsewhere.org/X>)) AnnotationAssertion(rdfs:label <http://elsewhere.org/X> "x")')),
    ),
    [],
    'en',
  );
  const run = (waivers: Waiver[]) =>
    runGate({
      snapshot,
      stages: ['governance'],
      required: ['governance'],
      reasoner: reasonerById('el'),
      timeoutMs: 60_000,
      signal: new AbortController().signal,
      limit: 25,
      options: { governance: { required_namespaces: [EX] } },
      waivers,
      now: NOW,
    });
  const unwaived = await run([]);
  assert.equal(unwaived.gate, 'fail');
  const live = await run([waiver('iri_policy', 'http://elsewhere.org/X', '2026-07-01')]);
  assert.equal(live.gate, 'pass');
  assert.equal(live.finding_count, 1, 'the waived finding stays in the report');
  assert.equal(at(live.findings, 0).waiver?.expires, '2026-07-01');
  assert.notEqual(live.identity_digest, unwaived.identity_digest, 'waiving changes the identity digest');
  const lapsed = await run([waiver('iri_policy', 'http://elsewhere.org/X', '2026-06-01')]);
  assert.equal(lapsed.gate, 'fail');
  assert.deepEqual(
    lapsed.findings.map((f) => [f.rule_id, f.waiver]),
    [
      ['iri_policy', null],
      [WAIVER_EXPIRED_RULE, null],
    ],
  );
});
