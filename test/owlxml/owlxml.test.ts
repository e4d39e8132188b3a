import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readOwlXml } from '../../src/model/formats/owlxml/reader.js';
import { writeOwlXml } from '../../src/model/formats/owlxml/writer.js';
import { resolveIri } from '../../src/model/formats/owlxml/resolve-iri.js';
import { ParseError } from '../../src/model/formats/errors.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';
import { Ontology } from '../../src/model/ontology.js';
import { annotationAssertion, annotationProperty, cls, declaration, iriNode, literal, subClassOf } from '../../src/model/terms.js';
import { at } from '../support/at.js';

const here = path.dirname(fileURLToPath(import.meta.url));
// compiled to dist/test/owlxml; fixtures stay in the source tree
const fixture = (name: string) => readFileSync(path.resolve(here, '../../../test/fixtures/owlxml', name), 'utf8');

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
const EX = 'http://ex.org/o/';

test('reads every construct of the fixture into the expected axioms', () => {
  const o = readOwlXml(fixture('all-constructs.owx'));
  assert.deepEqual(axiomLines(o.axioms()), [
    `AnnotationAssertion(<${RDFS}comment> <${EX}A> "a <b> & \\"c\\""^^<${XSD}string>)`,
    `AnnotationAssertion(<${RDFS}seeAlso> _:b1 <${EX}#frag>)`,
    `AnnotationPropertyRange(<${EX}ap> <${XSD}string>)`,
    `ClassAssertion(<${EX}A> _:b1)`,
    `DLSafeRule(Annotation(<${RDFS}label> "rule"^^<${XSD}string>) Body(BuiltInAtom(<http://www.w3.org/2003/11/swrlb#greaterThan> Variable(<urn:swrl#v>) "18"^^<${XSD}integer>) ClassAtom(<${EX}A> Variable(<urn:swrl#x>)) DataPropertyAtom(<${EX}d> Variable(<urn:swrl#x>) Variable(<urn:swrl#v>)) DataRangeAtom(<${XSD}integer> Variable(<urn:swrl#v>)) ObjectPropertyAtom(<${EX}p> Variable(<urn:swrl#x>) <${EX}i>)) Head(DifferentIndividualsAtom(Variable(<urn:swrl#x>) <${EX}j>) SameIndividualAtom(Variable(<urn:swrl#x>) <${EX}i>)))`,
    `DataPropertyRange(<${EX}d> DataUnionOf(<${XSD}string> DataOneOf("5"^^<${XSD}integer>)))`,
    'Declaration(Class(<http://ex.org/default#B>))',
    `Declaration(Class(<${EX}A>))`,
    `Declaration(DataProperty(<${EX}d>))`,
    `Declaration(ObjectProperty(<${EX}p>))`,
    `DisjointUnion(<${EX}A> <${EX}X> <${EX}Y>)`,
    `HasKey(<${EX}A> (<${EX}p>) (<${EX}d>))`,
    `SubClassOf(<${EX}A> ObjectMinCardinality(2 ObjectInverseOf(<${EX}p>) <http://ex.org/default#B>))`,
    `SubClassOf(<${EX}C> DataMaxCardinality(1 <${EX}d>))`,
    `SubObjectPropertyOf(ObjectPropertyChain(<${EX}p> <${EX}q>) <${EX}r>)`,
  ]);
});

test('reads the header: id, version, imports, nested ontology annotations, prefixes', () => {
  const o = readOwlXml(fixture('all-constructs.owx'));
  assert.deepEqual(o.id, { iri: 'http://ex.org/o', versionIri: 'http://ex.org/o/1.0' });
  assert.deepEqual([...o.imports], ['http://ex.org/imported']);
  assert.equal(o.format, 'owlxml');
  const [ann] = [...o.annotations];
  assert.ok(ann);
  assert.equal(ann.property.iri, RDFS + 'label');
  assert.equal(ann.value, literal('Test ontology', undefined, 'en'));
  assert.equal(ann.annotations.length, 1);
  assert.equal(at(ann.annotations, 0).value, literal('nested'));
  assert.equal(o.prefixes.get('ex:'), EX);
  assert.equal(o.prefixes.get(':'), 'http://ex.org/default#');
  assert.equal(o.prefixes.get('xsd:'), XSD);
});

test('relative IRIs resolve against the base option when there is no xml:base', () => {
  const o = readOwlXml('<Ontology xmlns="http://www.w3.org/2002/07/owl#"><Declaration><Class IRI="#A"/></Declaration></Ontology>', {
    base: 'http://base.example/doc.owx',
  });
  assert.deepEqual(axiomLines(o.axioms()), ['Declaration(Class(<http://base.example/doc.owx#A>))']);
  assert.deepEqual(o.id, { iri: null, versionIri: null });
});

test('rdf:PlainLiteral without a language tag is an xsd:string', () => {
  const o = readOwlXml(`<Ontology xmlns="http://www.w3.org/2002/07/owl#"><AnnotationAssertion>
    <AnnotationProperty IRI="http://x/p"/><IRI>http://x/s</IRI>
    <Literal datatypeIRI="http://www.w3.org/1999/02/22-rdf-syntax-ns#PlainLiteral">v</Literal></AnnotationAssertion></Ontology>`);
  assert.deepEqual(axiomLines(o.axioms()), [`AnnotationAssertion(<http://x/p> <http://x/s> "v"^^<${XSD}string>)`]);
});

function parseError(text: string): ParseError {
  try {
    readOwlXml(text);
  } catch (e) {
    assert.ok(e instanceof ParseError, `expected ParseError, got ${e}`);
    assert.equal(e.format, 'owlxml');
    return e;
  }
  assert.fail('no error');
}

const OPEN = '<Ontology xmlns="http://www.w3.org/2002/07/owl#">\n';

test('an unknown element is an error with its line', () => {
  const e = parseError(OPEN + '<Declaration><Class IRI="http://x/A"/></Declaration>\n<Frobnicate/>\n</Ontology>');
  assert.match(e.detail, /unknown OWL\/XML element <Frobnicate>/);
  assert.equal(e.line, 3);
});

test('a truncated document fails', () => {
  const e = parseError(OPEN + '<Declaration><Class IRI="http://x/A"/>');
  assert.ok(e.line !== undefined);
});

test('malformed XML fails with a position', () => {
  const e = parseError(OPEN + '<Declaration><Class IRI="http://x/A"></Declaration></Ontology>');
  assert.equal(e.line, 2);
  assert.equal(e.detail, 'unexpected close tag.');
});

test('operands of the wrong kind are rejected', () => {
  const e = parseError(OPEN + '<SubClassOf><Class IRI="http://x/A"/><Literal>x</Literal></SubClassOf></Ontology>');
  assert.match(e.detail, /SubClassOf.*expected a class expression, found Literal/);
});

test('wrong operand count is rejected', () => {
  const e = parseError(OPEN + '<SubClassOf><Class IRI="http://x/A"/></SubClassOf></Ontology>');
  assert.match(e.detail, /expects 2 operands, found 1/);
});

test('an undeclared prefix in an abbreviated IRI is rejected', () => {
  const e = parseError(OPEN + '<Declaration><Class abbreviatedIRI="nope:A"/></Declaration></Ontology>');
  assert.match(e.detail, /unknown prefix "nope:"/);
});

test('a root that is not an OWL Ontology is rejected', () => {
  assert.match(parseError('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>').detail, /not in the OWL namespace/);
  assert.match(parseError('<Class xmlns="http://www.w3.org/2002/07/owl#" IRI="http://x/A"/>').detail, /root element must be Ontology/);
});

test('a bad cardinality is rejected', () => {
  const e = parseError(
    OPEN +
      '<SubClassOf><Class IRI="http://x/A"/><ObjectMinCardinality cardinality="-1">' +
      '<ObjectProperty IRI="http://x/p"/></ObjectMinCardinality></SubClassOf></Ontology>',
  );
  assert.match(e.detail, /cardinality "-1"/);
});

test('write then read gives back the same axioms and header', () => {
  const o = readOwlXml(fixture('all-constructs.owx'));
  const text = writeOwlXml(o);
  const back = readOwlXml(text);
  assert.deepEqual(axiomLines(back.axioms()), axiomLines(o.axioms()));
  assert.deepEqual(back.id, o.id);
  assert.deepEqual([...back.imports], [...o.imports]);
  assert.deepEqual([...back.annotations], [...o.annotations]);
  assert.deepEqual([...back.prefixes].sort(), [...o.prefixes].sort());
  assert.equal(writeOwlXml(back), text, 'deterministic');
});

test('writer output is sorted, declarations first, and uses the prefixes', () => {
  const o = new Ontology();
  o.prefixes.set('ex:', 'http://ex.org/');
  o.add(subClassOf(cls('http://ex.org/B'), cls('http://ex.org/A')));
  o.add(declaration(cls('http://ex.org/B')));
  o.add(declaration(cls('http://ex.org/A')));
  const lines = writeOwlXml(o).split('\n');
  assert.deepEqual(
    lines.slice(2, 6).map((l) => l.trim()),
    [
      '<Prefix name="ex" IRI="http://ex.org/"/>',
      '<Declaration><Class abbreviatedIRI="ex:A"/></Declaration>',
      '<Declaration><Class abbreviatedIRI="ex:B"/></Declaration>',
      '<SubClassOf><Class abbreviatedIRI="ex:B"/><Class abbreviatedIRI="ex:A"/></SubClassOf>',
    ],
  );
});

test('writer escapes markup and whitespace so values read back exactly', () => {
  const o = new Ontology();
  const tricky = 'a & b < c > d "e" \'f\'\r\n\tg';
  const iri = 'http://ex.org/x?a=1&b="2"';
  o.add(annotationAssertion(annotationProperty('http://ex.org/p'), iriNode(iri), literal(tricky)));
  const back = readOwlXml(writeOwlXml(o));
  assert.deepEqual([...back.axioms()], [...o.axioms()]);
});

test('writer refuses characters XML 1.0 cannot carry', () => {
  const o = new Ontology();
  o.add(annotationAssertion(annotationProperty('http://ex.org/p'), iriNode('http://ex.org/s'), literal('bell\u0007')));
  assert.throws(() => writeOwlXml(o), /U\+0007/);
});

test('resolveIri follows RFC 3986', () => {
  const base = 'http://a/b/c/d;p?q';
  assert.equal(resolveIri('g', base), 'http://a/b/c/g');
  assert.equal(resolveIri('../g', base), 'http://a/b/g');
  assert.equal(resolveIri('/g', base), 'http://a/g');
  assert.equal(resolveIri('?y', base), 'http://a/b/c/d;p?y');
  assert.equal(resolveIri('#s', base), 'http://a/b/c/d;p?q#s');
  assert.equal(resolveIri('//g', base), 'http://g');
  assert.equal(resolveIri('', base), 'http://a/b/c/d;p?q');
  assert.equal(resolveIri('#a', 'urn:test:x'), 'urn:test:x#a');
  assert.equal(resolveIri('urn:other', base), 'urn:other');
});

test('prefixed OWL elements are recognised through their namespace declaration', () => {
  const o = readOwlXml(
    '<owl:Ontology xmlns:owl="http://www.w3.org/2002/07/owl#"><owl:Declaration><owl:Class IRI="http://x/A"/>' +
      '</owl:Declaration></owl:Ontology>',
  );
  assert.deepEqual(axiomLines(o.axioms()), ['Declaration(Class(<http://x/A>))']);
});
