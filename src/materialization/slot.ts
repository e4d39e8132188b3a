// The single preview-reasoner slot of a server (TOOLS.md 3.8: one preview computes or disposes of a reasoner
// at a time per server). Window actors are threads, and other processes of the same server share its private
// directory, so the slot is a file there, created exclusively. It names its owner (process, thread, a random
// token) and a deadline (the preview's time bound plus a grace for disposal), so a slot left behind by a dead
// process or a lost thread is taken over once either is past. Without a private directory (server-less
// contexts) the slot is this thread's alone.

import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { threadId } from 'node:worker_threads';
import { pidAlive } from '../util/pid-alive.js';

export const SLOT_FILE = 'materialization-preview.lock';
/** Time a preview reasoner may take beyond its bound to be disposed of; also the age of an unreadable slot file treated as abandoned. */
export const DISPOSAL_GRACE_MS = 30_000;

let held = false;

/** Whether the slot file was left behind: its owner process is gone, its deadline passed, or it stayed unreadable too long. */
function abandoned(file: string): boolean {
  let text: string;
  let age: number;
  try {
    age = Date.now() - statSync(file).mtimeMs;
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
  try {
    const owner = JSON.parse(text) as { pid?: unknown; deadline?: unknown };
    if (typeof owner.pid === 'number' && !pidAlive(owner.pid)) return true;
    return typeof owner.deadline === 'number' && Date.now() > owner.deadline;
  } catch {
    // written but not yet filled in by its owner, or damaged
    return age > DISPOSAL_GRACE_MS;
  }
}

function ownedBy(file: string, token: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { token?: unknown }).token === token;
  } catch {
    return false;
  }
}

/**
 * Claims the slot for a preview bounded by `timeoutMs`, synchronously; returns its release, or null while
 * another preview holds it.
 */
export function claimSlot(home: string | undefined, timeoutMs: number): (() => void) | null {
  if (held) return null;
  if (home === undefined) {
    held = true;
    return () => {
      held = false;
    };
  }
  const file = path.join(home, SLOT_FILE);
  const token = randomBytes(12).toString('hex');
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (!abandoned(file)) return null;
      rmSync(file, { force: true });
      continue;
    }
    try {
      writeSync(fd, JSON.stringify({ pid: process.pid, thread: threadId, token, deadline: Date.now() + timeoutMs + DISPOSAL_GRACE_MS }));
    } finally {
      closeSync(fd);
    }
    held = true;
    return () => {
      held = false;
      // a slot taken over after its deadline belongs to someone else now
      if (ownedBy(file, token)) rmSync(file, { force: true });
    };
  }
  return null;
}
