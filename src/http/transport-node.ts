// The node:http transport, for Node versions uWS has no binary for (or `--http-server node`): the same
// handler, through a reply that behaves like uWS's (status line, headers, then one body or a stream).

import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Handler, Incoming, Reply, Transport } from './transport.js';
import { MAX_HEADER_BYTES, MAX_HEADER_COUNT } from './transport.js';
import { statusLine } from './respond.js';

/** Connections with a response under way: a parse error there cannot be answered in the same stream. */
const answering = new WeakSet<Socket>();

class NodeReply implements Reply {
  private status = 200;
  private readonly head: string[] = [];
  private aborted: (() => void) | null = null;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    answering.add(req.socket);
    res.on('close', () => {
      answering.delete(req.socket);
      if (!res.writableEnded) this.aborted?.();
    });
    // a write racing a dropped connection is reported through the close above, not as an error
    res.on('error', () => undefined);
    req.on('error', () => undefined);
  }

  cork(cb: () => void): void {
    this.res.cork();
    try {
      cb();
    } finally {
      this.res.uncork();
    }
  }

  writeStatus(status: string): Reply {
    this.status = Number.parseInt(status, 10);
    return this;
  }

  writeHeader(name: string, value: string): Reply {
    this.head.push(name, value);
    return this;
  }

  write(chunk: string | Uint8Array): void {
    if (this.res.destroyed) return;
    if (!this.res.headersSent) this.res.writeHead(this.status, this.head);
    this.res.write(chunk);
  }

  end(body?: string | Uint8Array, closeConnection = false): void {
    if (this.res.destroyed) return;
    if (!this.res.headersSent) {
      this.head.push(
        'content-length',
        String(body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength),
      );
      if (closeConnection) this.head.push('connection', 'close');
      this.res.writeHead(this.status, this.head);
    }
    this.res.end(body);
    if (closeConnection) this.req.socket.destroySoon();
  }

  onAborted(cb: () => void): void {
    this.aborted = cb;
  }

  onData(cb: (chunk: Buffer, isLast: boolean) => void): void {
    this.req.on('data', (chunk: Buffer) => cb(chunk, false));
    this.req.on('end', () => cb(Buffer.alloc(0), true));
  }

  remoteAddress(): string {
    return this.req.socket.remoteAddress ?? '';
  }
}

function incoming(req: IncomingMessage): Incoming {
  const headers = new Map<string, string>();
  const raw = req.rawHeaders;
  let headerBytes = 0;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    // raw headers alternate name, value
    const name = raw[i]!;
    const value = raw[i + 1]!;
    headers.set(name.toLowerCase(), value);
    headerBytes += name.length + value.length;
  }
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    path: q < 0 ? url : url.slice(0, q),
    query: q < 0 ? '' : url.slice(q + 1),
    headers,
    headerCount: raw.length / 2,
    headerBytes,
  };
}

/** The status and message of a request node's parser refused before any handler saw it. */
function clientErrorAnswer(err: NodeJS.ErrnoException): [number, string] {
  if (err.code === 'HPE_HEADER_OVERFLOW')
    return [431, `Request Header Fields Too Large: at most ${MAX_HEADER_COUNT} headers of ${MAX_HEADER_BYTES} bytes in all`];
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'Request Timeout: the request did not arrive in time'];
  return [400, `Bad Request: malformed HTTP/1.1 request (${err.code ?? err.message})`];
}

/** Answers a request node's parser refused as the front door answers (a JSON-RPC error), then closes the connection. */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable || answering.has(socket as Socket)) return void socket.destroy();
  const [status, message] = clientErrorAnswer(err);
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  socket.end(
    `HTTP/1.1 ${statusLine(status)}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

export class NodeTransport implements Transport {
  readonly kind = 'node';
  private readonly server: http.Server;

  constructor(handler: Handler) {
    // the parser's own limit sits above the front door's, which answers with a JSON-RPC 431 like uWS does
    // a request without Host goes to the front door's Host check (403), not node's bare 400
    this.server = http.createServer(
      { maxHeaderSize: 4 * MAX_HEADER_BYTES, keepAliveTimeout: 10_000, requireHostHeader: false },
      (req, res) => handler(incoming(req), new NodeReply(req, res)),
    );
    // the front door counts header lines itself: node would silently drop the ones past its own cap
    this.server.maxHeadersCount = 0;
    this.server.on('clientError', answerClientError);
  }

  listen(host: string, port: number): Promise<number | null> {
    return new Promise((resolve) => {
      const failed = () => resolve(null);
      this.server.once('error', failed);
      this.server.listen({ host, port, exclusive: true }, () => {
        this.server.off('error', failed);
        const address = this.server.address();
        resolve(typeof address === 'object' && address !== null ? address.port : null);
      });
    });
  }

  stopListening(): void {
    if (this.server.listening) this.server.close();
  }

  closeAll(): void {
    this.server.closeAllConnections();
  }
}
