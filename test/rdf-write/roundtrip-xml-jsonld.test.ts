// Round trips through the RDF/XML and JSON-LD writers and readers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeJsonLd, writeRdfXml } from '../../src/model/formats/rdf-writers.js';
import { readRdfXml } from '../../src/model/formats/rdfxml-reader.js';
import { readJsonLd } from '../../src/model/formats/jsonld-reader.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';
import { everythingOntology } from './fixture.js';
import { diff, expectedLines, headerOf } from './support.js';

test('rdfxml: every axiom kind reads back unchanged, with the header and prefixes', async () => {
  const o = everythingOntology();
  const back = await readRdfXml(writeRdfXml(o), { base: 'http://example.org/base' });
  assert.deepEqual(diff(expectedLines(o), axiomLines(back.axioms())), { missing: [], extra: [] });
  assert.deepEqual(headerOf(back), headerOf(o));
  assert.equal(back.prefixes.get('dc:'), 'http://purl.org/dc/elements/1.1/');
});

test('jsonld: every axiom kind reads back unchanged, with the header', async () => {
  const o = everythingOntology();
  const back = await readJsonLd(writeJsonLd(o), { base: 'http://example.org/base' });
  assert.deepEqual(diff(expectedLines(o), axiomLines(back.axioms())), { missing: [], extra: [] });
  assert.deepEqual(headerOf(back), headerOf(o));
});
