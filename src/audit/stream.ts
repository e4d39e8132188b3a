// The project audit stream of one actor workspace: append-only JSONL at
// `<home>/audit/<project-hash>/<workspace-id>.<part>.jsonl`, 0600 files in 0700 directories. A call only
// queues its event (synchronously: timestamp and sequence are fixed at once); appends happen afterwards in
// fsynced batches gathered over FLUSH_DELAY_MS, off the call's critical path. A write failure is reported once in the server log
// and never fails the tool call: auditing must not turn a working server into a broken one. A part that
// would pass MAX_STREAM_BYTES is closed and the next part opened, so no source ever exceeds what
// export_audit_log accepts.

import { constants } from 'node:fs';
import { chmod, lstat, mkdir, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal.js';
import { redactArguments, type AuditClient, type AuditEvent } from './event.js';
import { AUDIT_DIR, documentProjectHash, projectStreamsDir } from './project.js';
import { isoNow } from '../util/iso-now.js';

/** Half the export's per-source bound (16 MiB). */
export const MAX_STREAM_BYTES = 8 * 1024 * 1024;
const BATCH_EVENTS = 1024;
const MAX_QUEUED = 20_000;
const REPORT_INTERVAL_MS = 60_000;
const MAX_OPEN_FILES = 16;
const PROJECT_CACHE_MS = 2_000;
/**
 * How long queued events wait for company before one fsynced append: an fsync per call would cost a
 * single sequential client half its throughput; 20 ms bounds what a crash can lose.
 */
const FLUSH_DELAY_MS = 20;

/** What the gate knows about a call once its outcome is known. */
export interface CallRecord {
  readonly workspaceId: string;
  readonly windowId: string;
  readonly principal: Principal;
  readonly operation: string;
  readonly ontologyIri: string | null;
  /** The active ontology's local document, which decides the project. */
  readonly document: string | null;
  /** The raw call arguments; only their names and sizes are kept, computed off the critical path. */
  readonly rawArgs: unknown;
  /** The argument names the tool declares; any other name is audited as undeclared. */
  readonly declaredArguments: ReadonlySet<string>;
  readonly outcome: AuditEvent['outcome'];
  readonly gate: AuditEvent['gate'];
  readonly changeSetId?: string;
  readonly policyDigest?: string;
}

/** An event as its line, and what decides the stream it goes to. */
interface Queued {
  readonly document: string | null;
  readonly workspaceId: string;
  readonly line: string;
}

interface OpenPart {
  readonly handle: FileHandle;
  readonly part: number;
  bytes: number;
}

export const streamFileName = (workspaceId: string, part: number): string => `${workspaceId}.${part}.jsonl`;

/** Creates `dir` (and the audit root above it) owner-only; refuses a symlinked or foreign directory. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  for (const d of [path.dirname(dir), dir]) {
    const s = await lstat(d);
    if (!s.isDirectory()) throw new Error(`${d} is not a directory`);
    if ((s.mode & 0o077) !== 0) await chmod(d, 0o700);
  }
}

/** Whether the file's last byte ends a line (read through a second descriptor: the writer's is write-only). */
async function endsWithNewline(file: string, size: number): Promise<boolean> {
  const reader = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const { buffer } = await reader.read(Buffer.alloc(1), 0, 1, size - 1);
    return buffer[0] === 0x0a;
  } finally {
    await reader.close();
  }
}

/** Appends lines to one workspace's stream in one project directory, rotating parts at the size bound. */
export class StreamWriter {
  private current: OpenPart | null = null;

  constructor(
    private readonly dir: string,
    private readonly workspaceId: string,
    private readonly maxBytes = MAX_STREAM_BYTES,
  ) {}

  async append(text: string): Promise<void> {
    const size = Buffer.byteLength(text, 'utf8');
    let part = this.current ?? (await this.openPart(0));
    while (part.bytes > 0 && part.bytes + size > this.maxBytes) {
      await part.handle.close();
      this.current = null;
      part = await this.openPart(part.part + 1);
    }
    this.current = part;
    await part.handle.write(text);
    await part.handle.sync();
    part.bytes += size;
  }

  async close(): Promise<void> {
    await this.current?.handle.close();
    this.current = null;
  }

  private async openPart(part: number): Promise<OpenPart> {
    await ensurePrivateDir(this.dir);
    const file = path.join(this.dir, streamFileName(this.workspaceId, part));
    const handle = await open(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
    try {
      const s = await handle.stat();
      if (!s.isFile()) throw new Error(`${file} is not a regular file`);
      if ((s.mode & 0o777) !== 0o600) await handle.chmod(0o600);
      // a full part, or one whose last append was torn by a crash, is left as it is
      if (s.size > 0 && (s.size >= this.maxBytes || !(await endsWithNewline(file, s.size)))) {
        await handle.close();
        return this.openPart(part + 1);
      }
      return { handle, part, bytes: s.size };
    } catch (err) {
      await handle.close().catch(() => undefined);
      throw err;
    }
  }
}

const principalFragments = new WeakMap<Principal, string>();

/** The `client` and `capabilities` members of a principal's events, serialized once per principal. */
function principalFragment(p: Principal): string {
  let f = principalFragments.get(p);
  if (f === undefined) {
    const client: AuditClient = { type: p.type, client_id: p.client_id, display_name: p.display_name, grant_id: p.grant_id };
    f = `"client":${JSON.stringify(client)},"capabilities":${JSON.stringify([...p.capabilities].sort())}`;
    principalFragments.set(p, f);
  }
  return f;
}

/**
 * One event as its JSONL line, in the envelope's key order without whitespace: exactly what JSON.stringify
 * of the event object gives (the canonical form export_audit_log demands), assembled from cached parts.
 */
function eventLine(c: CallRecord, eventId: string, timestamp: string, sequence: number): string {
  const code = c.outcome.error_code;
  return (
    `{"event_id":"${eventId}","timestamp":"${timestamp}","workspace_id":${JSON.stringify(c.workspaceId)},` +
    `"sequence":${sequence},${principalFragment(c.principal)},"operation":${JSON.stringify(c.operation)},` +
    `"target":{"window_id":${JSON.stringify(c.windowId)},"ontology_iri":${JSON.stringify(c.ontologyIri)}},` +
    `"outcome":{"status":"${c.outcome.status}"${code === undefined ? '' : `,"error_code":${JSON.stringify(code)}`}},` +
    `"gate":{"mutating":${c.gate.mutating},"confirmation":"${c.gate.confirmation}"},` +
    `"change":{"arguments":${JSON.stringify(redactArguments(c.rawArgs, c.declaredArguments))}}` +
    (c.changeSetId === undefined ? '' : `,"change_set_id":${JSON.stringify(c.changeSetId)}`) +
    (c.policyDigest === undefined ? '' : `,"policy_digest":${JSON.stringify(c.policyDigest)}`) +
    '}\n'
  );
}

/** Every audited call of one private directory (one per window thread), queued and appended in batches. */
export class AuditRecorder {
  private readonly queue: Queued[] = [];
  private readonly sequences = new Map<string, number>();
  private readonly writers = new Map<string, StreamWriter>();
  private readonly projects = new Map<string, { dir: string; at: number }>();
  private draining: Promise<void> | null = null;
  private reportedAt = -Infinity;
  private lost = 0;

  constructor(
    private readonly home: string,
    private readonly log: (line: string) => void = (line) => process.stderr.write(line),
  ) {}

  /** Queues the event of one call; returns at once. */
  record(call: CallRecord): void {
    if (this.queue.length >= MAX_QUEUED) {
      this.fail(new Error(`more than ${MAX_QUEUED} audit events are waiting to be written`), 1);
      return;
    }
    const sequence = (this.sequences.get(call.workspaceId) ?? 0) + 1;
    this.sequences.set(call.workspaceId, sequence);
    // the line is made now, while the call's objects are fresh: only it waits for the batch, not the call's record
    let line: string;
    try {
      line = eventLine(call, randomUUID(), isoNow(), sequence);
    } catch (err) {
      this.fail(err, 1);
      return;
    }
    this.queue.push({ document: call.document, workspaceId: call.workspaceId, line });
    this.schedule();
  }

  private schedule(): void {
    this.draining ??= new Promise<void>((resolve) => setTimeout(resolve, FLUSH_DELAY_MS))
      .then(() => this.drain())
      .finally(() => {
        this.draining = null;
        if (this.queue.length > 0) this.schedule();
      });
  }

  /** Resolves once every event queued so far is on disk (or reported as lost). */
  async flushed(): Promise<void> {
    while (this.draining !== null) await this.draining;
  }

  /** The streams directory of a document's project, as this recorder writes it. */
  streamsDir(projectHash: string): string {
    return projectStreamsDir(this.home, projectHash);
  }

  /**
   * Writes what is queued now; events that arrive during the write wait for the next delayed flush (unless
   * a full batch is already waiting), so a steady trickle of calls is not an fsync per call.
   */
  private async drain(): Promise<void> {
    do {
      const batch = this.queue.splice(0, BATCH_EVENTS);
      try {
        await this.writeBatch(batch);
      } catch (err) {
        this.fail(err, batch.length);
      }
    } while (this.queue.length >= BATCH_EVENTS);
  }

  /**
   * Writes a batch, each run of events bound for one stream in one append; a stream that cannot be written
   * loses only its events.
   */
  private async writeBatch(batch: readonly Queued[]): Promise<void> {
    let start = 0;
    while (start < batch.length) {
      const { document, workspaceId } = batch[start]!; // start < batch.length
      const lines: string[] = [];
      let end = start;
      for (let q = batch[end]; q?.document === document && q.workspaceId === workspaceId; q = batch[++end]) lines.push(q.line);
      start = end;
      try {
        const dir = this.cachedDir(document) ?? (await this.resolveDir(document));
        // joined once: a string grown line by line is a deep rope that every later read (its byte length, the write) must flatten
        await this.writer(`${dir}\n${workspaceId}`, dir, workspaceId).append(lines.join(''));
      } catch (err) {
        this.fail(err, lines.length);
      }
    }
  }

  /** Events lost so far (unwritable, or refused because too many were waiting). */
  get lostEvents(): number {
    return this.lost;
  }

  private writer(key: string, dir: string, workspaceId: string): StreamWriter {
    let w = this.writers.get(key);
    if (w === undefined) {
      if (this.writers.size >= MAX_OPEN_FILES) {
        const [oldest, old] = this.writers.entries().next().value as [string, StreamWriter];
        this.writers.delete(oldest);
        void old.close();
      }
      w = new StreamWriter(dir, workspaceId);
      this.writers.set(key, w);
    }
    return w;
  }

  /** Discovery walks the directory tree, so its answer is kept briefly per document. */
  private cachedDir(document: string | null): string | undefined {
    const cached = this.projects.get(document ?? '');
    return cached !== undefined && Date.now() - cached.at < PROJECT_CACHE_MS ? cached.dir : undefined;
  }

  private async resolveDir(document: string | null): Promise<string> {
    const dir = this.streamsDir(await documentProjectHash(document));
    if (this.projects.size >= 256) this.projects.clear();
    this.projects.set(document ?? '', { dir, at: Date.now() });
    return dir;
  }

  /** Reports a failure once; a failure that keeps recurring is reported again at most once a minute, with the count lost. */
  private fail(err: unknown, lost: number): void {
    this.lost += lost;
    const now = Date.now();
    if (now - this.reportedAt < REPORT_INTERVAL_MS) return;
    this.reportedAt = now;
    this.log(
      `athene: audit events could not be written under ${path.join(this.home, AUDIT_DIR)}: ${(err as Error)?.message ?? String(err)}; ` +
        `${this.lost} event(s) lost so far; tool calls continue\n`,
    );
  }
}

const recorders = new Map<string, AuditRecorder>();

/** Audit events this thread's recorders lost. */
export function auditEventsLost(): number {
  let n = 0;
  for (const r of recorders.values()) n += r.lostEvents;
  return n;
}

/** The recorder of a private directory (one per thread). */
export function auditRecorder(home: string): AuditRecorder {
  let r = recorders.get(home);
  if (r === undefined) {
    r = new AuditRecorder(home);
    recorders.set(home, r);
  }
  return r;
}
