// ThreadLink over a real worker thread: answers, errors that keep their class and fields, transfers, and
// calls that reject when the thread is gone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { ThreadLink, crossesThreads, transfer } from '../../src/util/thread-link.js';
import { KindedError, type FixtureApi } from './thread-link-fixture.js';

crossesThreads(KindedError);

async function withThread(body: (link: ThreadLink<FixtureApi>, worker: Worker) => Promise<void>): Promise<void> {
  const worker = new Worker(new URL('./thread-link-worker.js', import.meta.url));
  try {
    await body(new ThreadLink<FixtureApi>(worker), worker);
  } finally {
    await worker.terminate();
  }
}

test('a call answers with the value the thread returned', async () => {
  await withThread(async (link) => {
    assert.equal(await link.call('add', 2, 3), 5);
    const many = await Promise.all(Array.from({ length: 50 }, (_, i) => link.call('add', i, i)));
    assert.deepEqual(
      many,
      Array.from({ length: 50 }, (_, i) => 2 * i),
    );
  });
});

test("a registered error class crosses as itself, with its message, fields and the thread's stack", async () => {
  await withThread(async (link) => {
    const err = await link.call('fail', 'kinded').then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof KindedError, `got ${String(err)}`);
    assert.equal(err.message, 'the shapes do not parse');
    assert.equal(err.kind, 'shapes');
    assert.equal(err.name, 'KindedError');
    assert.match(err.stack ?? '', /thread-link-worker/);
  });
});

test('an unregistered error crosses as an Error with its name, message and fields; a thrown non-error as itself', async () => {
  await withThread(async (link) => {
    const err = await link.call('fail', 'unregistered').then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof Error);
    assert.equal(err.constructor, Error);
    assert.equal(err.message, 'nobody registered me');
    assert.equal((err as Error & { detail?: number }).detail, 42);
    await assert.rejects(link.call('fail', 'bare'), (e: unknown) => e === 'a bare string');
  });
});

test('a transferred buffer moves to the thread', async () => {
  await withThread(async (link) => {
    const buffer = new ArrayBuffer(1024);
    assert.equal(await link.call('byteLength', transfer(buffer, [buffer])), 1024);
    assert.equal(buffer.byteLength, 0, 'the sender no longer holds it');
  });
});

test('when the thread is gone, unanswered calls and later ones reject with the reason given', async () => {
  await withThread(async (link, worker) => {
    const held = link.call('hold');
    assert.equal(await link.call('add', 1, 1), 2, 'the thread answers while a call is held');
    const gone = new KindedError('the thread stopped', 'data');
    worker.once('exit', () => link.fail(gone));
    await worker.terminate();
    await assert.rejects(held, (e: unknown) => e === gone);
    await assert.rejects(link.call('add', 1, 1), (e: unknown) => e === gone);
  });
});
