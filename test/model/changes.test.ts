import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyBatch, applyChange, invertChange, ChangeError, type Change } from '../../src/model/changes.js';
import { Ontology } from '../../src/model/ontology.js';
import * as t from '../../src/model/terms.js';
import { zoo, ex } from './helpers.js';

const A = t.subClassOf(t.cls(ex('Cat')), t.cls(ex('Animal')));

/** An ontology whose add fails for one axiom, to break a batch midway. */
class FailingOntology extends Ontology {
  constructor(private readonly poison: t.Axiom) {
    super();
  }
  override add(a: t.Axiom): boolean {
    if (a === this.poison) throw new Error('disk full');
    return super.add(a);
  }
}

test('an add of a present axiom is a no-op; its inverse is a remove', () => {
  const o = zoo();
  const r1 = applyChange({ kind: 'AddAxiom', ontology: o, axiom: A });
  assert.equal(r1.effective, true);
  assert.deepEqual(invertChange(r1), { kind: 'RemoveAxiom', ontology: o, axiom: A });
  const r2 = applyChange({ kind: 'AddAxiom', ontology: o, axiom: A });
  assert.equal(r2.effective, false);
  assert.equal(invertChange(r2), null);
});

test('set ontology id records the previous id for undo', () => {
  const o = zoo();
  const r = applyChange({ kind: 'SetOntologyId', ontology: o, id: { iri: 'http://x.org/o', versionIri: 'http://x.org/o/1' } });
  assert.equal(o.id.versionIri, 'http://x.org/o/1');
  applyChange(invertChange(r)!);
  assert.deepEqual(o.id, { iri: ex('').slice(0, -1), versionIri: null });
});

test('prefix changes are applied but not undoable', () => {
  const o = zoo();
  const r = applyChange({ kind: 'SetPrefix', ontology: o, prefix: 'zoo:', namespace: 'http://other/' });
  assert.equal(r.effective, true);
  assert.equal(o.prefixes.get('zoo:'), 'http://other/');
  assert.equal(invertChange(r), null);
  assert.notEqual(r.restore, null);
});

test('a batch that throws midway is rolled back entirely, header and prefixes included', () => {
  const poison = t.subClassOf(t.cls(ex('X')), t.cls(ex('Y')));
  const o = new FailingOntology(poison);
  o.prefixes.set('a:', 'http://a/');
  const before = [...o.axioms()];
  const batch: Change[] = [
    { kind: 'AddAxiom', ontology: o, axiom: A },
    { kind: 'AddImport', ontology: o, iri: 'http://imp/' },
    { kind: 'SetPrefix', ontology: o, prefix: 'a:', namespace: 'http://changed/' },
    { kind: 'SetOntologyId', ontology: o, id: { iri: 'http://new/', versionIri: null } },
    { kind: 'AddAxiom', ontology: o, axiom: poison },
  ];
  assert.throws(() => applyBatch(batch), /disk full/);
  assert.deepEqual([...o.axioms()], before);
  assert.equal(o.imports.size, 0);
  assert.equal(o.prefixes.get('a:'), 'http://a/');
  assert.equal(o.id.iri, null);
});

test('invalid changes are refused before anything is applied', () => {
  const o = zoo();
  const n = o.axiomCount;
  const nt = new Ontology();
  nt.format = 'ntriples';
  assert.throws(
    () =>
      applyBatch([
        { kind: 'AddAxiom', ontology: o, axiom: A },
        { kind: 'SetPrefix', ontology: nt, prefix: 'x:', namespace: 'http://x/' },
      ]),
    ChangeError,
  );
  assert.equal(o.axiomCount, n);
  assert.throws(() => applyBatch([{ kind: 'SetPrefix', ontology: o, prefix: 'bad', namespace: 'http://x/' }]), ChangeError);
  assert.throws(() => applyBatch([{ kind: 'SetOntologyId', ontology: o, id: { iri: null, versionIri: 'http://v/' } }]), ChangeError);
});

test('ontology annotations and imports report their effect', () => {
  const o = zoo();
  const ann = t.annotation(t.annotationProperty('http://www.w3.org/2000/01/rdf-schema#comment'), t.literal('zoo'));
  const results = applyBatch([
    { kind: 'AddOntologyAnnotation', ontology: o, annotation: ann },
    { kind: 'AddOntologyAnnotation', ontology: o, annotation: ann },
    { kind: 'RemoveImport', ontology: o, iri: 'http://absent/' },
  ]);
  assert.deepEqual(
    results.map((r) => r.effective),
    [true, false, false],
  );
  assert.equal(o.annotations.has(ann), true);
});
