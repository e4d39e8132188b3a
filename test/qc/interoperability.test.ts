import { test } from 'node:test';
import assert from 'node:assert/strict';
import { captureSnapshot } from '../../src/qc/snapshot.js';
import {
  compareContent,
  formatsToCheck,
  interoperabilityStage,
  ontologyContent,
  roundTrip,
  type OntologyContent,
} from '../../src/qc/stages/interoperability.js';
import { findingId } from '../../src/qc/identity.js';
import { EX, ontology, workspace, windowOf } from './support.js';
import { at } from '../support/at.js';

const RICH = `Annotation(rdfs:comment "an ontology"@en)
Declaration(Class(:A)) Declaration(Class(:B)) Declaration(ObjectProperty(:p)) Declaration(NamedIndividual(:i))
AnnotationAssertion(rdfs:label :A "A"@en) SubClassOf(Annotation(rdfs:comment "why") :A ObjectSomeValuesFrom(:p :B))
SubClassOf(:B ObjectUnionOf(:A ObjectComplementOf(:A))) ClassAssertion(:A _:x) ObjectPropertyAssertion(:p _:x :i)`;

const snapshotOf = (body: string, imports: readonly string[] = []) =>
  captureSnapshot(windowOf(workspace(ontology(body, 'http://example.org/t', imports))), [], 'en');

test('a clean round trip through every requested format passes, each format checked once', async () => {
  const s = snapshotOf(RICH, ['http://example.org/other']);
  const out = await interoperabilityStage(s, {
    format: 'turtle',
    roundTripFormats: ['ofn', 'owlxml', 'rdfxml', 'jsonld', 'manchester', 'turtle'],
  });
  assert.equal(out.status, 'completed');
  assert.equal(out.verdict, 'pass');
  assert.deepEqual(out.findings, []);
  assert.deepEqual(out.details?.formats, ['turtle', 'ofn', 'owlxml', 'rdfxml', 'jsonld', 'manchester']);
  assert.deepEqual(out.details?.clean_formats, out.details?.formats);
});

test('without the policy options the stage is skipped and says it needs a policy', async () => {
  const out = await interoperabilityStage(snapshotOf(RICH), undefined);
  assert.equal(out.status, 'skipped');
  assert.match(out.reason!, /needs a project policy/);
});

test('a format that cannot hold the ontology is a finding naming the format; the others stay clean', async () => {
  // OBO keeps what it has no tag for in owl-axioms, but an IRI with no OBO id form has no OBO spelling at all
  const out = await interoperabilityStage(snapshotOf(RICH + '\nDeclaration(Class(<tag:example.org,2024:x>))'), {
    format: 'turtle',
    roundTripFormats: ['obo'],
  });
  assert.equal(out.verdict, 'fail');
  assert.equal(out.findings.length, 1);
  const f = at(out.findings, 0);
  assert.equal(f.rule_id, 'interoperability.write_failed');
  assert.equal(f.severity, 'error');
  assert.equal(f.source, 'interoperability');
  assert.equal(f.focus_iri, 'http://example.org/t');
  assert.match(f.message, /obo/);
  assert.equal(f.details?.format, 'obo');
  assert.deepEqual(out.details?.clean_formats, ['turtle']);
  assert.equal(f.id, findingId('interoperability', 'interoperability.write_failed', 'http://example.org/t', null, 'obo'));
});

test('what the RDF mapping adds is reported with the axioms in functional syntax', async () => {
  // An undeclared individual gains a declaration when written as RDF and read back.
  const out = await interoperabilityStage(snapshotOf('Declaration(Class(:A)) ClassAssertion(:A :i)'), {
    format: 'ofn',
    roundTripFormats: ['turtle'],
  });
  assert.equal(out.verdict, 'fail');
  assert.deepEqual(
    out.findings.map((f) => f.rule_id),
    ['interoperability.axioms_added'],
  );
  assert.deepEqual(at(out.findings, 0).details, {
    format: 'turtle',
    axioms: { count: 1, sample: [`Declaration(NamedIndividual(<${EX}i>))`] },
  });
  assert.deepEqual(out.details?.clean_formats, ['ofn']);
});

test('compareContent names every kind of difference: lost and added axioms, id, imports, annotations', () => {
  const before: OntologyContent = {
    iri: 'http://x/o',
    versionIri: 'http://x/o/1',
    imports: ['http://x/i'],
    annotations: ['Annotation(<http://x/c> "a")'],
    axioms: ['A', 'B', 'C'],
  };
  assert.deepEqual(compareContent('turtle', before, before), []);
  const after: OntologyContent = { iri: 'http://x/o', versionIri: null, imports: [], annotations: [], axioms: ['A', 'D'] };
  const diffs = compareContent('manchester', before, after);
  assert.deepEqual(
    diffs.map((d) => d.rule),
    [
      'interoperability.axioms_lost',
      'interoperability.axioms_added',
      'interoperability.ontology_id_changed',
      'interoperability.imports_changed',
      'interoperability.annotations_changed',
    ],
  );
  assert.deepEqual(at(diffs, 0).details, { format: 'manchester', axioms: { count: 2, sample: ['B', 'C'] } });
  assert.deepEqual(at(diffs, 3).details, { format: 'manchester', lost: ['http://x/i'], added: [] });
  assert.ok(diffs.every((d) => d.message.startsWith('manchester ')));
});

test('samples are capped while counts stay complete', () => {
  const many = Array.from({ length: 25 }, (_, i) => `X${String(i).padStart(2, '0')}`);
  const [lost] = compareContent(
    'ofn',
    { iri: null, versionIri: null, imports: [], annotations: [], axioms: many },
    { iri: null, versionIri: null, imports: [], annotations: [], axioms: [] },
  );
  assert.ok(lost);
  assert.deepEqual(lost.details.axioms, { count: 25, sample: many.slice(0, 10), truncated: 15 });
});

test('anonymous individuals compare by content, not by blank-node label', async () => {
  const o = ontology(RICH);
  assert.deepEqual(await roundTrip(o, ontologyContent(o), 'ntriples'), []);
  assert.deepEqual(ontologyContent(ontology(RICH)), ontologyContent(o));
});

test('formatsToCheck keeps the primary format first and drops repeats', () => {
  assert.deepEqual(formatsToCheck({ format: 'rdfxml', roundTripFormats: ['turtle', 'rdfxml', 'ofn'] }), ['rdfxml', 'turtle', 'ofn']);
});

test('past the deadline the stage errors instead of judging a partial check', async () => {
  const out = await interoperabilityStage(snapshotOf(RICH), { format: 'turtle', roundTripFormats: [] }, Date.now() - 1);
  assert.equal(out.status, 'error');
  assert.match(out.reason!, /ran out of time/);
});
