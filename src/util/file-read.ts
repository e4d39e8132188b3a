// The one way a tool reads a file. The file is opened non-blocking (a FIFO or a terminal cannot hold one of
// libuv's I/O threads: with no writer the open returns at once), fstat'ed on the open descriptor, and read
// only when it is a regular file within the size limit of its kind. Files inside a protected directory (the
// server's private directory) and kernel pseudo-files (/proc, /sys, /dev) are refused whatever the caller's
// policy says. Every thread that reads for a tool is configured with the same FileReadConfig.

import { constants, realpathSync } from 'node:fs';
import { open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { DomainError } from './errors.js';

/** What is read, for its size limit. */
export type FileKind = 'document' | 'policy' | 'catalog' | 'shapes' | 'query';

export interface FileReadConfig {
  /** Real paths of directories no tool may read (the private directory). */
  readonly protected: readonly string[];
  readonly limits: Readonly<Record<FileKind, number>>;
}

export const DEFAULT_READ_LIMITS: Readonly<Record<FileKind, number>> = Object.freeze({
  document: 1024 ** 3,
  policy: 1024 * 1024,
  catalog: 16 * 1024 * 1024,
  shapes: 256 * 1024 * 1024,
  query: 1024 * 1024,
});

/** The limits a settings object names (`max_<kind>_bytes`), defaults for those it does not. */
export function readLimitsFrom(settings: Partial<Record<`max_${FileKind}_bytes`, number>>): Record<FileKind, number> {
  const out = { ...DEFAULT_READ_LIMITS };
  for (const kind of Object.keys(out) as FileKind[]) out[kind] = settings[`max_${kind}_bytes`] ?? out[kind];
  return out;
}

export type FileReadErrorCode = 'not_regular_file' | 'file_too_large' | 'protected_path';

export class FileReadError extends DomainError {
  override name = 'FileReadError';
  declare readonly code: FileReadErrorCode;
  constructor(
    message: string,
    code: FileReadErrorCode,
    readonly file: string,
  ) {
    super(message, code, { path: file });
  }
}

const PSEUDO_ROOTS = ['/proc', '/sys', '/dev'];

let limits: Record<FileKind, number> = { ...DEFAULT_READ_LIMITS };
const protectedDirs = new Set<string>();

function realOrResolved(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** Adds protected directories and sets the limits of this thread (protection is only ever added). */
export function configureFileReads(config: Partial<FileReadConfig>): void {
  for (const dir of config.protected ?? []) {
    protectedDirs.add(path.resolve(dir));
    protectedDirs.add(realOrResolved(dir));
  }
  if (config.limits !== undefined) limits = { ...config.limits };
}

/** This thread's configuration, to hand to another thread that reads for the same caller. */
export function fileReadConfig(): FileReadConfig {
  return { protected: [...protectedDirs], limits: { ...limits } };
}

const inside = (root: string, p: string) => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/** True when `real` (an absolute, symlink-free path) lies in a protected directory. */
export function isProtectedPath(real: string): boolean {
  for (const dir of protectedDirs) if (inside(dir, real)) return true;
  return false;
}

/** The path the descriptor really names (Linux: /proc/self/fd), else the file's real path. */
async function realOf(handle: FileHandle, file: string): Promise<string> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return realpath(file);
  }
}

function kindOfNode(s: import('node:fs').Stats): string {
  if (s.isFIFO()) return 'a FIFO';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isDirectory()) return 'a directory';
  if (s.isSocket()) return 'a socket';
  return 'not a regular file';
}

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** How a read is checked: the size limit (named for its message) and whether protected directories are refused. */
interface ReadRule {
  readonly what: string;
  readonly limit: number;
  readonly refuseProtected: boolean;
}

async function openChecked(file: string, rule: ReadRule): Promise<{ handle: FileHandle; size: number }> {
  const handle = await open(file, OPEN_FLAGS);
  try {
    const real = await realOf(handle, file);
    if (rule.refuseProtected && isProtectedPath(real))
      throw new FileReadError(`${file} is inside the server's private directory, which no tool may read`, 'protected_path', file);
    if (PSEUDO_ROOTS.some((r) => inside(r, real)))
      throw new FileReadError(
        `${file} is a kernel pseudo-file (${real.split(path.sep).slice(0, 2).join(path.sep)}), not a regular file`,
        'not_regular_file',
        file,
      );
    const stats = await handle.stat();
    if (!stats.isFile()) throw new FileReadError(`${file} is ${kindOfNode(stats)}; only regular files are read`, 'not_regular_file', file);
    if (stats.size > rule.limit)
      throw new FileReadError(
        `${file} is ${stats.size} bytes, over the ${rule.what} size limit of ${rule.limit} bytes`,
        'file_too_large',
        file,
      );
    return { handle, size: stats.size };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

async function readChecked(file: string, rule: ReadRule): Promise<Buffer> {
  const { handle, size } = await openChecked(file, rule);
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const want = Math.max(64 * 1024, Math.min(size - total, 16 * 1024 * 1024));
      const buffer = Buffer.allocUnsafe(want);
      const { bytesRead } = await handle.read(buffer, 0, want, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > rule.limit)
        throw new FileReadError(
          `${file} grew over the ${rule.what} size limit of ${rule.limit} bytes while it was read`,
          'file_too_large',
          file,
        );
      chunks.push(bytesRead === want ? buffer : buffer.subarray(0, bytesRead));
    }
    const [only] = chunks;
    return chunks.length === 1 && only !== undefined ? only : Buffer.concat(chunks, total);
  } finally {
    await handle.close();
  }
}

const toolRule = (kind: FileKind): ReadRule => ({ what: kind, limit: limits[kind], refuseProtected: true });

/** Opens `file` for a tool read and checks it; the caller closes the handle. */
export async function openRegularFile(file: string, kind: FileKind): Promise<{ handle: FileHandle; size: number; limit: number }> {
  const rule = toolRule(kind);
  return { ...(await openChecked(file, rule)), limit: rule.limit };
}

/** Reads a whole regular file of the given kind (see the module comment); a file that grows past the limit is refused. */
export async function readRegularFile(file: string, kind: FileKind): Promise<Buffer>;
export async function readRegularFile(file: string, kind: FileKind, encoding: 'utf8'): Promise<string>;
export async function readRegularFile(file: string, kind: FileKind, encoding?: 'utf8'): Promise<Buffer | string> {
  const bytes = await readChecked(file, toolRule(kind));
  return encoding === 'utf8' ? bytes.toString('utf8') : bytes;
}

/**
 * Reads one of the server's own files (its configuration in the private directory, named by the server, never
 * by a caller) with the same non-blocking open and regular-file check, within `maxBytes`. It is the only read
 * not refused inside the private directory: a path a caller chose must go through readRegularFile.
 */
export async function readServerPrivateFile(file: string, maxBytes: number): Promise<Buffer> {
  return readChecked(file, { what: 'private file', limit: maxBytes, refuseProtected: false });
}
