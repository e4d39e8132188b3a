// TaskPool over real piscina threads: answers, failures, time bounds, caller cancellation with a grace period
// then termination, idle shutdown, and a new thread after a termination.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TaskPool, type TaskOutcome } from '../../src/util/task-pool.js';
import type { FixtureResult, FixtureTask } from './task-pool-worker.js';

const WORKER = new URL('./task-pool-worker.js', import.meta.url);

function pool(graceMs: number, idleMs = 60_000): TaskPool<FixtureTask, FixtureResult> {
  return new TaskPool<FixtureTask, FixtureResult>({ worker: WORKER, idleMs, graceMs });
}

function value(out: TaskOutcome<FixtureResult>): FixtureResult {
  assert.equal(out.kind, 'done', JSON.stringify(out));
  return (out as { value: FixtureResult }).value;
}

async function until(what: string, holds: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!holds()) {
    if (Date.now() > end) assert.fail(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('a task answers with its result; a moved buffer leaves the caller', async () => {
  const p = pool(1_000);
  try {
    assert.equal(p.threads, 0, 'no thread before the first run');
    assert.equal(value(await p.run((stop) => ({ op: 'echo', stop, value: 7 }))).value, 7);
    const buffer = new ArrayBuffer(64);
    const out = await p.run((stop) => ({ op: 'byte-length', stop, buffer }), { transferList: [buffer] });
    assert.equal(value(out).value, 64);
    assert.equal(buffer.byteLength, 0, 'the buffer was moved, not copied');
  } finally {
    await p.close();
  }
});

test("a task's failure is an error outcome, and the pool goes on serving", async () => {
  const p = pool(1_000);
  try {
    const out = await p.run((stop) => ({ op: 'fail', stop }));
    assert.equal(out.kind, 'error');
    assert.match((out as { message: string }).message, /the fixture failed as asked/);
    assert.equal(value(await p.run((stop) => ({ op: 'echo', stop, value: 1 }))).value, 1);
  } finally {
    await p.close();
  }
});

test('a run past its time bound answers timeout; a task that honours its stop flag keeps its thread', async () => {
  const p = pool(30_000);
  try {
    const first = value(await p.run((stop) => ({ op: 'echo', stop })));
    const out = await p.run((stop) => ({ op: 'honour-stop', stop }), { timeoutMs: 100 });
    assert.deepEqual(out, { kind: 'timeout' });
    const next = value(await p.run((stop) => ({ op: 'echo', stop })));
    assert.equal(next.threadId, first.threadId, 'the thread was not terminated');
  } finally {
    await p.close();
  }
});

test('a cancelled run answers at once; a task deaf to its stop flag is terminated after the grace period', async () => {
  const p = pool(1_500);
  try {
    const first = value(await p.run((stop) => ({ op: 'echo', stop })));
    const caller = new AbortController();
    const running = p.run((stop) => ({ op: 'ignore-stop', stop }), { signal: caller.signal });
    setTimeout(() => caller.abort(), 50);
    assert.deepEqual(await running, { kind: 'cancelled' });
    assert.equal(p.threads, 1, 'answered before the grace period ended the thread');
    const next = value(await p.run((stop) => ({ op: 'echo', stop })));
    assert.notEqual(next.threadId, first.threadId, 'the next run has a new thread');
  } finally {
    await p.close();
  }
});

test('a run whose caller already went away starts no thread', async () => {
  const p = pool(1_000);
  try {
    assert.deepEqual(await p.run((stop) => ({ op: 'echo', stop }), { signal: AbortSignal.abort() }), { kind: 'cancelled' });
    assert.equal(p.threads, 0);
  } finally {
    await p.close();
  }
});

test('with no grace period a stopped task is terminated at once', async () => {
  const p = pool(0);
  try {
    const first = value(await p.run((stop) => ({ op: 'echo', stop })));
    assert.deepEqual(await p.run((stop) => ({ op: 'ignore-stop', stop }), { timeoutMs: 50 }), { kind: 'timeout' });
    const next = value(await p.run((stop) => ({ op: 'echo', stop })));
    assert.notEqual(next.threadId, first.threadId);
  } finally {
    await p.close();
  }
});

test('idle threads exit, and the next run starts one again', async () => {
  const p = pool(1_000, 200);
  try {
    await p.run((stop) => ({ op: 'echo', stop }));
    assert.equal(p.threads, 1);
    await until('the idle thread exiting', () => p.threads === 0);
    assert.equal(value(await p.run((stop) => ({ op: 'echo', stop }), { timeoutMs: 30_000 })).value, 0);
  } finally {
    await p.close();
  }
});
