// Reading a request body with a size limit: past the limit the request is answered 413 and the rest
// is ignored. Shared by the front door and the broker backend.

import { statusLine, type Exchange } from './respond.js';

export function sendTooLarge(x: Exchange, limit: number): void {
  if (x.aborted || x.done) return;
  x.done = true;
  x.res.cork(() => {
    x.res.writeStatus(statusLine(413)).writeHeader('content-type', 'application/json');
    x.res.end(
      JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `Payload Too Large: the limit is ${limit} bytes` }, id: null }),
      true,
    );
  });
}

/** Collects the body (at most `limit` bytes) and hands it over as text once complete. */
export function readBody(x: Exchange, limit: number, then: (body: string) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  x.res.onData((chunk, isLast) => {
    if (x.done) return;
    size += chunk.byteLength;
    if (size > limit) return sendTooLarge(x, limit);
    if (isLast && chunks.length === 0) return then(chunk.toString('utf8'));
    chunks.push(chunk);
    if (isLast) then(Buffer.concat(chunks, size).toString('utf8'));
  });
}
