// Functional-syntax corpus files against the OWL API references: axiom lines, header, counts, and a
// write/read round trip of each file.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFunctional } from '../src/model/formats/functional/reader.js';
import { writeFunctional } from '../src/model/formats/functional/writer.js';
import { axiomLines, LineRenderer } from '../src/model/render/axiom-lines.js';
import type { Ontology } from '../src/model/ontology.js';
import { compareWithReference, corpusBase, manifest, readCorpusFile, referenceStats } from './support/reference.js';

const files = manifest().filter((f) => f.format === 'ofn').map((f) => f.path);

const load = (relPath: string) => readFunctional(readCorpusFile(relPath), { base: corpusBase(relPath) });

function header(o: Ontology) {
  const r = new LineRenderer(() => '_:?');
  return {
    ontologyIRI: o.id.iri,
    versionIRI: o.id.versionIri,
    importsDeclared: [...o.imports].sort(),
    ontologyAnnotations: [...o.annotations].map((a) => r.annotation(a)).sort(),
    prefixes: Object.fromEntries([...o.prefixes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
}

test('the corpus has functional-syntax files', () => {
  assert.ok(files.length >= 10, `only ${files.length} ofn files`);
});

for (const relPath of files) {
  test(`ofn corpus: ${relPath}`, () => {
    const o = load(relPath);
    const lines = axiomLines(o.axioms());
    const stats = referenceStats(relPath);
    if (stats !== null) {
      const { missing, extra } = compareWithReference(relPath, lines);
      assert.deepEqual({ missing, extra }, { missing: [], extra: [] });
      assert.equal(o.axiomCount, stats.axioms);
      assert.deepEqual(header(o), {
        ontologyIRI: stats.ontologyIRI,
        versionIRI: stats.versionIRI,
        importsDeclared: [...(stats.importsDeclared as string[])].sort(),
        ontologyAnnotations: [...(stats.ontologyAnnotations as string[])].sort(),
        prefixes: stats.prefixes,
      });
    } else {
      assert.ok(o.axiomCount > 0);
    }
    const back = readFunctional(writeFunctional(o));
    assert.deepEqual(axiomLines(back.axioms()), lines, 'write/read round trip');
    assert.deepEqual(header(back), header(o), 'header round trip');
  });
}
