// bench/mcp: N concurrent MCP sessions (1, 16, 64, 256) against Athene (`athene serve`, once with the uWS
// front door and once with node:http, each with its window actor) and, in the same run, a minimal reference server (SDK McpServer and its node:http
// Streamable HTTP transport, same tool logic). Two workloads: `read` loops `tools/call get_entity`;
// `write` loops `add_axiom` then `remove_axiom` (each session its own axiom). Each server runs in its own
// process; the load comes from this one. Prints calls/s, p50/p99 latency, and CPU µs per call of the
// server process (all threads) and of the load generator, and how busy the server's main thread, its busiest
// other thread (the window's) and the rest were (whether one thread or the cores limit). `uws` and `node` run with the change journal
// (every write fsynced before it is answered); `nojournal` is uws with it off, the same-run baseline of the
// journal's cost (the `journal on/off` column).
// Usage: npm run build && node dist/bench/mcp.js [seconds-per-level]
//   BENCH_LEVELS=1,16,64,256  BENCH_WORKLOADS=read,write  BENCH_TARGETS=uws,node,nojournal,reference
//   (each Athene transport's ratio is against the reference server of the same run)
//   ATHENE_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'  (node flags for the Athene process, e.g. to profile it)
//   BENCH_BASELINE=/other/checkout/dist/src/cli/main.js  (adds `baseline`: that build on uws with the journal, and a
//   uws/baseline column: a change measured before and after in the same run)
//   BENCH_ROUNDS=3  (each level runs every target this many times, `seconds` each, the order reversed every other
//   round, and pools the rounds: a machine whose speed drifts, or a neighbour's load, then weighs on every target
//   alike instead of on whichever ran during it; default 1)

import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RawSession, checkReply, openSessions, percentile, spawnServer, type RawReply, type Target } from './mcp-load.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const MAIN = path.resolve(here, '../src/cli/main.js');
const REFERENCE = path.resolve(here, 'mcp-reference.js');
const DEMO = path.resolve(here, '../../examples/demo.ttl');
const TICK_US = 1e6 / 100; // /proc/<pid>/stat counts CPU in USER_HZ ticks (100 on Linux)

interface Server extends Target {
  readonly child: ChildProcess;
}

/** User + system CPU in a /proc stat file (a process's, all its threads; or one thread's), in µs. */
async function statCpu(file: string): Promise<number> {
  const stat = await readFile(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}

function processCpu(pid: number): Promise<number> {
  return statCpu(`/proc/${pid}/stat`);
}

/** CPU of each thread of a process, in µs, by thread id (a thread that ended in between is left out). */
async function threadCpu(pid: number): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const tid of await readdir(`/proc/${pid}/task`)) {
    const cpu = await statCpu(`/proc/${pid}/task/${tid}/stat`).catch(() => null);
    if (cpu !== null) out.set(tid, cpu);
  }
  return out;
}

/**
 * How busy the server's threads were, in % of one core: its main thread (HTTP), its busiest other thread (the
 * window's, under a write or read loop) and the rest (GC helpers, thread pool). A thread near 100% is the limit;
 * otherwise the cores are.
 */
function threadShares(pid: number, before: Map<string, number>, after: Map<string, number>, ms: number): Shares {
  const busy = (tid: string) => ((after.get(tid) ?? 0) - (before.get(tid) ?? 0)) / (ms * 10);
  const others = [...after.keys()].filter((tid) => tid !== String(pid)).map(busy);
  const top = Math.max(0, ...others);
  const rest = others.reduce((a, b) => a + b, 0) - top;
  return [busy(String(pid)), top, rest];
}

/** Busy % of one core: the server's main thread, its busiest other thread, the rest. */
type Shares = readonly [number, number, number];

type Workload = 'read' | 'write';

/** One session's loop body: the calls of one iteration, each checked. */
function iteration(workload: Workload, session: RawSession, index: number): Array<() => Promise<RawReply>> {
  if (workload === 'read') return [() => session.call('get_entity', '{"entity":"person"}')];
  const axiom = `{"axiom_type":"subclass_of","sub":"BenchClass${index}","super":"Work"}`;
  return [() => session.call('add_axiom', axiom), () => session.call('remove_axiom', axiom)];
}

/** One timed load of one target: what the rounds of a level pool. */
interface Sample {
  readonly calls: number;
  readonly seconds: number;
  readonly latencies: readonly number[];
  /** CPU µs over the whole load: the server process's, the load generator's. */
  readonly serverCpu: number;
  readonly loaderCpu: number;
  readonly threads: Shares;
}

interface Result {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly serverCpu: number;
  readonly loaderCpu: number;
  readonly threads: Shares;
}

/** A target's rounds as one load: calls over their summed time, percentiles of every latency, shares weighted by time. */
function pooled(samples: readonly Sample[]): Result {
  const sum = (f: (s: Sample) => number) => samples.reduce((a, s) => a + f(s), 0);
  const calls = sum((s) => s.calls);
  const seconds = sum((s) => s.seconds);
  const sorted = Float64Array.from(samples.flatMap((s) => s.latencies)).sort();
  const share = (i: 0 | 1 | 2) => sum((s) => s.threads[i] * s.seconds) / seconds;
  return {
    perSecond: calls / seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    serverCpu: sum((s) => s.serverCpu) / calls,
    loaderCpu: sum((s) => s.loaderCpu) / calls,
    threads: [share(0), share(1), share(2)],
  };
}

async function drive(t: Target, sessions: RawSession[], workload: Workload, ms: number, latencies: number[] | null): Promise<number> {
  let calls = 0;
  const end = performance.now() + ms;
  await Promise.all(
    sessions.map(async (s, i) => {
      const steps = iteration(workload, s, i);
      while (performance.now() < end) {
        for (const step of steps) {
          const t0 = performance.now();
          checkReply(t, await step());
          latencies?.push(performance.now() - t0);
          calls++;
        }
      }
    }),
  );
  return calls;
}

/**
 * The servers (by target and workload) that ran a load already. A fresh one's JIT compiles for seconds
 * (TurboFan jobs on its platform threads were a third of the server's `rest` CPU 4-10 s after start, next to
 * none 14 s after), which would count against whichever target ran fewer calls in that time: a first load
 * of a workload warms it up for longer.
 */
const warmed = new Set<string>();

async function load(t: Server, n: number, workload: Workload, seconds: number): Promise<Sample> {
  const sessions = await openSessions(t, n);
  try {
    const key = `${t.name} ${workload}`;
    await drive(t, sessions, workload, warmed.has(key) ? 500 : 5000, null);
    warmed.add(key);
    const latencies: number[] = [];
    const pid = t.child.pid!;
    const [server0, threads0, loader0, start] = [await processCpu(pid), await threadCpu(pid), process.cpuUsage(), performance.now()];
    const calls = await drive(t, sessions, workload, seconds * 1000, latencies);
    const elapsed = (performance.now() - start) / 1000;
    const [server1, threads1, loader1] = [await processCpu(pid), await threadCpu(pid), process.cpuUsage(loader0)];
    return {
      calls,
      seconds: elapsed,
      latencies,
      serverCpu: server1 - server0,
      loaderCpu: loader1.user + loader1.system,
      threads: threadShares(pid, threads0, threads1, elapsed * 1000),
    };
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
  }
}

function row(r: Result): string {
  const f = (x: number, w: number, d = 2) => x.toFixed(d).padStart(w);
  const threads = r.threads.map((x) => x.toFixed(0).padStart(3)).join('/');
  return `${f(r.perSecond, 8, 0)} ${f(r.p50, 6)} ${f(r.p99, 6)} ${f(r.serverCpu, 6, 0)} ${f(r.loaderCpu, 5, 0)} ${threads}`;
}

/** The Athene targets: a build, a transport, and whether the change journal is on (`nojournal`: uws with it off). */
const BASELINE = process.env.BENCH_BASELINE;
const ATHENE_TARGETS: Readonly<Record<string, { main: string; transport: string; journal: boolean }>> = {
  uws: { main: MAIN, transport: 'uws', journal: true },
  node: { main: MAIN, transport: 'node', journal: true },
  nojournal: { main: MAIN, transport: 'uws', journal: false },
  ...(BASELINE === undefined ? {} : { baseline: { main: path.resolve(BASELINE), transport: 'uws', journal: true } }),
};

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 3);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`BENCH_ROUNDS must be a positive integer, not ${process.env.BENCH_ROUNDS}`);
  const levels = (process.env.BENCH_LEVELS ?? '1,16,64,256').split(',').map(Number);
  const workloads = (process.env.BENCH_WORKLOADS ?? 'read,write').split(',') as Workload[];
  const wanted = [
    ...(process.env.BENCH_TARGETS ?? 'uws,node,nojournal,reference').split(','),
    ...(BASELINE === undefined ? [] : ['baseline']),
  ];
  const homes: string[] = [];
  const servers: Server[] = [];
  try {
    const nodeArgs = (process.env.ATHENE_NODE_ARGS ?? '').split(' ').filter(Boolean);
    // run in the order BENCH_TARGETS names them: the first target of a level meets a colder load generator
    for (const name of new Set(wanted)) {
      const target = ATHENE_TARGETS[name];
      if (target === undefined) continue;
      const { main, transport, journal } = target;
      // each server its own home: journals of one document in one home would be shared
      const home = await mkdtemp(path.join(os.tmpdir(), 'athene-bench-mcp-'));
      homes.push(home);
      const athene = await spawnServer(
        [...nodeArgs, main, 'serve', DEMO, '--port', '0', '--no-share', '--home', home, '--http-server', transport],
        /listening on (\S+)/,
        { ...process.env, ATHENE_JOURNAL_ENABLED: String(journal) },
      );
      const token = (await readFile(path.join(home, 'token'), 'utf8')).trim();
      servers.push({ name, url: athene.url, token, child: athene.child });
    }
    if (wanted.includes('reference')) {
      const token = servers[0]?.token ?? 'bench-token';
      const reference = await spawnServer([REFERENCE, DEMO, token], /^(http:\/\/\S+)/m);
      servers.push({ name: 'reference', url: reference.url, token, child: reference.child });
    }
    const targets = servers;
    const reference = targets.findIndex((t) => t.name === 'reference');
    const compared = targets.filter((t) => t.name !== 'reference');
    const has = (name: string) => targets.some((t) => t.name === name);
    const onOff = has('uws') && has('nojournal');
    const beforeAfter = has('uws') && has('baseline');
    console.log(
      `${seconds} s per level${rounds > 1 ? ` and round, ${rounds} rounds pooled` : ''}; CPU in µs per call (server: all threads of its process; load: this generator); main/win/rest: busy % of one core of the server's main thread, its busiest other thread (the window's) and the rest`,
    );
    console.log(
      `workload sessions | ${targets.map((t) => `${t.name.padEnd(9)}  calls/s p50 ms p99 ms  cpu  load main/win/rest %`).join(' | ')}${reference >= 0 ? compared.map((t) => ` | ${t.name}/ref`).join('') : ''}${onOff ? ' | journal on/off' : ''}${beforeAfter ? ' | uws/baseline' : ''}`,
    );
    for (const workload of workloads) {
      for (const n of levels) {
        const samples: Sample[][] = targets.map(() => []);
        for (let round = 0; round < rounds; round++) {
          const order = targets.map((_, i) => i);
          if (round % 2 === 1) order.reverse();
          for (const i of order) samples[i]!.push(await load(targets[i]!, n, workload, seconds));
        }
        const results = samples.map(pooled);
        const base = results[reference];
        const ratios =
          base === undefined
            ? ''
            : results
                .filter((_, i) => i !== reference)
                .map((r) => ` | ${(r.perSecond / base.perSecond).toFixed(2).padStart(7)}x`)
                .join('');
        const by = (name: string) => results[targets.findIndex((t) => t.name === name)]?.perSecond ?? NaN;
        const ratio = (a: string, b: string) => ` | ${(by(a) / by(b)).toFixed(2).padStart(7)}x`;
        const journal = onOff ? ratio('uws', 'nojournal') : '';
        const change = beforeAfter ? ratio('uws', 'baseline') : '';
        console.log(
          `${workload.padEnd(8)} ${String(n).padStart(8)} | ${results.map((r) => `${' '.repeat(9)}  ${row(r)}`).join(' | ')}${ratios}${journal}${change}`,
        );
      }
    }
  } finally {
    for (const s of servers) s.child.kill('SIGTERM');
    for (const home of homes) await rm(home, { recursive: true, force: true });
  }
}

await main();
