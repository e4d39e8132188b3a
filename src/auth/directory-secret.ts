// The directory secret: a 256-bit secret in `<home>/directory-secret` (0600) that only the OS user owning
// the private directory can read. Presenting it (header `X-Athene-Directory-Secret`) is what admits a
// caller to the `/internal/` API; processes sharing the directory use it to reach each other's broker.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { link, open, unlink } from 'node:fs/promises';
import path from 'node:path';
import { readSecretFile } from './secret-file.js';

export const DIRECTORY_SECRET_FILE = 'directory-secret';
export const DIRECTORY_SECRET_HEADER = 'x-athene-directory-secret';
const SECRET_BYTES = 32;

export function directorySecretPath(home: string): string {
  return path.join(home, DIRECTORY_SECRET_FILE);
}

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/**
 * Reads the secret, creating it on first run. Creation is exclusive (the fsynced file is hard-linked into
 * place, which fails when another process got there first), so concurrent first runs agree on one secret.
 */
export async function ensureDirectorySecret(home: string): Promise<string> {
  const file = directorySecretPath(home);
  const existing = await readSecretFile(file);
  if (existing !== null) return existing;
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  const tmp = path.join(home, `.${DIRECTORY_SECRET_FILE}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(tmp, 'wx', 0o600);
  try {
    await handle.writeFile(secret + '\n');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(tmp);
  }
  const dir = await open(home, 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
  const settled = await readSecretFile(file);
  if (settled === null) throw new Error(`${file} is empty`);
  return settled;
}

/** Checks presented secrets against the secret's digest in constant time; only the digest is kept. */
export class DirectorySecret {
  private constructor(private readonly expected: Buffer) {}

  static async open(home: string): Promise<DirectorySecret> {
    return new DirectorySecret(digest(await ensureDirectorySecret(home)));
  }

  /** The owner-login HMAC key (owner-session.ts ownerKey of the secret). */
  get ownerKey(): Buffer {
    return this.expected;
  }

  matches(presented: string | undefined): boolean {
    if (presented === undefined || presented === '') return false;
    return timingSafeEqual(digest(presented), this.expected);
  }
}
