// The RDF graph can state what no OWL 2 construct is. The Structural Specification's arity rules hold for
// what the reader builds: a one-operand intersection or union is its operand (same meaning), a one-link
// chain the plain subproperty axiom; an empty enumeration, a one-member SameIndividual or an equivalence of a
// class with itself is reported as unmappable. So the functional writer never writes syntax that neither the
// OWL API nor Athene reads back. A cyclic blank-node expression is reported, and the rest loads.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readTurtle } from '../../src/model/formats/turtle-reader.js';
import { readRdfXml } from '../../src/model/formats/rdfxml-reader.js';
import { readFunctional } from '../../src/model/formats/functional/reader.js';
import { writeFunctional } from '../../src/model/formats/functional/writer.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';
import type { Ontology } from '../../src/model/ontology.js';

const PREFIXES = `@prefix : <http://ex.org/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
`;
const e = (s: string) => s.replace(/(?<![\w<]):(\w+)/g, '<http://ex.org/$1>');
const logical = (o: Ontology) => axiomLines(o.axioms()).filter((l) => !l.startsWith('Declaration('));

/** What the functional writer writes, Athene reads back to the same axioms. */
function assertFunctionalRoundTrip(o: Ontology): void {
  assert.deepEqual(axiomLines(readFunctional(writeFunctional(o)).axioms()), axiomLines(o.axioms()));
}

test('one-operand owl:intersectionOf / owl:unionOf are their operand (Structural Specification §8.1.1, §8.1.2, §7.1, §7.2)', async () => {
  const o = await readTurtle(
    PREFIXES +
      `:A a owl:Class ; rdfs:subClassOf [ owl:intersectionOf ( :B ) ] , [ owl:unionOf ( :C :C ) ] .
    :p a owl:ObjectProperty ; rdfs:domain [ a owl:Class ; owl:unionOf ( :D ) ] .
    :d a owl:DatatypeProperty ; rdfs:range [ a rdfs:Datatype ; owl:unionOf ( <http://www.w3.org/2001/XMLSchema#integer> ) ] .`,
  );
  assert.deepEqual(logical(o), [
    'DataPropertyRange(<http://ex.org/d> <http://www.w3.org/2001/XMLSchema#integer>)',
    e('ObjectPropertyDomain(:p :D)'),
    e('SubClassOf(:A :B)'),
    e('SubClassOf(:A :C)'),
  ]);
  assert.deepEqual(o.unmapped, []);
  assertFunctionalRoundTrip(o);
});

test('an empty owl:oneOf is unmappable (ObjectOneOf and DataOneOf need a member, §8.1.4, §7.4)', async () => {
  const o = await readTurtle(PREFIXES + ':A rdfs:subClassOf [ owl:oneOf () ] . :B rdfs:subClassOf :C .');
  assert.deepEqual(logical(o), [e('SubClassOf(:B :C)')]);
  assert.ok(
    o.unmapped.some((u) => /empty list/.test(u.reason)),
    JSON.stringify(o.unmapped),
  );
  assertFunctionalRoundTrip(o);
});

test('n-ary axioms with fewer than two distinct operands are unmappable (SameIndividual §9.6.1, EquivalentClasses §9.1.2)', async () => {
  const o = await readTurtle(
    PREFIXES +
      `:a owl:sameAs :a . :A a owl:Class ; owl:equivalentClass :A . :p a owl:ObjectProperty ; owl:equivalentProperty :p .
    [ a owl:AllDifferent ; owl:distinctMembers ( :a ) ] . [ a owl:AllDisjointClasses ; owl:members ( :A ) ] .
    :b owl:sameAs :c .`,
  );
  assert.deepEqual(logical(o), [e('SameIndividual(:b :c)')]);
  assert.equal(o.unmapped.filter((u) => /two distinct operands/.test(u.reason)).length, 5, JSON.stringify(o.unmapped, null, 1));
  assertFunctionalRoundTrip(o);
});

test('a one-link property chain is the plain subproperty axiom (§9.2.1)', async () => {
  const o = await readTurtle(PREFIXES + ':p a owl:ObjectProperty . :q a owl:ObjectProperty ; owl:propertyChainAxiom ( :p ) .');
  assert.deepEqual(logical(o), [e('SubObjectPropertyOf(:p :q)')]);
  assertFunctionalRoundTrip(o);
});

test('a cyclic blank-node class expression is reported as unmappable and the rest of the document loads', async () => {
  const o = await readTurtle(
    PREFIXES +
      `:A rdfs:subClassOf _:x . _:x owl:complementOf _:x .
    :B rdfs:subClassOf _:y . _:y owl:intersectionOf ( :C _:y ) .
    :D rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :p ; owl:someValuesFrom _:z ] . _:z owl:unionOf ( _:z :E ) .
    :F rdfs:subClassOf :G .`,
  );
  assert.deepEqual(logical(o), [e('SubClassOf(:F :G)')]);
  assert.equal(o.unmapped.filter((u) => /cyclic/.test(u.reason)).length, 3, JSON.stringify(o.unmapped, null, 1));
});

test('a cycle through RDF/XML node ids loads the rest too', async () => {
  const o = await readRdfXml(`<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#"
  xmlns:owl="http://www.w3.org/2002/07/owl#">
  <owl:Class rdf:about="http://ex.org/A"><rdfs:subClassOf rdf:nodeID="c"/></owl:Class>
  <owl:Class rdf:nodeID="c"><owl:complementOf rdf:nodeID="c"/></owl:Class>
  <owl:Class rdf:about="http://ex.org/F"><rdfs:subClassOf rdf:resource="http://ex.org/G"/></owl:Class>
</rdf:RDF>`);
  assert.deepEqual(logical(o), [e('SubClassOf(:F :G)')]);
  assert.ok(o.unmapped.some((u) => /cyclic/.test(u.reason)));
});
