// The front door's record of OAuth requests it accepted and has not answered yet (queued while their body
// arrives, or forwarded to a window), by grant, so a revocation can cut them. Static-token requests are
// not tracked: that credential cannot be revoked this way.

import type { Principal } from '../auth/principal.js';
import type { RevokedIds } from '../actors/fences.js';
import { sendRpcError, type Exchange } from './respond.js';

export interface Cuttable {
  readonly principal: Principal;
  /** A GET event stream rather than a call: ended on a cut, but not counted as a terminated request. */
  readonly isStream: boolean;
  /** Answers the client (401 when nothing was written yet) and aborts any work at the window. */
  cut(): void;
}

export const REVOKED_DESCRIPTION = "the client's authorization was revoked";

/** The 401 a cut request gets, as RFC 6750 describes an invalid token. */
export function sendRevoked(x: Exchange): void {
  sendRpcError(x, 401, -32001, `Unauthorized: ${REVOKED_DESCRIPTION}`, [
    ['www-authenticate', `Bearer error="invalid_token", error_description="${REVOKED_DESCRIPTION}"`],
  ]);
}

/** A request whose body is still arriving: cutting it answers now, and the body is then ignored. */
export class QueuedRequest implements Cuttable {
  readonly isStream = false;

  constructor(
    readonly x: Exchange,
    readonly principal: Principal,
  ) {}

  cut(): void {
    sendRevoked(this.x);
  }
}

export class InFlightRequests {
  private readonly byGrant = new Map<string, Set<Cuttable>>();

  add(c: Cuttable): void {
    const grant = revocableGrant(c.principal);
    if (grant === null) return;
    let set = this.byGrant.get(grant);
    if (set === undefined) {
      set = new Set();
      this.byGrant.set(grant, set);
    }
    set.add(c);
  }

  delete(c: Cuttable): void {
    const grant = revocableGrant(c.principal);
    if (grant === null) return;
    const set = this.byGrant.get(grant);
    if (set === undefined) return;
    set.delete(c);
    if (set.size === 0) this.byGrant.delete(grant);
  }

  /** Cuts every tracked request of the revoked grants; returns how many calls (not streams) were cut. */
  cut(revoked: RevokedIds): number {
    let calls = 0;
    for (const grant of revoked.grant_ids) {
      const set = this.byGrant.get(grant);
      if (set === undefined) continue;
      this.byGrant.delete(grant);
      for (const c of set) {
        c.cut();
        if (!c.isStream) calls++;
      }
    }
    return calls;
  }
}

/** The grant a revocation can end for this principal; null for the static token. */
function revocableGrant(p: Principal): string | null {
  return p.type === 'oauth' ? p.grant_id : null;
}
