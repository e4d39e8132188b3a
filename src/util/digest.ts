// The one spelling of a content digest in results and files (TOOLS.md 1.5): `sha256:` + 64 lowercase hex.

import crypto from 'node:crypto';

// The one-shot `crypto.hash` (Node 20.12+) skips a Hash object per digest; older Node 20 lines lack it.
const oneShot = typeof crypto.hash === 'function';

/** Hex SHA-256 of `data` (strings hashed as UTF-8). */
export function sha256Hex(data: string | Uint8Array): string {
  return oneShot ? crypto.hash('sha256', data, 'hex') : crypto.createHash('sha256').update(data).digest('hex');
}

/**
 * SHA-256 of `data` as 32 one-byte characters (char code = byte; 'binary' is latin1): for code that reads
 * the digest's bytes, a short string costs a fraction of a Buffer, which allocates an ArrayBuffer each.
 */
export function sha256Latin1(data: string | Uint8Array): string {
  return oneShot ? crypto.hash('sha256', data, 'binary') : crypto.createHash('sha256').update(data).digest('binary');
}

/** `sha256:` + hex SHA-256 of `data` (strings hashed as UTF-8). */
export function sha256Digest(data: string | Uint8Array): string {
  return 'sha256:' + sha256Hex(data);
}

/** A SHA-256 fed with `prefix`, for `sha256DigestAfter`: texts that share a long start hash it once. */
export function sha256Head(prefix: string): crypto.Hash {
  return crypto.createHash('sha256').update(prefix);
}

/** `sha256Digest` of the text `head` was fed followed by `rest`; `head` itself is left as it was. */
export function sha256DigestAfter(head: crypto.Hash, rest: string): string {
  return 'sha256:' + head.copy().update(rest).digest('hex');
}
