import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFunctional } from '../../src/model/formats/functional/reader.js';
import { writeFunctional } from '../../src/model/formats/functional/writer.js';
import { FunctionalRenderer, isPnLocal } from '../../src/model/formats/functional/renderer.js';
import { axiomLines, LineRenderer } from '../../src/model/render/axiom-lines.js';
import { Ontology } from '../../src/model/ontology.js';
import {
  annotation,
  annotationAssertion,
  annotationProperty,
  anonymousIndividual,
  classAssertion,
  cls,
  dataProperty,
  dataPropertyAssertion,
  declaration,
  iriNode,
  literal,
  namedIndividual,
  objectInverseOf,
  objectProperty,
  objectPropertyAssertion,
  objectSomeValuesFrom,
  objectUnionOf,
  subClassOf,
} from '../../src/model/terms.js';
import type { Axiom } from '../../src/model/terms.js';
import { RDFS_LABEL, XSD } from '../../src/model/vocab.js';
import { at } from '../support/at.js';

function fixture(name: string): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return readFileSync(path.join(dir, 'test/fixtures/functional', name), 'utf8');
}

const EX = 'http://ex.org/';
const annotationLines = (o: Ontology) => {
  const r = new LineRenderer(() => '_:?');
  return [...o.annotations].map((a) => r.annotation(a)).sort();
};

test('round trip of every construct: same axioms (up to blank-node names) and the same header', () => {
  const o = readFunctional(fixture('all-constructs.ofn'));
  const back = readFunctional(writeFunctional(o));
  assert.deepEqual(axiomLines(back.axioms()), axiomLines(o.axioms()));
  assert.deepEqual(back.id, o.id);
  assert.deepEqual([...back.imports], [...o.imports]);
  assert.deepEqual(annotationLines(back), annotationLines(o));
  assert.deepEqual(new Map([...back.prefixes].sort()), new Map([...o.prefixes].sort()));
});

test('round trip without anonymous individuals gives exactly the same axiom objects', () => {
  const o = new Ontology();
  o.id = { iri: EX + 'o', versionIri: null };
  o.prefixes.set('ex:', EX);
  const axioms: Axiom[] = [
    declaration(cls(EX + 'A')),
    subClassOf(
      cls(EX + 'A'),
      objectSomeValuesFrom(objectInverseOf(objectProperty(EX + 'p')), objectUnionOf([cls(EX + 'B'), cls(EX + 'C')])),
    ),
    dataPropertyAssertion(dataProperty(EX + 'd'), namedIndividual(EX + 'i'), literal('x "y" \\ z\nw', XSD + 'token')),
    annotationAssertion(annotationProperty(RDFS_LABEL), iriNode(EX + 'A'), literal('A', undefined, 'en'), [
      annotation(annotationProperty(EX + 'src'), iriNode('http://other.org/a b')),
    ]),
  ];
  for (const a of axioms) o.add(a);
  const back = readFunctional(writeFunctional(o));
  assert.equal(back.axiomCount, axioms.length);
  for (const a of axioms) assert.ok(back.has(a), new LineRenderer(() => '').axiom(a));
  assert.deepEqual(back.id, o.id);
});

test('output is deterministic: independent of insertion order and of blank-node ids', () => {
  const build = (order: number[], tag: string) => {
    const x = anonymousIndividual(tag + 'x');
    const y = anonymousIndividual(tag + 'y');
    const axioms: Axiom[] = [
      classAssertion(cls(EX + 'A'), x),
      classAssertion(cls(EX + 'B'), y),
      objectPropertyAssertion(objectProperty(EX + 'p'), x, y),
      declaration(cls(EX + 'A')),
      subClassOf(cls(EX + 'B'), cls(EX + 'A')),
    ];
    const o = new Ontology();
    for (const i of order) o.add(at(axioms, i));
    return writeFunctional(o);
  };
  const one = build([0, 1, 2, 3, 4], 'first-');
  const two = build([4, 2, 3, 1, 0], 'second-');
  assert.equal(one, two);
  assert.ok(!one.includes('first-'));
  const lines = one.split('\n');
  assert.ok(lines.indexOf('Declaration(Class(<http://ex.org/A>))') < lines.indexOf('SubClassOf(<http://ex.org/B> <http://ex.org/A>)'));
});

test('document layout: standard prefixes, ontology IRI and version, imports, annotations', () => {
  const o = new Ontology();
  o.id = { iri: EX + 'o', versionIri: EX + 'o/2' };
  o.prefixes.set(':', EX);
  o.imports.add(EX + 'imp');
  o.annotations.add(annotation(annotationProperty(RDFS_LABEL), literal('Onto')));
  o.add(declaration(cls(EX + 'A')));
  assert.equal(
    writeFunctional(o),
    [
      'Prefix(:=<http://ex.org/>)',
      'Prefix(owl:=<http://www.w3.org/2002/07/owl#>)',
      'Prefix(rdf:=<http://www.w3.org/1999/02/22-rdf-syntax-ns#>)',
      'Prefix(rdfs:=<http://www.w3.org/2000/01/rdf-schema#>)',
      'Prefix(xml:=<http://www.w3.org/XML/1998/namespace>)',
      'Prefix(xsd:=<http://www.w3.org/2001/XMLSchema#>)',
      '',
      'Ontology(<http://ex.org/o> <http://ex.org/o/2>',
      'Import(<http://ex.org/imp>)',
      'Annotation(rdfs:label "Onto")',
      '',
      'Declaration(Class(:A))',
      ')',
      '',
    ].join('\n'),
  );
});

test('FunctionalRenderer with an empty prefix map writes full IRIs', () => {
  const r = new FunctionalRenderer(new Map());
  assert.equal(r.axiom(subClassOf(cls(EX + 'A'), cls(EX + 'B'))), 'SubClassOf(<http://ex.org/A> <http://ex.org/B>)');
  assert.equal(r.literal(literal('5', XSD + 'integer')), '"5"^^<http://www.w3.org/2001/XMLSchema#integer>');
});

test('FunctionalRenderer abbreviates only valid local names, preferring the longest namespace', () => {
  const r = new FunctionalRenderer(
    new Map([
      [':', EX],
      ['sub:', EX + 'sub/'],
      ['xsd:', XSD],
      ['bad prefix:', EX],
    ]),
  );
  assert.equal(r.classExpression(cls(EX + 'A')), ':A');
  assert.equal(r.classExpression(cls(EX + 'sub/B')), 'sub:B');
  assert.equal(r.classExpression(cls(EX + 'a/b')), '<http://ex.org/a/b>');
  assert.equal(r.classExpression(cls(EX + 'ends.')), '<http://ex.org/ends.>');
  assert.equal(r.classExpression(cls(EX)), '<http://ex.org/>');
  assert.equal(r.literal(literal('x', XSD + 'string')), '"x"');
  assert.equal(r.literal(literal('x', undefined, 'EN')), '"x"@en');
  assert.equal(r.literal(literal('say "\\"')), '"say \\"\\\\\\""');
  assert.equal(r.node(objectInverseOf(objectProperty(EX + 'p'))), 'ObjectInverseOf(:p)');
  assert.equal(r.node(anonymousIndividual('n1')), '_:n1');
});

test('PN_LOCAL check', () => {
  for (const ok of ['a', 'A_1', '0001', 'a.b', 'a-b', 'é', '_x']) assert.ok(isPnLocal(ok), ok);
  for (const bad of ['', 'a.', '-a', 'a/b', 'a#b', 'a b', 'a:b', '.a', 'a(b']) assert.ok(!isPnLocal(bad), bad);
});
