import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  auditStructure,
  AuditTimeout,
  structuralStage,
  STRUCTURAL_CHECKS,
  type StructuralCheckId,
} from '../../src/qc/stages/structural.js';
import { captureSnapshot } from '../../src/qc/snapshot.js';
import { EX, ontology, workspace, windowOf } from './support.js';
import { at } from '../support/at.js';

const IAO_DEF = 'http://purl.obolibrary.org/obo/IAO_0000115';
const FAR = () => Date.now() + 60_000;

/** The focus IRIs (local names) of one check over the active ontology of `body` (plus imported ontologies). */
function fired(check: StructuralCheckId, body: string, opts: { includeImports?: boolean; imported?: string } = {}): string[] {
  const imports = opts.imported === undefined ? [] : ['http://example.org/imp'];
  const onts = [ontology(body, 'http://example.org/t', imports)];
  if (opts.imported !== undefined) onts.push(ontology(opts.imported, 'http://example.org/imp'));
  const ws = workspace(...onts);
  const [report] = auditStructure(
    { ontology: ws.active, closure: ws.importsClosure(ws.active), labelLanguage: 'en' },
    { checks: [check], includeImports: opts.includeImports ?? false, deadline: FAR() },
  );
  assert.ok(report);
  assert.equal(report.id, check);
  return report.issues.map((i) => at(i.entities, 0).iri.replace(EX, ''));
}

test('missing_label flags unlabelled classes and properties, not imported terms unless include_imports, nor CQ terms', () => {
  const body = `Declaration(Class(:A)) Declaration(Class(:B)) Declaration(ObjectProperty(:p)) AnnotationAssertion(rdfs:label :B "B")
    Declaration(Class(<urn:athene:cq#Q1>)) SubClassOf(:A :I)`;
  const imported = 'Declaration(Class(:I))';
  assert.deepEqual(fired('missing_label', body, { imported }), ['A', 'p']);
  assert.deepEqual(fired('missing_label', body, { imported, includeImports: true }), ['A', 'I', 'p']);
  assert.deepEqual(fired('missing_label', 'Declaration(Class(:A)) AnnotationAssertion(rdfs:label :A "A"@fr)'), []);
});

test('missing_definition accepts IAO:0000115 and skos:definition and exempts deprecated terms', () => {
  const body = `Declaration(Class(:A)) Declaration(Class(:B)) Declaration(Class(:C)) Declaration(Class(:D))
    AnnotationAssertion(<${IAO_DEF}> :A "An A.") AnnotationAssertion(<http://www.w3.org/2004/02/skos/core#definition> :D "A D.")
    AnnotationAssertion(owl:deprecated :C "true"^^xsd:boolean)`;
  assert.deepEqual(fired('missing_definition', body), ['B']);
});

test('duplicate_label groups labels by language, ignoring case and spacing, and leaves deprecated terms out', () => {
  const body = `Declaration(Class(:A)) Declaration(Class(:B)) Declaration(Class(:C)) Declaration(Class(:D))
    AnnotationAssertion(rdfs:label :A "Cat"@en) AnnotationAssertion(rdfs:label :B " cat"@en)
    AnnotationAssertion(rdfs:label :C "Cat"@de) AnnotationAssertion(rdfs:label :D "Cat"@en)
    AnnotationAssertion(owl:deprecated :D "true"^^xsd:boolean)`;
  const ws = workspace(ontology(body));
  const [r] = auditStructure(
    { ontology: ws.active, closure: [ws.active], labelLanguage: 'en' },
    { checks: ['duplicate_label'], includeImports: false, deadline: FAR() },
  );
  assert.ok(r);
  assert.equal(r.issues.length, 1);
  assert.deepEqual(
    at(r.issues, 0).entities.map((e) => e.iri),
    [EX + 'A', EX + 'B'],
  );
  assert.equal(at(r.issues, 0).axiom?.kind, 'AnnotationAssertion');
  assert.deepEqual(
    fired(
      'duplicate_label',
      'Declaration(Class(:A)) AnnotationAssertion(rdfs:label :A "Cat"@en) AnnotationAssertion(rdfs:label :A "cat"@en)',
    ),
    [],
  );
});

test('multiple_labels flags two labels in one language, not one label per language', () => {
  const body = `Declaration(Class(:A)) Declaration(Class(:B))
    AnnotationAssertion(rdfs:label :A "Cat"@en) AnnotationAssertion(rdfs:label :A "Kitty"@en)
    AnnotationAssertion(rdfs:label :B "Dog"@en) AnnotationAssertion(rdfs:label :B "Hund"@de)`;
  assert.deepEqual(fired('multiple_labels', body), ['A']);
});

test('deprecated_in_use reports each logical use of a deprecated term, not annotation-only mentions', () => {
  const body = `Declaration(Class(:A)) Declaration(Class(:B)) Declaration(Class(:Old)) Declaration(Class(:Quiet))
    AnnotationAssertion(owl:deprecated :Old "true"^^xsd:boolean) AnnotationAssertion(owl:deprecated :Quiet "true"^^xsd:boolean)
    AnnotationAssertion(rdfs:label :Quiet "quiet") SubClassOf(:A :Old) SubClassOf(:B :Old)`;
  assert.deepEqual(fired('deprecated_in_use', body), ['Old', 'Old']);
  assert.deepEqual(fired('deprecated_in_use', body.replace('SubClassOf(:A :Old) SubClassOf(:B :Old)', '')), []);
});

test('undeclared_entity flags entities declared nowhere in the closure', () => {
  const body = 'Declaration(Class(:A)) SubClassOf(:A :U) SubClassOf(:A :I) SubClassOf(:A owl:Thing)';
  assert.deepEqual(fired('undeclared_entity', body, { imported: 'Declaration(Class(:I))' }), ['U']);
  assert.deepEqual(fired('undeclared_entity', 'Declaration(Class(:A)) Declaration(Class(:U)) SubClassOf(:A :U)'), []);
});

test('property_missing_domain and _range count asserted, inverse and inherited domains and ranges', () => {
  const body = `Declaration(Class(:A)) Declaration(ObjectProperty(:p)) Declaration(ObjectProperty(:q)) Declaration(ObjectProperty(:r))
    Declaration(ObjectProperty(:s)) Declaration(DataProperty(:d))
    ObjectPropertyDomain(:q :A) ObjectPropertyRange(:q :A) SubObjectPropertyOf(:r :q)
    ObjectPropertyRange(ObjectInverseOf(:s) :A) DataPropertyRange(:d xsd:string)`;
  assert.deepEqual(fired('property_missing_domain', body), ['d', 'p']);
  assert.deepEqual(fired('property_missing_range', body), ['p', 's']);
});

test('self_subclass flags SubClassOf(C C) only', () => {
  assert.deepEqual(fired('self_subclass', 'Declaration(Class(:A)) Declaration(Class(:B)) SubClassOf(:A :A) SubClassOf(:B :A)'), ['A']);
  assert.deepEqual(fired('self_subclass', 'Declaration(Class(:A)) Declaration(Class(:B)) SubClassOf(:B :A)'), []);
});

test('subclass_cycle reports each cycle once with a path through it', () => {
  const body = `Declaration(Class(:A)) Declaration(Class(:B)) Declaration(Class(:C)) Declaration(Class(:D)) Declaration(Class(:E))
    SubClassOf(:B :C) SubClassOf(:C :A) SubClassOf(:A :B) SubClassOf(:D :E) SubClassOf(:E :A)`;
  const ws = workspace(ontology(body));
  const [r] = auditStructure(
    { ontology: ws.active, closure: [ws.active], labelLanguage: 'en' },
    { checks: ['subclass_cycle'], includeImports: false, deadline: FAR() },
  );
  assert.ok(r);
  assert.equal(r.issues.length, 1);
  assert.deepEqual(
    at(r.issues, 0).entities.map((e) => e.iri.replace(EX, '')),
    ['A', 'B', 'C'],
  );
  assert.equal(at(r.issues, 0).detail, 'A → B → C → A');
  assert.deepEqual(fired('subclass_cycle', 'Declaration(Class(:A)) Declaration(Class(:B)) SubClassOf(:A :B)'), []);
});

test('isolated_class flags classes used in no logical axiom', () => {
  const body = `Declaration(Class(:A)) Declaration(Class(:B)) Declaration(Class(:Z)) Declaration(NamedIndividual(:i))
    AnnotationAssertion(rdfs:label :Z "Z") SubClassOf(:A owl:Thing) ClassAssertion(:B :i)`;
  assert.deepEqual(fired('isolated_class', body), ['Z']);
});

test('checks run in report order whatever the filter order; a passed deadline throws AuditTimeout', () => {
  const ws = workspace(ontology('Declaration(Class(:A))'));
  const view = { ontology: ws.active, closure: [ws.active], labelLanguage: 'en' };
  const ids = auditStructure(view, { checks: ['isolated_class', 'missing_label'], includeImports: false, deadline: FAR() }).map(
    (r) => r.id,
  );
  assert.deepEqual(ids, ['missing_label', 'isolated_class']);
  assert.deepEqual(
    auditStructure(view, { includeImports: false, deadline: FAR() }).map((r) => r.id),
    [...STRUCTURAL_CHECKS],
  );
  assert.throws(() => auditStructure(view, { includeImports: false, deadline: Date.now() - 1 }), AuditTimeout);
});

test('the structural stage gates on warn smells only (verdict warn, so fail_on decides), with stable finding ids', () => {
  const warnBody = 'Declaration(Class(:A)) SubClassOf(:A :A)';
  const infoBody = `Declaration(AnnotationProperty(<${IAO_DEF}>)) AnnotationAssertion(rdfs:label <${IAO_DEF}> "definition") Declaration(Class(:A)) AnnotationAssertion(rdfs:label :A "A") AnnotationAssertion(<${IAO_DEF}> :A "An A.")`;
  const cleanBody = `${infoBody} Declaration(Class(:B)) AnnotationAssertion(rdfs:label :B "B") AnnotationAssertion(<${IAO_DEF}> :B "A B.") SubClassOf(:A :B) SubClassOf(:B owl:Thing)`;
  const stage = (body: string) =>
    structuralStage(captureSnapshot(windowOf(workspace(ontology(body))), [], 'en'), { includeImports: false, deadline: FAR() });
  const warn = stage(warnBody);
  assert.equal(warn.verdict, 'warn');
  const self = warn.findings.find((f) => f.rule_id === 'self_subclass')!;
  assert.equal(self.severity, 'warn');
  assert.equal(self.focus_iri, EX + 'A');
  assert.equal(self.axiom, `SubClassOf(<${EX}A> <${EX}A>)`);
  assert.match(self.id, /^sha256:[0-9a-f]{64}$/);
  assert.deepEqual(
    stage(warnBody).findings.map((f) => f.id),
    warn.findings.map((f) => f.id),
  );
  const info = stage(infoBody);
  assert.equal(info.verdict, 'info');
  assert.deepEqual(
    info.findings.map((f) => f.rule_id),
    ['isolated_class'],
  );
  assert.equal(stage(cleanBody).verdict, 'pass');
});
