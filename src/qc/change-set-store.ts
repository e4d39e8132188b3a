// The per-actor change-set store (TOOLS.md 1.11, 3.4): cached previews in memory only, each with a time to
// live, bounded in size, moving through `previewing → ready → committing → committed`. Only a ready entry can
// be claimed for commit, and a claim is exclusive, so a preview commits at most once. Expired entries are
// dropped lazily on every access (no timers, so an idle window keeps nothing alive).

import { randomUUID } from 'node:crypto';
import { DomainError } from '../util/errors.js';
import type { JsonObject } from '../util/json-object.js';

export type ChangeSetState = 'previewing' | 'ready' | 'committing' | 'committed';

export const TTL_SECONDS = { min: 1, max: 3600, default: 900 } as const;

/** Per-entry limits, checked before any QC runs. */
export const ENTRY_LIMITS = { operations: 2000, changes: 8000, bytes: 2 * 1024 * 1024 } as const;

export type ChangeSetErrorCode = 'unknown_change_set' | 'change_set_in_progress' | 'change_set_too_large' | 'change_set_store_full';

/** A refusal by the change-set store, with the context fields TOOLS.md lists. */
export class ChangeSetError extends DomainError {
  declare readonly code: ChangeSetErrorCode;
  constructor(message: string, code: ChangeSetErrorCode, context: JsonObject = {}) {
    super(message, code, context);
    this.name = 'ChangeSetError';
  }
}

export interface ChangeSetEntry<P> {
  readonly id: string;
  readonly state: ChangeSetState;
  /** Epoch ms. */
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly bytes: number;
  /** The cached preview; present once the entry is ready. */
  readonly payload: P | null;
}

interface Slot<P> {
  id: string;
  state: ChangeSetState;
  createdAt: number;
  expiresAt: number;
  ttlMs: number;
  bytes: number;
  payload: P | null;
}

export interface StoreOptions {
  readonly now?: () => number;
  /** Most entries held at once (any state). */
  readonly maxEntries?: number;
  /** Most bytes (entry estimates) held at once. */
  readonly maxTotalBytes?: number;
}

/** The size of an entry against ENTRY_LIMITS; throws `change_set_too_large` naming the first limit exceeded. */
export function checkEntrySize(operations: number, changes: number, bytes: number): void {
  const over = (what: string, actual: number, limit: number) =>
    new ChangeSetError(
      `The change set is too large: ${actual} ${what} exceed the limit of ${limit}; nothing was evaluated (split the batch)`,
      'change_set_too_large',
      { limit_kind: what, limit, actual },
    );
  if (operations > ENTRY_LIMITS.operations) throw over('operations', operations, ENTRY_LIMITS.operations);
  if (changes > ENTRY_LIMITS.changes) throw over('normalized changes', changes, ENTRY_LIMITS.changes);
  if (bytes > ENTRY_LIMITS.bytes) throw over('bytes', bytes, ENTRY_LIMITS.bytes);
}

export function checkTtl(ttlSeconds: number): void {
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < TTL_SECONDS.min || ttlSeconds > TTL_SECONDS.max) {
    throw new RangeError(`ttl_seconds must be an integer in ${TTL_SECONDS.min}..${TTL_SECONDS.max}`);
  }
}

export class ChangeSetStore<P> {
  private readonly slots = new Map<string, Slot<P>>();
  private readonly now: () => number;
  private readonly maxEntries: number;
  private readonly maxTotalBytes: number;

  constructor(options: StoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 256;
    this.maxTotalBytes = options.maxTotalBytes ?? 64 * 1024 * 1024;
  }

  get size(): number {
    this.sweep();
    return this.slots.size;
  }

  /** Every live entry, soonest expiry first (then id): what a session can still commit or is waiting on. */
  entries(): ChangeSetEntry<P>[] {
    this.sweep();
    return [...this.slots.values()].map(view).sort((a, b) => a.expiresAt - b.expiresAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /**
   * Reserves an entry in state `previewing` for a preview about to run. Makes room by evicting the ready or
   * committed entries that expire first; previews and commits under way are never evicted.
   */
  begin(ttlSeconds: number, bytes: number): string {
    checkTtl(ttlSeconds);
    if (bytes > ENTRY_LIMITS.bytes) checkEntrySize(0, 0, bytes);
    this.sweep();
    this.makeRoom(bytes);
    const id = 'cs_' + randomUUID();
    const now = this.now();
    this.slots.set(id, {
      id,
      state: 'previewing',
      createdAt: now,
      expiresAt: now + ttlSeconds * 1000,
      ttlMs: ttlSeconds * 1000,
      bytes,
      payload: null,
    });
    return id;
  }

  /** `previewing → ready` with the finished preview; its time to live starts now. Returns the entry. */
  ready(id: string, payload: P): ChangeSetEntry<P> {
    const slot = this.expect(id, 'previewing');
    slot.state = 'ready';
    slot.payload = payload;
    slot.expiresAt = this.now() + slot.ttlMs;
    return view(slot);
  }

  /** Drops a reservation whose preview did not finish (failed, cancelled or invalidated). */
  abandon(id: string): void {
    const slot = this.slots.get(id);
    if (slot !== undefined && slot.state === 'previewing') this.slots.delete(id);
  }

  /** A ready entry, for reading (rebase); other states fail as `claim` would. */
  get(id: string): ChangeSetEntry<P> {
    return view(this.usable(id));
  }

  /** `ready → committing`: the caller alone may now commit it. */
  claim(id: string): ChangeSetEntry<P> {
    const slot = this.usable(id);
    slot.state = 'committing';
    return view(slot);
  }

  /** `committing → ready`: the commit was refused and the preview stays usable. */
  release(id: string): void {
    const slot = this.expect(id, 'committing');
    slot.state = 'ready';
    // A refusal must not hand back an entry that expired while it was being committed.
    if (slot.expiresAt <= this.now()) this.slots.delete(id);
  }

  /**
   * `committing → committed`. The entry keeps its id until it expires, so a repeated commit is answered
   * "already committed" rather than "unknown"; its payload is dropped.
   */
  complete(id: string): void {
    const slot = this.expect(id, 'committing');
    slot.state = 'committed';
    slot.payload = null;
    slot.bytes = 0;
  }

  /** Drops a ready preview; an unknown, expired, committed or committing one is `unknown_change_set`. */
  discard(id: string): void {
    this.sweep();
    const slot = this.slots.get(id);
    if (slot === undefined || slot.state !== 'ready') {
      throw new ChangeSetError(
        `Unknown change set ${id}: ${slot === undefined ? 'no such preview (never created, expired or evicted)' : `it is ${slot.state}`}`,
        'unknown_change_set',
        { change_set_id: id },
      );
    }
    this.slots.delete(id);
  }

  /** The window is closing: every entry goes. */
  clear(): void {
    this.slots.clear();
  }

  /** The ready entry `id`, or the failure its state calls for. */
  private usable(id: string): Slot<P> {
    this.sweep();
    const slot = this.slots.get(id);
    if (slot === undefined) {
      throw new ChangeSetError(`Unknown change set ${id}: no such preview (never created, expired or evicted)`, 'unknown_change_set', {
        change_set_id: id,
      });
    }
    if (slot.state === 'committed') {
      throw new ChangeSetError(`Change set ${id} was already committed; a preview commits once`, 'unknown_change_set', {
        change_set_id: id,
      });
    }
    if (slot.state !== 'ready') {
      throw new ChangeSetError(
        `Change set ${id} is ${slot.state === 'previewing' ? 'still being previewed' : 'being committed'}; try again when that finished`,
        'change_set_in_progress',
        { change_set_id: id, state: slot.state, retryable: true },
      );
    }
    return slot;
  }

  private expect(id: string, state: ChangeSetState): Slot<P> {
    const slot = this.slots.get(id);
    if (slot === undefined || slot.state !== state) throw new Error(`change set ${id} is not ${state}`);
    return slot;
  }

  /** Drops ready and committed entries past their expiry; reservations and commits under way stay. */
  private sweep(): void {
    const now = this.now();
    for (const [id, slot] of this.slots) {
      if ((slot.state === 'ready' || slot.state === 'committed') && slot.expiresAt <= now) this.slots.delete(id);
    }
  }

  private makeRoom(bytes: number): void {
    const total = () => {
      let sum = 0;
      for (const s of this.slots.values()) sum += s.bytes;
      return sum;
    };
    const fits = () => this.slots.size < this.maxEntries && total() + bytes <= this.maxTotalBytes;
    if (fits()) return;
    const evictable = [...this.slots.values()]
      .filter((s) => s.state === 'ready' || s.state === 'committed')
      .sort((a, b) => a.expiresAt - b.expiresAt || a.createdAt - b.createdAt);
    for (const s of evictable) {
      if (fits()) return;
      this.slots.delete(s.id);
    }
    if (!fits()) {
      throw new ChangeSetError(
        'The change-set store is full of previews and commits under way; try again shortly',
        'change_set_store_full',
        { retryable: true },
      );
    }
  }
}

function view<P>(slot: Slot<P>): ChangeSetEntry<P> {
  return { id: slot.id, state: slot.state, createdAt: slot.createdAt, expiresAt: slot.expiresAt, bytes: slot.bytes, payload: slot.payload };
}
