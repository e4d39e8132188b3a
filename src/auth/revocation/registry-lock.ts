// One revocation actor per private directory. clients.json and the journal are each owned by a single
// actor, or two processes sharing a home (a broker and a process registered with it) would overwrite each
// other's grants and compact each other's journal entries. The owner is recorded in `<home>/oauth.lock`
// (0600) by PID; a lock whose process is gone is stale and may be taken over.

import { open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pidAlive } from '../../util/pid-alive.js';

const LOCK_FILE = 'oauth.lock';

/** Lock files held by this process: a second actor on the same home in one process is refused too. */
const heldHere = new Set<string>();

export interface RegistryLock {
  release(): Promise<void>;
}

export type LockOutcome = { readonly held: true; readonly lock: RegistryLock } | { readonly held: false; readonly owner: number };

export function registryLockPath(home: string): string {
  return path.join(home, LOCK_FILE);
}

async function ownerOf(file: string): Promise<number | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

async function create(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await handle.writeFile(`${process.pid}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

/** Takes the home's registry lock, or names the live process that holds it. */
export async function acquireRegistryLock(home: string): Promise<LockOutcome> {
  const file = registryLockPath(home);
  if (heldHere.has(file)) return { held: false, owner: process.pid };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await create(file)) {
      heldHere.add(file);
      return { held: true, lock: { release: () => release(file) } };
    }
    const owner = await ownerOf(file);
    if (owner !== null && owner !== process.pid && pidAlive(owner)) return { held: false, owner };
    // stale: its process is gone (or the file is unreadable). Re-read just before removing, so a lock a
    // concurrent starter has just taken over is left alone.
    if ((await ownerOf(file)) === owner) await rm(file, { force: true });
  }
  throw new Error(`Cannot take the OAuth registry lock ${file}: it keeps changing hands`);
}

async function release(file: string): Promise<void> {
  if (!heldHere.delete(file)) return;
  if ((await ownerOf(file)) === process.pid) await rm(file, { force: true });
}
