// PKCE (RFC 7636) with the S256 method only: the verifier's SHA-256, base64url-encoded, must equal the
// challenge recorded with the authorization code.

import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1: 43 to 128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~". */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** A S256 challenge is the base64url (unpadded) form of a 32-byte digest: exactly 43 characters. */
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

export function isCodeVerifier(value: string): boolean {
  return VERIFIER.test(value);
}

export function isS256Challenge(value: string): boolean {
  return CHALLENGE.test(value);
}

export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** True when `verifier` is well-formed and its S256 transform equals `challenge` (constant-time compare). */
export function verifyS256(verifier: string, challenge: string): boolean {
  if (!isCodeVerifier(verifier) || !isS256Challenge(challenge)) return false;
  return timingSafeEqual(Buffer.from(s256Challenge(verifier), 'ascii'), Buffer.from(challenge, 'ascii'));
}
