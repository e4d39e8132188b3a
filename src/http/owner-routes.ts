// The routes that need the owner, answered before any bearer token is looked at: the owner login (a
// single-use URL from `athene open` or the startup line sets the session cookie and opens the server view), and
// the state-changing actions no agent may take with a bearer token (deciding a held write, replacing the
// static token). Each action needs the owner session's cookie and its CSRF token (`x-athene-csrf`).

import { OWNER_CSRF_HEADER, OWNER_HOME_PATH, type OwnerSessions } from '../auth/owner-session.js';
import { errorPage, pageHeaders } from '../web/consent-page.js';
import type { Incoming } from './front-door.js';
import { isLocalPeer, peerAddress } from './peer.js';
import { sendJson, statusLine, type Exchange } from './respond.js';

export const APPROVAL_ROUTE = /^\/admin\/api\/pending\/([^/]+)\/(approve|deny)$/;
export const REGENERATE_ROUTE = '/admin/api/token/regenerate';

export interface OwnerActions {
  /** Decides a held write; false when no window holds it. */
  decide(approvalId: string, approve: boolean): Promise<boolean>;
  /** Replaces the static token and returns the new one. */
  regenerate(): Promise<string>;
}

export const OWNER_REQUIRED =
  "This action needs the owner: sign in with the single-use link `athene open` prints (then send the session's CSRF token " +
  `in ${OWNER_CSRF_HEADER}), or use the command line (athene pending approve|deny ID, athene token --regenerate). A bearer token is not accepted here.`;

function html(x: Exchange, status: number, body: string, extra: readonly (readonly [string, string])[] = []): void {
  if (x.aborted || x.done) return;
  x.done = true;
  x.res.cork(() => {
    x.res.writeStatus(statusLine(status));
    for (const [k, v] of [...pageHeaders(), ...extra]) x.res.writeHeader(k, v);
    x.res.end(body);
  });
}

export class OwnerRoutes {
  constructor(
    private readonly sessions: OwnerSessions,
    private readonly actions: OwnerActions,
  ) {}

  /** `GET /owner/login?…`: spends the single-use link's nonce and sets the owner session's cookie. */
  login(x: Exchange, r: Incoming): void {
    // checked before the nonce is spent: a link that leaked to another machine still works for the owner here
    if (!isLocalPeer(peerAddress(x.res))) {
      return html(
        x,
        403,
        errorPage('Owner login only on this machine', 'Open the owner login link in a browser on the machine this server runs on.'),
      );
    }
    const cookie = this.sessions.login(new URLSearchParams(r.query));
    if (cookie === null) {
      return html(
        x,
        403,
        errorPage('Login link not valid', 'This owner login link is invalid, expired or already used. Run `athene open` for a new one.'),
      );
    }
    if (x.aborted || x.done) return;
    x.done = true;
    x.res.cork(() => {
      x.res
        .writeStatus(statusLine(303))
        .writeHeader('location', OWNER_HOME_PATH)
        .writeHeader('set-cookie', cookie)
        .writeHeader('cache-control', 'no-store');
      x.res.end();
    });
  }

  /** `POST /admin/api/pending/{id}/approve|deny`. */
  decideHeld(x: Exchange, r: Incoming, approvalId: string, approve: boolean): void {
    if (this.ownerAsks(x, r)) void this.decide(x, decodeURIComponent(approvalId), approve);
  }

  /** `POST /admin/api/token/regenerate`. */
  regenerateToken(x: Exchange, r: Incoming): void {
    if (this.ownerAsks(x, r)) void this.regenerate(x);
  }

  /** Whether the owner session's cookie and CSRF token came with `r`; if not, the refusal is sent. */
  private ownerAsks(x: Exchange, r: Incoming): boolean {
    if (this.sessions.authorize(r.headers.get('cookie') ?? '', r.headers.get(OWNER_CSRF_HEADER) ?? '') !== null) return true;
    sendJson(x, 403, { error: OWNER_REQUIRED, error_code: 'owner_required' }, [['cache-control', 'no-store']]);
    return false;
  }

  private async decide(x: Exchange, approvalId: string, approve: boolean): Promise<void> {
    if (await this.actions.decide(approvalId, approve))
      sendJson(x, 200, { approval_id: approvalId, decision: approve ? 'approved' : 'denied' });
    else sendJson(x, 404, { error: `No pending write ${approvalId}` });
  }

  /** Shown once: the response is never cached. */
  private async regenerate(x: Exchange): Promise<void> {
    try {
      sendJson(x, 200, { token: await this.actions.regenerate() }, [['cache-control', 'no-store']]);
    } catch (err) {
      sendJson(x, 500, { error: `The token could not be replaced: ${(err as Error).message}` });
    }
  }
}
