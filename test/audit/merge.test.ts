// The merge behind export_audit_log: the export order, re-redaction, and each refused source (symlink,
// non-regular, malformed, duplicate key, trailing token, oversized, not owner-only, foreign name, repeated
// event), and the project lock.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, open, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { AuditMergeError, exportText, LOCK_FILE, MAX_SOURCE_BYTES, mergeStreams, withProjectLock } from '../../src/audit/merge.js';
import { at } from '../support/at.js';

async function withStreams(body: (dir: string) => Promise<void>): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'athene-audit-merge-'));
  const dir = path.join(root, 'streams');
  await mkdir(dir, { mode: 0o700 });
  try {
    await body(dir);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

function event(workspace: string, sequence: number, timestamp: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event_id: randomUUID(),
    timestamp,
    workspace_id: workspace,
    sequence,
    client: { type: 'static', client_id: 'static-token', display_name: 'admin', grant_id: null },
    capabilities: ['ontology:read'],
    operation: 'get_entity',
    target: { window_id: 'w', ontology_iri: null },
    outcome: { status: 'allowed' },
    gate: { mutating: false, confirmation: 'not_required' },
    change: { arguments: [{ name: 'entity', bytes: 5 }] },
    ...extra,
  };
}

const lines = (...events: Record<string, unknown>[]) => events.map((e) => JSON.stringify(e) + '\n').join('');

async function source(dir: string, name: string, text: string): Promise<void> {
  await writeFile(path.join(dir, name), text, { mode: 0o600 });
}

async function refused(dir: string, source: string, reason: RegExp): Promise<void> {
  await assert.rejects(mergeStreams(dir), (err: unknown) => {
    assert.ok(err instanceof AuditMergeError);
    assert.equal(err.code, 'audit_source_refused');
    assert.equal(err.source, source);
    assert.match(err.message, reason);
    return true;
  });
}

const T1 = '2026-01-01T00:00:01.000Z';
const T2 = '2026-01-01T00:00:02.000Z';

test('streams merge in timestamp, workspace, sequence, event id order', () =>
  withStreams(async (dir) => {
    await source(dir, 'b.0.jsonl', lines(event('b', 1, T1), event('b', 2, T2)));
    await source(dir, 'a.0.jsonl', lines(event('a', 1, T2), event('a', 2, T2)));
    await source(dir, 'a.1.jsonl', lines(event('a', 3, T1)));
    const m = await mergeStreams(dir);
    assert.equal(m.sourceCount, 3);
    assert.deepEqual(
      m.events.map((e) => `${e.timestamp.slice(18, 19)}:${e.workspace_id}${e.sequence}`),
      ['1:a3', '1:b1', '2:a1', '2:a2', '2:b2'],
    );
    assert.equal(exportText(m.events).split('\n').length - 1, 5);
  }));

test('a missing streams directory merges to nothing; the lock file is not a source', () =>
  withStreams(async (dir) => {
    assert.deepEqual(await mergeStreams(path.join(dir, 'none')), { events: [], sourceCount: 0 });
    await source(dir, LOCK_FILE, '1\n');
    assert.equal((await mergeStreams(dir)).sourceCount, 0);
  }));

test('re-redaction drops fields a source smuggled into nested objects', () =>
  withStreams(async (dir) => {
    const e = event('a', 1, T1);
    (e.client as Record<string, unknown>).token = 'secret-token';
    at((e.change as { arguments: Record<string, unknown>[] }).arguments, 0).value = 'ontology content';
    await source(dir, 'a.0.jsonl', lines(e));
    const text = exportText((await mergeStreams(dir)).events);
    assert.ok(!text.includes('secret-token') && !text.includes('ontology content'));
    assert.match(text, /"arguments":\[\{"name":"entity","bytes":5\}\]/);
  }));

test('a symlinked source is refused', () =>
  withStreams(async (dir) => {
    const outside = path.join(path.dirname(dir), 'elsewhere.jsonl');
    await source(path.dirname(dir), 'elsewhere.jsonl', lines(event('a', 1, T1)));
    await symlink(outside, path.join(dir, 'a.0.jsonl'));
    await refused(dir, 'a.0.jsonl', /symbolic link/);
  }));

test('a non-regular source is refused', () =>
  withStreams(async (dir) => {
    await mkdir(path.join(dir, 'a.0.jsonl'), { mode: 0o700 });
    await refused(dir, 'a.0.jsonl', /not a regular file/);
  }));

test('a source readable by others is refused', () =>
  withStreams(async (dir) => {
    await source(dir, 'a.0.jsonl', lines(event('a', 1, T1)));
    await chmod(path.join(dir, 'a.0.jsonl'), 0o644);
    await refused(dir, 'a.0.jsonl', /not owner-only/);
  }));

test('a streams directory open to others is refused', () =>
  withStreams(async (dir) => {
    await chmod(dir, 0o755);
    await assert.rejects(mergeStreams(dir), /not owner-only/);
  }));

test('malformed, duplicate-key, trailing-token and non-envelope lines are refused', async (t) => {
  const good = JSON.stringify(event('a', 1, T1));
  const cases: [string, string, RegExp][] = [
    ['not JSON', '{"event_id":\n', /line 1 is not JSON/],
    ['duplicate key', good.replace('{"event_id"', '{"sequence":1,"event_id"') + '\n', /not canonical/],
    ['trailing token', good + ' {}\n', /not JSON/],
    ['reformatted', JSON.stringify(event('a', 1, T1), null, 1).replace(/\n/g, '') + '\n', /not canonical/],
    ['unknown field', lines(event('a', 1, T1, { request_body: 'x' })), /unknown field "request_body"/],
    ['bad outcome', lines(event('a', 1, T1, { outcome: { status: 'maybe' } })), /outcome malformed/],
    ['bad timestamp', lines(event('a', 1, 'yesterday')), /timestamp/],
  ];
  for (const [what, text, reason] of cases) {
    await t.test(what, () =>
      withStreams(async (dir) => {
        await source(dir, 'a.0.jsonl', text);
        await refused(dir, 'a.0.jsonl', reason);
      }),
    );
  }
});

test('an unterminated last line (an append in flight) is left for a later export', () =>
  withStreams(async (dir) => {
    await source(dir, 'a.0.jsonl', lines(event('a', 1, T1)) + JSON.stringify(event('a', 2, T1)).slice(0, 40));
    assert.deepEqual(
      (await mergeStreams(dir)).events.map((e) => e.sequence),
      [1],
    );
  }));

test('an oversized source is refused without being read', () =>
  withStreams(async (dir) => {
    const file = path.join(dir, 'a.0.jsonl');
    const h = await open(file, 'w', 0o600);
    await h.truncate(MAX_SOURCE_BYTES + 1);
    await h.close();
    await refused(dir, 'a.0.jsonl', /exceed/);
  }));

test('a foreign file name and a repeated event id are refused', () =>
  withStreams(async (dir) => {
    await source(dir, 'notes.txt', '');
    await refused(dir, 'notes.txt', /not an audit stream name/);
    await rm(path.join(dir, 'notes.txt'));
    const e = event('a', 1, T1);
    await source(dir, 'a.0.jsonl', lines(e));
    await source(dir, 'b.0.jsonl', lines(e));
    await refused(dir, 'b.0.jsonl', /appears twice/);
  }));

test('the project lock refuses a live holder, takes over a dead one and is released', () =>
  withStreams(async (dir) => {
    const lock = path.join(dir, LOCK_FILE);
    await withProjectLock(dir, async () => {
      await assert.rejects(
        withProjectLock(dir, async () => 1),
        (err: unknown) => err instanceof AuditMergeError && err.code === 'project_locked',
      );
    });
    const child = spawn(process.execPath, ['-e', '']);
    const deadPid = child.pid!;
    await new Promise((resolve) => child.on('exit', resolve));
    await writeFile(lock, `${deadPid}\n`, { mode: 0o600 });
    assert.equal(await withProjectLock(dir, async () => 'taken over'), 'taken over');
    await assert.rejects(open(lock, 'r'), { code: 'ENOENT' });
  }));
