// Multi-process broker tests: real `athene serve` processes sharing one private directory and one port,
// spawned from the compiled CLI, and helpers to reach them over HTTP and MCP.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DIRECTORY_SECRET_HEADER } from '../../src/auth/directory-secret.js';
import type { InstanceEntry } from '../../src/broker/instances.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const MAIN = path.resolve(here, '../../src/cli/main.js');

/** test/fixtures/broker, resolved from the compiled file in dist/test/broker. */
export function brokerFixture(name: string): string {
  return path.resolve(here, '../../../test/fixtures/broker', name);
}

/** A port free right now (bound and released). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Athene {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Everything printed on stdout so far. */
  output(): string;
  /** Everything printed on stderr so far. */
  errors(): string;
  readonly exited: Promise<number | null>;
  /** Resolves with the first match of `pattern` in stdout. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
}

/**
 * Spawns `athene serve FILE --home HOME --port PORT …` (this environment plus `env`) and waits (at most `startMs`) until it serves.
 * The bound only stops a start that never comes: on a loaded machine loading the CLI alone can take 20 s.
 */
export async function spawnAthene(
  home: string,
  port: number,
  file: string,
  extra: string[] = [],
  env: Record<string, string> = {},
  startMs = 60_000,
): Promise<Athene> {
  const child = spawn(process.execPath, [MAIN, 'serve', file, '--home', home, '--port', String(port), ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // as in test servers, each successful tool result is checked against its declared shape
    env: { ...process.env, ATHENE_CHECK_OUTPUT_SHAPES: 'true', ...env },
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const a: Athene = {
    child,
    pid: child.pid!,
    output: () => out,
    errors: () => err,
    exited,
    waitFor: async (pattern, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const m = pattern.exec(out);
        if (m !== null) return m;
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited before ${pattern}:\n${out}\nstderr:\n${err}`);
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern} in:\n${out}\nstderr:\n${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
  try {
    await a.waitFor(/listening on (\S+)/, startMs);
  } catch (err) {
    // a process that never came up is not left behind (its pipes would keep the test running)
    child.kill('SIGKILL');
    throw err;
  }
  return a;
}

/** Stops a process started by a test (SIGKILL after `graceMs`) and waits for its exit. */
export async function stopAthene(a: Athene, graceMs = 10_000): Promise<void> {
  if (a.child.exitCode !== null || a.child.signalCode !== null) return;
  a.child.kill('SIGCONT');
  a.child.kill('SIGTERM');
  const timer = setTimeout(() => a.child.kill('SIGKILL'), graceMs);
  await a.exited;
  clearTimeout(timer);
}

export async function readToken(home: string): Promise<string> {
  return (await readFile(path.join(home, 'token'), 'utf8')).trim();
}

export async function readDirectorySecret(home: string): Promise<string> {
  return (await readFile(path.join(home, 'directory-secret'), 'utf8')).trim();
}

export async function listInstances(base: string, token: string): Promise<InstanceEntry[]> {
  const res = await fetch(new URL('/instances', base), { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`/instances answered ${res.status}`);
  return ((await res.json()) as { instances: InstanceEntry[] }).instances;
}

/** An SDK client on `endpoint` (default /mcp) with the bearer token and any extra headers. */
export async function connectTo(base: string, token: string, endpoint = '/mcp', extra: Record<string, string> = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(endpoint, base), {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...extra } },
  });
  const client = new Client({ name: 'athene-broker-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** The broker's internal API with the directory secret. */
export async function internal(
  base: string,
  secret: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(new URL(path, base), {
    method: body === undefined ? 'GET' : 'POST',
    headers: { [DIRECTORY_SECRET_HEADER]: secret, 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** One MCP POST straight to a backend window (`headers` carry what a broker would send). */
export async function postToBackend(url: string, headers: Record<string, string>, body: string, sessionId?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
      ...headers,
    },
    body,
  });
}

/**
 * Polls `probe` until it returns a value (not undefined) or `timeoutMs` passes. A test that asserts a bound
 * passes it; the default only ends a wait for something that never comes, so it holds on a loaded machine.
 */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Runs `body` with a fresh private directory and a free port; every process it spawned is stopped after. */
export async function withHome(body: (home: string, port: number, procs: Athene[]) => Promise<void>): Promise<void> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-broker-'));
  const procs: Athene[] = [];
  try {
    await body(home, await freePort(), procs);
  } finally {
    for (const p of procs.reverse()) await stopAthene(p);
    await rm(home, { recursive: true, force: true });
  }
}
