// Every route of the front door, in one table: its methods, its path, who may call it and its handler.
// The front door (front-door.ts) checks the header limits and the Host/Origin guard before it looks a
// route up, then the route's access class, then its method (405 with `Allow`), then calls the handler:
//   oauth     the OAuth endpoints, answered without a credential (they are how a client gets one);
//   owner     the owner's login link, actions and server view: each checks the owner session itself (a
//             page refuses with a 401 page, an action with 403 owner_required);
//   internal  the same-OS-user API: only while this process owns the endpoint, with the directory secret;
//   bearer    a bearer token (401 with the OAuth challenge first), refused with 503 while draining;
//   admin     bearer, and the principal holds server:admin (403).
// Any path not declared here is a bearer route answering the JSON-RPC 404.

import type { Principal } from '../auth/principal.js';
import { MCP_RESOURCE_METADATA_PATH, OAUTH_PATHS } from '../auth/oauth/metadata.js';
import { OWNER_LOGIN_PATH } from '../auth/owner-session.js';
import type { BrokerHost } from '../broker/broker-host.js';
import { MAX_REGISTRATION_BYTES } from '../broker/registration.js';
import { CLIENTS_ROUTE, REVOKE_CLIENT_ROUTE, TOOL_PROFILE_ROUTE, type AdminRoutes } from './admin-routes.js';
import type { InternalRoutes } from './internal-routes.js';
import { CONSENT_WAIT_PATH, type OAuthRoutes } from './oauth-routes.js';
import { APPROVAL_ROUTE, REGENERATE_ROUTE, type OwnerRoutes } from './owner-routes.js';
import { sendJson, sendRpcError, type Exchange } from './respond.js';
import { RouteTable, type RouteMatch, type RouteSpec } from './route-table.js';
import type { Incoming } from './transport.js';
import { unreachable } from '../util/unreachable.js';
import { VIEW_API, VIEW_ASSETS_PATH, VIEW_PAGE_PATHS, type ViewRoutes } from './view-routes.js';

export type Access = 'oauth' | 'owner' | 'internal' | 'bearer' | 'admin';

/** One request on its route: `params` are the route pattern's groups, undecoded. */
export interface RouteCall {
  readonly x: Exchange;
  readonly r: Incoming;
  readonly params: readonly string[];
}

/** What serves `/internal/` once the front door admitted a request there. */
export interface InternalServers {
  readonly internal: InternalRoutes;
  /** Present while this process is the broker. */
  readonly broker: BrokerHost | null;
}

export type FrontDoorRoute = RouteSpec &
  (
    | { readonly access: 'oauth'; handle(call: RouteCall, base: string): void }
    | { readonly access: 'owner'; handle(call: RouteCall): void }
    | { readonly access: 'internal'; handle(call: RouteCall, servers: InternalServers): void }
    | { readonly access: 'bearer' | 'admin'; handle(call: RouteCall, principal: Principal): void }
  );

/** The handlers the table points at: the route families and the front door's own answers. */
export interface RouteHandlers {
  readonly oauth: OAuthRoutes;
  readonly owner: OwnerRoutes;
  readonly view: ViewRoutes;
  readonly admin: AdminRoutes;
  /** `/mcp` (instance null) and `/instances/{id}/mcp`. */
  mcp(x: Exchange, r: Incoming, instance: string | null, principal: Principal): void;
  health(x: Exchange): void;
  instances(x: Exchange, principal: Principal): void;
  pendingWrites(x: Exchange): void;
  /** The JSON-RPC 404 of a path no route serves. */
  notFound(x: Exchange, r: Incoming): void;
  /** Reads a whole body of at most `limit` bytes (413 beyond it). */
  readBody(x: Exchange, limit: number, then: (body: string) => void): void;
}

/** The 405 of a route's path asked with another method, in its access class's own error shape, with `Allow`. */
export function methodNotAllowed(route: FrontDoorRoute, x: Exchange, path: string): void {
  const allow = route.methods === 'any' ? '' : route.methods.join(', ');
  const headers = [['allow', allow]] as const;
  switch (route.access) {
    case 'oauth':
      return sendJson(x, 405, { error: 'invalid_request', error_description: `Method not allowed; use ${allow}` }, headers);
    case 'internal':
      return sendJson(x, 405, { error: 'method_not_allowed', error_description: `${path} takes ${allow}` }, headers);
    case 'owner':
    case 'admin':
      return sendJson(x, 405, { error: `Method not allowed; use ${allow}`, error_code: 'method_not_allowed' }, headers);
    case 'bearer':
      return sendRpcError(x, 405, -32000, 'Method not allowed', headers);
    default:
      return unreachable(route);
  }
}

const MCP_METHODS = ['GET', 'POST', 'DELETE'];
const INSTANCE_MCP_ROUTE = /^\/instances\/([^/]+)\/mcp$/;

/** The front door's routes, in the order a reader should see them (exact paths never lie under an earlier pattern). */
export function frontDoorRoutes(h: RouteHandlers): FrontDoorRoutes {
  const oauthMetadata = (path: string): FrontDoorRoute => ({
    methods: ['GET'],
    path,
    access: 'oauth',
    handle: ({ x, r }, base) => h.oauth.metadata(x, r, base),
  });
  const internalGet = (path: string, answer: (routes: InternalRoutes, x: Exchange) => void | Promise<void>): FrontDoorRoute => ({
    methods: ['GET'],
    path,
    access: 'internal',
    handle: ({ x }, { internal }) => internal.get(x, answer),
  });
  const internalPost = (
    path: string,
    answer: (routes: InternalRoutes, x: Exchange, body: unknown) => void | Promise<void>,
  ): FrontDoorRoute => ({
    methods: ['POST'],
    path,
    access: 'internal',
    handle: ({ x, r }, { internal }) => internal.post(x, r, answer),
  });
  /** A route of the broker role; where this process is not the broker, no such route exists. */
  const broker = (method: 'GET' | 'POST', path: string, answer: (broker: BrokerHost, call: RouteCall) => void): FrontDoorRoute => ({
    methods: [method],
    path,
    access: 'internal',
    handle: (call, servers) => (servers.broker === null ? servers.internal.notFound(call.x, call.r) : answer(servers.broker, call)),
  });
  const brokerPost = (path: string, answer: (broker: BrokerHost, x: Exchange, body: string) => void): FrontDoorRoute =>
    broker('POST', path, (b, { x }) => h.readBody(x, MAX_REGISTRATION_BYTES, (body) => answer(b, x, body)));
  const viewPage = (path: string): FrontDoorRoute => ({ methods: ['GET'], path, access: 'owner', handle: ({ x, r }) => h.view.page(x, r) });

  const routes: FrontDoorRoute[] = [
    // the broker role's registration API (INTERFACE.md 9)
    broker('GET', '/internal/broker', (b, { x }) => b.describe(x)),
    broker('GET', '/internal/instances', (b, { x }) => b.instances(x)),
    brokerPost('/internal/register', (b, x, body) => b.register(x, body)),
    brokerPost('/internal/heartbeat', (b, x, body) => b.heartbeat(x, body)),
    brokerPost('/internal/deregister', (b, x, body) => b.deregister(x, body)),
    brokerPost('/internal/takeover', (b, x, body) => b.takeoverRequest(x, body)),
    // the `athene clients|consent|pending` commands
    internalGet('/internal/clients', (i, x) => i.clients(x)),
    internalPost('/internal/revoke-client', (i, x, body) => i.revokeClient(x, body)),
    internalPost('/internal/terminate-session', (i, x, body) => i.terminateSession(x, body)),
    internalGet('/internal/consents', (i, x) => i.listConsents(x)),
    internalPost('/internal/consents/decide', (i, x, body) => i.decideConsent(x, body)),
    internalGet('/internal/pending', (i, x) => i.listPending(x)),
    internalPost('/internal/pending/decide', (i, x, body) => i.decidePending(x, body)),
    { methods: 'any', path: { prefix: '/internal/' }, access: 'internal', handle: ({ x, r }, { internal }) => internal.notFound(x, r) },

    oauthMetadata(OAUTH_PATHS.protectedResource),
    oauthMetadata(MCP_RESOURCE_METADATA_PATH),
    oauthMetadata(OAUTH_PATHS.authorizationServer),
    { methods: ['POST'], path: OAUTH_PATHS.register, access: 'oauth', handle: ({ x, r }) => h.oauth.register(x, r) },
    { methods: ['GET', 'POST'], path: OAUTH_PATHS.authorize, access: 'oauth', handle: ({ x, r }) => h.oauth.consent(x, r) },
    { methods: ['GET'], path: CONSENT_WAIT_PATH, access: 'oauth', handle: ({ x, r }) => h.oauth.consentWait(x, r) },
    { methods: ['POST'], path: OAUTH_PATHS.token, access: 'oauth', handle: ({ x, r }) => h.oauth.tokenEndpoint(x, r) },
    { methods: ['POST'], path: OAUTH_PATHS.revoke, access: 'oauth', handle: ({ x, r }) => h.oauth.revocationEndpoint(x, r) },
    { methods: 'any', path: { prefix: '/.well-known/' }, access: 'oauth', handle: ({ x, r }) => h.oauth.notFound(x, r) },
    { methods: 'any', path: { prefix: '/oauth/' }, access: 'oauth', handle: ({ x, r }) => h.oauth.notFound(x, r) },

    { methods: ['GET'], path: OWNER_LOGIN_PATH, access: 'owner', handle: ({ x, r }) => h.owner.login(x, r) },
    {
      methods: ['POST'],
      path: APPROVAL_ROUTE,
      access: 'owner',
      // the route pattern's groups always take part in a match
      handle: ({ x, r, params }) => h.owner.decideHeld(x, r, params[0]!, params[1] === 'approve'),
    },
    { methods: ['POST'], path: REGENERATE_ROUTE, access: 'owner', handle: ({ x, r }) => h.owner.regenerateToken(x, r) },
    ...VIEW_PAGE_PATHS.map(viewPage),
    { methods: ['GET'], path: { prefix: VIEW_ASSETS_PATH }, access: 'owner', handle: ({ x, r }) => h.view.asset(x, r) },
    { methods: ['GET', 'POST'], path: { prefix: VIEW_API }, access: 'owner', handle: ({ x, r }) => h.view.api(x, r) },

    { methods: MCP_METHODS, path: '/mcp', access: 'bearer', handle: ({ x, r }, principal) => h.mcp(x, r, null, principal) },
    {
      methods: MCP_METHODS,
      path: INSTANCE_MCP_ROUTE,
      access: 'bearer',
      handle: ({ x, r, params }, principal) => h.mcp(x, r, decodeURIComponent(params[0]!), principal),
    },
    { methods: ['GET'], path: CLIENTS_ROUTE, access: 'admin', handle: ({ x }) => h.admin.clients(x) },
    {
      methods: ['POST'],
      path: REVOKE_CLIENT_ROUTE,
      access: 'admin',
      handle: ({ x, params }) => void h.admin.revokeClient(x, decodeURIComponent(params[0]!)),
    },
    { methods: ['GET', 'PUT'], path: TOOL_PROFILE_ROUTE, access: 'admin', handle: ({ x, r }) => h.admin.toolProfile(x, r.method) },
    { methods: ['GET'], path: '/admin/api/pending', access: 'admin', handle: ({ x }) => h.pendingWrites(x) },
    { methods: 'any', path: { prefix: '/admin/' }, access: 'admin', handle: ({ x, r }) => h.notFound(x, r) },
    { methods: ['GET'], path: '/health', access: 'bearer', handle: ({ x }) => h.health(x) },
    { methods: ['GET'], path: '/instances', access: 'bearer', handle: ({ x }, principal) => h.instances(x, principal) },
  ];
  const undeclared: FrontDoorRoute = { methods: 'any', path: { prefix: '/' }, access: 'bearer', handle: ({ x, r }) => h.notFound(x, r) };
  return new FrontDoorRoutes(new RouteTable(routes), { route: undeclared, params: [], methodAllowed: true });
}

/** The table, and the route of every path it does not declare: a bearer route answering the JSON-RPC 404. */
export class FrontDoorRoutes {
  constructor(
    private readonly table: RouteTable<FrontDoorRoute>,
    private readonly undeclared: RouteMatch<FrontDoorRoute>,
  ) {}

  match(method: string, path: string): RouteMatch<FrontDoorRoute> {
    return this.table.match(method, path) ?? this.undeclared;
  }
}
