// The thread's one async context: what a running tool call carries across its awaits for code it cannot
// hand it to (ARCHITECTURE.md, "A call's context"). Each module that reads such a value declares a slot
// for it; the values of the running call form one frame, so nested runs stack and every slot is read
// from the same store.

import { AsyncLocalStorage } from 'node:async_hooks';

/** The values of the running call: the innermost slot's value, then the frame it was added to. */
interface Frame {
  readonly slot: object;
  readonly value: unknown;
  readonly outer: Frame | undefined;
}

const storage = new AsyncLocalStorage<Frame>();

/**
 * Runs in progress. The store costs a hook on every promise of the thread (Node 20, 22), so it is disabled
 * whenever no run is in progress, and calls that need no slot never pay for it.
 */
let running = 0;

function release(): void {
  if (--running === 0) storage.disable();
}

function isThenable(x: unknown): x is PromiseLike<unknown> {
  return typeof x === 'object' && x !== null && typeof (x as { then?: unknown }).then === 'function';
}

/** One kind of value a call carries (the caller's principal, the journal's call record, …). */
export class CallSlot<T> {
  /** `name` says what the slot holds (for a debugger). */
  constructor(readonly name: string) {}

  /** The value the running call holds in this slot; undefined outside a run of it. */
  get(): T | undefined {
    for (let f = storage.getStore(); f !== undefined; f = f.outer) if (f.slot === this) return f.value as T;
    return undefined;
  }

  /** Runs `f` holding `value` in this slot, across its awaits until its promise settles; other slots keep theirs. */
  run<R>(value: T, f: () => R): R {
    // with no run in progress there is no frame to add to (and a disabled store would say so anyway)
    const outer = running++ === 0 ? undefined : storage.getStore();
    let result: R;
    try {
      result = storage.run({ slot: this, value, outer }, f);
    } catch (err) {
      release();
      throw err;
    }
    if (!isThenable(result)) {
      release();
      return result;
    }
    return Promise.resolve(result).finally(release) as R;
  }
}
