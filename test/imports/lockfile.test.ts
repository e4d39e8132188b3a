// The version-1 lock format: canonical order and bytes, and a strict parser that refuses anything a hand
// edit could slip in.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  isLockRelativePath,
  makeLock,
  parseLock,
  serializeLock,
  LockParseError,
  MAX_LOCK_BYTES,
  type LockEntry,
} from '../../src/imports/lockfile.js';
import { sha256Digest } from '../../src/util/digest.js';
import { at } from '../support/at.js';

const D1 = 'sha256:' + '1'.repeat(64);
const D2 = 'sha256:' + 'a'.repeat(64);

const entry = (iri: string, p: string, extra: Partial<LockEntry> = {}): LockEntry => ({
  ontology_iri: iri,
  version_iri: null,
  path: p,
  sha256: D1,
  direct: true,
  ...extra,
});

const bytes = (s: string) => new TextEncoder().encode(s);

test('entries are sorted by ontology IRI, version IRI, path whatever order they were captured in', () => {
  const a = entry('http://ex.org/b', 'b.ttl');
  const b = entry('http://ex.org/a', 'z/a.ttl', { version_iri: 'http://ex.org/a/2' });
  const c = entry('http://ex.org/a', 'a.ttl');
  assert.deepEqual(
    makeLock([a, b, c]).imports.map((e) => [e.ontology_iri, e.version_iri]),
    [
      ['http://ex.org/a', null],
      ['http://ex.org/a', 'http://ex.org/a/2'],
      ['http://ex.org/b', null],
    ],
  );
});

test('the same closure serializes to the same bytes and digest, with a fixed key order', () => {
  const entries = [entry('http://ex.org/b', 'b.ttl', { direct: false, sha256: D2 }), entry('http://ex.org/a', 'sub/a.ttl')];
  const one = serializeLock(makeLock(entries));
  const reordered = {
    version: 1 as const,
    imports: [{ direct: false, sha256: D2, path: 'b.ttl', version_iri: null, ontology_iri: 'http://ex.org/b' }, at(entries, 1)],
  };
  const two = serializeLock(reordered);
  assert.equal(one, two);
  assert.equal(sha256Digest(one), sha256Digest(two));
  assert.ok(one.endsWith('}\n'));
  assert.deepEqual(Object.keys(JSON.parse(one).imports[0]), ['ontology_iri', 'version_iri', 'path', 'sha256', 'direct']);
  assert.deepEqual(parseLock(bytes(one)), makeLock(entries));
});

test('an empty closure is a valid lock', () => {
  const text = serializeLock(makeLock([]));
  assert.deepEqual(parseLock(bytes(text)), { version: 1, imports: [] });
});

const refusals: [string, string, RegExp][] = [
  ['unknown top-level field', JSON.stringify({ version: 1, imports: [], extra: true }), /extra|key/i],
  ['unknown entry field', JSON.stringify({ version: 1, imports: [{ ...entry('http://ex.org/a', 'a.ttl'), note: 'x' }] }), /note|key/i],
  [
    'missing entry field',
    JSON.stringify({ version: 1, imports: [{ ontology_iri: 'http://ex.org/a', version_iri: null, path: 'a.ttl', sha256: D1 }] }),
    /direct/,
  ],
  ['version 2', JSON.stringify({ version: 2, imports: [] }), /version/],
  [
    'uppercase digest',
    JSON.stringify({ version: 1, imports: [entry('http://ex.org/a', 'a.ttl', { sha256: 'sha256:' + 'A'.repeat(64) })] }),
    /sha256/,
  ],
  [
    'digest without prefix',
    JSON.stringify({ version: 1, imports: [entry('http://ex.org/a', 'a.ttl', { sha256: '1'.repeat(64) })] }),
    /sha256/,
  ],
  ['relative ontology IRI', JSON.stringify({ version: 1, imports: [entry('a', 'a.ttl')] }), /absolute IRI/],
  ['escaping path', JSON.stringify({ version: 1, imports: [entry('http://ex.org/a', '../a.ttl')] }), /path/],
  ['absolute path', JSON.stringify({ version: 1, imports: [entry('http://ex.org/a', '/etc/passwd')] }), /path/],
  ['backslash path', JSON.stringify({ version: 1, imports: [entry('http://ex.org/a', 'sub\\a.ttl')] }), /path/],
  [
    'duplicate ontology',
    JSON.stringify({ version: 1, imports: [entry('http://ex.org/a', 'a.ttl'), entry('http://ex.org/a', 'b.ttl')] }),
    /more than once/,
  ],
  ['duplicate key', '{"version": 1, "version": 1, "imports": []}', /duplicate key/],
  ['trailing garbage', '{"version": 1, "imports": []} {}', /JSON/],
  ['not an object', '[]', /version 1/],
];

for (const [what, text, message] of refusals) {
  test(`parseLock refuses ${what}`, () => {
    assert.throws(
      () => parseLock(bytes(text)),
      (err: unknown) => err instanceof LockParseError && message.test(err.message),
    );
  });
}

test('parseLock refuses invalid UTF-8 and oversized input before parsing', () => {
  assert.throws(() => parseLock(new Uint8Array([0x7b, 0xff, 0x7d])), /UTF-8/);
  assert.throws(() => parseLock(new Uint8Array(MAX_LOCK_BYTES + 1).fill(0x20)), /limit/);
});

test('lock-relative paths stay below the lock directory', () => {
  for (const ok of ['a.ttl', 'sub/dir/a.owl', 'a..b.ttl']) assert.ok(isLockRelativePath(ok), ok);
  for (const bad of ['', '/a', 'a//b', './a', 'a/../b', '..', 'C:/a', 'a\\b', 'a/']) assert.ok(!isLockRelativePath(bad), bad);
});
