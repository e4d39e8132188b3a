// Lossless OBO round trip (OBO 1.4 → OWL mapping and back): every OBO document, the GO-style fixtures
// written from the OBO 1.4 guide under test/fixtures/obo and any .obo file in the shared corpus, read,
// written as OBO and read again gives the same axioms, ontology id, imports and ontology annotations, and
// a second write gives the same text. And every corpus ontology written as OBO keeps all its axioms:
// what has no OBO tag travels in the owl-axioms header line.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readObo } from '../src/model/formats/obo/reader.js';
import { writeObo } from '../src/model/formats/obo/writer.js';
import { readDocument } from '../src/model/formats/registry.js';
import type { Ontology } from '../src/model/ontology.js';
import { axiomLines, LineRenderer } from '../src/model/render/axiom-lines.js';
import { corpusBase, corpusDir, manifest, repoRoot } from './support/reference.js';
import { EXPECTED_LOAD_FAILURES } from './support/known-differences.js';

const anonymousBlind = new LineRenderer(() => '_:x');
const header = (o: Ontology) => ({
  id: o.id,
  imports: [...o.imports].sort(),
  annotations: [...o.annotations].map((a) => anonymousBlind.annotation(a)).sort(),
});

function oboFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.obo'))
    .map((e) => path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name))
    .sort();
}

const documents = [...oboFiles(path.join(repoRoot, 'test/fixtures/obo')), ...oboFiles(corpusDir)];

test('there are OBO documents to round-trip', () => {
  assert.ok(documents.some((f) => f.endsWith('go-style-edit.obo')));
});

for (const file of documents) {
  test(`lossless OBO round trip ${path.relative(repoRoot, file)}`, () => {
    const o = readObo(readFileSync(file, 'utf8'));
    const text = writeObo(o);
    const back = readObo(text);
    assert.deepEqual(axiomLines(back.axioms()), axiomLines(o.axioms()));
    assert.deepEqual(header(back), header(o));
    assert.equal(writeObo(back), text, 'a second write is identical');
  });
}

for (const entry of manifest().filter((e) => !EXPECTED_LOAD_FAILURES[e.path])) {
  test(`OBO keeps every axiom of ${entry.path}`, async () => {
    const { ontology } = await readDocument(readFileSync(path.join(corpusDir, entry.path), 'utf8'), {
      base: corpusBase(entry.path),
      fileName: entry.path,
    });
    const back = new Set(axiomLines(readObo(writeObo(ontology, { onLossy: 'drop' })).axioms()));
    // axiom lines name anonymous individuals canonically, so blank-node renaming is no difference
    assert.deepEqual(
      axiomLines(ontology.axioms()).filter((l) => !back.has(l)),
      [],
    );
  });
}
