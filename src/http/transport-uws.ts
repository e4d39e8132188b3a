// The uWebSockets.js transport: one app, every request handed to the shared handler through a thin reply.
//
// What uWS refuses itself is never answered. The v20.30 parser (newer repackages need glibc 2.38) closes the
// connection before any handler runs: its binary holds no error response and has no hook through which one
// could be written. It refuses a request with 49 or more header fields (its compiled-in
// UWS_HTTP_MAX_HEADERS_COUNT of 50 counts the request line), a head over 4 KB that arrives in more than one
// read (its compiled-in fallback buffer), a malformed request or header line, and a request without a Host
// header. node:http answers each of these with a JSON-RPC 4xx (431, 400, or the Host check's 403;
// transport-node.ts); below those limits both transports answer 431 from the front door.

import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import type { Handler, Incoming, Reply, Transport, UwsModule } from './transport.js';

/** LIBUS_LISTEN_EXCLUSIVE_PORT: without it uWS sets SO_REUSEPORT, and a second process would share the port. */
const LIBUS_LISTEN_EXCLUSIVE_PORT = 1;

type ListenWithOptions = (host: string, port: number, options: number, cb: (socket: us_listen_socket | false) => void) => TemplatedApp;

class UwsReply implements Reply {
  constructor(private readonly res: HttpResponse) {}

  cork(cb: () => void): void {
    this.res.cork(cb);
  }

  writeStatus(status: string): Reply {
    this.res.writeStatus(status);
    return this;
  }

  writeHeader(name: string, value: string): Reply {
    this.res.writeHeader(name, value);
    return this;
  }

  write(chunk: string | Uint8Array): void {
    this.res.write(chunk);
  }

  end(body?: string | Uint8Array, closeConnection?: boolean): void {
    this.res.end(body, closeConnection);
  }

  onAborted(cb: () => void): void {
    this.res.onAborted(cb);
  }

  onData(cb: (chunk: Buffer, isLast: boolean) => void): void {
    // uWS reuses the chunk's memory after the callback returns: copy it (into Buffer's pool when small, rather
    // than into an ArrayBuffer of its own)
    this.res.onData((chunk, isLast) => cb(Buffer.from(new Uint8Array(chunk)), isLast));
  }

  /** uWS writes IPv6 unabbreviated; read it before the response is ended. */
  remoteAddress(): string {
    return Buffer.from(this.res.getRemoteAddressAsText()).toString('utf8');
  }
}

function incoming(req: HttpRequest): Incoming {
  const headers = new Map<string, string>();
  let headerCount = 0;
  let headerBytes = 0;
  req.forEach((k, v) => {
    headers.set(k, v);
    headerCount++;
    headerBytes += k.length + v.length;
  });
  return {
    method: req.getCaseSensitiveMethod().toUpperCase(),
    path: req.getUrl(),
    query: req.getQuery() ?? '',
    headers,
    headerCount,
    headerBytes,
  };
}

export class UwsTransport implements Transport {
  readonly kind = 'uws';
  private readonly app: TemplatedApp;
  private socket: us_listen_socket | null = null;

  constructor(
    private readonly uws: UwsModule,
    handler: Handler,
  ) {
    this.app = uws.App().any('/*', (res, req) => handler(incoming(req), new UwsReply(res)));
  }

  listen(host: string, port: number): Promise<number | null> {
    return new Promise((resolve) => {
      // the typings omit the (host, port, options, cb) overload the native module has
      (this.app.listen as unknown as ListenWithOptions).call(this.app, host, port, LIBUS_LISTEN_EXCLUSIVE_PORT, (socket) => {
        if (socket === false) return resolve(null);
        this.socket = socket;
        resolve(this.uws.us_socket_local_port(socket));
      });
    });
  }

  stopListening(): void {
    if (this.socket === null) return;
    this.uws.us_listen_socket_close(this.socket);
    this.socket = null;
  }

  /** uWS apps have `close()` (force-closes every socket of the app) since v20.x; the bundled typings omit it. */
  closeAll(): void {
    (this.app as TemplatedApp & { close(): void }).close();
  }
}
