// Round trip: for every corpus file and every writable format, parse → write → parse gives the same
// axioms and the same header.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { readDocument, writeDocument } from '../src/model/formats/registry.js';
import { axiomLines } from '../src/model/render/axiom-lines.js';
import type { FormatId, Ontology } from '../src/model/ontology.js';
import { corpusBase, corpusDir, manifest } from './support/reference.js';
import { EXPECTED_LOAD_FAILURES } from './support/known-differences.js';

const LOSSLESS_FORMATS: FormatId[] = ['turtle', 'ntriples', 'nquads', 'trig', 'rdfxml', 'jsonld', 'owlxml', 'ofn', 'manchester'];

function header(o: Ontology) {
  return {
    id: o.id,
    imports: [...o.imports].sort(),
    annotations: [...o.annotations].map((a) => a.id).sort((x, y) => x - y),
  };
}

for (const entry of manifest().filter((e) => !EXPECTED_LOAD_FAILURES[e.path])) {
  test(`round trip ${entry.path}`, async () => {
    const text = await readFile(path.join(corpusDir, entry.path), 'utf8');
    const { ontology } = await readDocument(text, { base: corpusBase(entry.path), fileName: entry.path });
    const expected = axiomLines(ontology.axioms());
    for (const format of LOSSLESS_FORMATS) {
      const written = writeDocument(ontology, format);
      const { ontology: back } = await readDocument(written, { format, base: 'http://roundtrip.invalid/doc' });
      assert.deepEqual(axiomLines(back.axioms()), expected, `axioms after ${format}`);
      assert.deepEqual(header(back), header(ontology), `header after ${format}`);
      assert.equal(writeDocument(back, format), written, `${format} output is deterministic`);
    }
  });
}
