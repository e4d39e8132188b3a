// bench/mcp: N concurrent MCP sessions (1, 16, 64, 256), each initializing and then looping
// `tools/call get_entity`, against Athene (`athene serve`, uWS front door + window actor) and, in the same
// run, against a minimal reference server (SDK McpServer + node:http Streamable HTTP transport, same tool
// logic). Each server runs in its own process; the load comes from this process.
// Usage: npm run build && node dist/bench/mcp.js [seconds-per-level]   (BENCH_LEVELS=1,16,64,256)

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import http from 'node:http';

const here = path.dirname(fileURLToPath(import.meta.url));
const MAIN = path.resolve(here, '../src/cli/main.js');
const REFERENCE = path.resolve(here, 'mcp-reference.js');
const DEMO = path.resolve(here, '../../examples/demo.ttl');

interface Target {
  name: string;
  url: string;
  token: string;
  child: ChildProcess;
}

/** Spawns a server and resolves with the first URL it prints. */
function spawnServer(args: string[], pattern: RegExp): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m !== null) resolve({ child, url: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}: ${out}`)));
  });
}

/** A minimal MCP client over keep-alive node:http, so the load generator costs little next to the servers. */
class RawSession {
  private sessionId = '';
  private nextId = 1;

  constructor(private readonly t: Target, private readonly agent: http.Agent) {}

  post(message: object): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
    const url = new URL(this.t.url);
    const payload = JSON.stringify(message);
    return new Promise((resolve, reject) => {
      const req = http.request({
        host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent: this.agent,
        headers: {
          authorization: `Bearer ${this.t.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18', 'content-length': Buffer.byteLength(payload),
          ...(this.sessionId === '' ? {} : { 'mcp-session-id': this.sessionId }),
        },
      }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  async initialize(): Promise<void> {
    const res = await this.post({ jsonrpc: '2.0', id: this.nextId++, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
    const sid = res.headers['mcp-session-id'];
    if (res.status !== 200 || typeof sid !== 'string') throw new Error(`initialize failed on ${this.t.name}: ${res.status} ${res.body}`);
    this.sessionId = sid;
    await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  async getEntity(): Promise<void> {
    const res = await this.post({ jsonrpc: '2.0', id: this.nextId++, method: 'tools/call', params: { name: 'get_entity', arguments: { entity: 'person' } } });
    if (res.status !== 200 || res.body.includes('"isError":true')) throw new Error(`get_entity failed on ${this.t.name}: ${res.status} ${res.body}`);
  }
}

interface Result {
  calls: number;
  perSecond: number;
  p50: number;
  p99: number;
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

async function load(t: Target, sessions: number, seconds: number): Promise<Result> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sessions });
  const clients = Array.from({ length: sessions }, () => new RawSession(t, agent));
  await Promise.all(clients.map((c) => c.initialize()));
  const latencies: number[] = [];
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(clients.map(async (client) => {
    while (performance.now() < end) {
      const t0 = performance.now();
      await client.getEntity();
      latencies.push(performance.now() - t0);
    }
  }));
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  const sorted = Float64Array.from(latencies).sort();
  return { calls: latencies.length, perSecond: latencies.length / elapsed, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 3);
  const levels = (process.env.BENCH_LEVELS ?? '1,16,64,256').split(',').map(Number);
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-bench-mcp-'));
  const targets: Target[] = [];
  try {
    const athene = await spawnServer([MAIN, 'serve', DEMO, '--port', '0', '--home', home], /listening on (\S+)/);
    const token = (await readFile(path.join(home, 'token'), 'utf8')).trim();
    targets.push({ name: 'athene', url: athene.url, token, child: athene.child });
    const reference = await spawnServer([REFERENCE, DEMO, token], /^(http:\/\/\S+)/m);
    targets.push({ name: 'reference', url: reference.url, token, child: reference.child });
    console.log(`get_entity, ${seconds} s per level; Athene ${athene.url} vs reference ${reference.url}`);
    console.log('sessions | athene calls/s  p50 ms  p99 ms | reference calls/s  p50 ms  p99 ms | throughput ratio');
    for (const n of levels) {
      const [a, r] = [await load(targets[0], n, seconds), await load(targets[1], n, seconds)];
      const f = (x: number) => x.toFixed(2).padStart(7);
      console.log(`${String(n).padStart(8)} | ${a.perSecond.toFixed(0).padStart(14)} ${f(a.p50)} ${f(a.p99)} | ${r.perSecond.toFixed(0).padStart(17)} ${f(r.p50)} ${f(r.p99)} | ${(a.perSecond / r.perSecond).toFixed(2)}x`);
    }
  } finally {
    for (const t of targets) t.child.kill('SIGTERM');
    await rm(home, { recursive: true, force: true });
  }
}

await main();
