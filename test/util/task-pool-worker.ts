// The piscina worker behind task-pool.test.ts: tasks that answer, fail, honour their stop flag, or ignore it.

import { threadId } from 'node:worker_threads';
import { stopRaised, type StopFlag } from '../../src/util/stop-flag.js';

export interface FixtureTask {
  readonly op: 'echo' | 'fail' | 'honour-stop' | 'ignore-stop' | 'byte-length';
  readonly stop: StopFlag;
  readonly value?: number;
  readonly buffer?: ArrayBuffer;
}

export interface FixtureResult {
  readonly threadId: number;
  readonly value: number;
}

/** Blocks this thread without spinning (the machine is shared). */
const sleep = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

export default function run(task: FixtureTask): FixtureResult {
  switch (task.op) {
    case 'echo':
      return { threadId, value: task.value ?? 0 };
    case 'fail':
      throw new Error('the fixture failed as asked');
    case 'honour-stop':
      while (!stopRaised(task.stop)) sleep(10);
      return { threadId, value: -1 };
    case 'ignore-stop':
      for (;;) sleep(1_000);
    case 'byte-length':
      return { threadId, value: task.buffer?.byteLength ?? -1 };
  }
}
