import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFunctional } from '../../src/model/formats/functional/reader.js';
import { ParseError } from '../../src/model/formats/errors.js';
import { axiomLines, LineRenderer } from '../../src/model/render/axiom-lines.js';
import { AXIOM_KINDS, cls, literal, namedIndividual, subClassOf } from '../../src/model/terms.js';
import { RDF_LANG_STRING, XSD, XSD_STRING } from '../../src/model/vocab.js';
import { kindsIn } from '../support/node-kinds.js';

function fixture(name: string): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return readFileSync(path.join(dir, 'test/fixtures/functional', name), 'utf8');
}

const doc = (body: string, prefixes = 'Prefix(:=<http://ex.org/>)\n') => prefixes + 'Ontology(\n' + body + '\n)\n';

test('every axiom type, expression, data range and atom parses to the expected structure', () => {
  const o = readFunctional(fixture('all-constructs.ofn'));
  const expected = fixture('all-constructs.lines')
    .split('\n')
    .filter((l) => l);
  assert.deepEqual(axiomLines(o.axioms()), expected);
  const kinds = kindsIn(o.axioms());
  for (const k of AXIOM_KINDS) assert.ok(kinds.has(k), `fixture lacks ${k}`);
  for (const k of [
    'ObjectIntersectionOf',
    'ObjectUnionOf',
    'ObjectComplementOf',
    'ObjectOneOf',
    'ObjectSomeValuesFrom',
    'ObjectAllValuesFrom',
    'ObjectHasValue',
    'ObjectHasSelf',
    'ObjectMinCardinality',
    'ObjectMaxCardinality',
    'ObjectExactCardinality',
    'DataSomeValuesFrom',
    'DataAllValuesFrom',
    'DataHasValue',
    'DataMinCardinality',
    'DataMaxCardinality',
    'DataExactCardinality',
    'DataIntersectionOf',
    'DataUnionOf',
    'DataComplementOf',
    'DataOneOf',
    'DatatypeRestriction',
    'ObjectInverseOf',
    'AnonymousIndividual',
    'ClassAtom',
    'DataRangeAtom',
    'ObjectPropertyAtom',
    'DataPropertyAtom',
    'BuiltInAtom',
    'SameIndividualAtom',
    'DifferentIndividualsAtom',
    'Variable',
  ]) {
    assert.ok(kinds.has(k), `fixture lacks ${k}`);
  }
});

test('header: ontology and version IRI, imports, nested ontology annotations, prefixes with the standard ones', () => {
  const o = readFunctional(fixture('all-constructs.ofn'));
  assert.deepEqual(o.id, { iri: 'http://ex.org/onto', versionIri: 'http://ex.org/onto/1.0' });
  assert.deepEqual([...o.imports], ['http://ex.org/imported']);
  const r = new LineRenderer(() => '_:?');
  assert.deepEqual([...o.annotations].map((a) => r.annotation(a)).sort(), [
    'Annotation(<http://ex.org/seeAlso> <http://ex.org/page>)',
    'Annotation(Annotation(<http://ex.org/note> "nested"^^<http://www.w3.org/2001/XMLSchema#string>) <http://www.w3.org/2000/01/rdf-schema#label> "All constructs"@en)',
  ]);
  assert.equal(o.prefixes.get(':'), 'http://ex.org/');
  assert.equal(o.prefixes.get('rdfs:'), 'http://www.w3.org/2000/01/rdf-schema#');
  assert.equal(o.prefixes.get('owl:'), 'http://www.w3.org/2002/07/owl#');
  assert.equal(o.format, 'ofn');
});

test('anonymous ontology: no IRI, and a version IRI alone is not read', () => {
  const o = readFunctional('Ontology(Declaration(Class(<http://ex.org/A>)))');
  assert.deepEqual(o.id, { iri: null, versionIri: null });
  assert.equal(o.axiomCount, 1);
});

test('literals: plain, typed, language-tagged, escapes, rdf:PlainLiteral, multi-line', () => {
  const o = readFunctional(
    doc(
      'AnnotationAssertion(:p :s "plain")\n' +
        'AnnotationAssertion(:p :s "5"^^xsd:integer)\n' +
        'AnnotationAssertion(:p :s "hallo"@DE-at)\n' +
        'AnnotationAssertion(:p :s "a \\"q\\" b \\\\ c \\n")\n' +
        'AnnotationAssertion(:p :s "bonjour@fr"^^rdf:PlainLiteral)\n' +
        'AnnotationAssertion(:p :s "two\nlines")',
    ),
  );
  const values = new Set([...o.axioms()].map((a) => (a.kind === 'AnnotationAssertion' ? a.value : null)));
  assert.ok(values.has(literal('plain')));
  assert.ok(values.has(literal('5', XSD + 'integer')));
  const de = literal('hallo', undefined, 'de-at');
  assert.ok(values.has(de));
  assert.equal(de.datatype, RDF_LANG_STRING);
  assert.ok(values.has(literal('a "q" b \\ c \\n', XSD_STRING)));
  assert.ok(values.has(literal('bonjour', undefined, 'fr')));
  assert.ok(values.has(literal('two\nlines')));
});

test('relative full IRIs resolve against the base; absolute ones and prefixes stay', () => {
  const o = readFunctional('Prefix(a:=<http://a.org/ns#>)\nOntology(<onto>\nSubClassOf(<A> a:B)\nSubClassOf(<urn:x:C> <#D>))', {
    base: 'http://ex.org/dir/file.ofn',
  });
  assert.equal(o.id.iri, 'http://ex.org/dir/onto');
  assert.ok(o.has(subClassOf(cls('http://ex.org/dir/A'), cls('http://a.org/ns#B'))));
  assert.ok(o.has(subClassOf(cls('urn:x:C'), cls('http://ex.org/dir/file.ofn#D'))));
});

test('comments, whitespace around tokens and spaced prefix declarations are accepted', () => {
  const o = readFunctional('# head\nPrefix( : = <http://ex.org/> ) # c\nOntology( # open\n  SubClassOf( :A\t:B ) # tail\n)# end');
  assert.ok(o.has(subClassOf(cls('http://ex.org/A'), cls('http://ex.org/B'))));
});

test('node IDs are anonymous individuals scoped to their document', () => {
  const text = doc('ClassAssertion(:A _:x)\nObjectPropertyAssertion(:p _:x _:y)');
  const o1 = readFunctional(text);
  const o2 = readFunctional(text);
  const anon = (o: typeof o1) => [...o.axioms()].flatMap((a) => (a.kind === 'ClassAssertion' ? [a.individual] : []));
  const [x1] = anon(o1);
  const [x2] = anon(o2);
  assert.ok(x1);
  assert.equal(x1.kind, 'AnonymousIndividual');
  assert.notEqual(x1, x2);
  const opa = [...o1.axioms()].find((a) => a.kind === 'ObjectPropertyAssertion');
  assert.ok(opa && opa.kind === 'ObjectPropertyAssertion' && opa.subject === x1 && opa.object !== x1);
  assert.deepEqual(axiomLines(o1.axioms()), axiomLines(o2.axioms()));
});

test('unqualified cardinalities get owl:Thing / rdfs:Literal fillers; duplicates collapse', () => {
  const o = readFunctional(
    doc(
      'SubClassOf(:A ObjectMinCardinality(1 :p))\nSubClassOf(:A ObjectMinCardinality(1 :p owl:Thing))\n' +
        'DisjointClasses(:A :B)\nDisjointClasses(:B :A)\nClassAssertion(:A :i)',
    ),
  );
  assert.equal(o.axiomCount, 3);
  const ca = [...o.axioms()].find((a) => a.kind === 'ClassAssertion');
  assert.ok(ca && ca.kind === 'ClassAssertion' && ca.individual === namedIndividual('http://ex.org/i'));
});

interface ErrorCase {
  name: string;
  text: string;
  line: number;
  column: number;
  detail: RegExp;
}

const ERRORS: ErrorCase[] = [
  {
    name: 'unknown prefix',
    text: 'Prefix(:=<http://ex.org/>)\nOntology(\nSubClassOf(:A  zz:B))',
    line: 3,
    column: 16,
    detail: /unknown prefix 'zz:'/,
  },
  {
    name: 'unexpected token',
    text: 'Prefix(:=<http://ex.org/>)\nOntology(\n  SubClassOf(:A "lit"))',
    line: 3,
    column: 17,
    detail: /expected a class expression but found a quoted string/,
  },
  { name: 'unknown axiom', text: 'Ontology(\n Frobnicate(:A))', line: 2, column: 2, detail: /unknown axiom type 'Frobnicate'/ },
  {
    name: 'unterminated literal',
    text: 'Prefix(:=<http://ex.org/>)\nOntology(\nAnnotationAssertion(:p :s "never\nclosed)\n)',
    line: 3,
    column: 27,
    detail: /unterminated string literal/,
  },
  {
    name: 'unterminated IRI',
    text: 'Ontology(\nSubClassOf(<http://ex.org/A\n<http://ex.org/B>))',
    line: 2,
    column: 12,
    detail: /unterminated IRI/,
  },
  {
    name: 'truncated input',
    text: 'Prefix(:=<http://ex.org/>)\nOntology(\nSubClassOf(:A',
    line: 3,
    column: 14,
    detail: /expected a class expression but found end of input/,
  },
  {
    name: 'missing close of ontology',
    text: 'Ontology(\nSubClassOf(<urn:a> <urn:b>)\n',
    line: 3,
    column: 1,
    detail: /expected an axiom but found end of input/,
  },
  {
    name: 'bad cardinality',
    text: 'Prefix(:=<http://ex.org/>)\nOntology(SubClassOf(:A ObjectMinCardinality(x :p)))',
    line: 2,
    column: 45,
    detail: /non-negative integer/,
  },
  { name: 'text after the ontology', text: 'Ontology()\nOntology()', line: 2, column: 1, detail: /end of input after the ontology/ },
  {
    name: 'n-ary data restriction',
    text: 'Prefix(:=<http://ex.org/>)\nOntology(SubClassOf(:A DataSomeValuesFrom(:d :e xsd:integer)))',
    line: 2,
    column: 46,
    detail: /several data properties/,
  },
  {
    name: 'unknown class expression',
    text: 'Prefix(:=<http://ex.org/>)\nOntology(SubClassOf(:A ObjectSomething(:p)))',
    line: 2,
    column: 24,
    detail: /unknown class expression constructor 'ObjectSomething'/,
  },
  {
    name: 'node ID where an IRI is required',
    text: 'Ontology(Declaration(Class(_:b)))',
    line: 1,
    column: 28,
    detail: /anonymous individual/,
  },
];

for (const c of ERRORS) {
  test(`error: ${c.name} gives line and column`, () => {
    assert.throws(
      () => readFunctional(c.text),
      (e: unknown) => {
        assert.ok(e instanceof ParseError, String(e));
        assert.equal(e.format, 'ofn');
        assert.match(e.detail, c.detail);
        assert.equal(e.line, c.line, 'line');
        assert.equal(e.column, c.column, 'column');
        return true;
      },
    );
  });
}
