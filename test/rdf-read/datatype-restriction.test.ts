// Constraining facets (xsd:pattern, xsd:minInclusive, …) are reserved vocabulary (Structural Specification
// §2.4, §7.5): they restrict datatypes and are never annotation properties, and an owl:withRestrictions
// list maps to a DatatypeRestriction (Mapping to RDF Graphs §3.2.3, Table 12). The OWL API reads OWL-Time's
// generalDay as annotations on blank nodes; the W3C mapping gives its datatype definition.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readTurtle } from '../../src/model/formats/turtle-reader.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';

const PREFIXES = `@prefix : <http://ex.org/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
`;
const XSD = 'http://www.w3.org/2001/XMLSchema#';

test('a named datatype carrying owl:onDatatype and owl:withRestrictions (OWL-Time generalDay) is a DatatypeDefinition', async () => {
  const o = await readTurtle(
    PREFIXES +
      `:generalDay rdf:type rdfs:Datatype ; rdfs:label "Generalized day"@en ;
    owl:onDatatype xsd:string ; owl:withRestrictions ( [ xsd:pattern "---(0[1-9]|[1-9][0-9])" ] ) .`,
  );
  assert.deepEqual(axiomLines(o.axioms()), [
    `AnnotationAssertion(<http://www.w3.org/2000/01/rdf-schema#label> <http://ex.org/generalDay> "Generalized day"@en)`,
    `DatatypeDefinition(<http://ex.org/generalDay> DatatypeRestriction(<${XSD}string> <${XSD}pattern> "---(0[1-9]|[1-9][0-9])"^^<${XSD}string>))`,
    'Declaration(Datatype(<http://ex.org/generalDay>))',
  ]);
  assert.deepEqual(o.unmapped, []);
});

test('the OWL 2 form: owl:equivalentClass to a restricted blank datatype', async () => {
  const o = await readTurtle(
    PREFIXES +
      `:age a rdfs:Datatype ; owl:equivalentClass [ a rdfs:Datatype ; owl:onDatatype xsd:integer ;
    owl:withRestrictions ( [ xsd:minInclusive 0 ] [ xsd:maxInclusive 150 ] ) ] .`,
  );
  assert.ok(
    axiomLines(o.axioms()).includes(
      `DatatypeDefinition(<http://ex.org/age> DatatypeRestriction(<${XSD}integer> <${XSD}maxInclusive> "150"^^<${XSD}integer> <${XSD}minInclusive> "0"^^<${XSD}integer>))`,
    ),
  );
  assert.deepEqual(o.unmapped, []);
});

test('a facet used as a predicate outside a restriction is reserved vocabulary: unmapped, never an annotation property', async () => {
  const o = await readTurtle(PREFIXES + ':x xsd:pattern "[a-z]+" . :y xsd:minInclusive 3 .');
  assert.deepEqual(axiomLines(o.axioms()), []);
  assert.equal(o.unmapped.length, 2);
  assert.deepEqual(o.entities('AnnotationProperty'), [], 'no facet is an annotation property');
});
