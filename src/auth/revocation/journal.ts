// The write-ahead revocation journal, `<home>/revocations.journal` (0600): one JSON line per revocation,
// appended and fsynced before the revocation is acknowledged, replayed onto the loaded state at start, and
// truncated (atomically) only once a state holding its entries is persisted. It is bounded: a full journal
// refuses the append, so the revocation fails visibly instead of being dropped.

import { open, readFile, chmod, mkdir, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../util/atomic-file.js';
import type { Revocation, RevocationKind } from '../oauth/state.js';

export const JOURNAL_FILE = 'revocations.journal';
export const JOURNAL_MAX_ENTRIES = 1024;
export const JOURNAL_MAX_BYTES = 2 * 1024 * 1024;

export interface JournalEntry extends Revocation {
  readonly seq: number;
}

/** Fault injection for tests: read at each append, so a test can switch it while the journal is open. */
export interface JournalFaults {
  failAppend?: boolean;
}

export class JournalFullError extends Error {
  constructor(entries: number, bytes: number) {
    super(
      `The revocation journal is full (${entries} of ${JOURNAL_MAX_ENTRIES} entries, ${bytes} of ${JOURNAL_MAX_BYTES} bytes); nothing was revoked`,
    );
    this.name = 'JournalFullError';
  }
}

export function journalPath(home: string): string {
  return path.join(home, JOURNAL_FILE);
}

const KINDS: ReadonlySet<string> = new Set<RevocationKind>(['revoke-grant', 'revoke-client', 'grant-reuse']);

function parseEntry(line: string): JournalEntry | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const e = value as Partial<JournalEntry>;
  const valid =
    Number.isSafeInteger(e.seq) &&
    typeof e.time === 'number' &&
    typeof e.kind === 'string' &&
    KINDS.has(e.kind) &&
    (e.client_id === null || typeof e.client_id === 'string') &&
    Array.isArray(e.grant_ids) &&
    e.grant_ids.every((g) => typeof g === 'string');
  return valid ? (e as JournalEntry) : null;
}

export interface ParsedJournal {
  readonly entries: JournalEntry[];
  /** Bytes of the complete entries (the length the file is cut back to). */
  readonly bytes: number;
  /** A last line cut short by a crash mid-append (never acknowledged), dropped. */
  readonly torn: boolean;
}

/**
 * Parses journal text. Only the last line may be damaged (a crash between write and fsync); a damaged
 * line before it means the file was altered, and the journal refuses to guess.
 */
export function parseJournal(text: string, file = JOURNAL_FILE): ParsedJournal {
  const lines = text.split('\n');
  // text ending in '\n' leaves an empty last element: nothing torn
  const tail = lines.pop() ?? '';
  const entries: JournalEntry[] = [];
  let bytes = 0;
  for (const [i, line] of lines.entries()) {
    const entry = parseEntry(line);
    if (entry === null) {
      if (i === lines.length - 1 && tail === '') return { entries, bytes, torn: true };
      throw new Error(
        `${file}: line ${i + 1} is not a revocation entry; the journal is damaged (restore it or remove it knowing its revocations are lost)`,
      );
    }
    entries.push(entry);
    bytes += Buffer.byteLength(line, 'utf8') + 1;
  }
  return { entries, bytes, torn: tail !== '' };
}

export function entryLine(entry: JournalEntry): string {
  return (
    JSON.stringify({ seq: entry.seq, time: entry.time, kind: entry.kind, client_id: entry.client_id, grant_ids: entry.grant_ids }) + '\n'
  );
}

export class RevocationJournal {
  private handle: FileHandle | null = null;
  private nextSeq: number;
  private count: number;
  private bytes: number;
  /** A failed append may have left part of a line: cut back to `bytes` before the next one. */
  private dirtyTail = false;

  private constructor(
    readonly file: string,
    readonly replay: readonly JournalEntry[],
    bytes: number,
    private readonly faults: JournalFaults,
  ) {
    this.count = replay.length;
    this.bytes = bytes;
    this.nextSeq = (replay.at(-1)?.seq ?? 0) + 1;
  }

  /** Opens (creating, 0600) the journal; `replay` holds its entries for the caller to apply. */
  static async open(file: string, faults: JournalFaults = {}): Promise<RevocationJournal> {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    let text: string | null = null;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (text === null) {
      await writeFileAtomic(file, '', { mode: 0o600 });
      return new RevocationJournal(file, [], 0, faults);
    }
    const parsed = parseJournal(text, file);
    if (parsed.torn) await writeFileAtomic(file, parsed.entries.map(entryLine).join(''), { mode: 0o600 });
    else await chmod(file, 0o600);
    return new RevocationJournal(file, parsed.entries, parsed.bytes, faults);
  }

  get entries(): number {
    return this.count;
  }

  get size(): number {
    return this.bytes;
  }

  /** Appends and fsyncs one entry; resolves only once it is durable. Throws JournalFullError when full. */
  async append(revocation: Revocation): Promise<JournalEntry> {
    const entry: JournalEntry = {
      seq: this.nextSeq,
      time: revocation.time,
      kind: revocation.kind,
      client_id: revocation.client_id,
      grant_ids: [...revocation.grant_ids],
    };
    const line = entryLine(entry);
    const length = Buffer.byteLength(line, 'utf8');
    if (this.count + 1 > JOURNAL_MAX_ENTRIES || this.bytes + length > JOURNAL_MAX_BYTES) throw new JournalFullError(this.count, this.bytes);
    const handle = await this.appendHandle();
    if (this.dirtyTail) {
      await handle.truncate(this.bytes);
      this.dirtyTail = false;
    }
    this.dirtyTail = true;
    if (this.faults.failAppend === true) throw new Error('Injected failure of the revocation journal append');
    await handle.write(line);
    await handle.datasync();
    this.dirtyTail = false;
    this.nextSeq++;
    this.count++;
    this.bytes += length;
    return entry;
  }

  /** Empties the journal atomically. Only call once a state holding every entry is persisted. */
  async compact(): Promise<void> {
    await writeFileAtomic(this.file, '', { mode: 0o600 });
    // the old handle points at the replaced file
    await this.closeHandle();
    this.count = 0;
    this.bytes = 0;
    this.dirtyTail = false;
  }

  async close(): Promise<void> {
    await this.closeHandle();
  }

  private async appendHandle(): Promise<FileHandle> {
    return (this.handle ??= await open(this.file, 'a', 0o600));
  }

  private async closeHandle(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.close();
  }
}
