// bench/mcp: N concurrent MCP sessions (1, 16, 64, 256) against Athene (`athene serve`: uWS front door and
// window actor) and, in the same run, a minimal reference server (SDK McpServer and its node:http
// Streamable HTTP transport, same tool logic). Two workloads: `read` loops `tools/call get_entity`;
// `write` loops `add_axiom` then `remove_axiom` (each session its own axiom). Each server runs in its own
// process; the load comes from this one. Prints calls/s, p50/p99 latency, and CPU µs per call of the
// server process (all threads) and of the load generator. `athene` runs with the change journal (every
// write fsynced before it is answered); `athene-nojournal` is the same server with it off, the same-run
// baseline of the journal's cost (the `on/off` column).
// Usage: npm run build && node dist/bench/mcp.js [seconds-per-level]
//   BENCH_LEVELS=1,16,64,256  BENCH_WORKLOADS=read,write  BENCH_TARGETS=athene,athene-nojournal,reference
//   ATHENE_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'  (node flags for the Athene process, e.g. to profile it)

import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
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

/** User + system CPU of a process (all its threads), in µs. */
async function processCpu(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}

type Workload = 'read' | 'write';

/** The throughput ratios printed: Athene against the reference server, and the journal on against off. */
const RATIOS: readonly (readonly [string, string, string])[] = [['athene', 'reference', 'vs ref'], ['athene', 'athene-nojournal', 'on/off']];

/** One session's loop body: the calls of one iteration, each checked. */
function iteration(workload: Workload, session: RawSession, index: number): Array<() => Promise<RawReply>> {
  if (workload === 'read') return [() => session.call('get_entity', '{"entity":"person"}')];
  const axiom = `{"axiom_type":"subclass_of","sub":"BenchClass${index}","super":"Work"}`;
  return [() => session.call('add_axiom', axiom), () => session.call('remove_axiom', axiom)];
}

interface Result {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly serverCpu: number;
  readonly loaderCpu: number;
}

async function drive(t: Target, sessions: RawSession[], workload: Workload, ms: number, latencies: number[] | null): Promise<number> {
  let calls = 0;
  const end = performance.now() + ms;
  await Promise.all(sessions.map(async (s, i) => {
    const steps = iteration(workload, s, i);
    while (performance.now() < end) {
      for (const step of steps) {
        const t0 = performance.now();
        checkReply(t, await step());
        latencies?.push(performance.now() - t0);
        calls++;
      }
    }
  }));
  return calls;
}

async function load(t: Server, n: number, workload: Workload, seconds: number): Promise<Result> {
  const sessions = await openSessions(t, n);
  try {
    await drive(t, sessions, workload, 500, null);
    const latencies: number[] = [];
    const [server0, loader0, start] = [await processCpu(t.child.pid!), process.cpuUsage(), performance.now()];
    const calls = await drive(t, sessions, workload, seconds * 1000, latencies);
    const elapsed = (performance.now() - start) / 1000;
    const [server1, loader1] = [await processCpu(t.child.pid!), process.cpuUsage(loader0)];
    const sorted = Float64Array.from(latencies).sort();
    return {
      perSecond: calls / elapsed, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99),
      serverCpu: (server1 - server0) / calls, loaderCpu: (loader1.user + loader1.system) / calls,
    };
  } finally {
    for (const s of sessions) s.close();
  }
}

function row(r: Result): string {
  const f = (x: number, w: number, d = 2) => x.toFixed(d).padStart(w);
  return `${f(r.perSecond, 8, 0)} ${f(r.p50, 6)} ${f(r.p99, 6)} ${f(r.serverCpu, 6, 0)} ${f(r.loaderCpu, 5, 0)}`;
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 3);
  const levels = (process.env.BENCH_LEVELS ?? '1,16,64,256').split(',').map(Number);
  const workloads = (process.env.BENCH_WORKLOADS ?? 'read,write').split(',') as Workload[];
  const wanted = (process.env.BENCH_TARGETS ?? 'athene,athene-nojournal,reference').split(',');
  const homes: string[] = [];
  const servers: Server[] = [];
  const athene = async (name: string, journal: boolean): Promise<Server> => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'athene-bench-mcp-'));
    homes.push(home);
    const args = [...(process.env.ATHENE_NODE_ARGS ?? '').split(' ').filter(Boolean), MAIN, 'serve', DEMO, '--port', '0', '--no-share', '--home', home];
    const { child, url } = await spawnServer(args, /listening on (\S+)/, { ...process.env, ATHENE_JOURNAL_ENABLED: String(journal) });
    const server = { name, url, token: (await readFile(path.join(home, 'token'), 'utf8')).trim(), child };
    servers.push(server);
    return server;
  };
  try {
    const on = await athene('athene', true);
    if (wanted.includes('athene-nojournal')) await athene('athene-nojournal', false);
    if (wanted.includes('reference')) {
      const reference = await spawnServer([REFERENCE, DEMO, on.token], /^(http:\/\/\S+)/m);
      servers.push({ name: 'reference', url: reference.url, token: on.token, child: reference.child });
    }
    const targets = servers.filter((s) => wanted.includes(s.name));
    const ratios = RATIOS.filter(([a, b]) => targets.some((t) => t.name === a) && targets.some((t) => t.name === b));
    console.log(`${seconds} s per level; CPU in µs per call (server: all threads of its process; load: this generator)`);
    console.log(`workload sessions | ${targets.map((t) => `${t.name.padEnd(16)}  calls/s p50 ms p99 ms  cpu  load`).join(' | ')}${ratios.map(([, , label]) => ` | ${label}`).join('')}`);
    for (const workload of workloads) {
      for (const n of levels) {
        const results = new Map<string, Result>();
        for (const t of targets) results.set(t.name, await load(t, n, workload, seconds));
        const ratio = ratios.map(([a, b]) => ` | ${(results.get(a)!.perSecond / results.get(b)!.perSecond).toFixed(2)}x`).join('');
        console.log(`${workload.padEnd(8)} ${String(n).padStart(8)} | ${[...results.values()].map((r) => `${' '.repeat(16)}  ${row(r)}`).join(' | ')}${ratio}`);
      }
    }
  } finally {
    for (const s of servers) s.child.kill('SIGTERM');
    for (const home of homes) await rm(home, { recursive: true, force: true });
  }
}

await main();
