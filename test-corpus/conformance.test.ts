// Conformance: every corpus file loads (or fails with a precise error), and every file with an OWL API
// reference gives exactly the reference's axiom lines through the same path as `athene axioms FILE
// --base http://corpus.invalid/<path>`, apart from the README's literal normalisations, OWL API
// artefacts, and the per-line differences listed with their reasons in known-differences.ts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { loadOntologyFile } from '../src/model/io.js';
import { axiomLines } from '../src/model/render/axiom-lines.js';
import { compareWithReference, corpusBase, corpusDir, manifest, referenceLines, referenceStats, normaliseLiterals, repoRoot } from './support/reference.js';
import { EXPECTED_LOAD_FAILURES, KNOWN_DIFFERENCES } from './support/known-differences.js';

for (const entry of manifest()) {
  test(`corpus ${entry.path}`, async () => {
    const load = () => loadOntologyFile(path.join(corpusDir, entry.path), { base: corpusBase(entry.path) });
    const expectedFailure = EXPECTED_LOAD_FAILURES[entry.path];
    if (expectedFailure) {
      await assert.rejects(load(), (err: Error) => expectedFailure.error.test(err.message));
      return;
    }
    const ontology = await load();
    assert.ok(ontology.axiomCount > 0 || ontology.id.iri !== null, 'loads something');
    if (referenceLines(entry.path) === null) return;
    const lines = axiomLines(ontology.axioms());
    const { missing, extra } = compareWithReference(entry.path, lines);
    const known = KNOWN_DIFFERENCES[entry.path] ?? {};
    const explainedMissing = new Set(Object.keys(known.missing ?? {}).map(normaliseLiterals));
    const explainedExtra = new Set(Object.keys(known.extra ?? {}).map(normaliseLiterals));
    assert.deepEqual(missing.filter((l) => !explainedMissing.has(l)), [], 'reference lines Athene does not produce');
    assert.deepEqual(extra.filter((l) => !explainedExtra.has(l)), [], 'lines Athene produces that the reference lacks');
    // Every listed difference must still be real, so the list cannot go stale.
    for (const l of explainedMissing) assert.ok(missing.includes(l), `listed as missing but now produced: ${l}`);
    for (const l of explainedExtra) assert.ok(extra.includes(l), `listed as extra but no longer produced: ${l}`);

    const stats = referenceStats(entry.path);
    if (stats) {
      assert.equal(ontology.id.iri, stats.ontologyIRI ?? null, 'ontology IRI');
      assert.equal(ontology.id.versionIri, stats.versionIRI ?? null, 'version IRI');
      assert.deepEqual([...ontology.imports].sort(), [...(stats.importsDeclared as string[])].sort(), 'imports');
    }
  });
}

test('the athene axioms command prints exactly what the conformance check compares', async () => {
  const rel = 'owlapi/pizza.owl';
  const { stdout } = await promisify(execFile)(process.execPath,
    [path.join(repoRoot, 'dist/src/cli/main.js'), 'axioms', path.join(corpusDir, rel), '--base', corpusBase(rel)], { maxBuffer: 64 << 20 });
  const { missing, extra } = compareWithReference(rel, stdout.trimEnd().split('\n'));
  assert.deepEqual({ missing, extra }, { missing: [], extra: [] });
});
