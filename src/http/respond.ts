// Small helpers for writing responses: status lines, JSON bodies, JSON-RPC error bodies.

import { STATUS_CODES } from 'node:http';
import type { Reply } from './transport.js';

export function statusLine(status: number): string {
  return `${status} ${STATUS_CODES[status] ?? 'Unknown'}`;
}

/** A response that tracks whether the client went away, so nothing is written to a dead socket. */
export interface Exchange {
  readonly res: Reply;
  aborted: boolean;
  done: boolean;
  /** What else the client's going away stops, for handlers that leave onAborted to the router's one registration. */
  onAbort?: (() => void) | undefined;
}

export function sendJson(x: Exchange, status: number, body: unknown, headers: readonly (readonly [string, string])[] = []): void {
  if (x.aborted || x.done) return;
  x.done = true;
  x.res.cork(() => {
    x.res.writeStatus(statusLine(status)).writeHeader('content-type', 'application/json');
    for (const [k, v] of headers) x.res.writeHeader(k, v);
    x.res.end(JSON.stringify(body));
  });
}

/** A JSON-RPC error body with a null id (the request could not be attributed). */
export function sendRpcError(
  x: Exchange,
  status: number,
  code: number,
  message: string,
  headers: readonly (readonly [string, string])[] = [],
): void {
  sendJson(x, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}

/** Waits until no forwarded call is in flight (at most `graceMs`), then ends the open SSE streams. */
export async function drainExchanges(inFlight: () => number, streams: Set<Exchange>, graceMs: number): Promise<void> {
  const deadline = Date.now() + graceMs;
  while (inFlight() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  for (const x of streams) {
    if (!x.aborted && !x.done) {
      x.done = true;
      x.res.cork(() => x.res.end());
    }
  }
  streams.clear();
}
