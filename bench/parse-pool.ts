// Parsing a large document on the calling thread vs on the parse pool: wall time and the longest event-loop
// stall the calling thread suffers (what a window actor's other sessions would wait). Each mode runs in a
// fresh process so interning tables are not shared between them.
//   node dist/bench/parse-pool.js [TRIPLES]          → one line per mode
//   node dist/bench/parse-pool.js --mode MODE FILE    → one JSON line (internal)

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { generateOntology } from './generate.js';
import { loadOntologyFile } from '../src/model/io.js';
import { closeParsePool, loadOntologyOffThread } from '../src/actors/parse-pool.js';
import type { Ontology } from '../src/model/ontology.js';

const MODES = ['direct', 'pool-cold', 'pool-warm'] as const;
type Mode = (typeof MODES)[number];

async function timed(load: () => Promise<Ontology>) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const start = performance.now();
  const o = await load();
  const ms = performance.now() - start;
  // The histogram records a stall only when its timer fires late: let it fire once more.
  await new Promise((resolve) => setTimeout(resolve, 20));
  delay.disable();
  return { ms: Math.round(ms), maxStallMs: Math.round(delay.max / 1e6), axioms: o.axiomCount };
}

async function measure(mode: Mode, file: string) {
  if (mode === 'direct') return timed(() => loadOntologyFile(file, { format: 'turtle' }));
  if (mode === 'pool-warm') {
    // Warm the thread on a small document (the pool is idle-kept between loads in a server).
    const small = path.join(path.dirname(file), 'small.ttl');
    writeFileSync(small, generateOntology(100).turtle);
    await loadOntologyOffThread(small, { format: 'turtle' });
  }
  const result = await timed(() => loadOntologyOffThread(file, { format: 'turtle' }));
  await closeParsePool();
  return result;
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--mode') {
    const [, mode, file] = args;
    if (file === undefined) throw new Error('usage: parse-pool --mode MODE FILE');
    console.log(JSON.stringify(await measure(mode as Mode, file)));
    return;
  }
  const triples = Number(args[0] ?? 300_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'athene-parse-pool-'));
  try {
    const file = path.join(dir, 'large.ttl');
    const generated = generateOntology(triples);
    writeFileSync(file, generated.turtle);
    console.log(`${generated.triples} triples, ${(generated.turtle.length / 1e6).toFixed(1)} MB of Turtle`);
    const self = fileURLToPath(import.meta.url);
    for (const mode of MODES) {
      const out = JSON.parse(execFileSync(process.execPath, [self, '--mode', mode, file], { encoding: 'utf8' }));
      console.log(
        `${mode.padEnd(10)} ${String(out.ms).padStart(6)} ms   longest stall ${String(out.maxStallMs).padStart(5)} ms   ${out.axioms} axioms`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
