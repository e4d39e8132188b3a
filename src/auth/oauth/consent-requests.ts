// Authorization requests waiting for the user's Allow / Deny. Each is bound to a random CSRF token that
// the consent form posts back: single use, short-lived, and kept only as a SHA-256 digest (a lookup by
// digest leaks nothing about the token through timing).

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

function digest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

export class ConsentRequests {
  private readonly pending = new Map<string, { request: PendingConsent; expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Holds a request and returns the CSRF token the consent form must post back. */
  open(request: PendingConsent): string {
    this.sweep();
    while (this.pending.size >= MAX_PENDING_CONSENTS) this.pending.delete(this.pending.keys().next().value as string);
    const token = randomBytes(32).toString('base64url');
    this.pending.set(digest(token), { request, expires: this.now() + CONSENT_TTL_MS });
    return token;
  }

  /** The request bound to `token`, removed so it cannot be answered twice; null when unknown or expired. */
  take(token: string): PendingConsent | null {
    const key = digest(token);
    const entry = this.pending.get(key);
    if (entry === undefined) return null;
    this.pending.delete(key);
    return entry.expires > this.now() ? entry.request : null;
  }

  get size(): number {
    return this.pending.size;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.pending) if (entry.expires <= now) this.pending.delete(key);
  }
}
