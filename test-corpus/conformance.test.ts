// Conformance: every corpus file loads (or fails with the precise error listed for it), and every file
// with an OWL API reference gives exactly the reference's axiom lines through the same path as
// `athene axioms FILE --base http://corpus.invalid/<path>`, apart from the README's literal
// normalisations, OWL API artefacts, and the differences listed with their reasons in
// support/known-differences.ts. The ontology IRI, version IRI, imports and ontology annotations are
// checked against the reference's stats.json the same way.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { loadOntologyFile } from '../src/model/io.js';
import { axiomLines } from '../src/model/render/axiom-lines.js';
import { compareWithReference, corpusBase, corpusDir, manifest, referenceLines, referenceStats, repoRoot } from './support/reference.js';
import { ALLOWED, EXPECTED_LOAD_FAILURES, HEADER_ALLOWED } from './support/known-differences.js';

for (const entry of manifest()) {
  test(`corpus ${entry.path}`, async () => {
    const load = () => loadOntologyFile(path.join(corpusDir, entry.path), { base: corpusBase(entry.path) });
    const expectedFailure = EXPECTED_LOAD_FAILURES[entry.path];
    if (expectedFailure) {
      await assert.rejects(load(), (err: Error) => expectedFailure.error.test(err.message));
      return;
    }
    const ontology = await load();
    assert.ok(ontology.axiomCount > 0, 'reads axioms');
    if (referenceLines(entry.path) === null) return;

    const { missing, extra } = compareWithReference(entry.path, axiomLines(ontology.axioms()));
    const allowed = ALLOWED.filter((a) => a.file === entry.path);
    const explained = (side: 'missing' | 'extra', line: string) => allowed.some((a) => a.side === side && a.pattern.test(line));
    assert.deepEqual(
      { missing: missing.filter((l) => !explained('missing', l)), extra: extra.filter((l) => !explained('extra', l)) },
      { missing: [], extra: [] },
    );
    for (const a of allowed) {
      assert.ok(
        (a.side === 'missing' ? missing : extra).some((l) => a.pattern.test(l)),
        `listed difference no longer occurs: ${a.side} ${a.pattern}`,
      );
    }

    const stats = referenceStats(entry.path);
    if (stats === null) return;
    const header = HEADER_ALLOWED[entry.path];
    assert.equal(ontology.id.iri, header?.iri ?? stats.ontologyIRI ?? null, 'ontology IRI');
    assert.equal(ontology.id.versionIri, header?.versionIri ?? stats.versionIRI ?? null, 'version IRI');
    assert.deepEqual([...ontology.imports].sort(), [...(stats.importsDeclared as string[])].sort(), 'imports');
    if (Array.isArray(stats.ontologyAnnotations)) {
      assert.equal(ontology.annotations.size, header?.annotations ?? stats.ontologyAnnotations.length, 'ontology annotations');
    }
  });
}

test('the athene axioms command prints exactly what the conformance check compares', async () => {
  const rel = 'owlapi/pizza.owl';
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(repoRoot, 'dist/src/cli/main.js'), 'axioms', path.join(corpusDir, rel), '--base', corpusBase(rel)],
    { maxBuffer: 64 << 20 },
  );
  assert.deepEqual(compareWithReference(rel, stdout.trimEnd().split('\n')), { missing: [], extra: [] });
});
