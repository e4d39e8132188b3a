// The server-wide preview-reasoner slot in the private directory: exclusive while held, released on
// disposal, and taken over when its owner process is gone or its deadline has passed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { claimSlot, SLOT_FILE } from '../../src/materialization/slot.js';

async function withHome(body: (home: string) => Promise<void>): Promise<void> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-slot-'));
  try {
    await body(home);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

test('the slot is exclusive until released, and its file is private', async () => {
  await withHome(async (home) => {
    const release = claimSlot(home, 1000);
    assert.ok(release !== null);
    assert.equal(claimSlot(home, 1000), null);
    assert.equal((await stat(path.join(home, SLOT_FILE))).mode & 0o777, 0o600);
    release();
    await assert.rejects(stat(path.join(home, SLOT_FILE)), { code: 'ENOENT' });
    const again = claimSlot(home, 1000);
    assert.ok(again !== null);
    again();
  });
});

test('a slot held by another live owner refuses; one past its deadline or of a dead process is taken over', async () => {
  await withHome(async (home) => {
    const file = path.join(home, SLOT_FILE);
    await writeFile(file, JSON.stringify({ pid: process.pid, thread: 99, token: 'other', deadline: Date.now() + 60_000 }));
    assert.equal(claimSlot(home, 1000), null);
    await writeFile(file, JSON.stringify({ pid: process.pid, thread: 99, token: 'other', deadline: Date.now() - 1 }));
    const late = claimSlot(home, 1000);
    assert.ok(late !== null);
    late();
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    await writeFile(file, JSON.stringify({ pid: dead, thread: 0, token: 'gone', deadline: Date.now() + 60_000 }));
    const taken = claimSlot(home, 1000);
    assert.ok(taken !== null);
    assert.equal(JSON.parse(await readFile(file, 'utf8')).pid, process.pid);
    taken();
  });
});

test('releasing a slot that was taken over leaves the new owner in place', async () => {
  await withHome(async (home) => {
    const file = path.join(home, SLOT_FILE);
    const release = claimSlot(home, 1000)!;
    const theirs = JSON.stringify({ pid: process.pid, thread: 7, token: 'theirs', deadline: Date.now() + 60_000 });
    await writeFile(file, theirs);
    release();
    assert.equal(await readFile(file, 'utf8'), theirs);
  });
});
