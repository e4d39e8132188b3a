// The embedded journal: per document, a directory `<home>/journal/<digest of the path>/` (0700) holding
// `journal.log` (what is not yet saved, and the markers saying so), `history.log` (applied entries, kept
// by the retention settings) and `document` (the path). Each record is one line, `<checksum> <json>`; a
// line whose checksum fails or that has no newline (the process died mid-append) is not read, and the
// next append first cuts a torn tail off. Appends queue and are written by one writer: every record
// queued while a write and fsync are under way goes out in the next one (group commit).

import { writeSync } from 'node:fs';
import { mkdir, open, readFile, readdir, stat, chmod, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../util/atomic-file.js';
import { sha256Hex } from '../util/digest.js';
import type { AsideMarker, ChangeEntry, JournalRecord, ResolvedMarker, SaveMarker } from './records.js';
import type { ChangeStore, JournalState } from './store.js';

export interface Retention {
  readonly maxAgeDays: number;
  readonly maxBytes: number;
}

const JOURNAL = 'journal.log';
const HISTORY = 'history.log';
const DOCUMENT = 'document';

function checksum(json: string): string {
  return sha256Hex(json).slice(0, 16);
}

export function encodeRecord(r: JournalRecord): string {
  const json = JSON.stringify(r);
  return checksum(json) + ' ' + json + '\n';
}

/** The records of a log's text: complete lines whose checksum holds, in order. */
export function decodeRecords(text: string): JournalRecord[] {
  const out: JournalRecord[] = [];
  let from = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; from = nl + 1, nl = text.indexOf('\n', from)) {
    const line = text.slice(from, nl);
    const json = line.slice(17);
    if (line[16] !== ' ' || checksum(json) !== line.slice(0, 16)) continue;
    try {
      out.push(JSON.parse(json) as JournalRecord);
    } catch {
      continue;
    }
  }
  return out;
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

/** The state of a document's journal from its records (history first, then the journal). */
export function journalState(document: string, records: readonly JournalRecord[], since: number): JournalState {
  const entries = new Map<number, ChangeEntry>();
  let saved: SaveMarker | null = null;
  let aside: AsideMarker | null = null;
  let resolved: ResolvedMarker | null = null;
  let lastSeq = 0;
  for (const r of records) {
    switch (r.type) {
      case 'change':
        lastSeq = Math.max(lastSeq, r.seq);
        if (r.seq > since) entries.set(r.seq, r);
        break;
      case 'save': if (saved === null || r.seq >= saved.seq) saved = r; break;
      case 'aside': if (aside === null || r.upto >= aside.upto) aside = r; break;
      case 'resolved': if (resolved === null || r.upto >= resolved.upto) resolved = r; break;
    }
  }
  const open = aside !== null && (resolved === null || resolved.upto < aside.upto);
  return {
    document,
    entries: [...entries.values()].sort((a, b) => a.seq - b.seq),
    lastSeq,
    saved,
    aside: open && aside !== null ? { from: Math.max(aside.from, resolved?.upto ?? 0), upto: aside.upto, time: aside.time } : null,
  };
}

interface Queued {
  lines: string;
  waiters: { resolve: () => void; reject: (err: Error) => void }[];
}

export class FileChangeStore implements ChangeStore {
  private readonly root: string;
  private readonly handles = new Map<string, FileHandle>();
  private queue = new Map<string, Queued>();
  /** The one writer: every write, save and compaction runs after the previous one. */
  private chain: Promise<void> = Promise.resolve();
  private flushScheduled = false;

  constructor(home: string, private readonly retention: Retention) {
    this.root = path.join(home, 'journal');
  }

  private dir(document: string): string {
    return path.join(this.root, sha256Hex(document).slice(0, 32));
  }

  append(document: string, records: readonly JournalRecord[]): Promise<void> {
    return new Promise((resolve, reject) => {
      let q = this.queue.get(document);
      if (q === undefined) this.queue.set(document, (q = { lines: '', waiters: [] }));
      for (const r of records) q.lines += encodeRecord(r);
      q.waiters.push({ resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        this.serial(() => this.flush());
      }
    });
  }

  private serial(op: () => Promise<void>): Promise<void> {
    const run = this.chain.then(op);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const batch = this.queue;
    this.queue = new Map();
    await Promise.all([...batch].map(async ([document, q]) => {
      try {
        const handle = await this.handle(document);
        // the write only copies into the page cache: done on this thread, it leaves the thread pool to the fsync
        writeSync(handle.fd, q.lines);
        await handle.datasync();
        for (const w of q.waiters) w.resolve();
      } catch (err) {
        this.handles.get(document)?.close().catch(() => undefined);
        this.handles.delete(document);
        for (const w of q.waiters) w.reject(err as Error);
      }
    }));
  }

  /** The journal's append handle; a new one first makes the directory and cuts off a torn last line. */
  private async handle(document: string): Promise<FileHandle> {
    const cached = this.handles.get(document);
    if (cached !== undefined) return cached;
    const dir = await this.ensureDir(document);
    const file = path.join(dir, JOURNAL);
    await cutTornTail(file);
    const handle = await open(file, 'a', 0o600);
    this.handles.set(document, handle);
    return handle;
  }

  private async ensureDir(document: string): Promise<string> {
    await mkdir(this.root, { recursive: true, mode: 0o700 });
    const dir = this.dir(document);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await chmod(dir, 0o700);
    const docFile = path.join(dir, DOCUMENT);
    if ((await readText(docFile)) !== document) {
      await writeFileAtomic(docFile, document, { mode: 0o600 });
    }
    return dir;
  }

  async readSince(document: string, since: number): Promise<JournalState> {
    await this.chain;
    const dir = this.dir(document);
    const records = [...decodeRecords(await readText(path.join(dir, HISTORY))), ...decodeRecords(await readText(path.join(dir, JOURNAL)))];
    return journalState(document, records, since);
  }

  markSaved(document: string, marker: SaveMarker): Promise<void> {
    return this.serial(async () => {
      const dir = await this.ensureDir(document);
      const journalFile = path.join(dir, JOURNAL);
      const records = decodeRecords(await readText(journalFile));
      const state = journalState(document, records, 0);
      const asideFrom = state.aside?.from ?? Infinity;
      const asideUpto = state.aside?.upto ?? -Infinity;
      const pending = (e: ChangeEntry) => e.seq > asideFrom && e.seq <= asideUpto;
      const saved = state.entries.filter((e) => e.seq <= marker.seq && !pending(e));
      const history = await open(path.join(dir, HISTORY), 'a', 0o600);
      try {
        await history.write(saved.map(encodeRecord).join('') + encodeRecord(marker));
        await history.datasync();
      } finally {
        await history.close();
      }
      const kept: JournalRecord[] = [];
      if (state.aside !== null) {
        kept.push({ type: 'aside', from: state.aside.from, upto: state.aside.upto, time: state.aside.time });
        kept.push(...state.entries.filter(pending));
      }
      kept.push(marker, ...state.entries.filter((e) => e.seq > marker.seq && !pending(e)));
      await this.handles.get(document)?.close();
      this.handles.delete(document);
      await writeFileAtomic(journalFile, kept.map(encodeRecord).join(''), { mode: 0o600 });
    });
  }

  compact(document: string, now: Date): Promise<void> {
    return this.serial(async () => {
      const file = path.join(this.dir(document), HISTORY);
      const text = await readText(file);
      if (text === '') return;
      const oldest = now.getTime() - this.retention.maxAgeDays * 86_400_000;
      const lines = text.split('\n').filter((l) => l !== '');
      let keep = lines.filter((l) => {
        const r = decodeRecords(l + '\n')[0];
        return r !== undefined && (r.type !== 'change' || Date.parse(r.time) >= oldest);
      });
      let bytes = keep.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
      while (bytes > this.retention.maxBytes && keep.length > 0) {
        bytes -= Buffer.byteLength(keep[0]) + 1;
        keep = keep.slice(1);
      }
      if (keep.length !== lines.length) await writeFileAtomic(file, keep.map((l) => l + '\n').join(''), { mode: 0o600 });
    });
  }

  async unsavedDocuments(): Promise<string[]> {
    await this.chain;
    let names: string[];
    try {
      names = await readdir(this.root);
    } catch {
      return [];
    }
    const out: string[] = [];
    for (const name of names) {
      const document = await readText(path.join(this.root, name, DOCUMENT));
      if (document === '') continue;
      const state = journalState(document, decodeRecords(await readText(path.join(this.root, name, JOURNAL))), 0);
      const after = Math.max(state.saved?.seq ?? 0, state.aside?.upto ?? 0);
      if (state.aside !== null || state.entries.some((e) => e.seq > after)) out.push(document);
    }
    return out.sort();
  }

  async close(): Promise<void> {
    await this.chain;
    for (const h of this.handles.values()) await h.close().catch(() => undefined);
    this.handles.clear();
  }
}

/** Cuts the file after its last newline: a line the process did not finish is never continued. */
async function cutTornTail(file: string): Promise<void> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    return;
  }
  if (size === 0) return;
  const text = await readFile(file);
  const end = text.lastIndexOf(0x0a) + 1;
  if (end === size) return;
  const handle = await open(file, 'r+');
  try {
    await handle.truncate(end);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The documents of `home`'s journal with unsaved or set-aside entries (retention plays no part in reading). */
export function unsavedJournalDocuments(home: string): Promise<string[]> {
  return new FileChangeStore(home, { maxAgeDays: Infinity, maxBytes: Infinity }).unsavedDocuments();
}

/** Documents a start reopens beyond those it was given: unsaved journal entries, a file still there. */
export async function documentsToReopen(home: string, given: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const d of await unsavedJournalDocuments(home)) {
    if (given.includes(d)) continue;
    if (await stat(d).then((s) => s.isFile(), () => false)) out.push(d);
  }
  return out;
}
