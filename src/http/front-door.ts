// The front door, in the main thread, served by uWebSockets.js or node:http (transport.ts). Every request is
// checked for its header sizes and by the DNS-rebinding guard, then looked up in the one route table
// (front-door-routes.ts), which says who may call each route: the OAuth endpoints and the owner's routes
// come before the bearer check (they are how a client obtains a token, or need the owner rather than one),
// `/internal/` needs the directory secret, everything else a bearer token (the static one or an OAuth
// access token, resolved to a Principal). `/mcp` is forwarded to the session's window actor and the
// response streamed back; `/health`, `/instances` and the admin API are answered here.

import type { Settings } from '../settings/settings.js';
import type { WindowRegistry, RoutedWindow } from '../actors/registry.js';
import type { WindowHandle } from '../actors/window.js';
import { bearerToken, ensureToken, type StaticTokenVerifier } from '../auth/static-token.js';
import { staticPrincipal, type Principal } from '../auth/principal.js';
import { HostGuard } from './guard.js';
import { isEmptyBatch, nestedDeeperThan } from './json-depth.js';
import { connectionNamed, isHopByHop } from './hop-by-hop.js';
import { sendJson, sendRpcError, type Exchange, drainExchanges } from './respond.js';
import { WindowSink, cutAtShutdown } from './window-sink.js';
import { readBody, sendTooLarge } from './read-body.js';
import type { Incoming, Reply, Transport, TransportKind } from './transport.js';
import { MAX_HEADER_BYTES, MAX_HEADER_COUNT } from './transport.js';
import { createTransport } from './transports.js';
import type { BrokerHost } from '../broker/broker-host.js';
import { describeInstances, withoutHostDetails } from '../broker/instances.js';
import { ownerKey, pinOwner, pinRefusal } from '../actors/registry.js';
import { log } from '../util/log.js';
import type { RevokedIds } from '../actors/fences.js';
import { InFlightRequests, QueuedRequest } from './in-flight.js';
import type { InternalRoutes } from './internal-routes.js';
import type { Authority } from '../auth/oauth/authority.js';
import { baseUrl, bearerChallenge } from '../auth/oauth/metadata.js';
import { OAuthRoutes, guardedOrigin } from './oauth-routes.js';
import { AdminRoutes, adminRefusal } from './admin-routes.js';
import { OwnerRoutes } from './owner-routes.js';
import { OwnerSessions } from '../auth/owner-session.js';
import { ViewRoutes } from './view-routes.js';
import { frontDoorRoutes, methodNotAllowed, type FrontDoorRoutes, type RouteCall } from './front-door-routes.js';
import { unreachable } from '../util/unreachable.js';
import type { ConsentRequests } from '../auth/oauth/consent-requests.js';
import { auditEventsLost } from '../audit/stream.js';

/** Client headers never forwarded to a window: the credential, anything posing as a principal, the body's framing and hop-by-hop ones. */
function forwardable(name: string, named: ReadonlySet<string> | null): boolean {
  return name !== 'authorization' && !name.startsWith('x-athene-') && name !== 'content-length' && !isHopByHop(name, named);
}

export type { Incoming } from './transport.js';

export interface ListenResult {
  readonly port: number;
  readonly url: string;
  /** True when the configured port was taken and an ephemeral one was bound instead. */
  readonly fellBack: boolean;
}

export class FrontDoor {
  private readonly transport: Transport;
  private readonly guard: HostGuard;
  private port = 0;
  private readonly principal: Principal = staticPrincipal();
  /** Forwarded calls not yet answered (SSE streams excluded), for a bounded drain on shutdown. */
  private inFlight = 0;
  /** The same calls, answered with an error when the drain's grace period ends. */
  private readonly calls = new Set<WindowSink>();
  private expiry: NodeJS.Timeout | null = null;
  private readonly streams = new Set<Exchange>();
  private draining = false;
  /** OAuth requests accepted and not yet answered, for cutting them on revocation. */
  private readonly open = new InFlightRequests();
  /** The `/internal/` API; served only while this front door owns the configured endpoint. */
  private internal: InternalRoutes | null = null;
  private ownsEndpoint = false;
  /** The broker role, when this process owns the shared endpoint. */
  private broker: BrokerHost | null = null;

  private readonly routes: FrontDoorRoutes;
  private url = '';
  private readonly started = Date.now();

  /** `owner`: the owner-login key (from the directory secret) and the consent requests the CLI also answers. */
  constructor(
    private readonly settings: Settings,
    private readonly registry: WindowRegistry,
    private readonly verifier: StaticTokenVerifier,
    private readonly authority: Authority,
    home: string,
    transport: TransportKind,
    owner: { readonly key: Buffer; readonly consents: ConsentRequests; readonly version: string },
  ) {
    const sessions = new OwnerSessions(owner.key, () => this.port);
    const readBody = (x: Exchange, limit: number, then: (body: string) => void) => this.readBody(x, limit, then);
    const admin = new AdminRoutes(authority, home, verifier, registry, readBody);
    const view = new ViewRoutes({
      sessions,
      registry,
      brokered: () => this.broker?.registry ?? null,
      authority,
      consents: owner.consents,
      facts: () => ({ url: this.url, transport, version: owner.version, bind: settings.bind_address, started: this.started }),
      token: () => ensureToken(home),
      pending: () => this.pendingWrites(),
      streams: this.streams,
      readBody,
    });
    this.routes = frontDoorRoutes({
      oauth: new OAuthRoutes(authority, readBody, owner.consents, sessions, settings),
      owner: new OwnerRoutes(sessions, {
        decide: (id, approve) => this.decideHeld(id, approve),
        regenerate: () => admin.regenerateToken(),
      }),
      view,
      admin,
      mcp: (x, r, instance, principal) => this.mcp(x, r, instance, principal),
      health: (x) => void this.health(x),
      instances: (x, principal) => {
        const instances = this.instances();
        sendJson(x, 200, {
          instances: principal.capabilities.includes('server:admin') ? instances : instances.map(withoutHostDetails),
        });
      },
      pendingWrites: (x) => void this.listPending(x),
      notFound: (x, r) => sendRpcError(x, 404, -32601, `No route for ${r.method} ${r.path}`),
      readBody,
    });
    this.guard = new HostGuard(settings.bind_address, settings.allowed_hosts, settings.allowed_origins);
    this.transport = createTransport(transport, (r, res) => this.route(r, res));
  }

  /** The principal of a bearer token: the static token's local admin, or a live OAuth access token's. */
  private authenticate(token: string): Principal | null {
    return this.verifier.verify(token) ? this.principal : this.authority.principalFor(token);
  }

  /** Binds the configured port; when it is taken, an ephemeral one unless `fallback` is false (then it rejects). */
  async listen(fallback = true): Promise<ListenResult> {
    const bind = this.settings.bind_address;
    let port = await this.transport.listen(bind, this.settings.port);
    const fellBack = port === null && this.settings.port !== 0 && fallback;
    if (fellBack) port = await this.transport.listen(bind, 0);
    if (port === null) throw new Error(`cannot listen on ${bind}`);
    this.port = port;
    this.ownsEndpoint = !fellBack;
    this.watchIdleSessions();
    const host = bind.includes(':') ? `[${bind}]` : bind;
    this.url = `http://${host}:${port}/mcp`;
    return { port, url: this.url, fellBack };
  }

  /** Ends idle sessions every half timeout (at most every minute). */
  private watchIdleSessions(): void {
    if (this.expiry !== null) return;
    const idleMs = this.settings.session_idle_timeout_s * 1000;
    this.expiry = setInterval(
      () => {
        const n = this.registry.expireIdle(idleMs);
        if (n > 0) log.info({ sessions: n, idle_timeout_s: this.settings.session_idle_timeout_s }, 'idle sessions ended');
      },
      Math.max(250, Math.min(idleMs / 2, 60_000)),
    );
    this.expiry.unref();
  }

  /**
   * Stops accepting, lets in-flight calls finish (at most `graceMs`), then answers the calls still running
   * with a JSON-RPC error (rather than dropping their connections) and ends open streams.
   */
  async close(graceMs = 5000): Promise<void> {
    this.draining = true;
    if (this.expiry !== null) clearInterval(this.expiry);
    this.transport.stopListening();
    await drainExchanges(() => this.inFlight, this.streams, graceMs);
    const cut = await cutAtShutdown(this.calls, graceMs);
    if (cut > 0) log.warn({ calls: cut, grace_s: graceMs / 1000 }, 'calls cut at shutdown');
    // clients' idle keep-alive connections would keep a stopped front door (and its process) alive
    this.transport.closeAll();
  }

  private route(r: Incoming, res: Reply): void {
    const x: Exchange = { res, aborted: false, done: false, onAbort: undefined };
    // registered once per request (each registration is a call into the transport); later stages set x.onAbort
    res.onAborted(() => {
      x.aborted = true;
      x.onAbort?.();
    });
    if (r.headerCount > MAX_HEADER_COUNT || r.headerBytes > MAX_HEADER_BYTES) {
      return sendRpcError(
        x,
        431,
        -32000,
        `Request Header Fields Too Large: at most ${MAX_HEADER_COUNT} headers of ${MAX_HEADER_BYTES} bytes in all`,
      );
    }
    const origin = guardedOrigin(r.method, r.path, r.headers.get('origin') ?? '', r.headers.get('sec-fetch-site') ?? '');
    const refusal = this.guard.refusal(r.headers.get('host') ?? '', origin);
    if (refusal !== null) return sendRpcError(x, 403, -32000, `Forbidden: ${refusal}`);
    const { route, params, methodAllowed } = this.routes.match(r.method, r.path);
    const call: RouteCall = { x, r, params };
    switch (route.access) {
      case 'oauth':
        if (!methodAllowed) return methodNotAllowed(route, x, r.path);
        // the public base URL is needed only by the OAuth routes and the 401 challenge, not per /mcp call
        return route.handle(call, this.baseUrl(r));
      case 'owner':
        if (!methodAllowed) return methodNotAllowed(route, x, r.path);
        return route.handle(call);
      case 'internal': {
        if (this.internal === null || !this.ownsEndpoint)
          return sendRpcError(
            x,
            404,
            -32601,
            `No route for ${r.method} ${r.path}: the internal API exists only where the endpoint is owned`,
          );
        if (!this.internal.admits(x, r)) return;
        if (!methodAllowed) return methodNotAllowed(route, x, r.path);
        return route.handle(call, { internal: this.internal, broker: this.broker });
      }
      case 'bearer':
      case 'admin': {
        const principal = this.bearer(x, r);
        if (principal === null) return;
        if (route.access === 'admin') {
          const denied = adminRefusal(principal);
          if (denied !== null) return sendJson(x, 403, { error: denied, error_code: 'authorization_denied' });
        }
        if (!methodAllowed) return methodNotAllowed(route, x, r.path);
        return route.handle(call, principal);
      }
      default:
        return unreachable(route);
    }
  }

  private baseUrl(r: Incoming): string {
    return baseUrl(r.headers.get('host') ?? '', this.settings.bind_address, this.port);
  }

  /** The principal of the request's bearer token; null when the 401 (or, while draining, the 503) was sent. */
  private bearer(x: Exchange, r: Incoming): Principal | null {
    const token = bearerToken(r.headers.get('authorization'));
    const principal = token === null ? null : this.authenticate(token);
    if (principal === null) {
      sendRpcError(x, 401, -32001, token === null ? 'Unauthorized: a bearer token is required' : 'Unauthorized: invalid bearer token', [
        ['www-authenticate', bearerChallenge(this.baseUrl(r), token !== null)],
      ]);
      return null;
    }
    if (this.draining) {
      sendRpcError(x, 503, -32000, 'The server is shutting down');
      return null;
    }
    return principal;
  }

  /** Serves the broker's registration API under `/internal/` (this process owns the shared endpoint). */
  serveBroker(host: BrokerHost): void {
    this.broker = host;
  }

  /** Serves `/internal/` with `routes` (same-OS-user API; no bearer token). */
  serveInternal(routes: InternalRoutes): void {
    this.internal = routes;
  }

  /**
   * Revocation: answers every accepted, unanswered request the revocation covers with 401 and aborts it at
   * its window; returns how many calls were cut (event streams are ended too, but not counted).
   */
  cutInFlight(revoked: RevokedIds): number {
    return this.open.cut(revoked);
  }

  private instances() {
    return describeInstances(this.registry, this.broker?.registry ?? null);
  }

  /** `degraded` while any window is restarting or failed; each window's state, reason and restart count; session expiry; audit events lost. */
  private async health(x: Exchange): Promise<void> {
    const lost = (await Promise.all(this.registry.local.map((w) => w.auditLost()))).reduce((a, b) => a + b, auditEventsLost());
    const windows = this.instances().map((i) => ({ id: i.id, label: i.label, state: i.state, reason: i.reason, restarts: i.restarts }));
    const degraded = windows.some((w) => w.state === 'restarting' || w.state === 'failed');
    sendJson(x, 200, {
      status: degraded ? 'degraded' : 'ok',
      windows: windows.length,
      sessions: this.registry.sessionCount,
      session_idle_timeout_s: this.settings.session_idle_timeout_s,
      sessions_expired: this.registry.expired,
      max_sessions: this.settings.max_sessions,
      max_sessions_per_principal: this.settings.max_sessions_per_principal,
      instances: windows,
      journal: journalCounts(this.registry.local),
      audit_events_lost: lost,
    });
  }

  /** Null when `principal` may open another session; else the refusal (429 for its own cap, 503 for the server's). */
  private sessionCap(principal: Principal): { status: number; message: string } | null {
    if (this.registry.sessionCount >= this.settings.max_sessions) {
      return {
        status: 503,
        message: `The server holds its maximum of ${this.settings.max_sessions} sessions; close one (DELETE) or retry later`,
      };
    }
    if (this.registry.sessionsOf(ownerKey(pinOwner(principal))) >= this.settings.max_sessions_per_principal) {
      return {
        status: 429,
        message: `This client holds its maximum of ${this.settings.max_sessions_per_principal} sessions; close one (DELETE) before opening another`,
      };
    }
    return null;
  }

  private async listPending(x: Exchange): Promise<void> {
    sendJson(x, 200, { pending: await this.pendingWrites() });
  }

  /** Decides a held write in whichever window holds it; false when none does. */
  decideHeld(approvalId: string, approve: boolean): Promise<boolean> {
    return Promise.all(this.registry.all.map((w) => w.decide(approvalId, approve))).then((found) => found.some(Boolean));
  }

  /** Every held write of every window. */
  async pendingWrites(): Promise<unknown[]> {
    return (await Promise.all(this.registry.all.map((w) => w.listApprovals()))).flat();
  }

  /** `/mcp` (instanceId null: new sessions go to the newest window) or `/instances/{id}/mcp` (that window). */
  private mcp(x: Exchange, r: Incoming, instanceId: string | null, principal: Principal): void {
    if (r.method !== 'POST' && r.method !== 'GET' && r.method !== 'DELETE') {
      return sendRpcError(x, 405, -32000, 'Method not allowed', [['allow', 'GET, POST, DELETE']]);
    }
    const sessionId = r.headers.get('mcp-session-id');
    let window: RoutedWindow | undefined;
    if (sessionId !== undefined) {
      const pin = this.registry.pinOf(sessionId);
      if (pin === undefined) return sendRpcError(x, 404, -32001, 'Session not found');
      if (pin.kind === 'crashed') {
        this.registry.unpin(sessionId);
        return sendRpcError(x, 404, -32001, pin.message);
      }
      const foreign = pinRefusal(pin.owner, principal);
      if (foreign !== null) return sendRpcError(x, 403, -32000, `Forbidden: ${foreign}`);
      pin.lastUsed = performance.now();
      window = pin.window;
      if (instanceId !== null && window.id !== instanceId) return sendRpcError(x, 404, -32001, 'Session not found on this instance');
    } else if (instanceId !== null) {
      window = this.registry.byId(instanceId);
      if (window === undefined) return sendRpcError(x, 404, -32001, `No instance ${instanceId}; see GET /instances`);
    } else {
      window = this.registry.newest();
      if (window === undefined) return sendRpcError(x, 503, -32000, this.noWindow());
    }
    const unavailable = window.unavailable?.() ?? null;
    if (unavailable !== null) return sendRpcError(x, 503, -32000, unavailable);
    if (window.quarantined === true) {
      return sendRpcError(
        x,
        503,
        -32000,
        `Instance ${window.id} is quarantined (its process stopped heartbeating or left the broker); it takes no requests`,
      );
    }
    if (r.method !== 'POST') return this.forward(x, r, window, null, principal);
    if (sessionId === undefined) {
      const capped = this.sessionCap(principal);
      if (capped !== null) return sendRpcError(x, capped.status, -32000, capped.message);
    }
    const type = r.headers.get('content-type') ?? '';
    if (!type.toLowerCase().includes('application/json')) {
      return sendRpcError(x, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    }
    const limit = this.settings.max_body_bytes;
    const declared = Number(r.headers.get('content-length') ?? '0');
    if (declared > limit) return this.tooLarge(x, limit);
    const queued = new QueuedRequest(x, principal);
    this.open.add(queued);
    x.onAbort = () => this.open.delete(queued);
    this.readBody(x, limit, (body) => {
      this.open.delete(queued);
      if (isEmptyBatch(body)) return sendRpcError(x, 400, -32600, 'Invalid Request: an empty batch');
      const depth = this.settings.max_json_depth;
      if (nestedDeeperThan(body, depth)) return sendRpcError(x, 400, -32600, `Invalid Request: JSON nested deeper than ${depth} levels`);
      // Only a session-less request is parsed here (it must be an initialize); the window parses the rest.
      if (sessionId === undefined && !isJson(body)) return sendRpcError(x, 400, -32700, 'Parse error: the body is not valid JSON');
      this.forward(x, r, window, body, principal);
    });
  }

  private tooLarge(x: Exchange, limit: number): void {
    sendTooLarge(x, limit);
  }

  private readBody(x: Exchange, limit: number, then: (body: string) => void): void {
    readBody(x, limit, then);
  }

  private forward(x: Exchange, r: Incoming, window: RoutedWindow, body: string | null, principal: Principal): void {
    if (x.aborted || x.done) return;
    const headers: string[] = [];
    const named = connectionNamed(r.headers.get('connection'));
    for (const [k, v] of r.headers) if (forwardable(k, named)) headers.push(k, v);
    const isStream = r.method === 'GET';
    const sink = new WindowSink(x, isStream, window, this.registry, r.headers.get('mcp-session-id'), principal, this.settled, body);
    if (isStream) {
      this.streams.add(x);
      this.streamOpened(sink.sessionId, 1);
    } else {
      this.inFlight++;
      this.calls.add(sink);
    }
    this.open.add(sink);
    x.onAbort = () => {
      sink.settle();
      sink.cancel();
    };
    sink.cancel = window.forward(
      { method: r.method, url: r.query === '' ? r.path : `${r.path}?${r.query}`, headers, body, principal },
      sink,
    );
  }

  /** Why no window takes a new session: none open, or each one's reason. */
  private noWindow(): string {
    const reasons = this.registry.all.map((w) => w.unavailable?.() ?? null).filter((m): m is string => m !== null);
    return reasons.length === 0 ? 'No window is open' : `No window is serving: ${reasons.join('; ')}`;
  }

  /** A forwarded request is over: stop counting it for the drain. */
  private readonly settled = (sink: WindowSink): void => {
    this.open.delete(sink);
    if (sink.isStream) {
      this.streams.delete(sink.x);
      this.streamOpened(sink.sessionId, -1);
    } else {
      this.inFlight--;
      this.calls.delete(sink);
    }
  };

  /** A session with an open event stream is in use: it does not expire while the stream lasts. */
  private streamOpened(sessionId: string | undefined, delta: 1 | -1): void {
    const pin = sessionId === undefined ? undefined : this.registry.pinOf(sessionId);
    if (pin?.kind !== 'live') return;
    pin.streams = Math.max(0, pin.streams + delta);
    pin.lastUsed = performance.now();
  }
}

/** This process's windows' change-journal recovery counts, summed. */
function journalCounts(windows: readonly WindowHandle[]): { recovered: number; pending_recovery: number } {
  let recovered = 0,
    pending = 0;
  for (const w of windows) {
    recovered += w.journal.recovered;
    pending += w.journal.pending_recovery;
  }
  return { recovered, pending_recovery: pending };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
