// The journal's writer thread: a batch's lines land checksummed at the place the store gave them and are
// durable when it says so; a batch it cannot write or fsync fails instead of being acknowledged.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ThreadLineWriter } from '../../src/journal/line-writer.js';
import { decodeRecords, encodeRecord } from '../../src/journal/file-store.js';
import type { SaveMarker } from '../../src/journal/records.js';

const marker = (seq: number): SaveMarker => ({ type: 'save', seq, time: '2026-01-01T00:00:00.000Z', fingerprint: `f${seq} ü` });

async function withFile(f: (file: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-line-writer-'));
  try {
    await f(path.join(dir, 'journal.log'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('the lines of a batch are written checksummed where the store placed them, batch after batch', () =>
  withFile(async (file) => {
    await writeFile(file, Buffer.alloc(4096));
    const writer = new ThreadLineWriter();
    const fd = openSync(file, 'r+');
    try {
      const first = [marker(1), marker(2)].map(encodeRecord).join('');
      await writer.write(fd, 0, [JSON.stringify(marker(1)), JSON.stringify(marker(2))]);
      await writer.write(fd, Buffer.byteLength(first), [JSON.stringify(marker(3))]);
      const bytes = await readFile(file);
      const end = bytes.indexOf(0);
      assert.equal(bytes.toString('utf8', 0, end), first + encodeRecord(marker(3)));
      assert.deepEqual(
        decodeRecords(bytes.toString('utf8', 0, end)).map((r) => (r.type === 'save' ? r.seq : 0)),
        [1, 2, 3],
      );
    } finally {
      closeSync(fd);
      await writer.close();
    }
  }));

test('a batch the thread cannot write fails with the error, and the next batch is written', () =>
  withFile(async (file) => {
    await writeFile(file, '');
    const writer = new ThreadLineWriter();
    const readOnly = openSync(file, 'r');
    const writable = openSync(file, 'r+');
    try {
      await assert.rejects(writer.write(readOnly, 0, [JSON.stringify(marker(1))]), { code: 'EBADF' });
      await writer.write(writable, 0, [JSON.stringify(marker(2))]);
      assert.equal(await readFile(file, 'utf8'), encodeRecord(marker(2)));
    } finally {
      closeSync(readOnly);
      closeSync(writable);
      await writer.close();
    }
  }));
