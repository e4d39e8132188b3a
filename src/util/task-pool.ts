// The one way heavy work leaves the calling thread: a TaskPool runs typed tasks on a few worker threads
// (piscina). Every run can be bounded in time and cancelled by its caller; either way the caller is answered
// at once: the task's stop flag (shared memory) is raised so the task can end itself, and a task still
// running after the grace period is aborted, which terminates its thread. Idle threads exit after `idleMs`.
// A pool is created per thread that asks (each window actor has its own), lazily, so an unused pool costs
// nothing. Worker modules are piscina workers: a default export taking the task and answering the result.

import type * as PiscinaModule from 'piscina';
import type { Piscina } from 'piscina';
import { lazyRequire } from './lazy.js';
import { raiseStop, stopFlag, type StopFlag } from './stop-flag.js';
import { unreachable } from './unreachable.js';

/** piscina loads with a pool's first run: most windows never run heavy work. */
const piscinaModule = lazyRequire<typeof PiscinaModule>('piscina');

export type TaskOutcome<R> =
  | { readonly kind: 'done'; readonly value: R }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'error'; readonly message: string; readonly error: unknown };

export interface TaskPoolOptions {
  /** The worker module (a piscina worker). */
  readonly worker: URL;
  /** Most tasks running at once (default 1). */
  readonly threads?: number;
  /** How long an idle thread lives on, keeping whatever it caches. */
  readonly idleMs: number;
  /** How long a stopped task may run on before its thread is terminated (0: at once). */
  readonly graceMs: number;
}

export interface RunOptions {
  /** The run's time bound (none when absent). */
  readonly timeoutMs?: number;
  /** The caller went away. */
  readonly signal?: AbortSignal;
  /** Buffers of the task moved to the thread rather than copied. */
  readonly transferList?: readonly Transferable[];
}

export class TaskPool<T, R> {
  private pool: Piscina<T, R> | null = null;
  /** The pool lost a thread to termination: a new one is started before the next run. */
  private lostThread = false;
  private running = 0;
  /** Stopped tasks still on their threads. */
  private readonly leaving = new Set<Promise<void>>();

  constructor(private readonly options: TaskPoolOptions) {}

  /** Threads alive now (0 before the first run, after `close` and after idling). */
  get threads(): number {
    return this.pool?.threads.length ?? 0;
  }

  /** Ends every thread; a later run starts new ones. */
  async close(): Promise<void> {
    const p = this.pool;
    this.pool = null;
    await p?.destroy();
  }

  /**
   * Runs the task `build` makes around its stop flag. A stopped task that has not yet left its thread is waited
   * for first (at most the grace period), so the next task is not queued behind it.
   */
  async run(build: (stop: StopFlag) => T, options: RunOptions = {}): Promise<TaskOutcome<R>> {
    await Promise.all(this.leaving);
    const cancel = options.signal ?? new AbortController().signal;
    if (cancel.aborted) return { kind: 'cancelled' };
    const flag = stopFlag();
    const task = build(flag);
    const timer = options.timeoutMs === undefined ? null : AbortSignal.timeout(options.timeoutMs);
    const stop = timer === null ? cancel : AbortSignal.any([cancel, timer]);
    const hard = new AbortController();
    let grace: NodeJS.Timeout | undefined;
    let onStop = (): void => {};
    const stopped = new Promise<'stopped'>((resolve) => {
      onStop = () => {
        raiseStop(flag);
        if (this.options.graceMs <= 0) hard.abort();
        else grace = setTimeout(() => hard.abort(), this.options.graceMs).unref();
        resolve('stopped');
      };
    });
    stop.addEventListener('abort', onStop, { once: true });
    const running = this.piscina().run(task, {
      signal: hard.signal,
      ...(options.transferList === undefined ? {} : { transferList: [...options.transferList] as never }),
    });
    this.running++;
    const ended = running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        clearTimeout(grace);
        this.running--;
        if (hard.signal.aborted) this.lostThread = true;
      });
    try {
      const out = await Promise.race([running, stopped]);
      if (out === 'stopped') return this.stoppedOutcome(cancel, ended);
      return { kind: 'done', value: out };
    } catch (error) {
      if (stop.aborted) return this.stoppedOutcome(cancel, ended);
      return { kind: 'error', message: error instanceof Error ? error.message : String(error), error };
    } finally {
      stop.removeEventListener('abort', onStop);
    }
  }

  private stoppedOutcome(cancel: AbortSignal, ended: Promise<void>): TaskOutcome<R> {
    this.leaving.add(ended);
    void ended.then(() => this.leaving.delete(ended));
    return cancel.aborted ? { kind: 'cancelled' } : { kind: 'timeout' };
  }

  /**
   * The piscina pool, replaced when it lost a thread to termination and runs nothing else: piscina starts no
   * thread for a task queued on a pool whose only thread it terminated.
   */
  private piscina(): Piscina<T, R> {
    if (this.lostThread && this.running === 0) {
      this.lostThread = false;
      void this.close();
    }
    this.pool ??= new (piscinaModule().Piscina)<T, R>({
      filename: this.options.worker.href,
      minThreads: 0,
      maxThreads: this.options.threads ?? 1,
      idleTimeout: this.options.idleMs,
    });
    return this.pool;
  }
}

/** The value of a finished run; a cancelled one throws the caller's reason, a failed one the task's error. */
export function valueOf<R>(out: TaskOutcome<R>, signal: AbortSignal | undefined): R {
  switch (out.kind) {
    case 'done':
      return out.value;
    case 'cancelled':
      signal?.throwIfAborted();
      throw new Error('The task was cancelled');
    case 'timeout':
      throw new Error('The task did not finish within its time bound');
    case 'error':
      throw out.error;
    default:
      return unreachable(out);
  }
}
