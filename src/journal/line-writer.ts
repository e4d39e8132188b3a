// Where a journal batch's lines are checksummed, written and fsynced: on a thread of their own, so the window's
// thread (the busiest one under a write load) spends neither the hashing nor the system calls. The window
// places each batch in the file (it numbers the entries and holds the lock); this thread writes it there.

import { Worker } from 'node:worker_threads';

export interface LineWriter {
  /**
   * Writes the lines of these JSON texts (checksummed on the way) at `at` in the file `fd` and fsyncs it;
   * settles once they are durable, or rejects with the write's or the fsync's error.
   */
  write(fd: number, at: number, jsons: readonly string[]): Promise<void>;
  /** Ends the thread; nothing may be under way. */
  close(): Promise<void>;
}

/** A request to the thread: [id, fd, at, ...jsons]. A reply: [id] once durable, [id, message, code] on failure. */
export type LineRequest = unknown[];
export type LineReply = [number] | [number, string, string | undefined];

const WORKER_URL = new URL('./line-writer-worker.js', import.meta.url);

interface Waiting {
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
}

export class ThreadLineWriter implements LineWriter {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private ids = 0;

  write(fd: number, at: number, jsons: readonly string[]): Promise<void> {
    const worker = this.worker ?? this.start();
    const id = ++this.ids;
    // the thread keeps the process alive only while a batch is under way, as an fsync in the thread pool would
    if (this.waiting.size === 0) worker.ref();
    const done = new Promise<void>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    const request: LineRequest = [id, fd, at];
    for (const json of jsons) request.push(json);
    worker.postMessage(request);
    return done;
  }

  private start(): Worker {
    const worker = new Worker(WORKER_URL);
    worker.on('message', (reply: LineReply) => this.settle(reply));
    // a thread that died fails what it had not written: those calls are not acknowledged
    const fail = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the journal's writer thread ended (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private settle(reply: LineReply): void {
    const [id] = reply;
    const w = this.waiting.get(id);
    if (w === undefined) return;
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.worker?.unref();
    if (reply.length === 1) w.resolve();
    else w.reject(Object.assign(new Error(reply[1]), reply[2] === undefined ? {} : { code: reply[2] }));
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker !== null) await worker.terminate();
  }
}
