// Writer behaviour that does not depend on the readers: determinism, layout, the special OWL 2 RDF forms,
// implicit declarations, escaping (checked with independent RDF parsers) and RDF/XML qualified names.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Parser, type Quad } from 'n3';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import { Ontology } from '../../src/model/ontology.js';
import * as t from '../../src/model/terms.js';
import { OWL, RDFS_COMMENT, XSD } from '../../src/model/vocab.js';
import { writeJsonLd, writeNQuads, writeNTriples, writeRdfXml, writeTriG, writeTurtle } from '../../src/model/formats/rdf-writers.js';
import { implicitDeclarations, owlToTriples } from '../../src/model/rdf/owl-to-triples.js';
import { everythingOntology, EX } from './fixture.js';

const WRITERS = { writeTurtle, writeTriG, writeNTriples, writeNQuads, writeRdfXml, writeJsonLd };

function parseTurtle(text: string, format = 'text/turtle'): Quad[] {
  return new Parser({ format }).parse(text);
}

function parseRdfXml(text: string): Promise<Quad[]> {
  const quads: Quad[] = [];
  const p = new RdfXmlParser({ baseIRI: 'http://example.org/base' });
  return new Promise((resolve, reject) => {
    p.on('data', (q: Quad) => quads.push(q));
    p.on('error', reject);
    p.on('end', () => resolve(quads));
    p.write(text);
    p.end();
  });
}

function reversed(o: Ontology): Ontology {
  const r = new Ontology();
  r.id = o.id;
  for (const imp of [...o.imports].reverse()) r.imports.add(imp);
  for (const a of [...o.annotations].reverse()) r.annotations.add(a);
  for (const [k, v] of [...o.prefixes].reverse()) r.prefixes.set(k, v);
  for (const a of [...o.axioms()].reverse()) r.add(a);
  return r;
}

test('every writer is deterministic whatever the order axioms, annotations and prefixes were added in', () => {
  const o = everythingOntology();
  const r = reversed(o);
  for (const [name, write] of Object.entries(WRITERS)) assert.equal(write(r), write(o), name);
});

test("list order follows the operands' text, not the order their nodes were created in", () => {
  const z2 = t.cls(EX + 'Zeta2');
  const z1 = t.cls(EX + 'Zeta1'); // created later: a larger id, but sorts first by IRI
  const o = new Ontology();
  o.prefixes.set('ex:', EX);
  o.add(t.subClassOf(t.cls(EX + 'A'), t.objectUnionOf([z2, z1])));
  assert.match(writeTurtle(o), /owl:unionOf \( ex:Zeta1 ex:Zeta2 \)/);
});

test('turtle groups by subject and nests single-use blank nodes and lists', () => {
  const o = new Ontology();
  o.id = { iri: 'http://example.org/o', versionIri: null };
  o.prefixes.set('ex:', EX);
  const A = t.cls(EX + 'A');
  const p = t.objectProperty(EX + 'p');
  o.add(t.declaration(A));
  o.add(t.declaration(p));
  o.add(t.subClassOf(A, t.objectSomeValuesFrom(p, t.objectIntersectionOf([A, t.cls(EX + 'B')]))));
  const text = writeTurtle(o);
  assert.equal(
    text,
    [
      '@prefix ex: <http://example.org/onto#> .',
      '@prefix owl: <http://www.w3.org/2002/07/owl#> .',
      '@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .',
      '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
      '@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .',
      '',
      '<http://example.org/o> a owl:Ontology .',
      '',
      'ex:A a owl:Class ;',
      '    rdfs:subClassOf [',
      '        a owl:Restriction ;',
      '        owl:onProperty ex:p ;',
      '        owl:someValuesFrom [',
      '            a owl:Class ;',
      '            owl:intersectionOf ( ex:A ex:B )',
      '        ]',
      '    ] .',
      '',
      'ex:B a owl:Class .',
      '',
      'ex:p a owl:ObjectProperty .',
      '',
    ].join('\n'),
  );
});

test('annotated n-ary axioms annotate their blank node; annotated binary axioms are reified as owl:Axiom', () => {
  const o = new Ontology();
  const [A, B, C] = [t.cls(EX + 'A'), t.cls(EX + 'B'), t.cls(EX + 'C')];
  const ann = [t.annotation(t.annotationProperty(RDFS_COMMENT), t.literal('why'))];
  o.add(t.disjointClasses([A, B, C], ann));
  o.add(t.subClassOf(A, B, ann));
  o.add(t.disjointClasses([B, C]));
  const quads = parseTurtle(writeNTriples(o), 'application/n-triples');
  const subjectsOf = (p: string, obj: string) =>
    quads.filter((q) => q.predicate.value === p && q.object.value === obj).map((q) => q.subject);
  const [all] = subjectsOf('http://www.w3.org/1999/02/22-rdf-syntax-ns#type', OWL + 'AllDisjointClasses');
  assert.ok(all);
  assert.ok(quads.some((q) => q.subject.equals(all) && q.predicate.value === RDFS_COMMENT && q.object.value === 'why'));
  const [axiom] = subjectsOf('http://www.w3.org/1999/02/22-rdf-syntax-ns#type', OWL + 'Axiom');
  assert.ok(axiom);
  const of = (p: string) => quads.find((q) => q.subject.equals(axiom) && q.predicate.value === OWL + p)?.object.value;
  assert.deepEqual(
    [of('annotatedSource'), of('annotatedProperty'), of('annotatedTarget')],
    [EX + 'A', 'http://www.w3.org/2000/01/rdf-schema#subClassOf', EX + 'B'],
  );
  assert.equal(
    subjectsOf(OWL + 'disjointWith', EX + 'C')
      .map((s) => s.value)
      .join(),
    EX + 'B',
  );
});

test('undeclared entities get declaration triples, reported by implicitDeclarations', () => {
  const o = new Ontology();
  o.add(t.declaration(t.cls(EX + 'A')));
  o.add(t.subClassOf(t.cls(EX + 'A'), t.dataSomeValuesFrom(t.dataProperty(EX + 'd'), t.datatype(XSD + 'integer'))));
  o.add(t.subClassOf(t.cls(EX + 'A'), t.cls(OWL + 'Thing')));
  const added = implicitDeclarations(o).map((d) => d.entity.kind + ' ' + d.entity.iri);
  assert.deepEqual(added, ['DataProperty ' + EX + 'd']);
  assert.match(
    writeNTriples(o),
    /<http:\/\/example.org\/onto#d> <http:\/\/www.w3.org\/1999\/02\/22-rdf-syntax-ns#type> <http:\/\/www.w3.org\/2002\/07\/owl#DatatypeProperty> \./,
  );
});

const TRICKY = 'quote " backslash \\ newline \n return \r tab \t control \u0001 del \u007f é 日本 😀 & <tag> ]]>';

function literalOntology(): Ontology {
  const o = new Ontology();
  const i = t.namedIndividual(EX + 'i');
  o.add(t.dataPropertyAssertion(t.dataProperty(EX + 'd'), i, t.literal(TRICKY)));
  o.add(t.dataPropertyAssertion(t.dataProperty(EX + 'd'), i, t.literal('chat', undefined, 'fr-CA')));
  o.add(t.dataPropertyAssertion(t.dataProperty(EX + 'd'), i, t.literal('x', EX + 'my-type')));
  return o;
}

function literalsOf(quads: Quad[]): string[] {
  return quads
    .filter((q) => q.predicate.value === EX + 'd')
    .map((q) =>
      JSON.stringify([
        q.object.value,
        (q.object as { language?: string }).language,
        (q.object as { datatype?: { value: string } }).datatype?.value,
      ]),
    )
    .sort();
}

const EXPECTED_LITERALS = [
  JSON.stringify([TRICKY, '', XSD + 'string']),
  JSON.stringify(['chat', 'fr-ca', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString']),
  JSON.stringify(['x', '', EX + 'my-type']),
].sort();

test('turtle and n-triples escape every literal so n3 reads back the exact lexical form', () => {
  const o = literalOntology();
  assert.deepEqual(literalsOf(parseTurtle(writeTurtle(o))), EXPECTED_LITERALS);
  assert.deepEqual(literalsOf(parseTurtle(writeTriG(o), 'application/trig')), EXPECTED_LITERALS);
  assert.deepEqual(literalsOf(parseTurtle(writeNTriples(o), 'application/n-triples')), EXPECTED_LITERALS);
  assert.deepEqual(literalsOf(parseTurtle(writeNQuads(o), 'application/n-quads')), EXPECTED_LITERALS);
});

test('rdf/xml escapes every literal (XML 1.1 when a control character needs it)', async () => {
  const text = writeRdfXml(literalOntology());
  assert.match(text, /^<\?xml version="1\.1"/);
  assert.deepEqual(literalsOf(await parseRdfXml(text)), EXPECTED_LITERALS);
  const plain = new Ontology();
  plain.add(t.dataPropertyAssertion(t.dataProperty(EX + 'd'), t.namedIndividual(EX + 'i'), t.literal('a & b')));
  assert.match(writeRdfXml(plain), /^<\?xml version="1\.0"/);
});

test('json-ld keeps every literal exactly', () => {
  const doc = JSON.parse(writeJsonLd(literalOntology()));
  const node = doc['@graph'].find((n: Record<string, unknown>) => n['@id'] === EX + 'i');
  assert.deepEqual(
    node[EX + 'd'].map((v: unknown) => JSON.stringify(v)).sort(),
    [
      JSON.stringify({ '@value': TRICKY }),
      JSON.stringify({ '@value': 'chat', '@language': 'fr-ca' }),
      JSON.stringify({ '@value': 'x', '@type': EX + 'my-type' }),
    ].sort(),
  );
});

test('rdf/xml uses the prefix map and invents a prefix for predicates it does not cover', async () => {
  const o = new Ontology();
  o.prefixes.set('ex:', EX);
  const i = t.namedIndividual(EX + 'i');
  o.add(t.declaration(i));
  o.add(t.dataPropertyAssertion(t.dataProperty('http://other.org/vocab/size'), i, t.literal('3', XSD + 'integer')));
  o.add(t.dataPropertyAssertion(t.dataProperty(EX + 'weight'), i, t.literal('4', XSD + 'integer')));
  const text = writeRdfXml(o);
  assert.match(text, /xmlns:ns1="http:\/\/other.org\/vocab\/"/);
  assert.match(text, /<ns1:size rdf:datatype="http:\/\/www.w3.org\/2001\/XMLSchema#integer">3<\/ns1:size>/);
  assert.match(text, /<ex:weight rdf:datatype="[^"]+">4<\/ex:weight>/);
  const quads = await parseRdfXml(text);
  assert.ok(quads.some((q) => q.predicate.value === 'http://other.org/vocab/size' && q.object.value === '3'));
});

test('rdf/xml refuses a predicate IRI that cannot be a qualified name', () => {
  const o = new Ontology();
  o.add(t.dataPropertyAssertion(t.dataProperty('http://example.org/p/'), t.namedIndividual(EX + 'i'), t.literal('v')));
  assert.throws(() => writeRdfXml(o), /does not end in an XML name/);
});

test('owlToTriples emits the OWL 2 vocabulary of the mapping (qualified vs unqualified cardinality, hasSelf)', () => {
  const o = new Ontology();
  const p = t.objectProperty(EX + 'p');
  o.add(t.subClassOf(t.cls(EX + 'A'), t.objectMinCardinality(2, p)));
  o.add(t.subClassOf(t.cls(EX + 'A'), t.objectMaxCardinality(1, p, t.cls(EX + 'B'))));
  o.add(t.subClassOf(t.cls(EX + 'A'), t.objectHasSelf(p)));
  const tr = owlToTriples(o);
  const preds = new Set(tr.p);
  for (const want of ['minCardinality', 'maxQualifiedCardinality', 'onClass', 'hasSelf']) assert.ok(preds.has(OWL + want), want);
  assert.ok(!preds.has(OWL + 'minQualifiedCardinality'));
  const card = tr.o[tr.p.indexOf(OWL + 'minCardinality')] as t.Literal;
  assert.deepEqual([card.lex, card.datatype], ['2', XSD + 'nonNegativeInteger']);
});
