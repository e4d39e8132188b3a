// Readings beyond the strict OWL 2 mapping that the OWL API also makes: rdf:PlainLiteral values, OWL 1.1
// constructs, properties typed by their range, Dublin Core elements, and the annotations of import targets.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readTurtle } from '../../src/model/formats/turtle-reader.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';

const PREFIXES = `@prefix : <http://ex.org/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix dc: <http://purl.org/dc/elements/1.1/> .
`;

async function lines(ttl: string): Promise<string[]> {
  const o = await readTurtle(PREFIXES + ttl, {});
  return axiomLines(o.axioms()).filter((l) => !l.startsWith('Declaration('));
}

test('rdf:PlainLiteral "text@lang" is a language-tagged string, "text@" a plain string', async () => {
  assert.deepEqual(await lines(':a rdfs:label "chat@FR"^^rdf:PlainLiteral , "plain@"^^rdf:PlainLiteral .'), [
    'AnnotationAssertion(<http://www.w3.org/2000/01/rdf-schema#label> <http://ex.org/a> "chat"@fr)',
    'AnnotationAssertion(<http://www.w3.org/2000/01/rdf-schema#label> <http://ex.org/a> "plain"^^<http://www.w3.org/2001/XMLSchema#string>)',
  ]);
});

test('OWL 1.1: owl:propertyChain subproperty, owl:SelfRestriction, owl:disjointObjectProperties', async () => {
  assert.deepEqual(
    await lines(`:p a owl:ObjectProperty . :q a owl:ObjectProperty .
    [ owl:propertyChain (:p :q) ] rdfs:subPropertyOf :r .
    :A rdfs:subClassOf [ a owl:SelfRestriction ; owl:onProperty :p ] .
    :p owl:disjointObjectProperties :q .`),
    [
      'DisjointObjectProperties(<http://ex.org/p> <http://ex.org/q>)',
      'SubClassOf(<http://ex.org/A> ObjectHasSelf(<http://ex.org/p>))',
      'SubObjectPropertyOf(ObjectPropertyChain(<http://ex.org/p> <http://ex.org/q>) <http://ex.org/r>)',
    ],
  );
});

test('owl:onProperties with one data property is a data restriction; with two it stays unmapped', async () => {
  assert.deepEqual(await lines(':A rdfs:subClassOf [ a owl:Restriction ; owl:onProperties (:d) ; owl:someValuesFrom xsd:integer ] .'), [
    'SubClassOf(<http://ex.org/A> DataSomeValuesFrom(<http://ex.org/d> <http://www.w3.org/2001/XMLSchema#integer>))',
  ]);
  const o = await readTurtle(
    PREFIXES + ':A rdfs:subClassOf [ a owl:Restriction ; owl:onProperties (:d :e) ; owl:someValuesFrom xsd:integer ] .',
    {},
  );
  assert.equal(axiomLines(o.axioms()).length, 0);
  assert.ok(o.unmapped.some((u) => /onProperties with 2 properties/.test(u.reason)));
});

test('an untyped property is typed by its range before its domain is read', async () => {
  assert.deepEqual(
    await lines(`:C a rdfs:Class .
    :p rdfs:domain :D ; rdfs:range :C . :d rdfs:domain :D ; rdfs:range rdfs:Literal .`),
    [
      'DataPropertyDomain(<http://ex.org/d> <http://ex.org/D>)',
      'DataPropertyRange(<http://ex.org/d> <http://www.w3.org/2000/01/rdf-schema#Literal>)',
      'ObjectPropertyDomain(<http://ex.org/p> <http://ex.org/D>)',
      'ObjectPropertyRange(<http://ex.org/p> <http://ex.org/C>)',
    ],
  );
});

test('a subproperty of an untyped Dublin Core element is an annotation subproperty', async () => {
  assert.deepEqual(await lines(':p a owl:ObjectProperty ; rdfs:subPropertyOf dc:relation , :q .'), [
    'SubAnnotationPropertyOf(<http://ex.org/p> <http://purl.org/dc/elements/1.1/relation>)',
    'SubObjectPropertyOf(<http://ex.org/p> <http://ex.org/q>)',
  ]);
});

test("annotations on an import target are ontology annotations; its version IRI is not the ontology's", async () => {
  const o = await readTurtle(
    PREFIXES +
      `<http://ex.org/o> a owl:Ontology ; owl:imports <http://ex.org/lib> .
    <http://ex.org/lib> rdfs:comment "library" ; owl:versionIRI <http://ex.org/lib/2> .`,
    {},
  );
  assert.deepEqual(o.id, { iri: 'http://ex.org/o', versionIri: null });
  assert.deepEqual(
    [...o.annotations].map((a) => (a.value as { lex: string }).lex),
    ['library'],
  );
  assert.equal(axiomLines(o.axioms()).length, 0);
});
