// The owner session: proof, in a browser, of being the OS user who can read the private directory. A login
// URL carries a fresh nonce, an expiry and an HMAC over both keyed by the digest of the directory secret
// (only a reader of `<home>/directory-secret` can mint one); the server accepts each nonce once and answers
// with an httpOnly, SameSite=Strict, host-only cookie (its name carries the port: cookies are not
// port-scoped). Every state-changing request of the session also carries the session's CSRF token.

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const OWNER_LOGIN_PATH = '/owner/login';
/** Where a login lands: the server view (view-routes.ts). */
export const OWNER_HOME_PATH = '/';
/** The header (or form field `owner_csrf`) carrying the session's CSRF token. */
export const OWNER_CSRF_HEADER = 'x-athene-csrf';
/** A login URL is valid this long after it was made. */
export const LOGIN_TTL_MS = 10 * 60 * 1000;
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
const MAX_SESSIONS = 64;

/** The HMAC key both sides derive from the directory secret (the server keeps only this digest). */
export function ownerKey(directorySecret: string): Buffer {
  return createHash('sha256').update(directorySecret, 'utf8').digest();
}

function mac(key: Buffer, nonce: string, expires: number): string {
  return createHmac('sha256', key).update(`athene-owner-login\0${nonce}\0${expires}`).digest('base64url');
}

/** A single-use owner login URL for the server at `origin` (e.g. `http://127.0.0.1:8123`). */
export function ownerLoginUrl(origin: string, key: Buffer, now = Date.now()): string {
  const nonce = randomBytes(24).toString('base64url');
  const expires = now + LOGIN_TTL_MS;
  const url = new URL(OWNER_LOGIN_PATH, origin);
  url.searchParams.set('n', nonce);
  url.searchParams.set('e', String(expires));
  url.searchParams.set('c', mac(key, nonce, expires));
  return url.href;
}

const digest = (text: string): string => createHash('sha256').update(text, 'utf8').digest('base64url');

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The value of cookie `name` in a Cookie header, or null. */
export function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export interface OwnerSession {
  readonly csrf: string;
  readonly expires: number;
}

export class OwnerSessions {
  private readonly sessions = new Map<string, OwnerSession>();
  private readonly usedNonces = new Map<string, number>();

  constructor(
    private readonly key: Buffer,
    private readonly port: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  get cookieName(): string {
    return `athene_owner_${this.port()}`;
  }

  /**
   * Checks a login URL's query; on success opens a session and returns its Set-Cookie value. The nonce is
   * spent whether or not anything else goes wrong later.
   */
  login(query: URLSearchParams): string | null {
    const nonce = query.get('n') ?? '';
    const expires = Number(query.get('e') ?? '');
    const code = query.get('c') ?? '';
    const now = this.now();
    this.sweep(now);
    if (nonce.length < 16 || !Number.isSafeInteger(expires) || expires <= now || expires > now + LOGIN_TTL_MS) return null;
    if (!sameText(code, mac(this.key, nonce, expires)) || this.usedNonces.has(nonce)) return null;
    this.usedNonces.set(nonce, expires);
    while (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    const id = randomBytes(32).toString('base64url');
    this.sessions.set(digest(id), { csrf: randomBytes(24).toString('base64url'), expires: now + SESSION_TTL_MS });
    return `${this.cookieName}=${id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_TTL_MS / 1000}`;
  }

  /** The live session a Cookie header names, or null. */
  session(cookieHeader: string): OwnerSession | null {
    const id = cookieValue(cookieHeader, this.cookieName);
    if (id === null || id === '') return null;
    const s = this.sessions.get(digest(id));
    if (s === undefined || s.expires <= this.now()) return null;
    return s;
  }

  /** The session of the cookie, when `csrf` is that session's token (a state-changing request). */
  authorize(cookieHeader: string, csrf: string): OwnerSession | null {
    const s = this.session(cookieHeader);
    return s !== null && sameText(csrf, s.csrf) ? s : null;
  }

  private sweep(now: number): void {
    for (const [n, e] of this.usedNonces) if (e <= now) this.usedNonces.delete(n);
    for (const [k, s] of this.sessions) if (s.expires <= now) this.sessions.delete(k);
  }
}
