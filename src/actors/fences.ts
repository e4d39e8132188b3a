// Commit fences: after a revocation, every window learns the revoked grant ids and refuses to commit any
// change made by a call under them. A window acknowledges a fence only once it holds it, so a confirmed
// fence means no revoked work commits there afterwards.
//
// A fence matches grants, not the client: "revoke client" lists every grant the client held, and a client
// that authorizes again afterwards gets a new grant that must work. The client id is kept for reporting.

import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal.js';
import { DomainError } from '../util/errors.js';

export interface Fence {
  readonly fence_id: string;
  /** The client whose grants were revoked, when known. */
  readonly client_id: string | null;
  readonly grant_ids: readonly string[];
  /** ISO time the revocation took effect. */
  readonly issued_at: string;
}

/**
 * Anything a fence must reach: an in-process window (WindowHandle) or a window of another process behind
 * the broker. `fence` resolves true once the window holds the fence, false when it is unavailable or did
 * not confirm; it never rejects.
 */
export interface FenceTarget {
  readonly id: string;
  fence(fence: Fence): Promise<boolean>;
}

/** What a revocation names: the grants it ended, and the client they belong to when known. */
export interface RevokedIds {
  readonly client_id: string | null;
  readonly grant_ids: readonly string[];
}

export function fenceFor(revoked: RevokedIds, now: Date = new Date()): Fence {
  return { fence_id: randomUUID(), client_id: revoked.client_id, grant_ids: [...revoked.grant_ids], issued_at: now.toISOString() };
}

/** Whether a revocation covers the principal: an OAuth principal of one of the revoked grants. */
export function covers(revoked: RevokedIds, principal: Pick<Principal, 'type' | 'grant_id'>): boolean {
  return principal.type === 'oauth' && principal.grant_id !== null && revoked.grant_ids.includes(principal.grant_id);
}

/** The message a fenced call fails with (tool error code `authorization_revoked`). */
export const REVOKED_MESSAGE = "The client's authorization was revoked; nothing was applied";

/** A commit a fence refused: the call's grant was revoked, so nothing of it is applied. */
export class AuthorizationRevoked extends DomainError {
  constructor() {
    super(REVOKED_MESSAGE, 'authorization_revoked', { effects_prevented: true });
    this.name = 'AuthorizationRevoked';
  }
}

/**
 * The fenced grant ids one window holds. Bounded: past `limit` ids the oldest are forgotten (a Set keeps
 * insertion order). That is safe because a revoked token stops working at once; a fence only has to
 * outlive the calls already running (at most an approval timeout), and the bound is far beyond what
 * revocations in that time add.
 */
export class FenceSet {
  private readonly grants = new Set<string>();

  constructor(private readonly limit = 65_536) {}

  add(fence: Fence): void {
    for (const g of fence.grant_ids) {
      if (this.grants.has(g)) continue;
      this.grants.add(g);
      if (this.grants.size > this.limit) this.grants.delete(this.grants.values().next().value!);
    }
  }

  blocks(principal: Principal): boolean {
    return principal.type === 'oauth' && principal.grant_id !== null && this.grants.has(principal.grant_id);
  }

  get size(): number {
    return this.grants.size;
  }
}

/**
 * Every fence this process issued or loaded, newest last and bounded like FenceSet: a window that starts
 * or restarts receives them all before it serves.
 */
export class FenceLedger {
  private readonly fences: Fence[] = [];

  constructor(private readonly limit = 4_096) {}

  add(fence: Fence): void {
    if (this.fences.some((f) => f.fence_id === fence.fence_id)) return;
    this.fences.push(fence);
    if (this.fences.length > this.limit) this.fences.splice(0, this.fences.length - this.limit);
  }

  all(): readonly Fence[] {
    return this.fences;
  }
}
