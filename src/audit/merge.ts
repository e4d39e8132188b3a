// Merging a project's audit streams for export_audit_log: every source is checked before a byte of it is
// trusted (owner-only regular file, not a symlink, within the bounds, every line a canonical envelope), the
// events are re-redacted and put in the export order. Any refused source refuses the whole export: a
// partial audit log would look complete.

import { constants } from 'node:fs';
import { lstat, open, readdir, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { pidAlive } from '../util/pid-alive.js';
import { compareEvents, envelopeProblem, redactEvent, type AuditEvent } from './event.js';
import { DomainError, type ErrorCode } from '../util/errors.js';

export const MAX_SOURCE_BYTES = 16 * 1024 * 1024;
export const MAX_STREAMS = 1_000;
export const MAX_EVENTS = 20_000;
export const LOCK_FILE = '.export.lock';
const STALE_EMPTY_LOCK_MS = 60_000;

const STREAM_NAME = /^[A-Za-z0-9-]{1,64}\.\d{1,6}\.jsonl$/;

/** Why an export was refused: `code` is the tool's error code, `source` the offending file when one is. */
export class AuditMergeError extends DomainError {
  constructor(
    message: string,
    code: ErrorCode,
    readonly source?: string,
  ) {
    super(message, code, {
      ...(code === 'project_locked' ? { retryable: true } : {}),
      ...(source === undefined ? {} : { source }),
    });
    this.name = 'AuditMergeError';
  }
}

export interface MergedAudit {
  readonly events: readonly AuditEvent[];
  readonly sourceCount: number;
}

const uid = process.getuid?.() ?? -1;

function refuse(source: string, why: string): AuditMergeError {
  return new AuditMergeError(`audit source ${source} is refused: ${why}`, 'audit_source_refused', source);
}

/** The checks both the directory and each source pass: no symlink, owner-only, owned by this user. */
function privateProblem(s: { mode: number; uid: number }): string | null {
  if ((s.mode & 0o077) !== 0) return `mode ${(s.mode & 0o777).toString(8)} is not owner-only`;
  if (uid >= 0 && s.uid !== uid) return 'owned by another user';
  return null;
}

/** Reads one source without following a symlink, checking what was opened (not only what was named). */
async function readSource(dir: string, name: string): Promise<string> {
  const file = path.join(dir, name);
  const named = await lstat(file);
  if (named.isSymbolicLink()) throw refuse(name, 'it is a symbolic link');
  if (!named.isFile()) throw refuse(name, 'it is not a regular file');
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch((err: NodeJS.ErrnoException) => {
    throw refuse(name, err.code === 'ELOOP' ? 'it is a symbolic link' : err.message);
  });
  try {
    const s = await handle.stat();
    if (!s.isFile()) throw refuse(name, 'it is not a regular file');
    const problem = privateProblem(s);
    if (problem !== null) throw refuse(name, problem);
    if (s.size > MAX_SOURCE_BYTES) throw refuse(name, `${s.size} bytes exceed the ${MAX_SOURCE_BYTES}-byte bound`);
    const bytes = await handle.readFile();
    if (bytes.length > MAX_SOURCE_BYTES) throw refuse(name, `it grew past the ${MAX_SOURCE_BYTES}-byte bound`);
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (err) {
    if (err instanceof AuditMergeError) throw err;
    throw refuse(name, (err as Error).message);
  } finally {
    await handle.close();
  }
}

/**
 * The events of one source. Every line must be the canonical JSON of an envelope: a line that does not
 * re-serialize to itself has a duplicate key, a trailing token or foreign formatting, and is refused. An
 * unterminated last line is an append still in flight (or torn by a crash, after which the writer opens a
 * new part): it is left for a later export rather than refusing the stream.
 */
export function parseSource(name: string, text: string): AuditEvent[] {
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  if (complete === '') return [];
  const lines = complete.slice(0, -1).split('\n');
  return lines.map((line, i) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw refuse(name, `line ${i + 1} is not JSON`);
    }
    if (JSON.stringify(value) !== line)
      throw refuse(name, `line ${i + 1} is not canonical JSON (duplicate key, trailing token or reformatted)`);
    const problem = envelopeProblem(value);
    if (problem !== null) throw refuse(name, `line ${i + 1}: ${problem}`);
    return redactEvent(value as AuditEvent);
  });
}

/** Every event of a project's streams directory, validated, re-redacted and sorted; none when it does not exist. */
export async function mergeStreams(dir: string): Promise<MergedAudit> {
  let d;
  try {
    d = await lstat(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { events: [], sourceCount: 0 };
    throw err;
  }
  if (d.isSymbolicLink() || !d.isDirectory())
    throw new AuditMergeError(`the audit directory ${dir} is not a plain directory`, 'audit_source_refused');
  const dirProblem = privateProblem(d);
  if (dirProblem !== null) throw new AuditMergeError(`the audit directory ${dir} is refused: ${dirProblem}`, 'audit_source_refused');
  const names = (await readdir(dir)).filter((n) => n !== LOCK_FILE).sort();
  const strange = names.find((n) => !STREAM_NAME.test(n));
  if (strange !== undefined) throw refuse(strange, 'it is not an audit stream name (<workspace>.<part>.jsonl)');
  if (names.length > MAX_STREAMS)
    throw new AuditMergeError(`${names.length} streams exceed the bound of ${MAX_STREAMS}`, 'audit_too_large');
  const events: AuditEvent[] = [];
  const ids = new Set<string>();
  for (const name of names) {
    for (const e of parseSource(name, await readSource(dir, name))) {
      if (ids.has(e.event_id)) throw refuse(name, `event ${e.event_id} appears twice`);
      ids.add(e.event_id);
      events.push(e);
      if (events.length > MAX_EVENTS) throw new AuditMergeError(`the streams hold more than ${MAX_EVENTS} events`, 'audit_too_large');
    }
  }
  return { events: events.sort(compareEvents), sourceCount: names.length };
}

/** The export file's content: one canonical envelope per line. */
export function exportText(events: readonly AuditEvent[]): string {
  return events.map((e) => JSON.stringify(e) + '\n').join('');
}

/**
 * Runs `body` holding the project lock (`<dir>/.export.lock`, created exclusively with the holder's pid).
 * A lock whose holder process is gone is taken over; a live holder refuses with a retryable error.
 */
export async function withProjectLock<T>(dir: string, body: () => Promise<T>): Promise<T> {
  const file = path.join(dir, LOCK_FILE);
  const handle = await acquire(file);
  try {
    return await body();
  } finally {
    await handle.close();
    await unlink(file).catch(() => undefined);
  }
}

async function acquire(file: string, retried = false): Promise<FileHandle> {
  try {
    const handle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    await handle.writeFile(`${process.pid}\n`);
    await handle.sync();
    return handle;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || retried) throw err;
  }
  const holder = await readPid(file);
  // a lock without a pid yet is being created right now, unless it was left half-written long ago
  const held =
    holder === null
      ? Date.now() -
          (await lstat(file).then(
            (s) => s.mtimeMs,
            () => 0,
          )) <
        STALE_EMPTY_LOCK_MS
      : pidAlive(holder);
  if (held)
    throw new AuditMergeError(
      `another export of this project holds ${file}${holder === null ? '' : ` (process ${holder})`}`,
      'project_locked',
    );
  await unlink(file).catch(() => undefined);
  return acquire(file, true);
}

async function readPid(file: string): Promise<number | null> {
  try {
    const h = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const n = Number.parseInt((await h.readFile('utf8')).trim(), 10);
      return Number.isSafeInteger(n) && n > 0 ? n : null;
    } finally {
      await h.close();
    }
  } catch {
    return null;
  }
}
