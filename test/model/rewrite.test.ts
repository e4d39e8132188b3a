// Renaming one IRI inside model nodes (src/model/rewrite.ts): every place an OWL 2 document can use an IRI,
// checked against the same ontology written with the new IRI, plus the axioms a rename has to touch.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFunctional } from '../../src/model/formats/functional/reader.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';
import { axiomsMentioning, mentionsIri, renameIri } from '../../src/model/rewrite.js';
import * as t from '../../src/model/terms.js';

const EX = 'http://example.org/r#';
const OLD = EX + 'Old';
const NEW = EX + 'New';

/** One document per case; `X` is replaced by the IRI under test. */
const BODY = `
Declaration(Class(:X))
Declaration(NamedIndividual(:X))
Declaration(ObjectProperty(:p))
Declaration(DataProperty(:d))
Declaration(AnnotationProperty(:note))
SubClassOf(:X ObjectSomeValuesFrom(:p ObjectIntersectionOf(:A ObjectComplementOf(:X))))
EquivalentClasses(:B ObjectUnionOf(:X ObjectOneOf(:X :i)))
DisjointClasses(:X :C)
DisjointUnion(:A :X :C)
ClassAssertion(:X :X)
ObjectPropertyAssertion(:p :i :X)
NegativeObjectPropertyAssertion(:p :X :i)
DataPropertyAssertion(:d :i "3"^^:X)
HasKey(:X (:p) (:d))
SubClassOf(:A ObjectHasValue(:p :X))
SubClassOf(:A ObjectMaxCardinality(2 :p :X))
SubClassOf(:A DataSomeValuesFrom(:d DatatypeRestriction(xsd:integer xsd:minInclusive "1"^^xsd:integer)))
AnnotationAssertion(rdfs:label :X "x"@en)
AnnotationAssertion(rdfs:seeAlso :A :X)
AnnotationAssertion(Annotation(Annotation(:note :X) rdfs:comment "why") rdfs:comment :A "nested")
SubClassOf(Annotation(rdfs:seeAlso :X) :A :C)
AnnotationPropertyDomain(:note :X)
AnnotationPropertyRange(:note :X)
DLSafeRule(Body(ClassAtom(:X Variable(:v)) ObjectPropertyAtom(:p Variable(:v) :X)) Head(ClassAtom(:A Variable(:v))))
SubClassOf(:C :A)
`;

const doc = (x: string) =>
  `Prefix(:=<${EX}>)\nPrefix(xsd:=<http://www.w3.org/2001/XMLSchema#>)\nPrefix(rdfs:=<http://www.w3.org/2000/01/rdf-schema#>)\n` +
  `Ontology(<http://example.org/r>\n${BODY.replaceAll(':X', x)}\n)`;

test('renameIri rewrites entities of every kind, annotation subjects and values, nested annotations, rules and literal datatypes', () => {
  const before = readFunctional(doc(':Old'));
  const expected = readFunctional(doc(':New'));
  const renamed = [...before.axioms()].map((a) => renameIri(a, OLD, NEW));
  assert.deepEqual(axiomLines(renamed).sort(), axiomLines(expected.axioms()).sort());
  for (const a of renamed) assert.equal(mentionsIri(a, OLD), false, axiomLines([a])[0]);
});

test('renameIri returns the very node when the IRI is absent, and interned nodes when it merges', () => {
  const o = readFunctional(doc(':Old'));
  const untouched = [...o.axioms()].find((a) => a.kind === 'SubClassOf' && a.sub === t.cls(EX + 'C'))!;
  assert.equal(renameIri(untouched, OLD, NEW), untouched);
  const sub = t.subClassOf(t.cls(OLD), t.cls(EX + 'A'));
  assert.equal(
    renameIri(sub, OLD, EX + 'C'),
    t.subClassOf(t.cls(EX + 'C'), t.cls(EX + 'A')),
    'renaming onto an existing IRI yields the existing axiom',
  );
  const equivalent = t.equivalentClasses([t.cls(OLD), t.cls(EX + 'A')]);
  assert.equal(renameIri(equivalent, OLD, EX + 'A'), t.equivalentClasses([t.cls(EX + 'A')]));
});

test('renameIri leaves rule variables, built-in atoms and facets alone', () => {
  const rule = t.dlSafeRule([t.builtInAtom(OLD, [t.variable(OLD)])], [t.classAtom(t.cls(EX + 'A'), t.variable(OLD))]);
  assert.equal(mentionsIri(rule, OLD), false);
  assert.equal(renameIri(rule, OLD, NEW), rule);
  const range = t.datatypeRestriction(t.datatype(OLD), [t.facetRestriction(OLD, t.literal('1'))]);
  assert.equal(renameIri(range, OLD, NEW), t.datatypeRestriction(t.datatype(NEW), [t.facetRestriction(OLD, t.literal('1'))]));
});

test('renameIri keeps language-tagged literals as they are', () => {
  const a = t.annotationAssertion(t.annotationProperty(OLD), t.iriNode(EX + 'A'), t.literal('chat', undefined, 'fr'));
  assert.equal(
    renameIri(a, OLD, NEW),
    t.annotationAssertion(t.annotationProperty(NEW), t.iriNode(EX + 'A'), t.literal('chat', undefined, 'fr')),
  );
});

test('axiomsMentioning finds entity references and IRIs hidden in annotations, and nothing else', () => {
  const o = readFunctional(doc(':Old'));
  const found = axiomsMentioning(o, OLD);
  const expected = [...o.axioms()].filter((a) => mentionsIri(a, OLD));
  assert.equal(found.length, expected.length);
  assert.deepEqual(new Set(found), new Set(expected));
  assert.equal(found.length, o.axiomCount - 5, 'all but the :p, :d and :note declarations, the datatype restriction and SubClassOf(:C :A)');
  assert.deepEqual(axiomsMentioning(o, EX + 'nowhere'), []);
});
