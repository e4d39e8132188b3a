// One test per construct of the reverse RDF mapping: a small Turtle snippet → expected canonical lines.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readTurtle } from '../../src/model/formats/turtle-reader.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';

const PREFIXES = `@prefix : <http://ex.org/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix swrl: <http://www.w3.org/2003/11/swrl#> .
`;
const X = 'http://ex.org/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

async function lines(ttl: string): Promise<string[]> {
  const o = await readTurtle(PREFIXES + ttl, { base: X });
  return axiomLines(o.axioms()).filter((l) => !l.startsWith('Declaration('));
}

const e = (s: string) => s.replace(/(?<!_):(\w+)/g, `<${X}$1>`).replace(/xsd#(\w+)/g, `<${XSD}$1>`);

async function expectLines(ttl: string, expected: string[]): Promise<void> {
  assert.deepEqual(await lines(ttl), expected.map(e).sort());
}

test('declarations from rdf:type', async () => {
  const o = await readTurtle(
    PREFIXES +
      ':A a owl:Class . :p a owl:ObjectProperty . :d a owl:DatatypeProperty . :i a owl:NamedIndividual . :t a rdfs:Datatype . :an a owl:AnnotationProperty .',
    {},
  );
  assert.deepEqual(axiomLines(o.axioms()), [
    'Declaration(AnnotationProperty(<http://ex.org/an>))',
    'Declaration(Class(<http://ex.org/A>))',
    'Declaration(DataProperty(<http://ex.org/d>))',
    'Declaration(Datatype(<http://ex.org/t>))',
    'Declaration(NamedIndividual(<http://ex.org/i>))',
    'Declaration(ObjectProperty(<http://ex.org/p>))',
  ]);
});

test('subclass, equivalent and disjoint classes, disjoint union', async () => {
  await expectLines(':A rdfs:subClassOf :B . :A owl:equivalentClass :C . :A owl:disjointWith :D . :A owl:disjointUnionOf (:B :D) .', [
    'SubClassOf(:A :B)',
    'EquivalentClasses(:A :C)',
    'DisjointClasses(:A :D)',
    'DisjointUnion(:A :B :D)',
  ]);
});

test('boolean class expressions and enumerations', async () => {
  await expectLines(
    ':A rdfs:subClassOf [ owl:intersectionOf (:B [ owl:complementOf :C ]) ] . :B rdfs:subClassOf [ owl:unionOf (:C :D) ] . :C owl:equivalentClass [ owl:oneOf (:i :j) ] .',
    [
      'SubClassOf(:A ObjectIntersectionOf(:B ObjectComplementOf(:C)))',
      'SubClassOf(:B ObjectUnionOf(:C :D))',
      'EquivalentClasses(:C ObjectOneOf(:i :j))',
    ],
  );
});

test('object restrictions, including inverse properties and qualified cardinality', async () => {
  await expectLines(
    `:p a owl:ObjectProperty .
    :A rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :p ; owl:someValuesFrom :B ] ,
      [ a owl:Restriction ; owl:onProperty [ owl:inverseOf :p ] ; owl:allValuesFrom :B ] ,
      [ a owl:Restriction ; owl:onProperty :p ; owl:hasValue :i ] ,
      [ a owl:Restriction ; owl:onProperty :p ; owl:hasSelf true ] ,
      [ a owl:Restriction ; owl:onProperty :p ; owl:minQualifiedCardinality 2 ; owl:onClass :B ] ,
      [ a owl:Restriction ; owl:onProperty :p ; owl:maxCardinality 1 ] .`,
    [
      'SubClassOf(:A ObjectSomeValuesFrom(:p :B))',
      'SubClassOf(:A ObjectAllValuesFrom(ObjectInverseOf(:p) :B))',
      'SubClassOf(:A ObjectHasValue(:p :i))',
      'SubClassOf(:A ObjectHasSelf(:p))',
      'SubClassOf(:A ObjectMinCardinality(2 :p :B))',
      'SubClassOf(:A ObjectMaxCardinality(1 :p))',
    ],
  );
});

test('data restrictions and data ranges; an undeclared property is typed from its filler', async () => {
  await expectLines(
    `:A rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :age ; owl:someValuesFrom
      [ a rdfs:Datatype ; owl:onDatatype xsd:integer ; owl:withRestrictions ( [ xsd:minInclusive 18 ] ) ] ] ,
      [ a owl:Restriction ; owl:onProperty :name ; owl:hasValue "x" ] ,
      [ a owl:Restriction ; owl:onProperty :name ; owl:qualifiedCardinality 1 ; owl:onDataRange [ a rdfs:Datatype ; owl:datatypeComplementOf xsd:string ] ] .
    :t owl:equivalentClass [ a rdfs:Datatype ; owl:oneOf ( "a" "b" ) ] . :t a rdfs:Datatype .`,
    [
      'SubClassOf(:A DataSomeValuesFrom(:age DatatypeRestriction(xsd#integer xsd#minInclusive "18"^^xsd#integer)))',
      'SubClassOf(:A DataHasValue(:name "x"^^xsd#string))',
      'SubClassOf(:A DataExactCardinality(1 :name DataComplementOf(xsd#string)))',
      'DatatypeDefinition(:t DataOneOf("a"^^xsd#string "b"^^xsd#string))',
    ],
  );
});

test('object property axioms and characteristics', async () => {
  await expectLines(
    `:p a owl:ObjectProperty ; rdfs:subPropertyOf :q ; owl:inverseOf :r ; rdfs:domain :A ; rdfs:range :B ;
      a owl:TransitiveProperty , owl:FunctionalProperty ; owl:propertyChainAxiom ( :q :r ) .
    :q a owl:ObjectProperty ; owl:equivalentProperty :p ; owl:propertyDisjointWith :r . :r a owl:ObjectProperty .`,
    [
      'SubObjectPropertyOf(:p :q)',
      'InverseObjectProperties(:p :r)',
      'ObjectPropertyDomain(:p :A)',
      'ObjectPropertyRange(:p :B)',
      'TransitiveObjectProperty(:p)',
      'FunctionalObjectProperty(:p)',
      'SubObjectPropertyOf(ObjectPropertyChain(:q :r) :p)',
      'EquivalentObjectProperties(:p :q)',
      'DisjointObjectProperties(:q :r)',
    ],
  );
});

test('data and annotation property axioms', async () => {
  await expectLines(
    `:d a owl:DatatypeProperty , owl:FunctionalProperty ; rdfs:domain :A ; rdfs:range xsd:string ; rdfs:subPropertyOf :e .
    :e a owl:DatatypeProperty . :an a owl:AnnotationProperty ; rdfs:subPropertyOf rdfs:label ; rdfs:domain :A ; rdfs:range xsd:string .`,
    [
      'FunctionalDataProperty(:d)',
      'DataPropertyDomain(:d :A)',
      'DataPropertyRange(:d xsd#string)',
      'SubDataPropertyOf(:d :e)',
      'SubAnnotationPropertyOf(:an <http://www.w3.org/2000/01/rdf-schema#label>)',
      'AnnotationPropertyDomain(:an :A)',
      'AnnotationPropertyRange(:an xsd#string)',
    ],
  );
});

test('n-ary axioms: AllDisjointClasses, AllDisjointProperties, AllDifferent, hasKey', async () => {
  await expectLines(
    `[] a owl:AllDisjointClasses ; owl:members ( :A :B :C ) .
    :p a owl:ObjectProperty . :q a owl:ObjectProperty . :d a owl:DatatypeProperty .
    [] a owl:AllDisjointProperties ; owl:members ( :p :q ) .
    [] a owl:AllDifferent ; owl:distinctMembers ( :i :j ) .
    :A owl:hasKey ( :p :d ) .`,
    ['DisjointClasses(:A :B :C)', 'DisjointObjectProperties(:p :q)', 'DifferentIndividuals(:i :j)', 'HasKey(:A (:p) (:d))'],
  );
});

test('individual axioms: class and property assertions, sameAs, negative assertions', async () => {
  await expectLines(
    `:p a owl:ObjectProperty . :d a owl:DatatypeProperty .
    :i a :A ; :p :j ; :d 5 ; owl:sameAs :k ; owl:differentFrom :j .
    [] a owl:NegativePropertyAssertion ; owl:sourceIndividual :i ; owl:assertionProperty :p ; owl:targetIndividual :k .
    [] a owl:NegativePropertyAssertion ; owl:sourceIndividual :i ; owl:assertionProperty :d ; owl:targetValue 6 .`,
    [
      'ClassAssertion(:A :i)',
      'ObjectPropertyAssertion(:p :i :j)',
      'DataPropertyAssertion(:d :i "5"^^xsd#integer)',
      'SameIndividual(:i :k)',
      'DifferentIndividuals(:i :j)',
      'NegativeObjectPropertyAssertion(:p :i :k)',
      'NegativeDataPropertyAssertion(:d :i "6"^^xsd#integer)',
    ],
  );
});

test('anonymous individuals as subjects and objects', async () => {
  await expectLines(':p a owl:ObjectProperty . :i :p [ a :A ; rdfs:label "x" ] .', [
    'ObjectPropertyAssertion(:p :i _:b1)',
    'ClassAssertion(:A _:b1)',
    'AnnotationAssertion(<http://www.w3.org/2000/01/rdf-schema#label> _:b1 "x"^^xsd#string)',
  ]);
});

test('reified axiom annotations, with annotations of annotations', async () => {
  await expectLines(
    `:A rdfs:subClassOf :B .
    [] a owl:Axiom ; owl:annotatedSource :A ; owl:annotatedProperty rdfs:subClassOf ; owl:annotatedTarget :B ; rdfs:comment "why" .
    _:x a owl:Axiom ; owl:annotatedSource :A ; owl:annotatedProperty rdfs:label ; owl:annotatedTarget "A" ; rdfs:comment "c" .
    [] a owl:Annotation ; owl:annotatedSource _:x ; owl:annotatedProperty rdfs:comment ; owl:annotatedTarget "c" ; rdfs:label "n" .
    :A rdfs:label "A" .`,
    [
      'SubClassOf(Annotation(<http://www.w3.org/2000/01/rdf-schema#comment> "why"^^xsd#string) :A :B)',
      'AnnotationAssertion(Annotation(Annotation(<http://www.w3.org/2000/01/rdf-schema#label> "n"^^xsd#string) <http://www.w3.org/2000/01/rdf-schema#comment> "c"^^xsd#string) <http://www.w3.org/2000/01/rdf-schema#label> :A "A"^^xsd#string)',
    ],
  );
});

test('a reification whose target is an equal but distinct blank node replaces the plain axiom', async () => {
  await expectLines(
    `:A owl:equivalentClass [ owl:unionOf (:B :C) ] .
    [] a owl:Axiom ; owl:annotatedSource :A ; owl:annotatedProperty owl:equivalentClass ;
       owl:annotatedTarget [ owl:unionOf (:B :C) ] ; rdfs:comment "c" .`,
    ['EquivalentClasses(Annotation(<http://www.w3.org/2000/01/rdf-schema#comment> "c"^^xsd#string) :A ObjectUnionOf(:B :C))'],
  );
});

test('SWRL rules with variables, annotations and built-ins', async () => {
  await expectLines(
    `:x a swrl:Variable . :y a swrl:Variable . :p a owl:ObjectProperty . :d a owl:DatatypeProperty .
    [] a swrl:Imp ; rdfs:comment "r" ;
      swrl:body ( [ a swrl:ClassAtom ; swrl:classPredicate :A ; swrl:argument1 :x ]
                  [ a swrl:DatavaluedPropertyAtom ; swrl:propertyPredicate :d ; swrl:argument1 :x ; swrl:argument2 :y ]
                  [ a swrl:BuiltinAtom ; swrl:builtin <http://www.w3.org/2003/11/swrlb#greaterThan> ; swrl:arguments ( :y 18 ) ] ) ;
      swrl:head ( [ a swrl:IndividualPropertyAtom ; swrl:propertyPredicate :p ; swrl:argument1 :x ; swrl:argument2 :i ] ) .`,
    [
      'DLSafeRule(Annotation(<http://www.w3.org/2000/01/rdf-schema#comment> "r"^^xsd#string) Body(BuiltInAtom(<http://www.w3.org/2003/11/swrlb#greaterThan> Variable(:y) "18"^^xsd#integer) ClassAtom(:A Variable(:x)) DataPropertyAtom(:d Variable(:x) Variable(:y))) Head(ObjectPropertyAtom(:p Variable(:x) :i)))',
    ],
  );
});

test('ontology header: IRI, version, imports and annotated annotations; other triples unmapped with reasons', async () => {
  const o = await readTurtle(
    PREFIXES +
      `<http://ex.org/o> a owl:Ontology ; owl:versionIRI <http://ex.org/o/1> ;
      owl:imports <http://ex.org/other> ; rdfs:comment "hello" .
    _:l rdf:first :A . :A owl:onProperty :p .`,
    {},
  );
  assert.deepEqual(o.id, { iri: 'http://ex.org/o', versionIri: 'http://ex.org/o/1' });
  assert.deepEqual([...o.imports], ['http://ex.org/other']);
  assert.deepEqual(
    [...o.annotations].map((a) => a.property.iri + ' ' + (a.value as { lex: string }).lex),
    ['http://www.w3.org/2000/01/rdf-schema#comment hello'],
  );
  assert.equal(o.unmapped.length, 2);
  assert.ok(o.unmapped.every((u) => u.reason.length > 0));
  assert.ok(o.unmapped.some((u) => u.text === '<http://ex.org/A> <http://www.w3.org/2002/07/owl#onProperty> <http://ex.org/p> .'));
  assert.equal(o.prefixes.get(':'), X);
});

test('of several owl:Ontology nodes, the one not referenced by another is chosen', async () => {
  const o = await readTurtle(
    PREFIXES + `<http://ex.org/b> a owl:Ontology . <http://ex.org/a> a owl:Ontology ; rdfs:seeAlso <http://ex.org/b> .`,
    {},
  );
  assert.equal(o.id.iri, 'http://ex.org/a');
});
