// The server view (issue 17): the owner's web page at `/` and `/admin/*`, its script and style under
// `/admin/assets/`, and the JSON it reads and acts through under `/admin/view/`. Everything needs the owner
// session's cookie; every state-changing request also its CSRF token (`x-athene-csrf`); the Host and
// Origin checks of the front door ran before. Live updates are one Server-Sent Events stream per page
// (view-events.ts); the page refetches what an event names, so it stays right across reconnects.

import { readFile } from 'node:fs/promises';
import { OWNER_CSRF_HEADER, type OwnerSession, type OwnerSessions } from '../auth/owner-session.js';
import type { Authority } from '../auth/oauth/authority.js';
import type { ConsentRequests } from '../auth/oauth/consent-requests.js';
import type { WindowRegistry } from '../actors/registry.js';
import type { Pulse, ViewQuery } from '../actors/window-view.js';
import type { WindowHandle } from '../actors/window.js';
import { describeInstances } from '../broker/instances.js';
import type { BrokerRegistry } from '../broker/broker-registry.js';
import { CAPABILITY_WORDS, errorPage } from '../web/consent-page.js';
import { VIEW_SECTIONS_TITLES } from '../web/app/sections.js';
import { VIEW_ASSETS, VIEW_STYLE, shellPage, viewHeaders } from '../web/view-page.js';
import type { Incoming } from './transport.js';
import { sendJson, statusLine, type Exchange } from './respond.js';
import { ViewEvents } from './view-events.js';

/** The page's paths; each section's (`/admin/<section>`) opens the page on it. */
export const VIEW_PAGE_PATHS: readonly string[] = ['/', '/admin', '/admin/', ...VIEW_SECTIONS_TITLES.map(([s]) => `/admin/${s}`)];
export const VIEW_API = '/admin/view/';
export const VIEW_ASSETS_PATH = '/admin/assets/';
const BODY_LIMIT = 4096;
const CLASS_PAGE = 200;
const FEED_LIMIT = 100;
/** The HTTP status of a window's refusal; any other error code is the request's fault (400). */
const ANSWER_STATUS: Readonly<Record<string, number>> = {
  not_found: 404,
  not_loaded: 404,
  window_unavailable: 503,
  internal_error: 500,
  read_only: 409,
  journal_disabled: 409,
};

export interface ViewDeps {
  readonly sessions: OwnerSessions;
  readonly registry: WindowRegistry;
  readonly brokered: () => BrokerRegistry | null;
  readonly authority: Authority;
  readonly consents: ConsentRequests;
  readonly facts: () => { url: string; transport: string; version: string; bind: string; started: number };
  readonly token: () => Promise<string>;
  readonly pending: () => Promise<unknown[]>;
  /** The front door's open streams, so a shutdown ends the page's event stream too. */
  readonly streams: Set<Exchange>;
  readonly readBody: (x: Exchange, limit: number, then: (body: string) => void) => void;
}

function text(x: Exchange, status: number, body: string | Uint8Array, headers: readonly (readonly [string, string])[]): void {
  if (x.aborted || x.done) return;
  x.done = true;
  x.res.cork(() => {
    x.res.writeStatus(statusLine(status));
    for (const [k, v] of headers) x.res.writeHeader(k, v);
    x.res.end(body);
  });
}

const NO_STORE = [['cache-control', 'no-store']] as const;
const fail = (x: Exchange, status: number, error: string, code: string) => sendJson(x, status, { error, error_code: code }, NO_STORE);

/** The JSON object of a request body, or null when it is not one. */
function jsonObject(body: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(body) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const SIGN_IN = 'Run `athene open` on the machine this server runs on and follow the single-use login link it prints.';

export class ViewRoutes {
  private readonly events: ViewEvents;
  /** The compiled page modules, read once. */
  private readonly assets = new Map<string, Promise<Buffer | null>>();

  constructor(private readonly deps: ViewDeps) {
    this.events = new ViewEvents(deps.sessions, deps.registry, deps.streams);
    deps.consents.onChange(() => this.events.announce('consent'));
    deps.authority.onRevoked(() => this.events.announce('clients', 'windows', 'overview'));
  }

  /** `GET` of the page, opened on a section (`/admin/<section>`) or the first one. */
  page(x: Exchange, r: Incoming): void {
    const session = this.signedIn(x, r, true);
    if (session !== null) text(x, 200, shellPage(session.csrf, this.firstWindow()), viewHeaders());
  }

  /** `GET /admin/assets/<name>`: the page's script modules and style. */
  asset(x: Exchange, r: Incoming): void {
    if (this.signedIn(x, r, true) !== null) void this.sendAsset(x, r.path.slice(VIEW_ASSETS_PATH.length));
  }

  /** `/admin/view/<route>`: `GET` reads (or opens the event stream), `POST` acts with the session's CSRF token. */
  api(x: Exchange, r: Incoming): void {
    const session = this.signedIn(x, r, false);
    if (session === null) return;
    const route = r.path.slice(VIEW_API.length);
    if (r.method === 'GET') {
      if (route === 'events') this.events.open(x, r.headers.get('cookie') ?? '');
      else void this.read(x, route, new URLSearchParams(r.query));
      return;
    }
    if (!this.csrfOk(session, r)) {
      return fail(
        x,
        403,
        `A state-changing request of the server view must carry the owner session's CSRF token in ${OWNER_CSRF_HEADER}`,
        'owner_required',
      );
    }
    this.deps.readBody(x, BODY_LIMIT, (body) => {
      const args = body === '' ? {} : jsonObject(body);
      if (args === null) return fail(x, 400, 'The body must be a JSON object', 'invalid_argument');
      this.act(x, route, args).catch((err: Error) => fail(x, 500, err.message, 'internal_error'));
    });
  }

  /** The owner session `r` belongs to; null when there is none (the 401 is sent: a page for the page and its assets). */
  private signedIn(x: Exchange, r: Incoming, asPage: boolean): OwnerSession | null {
    const session = this.deps.sessions.session(r.headers.get('cookie') ?? '');
    if (session !== null) return session;
    if (asPage) text(x, 401, errorPage('Not signed in as the owner', SIGN_IN), viewHeaders());
    else fail(x, 401, `The server view needs the owner session. ${SIGN_IN}`, 'owner_required');
    return null;
  }

  /** The window the page opens its feed and ontology browser on: this process's newest serving one. */
  private firstWindow(): string | null {
    let best: WindowHandle | null = null;
    for (const w of this.deps.registry.local)
      if (w.unavailable() === null && (best === null || w.connectedAt >= best.connectedAt)) best = w;
    return best?.id ?? null;
  }

  private csrfOk(session: OwnerSession, r: Incoming): boolean {
    return this.deps.sessions.authorize(r.headers.get('cookie') ?? '', r.headers.get(OWNER_CSRF_HEADER) ?? '') === session;
  }

  private async sendAsset(x: Exchange, name: string): Promise<void> {
    if (name === 'view.css') return text(x, 200, VIEW_STYLE, [['content-type', 'text/css; charset=utf-8'], ...viewHeaders().slice(1)]);
    if (!VIEW_ASSETS.includes(name)) return fail(x, 404, `No asset ${name}`, 'not_found');
    let body = this.assets.get(name);
    if (body === undefined) {
      body = readFile(new URL(`../web/app/${name}`, import.meta.url)).catch(() => null);
      this.assets.set(name, body);
    }
    const bytes = await body;
    if (bytes === null) return fail(x, 404, `No asset ${name}`, 'not_found');
    text(x, 200, bytes, [['content-type', 'text/javascript; charset=utf-8'], ...viewHeaders().slice(1)]);
  }

  /** Asks a window: one of this process, or of another process behind the broker (its backend answers for it). */
  private async ask(x: Exchange, windowId: string, query: ViewQuery): Promise<void> {
    const w = this.deps.registry.byId(windowId);
    if (w === undefined) return fail(x, 404, `No window ${windowId}`, 'not_found');
    const answer = await w.view(query);
    const error = (answer as { error?: unknown; error_code?: unknown }).error_code;
    sendJson(x, error === undefined ? 200 : (ANSWER_STATUS[String(error)] ?? 400), answer, NO_STORE);
  }

  private async read(x: Exchange, route: string, q: URLSearchParams): Promise<void> {
    const inWindow = /^windows\/([^/]+)\/(changes|classes|entity|search)$/.exec(route);
    if (inWindow !== null) {
      const id = decodeURIComponent(inWindow[1]!); // the pattern's groups always take part
      switch (inWindow[2]) {
        case 'changes':
          return this.ask(x, id, {
            kind: 'changes',
            limit: FEED_LIMIT,
            ...optional('client', q.get('client')),
            ...optional('entity', q.get('entity')),
          });
        case 'classes': {
          const offset = Number(q.get('offset') ?? '0');
          if (!Number.isSafeInteger(offset) || offset < 0) return fail(x, 400, 'offset must be a non-negative integer', 'invalid_argument');
          return this.ask(x, id, { kind: 'classes', parent: q.get('parent') || null, offset, limit: CLASS_PAGE });
        }
        case 'entity':
          return this.ask(x, id, { kind: 'entity', iri: q.get('iri') ?? '' });
        default:
          return this.ask(x, id, { kind: 'search', query: q.get('q') ?? '' });
      }
    }
    switch (route) {
      case 'overview':
        return sendJson(x, 200, this.overview(), NO_STORE);
      case 'windows':
        return sendJson(x, 200, { windows: await this.windows() }, NO_STORE);
      case 'clients':
        return sendJson(x, 200, this.clients(), NO_STORE);
      case 'pending':
        return sendJson(x, 200, { pending: await this.deps.pending() }, NO_STORE);
      case 'consents':
        return sendJson(x, 200, { consents: this.consentList() }, NO_STORE);
      default:
        return fail(x, 404, `No server view route GET ${route}`, 'not_found');
    }
  }

  private async act(x: Exchange, route: string, args: Record<string, unknown>): Promise<void> {
    if (route === 'token') return sendJson(x, 200, { token: await this.deps.token() }, NO_STORE);
    if (route === 'write-modes') return this.writeModes(x, args);
    const m = /^(clients|sessions|consents)\/([^/]+)\/(revoke|terminate|approve|deny)$/.exec(route);
    const id = m === null ? '' : decodeURIComponent(m[2]!); // the pattern's groups always take part
    if (m?.[1] === 'clients' && m[3] === 'revoke') return this.revoke(x, id);
    if (m?.[1] === 'sessions' && m[3] === 'terminate') {
      if (!this.deps.registry.terminate(id)) return fail(x, 404, `No session ${id}`, 'not_found');
      return sendJson(x, 200, { terminated: true, session_id: id }, NO_STORE);
    }
    if (m?.[1] === 'consents' && (m[3] === 'approve' || m[3] === 'deny')) {
      if (!this.deps.consents.decide(id, m[3] === 'approve')) return fail(x, 404, `No pending consent request ${id}`, 'not_found');
      return sendJson(x, 200, { id, decision: m[3] === 'approve' ? 'approved' : 'denied' }, NO_STORE);
    }
    const modes = /^windows\/([^/]+)\/write-modes$/.exec(route);
    if (modes !== null) {
      const { read_only, confirm_each_write } = args;
      if (typeof read_only !== 'boolean' || typeof confirm_each_write !== 'boolean')
        return fail(x, 400, 'write-modes takes {"read_only": <boolean>, "confirm_each_write": <boolean>}', 'invalid_argument');
      return this.ask(x, decodeURIComponent(modes[1]!), { kind: 'write-modes', read_only, confirm_each_write });
    }
    const revert = /^windows\/([^/]+)\/revert$/.exec(route);
    if (revert !== null) {
      const { seq, document } = args;
      if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1 || typeof document !== 'string' || document === '') {
        return fail(x, 400, 'revert takes {"seq": <journal entry>, "document": <its document>}', 'invalid_argument');
      }
      return this.ask(x, decodeURIComponent(revert[1]!), { kind: 'revert', seq, document });
    }
    fail(x, 404, `No server view route POST ${route}`, 'not_found');
  }

  private overview(): Record<string, unknown> {
    const f = this.deps.facts();
    return {
      url: f.url,
      transport: f.transport,
      version: f.version,
      bind: f.bind,
      uptime_s: Math.round((Date.now() - f.started) / 1000),
      started_at: new Date(f.started).toISOString(),
      ...this.deps.registry.writeModes,
      windows: this.deps.registry.all.length,
      sessions: this.deps.registry.sessionCount,
    };
  }

  private async writeModes(x: Exchange, args: Record<string, unknown>): Promise<void> {
    const current = this.deps.registry.writeModes;
    const pick = (name: 'read_only' | 'confirm_each_write'): boolean | null => {
      const v = args[name];
      return v === undefined ? current[name] : typeof v === 'boolean' ? v : null;
    };
    const read_only = pick('read_only'),
      confirm_each_write = pick('confirm_each_write');
    if (read_only === null || confirm_each_write === null)
      return fail(x, 400, 'read_only and confirm_each_write must be booleans', 'invalid_argument');
    await this.deps.registry.setWriteModes({ read_only, confirm_each_write });
    sendJson(x, 200, { read_only, confirm_each_write }, NO_STORE);
  }

  /**
   * Every window, other processes' too: each one's live state (dirty ontologies, write modes, recovery) and
   * unsaved journal entries, asked of the window itself (through the broker for another process's).
   */
  private async windows(): Promise<unknown[]> {
    const sessions = this.deps.registry.liveSessions();
    const local = new Set<string>(this.deps.registry.local.map((w) => w.id));
    return Promise.all(
      describeInstances(this.deps.registry, this.deps.brokered()).map(async (e) => {
        const w = this.deps.registry.byId(e.id);
        const running = w !== undefined && w.quarantined !== true && (w.unavailable?.() ?? null) === null;
        const [pulse, feed] = running
          ? await Promise.all([w.view({ kind: 'pulse' }), w.view({ kind: 'changes', limit: 1 })])
          : [null, null];
        const live = pulse !== null && (pulse as { error?: unknown }).error === undefined ? (pulse as Pulse) : null;
        return {
          ...e,
          local: local.has(e.id),
          pulse: live,
          journal: live?.recovery ?? null,
          unsaved: (feed as { unsaved?: number | null } | null)?.unsaved ?? null,
          session_list: sessions.filter((s) => s.window_id === e.id).map((s) => ({ session_id: s.session_id, name: s.about.name })),
        };
      }),
    );
  }

  private clients(): Record<string, unknown> {
    const now = performance.now();
    const sessions = this.deps.registry.liveSessions().map((s) => ({
      session_id: s.session_id,
      window_id: s.window_id,
      type: s.owner.type,
      client_id: s.owner.client_id,
      name: s.about.name,
      capabilities: s.about.capabilities,
      connected_at: new Date(s.about.since).toISOString(),
      last_call_at: new Date(Date.now() - (now - s.lastUsed)).toISOString(),
    }));
    const clients = this.deps.authority
      .listClients()
      .map((c) => ({ ...c, sessions: sessions.filter((s) => s.type === 'oauth' && s.client_id === c.client_id).length }));
    return { clients, sessions };
  }

  private async revoke(x: Exchange, clientId: string): Promise<void> {
    const { authority } = this.deps;
    if (authority.client(clientId) === undefined && !authority.listClients().some((c) => c.client_id === clientId))
      return fail(x, 404, `No OAuth client ${clientId}`, 'not_found');
    const result = await authority.revokeClient(clientId);
    if (!result.ok) return fail(x, 503, result.message, result.error);
    this.events.announce('clients');
    sendJson(x, 200, { revoked: true, client_id: clientId, grant_ids: result.grant_ids }, NO_STORE);
  }

  private consentList(): unknown[] {
    return this.deps.consents.pending().map((e) => ({
      id: e.id,
      client_id: e.request.client_id,
      client_name: this.deps.authority.client(e.request.client_id)?.client_name ?? null,
      redirect_uri: e.request.redirect_uri,
      scope: e.request.scope,
      expires_at: new Date(e.expires).toISOString(),
      capabilities: e.request.capabilities.map((c) => ({ capability: c, words: CAPABILITY_WORDS[c] })),
    }));
  }
}

function optional(name: string, value: string | null): Record<string, string> {
  return value === null || value === '' ? {} : { [name]: value };
}
