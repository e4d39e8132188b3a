// Private job artifacts on disk: one 0700 directory per actor under `$ATHENE_HOME/jobs/`, one 0600 file per
// artifact named by an opaque UUID (never shown as a path). The directory name starts with the process id,
// so a later process can remove what a process that died without closing its actors left behind.

import { mkdir, chmod, readdir, readFile, rm, unlink } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../util/atomic-file.js';
import { sha256Digest } from '../util/digest.js';
import { pidAlive } from '../util/pid-alive.js';

export interface StoredArtifact {
  readonly artifact_id: string;
  readonly bytes: number;
  readonly sha256: string;
}

const OWNED_DIR = /^(\d+)-[0-9a-f-]{36}$/;

/** The parent of every actor's artifact directory: the private home, else the system temp directory. */
export function artifactsParent(home: string | null): string {
  return path.join(home ?? os.tmpdir(), home === null ? 'athene-jobs' : 'jobs');
}

async function privateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // the umask may have widened what mkdir made
  await chmod(dir, 0o700);
}

/** Removes the artifact directories of processes that no longer exist. */
export async function sweepOrphans(parent: string): Promise<void> {
  const entries = await readdir(parent).catch(() => [] as string[]);
  for (const name of entries) {
    const m = OWNED_DIR.exec(name);
    if (m !== null && Number(m[1]) !== process.pid && !pidAlive(Number(m[1])))
      await rm(path.join(parent, name), { recursive: true, force: true });
  }
}

/** The artifact directory named `id` under `parent`; the process id in its name lets a later process sweep it. */
export function artifactsDir(parent: string, id: string): string {
  return path.join(parent, `${process.pid}-${id}`);
}

export class ArtifactFiles {
  readonly dir: string;
  private created: Promise<void> | null = null;

  constructor(parent: string, id: string = randomUUID()) {
    this.dir = artifactsDir(parent, id);
  }

  /** Writes `data` atomically as a new 0600 artifact file. */
  async write(data: Uint8Array): Promise<StoredArtifact> {
    this.created ??= privateDir(path.dirname(this.dir))
      .then(() => sweepOrphans(path.dirname(this.dir)))
      .then(() => privateDir(this.dir));
    await this.created;
    const id = randomUUID();
    await writeFileAtomic(path.join(this.dir, id), data, { mode: 0o600 });
    return { artifact_id: id, bytes: data.byteLength, sha256: sha256Digest(data) };
  }

  read(id: string): Promise<Buffer> {
    return readFile(path.join(this.dir, id));
  }

  async remove(id: string): Promise<void> {
    await unlink(path.join(this.dir, id)).catch(() => undefined);
  }

  /** Deletes every artifact and the directory. */
  async removeAll(): Promise<void> {
    await this.created?.catch(() => undefined);
    await rm(this.dir, { recursive: true, force: true });
  }
}
