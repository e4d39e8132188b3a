import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, writeFile, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadOntologyFile } from '../../src/model/io.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';

const run = promisify(execFile);

function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
}
const root = repoRoot();
const cli = path.join(root, 'dist/src/cli/main.js');
const fixture = path.join(root, 'test/fixtures/cli/small.ttl');
const X = 'http://example.org/small#';

const athene = (...args: string[]) => run(process.execPath, [cli, ...args]);

test('athene axioms prints the canonical sorted lines', async () => {
  const { stdout } = await athene('axioms', fixture);
  assert.equal(
    stdout,
    [
      `AnnotationAssertion(<http://www.w3.org/2000/01/rdf-schema#label> <${X}Animal> "animal"@en)`,
      `ClassAssertion(<${X}Dog> <${X}rex>)`,
      `DataPropertyAssertion(<${X}age> <${X}rex> "3"^^<http://www.w3.org/2001/XMLSchema#integer>)`,
      `DataPropertyRange(<${X}age> <http://www.w3.org/2001/XMLSchema#integer>)`,
      `Declaration(Class(<${X}Animal>))`,
      `Declaration(Class(<${X}Dog>))`,
      `Declaration(Class(<${X}Person>))`,
      `Declaration(DataProperty(<${X}age>))`,
      `Declaration(NamedIndividual(<${X}rex>))`,
      `Declaration(ObjectProperty(<${X}hasOwner>))`,
      `SubClassOf(<${X}Dog> <${X}Animal>)`,
      `SubClassOf(<${X}Dog> ObjectSomeValuesFrom(<${X}hasOwner> <${X}Person>))`,
    ].join('\n') + '\n',
  );
});

test('athene convert writes every format and each reads back to the same axioms', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-cli-'));
  try {
    const { stdout: expected } = await athene('axioms', fixture);
    // OBO too (OBO 1.4 → OWL mapping): what has no OBO tag travels in the owl-axioms header line
    for (const ext of ['ttl', 'nt', 'nq', 'trig', 'owl', 'jsonld', 'owx', 'ofn', 'omn', 'obo']) {
      const out = path.join(dir, 'out.' + ext);
      await athene('convert', fixture, out);
      // read back in this process, as `athene axioms` prints it (the test above runs that command)
      const readBack = axiomLines((await loadOntologyFile(out)).axioms());
      assert.equal(readBack.join('\n') + '\n', expected, 'round trip through .' + ext);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('athene stats reports counts per axiom type as JSON', async () => {
  const { stdout } = await athene('stats', fixture);
  const stats = JSON.parse(stdout);
  assert.equal(stats.ontologyIri, 'http://example.org/small');
  assert.equal(stats.axioms, 12);
  assert.equal(stats.axiomTypes.Declaration, 6);
  assert.equal(stats.axiomTypes.SubClassOf, 2);
  assert.equal(stats.signature.Class, 3);
  assert.equal(stats.format, 'turtle');
});

test('a malformed document fails with the line, and nothing is written', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-cli-'));
  try {
    const bad = path.join(dir, 'bad.ttl');
    await writeFile(bad, (await readFile(fixture, 'utf8')).replace(':Person a owl:Class .', ':Person a owl:Class ;; ] .'));
    const out = path.join(dir, 'out.ofn');
    await assert.rejects(athene('convert', bad, out), (err: { code: number; stderr: string }) => {
      assert.equal(err.code, 1);
      assert.match(err.stderr, /line 10/);
      return true;
    });
    assert.equal(existsSync(out), false);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('usage errors exit with status 2', async () => {
  await assert.rejects(athene('convert', fixture), (err: { code: number; stderr: string }) => {
    assert.equal(err.code, 2);
    assert.match(err.stderr, /expected IN OUT/);
    return true;
  });
  await assert.rejects(athene('frobnicate'), (err: { code: number }) => err.code === 2);
});

test('what cannot be mapped to OWL is reported on stderr, not silently dropped', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-cli-'));
  try {
    const odd = path.join(dir, 'odd.ttl');
    await writeFile(odd, (await readFile(fixture, 'utf8')) + '_:l <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> :Dog .\n');
    const { stdout, stderr } = await athene('axioms', odd);
    assert.match(stderr, /1 item\(s\) could not be mapped to OWL/);
    assert.match(stderr, /rdf-syntax-ns#first/);
    assert.equal(stdout.trimEnd().split('\n').length, 12, 'the mappable axioms are all there');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
