// Content sniffing: N-Triples and Turtle whose first IRI looks like an XML tag (`<urn:x>`) are not XML, and
// the root element of an XML document is found past a DOCTYPE of any length, so OWL/XML with a large
// internal subset is read as OWL/XML (not as RDF/XML, which loaded it as an anonymous ontology).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectFormat } from '../../src/model/formats/detect.js';
import { readDocument } from '../../src/model/formats/registry.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';

test('N-Triples beginning with <urn:…> is N-Triples, even named .nt', async () => {
  const nt =
    '<urn:a> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/2002/07/owl#Class> .\n<urn:a> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <urn:b> .\n';
  assert.equal(detectFormat(nt), 'ntriples');
  assert.equal(detectFormat(nt, 'data.nt'), 'ntriples');
  const { ontology, format } = await readDocument(nt, { fileName: 'data.nt' });
  assert.equal(format, 'ntriples');
  assert.ok(axiomLines(ontology.axioms()).includes('SubClassOf(<urn:a> <urn:b>)'));
});

test('Turtle beginning with <urn:x> a … is Turtle', async () => {
  const ttl = '<urn:x> a <http://www.w3.org/2002/07/owl#Class> ;\n  <http://www.w3.org/2000/01/rdf-schema#label> "x" .\n';
  assert.equal(detectFormat(ttl, 'x.ttl'), 'turtle');
  assert.equal(detectFormat('<urn:x> rdfs:label "x" .\n'), 'turtle');
});

const entities = Array.from(
  { length: 400 },
  (_, i) => `  <!ENTITY ns${i} "http://example.org/namespace/number/${i}/with/a/long/path#" >`,
).join('\n');

test('OWL/XML with a DOCTYPE larger than the sniffed head is OWL/XML', async () => {
  const owx = `<?xml version="1.0"?>
<!DOCTYPE Ontology [
${entities}
  <!ENTITY gt "&#62;" >
]>
<Ontology xmlns="http://www.w3.org/2002/07/owl#" ontologyIRI="http://ex.org/big-doctype">
  <Declaration><Class IRI="&ns1;A"/></Declaration>
  <SubClassOf><Class IRI="&ns1;A"/><Class IRI="&ns2;B"/></SubClassOf>
</Ontology>
`;
  assert.ok(owx.indexOf('<Ontology') > 8192);
  assert.equal(detectFormat(owx, 'big.owl'), 'owlxml');
  const { ontology, format } = await readDocument(owx, { fileName: 'big.owl' });
  assert.equal(format, 'owlxml');
  assert.equal(ontology.id.iri, 'http://ex.org/big-doctype');
  assert.ok(
    axiomLines(ontology.axioms()).includes(
      'SubClassOf(<http://example.org/namespace/number/1/with/a/long/path#A> <http://example.org/namespace/number/2/with/a/long/path#B>)',
    ),
  );
});

test('RDF/XML with a large DOCTYPE and an XML element named like a URN scheme stay RDF/XML', () => {
  assert.equal(
    detectFormat(
      `<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [\n${entities}\n]>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>\n`,
    ),
    'rdfxml',
  );
  assert.equal(detectFormat('<rdf:RDF>\n  <owl:Ontology rdf:about="http://ex.org/o"/>\n</rdf:RDF>\n'), 'rdfxml');
});
