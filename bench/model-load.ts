// One measurement of bench/model, run in a fresh process so heap figures are not shared between formats:
// node --expose-gc dist/bench/model-load.js FILE FORMAT RUNS → one JSON line on stdout: best wall time and
// best CPU time (all threads, so garbage-collector helpers count too) of RUNS loads, heap after load.

import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { Lexer } from 'n3';
import { readDocument } from '../src/model/formats/registry.js';
import type { FormatId, Ontology } from '../src/model/ontology.js';

const gc = (globalThis as { gc?: () => void }).gc!;
/** The JS heap plus array buffers: the model's hash tables are typed arrays, which the heap figure alone leaves out. */
const heapUsed = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

const tokenize = (text: string) =>
  new Promise<number>((resolve, reject) => {
    let tokens = 0;
    new Lexer().tokenize(text, (err, token) => {
      if (err) reject(err);
      else if (token.type === 'eof') resolve(tokens);
      else tokens++;
    });
  });

async function main() {
  const [file, mode, runsArg] = process.argv.slice(2);
  if (file === undefined) throw new Error('usage: model-load FILE [MODE] [RUNS]');
  const runs = Number(runsArg ?? 3);
  // Heap is measured from before the text is read to after it is released: whatever the model keeps of
  // the document text counts against it.
  const before = heapUsed();
  let text: string | null = await readFile(file, 'utf8');
  let best = Infinity;
  let bestCpu = Infinity;
  let ontology: Ontology | null = null;
  let tokens = 0;
  for (let i = 0; i < runs; i++) {
    ontology = null;
    heapUsed();
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    if (mode === 'tokenize') tokens = await tokenize(text!);
    else ontology = (await readDocument(text!, { format: mode as FormatId, base: 'http://bench.athene.example.org/onto' })).ontology;
    best = Math.min(best, performance.now() - t0);
    const c = process.cpuUsage(c0);
    bestCpu = Math.min(bestCpu, (c.user + c.system) / 1000);
  }
  text = null;
  // A turn of the event loop, as a server has between requests: parsers still on this task's stack go.
  await new Promise(setImmediate);
  const heap = heapUsed() - before;
  const result: Record<string, number> = { ms: best, cpuMs: bestCpu, heap, tokens };
  if (ontology) {
    result.axioms = ontology.axiomCount;
    const t0 = performance.now();
    result.entities = ontology.index.referencing.size;
    result.indexMs = performance.now() - t0;
    result.heapWithIndex = heapUsed() - before;
  }
  process.stdout.write(JSON.stringify(result) + '\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
