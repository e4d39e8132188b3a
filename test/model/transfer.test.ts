import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFunctional } from '../../src/model/formats/functional/reader.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';
import { Ontology } from '../../src/model/ontology.js';
import * as t from '../../src/model/terms.js';
import { decodeOntology, decodeOntologyYielding, encodeOntology, transferables, type EncodedOntology } from '../../src/model/transfer.js';
import { kindsIn } from '../support/node-kinds.js';
import { at } from '../support/at.js';

function allConstructs(): Ontology {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  const text = readFileSync(path.join(dir, 'test/fixtures/functional/all-constructs.ofn'), 'utf8');
  return readFunctional(text, { base: 'http://ex.org/doc' });
}

/** What a postMessage with the transfer list does: a structured clone that moves the buffers. */
function acrossThreads(e: EncodedOntology): EncodedOntology {
  return structuredClone(e, { transfer: transferables(e) });
}

function header(o: Ontology) {
  return {
    id: o.id,
    imports: [...o.imports].sort(),
    annotations: [...o.annotations].map((a) => a.id).sort(),
    prefixes: [...o.prefixes].sort(),
    format: o.format,
    documentIri: o.documentIri,
    unmapped: o.unmapped,
  };
}

test('round trip of every axiom, expression, data range and SWRL atom kind keeps axiom lines and header', () => {
  const o = allConstructs();
  o.documentIri = '/tmp/all-constructs.ofn';
  o.format = 'ofn';
  o.unmapped.push({ text: '_:x <http://ex.org/q> "?"', reason: 'not OWL' });
  const kinds = kindsIn(o.axioms());
  for (const k of t.AXIOM_KINDS) assert.ok(kinds.has(k), `fixture lacks ${k}`);
  for (const k of ['DatatypeRestriction', 'DataOneOf', 'ObjectInverseOf', 'BuiltInAtom', 'Variable', 'AnonymousIndividual', 'IRI']) {
    assert.ok(kinds.has(k), `fixture lacks ${k}`);
  }

  const back = decodeOntology(acrossThreads(encodeOntology(o)));
  assert.deepEqual(axiomLines(back.axioms()), axiomLines(o.axioms()));
  assert.equal(back.axiomCount, o.axiomCount);
  assert.deepEqual(header(back), header(o));
  assert.ok(back.id.iri !== null && back.annotations.size > 0 && back.imports.size > 0, 'the fixture header is not empty');
  // Same thread: decoding goes through the factories, so it yields the very same interned objects.
  for (const a of o.axioms()) assert.ok(back.has(a), `missing ${a.kind}`);
});

test('transfer moves the typed arrays instead of copying them', () => {
  const e = encodeOntology(allConstructs());
  const program = e.program;
  const moved = acrossThreads(e);
  assert.equal(program.byteLength, 0, 'the sender keeps no copy');
  assert.ok(moved.program.length > 0);
});

test('shared sub-expressions are encoded once; bags keep repetitions; literals keep language and datatype', () => {
  const A = t.cls('http://ex.org/A');
  const B = t.cls('http://ex.org/B');
  const p = t.objectProperty('http://ex.org/p');
  const some = t.objectSomeValuesFrom(p, t.objectIntersectionOf([A, B]));
  const o = new Ontology();
  o.add(t.subClassOf(A, some));
  o.add(t.subClassOf(B, some));
  o.add(t.equivalentClasses([A, some]));
  o.add(t.disjointClasses([A, B, A]));
  const anon = t.anonymousIndividual('_:n1');
  const label = t.annotationProperty('http://www.w3.org/2000/01/rdf-schema#label');
  o.add(t.annotationAssertion(label, anon, t.literal('Chien', undefined, 'FR')));
  o.add(t.dataPropertyAssertion(t.dataProperty('http://ex.org/d'), anon, t.literal('7', 'http://www.w3.org/2001/XMLSchema#integer')));

  const e = encodeOntology(o);
  assert.equal(e.strings.split('http://ex.org/A').length - 1, 1, 'an IRI is stored once per leaf');
  const one = new Ontology();
  one.add(t.subClassOf(A, some));
  const two = new Ontology();
  two.add(t.subClassOf(A, some));
  two.add(t.subClassOf(B, some));
  // The second axiom costs only its own record (code, sub, sup, empty annotation list): `some` is shared.
  assert.equal(encodeOntology(two).program.length - encodeOntology(one).program.length, 4);
  const back = decodeOntology(e);
  assert.deepEqual(axiomLines(back.axioms()), axiomLines(o.axioms()));
  const disjoint = at([...back.axiomsOfKind('DisjointClasses')], 0);
  assert.equal(disjoint.classes.length, 3, 'DisjointClasses(A B A) keeps its repetition');
  const lit = at([...back.axiomsOfKind('AnnotationAssertion')], 0).value;
  assert.equal(lit.kind === 'Literal' && lit.lang, 'fr');
});

test('a corrupt program is rejected', () => {
  const e = encodeOntology(allConstructs());
  const bad: EncodedOntology = { ...e, program: Int32Array.from([9999]) };
  assert.throws(() => decodeOntology(bad), /corrupt ontology encoding/);
});

test('an empty anonymous ontology round-trips', () => {
  const back = decodeOntology(encodeOntology(new Ontology()));
  assert.equal(back.axiomCount, 0);
  assert.deepEqual(back.id, { iri: null, versionIri: null });
});

test('the yielding decoder gives the same ontology and lets other work run between slices', async () => {
  const o = allConstructs();
  let ticks = 0;
  const timer = setInterval(() => ticks++, 0);
  const many = new Ontology();
  for (let i = 0; i < 20000; i++) many.add(t.subClassOf(t.cls(`http://ex.org/Y${i}`), t.cls('http://ex.org/Top')));
  const back = await decodeOntologyYielding(encodeOntology(many), 0);
  clearInterval(timer);
  assert.equal(back.axiomCount, 20000);
  assert.ok(ticks > 0, 'the event loop ran while decoding');
  const again = await decodeOntologyYielding(encodeOntology(o));
  assert.deepEqual(axiomLines(again.axioms()), axiomLines(o.axioms()));
});
