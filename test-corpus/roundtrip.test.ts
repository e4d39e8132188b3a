// Round trip: for every corpus file and every writable format, parse → write → parse gives the same
// axioms and the same header. RDF can type an entity only by declaring it, so the RDF writers add a
// declaration for each undeclared entity (as the OWL API does): for them the expected axioms are the
// original ones plus those declarations.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { readDocument, writeDocument } from '../src/model/formats/registry.js';
import { implicitDeclarations } from '../src/model/rdf/owl-to-triples.js';
import { axiomLines } from '../src/model/render/axiom-lines.js';
import type { FormatId, Ontology } from '../src/model/ontology.js';
import { corpusBase, corpusDir, manifest } from './support/reference.js';
import { EXPECTED_LOAD_FAILURES } from './support/known-differences.js';

const FORMATS: FormatId[] = ['turtle', 'ntriples', 'nquads', 'trig', 'rdfxml', 'jsonld', 'owlxml', 'ofn', 'manchester'];
const RDF_FORMATS = new Set<FormatId>(['turtle', 'ntriples', 'nquads', 'trig', 'rdfxml', 'jsonld']);

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
    const exact = axiomLines(ontology.axioms());
    const withDeclarations = axiomLines([...ontology.axioms(), ...implicitDeclarations(ontology)]);
    for (const format of FORMATS) {
      const expected = RDF_FORMATS.has(format) ? withDeclarations : exact;
      const written = writeDocument(ontology, format);
      const { ontology: back } = await readDocument(written, { format, base: 'http://roundtrip.invalid/doc' });
      assert.deepEqual(axiomLines(back.axioms()), expected, `axioms after ${format}`);
      assert.deepEqual(header(back), header(ontology), `header after ${format}`);
      assert.equal(writeDocument(back, format), written, `${format} output is deterministic`);
    }
  });
}
