// The change-set store on its own: time to live, size limits, states, eviction and exactly-once commit.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChangeSetStore, ChangeSetError, checkEntrySize, ENTRY_LIMITS } from '../../src/qc/change-set-store.js';

/** A store on a clock the test moves. */
function storeAt(options: { maxEntries?: number; maxTotalBytes?: number } = {}) {
  const clock = { t: 1_000_000 };
  const store = new ChangeSetStore<string>({ now: () => clock.t, ...options });
  return { store, clock };
}

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    if (err instanceof ChangeSetError) return err.code;
    throw err;
  }
  return 'no error';
}

test('a preview is usable until its time to live ends, counted from when it became ready', () => {
  const { store, clock } = storeAt();
  const id = store.begin(10, 100);
  clock.t += 5000;
  const entry = store.ready(id, 'preview');
  assert.equal(entry.expiresAt, clock.t + 10_000);
  clock.t += 9_999;
  assert.equal(store.get(id).payload, 'preview');
  clock.t += 1;
  assert.equal(
    codeOf(() => store.get(id)),
    'unknown_change_set',
  );
  assert.equal(store.size, 0);
});

test('time to live outside 1..3600 seconds is refused', () => {
  const { store } = storeAt();
  assert.throws(() => store.begin(0, 1), RangeError);
  assert.throws(() => store.begin(3601, 1), RangeError);
  assert.throws(() => store.begin(1.5, 1), RangeError);
  assert.doesNotThrow(() => store.begin(3600, 1));
});

test('entry size limits name the first one exceeded', () => {
  assert.doesNotThrow(() => checkEntrySize(ENTRY_LIMITS.operations, ENTRY_LIMITS.changes, ENTRY_LIMITS.bytes));
  const limitOf = (ops: number, changes: number, bytes: number) => {
    try {
      checkEntrySize(ops, changes, bytes);
    } catch (err) {
      assert.ok(err instanceof ChangeSetError);
      assert.equal(err.code, 'change_set_too_large');
      return err.context.limit_kind;
    }
    return null;
  };
  assert.equal(limitOf(2001, 0, 0), 'operations');
  assert.equal(limitOf(1, 8001, 0), 'normalized changes');
  assert.equal(limitOf(1, 1, 2 * 1024 * 1024 + 1), 'bytes');
  const { store } = storeAt();
  assert.equal(
    codeOf(() => store.begin(900, ENTRY_LIMITS.bytes + 1)),
    'change_set_too_large',
  );
});

test('states: previewing and committing are in progress, committed is gone, and a claim is exclusive', () => {
  const { store } = storeAt();
  const id = store.begin(900, 10);
  assert.equal(
    codeOf(() => store.claim(id)),
    'change_set_in_progress',
  );
  assert.equal(
    codeOf(() => store.discard(id)),
    'unknown_change_set',
  );
  store.ready(id, 'p');
  const claimed = store.claim(id);
  assert.equal(claimed.state, 'committing');
  assert.equal(claimed.payload, 'p');
  assert.equal(
    codeOf(() => store.claim(id)),
    'change_set_in_progress',
    'a second commit while the first runs',
  );
  assert.equal(
    codeOf(() => store.get(id)),
    'change_set_in_progress',
  );
  assert.equal(
    codeOf(() => store.discard(id)),
    'unknown_change_set',
    'committing cannot be discarded',
  );
  store.release(id);
  assert.equal(store.claim(id).state, 'committing', 'a refused commit leaves the preview usable');
  store.complete(id);
  assert.equal(
    codeOf(() => store.claim(id)),
    'unknown_change_set',
    'committed exactly once',
  );
  assert.equal(
    codeOf(() => store.discard(id)),
    'unknown_change_set',
  );
});

test('exactly one of many concurrent claims wins', () => {
  const { store } = storeAt();
  const id = store.begin(900, 10);
  store.ready(id, 'p');
  const outcomes = Array.from({ length: 10 }, () => codeOf(() => store.claim(id)));
  assert.equal(outcomes.filter((o) => o === 'no error').length, 1);
  assert.equal(outcomes.filter((o) => o === 'change_set_in_progress').length, 9);
});

test('an abandoned preview leaves nothing; a discarded one is unknown afterwards', () => {
  const { store } = storeAt();
  const a = store.begin(900, 10);
  store.abandon(a);
  assert.equal(
    codeOf(() => store.get(a)),
    'unknown_change_set',
  );
  const b = store.begin(900, 10);
  store.ready(b, 'p');
  store.discard(b);
  assert.equal(
    codeOf(() => store.get(b)),
    'unknown_change_set',
  );
  assert.equal(store.size, 0);
});

test('a full store evicts the ready previews that expire first, never those under way', () => {
  const { store, clock } = storeAt({ maxEntries: 3 });
  const soon = store.begin(10, 1);
  store.ready(soon, 'soon');
  const late = store.begin(100, 1);
  store.ready(late, 'late');
  const running = store.begin(5, 1);
  clock.t += 1;
  const fresh = store.begin(900, 1);
  assert.equal(
    codeOf(() => store.get(soon)),
    'unknown_change_set',
    'evicted',
  );
  assert.equal(store.get(late).payload, 'late');
  store.ready(running, 'running');
  store.ready(fresh, 'fresh');
  store.claim(late);
  store.claim(running);
  store.claim(fresh);
  assert.equal(
    codeOf(() => store.begin(900, 1)),
    'change_set_store_full',
    'every entry is being committed',
  );
});

test('the byte budget evicts too', () => {
  const { store } = storeAt({ maxTotalBytes: 100 });
  const a = store.begin(900, 60);
  store.ready(a, 'a');
  const b = store.begin(900, 60);
  assert.equal(
    codeOf(() => store.get(a)),
    'unknown_change_set',
  );
  store.ready(b, 'b');
  assert.equal(store.get(b).payload, 'b');
});

test('a commit refused after the entry expired does not bring it back', () => {
  const { store, clock } = storeAt();
  const id = store.begin(1, 1);
  store.ready(id, 'p');
  store.claim(id);
  clock.t += 5000;
  assert.equal(store.size, 1, 'an entry being committed does not expire under the commit');
  store.release(id);
  assert.equal(
    codeOf(() => store.get(id)),
    'unknown_change_set',
  );
});
