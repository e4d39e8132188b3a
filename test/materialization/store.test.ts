// The per-actor artifact store: 30-minute expiry reported as such to the owner, privacy between sessions,
// and its bound on entries.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ARTIFACT_TTL_MS, ArtifactStore, ArtifactStoreFull } from '../../src/materialization/store.js';

test('an artifact is found by its owner until it expires, then reported expired', () => {
  let now = 1_000_000;
  const store = new ArtifactStore<string>(() => now);
  const id = ArtifactStore.newId();
  assert.match(id, /^[A-Za-z0-9._-]{1,128}$/);
  const entry = store.put(id, 'session-1', 10, 'payload');
  assert.equal(entry.expiresAt - entry.createdAt, ARTIFACT_TTL_MS);
  assert.equal(store.get(id, 'session-1').kind, 'found');
  now += ARTIFACT_TTL_MS - 1;
  assert.equal(store.get(id, 'session-1').kind, 'found');
  now += 1;
  assert.deepEqual(store.get(id, 'session-1'), { kind: 'expired', expiredAt: entry.expiresAt });
  assert.equal(store.size, 0);
});

test('another session sees neither a live nor an expired artifact', () => {
  let now = 0;
  const store = new ArtifactStore<string>(() => now);
  store.put('a1', 'owner', 1, 'x');
  assert.equal(store.get('a1', 'intruder').kind, 'unknown');
  assert.equal(store.get('a1', null).kind, 'unknown');
  now += ARTIFACT_TTL_MS;
  assert.equal(store.get('a1', 'intruder').kind, 'unknown');
  assert.equal(store.get('a1', 'owner').kind, 'expired');
});

test('the store is bounded in entries; expired entries make room again', () => {
  let now = 0;
  const store = new ArtifactStore<string>(() => now);
  for (let i = 0; i < 32; i++) store.put('a' + i, 's', 1, 'x');
  assert.throws(() => store.put('over', 's', 1, 'x'), ArtifactStoreFull);
  now += ARTIFACT_TTL_MS;
  store.put('fresh', 's', 1, 'x');
  assert.equal(store.get('fresh', 's').kind, 'found');
});
