// Where a window's answer to one forwarded request is written: whole JSON bodies in one corked write,
// event streams as their chunks come. One object per request (no per-request closures).

import { pinOwner, type RoutedWindow, type WindowRegistry } from '../actors/registry.js';
import type { ResponseSink } from '../actors/window.js';
import type { Principal } from '../auth/principal.js';
import { sendRpcError, statusLine, type Exchange } from './respond.js';
import { sendRevoked, type Cuttable } from './in-flight.js';
import { isHopByHop } from './hop-by-hop.js';
import { requestIds } from '../util/json-rpc-ids.js';

/** Response headers the transport computes itself, and hop-by-hop ones, are not passed on. */
function writable(name: string): boolean {
  return name !== 'content-length' && !isHopByHop(name);
}

/**
 * The end of a drain's grace: answers each call still running with a JSON-RPC 503 (rather than a dropped
 * connection) and stops its work at the window; resolves, with how many were cut, once the answers could leave.
 */
export async function cutAtShutdown(calls: ReadonlySet<WindowSink>, graceMs: number): Promise<number> {
  const cut = [...calls];
  for (const sink of cut) {
    sink.fail(503, `The server is shutting down: this call did not finish within the ${graceMs / 1000} s grace period`);
    sink.cancel();
  }
  if (cut.length > 0) await new Promise((r) => setTimeout(r, 50));
  return cut.length;
}

export class WindowSink implements ResponseSink, Cuttable {
  private buffered: Buffer[] | null = null;
  private headWritten = false;
  private settled = false;
  /** Aborts the request at the window (set once it was forwarded). */
  cancel: () => void = () => undefined;

  /**
   * `sessionId` is the request's Mcp-Session-Id (undefined for an initialize); a session this request
   * creates is pinned to `principal`; `onSettled` is told once, when the answer is over or the window failed.
   */
  constructor(
    readonly x: Exchange,
    readonly isStream: boolean,
    private readonly window: RoutedWindow,
    private readonly registry: WindowRegistry,
    readonly sessionId: string | undefined,
    readonly principal: Principal,
    private readonly onSettled: (sink: WindowSink) => void,
    /** The POST body forwarded (null for GET and DELETE): a failure after the head answers its request ids. */
    private readonly requestBody: string | null,
  ) {}

  /** Revocation: 401 when no answer was started (a stream is just ended), and the window stops the work. */
  cut(): void {
    this.settle();
    this.cancel();
    const x = this.x;
    if (x.aborted || x.done) return;
    if (!this.headWritten) return sendRevoked(x);
    x.done = true;
    x.res.cork(() => x.res.end());
  }

  settle(): void {
    if (this.settled) return;
    this.settled = true;
    this.onSettled(this);
  }

  complete(status: number, headers: [string, string][], body: string): void {
    this.settle();
    this.pinNewSession(status, headers);
    const x = this.x;
    if (x.aborted || x.done) return;
    x.done = true;
    x.res.cork(() => {
      this.writeHead(status, headers);
      x.res.end(body);
    });
  }

  reply(status: number, body: string | null): void {
    this.settle();
    const x = this.x;
    if (x.aborted || x.done) return;
    x.done = true;
    x.res.cork(() => {
      x.res.writeStatus(statusLine(status));
      if (body === null) x.res.end();
      else
        x.res
          .writeHeader('content-type', 'application/json')
          .writeHeader('mcp-session-id', this.sessionId ?? '')
          .end(body);
    });
  }

  head(status: number, headers: [string, string][]): void {
    this.pinNewSession(status, headers);
    const streaming = headers.some(([k, v]) => k === 'content-type' && v.startsWith('text/event-stream'));
    if (!streaming) this.buffered = [];
    const x = this.x;
    if (x.aborted || x.done) return;
    this.headWritten = true;
    x.res.cork(() => {
      this.writeHead(status, headers);
      // a transport may send the head only with body bytes, and an event stream may stay quiet for long: an SSE
      // comment (which clients ignore) lets the client see the head now
      if (streaming) x.res.write(': stream open\n\n');
    });
  }

  chunk(data: Uint8Array): void {
    if (this.buffered !== null) this.buffered.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    else if (!this.x.aborted && !this.x.done) this.x.res.cork(() => this.x.res.write(data));
  }

  end(): void {
    this.settle();
    const x = this.x;
    if (x.aborted || x.done) return;
    x.done = true;
    const body = this.buffered === null ? undefined : Buffer.concat(this.buffered);
    x.res.cork(() => x.res.end(body));
  }

  fail(status: number, message: string): void {
    this.settle();
    const x = this.x;
    if (x.aborted || x.done) return;
    if (!this.headWritten) return sendRpcError(x, status, -32603, message);
    x.done = true;
    // the head is out, so the status cannot carry the failure: each request of the body gets its JSON-RPC error,
    // as an event on a stream, else as the JSON body (what was buffered of the window's answer is dropped)
    const errors = (this.requestBody === null ? [] : requestIds(this.requestBody)).map((id) =>
      JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message } }),
    );
    x.res.cork(() => {
      if (this.buffered === null) x.res.end(errors.map((e) => `event: message\ndata: ${e}\n\n`).join(''));
      else x.res.end(errors.length === 0 ? undefined : errors.length === 1 ? errors[0] : `[${errors.join(',')}]`);
    });
  }

  /** An initialize's answer names the new session: pin it to this window. */
  private pinNewSession(status: number, headers: [string, string][]): void {
    if (status >= 300 || this.sessionId !== undefined) return;
    const created = headers.find(([k]) => k === 'mcp-session-id')?.[1];
    if (created !== undefined)
      this.registry.pin(created, this.window, pinOwner(this.principal), {
        name: this.principal.display_name,
        capabilities: this.principal.capabilities,
        since: Date.now(),
      });
  }

  private writeHead(status: number, headers: [string, string][]): void {
    this.x.res.writeStatus(statusLine(status));
    for (const [k, v] of headers) if (writable(k)) this.x.res.writeHeader(k, v);
  }
}
