// Capturing a lock from a closure and verifying it offline against real files: every mismatch kind, and
// documents that escape the lock directory through a symlink.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { captureLock } from '../../src/imports/capture.js';
import { importGraph } from '../../src/imports/closure.js';
import { verifyLock } from '../../src/imports/verify.js';
import { makeLock, serializeLock, type ImportLock } from '../../src/imports/lockfile.js';
import type { Ontology } from '../../src/model/ontology.js';
import { finder, ontology, withTempDir, type TempDir } from './support.js';
import { sha256Digest } from '../../src/util/digest.js';
import { at } from '../support/at.js';

const clean = () => false;

/** root → a → b, with a and b in real files under `t`. */
async function project(t: TempDir): Promise<{ root: Ontology; a: Ontology; b: Ontology; all: Ontology[] }> {
  const aFile = await t.file('imports/a.ttl', '# a\n');
  const bFile = await t.file('imports/deep/b.ttl', '# b\n');
  const root = ontology('http://ex.org/root', ['http://ex.org/a'], path.join(t.dir, 'root.ttl'));
  const a = ontology('http://ex.org/a', ['http://ex.org/b/v1'], aFile);
  const b = ontology('http://ex.org/b', [], bFile, 'http://ex.org/b/v1');
  return { root, a, b, all: [root, a, b] };
}

async function capture(t: TempDir, o: Ontology, all: Ontology[]): Promise<ImportLock> {
  const c = await captureLock(importGraph(o, finder(all)), t.dir, clean);
  if (!c.ok) throw new Error(c.errors.join('; '));
  return c.lock;
}

async function writeLock(t: TempDir, lock: ImportLock): Promise<string> {
  return t.file('imports.lock.json', serializeLock(lock));
}

test('a captured lock lists every local import with lock-relative path, digest and direct flag, and verifies', () =>
  withTempDir(async (t) => {
    const { root, all } = await project(t);
    const lock = await capture(t, root, all);
    assert.deepEqual(lock.imports, [
      { ontology_iri: 'http://ex.org/a', version_iri: null, path: 'imports/a.ttl', sha256: sha256Digest('# a\n'), direct: true },
      {
        ontology_iri: 'http://ex.org/b',
        version_iri: 'http://ex.org/b/v1',
        path: 'imports/deep/b.ttl',
        sha256: sha256Digest('# b\n'),
        direct: false,
      },
    ]);
    const file = await writeLock(t, lock);
    const v = await verifyLock(file, importGraph(root, finder(all)));
    assert.equal(v.valid, true);
    assert.equal(v.entry_count, 2);
    assert.equal(v.sha256, sha256Digest(serializeLock(lock)));
    assert.deepEqual([v.errors, v.missing_entries, v.extra_entries, v.mismatched_entries], [[], [], [], []]);
  }));

test('a changed byte in an imported document is a sha256 mismatch', () =>
  withTempDir(async (t) => {
    const { root, a, all } = await project(t);
    const file = await writeLock(t, await capture(t, root, all));
    await writeFile(a.documentIri!, '# A\n');
    const v = await verifyLock(file, importGraph(root, finder(all)));
    assert.equal(v.valid, false);
    assert.deepEqual(v.mismatched_entries, [
      { ontology_iri: 'http://ex.org/a', field: 'sha256', locked: sha256Digest('# a\n'), actual: sha256Digest('# A\n') },
    ]);
  }));

test('an import the lock lacks is missing; a locked ontology the closure lacks is extra', () =>
  withTempDir(async (t) => {
    const { root, a, b, all } = await project(t);
    const lock = await capture(t, root, all);
    const cFile = await t.file('c.ttl', '# c\n');
    const c = ontology('http://ex.org/c', [], cFile);
    root.imports.add('http://ex.org/c');
    a.imports.clear();
    const file = await writeLock(t, lock);
    const v = await verifyLock(file, importGraph(root, finder([root, a, b, c])));
    assert.deepEqual(v.missing_entries, [{ ontology_iri: 'http://ex.org/c', version_iri: null, path: 'c.ttl', direct: true }]);
    assert.deepEqual(
      v.extra_entries.map((e) => e.ontology_iri),
      ['http://ex.org/b'],
    );
    assert.deepEqual(v.mismatched_entries, []);
    assert.equal(v.valid, false);
  }));

test('a different version IRI, document and direct flag are each reported as a field mismatch', () =>
  withTempDir(async (t) => {
    const { root, b, all } = await project(t);
    const file = await writeLock(t, await capture(t, root, all));
    const moved = await t.file('elsewhere/b2.ttl', '# b\n');
    b.id = { iri: 'http://ex.org/b', versionIri: 'http://ex.org/b/v2' };
    b.documentIri = moved;
    root.imports.add('http://ex.org/b/v2');
    const v = await verifyLock(file, importGraph(root, finder(all)));
    assert.deepEqual(
      v.mismatched_entries.map((m) => [m.field, m.locked, m.actual]),
      [
        ['version_iri', 'http://ex.org/b/v1', 'http://ex.org/b/v2'],
        ['path', 'imports/deep/b.ttl', 'elsewhere/b2.ttl'],
        ['direct', false, true],
      ],
    );
  }));

test('a locked path that escapes the lock directory through a symlink is an error and is not read', () =>
  withTempDir((t) =>
    withTempDir(async (outside) => {
      const { root, a } = await project(t);
      const secret = await outside.file('a.ttl', '# a\n');
      await symlink(secret, path.join(t.dir, 'link.ttl'));
      a.documentIri = path.join(t.dir, 'link.ttl');
      const lock = makeLock([
        { ontology_iri: 'http://ex.org/a', version_iri: null, path: 'link.ttl', sha256: sha256Digest('# a\n'), direct: true },
      ]);
      const file = await writeLock(t, lock);
      const v = await verifyLock(file, importGraph(root, finder([root, a])));
      assert.equal(v.valid, false);
      assert.match(v.errors.join('\n'), /link\.ttl resolves outside the lock directory/);
      assert.deepEqual(
        v.mismatched_entries.map((m) => [m.field, m.actual]),
        [['sha256', null]],
      );
      // capture refuses the same closure
      const c = await captureLock(importGraph(root, finder([root, a])), t.dir, clean);
      assert.equal(c.ok, false);
      assert.match(c.ok ? '' : c.errors.join('\n'), /not below the lock directory/);
    }),
  ));

test('capture refuses missing, remote, in-memory and unsaved imports, listing every reason', () =>
  withTempDir(async (t) => {
    const aFile = await t.file('a.ttl', '# a\n');
    const root = ontology('http://ex.org/root', ['http://ex.org/a', 'http://ex.org/gone', 'http://ex.org/r', 'http://ex.org/m']);
    const a = ontology('http://ex.org/a', [], aFile);
    const r = ontology('http://ex.org/r', [], 'https://remote.example/r.owl');
    const m = ontology('http://ex.org/m', []);
    const c = await captureLock(importGraph(root, finder([root, a, r, m])), t.dir, (o) => o === a);
    assert.equal(c.ok, false);
    const errors = c.ok ? [] : c.errors;
    assert.equal(errors.length, 4);
    assert.match(errors.join('\n'), /import http:\/\/ex\.org\/gone declared by http:\/\/ex\.org\/root is not resolved/);
    assert.match(errors.join('\n'), /remote document https:\/\/remote\.example\/r\.owl/);
    assert.match(errors.join('\n'), /held only in memory/);
    assert.match(errors.join('\n'), /unsaved changes/);
  }));

test('an unparsable or unreadable lockfile is invalid with one precise error', () =>
  withTempDir(async (t) => {
    const { root, all } = await project(t);
    const g = importGraph(root, finder(all));
    const bad = await t.file('imports.lock.json', '{"version":1,"imports":[],"x":1}');
    const v = await verifyLock(bad, g);
    assert.equal(v.valid, false);
    assert.equal(v.sha256, sha256Digest('{"version":1,"imports":[],"x":1}'));
    assert.match(at(v.errors, 0), /does not match version 1/);
    const absent = await verifyLock(path.join(t.dir, 'none.json'), g);
    assert.match(at(absent.errors, 0), /ENOENT/);
    assert.equal(absent.sha256, null);
  }));
