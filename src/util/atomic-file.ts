// Atomic file replacement: write a temporary file beside the target, fsync it, rename it over the
// target, fsync the directory. A crash at any point leaves the old or the new content, never a torn file.

import { open, readdir, rename, stat, unlink, mkdir } from 'node:fs/promises';
import { pidAlive } from './pid-alive.js';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

export interface AtomicWriteOptions {
  /** File mode of the written file (0o600 for private files); absent: an existing target keeps its own, a new one gets 0o644. */
  mode?: number;
}

/** The temporary name of a write of `target` by process `pid`. */
const TEMP_NAME = /^\.(.+)\.(\d+)\.[0-9a-f]{12}\.tmp$/;

/** The mode the written file gets: the one asked for, else the existing target's, else 0o644. */
async function modeFor(target: string, wanted: number | undefined): Promise<number> {
  if (wanted !== undefined) return wanted;
  const existing = await stat(target).catch(() => null);
  return existing !== null && existing.isFile() ? existing.mode & 0o7777 : 0o644;
}

/** Removes temporary files of our naming pattern beside `target` left by processes no longer running. */
export async function removeStaleTemps(target: string): Promise<number> {
  const dir = path.dirname(target);
  let removed = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const m = TEMP_NAME.exec(name);
    if (m === null || m[1] !== path.basename(target) || pidAlive(Number(m[2]))) continue;
    if (
      await unlink(path.join(dir, name)).then(
        () => true,
        () => false,
      )
    )
      removed++;
  }
  return removed;
}

export async function writeFileAtomic(target: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = path.dirname(target);
  await mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const mode = await modeFor(target, options.mode);
  const handle = await open(tmp, 'wx', mode);
  try {
    await handle.chmod(mode);
    await handle.writeFile(data);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  try {
    await rename(tmp, target);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await syncDirectory(dir);
}

/** Flushes a directory's entries (a created, renamed or removed name) to disk. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
