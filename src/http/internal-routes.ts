// The same-OS-user management API under `/internal/`: list OAuth clients with their connected sessions,
// revoke a client (with the fan-out's report), terminate a session, list and answer consent requests and
// held writes (the `athene consent|pending|clients` commands). Every request must carry the private
// directory secret (constant-time check, `admits`); bearer tokens play no part. Served only while this
// process's front door owns the configured endpoint; the paths are declared in front-door-routes.ts.

import * as v from 'valibot';
import type { Authority } from '../auth/oauth/authority.js';
import type { ConsentRequests } from '../auth/oauth/consent-requests.js';
import { DIRECTORY_SECRET_HEADER, type DirectorySecret } from '../auth/directory-secret.js';
import type { WindowRegistry } from '../actors/registry.js';
import type { RevocationFanout } from '../actors/revocation-fanout.js';
import type { Incoming } from './front-door.js';
import { sendJson, type Exchange } from './respond.js';
import { readBody } from './read-body.js';

/** Bodies of internal requests are small JSON objects. */
export const INTERNAL_BODY_LIMIT = 16 * 1024;

/** Answers one internal request; `body` is the parsed JSON of a POST, undefined for a GET. */
type InternalHandler = (x: Exchange, body: unknown) => void | Promise<void>;

/** The held writes of every window (the front door). */
export interface HeldWrites {
  pendingWrites(): Promise<unknown[]>;
  decideHeld(approvalId: string, approve: boolean): Promise<boolean>;
}

export interface InternalDeps {
  readonly secret: DirectorySecret;
  readonly authority: Authority;
  readonly registry: WindowRegistry;
  readonly fanout: RevocationFanout;
  /** Consent requests waiting for the owner (`athene consent`). */
  readonly consents: ConsentRequests;
  /** `athene pending`. */
  readonly held: HeldWrites;
}

const ID = v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters'));
const RevokeClientBody = v.strictObject({ client_id: ID }, 'the body must be an object holding only client_id');
const TerminateSessionBody = v.strictObject({ session_id: ID }, 'the body must be an object holding only session_id');
const DecideBody = v.strictObject(
  { id: ID, approve: v.boolean('must be a boolean') },
  'the body must be an object holding only id and approve',
);

function sendError(x: Exchange, status: number, error: string, description: string): void {
  sendJson(x, status, { error, error_description: description }, [['cache-control', 'no-store']]);
}

/** The body as `schema` describes it, or a 400 naming the first problem (and undefined). */
function validBody<T extends v.GenericSchema>(x: Exchange, schema: T, body: unknown): v.InferOutput<T> | undefined {
  const parsed = v.safeParse(schema, body);
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  const where = v.getDotPath(issue);
  sendError(x, 400, 'invalid_request', where === null ? issue.message : `${where}: ${issue.message}`);
  return undefined;
}

export class InternalRoutes {
  constructor(private readonly deps: InternalDeps) {}

  /** Whether `r` carries the private directory secret; if not, the 403 is sent. */
  admits(x: Exchange, r: Incoming): boolean {
    if (this.deps.secret.matches(r.headers.get(DIRECTORY_SECRET_HEADER))) return true;
    sendError(x, 403, 'forbidden', `the internal API needs the ${DIRECTORY_SECRET_HEADER} header holding the private directory secret`);
    return false;
  }

  /** Any other path under `/internal/`. */
  notFound(x: Exchange, r: Incoming): void {
    sendError(x, 404, 'not_found', `No internal route ${r.path}`);
  }

  /** Answers a GET route. */
  get(x: Exchange, handler: (routes: this, x: Exchange) => void | Promise<void>): void {
    this.run(x, (ex) => handler(this, ex), undefined);
  }

  /** Reads a POST route's JSON body (within INTERNAL_BODY_LIMIT), then answers it. */
  post(x: Exchange, r: Incoming, handler: (routes: this, x: Exchange, body: unknown) => void | Promise<void>): void {
    if (!(r.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')) {
      return sendError(x, 415, 'invalid_request', 'Content-Type must be application/json');
    }
    if (Number(r.headers.get('content-length') ?? '0') > INTERNAL_BODY_LIMIT) {
      return sendError(x, 413, 'invalid_request', `the body limit is ${INTERNAL_BODY_LIMIT} bytes`);
    }
    readBody(x, INTERNAL_BODY_LIMIT, (text) => {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch (err) {
        return sendError(x, 400, 'invalid_request', `the body is not valid JSON: ${(err as Error).message}`);
      }
      this.run(x, (ex, b) => handler(this, ex, b), body);
    });
  }

  private run(x: Exchange, handler: InternalHandler, body: unknown): void {
    Promise.resolve()
      .then(() => handler(x, body))
      .catch((err: Error) => sendError(x, 500, 'server_error', err.message));
  }

  clients(x: Exchange): void {
    const { authority, registry } = this.deps;
    const clients = authority.listClients().map((c) => {
      const sessions = registry.sessionsOfClient(c.client_id);
      return { ...c, connected_sessions: sessions.length, session_ids: sessions };
    });
    sendJson(x, 200, { clients }, [['cache-control', 'no-store']]);
  }

  async revokeClient(x: Exchange, raw: unknown): Promise<void> {
    const body = validBody(x, RevokeClientBody, raw);
    if (body === undefined) return;
    const { authority, fanout } = this.deps;
    const known = authority.client(body.client_id) !== undefined || authority.listClients().some((c) => c.client_id === body.client_id);
    if (!known) return sendError(x, 404, 'unknown_client', `No OAuth client ${body.client_id}`);
    const result = await authority.revokeClient(body.client_id);
    if (!result.ok) return sendError(x, 503, result.error, result.message);
    const fan = fanout.takeResult(body.client_id);
    sendJson(
      x,
      200,
      {
        revoked: true,
        client_id: body.client_id,
        grant_ids: result.grant_ids,
        in_flight_termination: fan?.in_flight_termination ?? false,
        terminated_in_flight_requests: fan?.terminated_in_flight_requests ?? 0,
        dropped_sessions: fan?.dropped_sessions ?? 0,
        fence_id: fan?.fence_id ?? null,
        fenced_windows: fan?.fenced_windows ?? [],
        pending_windows: fan?.pending_windows ?? [],
      },
      [['cache-control', 'no-store']],
    );
  }

  listConsents(x: Exchange): void {
    const consents = this.deps.consents.pending().map((e) => ({
      id: e.id,
      client_id: e.request.client_id,
      client_name: this.deps.authority.client(e.request.client_id)?.client_name ?? null,
      scope: e.request.scope,
      redirect_uri: e.request.redirect_uri,
      expires_at: new Date(e.expires).toISOString(),
    }));
    sendJson(x, 200, { consents }, [['cache-control', 'no-store']]);
  }

  decideConsent(x: Exchange, raw: unknown): void {
    const body = validBody(x, DecideBody, raw);
    if (body === undefined) return;
    if (!this.deps.consents.decide(body.id, body.approve))
      return sendError(x, 404, 'unknown_consent', `No pending consent request ${body.id}`);
    sendJson(x, 200, { id: body.id, decision: body.approve ? 'approved' : 'denied' }, [['cache-control', 'no-store']]);
  }

  async listPending(x: Exchange): Promise<void> {
    sendJson(x, 200, { pending: await this.deps.held.pendingWrites() }, [['cache-control', 'no-store']]);
  }

  async decidePending(x: Exchange, raw: unknown): Promise<void> {
    const body = validBody(x, DecideBody, raw);
    if (body === undefined) return;
    if (!(await this.deps.held.decideHeld(body.id, body.approve)))
      return sendError(x, 404, 'unknown_pending_write', `No pending write ${body.id}`);
    sendJson(x, 200, { approval_id: body.id, decision: body.approve ? 'approved' : 'denied' }, [['cache-control', 'no-store']]);
  }

  terminateSession(x: Exchange, raw: unknown): void {
    const body = validBody(x, TerminateSessionBody, raw);
    if (body === undefined) return;
    if (!this.deps.registry.terminate(body.session_id)) return sendError(x, 404, 'unknown_session', `No session ${body.session_id}`);
    sendJson(x, 200, { terminated: true, session_id: body.session_id }, [['cache-control', 'no-store']]);
  }
}
