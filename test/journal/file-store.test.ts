// The file journal: checksummed lines, a torn last line tolerated and cut before the next append, saves
// moving entries to the history, retention by age and size, group commit, private file modes, numbering
// shared with other writers of the document.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { Worker } from 'node:worker_threads';
import os from 'node:os';
import path from 'node:path';
import { FileChangeStore, decodeRecords, encodeRecord } from '../../src/journal/file-store.js';
import { unsavedEntries } from '../../src/journal/store.js';
import type { ChangeEntry } from '../../src/journal/records.js';
import { at } from '../support/at.js';

const DOC = '/projects/zoo.ttl';

function entry(seq: number, time = new Date().toISOString()): ChangeEntry {
  return {
    type: 'change',
    seq,
    time,
    document: DOC,
    batch: `b${seq}`,
    principal: null,
    client: null,
    session_id: null,
    tool: 'add_axiom',
    cause: 'apply',
    changes: [{ op: 'add_axiom', axiom: `Declaration(Class(<http://example.org/C${seq}>))` }],
    entities: [`http://example.org/C${seq}`],
    revision_before: seq,
    revision_after: seq + 1,
    fingerprint_before: `f${seq - 1}`,
    fingerprint_after: `f${seq}`,
  };
}

async function withStore(f: (store: FileChangeStore, home: string) => Promise<void>, maxBytes = 1 << 30): Promise<void> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-journal-store-'));
  const store = new FileChangeStore(home, { maxAgeDays: 90, maxBytes });
  try {
    await f(store, home);
  } finally {
    await store.close();
    await rm(home, { recursive: true, force: true });
  }
}

async function journalFile(home: string, name = 'journal.log'): Promise<string> {
  const [dir] = await readdir(path.join(home, 'journal'));
  assert.ok(dir, 'a journal directory');
  return path.join(home, 'journal', dir, name);
}

/** Where a journal's data ends: at its zero fill, or the file's end. */
function dataEnd(bytes: Buffer): number {
  const zero = bytes.indexOf(0);
  return zero < 0 ? bytes.length : zero;
}

/** Writes `text` where a writer of the journal would: at the end of its data, into the zero fill. */
async function writeAtDataEnd(file: string, text: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.write(text, dataEnd(await readFile(file)));
  } finally {
    await handle.close();
  }
}

test('concurrent appends share writes and all come back in order, in private files', () =>
  withStore(async (store, home) => {
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.append(DOC, [entry(i + 1)])));
    const state = await store.readSince(DOC, 0);
    assert.deepEqual(
      state.entries.map((e) => e.seq),
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    assert.equal(state.lastSeq, 50);
    assert.deepEqual(await store.unsavedDocuments(), [DOC]);
    const file = await journalFile(home);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.equal((await stat(path.dirname(file))).mode & 0o777, 0o700);
    assert.equal((await stat(path.join(home, 'journal'))).mode & 0o777, 0o700);
    assert.equal(await readFile(path.join(path.dirname(file), 'document'), 'utf8'), DOC);
  }));

test('appends made by separate callbacks of one event-loop turn share one write and fsync', () =>
  withStore(async (store) => {
    await store.append(DOC, [entry(0)]);
    const events: string[] = [];
    // calls arrive as separate callbacks (socket or port messages); the first one's flush must not leave the rest for the next fsync
    const arrivals = ['a', 'b', 'c'].map(
      (name) =>
        new Promise<void>((resolve) =>
          setImmediate(() => {
            resolve(
              store
                .append(DOC, [entry(0)], () => events.push(`numbered ${name}`))
                .then(() => {
                  events.push(`durable ${name}`);
                }),
            );
          }),
        ),
    );
    await Promise.all(arrivals);
    assert.deepEqual(events.slice(0, 3), ['numbered a', 'numbered b', 'numbered c']);
    assert.deepEqual(
      (await store.readSince(DOC, 0)).entries.map((e) => e.seq),
      [1, 2, 3, 4],
    );
  }));

/**
 * Holds back the completion of every fdatasync the store starts (the real call runs; its callback waits)
 * until the test releases it, so the order in which fsyncs end is the test's to choose.
 */
interface HeldSync {
  /** Lets the fsync's callback run, with `failure` in place of its outcome if given. */
  release(failure?: NodeJS.ErrnoException): void;
}

async function withHeldSyncs(f: (held: HeldSync[]) => Promise<void>): Promise<void> {
  const real = fs.fdatasync;
  const held: HeldSync[] = [];
  fs.fdatasync = ((fd: number, callback: (err: NodeJS.ErrnoException | null) => void) => {
    real(fd, (err) => held.push({ release: (failure) => callback(failure ?? err) }));
  }) as typeof fs.fdatasync;
  syncBuiltinESMExports();
  try {
    await f(held);
  } finally {
    fs.fdatasync = real;
    syncBuiltinESMExports();
    for (const h of held.splice(0)) h.release();
  }
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    assert.ok(Date.now() < deadline, 'waited 10 s for the journal');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

test('the next batch is written while the previous one syncs, two at most, and acknowledged after it', () =>
  withStore((store, home) =>
    withHeldSyncs(async (held) => {
      const acks: string[] = [];
      const append = (name: string) =>
        store.append(DOC, [entry(0)]).then(() => {
          acks.push(name);
        });
      const a = append('a');
      await until(() => held.length === 1);
      const b = append('b');
      await until(() => held.length === 2);
      const c = append('c');
      const d = append('d');
      // a third batch waits for the first fsync to end, gathering c and d meanwhile
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(held.length, 2);
      assert.equal(decodeRecords(await readFile(await journalFile(home), 'utf8')).length, 2);
      at(held, 1).release();
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(acks, [], 'b is durable, but not acknowledged before a');
      at(held, 0).release();
      await Promise.all([a, b]);
      assert.deepEqual(acks, ['a', 'b']);
      await until(() => held.length === 3);
      assert.equal(decodeRecords(await readFile(await journalFile(home), 'utf8')).length, 4, 'c and d went out in one write');
      at(held, 2).release();
      await Promise.all([c, d]);
      assert.deepEqual(acks, ['a', 'b', 'c', 'd']);
      assert.deepEqual(
        (await store.readSince(DOC, 0)).entries.map((e) => e.seq),
        [1, 2, 3, 4],
      );
    }),
  ));

test('a batch goes out while the one before it syncs once as many calls wait as that one carries', () =>
  withStore((store, home) =>
    withHeldSyncs(async (held) => {
      const first = [store.append(DOC, [entry(0)]), store.append(DOC, [entry(0)])];
      await until(() => held.length === 1);
      const lone = store.append(DOC, [entry(0)]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(held.length, 1, 'one call waits for the two-call batch');
      const second = store.append(DOC, [entry(0)]);
      await until(() => held.length === 2);
      assert.equal(decodeRecords(await readFile(await journalFile(home), 'utf8')).length, 4);
      at(held, 0).release();
      at(held, 1).release();
      await Promise.all([...first, lone, second]);
    }),
  ));

test('a writer keeps the lock while its batches are under way and lets go of it once idle for a moment', () =>
  withStore((store, home) =>
    withHeldSyncs(async (held) => {
      const a = store.append(DOC, [entry(0)]);
      await until(() => held.length === 1);
      const lock = path.join(path.dirname(await journalFile(home)), 'journal.lock');
      assert.ok(fs.existsSync(lock), 'held across the fsync');
      const b = store.append(DOC, [entry(0)]);
      await until(() => held.length === 2);
      assert.ok(fs.existsSync(lock));
      at(held, 0).release();
      at(held, 1).release();
      await Promise.all([a, b]);
      // released once nothing was queued or syncing for a moment
      await until(() => !fs.existsSync(lock));
    }),
  ));

test('a writer keeps the lock across batches that come closer than its idle time, not letting go between them', () =>
  withStore(async (store, home) => {
    await store.append(DOC, [entry(0)]);
    const lock = path.join(path.dirname(await journalFile(home)), 'journal.lock');
    const started = performance.now();
    await store.append(DOC, [entry(0)]);
    let ended = performance.now();
    // what the lock file holds tells this writer's holds apart: a release and a new take change it
    let hold = fs.readFileSync(lock, 'utf8');
    let close = 0;
    // within a lease (500 ms), every batch that follows the last one's end within the idle time (10 ms) keeps the lock
    while (ended - started < 400) {
      await new Promise((resolve) => setTimeout(resolve, 3));
      const gap = performance.now() - ended;
      await store.append(DOC, [entry(0)]);
      ended = performance.now();
      const now = fs.readFileSync(lock, 'utf8');
      if (gap < 9) {
        close++;
        assert.equal(now, hold, `let go of the lock after a gap of ${gap.toFixed(1)} ms`);
      }
      hold = now;
    }
    assert.ok(close >= 5, `only ${close} batches came within the idle time`);
    await until(() => !fs.existsSync(lock));
  }));

test('a lock left by a writer whose process ended is taken over at once, not after it turns stale', () =>
  withStore(async (store, home) => {
    await store.append(DOC, [entry(0)]);
    const lock = path.join(path.dirname(await journalFile(home)), 'journal.lock');
    const ended = spawn(process.execPath, ['-e', '']);
    await once(ended, 'exit');
    await writeFile(lock, `${ended.pid} 1.1`);
    const started = Date.now();
    const seqs: number[] = [];
    await store.append(DOC, [{ ...entry(0), seq: 0 }], (e) => seqs.push(e.seq));
    // a lock turns stale after 10 s
    assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
    assert.deepEqual(seqs, [2]);
    await until(() => !fs.existsSync(lock));
  }));

test('a lock left by a window thread that ended is taken over at once, not after it turns stale', () =>
  withStore(async (store, home) => {
    await store.append(DOC, [entry(0)]);
    const lock = path.join(path.dirname(await journalFile(home)), 'journal.lock');
    // what a writer on that thread puts in the lock file
    const thread = new Worker(
      "const fs = require('node:fs'); fs.writeFileSync(require('node:worker_threads').workerData, fs.readlinkSync('/proc/thread-self') + ' 1');",
      { eval: true, workerData: lock },
    );
    await once(thread, 'exit');
    const started = Date.now();
    await store.append(DOC, [entry(0)]);
    assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
  }));

test('a writer waiting for the lock gets it while the holder keeps writing; no seq repeats', () =>
  withStore(async (store, home) => {
    let stop = false;
    let written = 0;
    const writers = Array.from({ length: 8 }, async () => {
      while (!stop) {
        await store.append(DOC, [entry(0)]);
        written++;
      }
    });
    await until(() => written >= 20);
    const stopAt = setTimeout(() => (stop = true), 20_000);
    const other = new FileChangeStore(home, { maxAgeDays: 90, maxBytes: 1 << 30 });
    await other.append(DOC, [entry(0)]);
    const stoppedFirst = stop;
    stop = true;
    clearTimeout(stopAt);
    await Promise.all(writers);
    await other.close();
    assert.ok(!stoppedFirst, 'the other writer got the lock while this one kept writing');
    const seqs = decodeRecords(await readFile(await journalFile(home), 'utf8')).map((r) => (r.type === 'change' ? r.seq : -1));
    assert.deepEqual(
      seqs,
      Array.from({ length: written + 1 }, (_, i) => i + 1),
    );
  }));

test('a batch whose earlier batch failed to sync is not acknowledged either; the next append starts afresh', () =>
  withStore((store) =>
    withHeldSyncs(async (held) => {
      const a = store.append(DOC, [entry(0)]);
      await until(() => held.length === 1);
      const b = store.append(DOC, [entry(0)]);
      await until(() => held.length === 2);
      at(held, 1).release();
      at(held, 0).release(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
      await assert.rejects(a, /EIO/);
      await assert.rejects(b, /EIO/, 'b synced, but after an entry that may be lost');
      const c = store.append(DOC, [entry(0)]);
      await until(() => held.length === 3);
      at(held, 2).release();
      await c;
      assert.equal((await store.readSince(DOC, 0)).lastSeq, 3);
    }),
  ));

test('a torn last line is not read and is cut off before the next append', () =>
  withStore(async (store, home) => {
    await store.append(DOC, [entry(1), entry(2)]);
    await store.close();
    const file = await journalFile(home);
    const third = encodeRecord(entry(3));
    await writeAtDataEnd(file, third.slice(0, third.length - 20));
    const reopened = new FileChangeStore(home, { maxAgeDays: 90, maxBytes: 1 << 30 });
    assert.deepEqual(
      (await reopened.readSince(DOC, 0)).entries.map((e) => e.seq),
      [1, 2],
    );
    await reopened.append(DOC, [entry(3)]);
    assert.deepEqual(
      (await reopened.readSince(DOC, 0)).entries.map((e) => e.seq),
      [1, 2, 3],
    );
    await reopened.close();
  }));

test('entries another writer appended are numbered past, and a torn line it left is cut before the next append', () =>
  withStore(async (store, home) => {
    const numbered = (e: ChangeEntry) => ({ ...e, seq: 0 });
    await store.append(DOC, [numbered(entry(1))]);
    const other = new FileChangeStore(home, { maxAgeDays: 90, maxBytes: 1 << 30 });
    await other.append(DOC, [numbered(entry(2)), numbered(entry(3))]);
    await other.close();
    await store.append(DOC, [numbered(entry(4))]);
    // a writer that died mid-write leaves half a line behind (it held the lock, so this one did not)
    const lock = path.join(path.dirname(await journalFile(home)), 'journal.lock');
    await until(() => !fs.existsSync(lock));
    const torn = encodeRecord({ ...entry(5), seq: 5 });
    await writeAtDataEnd(await journalFile(home), torn.slice(0, torn.length - 20));
    const seqs: number[] = [];
    await store.append(DOC, [numbered(entry(6))], (e) => seqs.push(e.seq));
    assert.deepEqual(seqs, [5]);
    assert.deepEqual(
      (await store.readSince(DOC, 0)).entries.map((e) => [e.seq, e.batch]),
      [
        [1, 'b1'],
        [2, 'b2'],
        [3, 'b3'],
        [4, 'b4'],
        [5, 'b6'],
      ],
    );
  }));

test('an entry is written as JSON.stringify writes it, whatever its principal, client, links and text', () =>
  withStore(async (store, home) => {
    const admin = Object.freeze({
      kind: 'static token' as const,
      client_id: 'static-token',
      name: 'Local admin',
      grant_id: null,
      scopes: ['ontology:read'],
    });
    const agent = Object.freeze({
      kind: 'oauth' as const,
      client_id: 'c-1',
      name: 'Agent "Q" \\ ü',
      grant_id: 'g-1',
      scopes: ['ontology:curate'],
    });
    const base = entry(7);
    const shapes: ChangeEntry[] = [
      base,
      { ...base, principal: admin, client: { name: 'bench', version: '1' }, session_id: 's-1', document: '/other/ä "doc".ttl' },
      { ...base, principal: agent, client: { name: 'c\n', version: '2\u0000' }, tool: null, cause: 'undo', undoes: 3 },
      { ...base, principal: agent, cause: 'redo', redoes: 4, tool: 'wérk ü', session_id: 'lone \ud800 😀', time: 'T"\u2028' },
      // a revert's entry, its keys in the recorder's order
      {
        type: 'change',
        seq: 9,
        time: base.time,
        document: DOC,
        batch: 'b9',
        principal: admin,
        client: null,
        session_id: null,
        tool: 'revert_changes',
        cause: 'apply',
        reverts: [1, 2],
        changes: [{ op: 'add_axiom', axiom: 'AnnotationAssertion(rdfs:label <x> "😀\\\"")' }],
        entities: ['x'],
        revision_before: 9,
        revision_after: 10,
        fingerprint_before: 'f8',
        fingerprint_after: 'f9',
      },
      {
        ...base,
        changes: [
          { op: 'set_ontology_id', iri: 'http://e.org/o', version_iri: null, previous: { iri: null, version_iri: null } },
          { op: 'set_prefix', prefix: 'e', namespace: 'http://e.org/', previous: null },
        ],
        entities: [],
      },
    ];
    // twice: the second time from the cached principal and client
    await Promise.all([...shapes, ...shapes].map((e) => store.append(DOC, [e])));
    const bytes = await readFile(await journalFile(home));
    assert.equal(bytes.toString('utf8', 0, dataEnd(bytes)), [...shapes, ...shapes].map(encodeRecord).join(''));
  }));

test('a batch is written byte for byte as its records encode: non-ASCII text, and more than the line buffer holds', () =>
  withStore(async (store, home) => {
    const label = (i: number) => `"Größe ${i} — 名前 😀"@de`;
    const small = {
      ...entry(1),
      changes: [{ op: 'add_axiom' as const, axiom: `AnnotationAssertion(rdfs:label <http://example.org/C1> ${label(1)})` }],
    };
    // one batch of ~200 KiB, past the buffer's first size
    const big = Array.from({ length: 40 }, (_, i) => ({
      ...entry(i + 2),
      changes: [
        { op: 'add_axiom' as const, axiom: `AnnotationAssertion(rdfs:comment <http://example.org/C${i + 2}> ${label(i).repeat(200)})` },
      ],
    }));
    await store.append(DOC, [small]);
    await Promise.all(big.map((e) => store.append(DOC, [e])));
    const bytes = await readFile(await journalFile(home));
    const text = bytes.toString('utf8', 0, dataEnd(bytes));
    assert.ok(Buffer.byteLength(text) > 128 * 1024);
    assert.equal(text, [small, ...big].map(encodeRecord).join(''));
    assert.deepEqual(
      decodeRecords(text).map((r) => (r.type === 'change' ? r.changes : null)),
      [small, ...big].map((e) => e.changes),
    );
  }));

test('the journal grows in zero-filled chunks: appends write into them and leave its length as it was', () =>
  withStore(async (store, home) => {
    const [a, b, c] = [entry(1, '2026-01-01T00:00:00.000Z'), entry(2, '2026-01-01T00:00:00.000Z'), entry(3, '2026-01-01T00:00:00.000Z')];
    await store.append(DOC, [a]);
    const file = await journalFile(home);
    const { size } = await stat(file);
    await store.append(DOC, [b, c]);
    assert.equal((await stat(file)).size, size);
    const bytes = await readFile(file);
    const end = dataEnd(bytes);
    assert.ok(end < size, 'the data is followed by the zero fill');
    assert.equal(bytes.toString('utf8', 0, end), [a, b, c].map(encodeRecord).join(''));
    assert.ok(
      bytes.subarray(end).every((x) => x === 0),
      'nothing but zeros after the data',
    );
  }));

test('a line whose checksum fails is skipped', () => {
  const lines = encodeRecord(entry(1)) + encodeRecord(entry(2)).replace('C2', 'C9') + encodeRecord(entry(3));
  assert.deepEqual(
    decodeRecords(lines).map((r) => (r as ChangeEntry).seq),
    [1, 3],
  );
});

test('a line with any one bit flipped, in its checksum or its JSON, is skipped', () => {
  const line = Buffer.from(encodeRecord(entry(1)));
  assert.equal(decodeRecords(line.toString('utf8')).length, 1);
  // the newline ends the line: flipping it tears the line instead
  for (let bit = 0; bit < (line.length - 1) * 8; bit++) {
    const flipped = Buffer.from(line);
    flipped[bit >> 3]! ^= 1 << (bit & 7);
    assert.deepEqual(decodeRecords(flipped.toString('utf8')), [], `bit ${bit} flipped`);
  }
});

test('a save moves the entries to the history; the journal keeps what came after', () =>
  withStore(async (store, home) => {
    await store.append(DOC, [entry(1), entry(2), entry(3)]);
    await store.markSaved(DOC, { type: 'save', seq: 2, time: new Date().toISOString(), fingerprint: 'f2' });
    const state = await store.readSince(DOC, 0);
    assert.deepEqual(
      state.entries.map((e) => e.seq),
      [1, 2, 3],
    );
    assert.equal(state.saved?.seq, 2);
    assert.deepEqual(
      unsavedEntries(state).map((e) => e.seq),
      [3],
    );
    const journal = decodeRecords(await readFile(await journalFile(home), 'utf8'));
    assert.deepEqual(
      journal.map((r) => r.type),
      ['save', 'change'],
    );
    await store.markSaved(DOC, { type: 'save', seq: 3, time: new Date().toISOString(), fingerprint: 'f3' });
    assert.deepEqual(await store.unsavedDocuments(), []);
    assert.equal((await stat(await journalFile(home, 'history.log'))).mode & 0o777, 0o600);
  }));

test('set-aside entries are neither replayed nor saved away until resolved', () =>
  withStore(async (store) => {
    await store.append(DOC, [entry(1), entry(2)]);
    await store.append(DOC, [{ type: 'aside', from: 0, upto: 2, time: new Date().toISOString() }]);
    await store.append(DOC, [entry(3)]);
    let state = await store.readSince(DOC, 0);
    assert.deepEqual(state.aside && [state.aside.from, state.aside.upto], [0, 2]);
    assert.deepEqual(
      unsavedEntries(state).map((e) => e.seq),
      [3],
    );
    await store.markSaved(DOC, { type: 'save', seq: 3, time: new Date().toISOString(), fingerprint: 'f3' });
    state = await store.readSince(DOC, 0);
    assert.ok(state.aside !== null, 'a save does not settle set-aside entries');
    assert.deepEqual(await store.unsavedDocuments(), [DOC]);
    await store.append(DOC, [{ type: 'resolved', upto: 2, time: new Date().toISOString(), action: 'discarded' }]);
    assert.equal((await store.readSince(DOC, 0)).aside, null);
    assert.deepEqual(await store.unsavedDocuments(), []);
  }));

test('retention drops history entries older than the age limit, then the oldest beyond the size limit', () =>
  withStore(async (store, home) => {
    const old = new Date(Date.now() - 100 * 86_400_000).toISOString();
    await store.append(DOC, [entry(1, old), entry(2), entry(3), entry(4)]);
    await store.markSaved(DOC, { type: 'save', seq: 4, time: new Date().toISOString(), fingerprint: 'f4' });
    await store.compact(DOC, new Date());
    assert.deepEqual(
      (await store.readSince(DOC, 0)).entries.map((e) => e.seq),
      [2, 3, 4],
    );
    const history = await journalFile(home, 'history.log');
    const lineBytes = Buffer.byteLength(encodeRecord(entry(3)));
    const small = new FileChangeStore(home, { maxAgeDays: 90, maxBytes: 2 * lineBytes + 200 });
    await small.compact(DOC, new Date());
    const kept = decodeRecords(await readFile(history, 'utf8'));
    assert.deepEqual(
      kept.filter((r) => r.type === 'change').map((r) => (r as ChangeEntry).seq),
      [3, 4],
    );
    await small.close();
  }));
