// Round trips through the Turtle-family writers and readers: every axiom type, expression kind and
// annotation form written, read back, compared line by line; and the header.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeNQuads, writeNTriples, writeTriG, writeTurtle } from '../../src/model/formats/rdf-writers.js';
import { readTurtle, type TurtleSyntax } from '../../src/model/formats/turtle-reader.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';
import { everythingOntology } from './fixture.js';
import { diff, expectedLines, headerOf } from './support.js';
import type { Ontology } from '../../src/model/ontology.js';

const FORMATS: [TurtleSyntax, (o: Ontology) => string][] = [
  ['turtle', writeTurtle],
  ['ntriples', writeNTriples],
  ['nquads', writeNQuads],
  ['trig', writeTriG],
];

for (const [syntax, write] of FORMATS) {
  test(`${syntax}: every axiom kind reads back unchanged, with the header`, async () => {
    const o = everythingOntology();
    const back = await readTurtle(write(o), { base: 'http://example.org/base', syntax });
    assert.deepEqual(diff(expectedLines(o), axiomLines(back.axioms())), { missing: [], extra: [] });
    assert.deepEqual(headerOf(back), headerOf(o));
    assert.deepEqual(back.unmapped, []);
  });
}

test('turtle: the prefix map is kept', async () => {
  const o = everythingOntology();
  const back = await readTurtle(writeTurtle(o), { syntax: 'turtle' });
  for (const [k, v] of o.prefixes) assert.equal(back.prefixes.get(k), v, k);
});
