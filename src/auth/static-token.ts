// The static bearer token: a URL-safe 256-bit secret in `<home>/token` (0600). Only its SHA-256 digest is
// kept in memory; presented tokens are hashed and compared in constant time. A running server watches the
// file, so `athene token --regenerate` retires the old token within a second.

import * as nodeCrypto from 'node:crypto';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { watchFile, unwatchFile, type Stats } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../util/atomic-file.js';
import { readSecretFile } from './secret-file.js';

export const TOKEN_FILE = 'token';
const TOKEN_BYTES = 32;
const WATCH_INTERVAL_MS = 250;

export function tokenPath(home: string): string {
  return path.join(home, TOKEN_FILE);
}

export function generateToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** One-shot `crypto.hash` (Node 20.12+) where present: every request pays this digest, and a Hash object costs several times more. */
const oneShot = nodeCrypto.hash as typeof nodeCrypto.hash | undefined;
const digest: (token: string) => Buffer =
  oneShot === undefined ? (token) => createHash('sha256').update(token, 'utf8').digest() : (token) => oneShot('sha256', token, 'buffer');

/** Reads the token, creating it (0600) when the file is missing or empty. */
export async function ensureToken(home: string): Promise<string> {
  const file = tokenPath(home);
  const existing = await readSecretFile(file);
  if (existing !== null) return existing;
  const token = generateToken();
  await writeFileAtomic(file, token + '\n', { mode: 0o600 });
  return token;
}

/** Replaces the token with a fresh one and returns it. */
export async function regenerateToken(home: string): Promise<string> {
  const token = generateToken();
  await writeFileAtomic(tokenPath(home), token + '\n', { mode: 0o600 });
  return token;
}

/** Verifies presented bearer tokens against the digest of the current token file. */
export class StaticTokenVerifier {
  private current: Buffer;
  private watching = false;

  private constructor(
    private readonly file: string,
    token: string,
  ) {
    this.current = digest(token);
  }

  static async open(home: string): Promise<StaticTokenVerifier> {
    return new StaticTokenVerifier(tokenPath(home), await ensureToken(home));
  }

  /** Constant-time comparison of digests (equal length by construction). */
  verify(presented: string): boolean {
    return timingSafeEqual(digest(presented), this.current);
  }

  /** Takes a token this process just wrote, so the old one is refused at once rather than at the next poll. */
  adopt(token: string): void {
    this.current = digest(token);
  }

  /** Follows replacements of the token file (polling survives the atomic rename). */
  watch(): void {
    if (this.watching) return;
    this.watching = true;
    watchFile(this.file, { interval: WATCH_INTERVAL_MS }, (cur: Stats, prev: Stats) => {
      if (cur.mtimeMs !== prev.mtimeMs || cur.ino !== prev.ino) void this.reload();
    });
  }

  stop(): void {
    if (!this.watching) return;
    unwatchFile(this.file);
    this.watching = false;
  }

  /** A vanished or unreadable file keeps the last token: the server never falls open. */
  private async reload(): Promise<void> {
    const token = await readSecretFile(this.file).catch(() => null);
    if (token !== null) this.current = digest(token);
  }
}

/** The token of an `Authorization: Bearer <token>` header value; null when absent or malformed. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const space = header.indexOf(' ');
  if (space < 0 || header.slice(0, space).toLowerCase() !== 'bearer') return null;
  const token = header.slice(space + 1).trim();
  return token === '' ? null : token;
}
