// A stop flag another thread can raise: element 0 of an Int32Array over a SharedArrayBuffer. A task that
// runs long checks it now and then and stops early; the thread that started it raises it.

export type StopFlag = Int32Array;

export function stopFlag(): StopFlag {
  return new Int32Array(new SharedArrayBuffer(4));
}

export function raiseStop(flag: StopFlag): void {
  Atomics.store(flag, 0, 1);
}

export function stopRaised(flag: StopFlag): boolean {
  return Atomics.load(flag, 0) !== 0;
}
