// The document readers: syntaxes, prefixes, BOM, named graphs, and ParseError with positions for bad input.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readTurtle } from '../../src/model/formats/turtle-reader.js';
import { readRdfXml } from '../../src/model/formats/rdfxml-reader.js';
import { readJsonLd } from '../../src/model/formats/jsonld-reader.js';
import { ParseError } from '../../src/model/formats/errors.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';
import { at } from '../support/at.js';

const SUB = 'SubClassOf(<http://ex.org/A> <http://ex.org/B>)';
const RDFS_SUB = '<http://www.w3.org/2000/01/rdf-schema#subClassOf>';

async function rejectsWithLine(p: Promise<unknown>, line: number): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof ParseError, String(e));
    assert.equal(e.line, line);
    return true;
  });
}

test('Turtle: BOM stripped, prefixes kept with trailing colon, format set', async () => {
  const o = await readTurtle(
    '\uFEFF@prefix : <http://ex.org/> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> . :A rdfs:subClassOf :B .',
    {},
  );
  assert.deepEqual(axiomLines(o.axioms()), [SUB]);
  assert.equal(o.prefixes.get(':'), 'http://ex.org/');
  assert.equal(o.prefixes.get('rdfs:'), 'http://www.w3.org/2000/01/rdf-schema#');
  assert.equal(o.format, 'turtle');
});

test('Turtle: relative IRIs resolve against the base', async () => {
  const o = await readTurtle(`<A> ${RDFS_SUB} <B> .`, { base: 'http://ex.org/' });
  assert.deepEqual(axiomLines(o.axioms()), [SUB]);
});

test('Turtle: a stray "." inside a blank-node property list is tolerated like the OWL API does', async () => {
  const o = await readTurtle(`@prefix : <http://ex.org/> . :i :p [ :q :j . ] .`, {});
  assert.equal(axiomLines(o.axioms()).length, 2);
});

test('malformed Turtle gives a ParseError with its line', async () => {
  await rejectsWithLine(readTurtle('@prefix : <http://ex.org/> .\n:A :p :B .\n:C :p ;; :D', {}), 3);
  await rejectsWithLine(readTurtle('@prefix : <http://ex.org/> .\n\n:A undefined:p :B .', {}), 3);
});

test('N-Triples and N-Quads: only the default graph is the ontology, named-graph quads are unmapped', async () => {
  const nt = await readTurtle(`<http://ex.org/A> ${RDFS_SUB} <http://ex.org/B> .\n`, { syntax: 'ntriples' });
  assert.deepEqual(axiomLines(nt.axioms()), [SUB]);
  assert.equal(nt.format, 'ntriples');
  const nq = await readTurtle(
    `<http://ex.org/A> ${RDFS_SUB} <http://ex.org/B> .\n<http://ex.org/C> ${RDFS_SUB} <http://ex.org/D> <http://ex.org/g> .\n`,
    { syntax: 'nquads' },
  );
  assert.deepEqual(axiomLines(nq.axioms()), [SUB]);
  assert.equal(nq.unmapped.length, 1);
  assert.match(at(nq.unmapped, 0).reason, /named graph/);
  assert.match(at(nq.unmapped, 0).text, /<http:\/\/ex.org\/g> \.$/);
});

test('TriG: default graph mapped, named graph kept as unmapped', async () => {
  const o = await readTurtle(
    `@prefix : <http://ex.org/> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
    { :A rdfs:subClassOf :B . } :g { :C rdfs:subClassOf :D . }`,
    { syntax: 'trig' },
  );
  assert.deepEqual(axiomLines(o.axioms()), [SUB]);
  assert.equal(o.unmapped.length, 1);
});

const RDFXML = `<?xml version="1.0"?>
<!DOCTYPE rdf:RDF [ <!ENTITY ex "http://ex.org/"> ]>
<rdf:RDF xmlns="http://ex.org/" xmlns:ex="&ex;" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#" xmlns:owl="http://www.w3.org/2002/07/owl#">
  <owl:Ontology rdf:about="http://ex.org/o"/>
  <owl:Class rdf:about="&ex;A">
    <rdfs:subClassOf rdf:resource="&ex;B"/>
  </owl:Class>
</rdf:RDF>
`;

test('RDF/XML: axioms, ontology IRI and xmlns prefixes (entities expanded)', async () => {
  const o = await readRdfXml(RDFXML, { base: 'http://ex.org/doc' });
  assert.deepEqual(axiomLines(o.axioms()), ['Declaration(Class(<http://ex.org/A>))', SUB]);
  assert.equal(o.id.iri, 'http://ex.org/o');
  assert.equal(o.prefixes.get(':'), 'http://ex.org/');
  assert.equal(o.prefixes.get('ex:'), 'http://ex.org/');
  assert.equal(o.format, 'rdfxml');
});

test('RDF/XML: a truncated document fails instead of giving a partial ontology', async () => {
  await assert.rejects(readRdfXml(RDFXML.slice(0, RDFXML.indexOf('</owl:Class>')), {}), ParseError);
});

test('RDF/XML: malformed XML gives a ParseError with line and column', async () => {
  await assert.rejects(
    readRdfXml(
      '<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n  <a b="1" b="2"/>\n</rdf:RDF>',
      {},
    ),
    (e: unknown) => e instanceof ParseError && e.line === 3 && typeof e.column === 'number',
  );
});

test('JSON-LD: quads mapped and context prefixes kept', async () => {
  const doc = {
    '@context': { ex: 'http://ex.org/', rdfs: 'http://www.w3.org/2000/01/rdf-schema#' },
    '@id': 'ex:A',
    'rdfs:subClassOf': { '@id': 'ex:B' },
  };
  const o = await readJsonLd(JSON.stringify(doc), {});
  assert.deepEqual(axiomLines(o.axioms()), [SUB]);
  assert.equal(o.prefixes.get('ex:'), 'http://ex.org/');
  assert.equal(o.format, 'jsonld');
});

test('JSON-LD: remote contexts are refused, malformed JSON reports its line', async () => {
  await assert.rejects(readJsonLd('{"@context": "http://schema.org/", "@id": "http://ex.org/x"}', {}), /refused/);
  await rejectsWithLine(readJsonLd('{\n  "@id": "http://ex.org/x",\n}', {}), 3);
});
