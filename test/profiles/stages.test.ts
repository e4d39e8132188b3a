// The profile and governance QC stages over snapshots, and finding identities.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFunctional } from '../../src/model/formats/functional/reader.js';
import type { Ontology } from '../../src/model/ontology.js';
import type { Finding, QcSnapshot } from '../../src/qc/finding.js';
import { profileStage } from '../../src/qc/stages/profile.js';
import { governanceStage } from '../../src/qc/stages/governance.js';
import { findingId, identityDigest } from '../../src/qc/identity.js';
import { onto, PREFIXES } from './support.js';
import { at } from '../support/at.js';

const snapshot = (closure: Ontology[]): QcSnapshot => ({ ontology: at(closure, 0), closure, revision: 1, labelLanguage: 'en' });

/** An imported ontology declaring :Imp (class) and :impProp, with a profile violation of its own. */
function imported(): Ontology {
  return readFunctional(
    `${PREFIXES}Ontology(<http://other.org/imp>\nDeclaration(Class(<http://other.org/Imp>))\n` +
      `Declaration(ObjectProperty(<http://other.org/impProp>))\nTransitiveObjectProperty(<http://other.org/impProp>)\n` +
      `FunctionalObjectProperty(<http://other.org/impProp>)\n)`,
  );
}

test('profile stage: owned violations fail it, imported ones are context only', () => {
  const clean = onto('SubClassOf(:A :B)', 'http://ex.org/o', 'Import(<http://other.org/imp>)\n');
  const out = profileStage(snapshot([clean, imported()]));
  assert.equal(out.status, 'completed');
  assert.equal(out.verdict, 'pass');
  assert.deepEqual(out.findings, []);
  const details = out.details as {
    in_profile: boolean;
    owned_in_profile: boolean;
    imported_violations: { count: number; items: { kind: string }[] };
  };
  assert.equal(details.in_profile, false);
  assert.equal(details.owned_in_profile, true);
  assert.equal(details.imported_violations.count, 1);
  assert.equal(at(details.imported_violations.items, 0).kind, 'non_simple_property_in_functional');

  const dirty = onto('SubClassOf(:Z :B)');
  const failed = profileStage(snapshot([dirty]), 'EL');
  assert.equal(failed.verdict, 'fail');
  assert.equal(failed.findings.length, 1);
  const f = at(failed.findings, 0);
  assert.equal(f.source, 'profile');
  assert.equal(f.severity, 'error');
  assert.equal(f.rule_id, 'owl_profile.undeclared_entity');
  assert.equal(f.focus_iri, 'http://ex.org/Z');
  assert.equal(f.axiom, 'SubClassOf(<http://ex.org/Z> <http://ex.org/B>)');
});

test('profile stage: none and Full skip it, an unknown profile errors', () => {
  const o = onto('');
  assert.equal(profileStage(snapshot([o]), 'none').status, 'skipped');
  assert.equal(profileStage(snapshot([o]), 'Full').status, 'skipped');
  const bad = profileStage(snapshot([o]), 'XL');
  assert.equal(bad.status, 'error');
  assert.match(bad.reason!, /unknown OWL profile "XL"/);
});

test('finding ids are stable across sessions and distinct per problem; the digest ignores order', () => {
  const a = profileStage(snapshot([onto('SubClassOf(:Z :B)\nSubClassOf(:Y :B)')])).findings;
  const b = profileStage(snapshot([onto('SubClassOf(:Y :B)\nSubClassOf(:Z :B)')])).findings;
  assert.deepEqual(a.map((f) => f.id).sort(), b.map((f) => f.id).sort());
  assert.equal(new Set(a.map((f) => f.id)).size, 2);
  assert.match(at(a, 0).id, /^sha256:[0-9a-f]{64}$/);
  assert.equal(identityDigest(a), identityDigest([...b].reverse()));
  assert.notEqual(identityDigest(a), identityDigest(a.slice(1)));
  assert.notEqual(
    findingId('governance', 'required_annotations', 'x', null, 'label'),
    findingId('governance', 'required_annotations', 'x', null, 'definition'),
  );
  const waived: Finding = {
    ...at(a, 0),
    waiver: { rule_id: at(a, 0).rule_id, focus_iri: at(a, 0).focus_iri, reason: 'known', expires: null },
  };
  assert.notEqual(identityDigest([waived, at(a, 1)]), identityDigest(a));
});

test('governance iri_policy: owned IRIs outside the required namespaces or the pattern', () => {
  const o = onto('Declaration(Class(<http://elsewhere.org/X>))\nDeclaration(Class(:bad_name))');
  const out = governanceStage(snapshot([o]), {
    required_namespaces: ['http://ex.org/'],
    iri_pattern: '^http://[^#]+/[A-Za-z]+$',
    check_ownership: false,
  });
  assert.equal(out.verdict, 'fail');
  assert.deepEqual(
    out.findings.map((f) => [f.rule_id, f.focus_iri, f.severity]),
    [
      ['iri_policy', 'http://elsewhere.org/X', 'error'],
      ['iri_policy', 'http://ex.org/bad_name', 'error'],
    ],
  );
  assert.match(at(out.findings, 0).message, /outside the required namespaces/);
  assert.match(at(out.findings, 1).message, /does not match iri_pattern/);
  // imported terms are not owned, so the policy does not apply to them
  const withImport = onto('', 'http://ex.org/o', 'Import(<http://other.org/imp>)\n');
  assert.deepEqual(governanceStage(snapshot([withImport, imported()]), { required_namespaces: ['http://ex.org/'] }).findings, []);
});

test('governance required_annotations: label, definition, CURIE and name references; unresolvable ones are notes', () => {
  const o = onto(
    'Declaration(AnnotationProperty(:status))\nAnnotationAssertion(rdfs:label :status "status")\n' +
      'AnnotationAssertion(rdfs:label :A "A")\nAnnotationAssertion(<http://purl.obolibrary.org/obo/IAO_0000115> :A "an A")\n' +
      'AnnotationAssertion(:status :A "ready")',
  );
  const out = governanceStage(snapshot([o]), { required_annotations: ['label', 'definition', 'status', 'nosuch'], check_ownership: false });
  const missing = out.findings.map((f) => [f.focus_iri, (f.details as { required: string }).required]);
  // :A carries all three; every other owned class and property lacks each; individuals are exempt
  assert.ok(!missing.some(([iri]) => iri === 'http://ex.org/A'));
  assert.ok(missing.some(([iri, r]) => iri === 'http://ex.org/B' && r === 'label'));
  assert.ok(missing.some(([iri, r]) => iri === 'http://ex.org/p' && r === 'definition'));
  assert.ok(!missing.some(([iri]) => iri === 'http://ex.org/a'));
  assert.equal(new Set(out.findings.map((f) => f.id)).size, out.findings.length);
  assert.deepEqual((out.details as { notes: string[] }).notes, [
    'required annotation "nosuch" is not checked: no annotation property has that IRI, CURIE or name.',
  ]);
  const curie = governanceStage(snapshot([o]), { required_annotations: ['rdfs:comment'], check_ownership: false });
  assert.ok(
    curie.findings.every((f) => (f.details as { properties: string[] }).properties[0] === 'http://www.w3.org/2000/01/rdf-schema#comment'),
  );
});

test('governance import_layering: logical axioms about imported terms warn; check_ownership=false and include_imports turn it off', () => {
  const o = onto(
    'Declaration(Class(<http://other.org/Imp>))\nSubClassOf(:A <http://other.org/Imp>)\n' +
      'SubClassOf(<http://other.org/Sub> <http://other.org/Imp>)\nDeclaration(Class(<http://other.org/Sub>))\n' +
      'FunctionalObjectProperty(<http://other.org/impProp>)\nAnnotationAssertion(rdfs:label <http://other.org/impProp> "x")',
    'http://ex.org/o',
    'Import(<http://other.org/imp>)\n',
  );
  const imp = imported();
  const out = governanceStage(snapshot([o, imp]), {});
  // :Imp and :Sub are declared locally too (owned); impProp is only declared in the import
  assert.deepEqual(
    out.findings.map((f) => [f.rule_id, f.severity, f.focus_iri, f.axiom]),
    [['import_layering', 'warn', 'http://other.org/impProp', 'FunctionalObjectProperty(<http://other.org/impProp>)']],
  );
  assert.equal(out.verdict, 'warn');
  assert.deepEqual(governanceStage(snapshot([o, imp]), { check_ownership: false }).findings, []);
  assert.deepEqual(governanceStage(snapshot([o, imp]), { include_imports: true }).findings, []);
});

test('governance stage errors on an invalid iri_pattern and passes with nothing to check', () => {
  const o = onto('');
  const out = governanceStage(snapshot([o]), { iri_pattern: '(' });
  assert.equal(out.status, 'error');
  assert.match(out.reason!, /invalid iri_pattern/);
  const clean = governanceStage(snapshot([o]), {});
  assert.equal(clean.verdict, 'pass');
});
