// The per-actor materialization artifact store (TOOLS.md 1.3, 3.8): previews held in memory only, private to
// the MCP session that created them, expiring 30 minutes after creation. Expired entries are dropped lazily
// on every access (no timers). An artifact another session owns is reported exactly like an unknown one, so
// its existence does not leak.

import { randomBytes } from 'node:crypto';

export const ARTIFACT_TTL_MS = 30 * 60 * 1000;
const MAX_ENTRIES = 32;
const MAX_TOTAL_BYTES = 256 * 1024 * 1024;

export interface StoredArtifact<P> {
  readonly id: string;
  readonly owner: string | null;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly bytes: number;
  readonly payload: P;
}

export type ArtifactLookup<P> =
  | { readonly kind: 'found'; readonly artifact: StoredArtifact<P> }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'expired'; readonly expiredAt: number };

export class ArtifactStoreFull extends Error {
  constructor(
    readonly entries: number,
    readonly bytes: number,
  ) {
    super(`The materialization artifact store of this window is full (${entries} artifacts, ${bytes} bytes); wait for previews to expire.`);
    this.name = 'ArtifactStoreFull';
  }
}

export class ArtifactStore<P> {
  private readonly entries = new Map<string, StoredArtifact<P>>();
  /** Expired ids remembered until their owner asks once more, so the answer is "expired", not "unknown". */
  private readonly expired = new Map<string, { owner: string | null; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A fresh id: `mat-` and 24 hex digits (matches the commit argument pattern). */
  static newId(): string {
    return 'mat-' + randomBytes(12).toString('hex');
  }

  put(id: string, owner: string | null, bytes: number, payload: P, createdAt = this.now()): StoredArtifact<P> {
    this.sweep();
    let total = 0;
    for (const e of this.entries.values()) total += e.bytes;
    if (this.entries.size >= MAX_ENTRIES || total + bytes > MAX_TOTAL_BYTES) throw new ArtifactStoreFull(this.entries.size, total);
    const entry: StoredArtifact<P> = { id, owner, createdAt, expiresAt: createdAt + ARTIFACT_TTL_MS, bytes, payload };
    this.entries.set(id, entry);
    return entry;
  }

  get(id: string, owner: string | null): ArtifactLookup<P> {
    this.sweep();
    const e = this.entries.get(id);
    if (e !== undefined) return e.owner === owner ? { kind: 'found', artifact: e } : { kind: 'unknown' };
    const x = this.expired.get(id);
    return x !== undefined && x.owner === owner ? { kind: 'expired', expiredAt: x.at } : { kind: 'unknown' };
  }

  get size(): number {
    this.sweep();
    return this.entries.size;
  }

  /** The window is closing: every preview goes. */
  clear(): void {
    this.entries.clear();
    this.expired.clear();
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, e] of this.entries) {
      if (e.expiresAt > now) continue;
      this.entries.delete(id);
      this.expired.set(id, { owner: e.owner, at: e.expiresAt });
    }
    // remembered expiries are bounded too: the oldest are forgotten first (then reported as unknown)
    while (this.expired.size > 4 * MAX_ENTRIES) this.expired.delete(this.expired.keys().next().value!);
  }
}
