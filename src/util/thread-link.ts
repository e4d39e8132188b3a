// Request/response between threads: comlink over worker_threads ports. A thread exposes an API object; the
// other side calls it through a ThreadLink. Errors cross as themselves: a class registered with
// `crossesThreads` arrives as an instance of that class with its message, stack and own fields (`reason`,
// `error`, ...), any other error as an Error of the same name. Comlink never settles a call whose thread
// has died, so the owner of a link says when it is gone (`fail`) and every unanswered call rejects then.

import * as Comlink from 'comlink/dist/esm/comlink.mjs';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { parentPort, type MessagePort, type Worker } from 'node:worker_threads';

export { transfer } from 'comlink/dist/esm/comlink.mjs';

type ErrorClass = abstract new (...args: never[]) => Error;

const errorClasses = new Map<string, ErrorClass>();

/** Lets errors of these classes cross threads as instances of their class (named by the class's name). */
export function crossesThreads(...classes: ErrorClass[]): void {
  for (const c of classes) {
    const known = errorClasses.get(c.name);
    if (known !== undefined && known !== c) throw new Error(`Two error classes named ${c.name} cross threads`);
    errorClasses.set(c.name, c);
  }
}

type WireThrown =
  | {
      readonly isError: true;
      readonly className: string;
      readonly message: string;
      readonly stack: string | undefined;
      readonly fields: Record<string, unknown>;
    }
  | { readonly isError: false; readonly value: unknown };

function toWire(value: unknown): WireThrown {
  if (!(value instanceof Error)) return { isError: false, value };
  return {
    isError: true,
    className: value.constructor.name,
    message: value.message,
    stack: value.stack,
    fields: { ...value, name: value.name },
  };
}

function fromWire(wire: WireThrown): unknown {
  if (!wire.isError) return wire.value;
  const c = errorClasses.get(wire.className);
  // an instance of the class without running its constructor, whose parameters differ from class to class
  const error: Error = c === undefined ? new Error(wire.message) : (Object.create(c.prototype) as Error);
  Object.defineProperty(error, 'message', { value: wire.message, writable: true, configurable: true });
  Object.defineProperty(error, 'stack', { value: wire.stack, writable: true, configurable: true });
  return Object.assign(error, wire.fields);
}

// comlink's own handler for thrown values keeps only message, name and stack; this one keeps the class too
const thrown = Comlink.transferHandlers.get('throw')!;
Comlink.transferHandlers.set('throw', {
  canHandle: thrown.canHandle,
  serialize: (marked: unknown) => [toWire((marked as { value: unknown }).value), []],
  deserialize: (wire: unknown) => {
    throw fromWire(wire as WireThrown);
  },
});

/** Serves `api` to the thread that started this one. */
export function exposeToParent(api: object): void {
  Comlink.expose(api, nodeEndpoint(parentPort!));
}

/** Serves `api` on `port` (a channel whose other end a link wraps). */
export function exposeOn(port: MessagePort, api: object): void {
  Comlink.expose(api, nodeEndpoint(port));
}

/** A method of T that answers with a promise. */
type Method<T> = { [K in keyof T]: T[K] extends (...args: never[]) => Promise<unknown> ? K : never }[keyof T] & string;
type Args<F> = F extends (...args: infer A) => unknown ? A : never;
type Answer<F> = F extends (...args: never[]) => infer R ? R : never;

/** Calls into the API a thread exposes. */
export class ThreadLink<T> {
  private readonly remote: Comlink.Remote<T>;
  /** comlink's proxy of each method called so far: made once, as each one costs a Proxy and a finalizer. */
  private readonly methods = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  /** Rejecters of the calls not answered yet: called when the thread is gone. */
  private readonly waiting = new Set<(error: Error) => void>();
  private gone: Error | null = null;

  constructor(endpoint: Worker | MessagePort) {
    this.remote = Comlink.wrap<T>(nodeEndpoint(endpoint));
  }

  /** Calls `method` of the remote API; rejects at once when the thread is gone, or if it goes first. */
  call<K extends Method<T>>(method: K, ...args: Args<T[K]>): Answer<T[K]> {
    if (this.gone !== null) return Promise.reject(this.gone) as Answer<T[K]>;
    let f = this.methods.get(method);
    if (f === undefined) {
      // a Comlink proxy answers every property name with a callable
      f = (this.remote as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[method]!;
      this.methods.set(method, f);
    }
    const answer = f(...args);
    return new Promise<unknown>((resolve, reject) => {
      this.waiting.add(reject);
      answer.then(
        (value) => {
          this.waiting.delete(reject);
          resolve(value);
        },
        (error: unknown) => {
          this.waiting.delete(reject);
          reject(error);
        },
      );
    }) as Answer<T[K]>;
  }

  /** The thread is gone: every unanswered call and every later one rejects with `error`. */
  fail(error: Error): void {
    if (this.gone !== null) return;
    this.gone = error;
    for (const reject of this.waiting) reject(error);
    this.waiting.clear();
    // drops comlink's own table of unanswered calls, which a dead thread would never settle
    this.remote[Comlink.releaseProxy]();
  }
}
