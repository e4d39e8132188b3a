// The lock_mode rule (TOOLS.md 1.8): which lockfile applies, when absence skips or fails, and the findings.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { captureLock } from '../../src/imports/capture.js';
import { importGraph } from '../../src/imports/closure.js';
import { BESIDE_DOCUMENT_NOTE, checkImportLock, resolveLockTarget, type LockPolicy } from '../../src/imports/lock-mode.js';
import { serializeLock } from '../../src/imports/lockfile.js';
import { finder, ontology, withTempDir, type TempDir } from './support.js';

async function lockedProject(t: TempDir, lockRel = 'imports.lock.json') {
  const aFile = await t.file('a.ttl', '# a\n');
  const rootFile = await t.file('root.ttl', '# root\n');
  const root = ontology('http://ex.org/root', ['http://ex.org/a'], rootFile);
  const a = ontology('http://ex.org/a', [], aFile);
  const graph = importGraph(root, finder([root, a]));
  const c = await captureLock(graph, path.dirname(path.join(t.dir, lockRel)), () => false);
  if (!c.ok) throw new Error(c.errors.join('; '));
  await t.file(lockRel, serializeLock(c.lock));
  return { root, a, rootFile, graph };
}

test('the policy lockfile applies when it resolves inside the project root; otherwise the file beside the document', () =>
  withTempDir(async (t) => {
    const doc = await t.file('onto/root.ttl', '');
    const policy: LockPolicy = { lockfile: 'locks/imports.lock.json', mode: 'unlocked', projectRoot: t.dir };
    const beside = { path: path.join(t.dir, 'onto', 'imports.lock.json'), source: 'beside_document' };
    assert.deepEqual(await resolveLockTarget(null, doc), { ...beside, declaredUnresolved: null });
    assert.deepEqual(await resolveLockTarget(policy, doc), { ...beside, declaredUnresolved: path.join(t.dir, 'locks/imports.lock.json') });
    await t.file('locks/imports.lock.json', '{}');
    assert.deepEqual(await resolveLockTarget(policy, doc), {
      path: path.join(t.dir, 'locks/imports.lock.json'),
      source: 'policy_declared',
      declaredUnresolved: null,
    });
    // a load of a document other than the project's root artifact uses the file beside it
    assert.deepEqual(await resolveLockTarget(policy, doc, false), { ...beside, declaredUnresolved: null });
    assert.deepEqual(await resolveLockTarget({ ...policy, lockfile: '../outside.json' }, doc), {
      ...beside,
      declaredUnresolved: path.resolve(t.dir, '../outside.json'),
    });
    assert.deepEqual(await resolveLockTarget(null, null), { path: null, source: 'beside_document', declaredUnresolved: null });
  }));

test('ignore verifies nothing unless the policy is locked, which raises it to verify', () =>
  withTempDir(async (t) => {
    const { rootFile, graph } = await lockedProject(t);
    const target = await resolveLockTarget(null, rootFile);
    assert.equal(await checkImportLock('ignore', null, target, graph), null);
    const policy: LockPolicy = { lockfile: undefined, mode: 'locked', projectRoot: t.dir };
    const v = await checkImportLock('ignore', policy, await resolveLockTarget(policy, rootFile), graph);
    assert.equal(v?.mode, 'verify');
    assert.equal(v?.forced_by_policy, true);
    assert.equal(v?.verified, true);
    assert.equal(v?.valid, true);
    assert.equal(v?.blocking, false);
    assert.equal(v?.lockfile_note, BESIDE_DOCUMENT_NOTE);
  }));

test('verify skips an absent default lockfile without gating; required makes it the error finding imports.lock_missing', () =>
  withTempDir(async (t) => {
    const rootFile = await t.file('root.ttl', '');
    const root = ontology('http://ex.org/root', [], rootFile);
    const graph = importGraph(root, finder([root]));
    const target = await resolveLockTarget(null, rootFile);
    const skipped = await checkImportLock('verify', null, target, graph);
    assert.deepEqual(
      {
        verified: skipped?.verified,
        skipped: skipped?.skipped,
        path: skipped?.path,
        source: skipped?.lockfile_source,
        blocking: skipped?.blocking,
        findings: skipped?.findings,
      },
      {
        verified: false,
        skipped: true,
        path: path.join(t.dir, 'imports.lock.json'),
        source: 'beside_document',
        blocking: false,
        findings: [],
      },
    );
    assert.match(skipped?.note ?? '', /no lockfile at/);
    const required = await checkImportLock('required', null, target, graph);
    assert.equal(required?.blocking, true);
    assert.equal(required?.skipped, undefined);
    assert.deepEqual(
      required?.findings.map((f) => [f.id, f.rule_id, f.severity, f.focus_iri]),
      [['imports.lock_missing', 'imports.lock_missing', 'error', 'http://ex.org/root']],
    );
  }));

test('a locked policy whose declared lockfile does not resolve still skips under verify (so a first lock can be written) and notes why', () =>
  withTempDir(async (t) => {
    const rootFile = await t.file('root.ttl', '');
    const root = ontology('http://ex.org/root', [], rootFile);
    const graph = importGraph(root, finder([root]));
    const locked: LockPolicy = { lockfile: 'locks/imports.lock.json', mode: 'locked', projectRoot: t.dir };
    const target = await resolveLockTarget(locked, rootFile);
    const v = await checkImportLock('ignore', locked, target, graph);
    assert.deepEqual([v?.forced_by_policy, v?.skipped, v?.blocking], [true, true, false]);
    assert.match(v?.note ?? '', /imports\.lockfile .*locks\/imports\.lock\.json does not resolve/);
    const required = await checkImportLock('required', locked, target, graph);
    assert.equal(required?.blocking, true);
    assert.equal(required?.findings[0]?.rule_id, 'imports.lock_missing');
  }));

test('a mismatch is the error finding imports.lock_mismatch with the verification lists', () =>
  withTempDir(async (t) => {
    const { a, rootFile, graph } = await lockedProject(t);
    await writeFile(a.documentIri!, '# changed\n');
    const v = await checkImportLock('verify', null, await resolveLockTarget(null, rootFile), graph);
    assert.equal(v?.verified, true);
    assert.equal(v?.valid, false);
    assert.equal(v?.blocking, true);
    assert.deepEqual(
      v?.mismatched_entries?.map((m) => m.field),
      ['sha256'],
    );
    assert.deepEqual(
      v?.findings.map((f) => [f.rule_id, f.source, f.details]),
      [['imports.lock_mismatch', 'interoperability', { errors: 0, missing_entries: 0, extra_entries: 0, mismatched_entries: 1 }]],
    );
  }));

test('a policy-declared lockfile is reported as such, without the beside-document note', () =>
  withTempDir(async (t) => {
    const { rootFile, graph } = await lockedProject(t, 'imports.lock.json');
    const policy: LockPolicy = { lockfile: 'imports.lock.json', mode: 'unlocked', projectRoot: t.dir };
    const v = await checkImportLock('required', policy, await resolveLockTarget(policy, rootFile), graph);
    assert.equal(v?.lockfile_source, 'policy_declared');
    assert.equal(v?.lockfile_note, undefined);
    assert.equal(v?.valid, true);
  }));
