// bench/startup: what a cold start costs. Each sample is a fresh process (as each `athene` command, each
// test process and each restart pays it): `startServer` with one small document until it is ready, one more
// window opened in that process, the first tool call a new session makes on it, and two CLI commands
// (`athene --version`, `athene convert` of the same document to functional syntax). Prints the median wall
// time and the process's CPU time (every thread, from its start) per measure.
// Usage: npm run build && node dist/bench/startup.js
//   BENCH_RUNS=7  (samples per measure and build)
//   BENCH_BASELINE=/other/checkout  (a built checkout, or its dist/: measured in the same run, samples
//   interleaved with this build's, and a this/baseline ratio column)

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import readline from 'node:readline';
import { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const CHILD = path.join(here, 'startup-child.js');
const DEMO = path.resolve(here, '../../examples/demo.ttl');
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

/** A build's dist/ directory, from a checkout or the dist/ itself. */
function distOf(dir: string): string {
  const dist = existsSync(path.join(dir, 'src/http/server.js')) ? dir : path.join(dir, 'dist');
  if (!existsSync(path.join(dist, 'src/http/server.js'))) throw new Error(`${dir}: no build (dist/src/http/server.js) found`);
  return path.resolve(dist);
}

const BUILDS: Record<string, string> = {
  this: path.resolve(here, '..'),
  ...(process.env.BENCH_BASELINE === undefined ? {} : { baseline: distOf(process.env.BENCH_BASELINE) }),
};

const MEASURES = [
  'server wall',
  'server cpu',
  'window wall',
  'window cpu',
  'first call',
  '--version wall',
  '--version cpu',
  'convert wall',
  'convert cpu',
] as const;
type Measure = (typeof MEASURES)[number];
type Sample = Partial<Record<Measure, number>>;

interface Line {
  stage: string;
  cpuMs: number;
  wallMs?: number;
  url?: string;
  tokenFile?: string;
}

/** A new session's first `get_entity` on the newest window: initialize, then the call, in ms. */
async function firstCall(url: string, token: string): Promise<number> {
  const t0 = performance.now();
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'bench-startup', version: '1' });
  await client.connect(transport);
  const result = await client.callTool({ name: 'get_entity', arguments: { entity: 'person' } });
  const ms = performance.now() - t0;
  await client.close();
  if (result.isError === true) throw new Error(`get_entity failed: ${JSON.stringify(result.content)}`);
  return ms;
}

async function serverSample(dist: string): Promise<Sample> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-bench-startup-'));
  const t0 = performance.now();
  const child = spawn(process.execPath, [CHILD, 'server', dist, DEMO, home], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const sample: Sample = {};
  try {
    let target: { url: string; tokenFile: string } | undefined;
    for await (const text of readline.createInterface({ input: child.stdout })) {
      const line = JSON.parse(text) as Line;
      if (line.stage === 'ready' && line.url !== undefined && line.tokenFile !== undefined) {
        sample['server wall'] = performance.now() - t0;
        sample['server cpu'] = line.cpuMs;
        target = { url: line.url, tokenFile: line.tokenFile };
      } else if (line.stage === 'window' && line.wallMs !== undefined && target !== undefined) {
        sample['window wall'] = line.wallMs;
        sample['window cpu'] = line.cpuMs;
        const token = (await readFile(target.tokenFile, 'utf8')).trim();
        sample['first call'] = await firstCall(target.url, token);
        break;
      }
    }
  } finally {
    child.stdin.end();
    await exited;
    await rm(home, { recursive: true, force: true });
  }
  if (sample['first call'] === undefined) throw new Error(`${dist}: the server did not start`);
  return sample;
}

/** One `athene` command in a fresh process: wall time until it exits, and its CPU time. */
async function cliSample(dist: string, name: '--version' | 'convert', args: string[]): Promise<Sample> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [CHILD, 'cli', dist, ...args], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  const [, , stderr, report] = child.stdio;
  if (!(report instanceof Readable) || stderr === null) throw new Error('no report pipe');
  let text = '';
  let errors = '';
  report.setEncoding('utf8');
  report.on('data', (d: string) => (text += d));
  stderr.setEncoding('utf8');
  stderr.on('data', (d: string) => (errors += d));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const wall = performance.now() - t0;
  if (code !== 0) throw new Error(`${dist}: athene ${args.join(' ')} exited with ${code}: ${errors}`);
  return { [`${name} wall`]: wall, [`${name} cpu`]: (JSON.parse(text) as { cpuMs: number }).cpuMs };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

const out = await mkdtemp(path.join(os.tmpdir(), 'athene-bench-convert-'));
const samples = new Map<string, Sample[]>(Object.keys(BUILDS).map((b) => [b, []]));
try {
  // builds interleaved sample by sample: both see the same machine load
  for (let run = 0; run < RUNS; run++) {
    for (const [name, dist] of Object.entries(BUILDS)) {
      const converted = path.join(out, `${name}-${run}.ofn`);
      samples.get(name)?.push({
        ...(await serverSample(dist)),
        ...(await cliSample(dist, '--version', ['--version'])),
        ...(await cliSample(dist, 'convert', ['convert', DEMO, converted])),
      });
    }
  }
} finally {
  await rm(out, { recursive: true, force: true });
}

const medians = (build: string, m: Measure): number => median((samples.get(build) ?? []).map((s) => s[m] ?? NaN));
const hasBaseline = samples.has('baseline');
console.log(`cold start, median of ${RUNS} (ms; cpu = the process's CPU time, every thread, from its start)`);
console.log(
  `${'measure'.padEnd(16)}${'this'.padStart(9)}${hasBaseline ? `${'baseline'.padStart(10)}${'this/baseline'.padStart(15)}` : ''}`,
);
for (const m of MEASURES) {
  const mine = medians('this', m);
  const base = hasBaseline ? medians('baseline', m) : NaN;
  console.log(
    `${m.padEnd(16)}${mine.toFixed(0).padStart(9)}${hasBaseline ? `${base.toFixed(0).padStart(10)}${(mine / base).toFixed(2).padStart(15)}` : ''}`,
  );
}
