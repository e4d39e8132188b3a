// Reading the documents a lock names, confined below the lock's directory: containment is decided on real
// paths (symlinks resolved), so a link inside the directory cannot smuggle in a file from elsewhere.

import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { sha256Digest } from '../util/digest.js';
import { readRegularFile } from '../util/file-read.js';

/** `file` lies strictly below `dir` (both real paths). */
export function isBelow(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** The lock-relative, '/'-separated path of a real file below the real lock directory. */
export function lockRelative(dir: string, file: string): string {
  return path.relative(dir, file).split(path.sep).join('/');
}

export type LockedDocument =
  | { readonly ok: true; readonly real: string; readonly sha256: string }
  | {
      readonly ok: false;
      readonly real: string | null;
      readonly problem: 'missing' | 'unreadable' | 'outside_lock_directory';
      readonly detail: string;
    };

/** Resolves `file` (absolute) to its real path, checks it lies below `lockDir` (real) and digests its bytes. */
export async function readLockedDocument(lockDir: string, file: string): Promise<LockedDocument> {
  let real: string;
  try {
    real = await realpath(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, real: null, problem: code === 'ENOENT' ? 'missing' : 'unreadable', detail: code ?? (err as Error).message };
  }
  if (!isBelow(lockDir, real)) {
    return { ok: false, real, problem: 'outside_lock_directory', detail: `${real} is not below the lock directory ${lockDir}` };
  }
  try {
    return { ok: true, real, sha256: sha256Digest(await readRegularFile(real, 'document')) };
  } catch (err) {
    return { ok: false, real, problem: 'unreadable', detail: (err as NodeJS.ErrnoException).code ?? (err as Error).message };
  }
}
