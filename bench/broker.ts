// bench/broker: the cost of the shared broker. Two athene processes on one private directory and port:
// the broker (its own window reached in-process) and a registered process (its window reached over
// loopback HTTP with the window's broker secret). Same run, same load generator (bench/mcp-load):
// calls/s and p50/p99 of `get_entity` through the broker to each window, at several session counts.
// Then the memory of idle windows (RSS of a registered process with 1 window vs 1 + N windows), and a
// process with 128 windows registered (the per-process limit): its start time, RSS, and one call to its
// last window.
// Usage: npm run build && node dist/bench/broker.js [seconds-per-level]
//   BENCH_LEVELS=1,16,64  BENCH_IDLE_WINDOWS=16  BENCH_WIDE=128 (0 skips the 128-window process)

import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RawSession, checkReply, openSessions, percentile, spawnServer, type Target } from './mcp-load.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const MAIN = path.resolve(here, '../src/cli/main.js');
const DEMO = path.resolve(here, '../../examples/demo.ttl');

interface Proc {
  readonly child: ChildProcess;
  readonly startMs: number;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Spawns `athene serve FILES…` and resolves once it prints its URL. */
async function serve(home: string, port: number, files: string[], extra: string[] = []): Promise<Proc> {
  const t0 = performance.now();
  const { child } = await spawnServer([MAIN, 'serve', ...files, '--home', home, '--port', String(port), ...extra], /listening on (\S+)/);
  return { child, startMs: performance.now() - t0 };
}

async function stop(p: Proc): Promise<void> {
  if (p.child.exitCode !== null) return;
  const exited = new Promise((resolve) => p.child.once('exit', resolve));
  p.child.kill('SIGTERM');
  await exited;
}

/** Resident set size of a process (all threads), in MiB. */
async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

interface Instance {
  readonly id: string;
  readonly pid: number;
  readonly url: string;
}

async function instances(base: string, token: string): Promise<Instance[]> {
  const res = await fetch(`${base}/instances`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { instances: Instance[] }).instances;
}

interface Result {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
}

async function drive(t: Target, sessions: RawSession[], ms: number, latencies: number[] | null): Promise<number> {
  let calls = 0;
  const end = performance.now() + ms;
  await Promise.all(
    sessions.map(async (s) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        checkReply(t, await s.call('get_entity', '{"entity":"person"}'));
        latencies?.push(performance.now() - t0);
        calls++;
      }
    }),
  );
  return calls;
}

async function load(t: Target, n: number, seconds: number): Promise<Result> {
  const sessions = await openSessions(t, n);
  try {
    await drive(t, sessions, 500, null);
    const latencies: number[] = [];
    const start = performance.now();
    const calls = await drive(t, sessions, seconds * 1000, latencies);
    const sorted = Float64Array.from(latencies).sort();
    return { perSecond: calls / ((performance.now() - start) / 1000), p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
  }
}

const f = (x: number, w: number, d = 2) => x.toFixed(d).padStart(w);

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 3);
  const levels = (process.env.BENCH_LEVELS ?? '1,16,64').split(',').map(Number);
  const idle = Number(process.env.BENCH_IDLE_WINDOWS ?? 16);
  const wide = Number(process.env.BENCH_WIDE ?? 128);
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-bench-broker-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const procs: Proc[] = [];
  try {
    const broker = await serve(home, port, [DEMO], ['--linger', '0']);
    procs.push(broker);
    const remote = await serve(home, port, [DEMO]);
    procs.push(remote);
    const token = (await readFile(path.join(home, 'token'), 'utf8')).trim();
    const listed = await instances(base, token);
    const own = listed.find((i) => i.pid === broker.child.pid)!;
    const other = listed.find((i) => i.pid === remote.child.pid)!;
    const inProcess: Target = { name: 'in-process', url: base + own.url, token };
    const otherProcess: Target = { name: 'other process', url: base + other.url, token };
    console.log(`${seconds} s per level; get_entity through the broker's endpoint`);
    console.log("sessions | in-process window: calls/s p50 ms p99 ms | other process's window: calls/s p50 ms p99 ms | throughput ratio");
    for (const n of levels) {
      const [a, b] = [await load(inProcess, n, seconds), await load(otherProcess, n, seconds)];
      console.log(
        `${String(n).padStart(8)} | ${f(a.perSecond, 18, 0)} ${f(a.p50, 6)} ${f(a.p99, 6)} | ${f(b.perSecond, 23, 0)} ${f(b.p50, 6)} ${f(b.p99, 6)} | ${(b.perSecond / a.perSecond).toFixed(2)}x`,
      );
    }

    const one = await serve(home, port, [DEMO]);
    procs.push(one);
    const many = await serve(
      home,
      port,
      Array.from({ length: idle + 1 }, () => DEMO),
    );
    procs.push(many);
    await new Promise((r) => setTimeout(r, 1000));
    const [rssOne, rssMany] = [await rssMiB(one.child.pid!), await rssMiB(many.child.pid!)];
    console.log(
      `idle windows: RSS ${rssOne.toFixed(0)} MiB with 1 window, ${rssMany.toFixed(0)} MiB with ${idle + 1}: ${((rssMany - rssOne) / idle).toFixed(1)} MiB per additional window`,
    );
    for (const p of [one, many]) await stop(p);
    procs.splice(procs.indexOf(one), 2);

    if (wide > 0) {
      const w = await serve(
        home,
        port,
        Array.from({ length: wide }, () => DEMO),
      );
      procs.push(w);
      const windows = (await instances(base, token)).filter((i) => i.pid === w.child.pid);
      const newest = windows.at(-1);
      if (newest === undefined) throw new Error('the wide process lists no window');
      const last = await RawSession.open({ name: 'last window', url: base + newest.url, token });
      const reply = await last.call('get_entity', '{"entity":"person"}');
      await last.close();
      console.log(
        `${wide} windows in one process: started and registered in ${(w.startMs / 1000).toFixed(1)} s, ${windows.length} listed, RSS ${(await rssMiB(w.child.pid!)).toFixed(0)} MiB, a call to the last one: ${reply.status}`,
      );
    }
  } finally {
    for (const p of procs.reverse()) await stop(p);
    await rm(home, { recursive: true, force: true });
  }
}

await main();
