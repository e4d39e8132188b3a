// bench/reasoner: the EL classifier on generated ontologies of the synthetic family (bench/el-generator.ts)
// at 10,000, 50,000 and 200,000 classes, each in a fresh process so the heap and max RSS are its own, then
// incremental reclassifications after adding one axiom and after removing one, against ELK's figures.
// The shared syn-el-10000.ofn (the file ELK's 1.0 s is measured on) is classified first when it is there.
// Then Konclude beside the EL classifier, when Konclude is installed: the generated 10k and 50k EL
// ontologies and pizza-like DL ontologies (bench/dl-generator.ts) at three scales, each timed as a whole
// run (for Konclude: our functional-syntax writing, the process, reading its answer), as a ratio to the
// EL classifier on the same ontology in the same run.
// Usage: node dist/bench/reasoner.js [sizes...]   (default 10000 50000 200000, then the side-by-side runs)
//        node dist/bench/reasoner.js --konclude  (the side-by-side runs only)
//        node dist/bench/reasoner.js --child SIZE|FILE [check]  (one measurement, printed as JSON)
//        node dist/bench/reasoner.js --transfer [SIZE]  (run_reasoner's path on a window: SIZE classes, default 50000)

import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { readFunctional } from '../src/model/formats/functional/reader.js';
import { cls, objectProperty, objectSomeValuesFrom, subClassOf, type Axiom } from '../src/model/terms.js';
import { classify, ElReasoner, renderTaxonomy, type ElResult } from '../src/reasoner/el-reasoner.js';
import { konclude, type KoncludeConfig } from '../src/reasoner/konclude.js';
import { koncludeConfig } from '../src/reasoner/registry.js';
import { ReasoningSession } from '../src/reasoner/pool.js';
import { renderAxioms } from '../src/reasoner/snapshot.js';
import { encodeAxioms } from '../src/model/transfer.js';
import type { ShipMessage } from './ship-worker.js';
import { Ontology } from '../src/model/ontology.js';
import { Workspace } from '../src/model/workspace.js';
import { generateDlOntology } from './dl-generator.js';
import { generateElOntology, SYN_NS } from './el-generator.js';

const run = promisify(execFile);

interface Measurement {
  classes: number;
  axioms: number;
  ms: number;
  subsumers: number;
  links: number;
  unsatisfiable: number;
  heapMb: number;
  maxRssMb: number;
  incrementalMs: number;
  incrementalEqual: boolean | null;
  removalMs: number;
  removal: string;
  removalEqual: boolean | null;
}

const ELK: Readonly<Record<number, { s: number; gb: number }>> = {
  10000: { s: 1.0, gb: 0.19 },
  50000: { s: 13, gb: 2.1 },
  200000: { s: 153, gb: 6.7 },
};

function measure(sizeOrFile: string, checkIncremental: boolean): Measurement {
  const axioms: Axiom[] = /^\d+$/.test(sizeOrFile)
    ? generateElOntology(Number(sizeOrFile))
    : [...readFunctional(readFileSync(sizeOrFile, 'utf8'), { base: 'http://example.org/' }).axioms()];
  const classes = axioms.filter((a) => a.kind === 'Declaration' && a.entity.kind === 'Class').length;
  const reasoner = new ElReasoner(axioms);
  const t0 = performance.now();
  const result = reasoner.classify();
  const ms = performance.now() - t0;
  const stats = reasoner.statistics();
  const memory = process.memoryUsage();
  const heapMb = (memory.heapUsed + memory.external) / 1048576; // typed arrays live outside the JS heap
  // One new axiom: a finding gets a site (the worst ordinary case: it reaches contexts through chains).
  const added = subClassOf(
    cls(`${SYN_NS}C${Math.floor(classes / 3)}`),
    objectSomeValuesFrom(objectProperty(`${SYN_NS}findingSite`), cls(`${SYN_NS}C${Math.floor(classes * 0.56)}`)),
  );
  const t1 = performance.now();
  reasoner.add([added]);
  const after = reasoner.classify();
  const incrementalMs = performance.now() - t1;
  let incrementalEqual: boolean | null = null;
  if (checkIncremental) incrementalEqual = sameTaxonomy(after, new ElReasoner([...axioms, added]).classify());
  // One removed axiom: a told subsumption in the middle of the findings (what an agent undoing an edit does).
  const told = axioms.filter((a) => a.kind === 'SubClassOf' && a.sub.kind === 'Class' && a.sup.kind === 'Class');
  const removed = told[Math.floor(told.length / 2)];
  if (removed === undefined) throw new Error('the generated ontology has no told subsumption');
  const t2 = performance.now();
  reasoner.remove([removed]);
  const afterRemoval = reasoner.classify();
  const removalMs = performance.now() - t2;
  let removalEqual: boolean | null = null;
  if (checkIncremental)
    removalEqual = sameTaxonomy(afterRemoval, new ElReasoner([...axioms, added].filter((a) => a !== removed)).classify());
  return {
    classes,
    axioms: axioms.length,
    ms,
    subsumers: stats.subsumers,
    links: stats.links,
    unsatisfiable: result.unsatisfiable.length,
    heapMb,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    incrementalMs,
    incrementalEqual,
    removalMs,
    removal: reasoner.lastRemoval,
    removalEqual,
  };
}

function sameTaxonomy(a: ElResult, b: ElResult): boolean {
  // the order of a node's parents carries no meaning (the bottom node's are the leaves, in no set order)
  const lines = (r: typeof a) =>
    r.taxonomy.nodes
      .map(
        (n) =>
          n.members.join(' ') +
          ' < ' +
          n.parents
            .map((p) => p.representative)
            .sort()
            .join(' '),
      )
      .sort()
      .join('\n');
  return lines(a) === lines(b);
}

const REPEATS = 3;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;

async function timed<T>(f: () => T | Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await f();
  return [value, performance.now() - t0];
}

/** Both reasoners on one ontology, REPEATS times each (alternating), with the median of each. */
async function sideBySide(label: string, axioms: Axiom[], config: KoncludeConfig): Promise<void> {
  const el: number[] = [];
  const k: number[] = [];
  let elResult: ElResult | null = null;
  let kResult: ElResult | null = null;
  for (let i = 0; i < REPEATS; i++) {
    let ms: number;
    [elResult, ms] = await timed(() => classify(axioms));
    el.push(ms);
    [kResult, ms] = await timed(() => konclude(axioms, config));
    k.push(ms);
  }
  const lines = (r: ElResult) => renderTaxonomy(r).split('\n').length - 1;
  const [e, kk] = [elResult!, kResult!];
  const classes = axioms.filter((a) => a.kind === 'Declaration' && a.entity.kind === 'Class').length;
  const agreement = e.complete
    ? sameTaxonomy(e, kk)
      ? 'taxonomies equal'
      : 'taxonomies DIFFER'
    : `EL incomplete: ${lines(e)} taxonomy lines, Konclude ${lines(kk)}, ${kk.unsatisfiable.length} unsatisfiable (EL ${e.unsatisfiable.length})`;
  console.log(
    `${label}: ${classes} classes, ${axioms.length} axioms: EL ${median(el).toFixed(0)} ms, Konclude ${median(k).toFixed(0)} ms ` +
      `= ${(median(k) / median(el)).toFixed(1)}× the EL classifier; ${agreement}`,
  );
}

async function koncludeRuns(): Promise<void> {
  const config = koncludeConfig();
  if (config === null) {
    console.log('Konclude beside the EL classifier: Konclude is not installed (apt install konclude), skipped');
    return;
  }
  console.log(
    `Konclude beside the EL classifier (whole runs, median of ${REPEATS}; baseline: the EL classifier on the same ontology in this run)`,
  );
  for (const n of [10000, 50000]) await sideBySide(`generated EL, ${n}`, generateElOntology(n), config);
  for (const scale of [1, 10, 50]) await sideBySide(`pizza-like DL, scale ${scale}`, generateDlOntology(scale), config);
}

/** Milliseconds from the window's model to the axioms rebuilt on a fresh thread, shipped as text or binary. */
async function shipOnce(axioms: readonly Axiom[], form: 'text' | 'binary'): Promise<number> {
  const w = new Worker(new URL('./ship-worker.js', import.meta.url));
  await once(w, 'online');
  const t0 = performance.now();
  const message: ShipMessage = form === 'text' ? { text: renderAxioms(axioms) } : { encoded: encodeAxioms(axioms) };
  w.postMessage(message);
  const [count] = await once(w, 'message');
  const ms = performance.now() - t0;
  await w.terminate();
  if (count !== axioms.length) throw new Error(`${form}: ${count} axioms arrived of ${axioms.length}`);
  return ms;
}

/**
 * What run_reasoner does on a window: the whole classification through the window's reasoning session
 * (snapshot, shipping the model to the reasoner thread, classifying, the answer back), then again after one
 * added axiom (the incremental path).
 */
async function sessionRuns(size: number): Promise<void> {
  const axioms = [...new Set(generateElOntology(size))];
  const text: number[] = [];
  const binary: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    text.push(await shipOnce(axioms, 'text'));
    binary.push(await shipOnce(axioms, 'binary'));
  }
  console.log(
    `shipping ${size} classes (${axioms.length} axioms) to a reasoner thread, median of ${REPEATS}: as text (render + parse) ${median(text).toFixed(0)} ms, ` +
      `binary (encode + decode) ${median(binary).toFixed(0)} ms = ${(median(binary) / median(text)).toFixed(2)}× the text`,
  );
  const o = new Ontology();
  o.addAll(axioms);
  const ws = new Workspace();
  ws.load(o);
  const session = new ReasoningSession(ws);
  const [first, fullMs] = await timed(() => session.classify(600_000));
  if (!first.started || !first.completed) throw new Error('the first classification did not finish');
  const added = subClassOf(
    cls(`${SYN_NS}C${Math.floor(size / 3)}`),
    objectSomeValuesFrom(objectProperty(`${SYN_NS}findingSite`), cls(`${SYN_NS}C${Math.floor(size * 0.56)}`)),
  );
  ws.apply([{ kind: 'AddAxiom', ontology: o, axiom: added }]);
  const [second, incrementalMs] = await timed(() => session.classify(600_000));
  if (!second.started || !second.completed) throw new Error('the incremental classification did not finish');
  const on = (r: typeof first) =>
    r.started && r.completed
      ? `${r.classification.data.load.how}, ${r.classification.data.load.decoded} axioms decoded, ${r.classification.data.elapsedMs} ms on the thread`
      : '';
  console.log(
    `run_reasoner on a window, ${size} classes: ${fullMs.toFixed(0)} ms (${on(first)}); after one added axiom: ${incrementalMs.toFixed(0)} ms (${on(second)})`,
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--transfer') {
    await sessionRuns(Number(args[1] ?? 50000));
    return;
  }
  if (args[0] === '--child') {
    const size = args[1];
    if (size === undefined) throw new Error('usage: reasoner.js --child SIZE [check]');
    process.stdout.write(JSON.stringify(measure(size, args[2] === 'check')));
    return;
  }
  if (args[0] === '--konclude') {
    await koncludeRuns();
    return;
  }
  const self = fileURLToPath(import.meta.url);
  let repo = path.dirname(self);
  while (!existsSync(path.join(repo, 'package.json'))) repo = path.dirname(repo);
  const reference = path.resolve(repo, '../shared/reasoning/synthetic/syn-el-10000.ofn');
  const runs = args.length ? args : [...(existsSync(reference) ? [reference] : []), '10000', '50000', '200000'];
  for (const what of runs) {
    const label = /^\d+$/.test(what) ? `generated, ${what}` : path.basename(what);
    let m: Measurement;
    try {
      const check = /^\d+$/.test(what) && Number(what) > 50000 ? '' : 'check';
      const { stdout } = await run(process.execPath, ['--max-old-space-size=16384', self, '--child', what, check], { maxBuffer: 1 << 20 });
      m = JSON.parse(stdout);
    } catch (err) {
      console.log(`${label}: failed (${(err as Error).message.split('\n')[0]})`);
      continue;
    }
    const elk = ELK[/^\d+$/.test(what) ? Number(what) : 10000];
    console.log(
      `${label}: ${m.classes} classes, ${m.axioms} axioms: ${m.ms.toFixed(0)} ms, ${m.subsumers} subsumers + ${m.links} links ` +
        `(${(m.subsumers / (m.ms / 1000) / 1e6).toFixed(2)}M subsumptions/s), ${m.unsatisfiable} unsatisfiable; ` +
        `heap ${m.heapMb.toFixed(0)} MB, max RSS ${m.maxRssMb.toFixed(0)} MB` +
        (elk ? `; ELK ~${elk.s} s, ${elk.gb} GB` : ''),
    );
    console.log(
      `  incremental after one added axiom: ${m.incrementalMs.toFixed(0)} ms = ${((100 * m.incrementalMs) / m.ms).toFixed(1)}% of the full run` +
        (m.incrementalEqual === null ? '' : m.incrementalEqual ? ' (equal to a full run)' : ' (DIFFERS from a full run)'),
    );
    console.log(
      `  ${m.removal} after one removed axiom: ${m.removalMs.toFixed(0)} ms = ${((100 * m.removalMs) / m.ms).toFixed(1)}% of the full run` +
        (m.removalEqual === null ? '' : m.removalEqual ? ' (equal to a full run)' : ' (DIFFERS from a full run)'),
    );
  }
  await koncludeRuns();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
