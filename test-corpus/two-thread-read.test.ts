// Every Turtle file of the corpus read on two threads (scanned on one, with the axioms of simple triples
// built on the other while it streams in) gives exactly the ontology the one-thread read gives.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readTurtle } from '../src/model/formats/turtle-reader.js';
import { axiomLines } from '../src/model/render/axiom-lines.js';
import { corpusBase, corpusDir, manifest } from './support/reference.js';

for (const entry of manifest().filter((e) => e.format === 'turtle')) {
  test(`two-thread read ${entry.path}`, async () => {
    const text = await readFile(path.join(corpusDir, entry.path), 'utf8');
    const base = corpusBase(entry.path);
    const one = await readTurtle(text, { base, scanThreadMinLength: Infinity });
    const two = await readTurtle(text, { base, scanThreadMinLength: 0 });
    assert.deepEqual(axiomLines(two.axioms()).sort(), axiomLines(one.axioms()).sort());
    assert.deepEqual(two.unmapped.map((u) => u.reason).sort(), one.unmapped.map((u) => u.reason).sort());
    assert.deepEqual([...two.prefixes], [...one.prefixes]);
    assert.equal(two.annotations.size, one.annotations.size);
  });
}
