import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readManchester } from '../../src/model/formats/manchester/reader.js';
import { ManchesterParseError } from '../../src/model/formats/manchester/lexer.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';

const fixture = (name: string) => readFileSync(new URL('../../../test/fixtures/manchester/' + name, import.meta.url), 'utf8');
const compact = (l: string) =>
  l
    .replaceAll('http://ex.org/', ':')
    .replaceAll('http://www.w3.org/2001/XMLSchema#', 'xsd:')
    .replaceAll('http://www.w3.org/2000/01/rdf-schema#', 'rdfs:')
    .replaceAll('http://purl.org/dc/elements/1.1/', 'dc:')
    .replaceAll('http://www.w3.org/2003/11/swrlb#', 'swrlb:')
    .replaceAll('urn:swrl:var#', '?');
const linesOf = (text: string) => axiomLines(readManchester(text, {}).axioms()).map(compact);

test('header: prefixes, ontology IRI and version, imports, nested ontology annotations', () => {
  const o = readManchester(fixture('all-frames.omn'), {});
  assert.deepEqual(o.id, { iri: 'http://ex.org/onto', versionIri: 'http://ex.org/onto/1.0' });
  assert.deepEqual([...o.imports], ['http://ex.org/other']);
  assert.deepEqual(
    [...o.prefixes],
    [
      [':', 'http://ex.org/'],
      ['dc:', 'http://purl.org/dc/elements/1.1/'],
      ['swrlb:', 'http://www.w3.org/2003/11/swrlb#'],
    ],
  );
  assert.equal(o.format, 'manchester');
  const anns = [...o.annotations].map((a) => `${a.property.iri} ${a.annotations.length}`).sort();
  assert.deepEqual(anns, ['http://purl.org/dc/elements/1.1/title 1', 'http://www.w3.org/2000/01/rdf-schema#seeAlso 0']);
});

test('every frame and section gives its axioms', () => {
  const got = new Set(linesOf(fixture('all-frames.omn')));
  const expected = [
    'Declaration(AnnotationProperty(<dc:title>))',
    'AnnotationAssertion(<rdfs:label> <dc:title> "title"^^<xsd:string>)',
    'AnnotationPropertyDomain(<dc:title> <:Thing>)',
    'AnnotationPropertyRange(<dc:title> <xsd:string>)',
    'SubAnnotationPropertyOf(<dc:title> <rdfs:label>)',
    'DatatypeDefinition(<:Age> DatatypeRestriction(<xsd:integer> <xsd:maxInclusive> "150"^^<xsd:integer> <xsd:minInclusive> "0"^^<xsd:integer>))',
    'ObjectPropertyDomain(<:hasPart> <:Whole>)',
    'ObjectPropertyRange(<:hasPart> <:Part>)',
    'ObjectPropertyRange(<:hasPart> <:Thing>)',
    'TransitiveObjectProperty(<:hasPart>)',
    'ReflexiveObjectProperty(Annotation(<rdfs:comment> "why"^^<xsd:string>) <:hasPart>)',
    'SubObjectPropertyOf(<:hasPart> <:related>)',
    'EquivalentObjectProperties(<:contains> <:hasPart>)',
    'DisjointObjectProperties(<:hasMember> <:hasPart>)',
    'InverseObjectProperties(<:hasPart> <:partOf>)',
    'SubObjectPropertyOf(ObjectPropertyChain(<:hasPart> <:hasPart>) <:hasPart>)',
    'DataPropertyDomain(<:age> <:Person>)',
    'DataPropertyRange(<:age> DataUnionOf(<:Age> <xsd:decimal>))',
    'FunctionalDataProperty(<:age>)',
    'SubDataPropertyOf(<:age> <:measure>)',
    'EquivalentDataProperties(<:age> <:years>)',
    'DisjointDataProperties(<:age> <:name>)',
    'AnnotationAssertion(<rdfs:label> <:Person> "Person \'quoted\'"^^<xsd:string>)',
    'AnnotationAssertion(<rdfs:label> <:Person> "person"@en)',
    'SubClassOf(<:Person> ObjectSomeValuesFrom(<:hasPart> <:Head>))',
    'SubClassOf(Annotation(<rdfs:comment> "c"^^<xsd:string>) <:Person> DataSomeValuesFrom(<:age> <xsd:integer>))',
    'EquivalentClasses(<:Human> <:Person>)',
    'DisjointClasses(<:Person> <:Plant>)',
    'DisjointUnion(<:Person> <:Adult> <:Child>)',
    'HasKey(<:Person> (<:hasPart>) (<:name>))',
    'AnnotationAssertion(<rdfs:comment> <:alice> "Alice"^^<xsd:string>)',
    'ClassAssertion(<:Person> <:alice>)',
    'ClassAssertion(DataHasValue(<:age> "30"^^<xsd:integer>) <:alice>)',
    'ObjectPropertyAssertion(<:hasPart> <:alice> <:head1>)',
    'NegativeDataPropertyAssertion(<:age> <:alice> "40"^^<xsd:integer>)',
    'DataPropertyAssertion(<:name> <:alice> "Alice"^^<xsd:string>)',
    'SameIndividual(<:alice> <:alicia>)',
    'DifferentIndividuals(<:alice> <:bob>)',
    'ClassAssertion(<:Person> _:b1)',
    'ObjectPropertyAssertion(<:hasPart> _:b1 <:head2>)',
    'EquivalentClasses(Annotation(<rdfs:comment> "eq"^^<xsd:string>) <:A> <:B> <:C>)',
    'DisjointClasses(<:A> <:D> <:E>)',
    'EquivalentDataProperties(<:name> <:years>)',
    'DisjointObjectProperties(<:hasMember> <:hasPart> <:partOf>)',
    'SameIndividual(<:alice> <:alicia> <:ally>)',
    'DifferentIndividuals(<:alice> <:bob> <:carol>)',
    'DLSafeRule(Body(BuiltInAtom(<swrlb:greaterThan> Variable(<?a>) "17"^^<xsd:integer>) ClassAtom(<:Person> Variable(<?x>)) ' +
      'DataPropertyAtom(<:age> Variable(<?x>) Variable(<?a>)) DifferentIndividualsAtom(Variable(<?x>) Variable(<?y>)) ' +
      'ObjectPropertyAtom(<:hasPart> Variable(<?x>) Variable(<?y>)) SameIndividualAtom(Variable(<?x>) Variable(<?x>))) ' +
      'Head(ClassAtom(<:Adult> Variable(<?x>)) DataRangeAtom(<xsd:integer> Variable(<?a>))))',
  ];
  for (const l of expected) assert.ok(got.has(l), 'missing ' + l);
  // frames declare their entities; the anonymous individual is not declared
  for (const d of [
    'Class(<:Person>)',
    'Class(<:Head>)',
    'Datatype(<:Age>)',
    'ObjectProperty(<:hasPart>)',
    'DataProperty(<:age>)',
    'DataProperty(<:name>)',
    'NamedIndividual(<:alice>)',
  ])
    assert.ok(got.has(`Declaration(${d})`), d);
  assert.equal([...got].filter((l) => l.startsWith('Declaration(')).length, 10);
  assert.equal(new Set(expected).size, expected.length);
  assert.equal(got.size, expected.length + 9, [...got].filter((l) => !expected.includes(l) && !l.startsWith('Declaration')).join('\n'));
});

test('properties used before their frame take the kind of the frame', () => {
  const lines = linesOf('Prefix: : <http://ex.org/>\nClass: A SubClassOf: d min 1\nDataProperty: d');
  assert.ok(lines.includes('SubClassOf(<:A> DataMinCardinality(1 <:d>))'), lines.join('\n'));
});

test('relative IRIs resolve against the base; documents scope blank node labels', () => {
  const o = readManchester('Class: <A>', { base: 'http://base.org/dir/doc' });
  assert.deepEqual(axiomLines(o.axioms()), ['Declaration(Class(<http://base.org/dir/A>))']);
  const a = [...readManchester('Individual: _:x Types: <http://e/C>', {}).axioms()][0];
  const b = [...readManchester('Individual: _:x Types: <http://e/C>', {}).axioms()][0];
  assert.notEqual(a, b);
});

test('errors carry line and column and leave nothing behind', () => {
  const at = (text: string) => {
    try {
      readManchester(text, {});
    } catch (e) {
      assert.ok(e instanceof ManchesterParseError);
      return `${e.line}:${e.column} ${e.detail}`;
    }
    assert.fail('no error');
  };
  assert.equal(
    at('Prefix: : <http://e/>\nClass: A\n  SubClassOf: B and\n'),
    "4:1 expected a class name, '(', '{', 'not' or a restriction but found end of input",
  );
  assert.equal(
    at('Class: <http://e/A>\n  Types: <http://e/B>'),
    "2:3 expected a section of the Class frame or a new frame but found 'Types:'",
  );
  assert.equal(at('Class: foo:A'), "1:8 unknown prefix 'foo:' in 'foo:A'");
  assert.equal(at('Class: A'), "1:8 no default prefix ':' is declared for the name 'A'");
  assert.match(at('Prefix: : <http://e/>\nFoo: A'), /^2:1 expected a frame/);
  assert.equal(
    at('Prefix: : <http://e/>\nObjectProperty: p Characteristics: Funky'),
    "2:36 expected a characteristic (Functional, InverseFunctional, Reflexive, Irreflexive, Symmetric, Asymmetric, Transitive) but found 'Funky'",
  );
  assert.equal(at('Prefix: : <http://e/>\nClass: C\nRule: C(?x, ?y) -> C(?x)'), '3:8 expected 1 argument but found 2');
  assert.equal(at('Prefix: : <http://e/>\nRule: p(?x, 5) -> C(5)'), '2:21 expected a variable or an individual but found a literal');
});
