// What one window actor keeps about external terms, in memory only (TOOLS.md 1.3, 3.12): the provider
// cache, search cursors (5 min) and reuse proposals (15 min). All of it goes with the actor; cursors and
// proposals answer only to the principal, grant and actor that made them.

import { randomBytes } from 'node:crypto';
import type { CallContext } from '../window/call-context.js';
import { sha256Digest } from '../util/digest.js';
import type { ProviderRecord } from './record.js';

export interface CacheEntry {
  readonly records: readonly ProviderRecord[];
  readonly total: number;
  readonly fetchedAt: string;
  readonly expires: number;
  readonly policyDigest: string;
  readonly bindingGeneration: string;
}

export interface SearchCursor {
  readonly owner: string;
  /** The OAuth grant of the owner (null: the static token), so a revocation erases what it made. */
  readonly grantId: string | null;
  readonly providerId: string;
  readonly query: string;
  readonly ontologies: readonly string[];
  readonly language: string;
  readonly limit: number;
  readonly start: number;
  readonly expires: number;
  readonly policyDigest: string;
  readonly bindingGeneration: string;
  readonly acquiredAt: number;
}

export interface Proposal {
  readonly id: string;
  readonly owner: string;
  readonly grantId: string | null;
  readonly fingerprint: string;
  readonly body: Record<string, unknown>;
  expires: number;
  /** Set while an accept holds the proposal (exclusive reclaim). */
  claimed: boolean;
  /** After a mint landed and its mapping step failed: the mint receipt, so a retry never mints again. */
  minted: Record<string, unknown> | null;
}

const CACHE_LIMIT = 512;

export class ExternalTermStore {
  readonly cache = new Map<string, CacheEntry>();
  readonly cursors = new Map<string, SearchCursor>();
  readonly proposals = new Map<string, Proposal>();

  cached(key: string, now: number): CacheEntry | undefined {
    const e = this.cache.get(key);
    if (e !== undefined && e.expires <= now) this.cache.delete(key);
    return e !== undefined && e.expires > now ? e : undefined;
  }

  remember(key: string, entry: CacheEntry): void {
    if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, entry);
  }

  /** Erases the cursors and proposals of revoked grants. */
  revoke(grantIds: ReadonlySet<string>): void {
    for (const [k, c] of this.cursors) if (c.grantId !== null && grantIds.has(c.grantId)) this.cursors.delete(k);
    for (const [k, p] of this.proposals) if (p.grantId !== null && grantIds.has(p.grantId)) this.proposals.delete(k);
  }

  /** The window is closing: everything goes. */
  clear(): void {
    this.cache.clear();
    this.cursors.clear();
    this.proposals.clear();
  }

  /** Drops expired cursors and proposals (called on every use, so memory stays bounded by live ones). */
  sweep(now: number): void {
    for (const [k, c] of this.cursors) if (c.expires <= now) this.cursors.delete(k);
    for (const [k, p] of this.proposals) if (p.expires <= now && !p.claimed) this.proposals.delete(k);
  }
}

/** The caller's OAuth grant, or null for the static token. */
export function grantOf(ctx: CallContext): string | null {
  return ctx.principal.type === 'oauth' ? ctx.principal.grant_id : null;
}

/** Who may use a cursor or proposal: the principal's client and grant, in this actor. */
export function ownerKey(ctx: CallContext): string {
  return sha256Digest(JSON.stringify([ctx.principal.type, ctx.principal.client_id, ctx.principal.grant_id, ctx.workspace.id]));
}

/** An opaque 256-bit id. */
export function opaqueId(): string {
  return randomBytes(32).toString('base64url');
}
