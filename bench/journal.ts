// bench/journal: what the change journal costs a window per committed change, against the same window with
// it off in the same run. N concurrent callers (as MCP sessions would) loop add_axiom then remove_axiom
// through the real gate on a copy of examples/demo.ttl; with the journal on, each call waits until its
// entry is fsynced, as the window worker does. Prints commits/s and the CPU of this process (all threads,
// so the fsyncs' thread-pool time counts) per commit, and the on/off ratios.
// Usage: npm run build && node dist/bench/journal.js [seconds-per-level]   BENCH_LEVELS=1,16,64  BENCH_JOURNAL=on|off

import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileChangeStore } from '../src/journal/file-store.js';
import { ChangeRecorder, type CallRecord } from '../src/journal/recorder.js';
import { loadOntologyFile } from '../src/model/io.js';
import type { ToolContext } from '../src/tools/core/tool.js';
import { runInContext, toolContext } from '../test/support/tool-context.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const DEMO = path.resolve(here, '../../examples/demo.ttl');
const seconds = Number(process.argv[2] ?? 3);
const levels = (process.env.BENCH_LEVELS ?? '1,16,64').split(',').map(Number);
/** BENCH_JOURNAL=on (or off) runs one side alone, e.g. to profile it. */
const sides = process.env.BENCH_JOURNAL === 'on' ? [true] : process.env.BENCH_JOURNAL === 'off' ? [false] : [true, false];

interface Window {
  readonly ctx: ToolContext;
  readonly recorder: ChangeRecorder | null;
  readonly close: () => Promise<void>;
}

async function openWindow(dir: string, journal: boolean): Promise<Window> {
  const file = path.join(dir, 'demo.ttl');
  await copyFile(DEMO, file);
  const ctx = toolContext([await loadOntologyFile(file)]);
  if (!journal) return { ctx, recorder: null, close: async () => undefined };
  const store = new FileChangeStore(path.join(dir, 'home'), { maxAgeDays: 90, maxBytes: 1 << 30 });
  const recorder = new ChangeRecorder(ctx.workspace, store);
  await recorder.open();
  ctx.workspace.beforeCommit = () => recorder.prepare();
  return { ctx, recorder, close: () => store.close() };
}

/** One call as the window worker makes it: attributed to its caller, answered once its entry is durable. */
async function call(w: Window, tool: string, args: Record<string, unknown>, sessionId: string): Promise<void> {
  let ctx = w.ctx;
  let record: CallRecord | null = null;
  if (w.recorder !== null) {
    const recorder = w.recorder;
    const r: CallRecord = { principal: ctx.principal, sessionId, tool, client: { name: 'bench', version: '1' } };
    record = r;
    ctx = { ...ctx, changes: recorder, attribute: (handler) => recorder.attribute(r, handler) };
  }
  const out = await runInContext(tool, args, ctx);
  if (out.isError) throw new Error(`${tool} failed: ${JSON.stringify(out.body)}`);
  if (record?.durable !== undefined) await record.durable;
}

const TICK_US = 1e6 / 100; // /proc counts CPU in USER_HZ ticks (100 on Linux)

/** User + system CPU of the main thread, in µs. */
function mainThreadCpu(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}

interface Result {
  readonly perSecond: number;
  readonly cpuPerCommit: number;
  /** This thread alone, without the fsyncs' thread pool. */
  readonly mainPerCommit: number;
}

async function drive(w: Window, n: number, ms: number): Promise<Result> {
  let commits = 0;
  const cpu0 = process.cpuUsage();
  const thread0 = mainThreadCpu();
  const start = performance.now();
  const end = start + ms;
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const args = { axiom_type: 'subclass_of', sub: `BenchClass${i}`, super: 'Work' };
      while (performance.now() < end) {
        await call(w, 'add_axiom', args, `s${i}`);
        await call(w, 'remove_axiom', args, `s${i}`);
        commits += 2;
      }
    }),
  );
  const elapsed = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  return {
    perSecond: commits / (elapsed / 1000),
    cpuPerCommit: (cpu.user + cpu.system) / commits,
    mainPerCommit: (mainThreadCpu() - thread0) / commits,
  };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-bench-journal-'));
  try {
    console.log(
      `${seconds} s per level; µs per commit: cpu = this process (all threads), main = its main thread; load average ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    console.log('callers | on commits/s  cpu main | off commits/s  cpu main | on/off throughput  cpu  main');
    for (const n of levels) {
      const runs: Result[] = [];
      for (const journal of sides) {
        const sub = await mkdtemp(path.join(dir, journal ? 'on-' : 'off-'));
        const w = await openWindow(sub, journal);
        await drive(w, n, 300);
        runs.push(await drive(w, n, seconds * 1000));
        await w.close();
      }
      const f = (r: Result | undefined, width: number) =>
        r === undefined
          ? ' '.repeat(width + 10)
          : `${r.perSecond.toFixed(0).padStart(width)} ${r.cpuPerCommit.toFixed(0).padStart(4)} ${r.mainPerCommit.toFixed(0).padStart(4)}`;
      const on = sides.includes(true) ? runs[0] : undefined;
      const off = sides.includes(false) ? runs.at(-1) : undefined;
      const ratio = (a: number, b: number, width: number) => (a / b).toFixed(2).padStart(width) + 'x';
      const ratios =
        on === undefined || off === undefined
          ? ''
          : ` | ${ratio(on.perSecond, off.perSecond, 16)} ${ratio(on.cpuPerCommit, off.cpuPerCommit, 4)} ${ratio(on.mainPerCommit, off.mainPerCommit, 5)}`;
      console.log(`${String(n).padStart(7)} | ${f(on, 12)} | ${f(off, 13)}${ratios}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
