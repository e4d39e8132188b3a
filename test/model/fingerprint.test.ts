import { test } from 'node:test';
import assert from 'node:assert/strict';
import { semanticFingerprint, documentFingerprint, forgetFingerprint } from '../../src/model/fingerprint.js';
import { Ontology } from '../../src/model/ontology.js';
import * as t from '../../src/model/terms.js';
import { ex, EX, label, workspaceWith } from './helpers.js';
import { at } from '../support/at.js';

const P = t.objectProperty(ex('p'));

/** The same content built in a given axiom order, with its own blank-node labels. */
function build(order: number[], blank: string): Ontology {
  const o = new Ontology();
  o.id = { iri: EX, versionIri: null };
  o.imports.add('http://imp/b');
  o.imports.add('http://imp/a');
  const anon = t.anonymousIndividual(blank);
  const axioms: t.Axiom[] = [
    t.subClassOf(t.cls(ex('A')), t.cls(ex('B'))),
    label(ex('A'), 'a', 'en'),
    t.objectPropertyAssertion(P, t.namedIndividual(ex('i')), anon),
    t.classAssertion(t.cls(ex('B')), anon),
  ];
  for (const i of order) o.add(at(axioms, i));
  return o;
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

test('semantic fingerprint is stable across load orders and blank-node labels', () => {
  const a = build([0, 1, 2, 3], 'x1');
  const b = build([3, 2, 1, 0], 'genid99');
  assert.match(semanticFingerprint(a), DIGEST);
  assert.equal(semanticFingerprint(a), semanticFingerprint(b));
});

test('semantic fingerprint changes with axioms and header, and returns after an undo', () => {
  const o = build([0, 1, 2, 3], 'x');
  const ws = workspaceWith(o);
  const f0 = semanticFingerprint(o);
  const extra = t.subClassOf(t.cls(ex('C')), t.cls(ex('A')));
  ws.apply([{ kind: 'AddAxiom', ontology: o, axiom: extra }]);
  const f1 = semanticFingerprint(o);
  assert.notEqual(f1, f0);
  // the incrementally maintained digest equals one computed from scratch
  forgetFingerprint(o);
  assert.equal(semanticFingerprint(o), f1);
  ws.undo();
  assert.equal(semanticFingerprint(o), f0);
  ws.apply([{ kind: 'AddImport', ontology: o, iri: 'http://imp/c' }]);
  assert.notEqual(semanticFingerprint(o), f0);
  ws.undo();
  ws.apply([{ kind: 'SetOntologyId', ontology: o, id: { iri: EX, versionIri: EX + '/1' } }]);
  assert.notEqual(semanticFingerprint(o), f0);
});

test('an edit to an axiom with an anonymous individual changes the fingerprint', () => {
  const o = build([0, 1, 2, 3], 'x');
  const ws = workspaceWith(o);
  const f0 = semanticFingerprint(o);
  ws.apply([{ kind: 'AddAxiom', ontology: o, axiom: t.classAssertion(t.cls(ex('C')), t.anonymousIndividual('x')) }]);
  assert.notEqual(semanticFingerprint(o), f0);
});

test('document fingerprint also covers prefixes and format; the semantic one does not', () => {
  const o = build([0, 1, 2, 3], 'x');
  const s0 = semanticFingerprint(o);
  const d0 = documentFingerprint(o);
  assert.notEqual(s0, d0);
  o.prefixes.set('ex:', EX + '#');
  const d1 = documentFingerprint(o);
  assert.notEqual(d1, d0);
  o.format = 'rdfxml';
  assert.notEqual(documentFingerprint(o), d1);
  assert.equal(semanticFingerprint(o), s0);
});

test('header edits through the workspace that keep every size (a prefix rebound) change the cached document fingerprint', () => {
  const o = build([0, 1, 2, 3], 'x');
  o.prefixes.set('ex:', EX + '#');
  const ws = workspaceWith(o);
  const d0 = documentFingerprint(o);
  ws.apply([{ kind: 'SetPrefix', ontology: o, prefix: 'ex:', namespace: EX + '/other#' }]);
  const d1 = documentFingerprint(o);
  assert.notEqual(d1, d0);
  const first = t.annotation(t.annotationProperty(ex('note')), t.literal('one'));
  ws.apply([{ kind: 'AddOntologyAnnotation', ontology: o, annotation: first }]);
  const d2 = documentFingerprint(o);
  ws.apply([
    { kind: 'RemoveOntologyAnnotation', ontology: o, annotation: first },
    { kind: 'AddOntologyAnnotation', ontology: o, annotation: t.annotation(t.annotationProperty(ex('note')), t.literal('two')) },
  ]);
  const d3 = documentFingerprint(o);
  assert.notEqual(d3, d2);
  // each equals a fingerprint of the same content computed afresh
  const fresh = build([0, 1, 2, 3], 'y');
  fresh.prefixes.set('ex:', EX + '/other#');
  fresh.annotations.add(t.annotation(t.annotationProperty(ex('note')), t.literal('two')));
  assert.equal(documentFingerprint(fresh), d3);
  ws.undo();
  assert.equal(documentFingerprint(o), d2);
});
