// Functional-syntax corpus files against the OWL API references' stats: axiom count and the full header,
// prefix map included (axiom lines and round trips are checked for every format by conformance.test.ts and
// roundtrip.test.ts).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFunctional } from '../src/model/formats/functional/reader.js';
import { writeFunctional } from '../src/model/formats/functional/writer.js';
import { LineRenderer } from '../src/model/render/axiom-lines.js';
import type { Ontology } from '../src/model/ontology.js';
import { corpusBase, manifest, readCorpusFile, referenceStats } from './support/reference.js';

const files = manifest()
  .filter((f) => f.format === 'ofn')
  .map((f) => f.path);

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
    const stats = referenceStats(relPath);
    if (stats !== null) {
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
    assert.deepEqual(header(readFunctional(writeFunctional(o))), header(o), 'the writer keeps the header and prefix map');
  });
}
