import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cls, subClassOf } from '../../src/model/terms.js';
import { ChangeError, type Change } from '../../src/model/changes.js';
import { captureSnapshot } from '../../src/qc/snapshot.js';
import { EX, ontology, workspace, windowOf } from './support.js';

const A = cls(EX + 'A');
const B = cls(EX + 'B');

test('a snapshot carries the delta while the live ontology, revision and undo stack stay untouched', () => {
  const ws = workspace(
    ontology('Declaration(Class(:A)) Declaration(Class(:B))', 'http://example.org/t', ['http://example.org/imp']),
    ontology('Declaration(Class(:I))', 'http://example.org/imp'),
  );
  const live = ws.active;
  const before = { revision: ws.revision, axioms: live.axiomCount, undo: ws.undoDepth, dirty: ws.isDirty(live) };
  const add = subClassOf(A, B);
  const snap = captureSnapshot(windowOf(ws), [{ kind: 'AddAxiom', ontology: live, axiom: add }], 'en');
  assert.ok(snap.ontology.has(add));
  assert.equal(snap.ontology.axiomCount, before.axioms + 1);
  assert.ok(!live.has(add));
  assert.deepEqual({ revision: ws.revision, axioms: live.axiomCount, undo: ws.undoDepth, dirty: ws.isDirty(live) }, before);
  assert.equal(snap.revision, before.revision);
  assert.notEqual(snap.ontology, live);
  assert.equal(snap.closure[0], snap.ontology);
  assert.deepEqual(snap.closure.slice(1), [ws.ontologies[1]]);
  // the copy shares header and indexes nothing with the live ontology
  snap.ontology.prefixes.set('zz:', 'http://zz/');
  assert.ok(!live.prefixes.has('zz:'));
  assert.equal(snap.ontology.index.superClasses(A).length, 1);
  assert.equal(live.index.superClasses(A).length, 0);
});

test('removals and header changes in the delta shape the snapshot closure', () => {
  const ws = workspace(
    ontology('Declaration(Class(:A)) SubClassOf(:A owl:Thing)'),
    ontology('Declaration(Class(:I))', 'http://example.org/imp'),
  );
  const live = ws.active;
  const [sub] = live.axiomsOfKind('SubClassOf');
  assert.ok(sub);
  const delta: Change[] = [
    { kind: 'RemoveAxiom', ontology: live, axiom: sub },
    { kind: 'AddImport', ontology: live, iri: 'http://example.org/imp' },
  ];
  const snap = captureSnapshot(windowOf(ws), delta, 'en');
  assert.ok(!snap.ontology.has(sub));
  assert.ok(live.has(sub));
  assert.equal(snap.closure.length, 2);
  assert.equal(snap.closure[1], ws.ontologies[1]);
  assert.equal(live.imports.size, 0);
});

test('a malformed delta throws its ChangeError and changes nothing', () => {
  const ws = workspace(ontology('Declaration(Class(:A))'));
  const live = ws.active;
  const id = live.id;
  const bad: Change = { kind: 'SetOntologyId', ontology: live, id: { iri: null, versionIri: 'http://example.org/v1' } };
  assert.throws(
    () => captureSnapshot(windowOf(ws), [{ kind: 'AddAxiom', ontology: live, axiom: subClassOf(A, B) }, bad], 'en'),
    ChangeError,
  );
  assert.equal(live.id, id);
  assert.ok(!live.has(subClassOf(A, B)));
});
