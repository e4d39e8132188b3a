// Kinds come from the whole graph before anything is mapped (OWL 2 Mapping to RDF Graphs §3.1: declarations
// are analysed first, then axioms are read), so the same triples in any order give the same axioms; and the
// built-in annotation properties stay annotation properties (Structural Specification §5.8.1).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readTurtle } from '../../src/model/formats/turtle-reader.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';

const X = 'http://ex.org/';
const OWL = 'http://www.w3.org/2002/07/owl#';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';

/** N-Triples lines with `:x`, `owl:x`, `rdf:x`, `rdfs:x` abbreviations expanded. */
const nt = (lines: string[]) =>
  lines.map(
    (l) =>
      l
        .replace(/\bowl:(\w+)/g, `<${OWL}$1>`)
        .replace(/\brdfs:(\w+)/g, `<${RDFS}$1>`)
        .replace(/\brdf:(\w+)/g, `<${RDF}$1>`)
        .replace(/(?<![\w<]):(\w+)/g, `<${X}$1>`) + ' .',
  );

async function readBothWays(lines: string[]) {
  const forward = await readTurtle(nt(lines).join('\n'), { syntax: 'ntriples' });
  const reversed = await readTurtle(nt(lines).reverse().join('\n'), { syntax: 'ntriples' });
  return { forward, reversed, lines: axiomLines(forward.axioms()).filter((l) => !l.startsWith('Declaration(')) };
}

test('a declared data property stays one whatever order its subproperty triple comes in (Mapping to RDF Graphs §3.1)', async () => {
  const { forward, reversed, lines } = await readBothWays([
    ':o rdf:type owl:ObjectProperty',
    ':d rdf:type owl:DatatypeProperty',
    ':d rdfs:subPropertyOf :o',
    ':d rdfs:domain :C',
    ':C rdf:type owl:Class',
    ':x :d "1"',
  ]);
  assert.deepEqual(axiomLines(reversed.axioms()), axiomLines(forward.axioms()));
  assert.deepEqual(lines, [
    `DataPropertyAssertion(<${X}d> <${X}x> "1"^^<http://www.w3.org/2001/XMLSchema#string>)`,
    `DataPropertyDomain(<${X}d> <${X}C>)`,
  ]);
  // Structural Specification §9.2.1/§9.3.1: a subproperty axiom never mixes object and data properties.
  assert.ok(forward.unmapped.some((u) => u.text.includes('subPropertyOf') && /object and a data property/.test(u.reason)));
});

test('an untyped property is typed by its use in a restriction for every triple that mentions it, in any order', async () => {
  const { forward, reversed, lines } = await readBothWays([
    ':p rdfs:domain :D',
    ':A rdfs:subClassOf _:r',
    '_:r rdf:type owl:Restriction',
    '_:r owl:onProperty :p',
    '_:r owl:someValuesFrom :B',
    ':a :p :b',
  ]);
  assert.deepEqual(axiomLines(reversed.axioms()), axiomLines(forward.axioms()));
  assert.deepEqual(lines, [
    `ObjectPropertyAssertion(<${X}p> <${X}a> <${X}b>)`,
    `ObjectPropertyDomain(<${X}p> <${X}D>)`,
    `SubClassOf(<${X}A> ObjectSomeValuesFrom(<${X}p> <${X}B>))`,
  ]);
});

test('a blank node typed rdfs:Datatype is a data range wherever its rdf:type triple stands', async () => {
  const { forward, reversed, lines } = await readBothWays([
    ':major owl:equivalentClass _:i',
    '_:i owl:intersectionOf _:l1',
    '_:l1 rdf:first :age',
    '_:l1 rdf:rest _:l2',
    '_:l2 rdf:first _:c',
    '_:l2 rdf:rest rdf:nil',
    '_:c owl:datatypeComplementOf :minor',
    '_:i rdf:type rdfs:Datatype',
  ]);
  assert.deepEqual(axiomLines(reversed.axioms()), axiomLines(forward.axioms()));
  assert.deepEqual(lines, [`DatatypeDefinition(<${X}major> DataIntersectionOf(<${X}age> DataComplementOf(<${X}minor>)))`]);
});

test('built-in annotation properties never change kind: rdfs:label stays an annotation property and the header keeps its label', async () => {
  const ttl = `@prefix : <${X}> . @prefix owl: <${OWL}> . @prefix rdfs: <${RDFS}> .
    <${X}ont> a owl:Ontology ; rdfs:label "The ontology" .
    :P a owl:ObjectProperty ; rdfs:subPropertyOf rdfs:label .
    :a :P :b .
    :A rdfs:subClassOf [ a owl:Restriction ; owl:onProperty rdfs:label ; owl:someValuesFrom :B ] .`;
  const o = await readTurtle(ttl);
  const lines = axiomLines(o.axioms());
  assert.equal(o.annotations.size, 1, 'the ontology keeps its own label');
  assert.ok(lines.includes(`SubAnnotationPropertyOf(<${X}P> <${RDFS}label>)`));
  assert.ok(lines.includes(`ObjectPropertyAssertion(<${X}P> <${X}a> <${X}b>)`));
  assert.ok(
    !lines.some((l) => l.includes(`ObjectProperty(<${RDFS}label>`) || l.includes(`ObjectSomeValuesFrom(<${RDFS}label>`)),
    lines.join('\n'),
  );
  assert.ok(o.unmapped.some((u) => /annotation property, used as an object property/.test(u.reason)));
});

test('a built-in annotation property declared as an object property is reported, not retyped', async () => {
  const o = await readTurtle(`@prefix owl: <${OWL}> . @prefix rdfs: <${RDFS}> .
    <${X}ont> a owl:Ontology ; rdfs:comment "c" . rdfs:comment a owl:ObjectProperty .`);
  assert.equal(o.annotations.size, 1);
  assert.deepEqual(axiomLines(o.axioms()), []);
  assert.ok(o.unmapped.some((u) => /built-in annotation property/.test(u.reason)));
});
