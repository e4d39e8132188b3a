// A registered process's backend: a small HTTP server (the front door's transport) on an ephemeral loopback port serving this process's
// windows to the broker, one route table of paths per window (`/w/{window_id}/…`). A request is accepted only with that
// window's broker secret (constant-time digest comparison); the principal comes in its header and the
// request is handed to the window exactly as the front door hands it. A request through a version-1
// broker carries no principal: it gets the legacy local-admin profile and is counted (INTERFACE.md 9).

import * as v from 'valibot';
import type { Settings } from '../settings/settings.js';
import type { WindowRegistry } from '../actors/registry.js';
import type { WindowHandle } from '../actors/window.js';
import { staticPrincipal, type Principal } from '../auth/principal.js';
import { sendJson, sendRpcError, statusLine, type Exchange, drainExchanges } from '../http/respond.js';
import { readBody } from '../http/read-body.js';
import { chooseTransport, type Incoming, type Reply, type Transport } from '../http/transport.js';
import { createTransport } from '../http/transports.js';
import { RouteTable, type RouteSpec } from '../http/route-table.js';
import { log } from '../util/log.js';
import { connectionNamed, isHopByHop } from '../http/hop-by-hop.js';
import { WindowSink, cutAtShutdown } from '../http/window-sink.js';
import { generateEndpointSecret, secretDigest, secretMatches } from './endpoint-secret.js';
import { FIRST_PRINCIPAL_PROTOCOL, PRINCIPAL_HEADER, PROTOCOL_HEADER, SECRET_HEADER, decodePrincipal, protocolOf } from './wire.js';
import { ViewQuerySchema, parseBody, type WindowSpec } from './registration.js';

interface Served {
  readonly handle: WindowHandle;
  secret: string;
  digest: Buffer;
  /**
   * Digests of secrets replaced by `rotate`: the broker keeps their endpoints quarantined and still sends
   * them fences, so they admit fences and nothing else.
   */
  readonly replaced: Buffer[];
  legacyRequests: number;
}

/** Replaced secrets kept per window; older ones are forgotten (their fences then wait for the PID to exit). */
const REPLACED_KEPT = 16;

/** One request on a window's route; `params` are the route pattern's groups (the window id first), undecoded. */
interface BackendCall {
  readonly x: Exchange;
  readonly req: Incoming;
  readonly served: Served;
  readonly params: readonly string[];
  readonly headers: { flat: string[]; map: Map<string, string> };
}

/** A window's route: its path's first group is the window id, and the window's broker secret opens it. */
interface BackendRoute extends RouteSpec {
  /** A replaced secret admits it too: the broker still sends fences to a retired endpoint. */
  readonly replacedSecrets?: boolean;
  handle(call: BackendCall): void;
}

/** `/w/{window_id}/<rest>` as a route path. */
const windowPath = (rest: string): RegExp => new RegExp(`^/w/([^/]+)/${rest}$`);

/** A comment line this often keeps the broker's idle announcement stream from timing out. */
const KEEPALIVE_MS = 15_000;

const FenceSchema = v.looseObject({
  fence_id: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  client_id: v.nullable(v.pipe(v.string(), v.maxLength(1000))),
  grant_ids: v.pipe(v.array(v.pipe(v.string(), v.maxLength(200))), v.maxLength(10_000)),
  issued_at: v.string(),
});

/** A path segment decoded; null when its percent-encoding is malformed. */
/** A route param decoded; null when it is missing or not valid percent-encoding. */
function segment(text: string | undefined): string | null {
  if (text === undefined) return null;
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Headers the window gets: what the broker forwarded, minus the broker's own. */
function windowHeaders(req: Incoming): { flat: string[]; map: Map<string, string> } {
  const flat: string[] = [];
  const named = connectionNamed(req.headers.get('connection'));
  for (const [k, val] of req.headers) if (!k.startsWith('x-athene-') && k !== 'content-length' && !isHopByHop(k, named)) flat.push(k, val);
  return { flat, map: req.headers };
}

export class Backend {
  private readonly transport: Transport;
  private readonly windows = new Map<string, Served>();
  private inFlight = 0;
  /** Forwarded calls not yet answered: those still running when the drain's grace period ends get an error. */
  private readonly calls = new Set<WindowSink>();
  private readonly streams = new Set<Exchange>();
  port = 0;
  /** The routes of the broker's requests, each behind its window's broker secret. */
  private readonly routes = new RouteTable<BackendRoute>([
    {
      methods: 'any',
      path: windowPath('mcp'),
      handle: ({ x, req, served, headers }) => {
        const protocol = protocolOf(headers.map.get(PROTOCOL_HEADER));
        this.mcp(x, served, req.method, req.query === '' ? '/mcp' : `/mcp?${req.query}`, headers, protocol);
      },
    },
    { methods: ['POST'], path: windowPath('fence'), replacedSecrets: true, handle: ({ x, served }) => this.fence(x, served) },
    {
      methods: ['GET'],
      path: windowPath('approvals'),
      handle: ({ x, served }) => void served.handle.listApprovals().then((pending) => sendJson(x, 200, { pending })),
    },
    {
      methods: ['POST'],
      path: windowPath('approvals/([^/]+)/(approve|deny)'),
      handle: ({ x, served, params }) =>
        void served.handle
          .decide(segment(params[1]) ?? '', params[2] === 'approve')
          .then((found) => sendJson(x, found ? 200 : 404, { found })),
    },
    { methods: ['POST'], path: windowPath('view'), handle: ({ x, served }) => this.view(x, served) },
    { methods: ['GET'], path: windowPath('events'), handle: ({ x, served }) => this.announcements(x, served) },
    {
      methods: ['POST'],
      path: windowPath('sessions/([^/]+)/close'),
      handle: ({ x, served, params }) => {
        const sessionId = segment(params[1]);
        if (sessionId === null) return sendRpcError(x, 405, -32000, 'Method not allowed');
        served.handle.closeSession(sessionId);
        this.registry.unpin(sessionId);
        sendJson(x, 200, { closed: true });
      },
    },
  ]);

  constructor(
    private readonly settings: Settings,
    private readonly registry: WindowRegistry,
  ) {
    this.transport = createTransport(chooseTransport(settings.http_server).kind, (req, res) => this.route(req, res));
  }

  async listen(): Promise<number> {
    const port = await this.transport.listen('127.0.0.1', 0);
    if (port === null) throw new Error('cannot bind a loopback port for the broker backend');
    this.port = port;
    return port;
  }

  /** Serves a window behind a fresh broker secret. */
  add(handle: WindowHandle): void {
    const secret = generateEndpointSecret();
    this.windows.set(handle.id, { handle, secret, digest: secretDigest(secret), replaced: [], legacyRequests: 0 });
  }

  /** New secrets for every window (the broker retired the old endpoints). */
  rotate(): void {
    for (const w of this.windows.values()) {
      w.replaced.push(w.digest);
      if (w.replaced.length > REPLACED_KEPT) w.replaced.shift();
      w.secret = generateEndpointSecret();
      w.digest = secretDigest(w.secret);
    }
  }

  /** What registration and heartbeats tell the broker. */
  specs(): WindowSpec[] {
    return [...this.windows.values()].map((w) => ({
      window_id: w.handle.id,
      secret: w.secret,
      label: w.handle.label,
      documents: [...w.handle.documents],
      legacy_requests: w.legacyRequests,
    }));
  }

  /**
   * Stops accepting, lets forwarded calls finish (at most `graceMs`), ends open streams, then closes every
   * connection: the broker keeps idle ones open, and they would keep this process from exiting.
   */
  async close(graceMs = 5000): Promise<void> {
    this.transport.stopListening();
    await drainExchanges(() => this.inFlight, this.streams, graceMs);
    // the broker passes the answers on; a dropped connection would reach the client as an unreachable window
    const cut = await cutAtShutdown(this.calls, graceMs);
    if (cut > 0) log.warn({ calls: cut, grace_s: graceMs / 1000 }, 'calls cut at shutdown');
    this.transport.closeAll();
  }

  private route(req: Incoming, res: Reply): void {
    const x: Exchange = { res, aborted: false, done: false };
    res.onAborted(() => {
      x.aborted = true;
    });
    const headers = windowHeaders(req);
    const found = this.routes.match(req.method, req.path);
    const id = found === null ? null : segment(found.params[0]);
    const served = id === null ? undefined : this.windows.get(id);
    const presented = headers.map.get(SECRET_HEADER);
    // the same answer for an unknown path or window and a wrong secret: the port reveals nothing without one
    if (
      found === null ||
      served === undefined ||
      !(
        secretMatches(presented, served.digest) ||
        (found.route.replacedSecrets === true && served.replaced.some((d) => secretMatches(presented, d)))
      )
    ) {
      return sendRpcError(x, 403, -32000, "Forbidden: this port serves the broker only, with a window's broker secret");
    }
    if (!found.methodAllowed) return sendRpcError(x, 405, -32000, 'Method not allowed');
    found.route.handle({ x, req, served, params: found.params, headers });
  }

  /** The forwarded principal; a version-1 broker's request gets the legacy local-admin profile. */
  private principalOf(served: Served, headers: Map<string, string>, protocol: number): Principal | null {
    if (protocol >= FIRST_PRINCIPAL_PROTOCOL) return decodePrincipal(headers.get(PRINCIPAL_HEADER));
    if (served.legacyRequests++ === 0) {
      log.warn(
        { window: served.handle.id, protocol: FIRST_PRINCIPAL_PROTOCOL },
        'window served through a broker older than this protocol: its requests use the legacy local-admin profile; restart or upgrade that broker before relying on a restricted scope',
      );
    }
    return { ...staticPrincipal(), legacy_profile: true };
  }

  private mcp(
    x: Exchange,
    served: Served,
    method: string,
    url: string,
    headers: { flat: string[]; map: Map<string, string> },
    protocol: number,
  ): void {
    const principal = this.principalOf(served, headers.map, protocol);
    if (principal === null) return sendRpcError(x, 400, -32000, 'Bad Request: the broker forwarded no valid principal');
    if (method !== 'POST') return this.forward(x, served, method, url, headers, null, principal);
    readBody(x, this.settings.max_body_bytes, (body) => this.forward(x, served, method, url, headers, body, principal));
  }

  private forward(
    x: Exchange,
    served: Served,
    method: string,
    url: string,
    headers: { flat: string[]; map: Map<string, string> },
    body: string | null,
    principal: Principal,
  ): void {
    if (x.aborted || x.done) return;
    const isStream = method === 'GET';
    const sink = new WindowSink(
      x,
      isStream,
      served.handle,
      this.registry,
      headers.map.get('mcp-session-id'),
      principal,
      this.settled,
      body,
    );
    if (isStream) this.streams.add(x);
    else {
      this.inFlight++;
      this.calls.add(sink);
    }
    // registered before forwarding: a window that answers at once ends the response, and uWS then refuses handlers
    x.res.onAborted(() => {
      x.aborted = true;
      sink.settle();
      sink.cancel();
    });
    sink.cancel = served.handle.forward({ method, url, headers: headers.flat, body, principal }, sink);
  }

  private readonly settled = (sink: WindowSink): void => {
    if (sink.isStream) this.streams.delete(sink.x);
    else {
      this.inFlight--;
      this.calls.delete(sink);
    }
  };

  /** A question of the owner's server view (the broker's page asks it for a window of this process). */
  private view(x: Exchange, served: Served): void {
    readBody(x, 64 * 1024, (text) => {
      const parsed = parseBody(ViewQuerySchema, text);
      if (!parsed.ok) return sendJson(x, 400, { error: `Invalid server view question: ${parsed.message}`, error_code: 'invalid_argument' });
      void served.handle.view(parsed.value).then((answer) => sendJson(x, 200, answer as object));
    });
  }

  /** The window's announcements to the server view, one event per batch of topics, while the broker listens. */
  private announcements(x: Exchange, served: Served): void {
    if (x.aborted || x.done) return;
    this.streams.add(x);
    const end = () => {
      stop();
      clearInterval(keepalive);
      this.streams.delete(x);
    };
    // a stream the shutdown ended (done) stops listening at its next write
    const write = (text: string) => {
      if (x.aborted || x.done) end();
      else x.res.cork(() => x.res.write(text));
    };
    const stop = this.registry.watchView((windowId, topics) => {
      if (windowId === served.handle.id) write(`data: ${JSON.stringify({ topics })}\n\n`);
    });
    const keepalive = setInterval(() => write(': keepalive\n\n'), KEEPALIVE_MS);
    keepalive.unref();
    x.res.onAborted(() => {
      x.aborted = true;
      end();
    });
    x.res.cork(() => {
      x.res.writeStatus(statusLine(200)).writeHeader('content-type', 'text/event-stream').writeHeader('cache-control', 'no-store');
      x.res.write(': open\n\n');
    });
  }

  private fence(x: Exchange, served: Served): void {
    readBody(x, 1024 * 1024, (text) => {
      const parsed = parseBody(FenceSchema, text);
      if (!parsed.ok) return sendJson(x, 400, { error: parsed.message });
      void served.handle
        .fence(parsed.value)
        .then((held) => sendJson(x, held ? 200 : 503, held ? { fenced: parsed.value.fence_id } : { error: 'the window is not running' }));
    });
  }
}
