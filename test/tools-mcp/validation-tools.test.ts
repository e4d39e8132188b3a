// validate_ontology through the real server: every check in report order, samples and limits, the checks
// filter, the reasoner verdict folded in without classifying, and the argument errors.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, callOk, serveTempOntology, type ServedTempOntology } from '../server/support.js';
import { at } from '../support/at.js';

const X = 'http://example.org/smells#';
const ALL = [
  'missing_label',
  'missing_definition',
  'duplicate_label',
  'multiple_labels',
  'deprecated_in_use',
  'undeclared_entity',
  'property_missing_domain',
  'property_missing_range',
  'self_subclass',
  'subclass_cycle',
  'isolated_class',
];

const SMELLS = `Prefix(:=<${X}>)
Prefix(rdfs:=<http://www.w3.org/2000/01/rdf-schema#>)
Prefix(owl:=<http://www.w3.org/2002/07/owl#>)
Prefix(xsd:=<http://www.w3.org/2001/XMLSchema#>)
Ontology(<http://example.org/smells>
Declaration(Class(:Animal)) Declaration(Class(:Cat)) Declaration(Class(:Feline)) Declaration(Class(:Old)) Declaration(Class(:Lonely))
Declaration(Class(:Nameless)) Declaration(ObjectProperty(:eats))
AnnotationAssertion(rdfs:label :Animal "animal"@en) AnnotationAssertion(rdfs:label :Cat "cat"@en)
AnnotationAssertion(rdfs:label :Feline "Cat"@en) AnnotationAssertion(rdfs:label :Feline "feline"@en)
AnnotationAssertion(rdfs:label :Old "old"@en) AnnotationAssertion(owl:deprecated :Old "true"^^xsd:boolean)
AnnotationAssertion(rdfs:label :Lonely "lonely"@en) AnnotationAssertion(rdfs:label :eats "eats"@en)
SubClassOf(:Cat :Feline) SubClassOf(:Feline :Cat) SubClassOf(:Animal :Animal) SubClassOf(:Cat :Old) SubClassOf(:Nameless :Ghost)
SubClassOf(:Cat :Animal)
)
`;

let served: ServedTempOntology;
let c: Client;

before(async () => {
  served = await serveTempOntology('athene-validation-', 'smells.ofn', SMELLS);
  c = served.c;
});
after(() => served.close());

type Check = {
  id: string;
  severity: string;
  count: number;
  examples: { iri: string; display: string; type: string }[];
  details?: string[];
  truncated?: number;
  title: string;
  suggestion: string;
};
const byId = (body: Record<string, unknown>) => new Map((body.checks as Check[]).map((k) => [k.id, k]));
const iris = (k: Check) => k.examples.map((e) => e.iri.replace(X, ''));

test('validate_ontology reports every check in order with counts, samples and details', async () => {
  const body = await callOk(c, 'validate_ontology');
  assert.equal(body.scope, 'active_ontology');
  const checks = body.checks as Check[];
  assert.deepEqual(
    checks.map((k) => k.id),
    ALL,
  );
  assert.equal(
    body.total_issues,
    checks.reduce((n, k) => n + k.count, 0),
  );
  const m = byId(body);
  assert.deepEqual(iris(m.get('missing_label')!), ['Ghost', 'Nameless']);
  assert.equal(m.get('missing_label')!.severity, 'warn');
  assert.deepEqual(iris(m.get('duplicate_label')!), ['Cat', 'Feline']);
  assert.deepEqual(iris(m.get('multiple_labels')!), ['Feline']);
  assert.deepEqual(iris(m.get('deprecated_in_use')!), ['Old']);
  assert.deepEqual(iris(m.get('undeclared_entity')!), ['Ghost']);
  assert.deepEqual(iris(m.get('property_missing_domain')!), ['eats']);
  assert.deepEqual(iris(m.get('self_subclass')!), ['Animal']);
  assert.deepEqual(m.get('subclass_cycle')!.details, ['cat → Cat → cat']);
  assert.deepEqual(iris(m.get('isolated_class')!), ['Lonely']);
  assert.equal(m.get('missing_definition')!.severity, 'info');
  assert.equal(m.get('missing_definition')!.count, 7);
  assert.deepEqual(m.get('missing_label')!.examples[1], { iri: X + 'Nameless', display: 'Nameless', type: 'Class' });
  assert.equal(body.reasoner, undefined);
  assert.match(body.reasoner_note as string, /not a consistency proof/);
  // unchanged state yields byte-identical JSON
  assert.equal(JSON.stringify(await callOk(c, 'validate_ontology')), JSON.stringify(body));
});

test('checks filters (reported in check order) and limit caps samples with a truncation count', async () => {
  const body = await callOk(c, 'validate_ontology', { checks: ['isolated_class', 'missing_definition'], limit: 2 });
  const checks = body.checks as Check[];
  assert.deepEqual(
    checks.map((k) => k.id),
    ['missing_definition', 'isolated_class'],
  );
  assert.equal(at(checks, 0).examples.length, 2);
  assert.equal(at(checks, 0).truncated, 5);
  assert.equal(body.total_issues, 8);
  const zeroTimeout = await callOk(c, 'validate_ontology', { checks: ['self_subclass'], timeout_ms: 0 });
  assert.equal(at(zeroTimeout.checks as Check[], 0).count, 1);
});

test('with_reasoner folds in the current verdict without classifying', async () => {
  const none = await callOk(c, 'validate_ontology', { checks: ['self_subclass'], with_reasoner: true });
  assert.deepEqual(none.reasoner, {
    status: 'not_initialized',
    results_available: false,
    note: 'The selected reasoner has no results: call run_reasoner.',
  });
  await callOk(c, 'set_reasoner', { reasoner: 'el' });
  const unrun = (await callOk(c, 'validate_ontology', { checks: ['self_subclass'], with_reasoner: true })).reasoner as Record<
    string,
    unknown
  >;
  assert.deepEqual([unrun.status, unrun.results_available], ['not_initialized', false]);
  await callOk(c, 'run_reasoner');
  const r = (await callOk(c, 'validate_ontology', { checks: ['self_subclass'], with_reasoner: true })).reasoner as Record<string, unknown>;
  assert.deepEqual([r.status, r.results_available, r.consistent, r.unsatisfiable_count], ['classified', true, true, 0]);
  assert.deepEqual(r.unsatisfiable_classes, []);
});

test('validate_ontology refuses unknown checks, unknown arguments and out-of-range values', async () => {
  for (const args of [
    { checks: ['missing_label', 'spelling'] },
    { checks: [] },
    { limit: 0 },
    { limit: 1.5 },
    { include_imports: 'yes' },
    { verbose: true },
    { timeout_ms: 3_600_001 },
  ]) {
    const r = await call(c, 'validate_ontology', args);
    assert.equal(r.isError, true, JSON.stringify(args));
    assert.equal(r.body.error_code, 'invalid_argument', JSON.stringify(args));
  }
  const unknown = await call(c, 'validate_ontology', { checks: ['spelling'] });
  assert.match(unknown.body.error as string, /checks\.0/);
});
