// The load generator of bench/mcp: one keep-alive TCP connection per MCP session, carrying raw HTTP/1.1
// POSTs of JSON-RPC, with one request in flight per connection. The sessions are opened by the SDK client
// (a conformant initialize); the hot loop then costs the generator only a few microseconds per call, so
// the two cores go to the servers.
// Also the helpers bench/mcp and bench/broker share: spawning a server, opening sessions, checking
// replies, percentiles.

import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export interface Target {
  readonly name: string;
  readonly url: string;
  readonly token: string;
}

export interface RawReply {
  readonly status: number;
  /** The body as latin1 text (enough to look for markers in ASCII JSON). */
  readonly body: string;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CHUNKED_END = '0\r\n\r\n';

/** Opens a session with the SDK client and hands back its id; the client's own connection is then closed. */
export async function openSession(t: Target): Promise<{ sessionId: string; protocolVersion: string }> {
  const transport = new StreamableHTTPClientTransport(new URL(t.url), { requestInit: { headers: { authorization: `Bearer ${t.token}` } } });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  const sessionId = transport.sessionId;
  const protocolVersion = transport.protocolVersion ?? '2025-06-18';
  if (sessionId === undefined) throw new Error(`${t.name} gave no session id`);
  // closing the transport drops its GET stream but leaves the session open on the server
  await client.close();
  return { sessionId, protocolVersion };
}

/** Finds where a complete response ends in `buf`, or -1. Handles Content-Length and chunked bodies. */
function responseEnd(buf: Buffer, headEnd: number): number {
  const head = buf.toString('latin1', 0, headEnd).toLowerCase();
  const cl = head.indexOf('content-length:');
  if (cl >= 0) {
    // the head ends without a line break: Content-Length may be its last line
    const eol = head.indexOf('\r\n', cl);
    const len = parseInt(head.slice(cl + 15, eol < 0 ? head.length : eol), 10);
    const end = headEnd + 4 + len;
    return buf.length >= end ? end : -1;
  }
  if (head.includes('transfer-encoding: chunked')) {
    return buf.toString('latin1', buf.length - CHUNKED_END.length, buf.length) === CHUNKED_END ? buf.length : -1;
  }
  return headEnd + 4;
}

/** One session on one connection; `call` sends a tools/call with the given pre-serialized arguments. */
export class RawSession {
  private readonly socket: net.Socket;
  private pending: Buffer | null = null;
  private waiter: ((r: RawReply) => void) | null = null;
  private failer: ((e: Error) => void) | null = null;
  private nextId = 100;
  private readonly head: string;

  private constructor(
    t: Target,
    readonly sessionId: string,
    protocolVersion: string,
    socket: net.Socket,
  ) {
    this.socket = socket;
    const url = new URL(t.url);
    this.head =
      `POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer ${t.token}\r\n` +
      'content-type: application/json\r\naccept: application/json, text/event-stream\r\n' +
      `mcp-protocol-version: ${protocolVersion}\r\nmcp-session-id: ${sessionId}\r\ncontent-length: `;
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => this.receive(d));
    socket.on('error', (e) => this.failer?.(e));
    socket.on('close', () => this.failer?.(new Error('connection closed')));
  }

  static async open(t: Target): Promise<RawSession> {
    const { sessionId, protocolVersion } = await openSession(t);
    const url = new URL(t.url);
    const socket = net.connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    return new RawSession(t, sessionId, protocolVersion, socket);
  }

  /** `args` is the JSON text of the tool's arguments object. */
  call(tool: string, args: string): Promise<RawReply> {
    const body = `{"jsonrpc":"2.0","id":${this.nextId++},"method":"tools/call","params":{"name":"${tool}","arguments":${args}}}`;
    return new Promise((resolve, reject) => {
      this.waiter = resolve;
      this.failer = reject;
      this.socket.write(this.head + Buffer.byteLength(body) + '\r\n\r\n' + body);
    });
  }

  /**
   * Ends the session on the server (DELETE), so that a long run does not reach the per-client session cap; a
   * session whose connection already failed is just dropped.
   */
  async close(): Promise<void> {
    const ended = new Promise<RawReply>((resolve, reject) => {
      this.waiter = resolve;
      this.failer = reject;
    });
    this.socket.write(this.head.replace(/^POST /, 'DELETE ') + '0\r\n\r\n');
    await ended.catch(() => undefined);
    this.failer = null;
    this.socket.destroy();
  }

  private receive(d: Buffer): void {
    const buf = this.pending === null ? d : Buffer.concat([this.pending, d]);
    const headEnd = buf.indexOf(HEADER_END);
    const end = headEnd < 0 ? -1 : responseEnd(buf, headEnd);
    if (end < 0) {
      this.pending = buf;
      return;
    }
    this.pending = null;
    const status = (buf.readUInt8(9) - 48) * 100 + (buf.readUInt8(10) - 48) * 10 + (buf.readUInt8(11) - 48);
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.({ status, body: buf.toString('latin1', headEnd + 4, end) });
  }
}

/** Opens `n` sessions, 16 at a time. */
export async function openSessions(t: Target, n: number): Promise<RawSession[]> {
  const sessions: RawSession[] = [];
  for (let i = 0; i < n; i += 16)
    sessions.push(...(await Promise.all(Array.from({ length: Math.min(16, n - i) }, () => RawSession.open(t)))));
  return sessions;
}

/** A call counts only when it succeeded at the HTTP and the tool level. */
export function checkReply(t: Target, reply: RawReply): void {
  if (reply.status !== 200 || reply.body.includes('"isError":true'))
    throw new Error(`call failed on ${t.name}: ${reply.status} ${reply.body}`);
}

export function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN; // NaN when empty
}

/** Spawns a server and resolves with the first URL it prints. */
export function spawnServer(
  args: string[],
  pattern: RegExp,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const url = pattern.exec(out)?.[1];
      if (url !== undefined) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}: ${out}`)));
  });
}
