// The default `auto` reasoner on a small pizza-like DL ontology through a real server: outside the EL
// profile it answers with Konclude (a real subprocess) and says so; Margherita is recognised as a
// vegetarian, cheesy pizza, which the EL classifier alone cannot find. Cancelled, timed-out and orphaned runs
// leave no Konclude process behind.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cls, subClassOf } from '../../src/model/terms.js';
import { encodeAxioms } from '../../src/model/transfer.js';
import type { PoolTask } from '../../src/reasoner/pool-worker.js';
import { koncludeConfig } from '../../src/reasoner/registry.js';
import { TaskPool } from '../../src/util/task-pool.js';
import { call, callOk, fixture, serveTempOntology, type Row, type ServedTempOntology } from './support.js';
import { at } from '../support/at.js';

const P = 'http://example.org/pizza#';
const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/cli/main.js');
const REASONER_WORKER = new URL('../../src/reasoner/pool-worker.js', import.meta.url);
let s: ServedTempOntology;

before(async () => {
  s = await serveTempOntology('athene-konclude-', 'mini-pizza.ofn', readFileSync(fixture('mini-pizza.ofn'), 'utf8'));
});
after(() => s.close());

const iris = (list: unknown) => ((list as Row).items as Row[]).map((r) => r.iri as string).sort();

test('auto classifies a DL ontology with Konclude, completely, and names it', async () => {
  const run = await callOk(s.c, 'run_reasoner');
  assert.equal(run.completed, true);
  assert.match(run.reasoner as string, /^Konclude /);
  assert.equal(run.selected_reasoner, 'Athene Automatic Reasoner 0.1.0');
  assert.equal(run.complete, true);
  const unsat = await callOk(s.c, 'get_unsatisfiable_classes');
  assert.deepEqual(iris(unsat), [P + 'Probe']);
  const sup = await callOk(s.c, 'get_inferred_superclasses', { entity: P + 'Margherita', direct: false });
  assert.deepEqual(
    iris(sup).filter((i) => i.startsWith(P)),
    [P + 'CheeseyPizza', P + 'Pizza', P + 'VegetarianPizza'],
  );
  const again = await callOk(s.c, 'run_reasoner');
  assert.equal(again.cached, true, 'nothing changed: no re-run');
});

test('execute_dl_query answers a DL expression with Konclude', async () => {
  const r = await callOk(s.c, 'execute_dl_query', { query: `<${P}Pizza> and <${P}hasTopping> some <${P}CheeseTopping>` });
  assert.deepEqual(iris(r.equivalent), [P + 'CheeseyPizza']);
  assert.deepEqual(iris(r.subclasses), [P + 'Margherita']);
  assert.match(r.reasoner as string, /^Konclude /);
});

test('with el selected the same ontology is answered incompletely', async () => {
  await callOk(s.c, 'set_reasoner', { reasoner: 'el' });
  const run = await callOk(s.c, 'run_reasoner');
  assert.equal(run.complete, false);
  const sup = await callOk(s.c, 'get_inferred_superclasses', { entity: P + 'Margherita', direct: false });
  assert.ok(!iris(sup).includes(P + 'VegetarianPizza'));
});

const CHAIN_NS = 'http://example.org/chain#';

/** A subclass chain C0 ⊑ C1 ⊑ … ⊑ Cn: Konclude's time grows about quadratically with n (5,000 take it ~15 s). */
function chain(n: number): string {
  const lines = [`Prefix(:=<${CHAIN_NS}>)`, 'Ontology(<http://example.org/chain>'];
  for (let i = 0; i < n; i++) lines.push(`SubClassOf(:C${i} :C${i + 1})`);
  return lines.join('\n') + '\n)\n';
}

interface KoncludeRun {
  readonly pid: number;
  /** The run's private directory (where its request file is). */
  readonly dir: string;
  /** Lines of the ontology it was given (gone once the directory is removed). */
  readonly lines: number;
}

/** The Konclude processes descended from this test process (the server's threads spawn them). */
function koncludeRuns(): KoncludeRun[] {
  const parent = new Map<number, number>();
  const konclude: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    const close = stat.lastIndexOf(')');
    parent.set(Number(entry), Number(stat.slice(close + 2).split(' ')[1]));
    if (stat.slice(stat.indexOf('(') + 1, close) === 'Konclude') konclude.push(Number(entry));
  }
  const ours = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  const runs: KoncludeRun[] = [];
  for (const pid of konclude.filter(ours)) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const dir = path.dirname(at(args, args.indexOf('-i') + 1, 'the -i argument'));
      runs.push({ pid, dir, lines: readFileSync(path.join(dir, 'ontology.ofn'), 'utf8').split('\n').length });
    } catch {
      continue; // the run ended meanwhile
    }
  }
  return runs;
}

async function until<T>(what: string, limitMs: number, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`not within ${limitMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('a cancelled explanation kills its Konclude process at once and removes its files; the next call works', async () => {
  const n = 6000;
  const served = await serveTempOntology('athene-konclude-chain-', 'chain.ofn', chain(n));
  try {
    await callOk(served.c, 'set_reasoner', { reasoner: 'konclude' });
    const controller = new AbortController();
    const args = { axiom_type: 'subclass_of', sub: `${CHAIN_NS}C0`, super: `${CHAIN_NS}C${n}`, max: 1, timeout_ms: 3_600_000 };
    const pending = served.c.callTool({ name: 'get_explanations', arguments: args }, undefined, {
      signal: controller.signal,
      timeout: 3_600_000,
    });
    pending.catch(() => {});
    // the expansion doubles its prefix of the chain: wait for a run on 4,096 or more axioms (≥10 s on its own)
    const long = await until('a Konclude run on a long prefix of the chain', 600_000, () => koncludeRuns().find((r) => r.lines > 4096));
    controller.abort('the user changed their mind');
    await assert.rejects(pending);
    await until('the cancelled Konclude process is gone', 3_000, () => (existsSync(`/proc/${long.pid}`) ? undefined : true));
    await until('its private directory is removed', 3_000, () => (existsSync(long.dir) ? undefined : true));

    // the explanation thread is free again: a short explanation on the same chain is answered
    const next = await served.c.callTool({ name: 'get_explanations', arguments: { ...args, super: `${CHAIN_NS}C2` } }, undefined, {
      timeout: 600_000,
    });
    const body = next.structuredContent as Row;
    assert.equal(next.isError, false, JSON.stringify(body));
    assert.equal(body.entailed, true);
    assert.equal(body.justification_count, 1);
    assert.deepEqual(koncludeRuns(), [], 'no Konclude process is left behind');
  } finally {
    await served.close();
  }
});

test('a cancelled materialization preview kills its Konclude process and frees the preview reasoner', async () => {
  const n = 6000;
  const served = await serveTempOntology('athene-konclude-chain-', 'chain.ofn', chain(n));
  try {
    await callOk(served.c, 'set_reasoner', { reasoner: 'konclude' });
    const args = {
      categories: ['subclass_axioms'],
      destination: { kind: 'new_ontology', identifier: 'http://example.org/chain-inferred' },
      provenance: { generator: 'konclude test', purpose: 'cancellation' },
      limits: { max_axioms_per_category: 100, max_axioms_total: 100, max_bytes: 100_000, timeout_ms: 3_600_000 },
    };
    const controller = new AbortController();
    const pending = served.c.callTool({ name: 'materialize_inferences', arguments: args }, undefined, {
      signal: controller.signal,
      timeout: 3_600_000,
    });
    pending.catch(() => {});
    // the whole chain in one run: far longer than the 3 s allowed below
    const run = await until('Konclude classifying the chain', 600_000, () => koncludeRuns().find((r) => r.lines > n));
    controller.abort('the user changed their mind');
    await assert.rejects(pending);
    await until('the cancelled Konclude process is gone', 3_000, () => (existsSync(`/proc/${run.pid}`) ? undefined : true));
    await until('its private directory is removed', 3_000, () => (existsSync(run.dir) ? undefined : true));

    // the preview reasoner is freed once its thread has exited (busy until then, as TOOLS.md allows): the next
    // preview (EL this time) gets it within seconds, not after the Konclude run would have finished
    await callOk(served.c, 'set_reasoner', { reasoner: 'el' });
    const next = await until('the next preview gets the preview reasoner', 10_000, async () => {
      const out = await call(served.c, 'materialize_inferences', { ...args, limits: { ...args.limits, timeout_ms: 60_000 } });
      return out.body.error_code === 'materialization_busy' ? undefined : out;
    });
    assert.equal(next.isError, false, JSON.stringify(next.body));
    assert.equal(next.body.preview_only, true);
    assert.deepEqual(koncludeRuns(), [], 'no Konclude process is left behind');
  } finally {
    await served.close();
  }
});

/** The CPU seconds a process has used (utime + stime of /proc/PID/stat, in the usual 100 ticks a second). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Waits until Konclude is classifying: then it writes nothing to its output for a long while (half a minute on
 * the chain), so a process that merely dies of a broken output pipe (SIGPIPE) is not mistaken for one killed.
 */
const classifying = (pid: number) =>
  until('Konclude in its classification phase', 600_000, () => (cpuSeconds(pid) >= 5 ? true : undefined));

/** Whether `pid` has exited (a zombie, exited but not yet reaped, counts as gone). */
function gone(pid: number): true | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z') ? true : undefined;
  } catch {
    return true;
  }
}

test('a window closed while Konclude classifies takes the Konclude process with it', async () => {
  const n = 12_000; // Konclude's classification of it is silent for minutes
  const served = await serveTempOntology('athene-konclude-chain-', 'chain.ofn', chain(n));
  let closed = false;
  try {
    await callOk(served.c, 'set_reasoner', { reasoner: 'konclude' });
    const pending = served.c.callTool({ name: 'run_reasoner', arguments: { timeout_ms: 3_600_000 } }, undefined, { timeout: 3_600_000 });
    pending.catch(() => {});
    const run = await until('Konclude classifying the chain', 600_000, () => koncludeRuns().find((r) => r.lines > n));
    await classifying(run.pid);
    // the server shuts down: the window's reasoner thread is terminated while its Konclude process runs
    await served.close();
    closed = true;
    await until('the Konclude process of the closed window is gone', 10_000, () => gone(run.pid));
    assert.deepEqual(koncludeRuns(), [], 'no Konclude process is left behind');
  } finally {
    if (!closed) await served.close();
  }
});

test('a reasoner thread terminated while Konclude classifies takes the Konclude process with it', async () => {
  const n = 12_000; // Konclude's classification of it is silent for minutes
  const config = koncludeConfig();
  assert.ok(config !== null, 'Konclude is installed');
  const axioms = Array.from({ length: n }, (_, i) => subClassOf(cls(`${CHAIN_NS}C${i}`), cls(`${CHAIN_NS}C${i + 1}`)));
  // no grace period: a stopped task's thread is terminated at once, before it can kill its child itself
  const pool = new TaskPool<PoolTask, unknown>({ worker: REASONER_WORKER, idleMs: 60_000, graceMs: 0 });
  try {
    const controller = new AbortController();
    const pending = pool.run(
      (cancel): PoolTask => ({
        type: 'classify',
        key: 'chain@1',
        model: { kind: 'full', axioms: encodeAxioms(axioms) },
        reasoner: 'konclude',
        timeLimitMs: 3_600_000,
        cancel,
        konclude: config,
      }),
      { signal: controller.signal },
    );
    const run = await until('Konclude classifying the chain on a reasoner thread', 600_000, () => koncludeRuns().find((r) => r.lines > n));
    await classifying(run.pid);
    controller.abort();
    assert.equal((await pending).kind, 'cancelled');
    await until('the Konclude process of the terminated thread is gone', 10_000, () => gone(run.pid));
    await until('its private directory is removed', 10_000, () => (existsSync(run.dir) ? undefined : true));
  } finally {
    await pool.close();
  }
});

test('the command line killed while Konclude classifies takes the Konclude process with it', async () => {
  const n = 12_000; // Konclude's classification of it is silent for minutes
  const dir = mkdtempSync(path.join(os.tmpdir(), 'athene-konclude-cli-'));
  try {
    const file = path.join(dir, 'chain.ofn');
    writeFileSync(file, chain(n));
    const cli = spawn(process.execPath, [MAIN, 'classify', file, '--reasoner', 'konclude'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => cli.once('exit', resolve));
    try {
      const run = await until('Konclude classifying the chain for the command line', 600_000, () =>
        koncludeRuns().find((r) => r.lines > n),
      );
      await classifying(run.pid);
      // no chance to clean up: the process is gone at once, its Konclude run is orphaned
      cli.kill('SIGKILL');
      await exited;
      await until('the Konclude process of the killed command is gone', 10_000, () => gone(run.pid));
      await until('its private directory is removed', 10_000, () => (existsSync(run.dir) ? undefined : true));
    } finally {
      cli.kill('SIGKILL');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
