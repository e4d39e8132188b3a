// The thread's one async call context: each slot's value follows its run across awaits, concurrent runs
// keep their own values, nested runs of other slots keep the outer values, and nothing is held after a run.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { CallSlot } from '../../src/util/call-slot.js';

const principal = new CallSlot<string>('principal');
const rehearsal = new CallSlot<true>('rehearsal');

test('a value follows its run across awaits, and concurrent runs keep their own', async () => {
  const seen: (string | undefined)[] = [];
  const call = (who: string, ms: number) =>
    principal.run(who, async () => {
      await sleep(ms);
      seen.push(principal.get());
      await Promise.resolve();
      return principal.get();
    });
  const [a, b] = await Promise.all([call('alice', 20), call('bob', 1)]);
  assert.equal(a, 'alice');
  assert.equal(b, 'bob');
  assert.deepEqual(seen, ['bob', 'alice']);
});

test('a nested run of another slot keeps the outer value; the same slot nested shadows it until it ends', async () => {
  await principal.run('alice', async () => {
    const inner = await rehearsal.run(true, async () => {
      await sleep(1);
      return [principal.get(), rehearsal.get()];
    });
    assert.deepEqual(inner, ['alice', true]);
    assert.equal(rehearsal.get(), undefined);
    assert.equal(
      principal.run('bob', () => principal.get()),
      'bob',
    );
    assert.equal(principal.get(), 'alice');
  });
});

test('nothing is held outside a run, after a sync result, a settled promise or a throw', async () => {
  assert.equal(principal.get(), undefined);
  assert.equal(
    principal.run('alice', () => 1),
    1,
  );
  assert.equal(principal.get(), undefined);
  await principal.run('alice', async () => sleep(1));
  assert.equal(principal.get(), undefined);
  assert.throws(() =>
    principal.run('alice', () => {
      throw new Error('refused');
    }),
  );
  await assert.rejects(principal.run('alice', async () => Promise.reject(new Error('refused'))));
  assert.equal(principal.get(), undefined);
  // a later run works again once the store was disabled
  assert.equal(await principal.run('carol', async () => principal.get()), 'carol');
});
