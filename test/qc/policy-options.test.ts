import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validatePolicyData, type EffectivePolicy } from '../../src/policy/schema.js';
import { policyGateConfig, policyGovernance, policyReasonerProblem, policyWaivers } from '../../src/qc/policy-options.js';
import { runGate } from '../../src/qc/gate.js';
import { captureSnapshot } from '../../src/qc/snapshot.js';
import { runGovernance } from '../../src/qc/stages/governance.js';
import { reasonerById } from '../../src/reasoner/registry.js';
import { EX, ontology, workspace, windowOf } from './support.js';
import { at } from '../support/at.js';

const IAO = 'http://purl.obolibrary.org/obo/IAO_';

function policy(extra: Record<string, unknown> = {}): EffectivePolicy {
  const r = validatePolicyData({ version: 1, project_id: 't', root_ontology: 'http://example.org/t', ...extra });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.policy;
}

const snapshotOf = (body: string) => captureSnapshot(windowOf(workspace(ontology(body))), [], 'en');

/** Rule ids and focus IRIs of the governance findings the policy's conventions give over `body`. */
function governance(p: EffectivePolicy, body: string): [string, string | null][] {
  return runGovernance(snapshotOf(body), policyGovernance(p)).findings.map((f) => [f.rule_id, f.focus_iri]);
}

test('the gate options follow the policy: profile, interoperability formats, reasoner and its time bound, CURIEs expanded', () => {
  const p = policy({
    prefixes: { ex: EX },
    interoperability: { format: 'rdfxml', owl_profile: 'EL', round_trip_formats: ['ofn'] },
    reasoning: { reasoner: 'el', timeout_ms: 5000 },
    annotations: { required: ['rdfs:comment', 'ex:note'], definition: { datatype: 'xsd:string' } },
    lifecycle: { status_property: 'ex:status', allowed_statuses: ['ready', 'ex:Released'] },
    validation: { waivers: [{ rule_id: 'iri_policy', focus_iri: 'ex:A', reason: 'legacy', expires: '2027-01-01' }] },
  });
  const { options, waivers } = policyGateConfig(p, null);
  assert.equal(options.owlProfile, 'EL');
  assert.deepEqual(options.interoperability, { format: 'rdfxml', roundTripFormats: ['ofn'] });
  assert.equal(options.policyReasoner, 'el');
  assert.equal(options.reasonerTimeoutMs, 5000);
  assert.equal(options.includeImports, false);
  const g = options.governance!;
  assert.deepEqual(g.required_annotations, ['<http://www.w3.org/2000/01/rdf-schema#comment>', `<${EX}note>`]);
  assert.deepEqual(g.label_rules, {
    property: 'http://www.w3.org/2000/01/rdf-schema#label',
    required: true,
    languages: [],
    max_per_language: 1,
  });
  assert.equal(g.definition_rules?.property, `${IAO}0000115`);
  assert.equal(g.definition_rules?.datatype, 'http://www.w3.org/2001/XMLSchema#string');
  assert.equal(g.lifecycle_rules?.status_property, `${EX}status`);
  assert.deepEqual(g.lifecycle_rules?.allowed_statuses, ['ready', 'ex:Released', `${EX}Released`]);
  assert.equal(g.lifecycle_rules?.replacement_property, `${IAO}0100001`);
  assert.deepEqual(waivers, [{ rule_id: 'iri_policy', focus_iri: `${EX}A`, reason: 'legacy', expires: '2027-01-01' }]);
  assert.deepEqual(policyWaivers(policy()), []);
  assert.equal(policyGateConfig(policy(), null).options.policyReasoner, undefined);
});

test('labels: required by default, one per language by default, each listed language present', () => {
  const body = `Declaration(Class(:A)) Declaration(Class(:B)) Declaration(Class(:C)) Declaration(NamedIndividual(:i))
    AnnotationAssertion(rdfs:label :A "a"@en) AnnotationAssertion(rdfs:label :A "ein A"@de)
    AnnotationAssertion(rdfs:label :B "b"@en) AnnotationAssertion(rdfs:label :B "bee"@en)`;
  assert.deepEqual(
    governance(policy(), body),
    [
      ['annotations.label_cardinality', `${EX}B`],
      ['annotations.label_missing', `${EX}C`],
    ],
    'individuals need no label; two English labels break max_per_language 1',
  );
  assert.deepEqual(governance(policy({ annotations: { label: { languages: ['en', 'de'], max_per_language: 2 } } }), body), [
    ['annotations.label_language', `${EX}B`],
    ['annotations.label_missing', `${EX}C`],
  ]);
  assert.deepEqual(governance(policy({ annotations: { label: { required: false } } }), 'Declaration(Class(:C))'), []);
  const f = at(runGovernance(snapshotOf(body), policyGovernance(policy())).findings, 0);
  assert.equal(f.severity, 'error');
  assert.deepEqual(f.details?.labels, [
    `AnnotationAssertion(<http://www.w3.org/2000/01/rdf-schema#label> <${EX}B> "b"@en)`,
    `AnnotationAssertion(<http://www.w3.org/2000/01/rdf-schema#label> <${EX}B> "bee"@en)`,
  ]);
});

test('definitions: presence, language, datatype and placeholder text', () => {
  const def = (s: string, v: string) => `AnnotationAssertion(<${IAO}0000115> :${s} ${v})`;
  const body = `Declaration(Class(:A)) AnnotationAssertion(rdfs:label :A "a") ${def('A', '"An animal."@en')}
    Declaration(Class(:B)) AnnotationAssertion(rdfs:label :B "b") ${def('B', '" TBD "')}
    Declaration(Class(:C)) AnnotationAssertion(rdfs:label :C "c") ${def('C', '"3"^^xsd:integer')}
    Declaration(Class(:D)) AnnotationAssertion(rdfs:label :D "d")`;
  assert.deepEqual(governance(policy(), body), [], 'definitions are optional by default');
  const strict = policy({
    annotations: { definition: { required: true, languages: ['en'], datatype: 'rdf:langString', placeholders: ['tbd'] } },
  });
  assert.deepEqual(governance(strict, body), [
    ['annotations.definition_language', `${EX}B`],
    ['annotations.definition_datatype', `${EX}B`],
    ['annotations.definition_placeholder', `${EX}B`],
    ['annotations.definition_language', `${EX}C`],
    ['annotations.definition_datatype', `${EX}C`],
    ['annotations.definition_missing', `${EX}D`],
  ]);
  const placeholder = runGovernance(snapshotOf(body), policyGovernance(strict)).findings.find(
    (f) => f.rule_id === 'annotations.definition_placeholder',
  )!;
  assert.equal(placeholder.axiom, `AnnotationAssertion(<${IAO}0000115> <${EX}B> " TBD ")`);
});

test('lifecycle: status values must be allowed, deprecated terms must name a replacement', () => {
  const body = `Declaration(AnnotationProperty(:status))
    Declaration(Class(:A)) AnnotationAssertion(rdfs:label :A "a") AnnotationAssertion(:status :A "ready")
    Declaration(Class(:B)) AnnotationAssertion(rdfs:label :B "b") AnnotationAssertion(:status :B "draft")
    Declaration(Class(:C)) AnnotationAssertion(rdfs:label :C "c") AnnotationAssertion(:status :C :Released)
    Declaration(Class(:D)) AnnotationAssertion(rdfs:label :D "d") AnnotationAssertion(owl:deprecated :D "true"^^xsd:boolean)
    Declaration(Class(:E)) AnnotationAssertion(rdfs:label :E "e") AnnotationAssertion(owl:deprecated :E "true"^^xsd:boolean) AnnotationAssertion(<${IAO}0100001> :E :A)`;
  const p = policy({
    prefixes: { ex: EX },
    annotations: { label: { required: false } },
    lifecycle: { status_property: 'ex:status', allowed_statuses: ['ready', 'ex:Released'], deprecated_requires_replacement: true },
  });
  assert.deepEqual(governance(p, body), [
    ['lifecycle.status_invalid', `${EX}B`],
    ['lifecycle.replacement_missing', `${EX}D`],
  ]);
  assert.deepEqual(governance(policy({ annotations: { label: { required: false } } }), body), [], 'nothing configured, nothing checked');
});

test('iri_policy and annotations.required of the policy reach the governance stage', () => {
  const p = policy({ iri_policy: { required_namespaces: [EX], pattern: '#[A-Z]' }, annotations: { required: ['rdfs:comment'] } });
  const body =
    'Declaration(Class(:A)) AnnotationAssertion(rdfs:label :A "a") Declaration(Class(:b)) AnnotationAssertion(rdfs:label :b "b") AnnotationAssertion(rdfs:comment :b "c")';
  assert.deepEqual(governance(p, body), [
    ['iri_policy', `${EX}b`],
    ['required_annotations', `${EX}A`],
  ]);
});

test('the policy reasoner must be the captured selection: mismatch, none selected and unknown names error, naming both', () => {
  const el = reasonerById('el');
  const structural = reasonerById('structural');
  assert.equal(policyReasonerProblem('el', el), null);
  assert.equal(policyReasonerProblem('Athene EL++ Classifier', el), null, 'a version-less name matches by the reference rule');
  assert.match(
    policyReasonerProblem('el', structural)!,
    /requires Athene EL\+\+ Classifier [^ ]+ \[el\] but the window's selected reasoner is Athene Structural Reasoner [^ ]+ \[structural\]/,
  );
  assert.match(
    policyReasonerProblem('HermiT', el)!,
    /"HermiT" names no installed reasoner \(installed: .*\[el\].*\); the window's selected reasoner is .*\[el\]/,
  );
  assert.match(policyReasonerProblem('Athene', el)!, /matches several reasoners/);
});

test('in the gate: a mismatching selection makes the reasoner stage error without classifying', async () => {
  const snapshot = captureSnapshot(windowOf(workspace(ontology('Declaration(Class(:A))'))), [], 'en');
  const { options } = policyGateConfig(policy({ reasoning: { reasoner: 'el', required: true } }), null);
  const r = await runGate({
    snapshot,
    stages: ['reasoner'],
    required: ['reasoner'],
    reasoner: reasonerById('structural'),
    timeoutMs: 60_000,
    signal: new AbortController().signal,
    limit: 25,
    options,
  });
  assert.equal(r.gate, 'error');
  const stage = at(r.stages, 0);
  assert.equal(stage.status, 'error');
  assert.match(stage.reason!, /\[el\].*\[structural\]/);
  assert.equal(stage.details, undefined, 'no classification was started');
});

test('in the gate: the policy profile is enforced', async () => {
  const snapshot = captureSnapshot(
    windowOf(workspace(ontology('Declaration(Class(:A)) Declaration(Class(:B)) SubClassOf(:A ObjectUnionOf(:A :B))'))),
    [],
    'en',
  );
  const gate = (p: EffectivePolicy) =>
    runGate({
      snapshot,
      stages: ['profile'],
      required: ['profile'],
      reasoner: reasonerById('el'),
      timeoutMs: 60_000,
      signal: new AbortController().signal,
      limit: 25,
      options: policyGateConfig(p, null).options,
    });
  assert.equal((await gate(policy({ interoperability: { owl_profile: 'EL' } }))).gate, 'fail');
  assert.equal((await gate(policy())).gate, 'pass', 'the default DL profile allows unions');
});
