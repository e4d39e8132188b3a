// The intern table gives back what an unloaded ontology held: in a child process with --expose-gc, a large
// generated ontology is loaded through the real path (file → loadOntologyFile → Workspace.load, its index
// built), unloaded, and the heap returns near where it started; with the release turned off (keepInterned)
// the same run keeps most of it. Identity holds across a release: a node still referenced elsewhere is
// found again by structure.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  cls,
  objectProperty,
  objectSomeValuesFrom,
  releaseInterned,
  subClassOf,
  literal,
  annotationAssertion,
  annotationProperty,
  iriNode,
} from '../../src/model/terms.js';
import { readFunctional } from '../../src/model/formats/functional/reader.js';
import { Workspace } from '../../src/model/workspace.js';

const E = 'http://example.org/release#';

/** A functional-syntax ontology of `n` classes, each with a superclass, an existential and a label. */
function generated(n: number): string {
  const lines = [`Prefix(:=<${E}>)`, 'Prefix(rdfs:=<http://www.w3.org/2000/01/rdf-schema#>)', `Ontology(<${E}big>`];
  for (let i = 0; i < n; i++) {
    lines.push(
      `Declaration(Class(:C${i})) SubClassOf(:C${i} :C${i >> 1}) SubClassOf(:C${i} ObjectSomeValuesFrom(:p${i % 50} :C${(i * 7) % n}))`,
    );
    lines.push(`AnnotationAssertion(rdfs:label :C${i} "class number ${i} of the generated ontology"@en)`);
  }
  lines.push(')');
  return lines.join('\n');
}

const CHILD = (file: string, keep: boolean) => `
const gc = globalThis.gc;
const { loadOntologyFile } = await import(${JSON.stringify(new URL('../../src/model/io.js', import.meta.url).href)});
const { Workspace } = await import(${JSON.stringify(new URL('../../src/model/workspace.js', import.meta.url).href)});
const { keepInterned, internedCount } = await import(${JSON.stringify(new URL('../../src/model/terms.js', import.meta.url).href)});
keepInterned(${keep});
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    await new Promise(setImmediate);
    gc();
  }
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const base = await settle();
const ws = new Workspace();
let o = await loadOntologyFile(${JSON.stringify(file)});
ws.load(o);
void o.index;
const axioms = o.axiomCount;
o = null;
const loaded = await settle();
const nodes = internedCount();
ws.unload(ws.active);
const after = await settle();
process.stdout.write(JSON.stringify({ base, loaded, after, axioms, nodes, nodesAfter: internedCount() }));
`;

async function measure(
  file: string,
  keep: boolean,
): Promise<{ base: number; loaded: number; after: number; axioms: number; nodes: number; nodesAfter: number }> {
  const child = spawn(process.execPath, ['--expose-gc', '--input-type=module', '-e', CHILD(file, keep)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, 'the child ran to the end');
  return JSON.parse(out);
}

test('unloading an ontology gives its interned nodes back; with the release off the heap stays up', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-intern-'));
  try {
    const file = path.join(dir, 'big.ofn');
    await writeFile(file, generated(40_000));
    const released = await measure(file, false);
    const kept = await measure(file, true);
    const mb = (n: number) => (n / 1048576).toFixed(1) + ' MB';
    const grew = released.loaded - released.base;
    const retained = released.after - released.base;
    const keptRetained = kept.after - kept.base;
    const report = `loaded +${mb(grew)} (${released.axioms} axioms, ${released.nodes} nodes); after unload: released +${mb(retained)} (${released.nodesAfter} nodes alive), kept +${mb(keptRetained)} (${kept.nodesAfter} nodes)`;
    assert.ok(grew > 20 * 1048576, `the ontology is large enough to measure: ${report}`);
    // margins of a tenth and a quarter of what loading took: the interned nodes alone are over a third of it,
    // and what a released run keeps is the thread's warm-up (compiled code, lazily built tables)
    assert.ok(retained < grew / 10, `the heap returns near the baseline: ${report}`);
    assert.ok(keptRetained > grew / 4, `without the release the nodes stay: ${report}`);
    assert.ok(released.nodesAfter < released.nodes / 100, `the table forgot the collected nodes: ${report}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a release keeps identity: a node something still holds is found again by structure, and the others still intern', () => {
  const ws = new Workspace();
  const held = subClassOf(cls(E + 'A'), objectSomeValuesFrom(objectProperty(E + 'p'), cls(E + 'B')));
  const label = annotationAssertion(
    annotationProperty('http://www.w3.org/2000/01/rdf-schema#label'),
    iriNode(E + 'A'),
    literal('a', undefined, 'en'),
  );
  const other = readFunctional(`Prefix(:=<${E}>) Ontology(<${E}other> SubClassOf(:X :Y))`);
  ws.load(other);
  ws.unload(other);
  releaseInterned();
  assert.equal(
    subClassOf(cls(E + 'A'), objectSomeValuesFrom(objectProperty(E + 'p'), cls(E + 'B'))),
    held,
    'the same object after a release',
  );
  assert.equal(
    annotationAssertion(annotationProperty('http://www.w3.org/2000/01/rdf-schema#label'), iriNode(E + 'A'), literal('a', undefined, 'en')),
    label,
  );
  const fresh = subClassOf(cls(E + 'New'), cls(E + 'A'));
  assert.equal(subClassOf(cls(E + 'New'), cls(E + 'A')), fresh, 'nodes interned after a release are shared as before');
  assert.equal(fresh.sup, held.sub, 'a new node meets the released generation by identity');
});
