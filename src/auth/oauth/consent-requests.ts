// Authorization requests waiting for the owner's Allow / Deny. Each has a short id (what `athene consent
// approve ID` names) and a wait key the requesting browser polls with, kept only as a SHA-256 digest (the
// owner's form is protected by the owner session's CSRF token). A request is answered once: by the
// owner's form (owner session) or by the command line, never by the browser that asked.

import { createHash, randomBytes } from 'node:crypto';
import type { Capability } from '../principal.js';

export const CONSENT_TTL_MS = 10 * 60 * 1000;
/** Pending requests kept at most; the oldest is dropped first (nobody answers hundreds of consent pages). */
export const MAX_PENDING_CONSENTS = 256;

export interface PendingConsent {
  readonly client_id: string;
  readonly redirect_uri: string;
  readonly code_challenge: string;
  readonly scope: string;
  readonly capabilities: readonly Capability[];
  /** The client's `state`, echoed on the redirect; null when it sent none. */
  readonly state: string | null;
}

export type ConsentStatus = 'pending' | 'approved' | 'denied';

export interface ConsentEntry {
  readonly id: string;
  readonly request: PendingConsent;
  status: ConsentStatus;
  readonly expires: number;
  readonly wait: string;
}

export interface OpenedConsent {
  readonly id: string;
  /** Presented by the requesting browser when it polls for the outcome. */
  readonly wait: string;
}

function digest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

export class ConsentRequests {
  private readonly entries = new Map<string, ConsentEntry>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Hears of every request opened or decided (the owner's server view shows them live). */
  onChange(listener: () => void): void {
    this.listeners.add(listener);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }

  /** Holds a request; returns its id and the browser's wait key. */
  open(request: PendingConsent): OpenedConsent {
    this.sweep();
    while (this.entries.size >= MAX_PENDING_CONSENTS) this.entries.delete(this.entries.keys().next().value as string);
    const id = randomBytes(6).toString('hex');
    const wait = randomBytes(32).toString('base64url');
    this.entries.set(id, { id, request, status: 'pending', expires: this.now() + CONSENT_TTL_MS, wait: digest(wait) });
    this.changed();
    return { id, wait };
  }

  /** The live entry `id` names, or null. */
  get(id: string): ConsentEntry | null {
    const e = this.entries.get(id);
    return e === undefined || e.expires <= this.now() ? null : e;
  }

  /** Records the owner's decision on a pending request; false when there is none to decide. */
  decide(id: string, approve: boolean): boolean {
    const e = this.get(id);
    if (e === null || e.status !== 'pending') return false;
    e.status = approve ? 'approved' : 'denied';
    this.changed();
    return true;
  }

  /** The entry, when `wait` is its key; a decided one is removed (its outcome is delivered once). */
  poll(id: string, wait: string): ConsentEntry | null {
    const e = this.get(id);
    if (e === null || e.wait !== digest(wait)) return null;
    if (e.status !== 'pending') this.entries.delete(id);
    return e;
  }

  /** The requests still waiting for the owner. */
  pending(): ConsentEntry[] {
    this.sweep();
    return [...this.entries.values()].filter((e) => e.status === 'pending');
  }

  get size(): number {
    return this.entries.size;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expires <= now) this.entries.delete(key);
  }
}
