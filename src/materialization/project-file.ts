// Publishing a materialization as a project file (TOOLS.md 3.8): the verified functional-syntax text is
// staged as a fsynced sibling of the target, under the project lock directory `.athene-workspace-lock/` at
// the project root, and published without clobbering: a new target is hard-linked into place (which fails
// if anything appeared there meanwhile); an existing target is first moved aside as the backup, its digest
// checked against `expected_target_digest`, and only then is the staged file linked in, so a target that
// was concurrently recreated is never overwritten. A lock left by a dead process is removed (the caller is
// told to retry); one whose owner cannot be determined is left for a human.

import { link, mkdir, open, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pidAlive } from '../util/pid-alive.js';
import { sha256Digest } from '../util/digest.js';
import { DomainError } from '../util/errors.js';
import type { JsonObject } from '../util/json-object.js';
import { syncDirectory } from '../util/atomic-file.js';

export const LOCK_DIR = '.athene-workspace-lock';

export interface PublishRequest {
  readonly root: string;
  readonly target: string;
  readonly text: string;
  readonly overwrite: boolean;
  readonly expectedTargetDigest: string | undefined;
}

export interface PublishOutcome {
  readonly status: 'committed' | 'noop';
  readonly targetDigest: string;
  readonly backup?: { readonly path: string; readonly sha256: string };
}

async function readIfExists(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Takes the project lock or explains why not; a lock of a dead process is removed and reported as recovered. */
async function takeLock(root: string): Promise<() => Promise<void>> {
  const dir = path.join(root, LOCK_DIR);
  try {
    await mkdir(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const owner = await readIfExists(path.join(dir, 'owner.json'));
    const pid = owner === null ? NaN : Number((JSON.parse(owner.toString('utf8')) as { pid?: unknown }).pid);
    if (Number.isInteger(pid) && !pidAlive(pid)) {
      await rm(dir, { recursive: true, force: true });
      throw new DomainError(
        `The project lock ${dir} was left by process ${pid}, which no longer runs; it was removed. Retry the commit.`,
        'materialization_workspace_recovery_applied',
        { lock: dir, retryable: true },
      );
    }
    if (Number.isInteger(pid)) {
      throw new DomainError(`The project lock ${dir} is held by process ${pid}; retry when it finishes.`, 'workspace_locked', {
        lock: dir,
        retryable: true,
      });
    }
    throw new DomainError(
      `The project lock ${dir} exists but names no owner. Stop other writers, keep copies of the target, compare digests with the preview, remove the lock, then retry.`,
      'materialization_workspace_recovery_ambiguous',
      { lock: dir },
    );
  }
  await writeFile(path.join(dir, 'owner.json'), JSON.stringify({ pid: process.pid, at: new Date().toISOString() }), { mode: 0o600 });
  return () => rm(dir, { recursive: true, force: true });
}

/** Writes `text` to a fresh sibling of `target`, fsynced. */
async function stage(target: string, text: string): Promise<string> {
  const staged = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.staged`);
  const h = await open(staged, 'wx', 0o644);
  try {
    await h.writeFile(text);
    await h.sync();
  } finally {
    await h.close();
  }
  return staged;
}

/** Publishes the verified text at the target, following the rules in the header. */
export async function publishProjectFile(req: PublishRequest): Promise<PublishOutcome> {
  const digest = sha256Digest(req.text);
  await mkdir(path.dirname(req.target), { recursive: true });
  const release = await takeLock(req.root);
  try {
    const current = await readIfExists(req.target);
    if (current !== null && sha256Digest(current) === digest) return { status: 'noop', targetDigest: digest };
    if (current !== null) {
      const currentDigest = sha256Digest(current);
      if (!req.overwrite) {
        throw new DomainError(
          `${req.target} exists; pass overwrite=true with expected_target_digest=${currentDigest} to replace it`,
          'target_exists',
          { path: req.target, target_digest: currentDigest },
        );
      }
      if (req.expectedTargetDigest !== currentDigest) {
        throw new DomainError(
          `${req.target} does not have the expected digest (expected ${req.expectedTargetDigest ?? 'none given'}, found ${currentDigest}); nothing was written`,
          'target_digest_mismatch',
          { path: req.target, target_digest: currentDigest },
        );
      }
    }
    const staged = await stage(req.target, req.text);
    try {
      const backup = current === null ? undefined : await displace(req.target, req.expectedTargetDigest!);
      try {
        await link(staged, req.target);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        throw new DomainError(
          `${req.target} was recreated by another writer during the commit; it was left as found and nothing was published`,
          'materialization_guarded_replacement_incomplete',
          {
            receipt: {
              staged_path: staged,
              displaced_path: backup?.path ?? null,
              target: req.target,
              target_state_known: true,
              target_preserved: true,
            },
          },
        );
      }
      await syncDirectory(path.dirname(req.target));
      return { status: 'committed', targetDigest: digest, ...(backup !== undefined ? { backup } : {}) };
    } finally {
      await unlink(staged).catch(() => undefined);
    }
  } finally {
    await release();
  }
}

/** Moves the existing target aside as its backup and checks that the moved file is the expected one. */
async function displace(target: string, expected: string): Promise<{ path: string; sha256: string }> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const backupPath = `${target}.${stamp}.bak`;
  await rename(target, backupPath);
  await syncDirectory(path.dirname(target));
  const moved = await readIfExists(backupPath);
  const movedDigest = moved === null ? null : sha256Digest(moved);
  if (movedDigest !== expected) {
    // someone else's file was moved aside: put it back unless the target was recreated meanwhile (the copy stays as the backup)
    const restored = await link(backupPath, target).then(
      () => true,
      () => false,
    );
    const facts: JsonObject = {
      backup_location_current: backupPath,
      backup_state_known: moved !== null,
      backup_verified: false,
      target_state_known: true,
      target_preserved: restored,
      ...(movedDigest !== null ? { backup_sha256: movedDigest } : {}),
      outcome_known: true,
    };
    throw new DomainError(
      `The target changed while it was being replaced: the displaced file (kept at ${backupPath}) does not have the expected digest; nothing was published`,
      'materialization_backup_published',
      facts,
    );
  }
  return { path: backupPath, sha256: movedDigest };
}
