// The write-ahead revocation journal on real files: an append is on disk when it resolves, the bounds
// refuse (never drop) an entry, a reopened journal replays what was appended, a torn last line (a crash
// mid-append) is dropped, and compaction empties the file atomically.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  JOURNAL_MAX_BYTES,
  JOURNAL_MAX_ENTRIES,
  JournalFullError,
  RevocationJournal,
  entryLine,
  journalPath,
  parseJournal,
} from '../../src/auth/revocation/journal.js';
import type { Revocation } from '../../src/auth/oauth/state.js';

async function withHome(run: (home: string) => Promise<void>): Promise<void> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-journal-'));
  try {
    await run(home);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

function revocation(n: number, grantIds = [`grant-${n}`]): Revocation {
  return { kind: 'revoke-grant', time: 1_700_000_000_000 + n, client_id: `client-${n}`, grant_ids: grantIds };
}

test('an append is in the file, one JSON line, when it resolves; the file is 0600', async () => {
  await withHome(async (home) => {
    const journal = await RevocationJournal.open(journalPath(home));
    const entry = await journal.append(revocation(1));
    assert.equal(entry.seq, 1);
    const text = await readFile(journalPath(home), 'utf8');
    assert.equal(text, entryLine(entry));
    assert.deepEqual(JSON.parse(text), {
      seq: 1,
      time: 1_700_000_000_001,
      kind: 'revoke-grant',
      client_id: 'client-1',
      grant_ids: ['grant-1'],
    });
    assert.equal((await stat(journalPath(home))).mode & 0o777, 0o600);
    await journal.close();
  });
});

test('a reopened journal replays its entries in order and continues the sequence', async () => {
  await withHome(async (home) => {
    const first = await RevocationJournal.open(journalPath(home));
    for (let n = 1; n <= 3; n++) await first.append(revocation(n));
    await first.close();
    const again = await RevocationJournal.open(journalPath(home));
    assert.deepEqual(
      again.replay.map((e) => [e.seq, e.grant_ids[0]]),
      [
        [1, 'grant-1'],
        [2, 'grant-2'],
        [3, 'grant-3'],
      ],
    );
    assert.equal((await again.append(revocation(4))).seq, 4);
    await again.close();
  });
});

test(`a full journal (${JOURNAL_MAX_ENTRIES} entries) refuses the next append and keeps what it holds`, async () => {
  await withHome(async (home) => {
    const journal = await RevocationJournal.open(journalPath(home));
    for (let n = 0; n < JOURNAL_MAX_ENTRIES; n++) await journal.append(revocation(n));
    const before = await readFile(journalPath(home), 'utf8');
    await assert.rejects(journal.append(revocation(9999)), JournalFullError);
    assert.equal(await readFile(journalPath(home), 'utf8'), before);
    assert.equal(journal.entries, JOURNAL_MAX_ENTRIES);
    await journal.close();
  });
});

test('a journal at 2 MiB refuses an entry that would pass the bound, before the entry count is reached', async () => {
  await withHome(async (home) => {
    const journal = await RevocationJournal.open(journalPath(home));
    // a client revocation listing many grants: about 64 KiB per entry
    const many = Array.from({ length: 1400 }, (_, i) => `g${String(i).padStart(43, '0')}`);
    let appended = 0;
    await assert.rejects(async () => {
      for (;;) {
        await journal.append(revocation(appended, many));
        appended++;
      }
    }, JournalFullError);
    assert.ok(appended < JOURNAL_MAX_ENTRIES);
    assert.ok(journal.size <= JOURNAL_MAX_BYTES && journal.size > JOURNAL_MAX_BYTES - 70_000);
    assert.equal((await stat(journalPath(home))).size, journal.size);
    await journal.close();
  });
});

test('a torn last line (a crash mid-append) is dropped on replay and cut from the file', async () => {
  await withHome(async (home) => {
    const file = journalPath(home);
    const journal = await RevocationJournal.open(file);
    await journal.append(revocation(1));
    await journal.append(revocation(2));
    await journal.close();
    await appendFile(file, '{"seq":3,"time":17000000');
    const reopened = await RevocationJournal.open(file);
    assert.deepEqual(
      reopened.replay.map((e) => e.seq),
      [1, 2],
    );
    await reopened.append(revocation(3));
    assert.deepEqual(
      parseJournal(await readFile(file, 'utf8')).entries.map((e) => e.seq),
      [1, 2, 3],
    );
    await reopened.close();
  });
});

test('a damaged line before the last one is an error naming the line, not a silent loss', async () => {
  await withHome(async (home) => {
    const file = journalPath(home);
    await writeFile(file, entryLine({ ...revocation(1), seq: 1 }) + 'garbage\n' + entryLine({ ...revocation(3), seq: 3 }));
    await assert.rejects(RevocationJournal.open(file), /line 2 is not a revocation entry/);
  });
});

test('compaction empties the journal atomically and appends continue after it', async () => {
  await withHome(async (home) => {
    const file = journalPath(home);
    const journal = await RevocationJournal.open(file);
    await journal.append(revocation(1));
    await journal.compact();
    assert.equal(await readFile(file, 'utf8'), '');
    assert.equal(journal.entries, 0);
    const next = await journal.append(revocation(2));
    assert.equal(await readFile(file, 'utf8'), entryLine(next));
    assert.deepEqual(await readdir(home), ['revocations.journal'], 'no temporary file is left');
    await journal.close();
  });
});

test('an injected append failure leaves the file as it was, and the journal usable afterwards', async () => {
  await withHome(async (home) => {
    const file = journalPath(home);
    const faults = { failAppend: false };
    const journal = await RevocationJournal.open(file, faults);
    await journal.append(revocation(1));
    faults.failAppend = true;
    await assert.rejects(journal.append(revocation(2)), /Injected failure/);
    faults.failAppend = false;
    await journal.append(revocation(3));
    assert.deepEqual(
      parseJournal(await readFile(file, 'utf8')).entries.map((e) => e.grant_ids[0]),
      ['grant-1', 'grant-3'],
    );
    await journal.close();
  });
});
