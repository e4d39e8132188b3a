// Saves are atomic: a save that fails, or a process killed in the middle of one, leaves the previous
// document complete and in place.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../../src/util/atomic-file.js';

const atomicModule = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src/util/atomic-file.js');

test('a new file gets the requested mode and the content', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-atomic-'));
  try {
    const target = path.join(dir, 'nested', 'secret');
    await writeFileAtomic(target, 'token', { mode: 0o600 });
    assert.equal(await readFile(target, 'utf8'), 'token');
    assert.equal((await stat(target)).mode & 0o777, 0o600);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a write that fails leaves the old document and no temporary file', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-atomic-'));
  try {
    // The target is a non-empty directory, so the final rename fails after the data was written.
    const target = path.join(dir, 'onto.ttl');
    await mkdir(target);
    await writeFile(path.join(target, 'keep'), 'old');
    await assert.rejects(writeFileAtomic(target, 'new content'));
    assert.equal(await readFile(path.join(target, 'keep'), 'utf8'), 'old');
    assert.deepEqual((await readdir(dir)).sort(), ['onto.ttl']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a process killed in the middle of saves leaves either the old or the new document, whole', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-atomic-'));
  try {
    const target = path.join(dir, 'onto.ttl');
    const old = 'old document\n'.repeat(100_000);
    await writeFile(target, old);
    const saver = `
      const { writeFileAtomic } = await import(${JSON.stringify(atomicModule)});
      const content = 'new document\\n'.repeat(1_000_000);
      process.stdout.write('ready\\n');
      for (;;) await writeFileAtomic(${JSON.stringify(target)}, content);
    `;
    for (const delayMs of [5, 40, 120]) {
      const child = spawn(process.execPath, ['--input-type=module', '-e', saver], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      await new Promise((r) => setTimeout(r, delayMs));
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      const now = await readFile(target, 'utf8');
      assert.ok(
        now === old || now === 'new document\n'.repeat(1_000_000),
        `torn file of ${now.length} characters after a kill at ${delayMs} ms`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
