// bench/model: parse + model build of a generated ontology of >= 1,000,000 triples, in Turtle and in
// RDF/XML, against the floor of n3's raw tokenizer on the same Turtle text, measured in the same run.
// Each measurement runs in a fresh process (bench/model-load.ts) so heap figures are its own; heap after
// load counts whatever the model keeps of the document text, and the typed arrays of its hash tables. CPU time is printed beside wall time: on a
// shared machine it is the steadier of the two.
// Usage: npm run bench:model [-- triples]   (BENCH_RUNS=n for best of n, default 3)

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateOntology } from './generate.js';

const run = promisify(execFile);
const loader = path.join(path.dirname(fileURLToPath(import.meta.url)), 'model-load.js');

interface Measurement {
  ms: number;
  cpuMs: number;
  heap: number;
  tokens: number;
  axioms?: number;
  entities?: number;
  indexMs?: number;
  heapWithIndex?: number;
}

async function measure(file: string, mode: string, runs: number): Promise<Measurement> {
  const { stdout } = await run(process.execPath, ['--expose-gc', '--max-old-space-size=8192', loader, file, mode, String(runs)], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout);
}

async function main() {
  const target = Number(process.argv[2] ?? 1_000_000);
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-bench-'));
  try {
    const gen = generateOntology(target);
    const ttl = path.join(dir, 'bench.ttl');
    const xml = path.join(dir, 'bench.owl');
    await writeFile(ttl, gen.turtle);
    await writeFile(xml, gen.rdfxml);
    const mb = (n: number) => (n / 1048576).toFixed(1) + ' MB';
    console.log(
      `generated ${gen.triples} triples: Turtle ${mb(gen.turtle.length)}, RDF/XML ${mb(gen.rdfxml.length)}; best of ${runs} runs, fresh process each`,
    );
    const floor = await measure(ttl, 'tokenize', runs);
    console.log(`n3 Lexer tokenize (floor): ${floor.ms.toFixed(0)} ms (CPU ${floor.cpuMs.toFixed(0)} ms), ${floor.tokens} tokens`);
    for (const [name, file, format] of [
      ['Turtle', ttl, 'turtle'],
      ['RDF/XML', xml, 'rdfxml'],
    ] as const) {
      const m = await measure(file, format, runs);
      console.log(
        `${name} full load: ${m.ms.toFixed(0)} ms = ${(m.ms / floor.ms).toFixed(2)}x the floor ` +
          `(CPU ${m.cpuMs.toFixed(0)} ms = ${(m.cpuMs / floor.cpuMs).toFixed(2)}x), ` +
          `${(gen.triples / (m.ms / 1000) / 1000).toFixed(0)}k triples/s; ${m.axioms} axioms; ` +
          `heap after load ${mb(m.heap)} (${(m.heap / m.axioms!).toFixed(0)} B/axiom, ${(m.heap / gen.triples).toFixed(0)} B/triple)`,
      );
      console.log(
        `  indexes built on first query: ${m.indexMs!.toFixed(0)} ms for ${m.entities} entities; heap with indexes ${mb(m.heapWithIndex!)} (${(m.heapWithIndex! / gen.triples).toFixed(0)} B/triple)`,
      );
    }
    const owlApiTriplesPerSecond = 730_000 / 7.7;
    console.log(
      `OWL API (Java) on this machine: 730,000-triple Turtle in ~7.7 s warm (~${(owlApiTriplesPerSecond / 1000).toFixed(0)}k triples/s), ~144 MB heap (~200 B/triple)`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
