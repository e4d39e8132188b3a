// The embedded journal: per document, a directory `<home>/journal/<digest of the path>/` (0700) holding
// `journal.log` (what is not yet saved, and the markers saying so), `history.log` (applied entries, kept
// by the retention settings) and `document` (the path). Each record is one line, `<checksum> <json>`; a
// line whose checksum fails or that has no newline (the process died mid-append) is not read, and the
// next append first cuts a torn tail off. The checksum is the first 16 hex digits of the JSON's SHA-256
// (a CRC-32 was measured: about 0.4 µs less per 900-byte line, not worth a second line format that older
// builds would skip). Appends queue and are written by one writer: every record queued in the same turn
// of the event loop goes out in one write and fsync (group commit). Two batches may be fsyncing at once: the next one is written while the previous one's
// fsync runs once as many calls wait as that one carries (callers that came back from the batch before it
// need not wait for its fsync to end; a trickle of calls does not cost an fsync each); a third waits. A
// batch is acknowledged only after every earlier one.
// Several windows (threads or processes) may journal one document: a lock file in its directory covers
// numbering and writing (not the fsync), and each writer first reads what others appended since it took the
// lock, so sequence numbers never repeat. A writer keeps the lock across a busy period (a lease): its batches
// then skip creating and removing the lock file and looking for others' appends. It lets go once no batch
// was under way for a moment, or when the lease runs out, and lets a writer waiting for the lock (it leaves
// a marker file saying so) take it first.
// The journal grows in zero-filled chunks ahead of its data, and appends write into them: an fdatasync then
// has only data to flush, not the file's size and block map, which costs the kernel about half the CPU per
// batch (measured on ext4). The data ends at the first zero byte; readers see the fill as a torn last line.

import {
  closeSync,
  constants,
  existsSync,
  fdatasync,
  fstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  readSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { mkdir, open, readFile, readdir, stat, chmod } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../util/atomic-file.js';
import { sha256Hex } from '../util/digest.js';
import type { AsideMarker, ChangeEntry, JournalRecord, ResolvedMarker, SaveMarker } from './records.js';
import type { ChangeStore, JournalState } from './store.js';
import { unreachable } from '../util/unreachable.js';

export interface Retention {
  readonly maxAgeDays: number;
  readonly maxBytes: number;
}

const JOURNAL = 'journal.log';
const LOCK = 'journal.lock';
/** Left by a writer waiting for the lock: the lease holder lets go when its lease runs out. */
const WAITING = 'journal.lock.waiting';
/** A lock file older than this was left by a writer that died holding it (a lease is renewed well before). */
const STALE_LOCK_MS = 10_000;
/** How long a writer keeps the lock across a busy period before it renews it, letting a waiting writer go first. */
const LEASE_MS = 500;
/** How long a writer keeps the lock once idle: a caller that comes back after its answer finds it still held. */
const IDLE_MS = 10;
/** How long a writer whose lease ran out waits for the waiting writer to take the lock. */
const YIELD_MS = 200;
const HISTORY = 'history.log';
const DOCUMENT = 'document';
/** Batches whose fsync may run at once: the next batch is written during the previous one's fsync. */
const SYNCS_IN_FLIGHT = 2;
/** The zero fill a journal grows by: an fdatasync commits the file's size once per this many bytes. */
const GROWTH = 1 << 20;
const ZEROS = Buffer.alloc(64 * 1024);

/** A lock this writer keeps across batches: what its file holds and when it was taken. */
interface Lease {
  readonly hold: string;
  readonly since: number;
}

/** A batch written and being fsynced: `done` settles (never rejects) once its fsyncs did. */
interface Syncing {
  readonly done: Promise<void>;
  readonly calls: number;
}

/** The checksum field's length: hex digits of a SHA-256. */
const SUM = 16;

function checksum(json: string): string {
  return sha256Hex(json).slice(0, SUM);
}

export function encodeRecord(r: JournalRecord): string {
  const json = JSON.stringify(r);
  return checksum(json) + ' ' + json + '\n';
}

/** A line's JSON if its checksum holds; else null. */
function checkedJson(line: string): string | null {
  const json = line.slice(SUM + 1);
  return line[SUM] === ' ' && checksum(json) === line.slice(0, SUM) ? json : null;
}

/**
 * The lines of a batch being written, encoded into one buffer kept from batch to batch (the write is
 * synchronous): a batch allocates no joined text and no copy of it for the write.
 */
let lineBytes = Buffer.allocUnsafe(64 * 1024);

/** The JSON of principal and client records, which every entry of a caller repeats: each serialized once. */
const recordJson = new WeakMap<object, string>();

function cachedJson(x: object | null): string {
  if (x === null) return 'null';
  let json = recordJson.get(x);
  if (json === undefined) recordJson.set(x, (json = JSON.stringify(x)));
  return json;
}

/** The keys `changeEntryJson` writes. */
type WrittenKey =
  | 'type'
  | 'seq'
  | 'time'
  | 'document'
  | 'batch'
  | 'principal'
  | 'client'
  | 'session_id'
  | 'tool'
  | 'cause'
  | 'reverts'
  | 'changes'
  | 'entities'
  | 'revision_before'
  | 'revision_after'
  | 'fingerprint_before'
  | 'fingerprint_after'
  | 'undoes'
  | 'redoes';
type Exhausted<T extends never> = T;
/** A key added to ChangeEntry fails to compile here until changeEntryJson writes it. */
type _EveryKeyWritten = Exhausted<Exclude<keyof ChangeEntry, WrittenKey>>;

/** Makes room in `lineBytes` for `bytes` more after `at`, keeping what is before it. */
function room(at: number, bytes: number): void {
  if (at + bytes <= lineBytes.length) return;
  const grown = Buffer.allocUnsafe(Math.max(at + bytes, lineBytes.length * 2));
  lineBytes.copy(grown, 0, 0, at);
  lineBytes = grown;
}

/** What JSON.stringify escapes in a string (lone surrogates included, so any surrogate sends it there). */
const ESCAPED = /[\u0000-\u001f"\\\ud800-\udfff]/;

/** A string as JSON.stringify writes it; one with nothing to escape (the usual case) by concatenation. */
function jsonString(x: string | null): string {
  return x === null || ESCAPED.test(x) ? JSON.stringify(x) : '"' + x + '"';
}

/**
 * A change entry's JSON as JSON.stringify writes an entry the recorder built (its keys in that order), by
 * concatenation: the principal and client are serialized once rather than per entry, and the text goes to
 * the line buffer in one write (a write per piece cost more than the pieces).
 */
function changeEntryJson(e: ChangeEntry): string {
  return (
    '{"type":"change","seq":' +
    e.seq +
    ',"time":' +
    jsonString(e.time) +
    ',"document":' +
    jsonString(e.document) +
    ',"batch":' +
    jsonString(e.batch) +
    ',"principal":' +
    cachedJson(e.principal) +
    ',"client":' +
    cachedJson(e.client) +
    ',"session_id":' +
    jsonString(e.session_id) +
    ',"tool":' +
    jsonString(e.tool) +
    ',"cause":' +
    jsonString(e.cause) +
    (e.reverts === undefined ? '' : ',"reverts":' + JSON.stringify(e.reverts)) +
    ',"changes":' +
    JSON.stringify(e.changes) +
    ',"entities":' +
    JSON.stringify(e.entities) +
    ',"revision_before":' +
    e.revision_before +
    ',"revision_after":' +
    e.revision_after +
    ',"fingerprint_before":' +
    jsonString(e.fingerprint_before) +
    ',"fingerprint_after":' +
    jsonString(e.fingerprint_after) +
    (e.undoes === undefined ? '' : ',"undoes":' + e.undoes) +
    (e.redoes === undefined ? '' : ',"redoes":' + e.redoes) +
    '}'
  );
}

/** Encodes `r` as encodeRecord does into `lineBytes` at `at`; returns where its line ends. */
function encodeLineAt(r: JournalRecord, at: number): number {
  const json = r.type === 'change' ? changeEntryJson(r) : JSON.stringify(r);
  // the JSON first, after room for its checksum, which is of its bytes; at most 3 UTF-8 bytes per UTF-16 unit
  const from = at + SUM + 1;
  room(from, json.length * 3 + 1);
  const to = from + lineBytes.write(json, from, 'utf8');
  lineBytes.write(sha256Hex(lineBytes.subarray(from, to)), at, SUM, 'latin1');
  lineBytes[at + SUM] = 0x20;
  lineBytes[to] = 0x0a;
  return to + 1;
}

/** The records of a log's text: complete lines whose checksum holds, in order. */
export function decodeRecords(text: string): JournalRecord[] {
  const out: JournalRecord[] = [];
  let from = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; from = nl + 1, nl = text.indexOf('\n', from)) {
    const json = checkedJson(text.slice(from, nl));
    if (json === null) continue;
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
      case 'save':
        if (saved === null || r.seq >= saved.seq) saved = r;
        break;
      case 'aside':
        if (aside === null || r.upto >= aside.upto) aside = r;
        break;
      case 'resolved':
        if (resolved === null || r.upto >= resolved.upto) resolved = r;
        break;
      default:
        return unreachable(r);
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

/**
 * A document's records queued for the next batch. Every call of the batch waits on the one `durable`
 * promise: a call held across the fsync costs no promise or closure of its own.
 */
interface Queued {
  readonly records: JournalRecord[];
  /** Per record, what sees it once numbered. */
  readonly numbered: (((entry: ChangeEntry) => void) | undefined)[];
  readonly durable: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
}

function queued(): Queued {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const durable = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { records: [], numbered: [], durable, resolve, reject };
}

/** A document's journal as this writer has it open: where its own last write ended and the last seq. */
interface OpenLog {
  /** The document's journal directory (its name is a digest of the path, not taken again per batch). */
  readonly dir: string;
  readonly fd: number;
  readonly ino: number;
  /** Where the data ends and the zero fill begins. */
  end: number;
  /** The file's length, fill included. */
  size: number;
  lastSeq: number;
  /** Settles once every batch written to it so far is durable; rejects if one of them could not be. */
  durable: Promise<void>;
}

function datasync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fdatasync(fd, (err) => (err === null ? resolve() : reject(err))));
}

/** Settles after both, rejecting with the first one's error: a batch is not durable unless the earlier ones are. */
async function after(earlier: Promise<void>, own: Promise<void>): Promise<void> {
  const [a, b] = await Promise.allSettled([earlier, own]);
  if (a.status === 'rejected') throw a.reason;
  if (b.status === 'rejected') throw b.reason;
}

function lastSeqOf(records: readonly JournalRecord[], from: number): number {
  let seq = from;
  for (const r of records) if (r.type === 'change' || r.type === 'save') seq = Math.max(seq, r.seq);
  return seq;
}

/** Runs `f` holding the document's lock. */
async function locked<T>(dir: string, f: () => Promise<T>): Promise<T> {
  await lock(dir);
  try {
    return await f();
  } finally {
    unlinkSync(path.join(dir, LOCK));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The writer in a lock file: its thread as `<pid>/task/<tid>` where /proc tells (Linux), else its pid. A lease
 * held by a process that was killed, or a window thread that crashed, then does not stall the next writer.
 */
const holder = ((): string => {
  try {
    return readlinkSync('/proc/thread-self');
  } catch {
    return String(process.pid);
  }
})();
/** Tells this thread's holds of a lock apart. */
let holds = 0;

/**
 * Takes the document's lock file, waiting for another writer's (or breaking one its writer left behind: it
 * ended, or its lock is stale); returns what the file holds.
 */
async function lock(dir: string): Promise<string> {
  const file = path.join(dir, LOCK);
  let waited = false;
  for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
    let fd: number | null = null;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (fd !== null) {
      const hold = `${holder} ${++holds}`;
      try {
        writeSync(fd, hold);
      } finally {
        closeSync(fd);
      }
      if (waited) unlinkQuietly(path.join(dir, WAITING));
      return hold;
    }
    waited = true;
    closeSync(openSync(path.join(dir, WAITING), 'a', 0o600));
    if (abandoned(file)) unlinkQuietly(file);
    await sleep(wait);
  }
}

/** Whether the lock file's writer is gone (its thread or process ended) or left it longer ago than a lease could last. */
function abandoned(file: string): boolean {
  const writer = holdIn(file)?.split(' ')[0] ?? '';
  if (writer.includes('/task/') ? !existsSync(`/proc/${writer}`) : writer !== '' && !processAlive(Number(writer))) return true;
  const stats = statSync(file, { throwIfNoEntry: false });
  return stats !== undefined && Date.now() - stats.mtimeMs > STALE_LOCK_MS;
}

function holdIn(file: string): string | null {
  try {
    return readFileSync(file, 'latin1');
  } catch {
    return null;
  }
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // gone already
  }
}

/**
 * Before taking the lock: lets a writer that waits for it take it first (it removes its marker once it has).
 * A marker still there after the wait was left by a writer that stopped waiting; one still waiting leaves it again.
 */
async function yieldToWaiter(dir: string): Promise<void> {
  const marker = path.join(dir, WAITING);
  if (statSync(marker, { throwIfNoEntry: false }) === undefined) return;
  const until = performance.now() + YIELD_MS;
  while (statSync(marker, { throwIfNoEntry: false }) !== undefined) {
    if (performance.now() >= until) return unlinkQuietly(marker);
    await sleep(1);
  }
}

export class FileChangeStore implements ChangeStore {
  private readonly root: string;
  private readonly logs = new Map<string, OpenLog>();
  private queue = new Map<string, Queued>();
  /** The one writer: every write, save and compaction runs after the previous one. */
  private chain: Promise<void> = Promise.resolve();
  private flushScheduled = false;
  /** The batches whose fsyncs are under way, oldest first. */
  private readonly syncing: Syncing[] = [];
  /** Calls queued for the next batch. */
  private queuedCalls = 0;
  /** Wakes a flush waiting for its turn: an fsync ended or a call was queued. */
  private wake: (() => void) | null = null;
  /** The documents' directories whose lock this writer holds across batches. */
  private readonly leases = new Map<string, Lease>();
  private idleTimer: NodeJS.Timeout | null = null;
  /** When the last batch's fsyncs ended: the idle time counts from there. */
  private lastBatch = 0;

  constructor(
    home: string,
    private readonly retention: Retention,
  ) {
    this.root = path.join(home, 'journal');
  }

  private dir(document: string): string {
    return path.join(this.root, sha256Hex(document).slice(0, 32));
  }

  append(document: string, records: readonly JournalRecord[], numbered?: (entry: ChangeEntry) => void): Promise<void> {
    let q = this.queue.get(document);
    if (q === undefined) this.queue.set(document, (q = queued()));
    for (const record of records) {
      q.records.push(record);
      q.numbered.push(numbered);
    }
    this.queuedCalls++;
    this.wake?.();
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // the flush waits for the event loop's turn: the calls that arrived with this one join its write and fsync;
      // it settles every batch itself and never rejects
      void this.serial(() => new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush()));
    }
    return q.durable;
  }

  private serial(op: () => Promise<void>): Promise<void> {
    const run = this.chain.then(op);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Whether the queued calls may be written now (see the head of this file). */
  private mayWrite(): boolean {
    const last = this.syncing.at(-1);
    return last === undefined || (this.syncing.length < SYNCS_IN_FLIGHT && this.queuedCalls >= last.calls);
  }

  private async flush(): Promise<void> {
    while (!this.mayWrite()) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = null;
    this.flushScheduled = false;
    const batch = this.queue;
    const calls = this.queuedCalls;
    this.queue = new Map();
    this.queuedCalls = 0;
    const syncs: Promise<void>[] = [];
    for (const [document, q] of batch) {
      let log: OpenLog;
      try {
        log = await this.write(document, q);
      } catch (err) {
        this.drop(document);
        q.reject(err as Error);
        continue;
      }
      const synced = datasync(log.fd);
      syncs.push(synced);
      log.durable = after(log.durable, synced);
      // only the settling functions wait for the fsync: the records written are garbage now, before the next scavenge
      const { resolve, reject } = q;
      log.durable.then(resolve, (err: Error) => {
        if (this.logs.get(document) === log) this.drop(document);
        reject(err);
      });
    }
    const done = Promise.allSettled(syncs).then(() => {
      this.syncing.splice(this.syncing.indexOf(inFlight), 1);
      this.lastBatch = performance.now();
      this.releaseIfIdle();
      this.wake?.();
    });
    const inFlight: Syncing = { done, calls };
    this.syncing.push(inFlight);
  }

  /** Waits until no write or fsync is under way: what was acknowledged so far is in the files. */
  private async settled(): Promise<void> {
    await this.chain;
    await Promise.all(this.syncing.map((b) => b.done));
  }

  private idle(): boolean {
    return this.syncing.length === 0 && this.queuedCalls === 0 && !this.flushScheduled;
  }

  /**
   * Lets go of the locks once nothing was queued, written or synced for a full IDLE_MS: others may write
   * meanwhile. A batch that came and went while the timer ran puts the release off (a writer answering
   * bursts would otherwise let go between them and take the lock again many times a second).
   */
  private releaseIfIdle(wait = IDLE_MS): void {
    if (this.leases.size === 0 || this.idleTimer !== null || !this.idle()) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (!this.idle()) return;
      const left = this.lastBatch + IDLE_MS - performance.now();
      if (left > 0) this.releaseIfIdle(left);
      else this.releaseAll();
    }, wait);
    // a process that ends holding a lock leaves it to the next writer (see `abandoned`)
    this.idleTimer.unref();
  }

  private releaseAll(): void {
    for (const dir of this.leases.keys()) this.release(dir);
  }

  private release(dir: string): void {
    const lease = this.leases.get(dir);
    if (lease === undefined) return;
    this.leases.delete(dir);
    const file = path.join(dir, LOCK);
    // a lock held this long may have been taken for stale (its writer's fsyncs stalled): it is removed only if still this one
    if (performance.now() - lease.since < STALE_LOCK_MS / 2 || holdIn(file) === lease.hold) unlinkQuietly(file);
  }

  /**
   * The document's open journal if this writer holds its lock since less than a lease: no one else wrote to
   * it since this writer's last write.
   */
  private leased(document: string, dir: string): OpenLog | undefined {
    const lease = this.leases.get(dir);
    return lease !== undefined && performance.now() - lease.since < LEASE_MS ? this.logs.get(document) : undefined;
  }

  /**
   * Takes the document's lock for a lease; one that ran out is given up first. A writer waiting for the lock
   * goes first: it may have polled in vain while this one let go when idle and took the lock again.
   */
  private async lease(dir: string): Promise<void> {
    this.release(dir);
    await yieldToWaiter(dir);
    const hold = await lock(dir);
    this.leases.set(dir, { hold, since: performance.now() });
  }

  /** Numbers and writes queued records holding the document's lock; the fsync is left to the caller. */
  private async write(document: string, q: Queued): Promise<OpenLog> {
    // an open journal's directory is there: the lock's creation would fail otherwise, and drop the journal
    const dir = this.logs.get(document)?.dir ?? (await this.ensureDir(document));
    let log = this.leased(document, dir);
    try {
      if (log === undefined) {
        await this.lease(dir);
        log = await this.current(document, dir);
      }
      let bytes = 0;
      for (let i = 0; i < q.records.length; i++) {
        const record = q.records[i]!;
        if (record.type === 'change') {
          if (record.seq === 0) {
            record.seq = ++log.lastSeq;
            q.numbered[i]?.(record);
          } else {
            log.lastSeq = Math.max(log.lastSeq, record.seq);
          }
        }
        bytes = encodeLineAt(record, bytes);
      }
      const end = log.end + bytes;
      if (end > log.size) log.size = zeroFill(log.fd, log.size, end);
      // the write only copies into the page cache: done on this thread, it leaves the thread pool to the fsync
      for (let at = 0; at < bytes;) at += writeSync(log.fd, lineBytes, at, bytes - at, log.end + at);
      log.end = end;
      return log;
    } catch (err) {
      this.release(dir);
      throw err;
    }
  }

  /**
   * The document's journal, open for appending and caught up with what other writers did since this one
   * last wrote (appended, or replaced the file when saving). A new handle first cuts off a torn last line,
   * so does finding one another writer left (it died mid-write).
   */
  private async current(document: string, dir: string): Promise<OpenLog> {
    const file = path.join(dir, JOURNAL);
    const cached = this.logs.get(document);
    // one stat of the path tells whether the file was replaced; a byte read at the data's end, whether others appended
    const now = statSync(file, { throwIfNoEntry: false });
    if (cached !== undefined && now?.ino === cached.ino && now.size >= cached.end) {
      const added = appendedSince(cached.fd, cached.end, now.size);
      if (added !== null) {
        if (added.length > 0) cached.lastSeq = lastSeqOf(decodeRecords(added.toString('utf8')), cached.lastSeq);
        cached.end += added.length;
        cached.size = now.size;
        return cached;
      }
    }
    if (cached !== undefined) this.drop(document);
    await cutTornTail(file);
    // not in append mode: writes go to the data's end, inside the fill
    const fd = openSync(file, constants.O_RDWR | constants.O_CREAT, 0o600);
    const text = await readText(file);
    const end = Buffer.byteLength(text);
    const log: OpenLog = {
      dir,
      fd,
      ino: fstatSync(fd).ino,
      end,
      size: end,
      lastSeq: lastSeqOf(decodeRecords(text), 0),
      durable: Promise.resolve(),
    };
    this.logs.set(document, log);
    return log;
  }

  /** Forgets the open journal; its descriptor is closed once the fsyncs under way on it are done. */
  private drop(document: string): void {
    const log = this.logs.get(document);
    if (log === undefined) return;
    this.logs.delete(document);
    const close = () => {
      try {
        closeSync(log.fd);
      } catch {
        // the descriptor is gone either way
      }
    };
    log.durable.then(close, close);
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
    await this.settled();
    const dir = this.dir(document);
    const records = [...decodeRecords(await readText(path.join(dir, HISTORY))), ...decodeRecords(await readText(path.join(dir, JOURNAL)))];
    return journalState(document, records, since);
  }

  markSaved(document: string, marker: SaveMarker): Promise<void> {
    return this.serial(async () => {
      await Promise.all(this.syncing.map((b) => b.done));
      const dir = await this.ensureDir(document);
      this.release(dir);
      await locked(dir, () => this.moveSaved(document, dir, marker));
    });
  }

  /** Moves the entries up to the save marker to the history and rewrites the journal without them. */
  private async moveSaved(document: string, dir: string, marker: SaveMarker): Promise<void> {
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
    this.drop(document);
    await writeFileAtomic(journalFile, kept.map(encodeRecord).join(''), { mode: 0o600 });
  }

  compact(document: string, now: Date): Promise<void> {
    const dir = this.dir(document);
    return this.serial(() => {
      this.release(dir);
      return locked(dir, async () => {
        const file = path.join(dir, HISTORY);
        const text = await readText(file);
        if (text === '') return;
        const oldest = now.getTime() - this.retention.maxAgeDays * 86_400_000;
        const lines = text.split('\n').filter((l) => l !== '');
        let keep = lines.filter((l) => {
          const r = decodeRecords(l + '\n')[0];
          return r !== undefined && (r.type !== 'change' || Date.parse(r.time) >= oldest);
        });
        let bytes = keep.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
        let first = 0;
        for (const l of keep) {
          if (bytes <= this.retention.maxBytes) break;
          bytes -= Buffer.byteLength(l) + 1;
          first++;
        }
        keep = keep.slice(first);
        if (keep.length !== lines.length) await writeFileAtomic(file, keep.map((l) => l + '\n').join(''), { mode: 0o600 });
      });
    });
  }

  async unsavedDocuments(): Promise<string[]> {
    await this.settled();
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
    await this.settled();
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.releaseAll();
    for (const document of [...this.logs.keys()]) this.drop(document);
  }
}

const probe = Buffer.alloc(1);

/**
 * What other writers appended after `end` (up to the zero fill); null when it ends in a line a writer did not
 * finish. One byte read tells the common case: nothing.
 */
function appendedSince(fd: number, end: number, size: number): Buffer | null {
  if (size === end || readSync(fd, probe, 0, 1, end) === 0 || probe[0] === 0) return ZEROS.subarray(0, 0);
  const rest = Buffer.alloc(size - end);
  const read = readSync(fd, rest, 0, rest.length, end);
  const zero = rest.indexOf(0);
  const added = rest.subarray(0, zero < 0 ? read : Math.min(zero, read));
  return added[added.length - 1] === 0x0a ? added : null;
}

/** Writes zeros from `from` to at least `to`, rounded up to the growth step; returns the new length. */
function zeroFill(fd: number, from: number, to: number): number {
  const size = Math.ceil(to / GROWTH) * GROWTH;
  for (let at = from; at < size;) at += writeSync(fd, ZEROS, 0, Math.min(ZEROS.length, size - at), at);
  return size;
}

/** Cuts the file after its last newline (a line the process did not finish, and the zero fill): it is never continued. */
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
    if (
      await stat(d).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      out.push(d);
  }
  return out;
}
