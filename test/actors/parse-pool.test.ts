import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { closeParsePool, loadOntologyOffThread, readDocumentOffThread } from '../../src/actors/parse-pool.js';
import { loadOntologyFile } from '../../src/model/io.js';
import { ParseError } from '../../src/model/formats/errors.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';
import { generateOntology } from '../../bench/generate.js';
import { call, connect, fixture, startTestServer } from '../server/support.js';

after(() => closeParsePool());

test('an off-thread load equals the in-thread load, header included', async () => {
  const file = fixture('zoo.ttl');
  const [here, there] = await Promise.all([loadOntologyFile(file), loadOntologyOffThread(file)]);
  assert.deepEqual(axiomLines(there.axioms()), axiomLines(here.axioms()));
  assert.ok(there.axiomCount > 0);
  assert.deepEqual(there.id, here.id);
  assert.deepEqual([...there.prefixes], [...here.prefixes]);
  assert.equal(there.format, here.format);
  assert.equal(there.documentIri, path.resolve(file));
});

test('a parse error comes back as a ParseError with its format, line and column', async () => {
  const err = await readDocumentOffThread('@prefix : <http://ex.org/> .\n:a :b :c .\n:d :e', { format: 'turtle' }).then(
    () => assert.fail('expected a parse error'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ParseError, String(err));
  assert.equal(err.format, 'turtle');
  assert.equal(err.line, 3);
});

test('a missing file fails with its error code', async () => {
  await assert.rejects(loadOntologyOffThread('/nonexistent/athene/x.ttl'), (e: Error & { code?: string }) => e.code === 'ENOENT');
});

test('while a large document loads, another session of the same window keeps answering', { timeout: 120_000 }, async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-parse-pool-'));
  const big = path.join(dir, 'big.ttl');
  await writeFile(big, generateOntology(150_000).turtle);
  const t = await startTestServer([fixture('zoo.ttl')]);
  try {
    const loader = await connect(t);
    const reader = await connect(t);
    let loadDone = false;
    const load = call(loader, 'load_ontology', { source: big }).then((r) => {
      loadDone = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const read = await call(reader, 'get_active_ontology');
    assert.equal(read.isError, false);
    assert.equal(loadDone, false, 'the read answered before the load finished');
    const loaded = await load;
    assert.equal(loaded.isError, false, JSON.stringify(loaded.body));
    assert.ok((loaded.body.loaded_axioms as number) > 100_000);
  } finally {
    await t.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
