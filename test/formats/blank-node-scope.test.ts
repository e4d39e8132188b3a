// Blank-node labels are local to their document: the same label in two documents, read on one thread or on
// different threads, never makes the same anonymous individual.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readDocument, writeDocument } from '../../src/model/formats/registry.js';
import { readDocumentOffThread, closeParsePool } from '../../src/actors/parse-pool.js';
import { Ontology, type FormatId } from '../../src/model/ontology.js';
import { anonymousIndividuals } from '../../src/model/walk.js';
import * as f from '../../src/model/terms.js';
import type { AnonymousIndividual } from '../../src/model/terms.js';

after(() => closeParsePool());

function withAnonymous(): Ontology {
  const o = new Ontology();
  o.id = { iri: 'http://example.org/anon', versionIri: null };
  const knows = f.objectProperty('http://example.org/anon#knows');
  o.add(f.declaration(knows));
  o.add(f.objectPropertyAssertion(knows, f.namedIndividual('http://example.org/anon#a'), f.anonymousIndividual('x')));
  return o;
}

const anonymousOf = (o: Ontology): Set<AnonymousIndividual> => {
  const all = new Set<AnonymousIndividual>();
  for (const a of o.axioms()) anonymousIndividuals(a, all);
  return all;
};

const FORMATS: FormatId[] = ['turtle', 'rdfxml', 'jsonld', 'owlxml', 'ofn', 'manchester'];

for (const format of FORMATS) {
  test(`${format}: two reads of one document, here and on the parse pool, give distinct anonymous individuals`, async () => {
    const text = writeDocument(withAnonymous(), format);
    const first = anonymousOf((await readDocument(text, { format })).ontology);
    const second = anonymousOf((await readDocument(text, { format })).ontology);
    const pooled = anonymousOf((await readDocumentOffThread(text, { format })).ontology);
    assert.equal(first.size, 1);
    assert.equal(second.size, 1);
    assert.equal(pooled.size, 1);
    const [a] = first;
    const [b] = second;
    const [c] = pooled;
    assert.notEqual(a, b);
    assert.notEqual(a, c);
    assert.notEqual(b, c);
  });
}
