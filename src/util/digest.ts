// The one spelling of a content digest in results and files (TOOLS.md 1.5): `sha256:` + 64 lowercase hex.

import { createHash } from 'node:crypto';

/** `sha256:` + hex SHA-256 of `data` (strings hashed as UTF-8). */
export function sha256Digest(data: string | Uint8Array): string {
  return 'sha256:' + createHash('sha256').update(data).digest('hex');
}
