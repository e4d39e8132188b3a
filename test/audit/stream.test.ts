// The audit stream writer: owner-only files in owner-only directories, the envelope, redaction of argument
// values, batched appends off the caller's path, rotation at the size bound, and one log line per failure.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { staticPrincipal } from '../../src/auth/principal.js';
import { AuditRecorder, StreamWriter, type CallRecord } from '../../src/audit/stream.js';
import { documentProjectHash, projectStreamsDir } from '../../src/audit/project.js';
import { envelopeProblem, type AuditEvent } from '../../src/audit/event.js';
import { parseSource } from '../../src/audit/merge.js';
import { at } from '../support/at.js';

async function withTemp(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-audit-stream-'));
  try {
    await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const SECRET_VALUE = 'SuperSecretLabelValue-42';

function call(document: string | null, extra: Partial<CallRecord> = {}): CallRecord {
  return {
    workspaceId: 'ws-1',
    windowId: 'win-1',
    principal: staticPrincipal(),
    operation: 'set_label',
    ontologyIri: 'http://example.org/o',
    document,
    rawArgs: { entity: 'Cat', label: SECRET_VALUE, [SECRET_VALUE]: true },
    declaredArguments: new Set(['entity', 'label']),
    outcome: { status: 'allowed' },
    gate: { mutating: true, confirmation: 'not_required' },
    ...extra,
  };
}

async function streamLines(home: string, document: string | null, workspace = 'ws-1'): Promise<AuditEvent[]> {
  const file = path.join(projectStreamsDir(home, await documentProjectHash(document)), `${workspace}.0.jsonl`);
  return parseSource(path.basename(file), await readFile(file, 'utf8'));
}

test('events land in an owner-only stream with the envelope, declared argument names and sizes, never values', () =>
  withTemp(async (dir) => {
    const home = path.join(dir, 'home');
    const doc = path.join(dir, 'onto.ttl');
    const r = new AuditRecorder(home, () => assert.fail('no failure expected'));
    r.record(call(doc));
    r.record(call(doc, { operation: 'add_axiom', outcome: { status: 'denied', error_code: 'read_only' }, changeSetId: 'cs-1' }));
    const hash = await documentProjectHash(doc);
    const streams = projectStreamsDir(home, hash);
    await r.flushed();
    assert.equal((await stat(path.join(home, 'audit'))).mode & 0o777, 0o700);
    assert.equal((await stat(streams)).mode & 0o777, 0o700);
    assert.deepEqual(await readdir(streams), ['ws-1.0.jsonl']);
    const file = path.join(streams, 'ws-1.0.jsonl');
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    const text = await readFile(file, 'utf8');
    assert.ok(!text.includes(SECRET_VALUE), 'argument values never reach the stream');
    const [first, second] = await streamLines(home, doc);
    assert.ok(first && second, 'two events');
    for (const e of [first, second]) assert.equal(envelopeProblem(e), null);
    assert.equal(first.sequence, 1);
    assert.equal(second.sequence, 2);
    assert.deepEqual(
      first.change.arguments,
      [
        { name: '(undeclared)', bytes: 4 },
        { name: 'entity', bytes: 5 },
        { name: 'label', bytes: SECRET_VALUE.length + 2 },
      ],
      'a name the tool does not declare is not kept: it may itself be content',
    );
    assert.deepEqual(first.client, {
      type: 'static',
      client_id: 'static-token',
      display_name: 'Static bearer token (local admin)',
      grant_id: null,
    });
    assert.equal(first.capabilities.length, 10);
    assert.deepEqual(first.target, { window_id: 'win-1', ontology_iri: 'http://example.org/o' });
    assert.deepEqual(second.outcome, { status: 'denied', error_code: 'read_only' });
    assert.equal(second.change_set_id, 'cs-1');
  }));

test('record returns before anything is written; a burst is written in batches, in order', () =>
  withTemp(async (dir) => {
    const home = path.join(dir, 'home');
    const r = new AuditRecorder(home);
    for (let i = 0; i < 600; i++) r.record(call(null));
    await assert.rejects(stat(path.join(home, 'audit')), "nothing is written on the caller's path");
    await r.flushed();
    const events = await streamLines(home, null);
    assert.equal(events.length, 600);
    assert.deepEqual(
      events.map((e) => e.sequence),
      Array.from({ length: 600 }, (_, i) => i + 1),
    );
    r.record(call(null));
    await r.flushed();
    assert.equal((await streamLines(home, null)).length, 601, 'later events append to the same stream');
  }));

test('a project policy groups every document of the project in one streams directory', () =>
  withTemp(async (dir) => {
    await mkdir(path.join(dir, 'proj', '.athene'), { recursive: true });
    await mkdir(path.join(dir, 'proj', 'sub'), { recursive: true });
    await writeFile(path.join(dir, 'proj', '.athene', 'project.yaml'), 'version: 1\n');
    const a = await documentProjectHash(path.join(dir, 'proj', 'a.ttl'));
    assert.equal(await documentProjectHash(path.join(dir, 'proj', 'sub', 'b.ttl')), a);
    assert.notEqual(await documentProjectHash(path.join(dir, 'elsewhere.ttl')), a);
    assert.notEqual(await documentProjectHash(path.join(dir, 'other.ttl')), await documentProjectHash(path.join(dir, 'elsewhere.ttl')));
  }));

test('loose permissions of an existing stream and its directory are tightened', () =>
  withTemp(async (dir) => {
    const streams = path.join(dir, 'audit', 'p');
    await mkdir(streams, { recursive: true, mode: 0o755 });
    await chmod(streams, 0o755);
    await writeFile(path.join(streams, 'w.0.jsonl'), '', { mode: 0o644 });
    await chmod(path.join(streams, 'w.0.jsonl'), 0o644);
    const w = new StreamWriter(streams, 'w');
    await w.append('{}\n');
    await w.close();
    assert.equal((await stat(streams)).mode & 0o777, 0o700);
    assert.equal((await stat(path.join(streams, 'w.0.jsonl'))).mode & 0o777, 0o600);
  }));

test('a stream rotates to the next part before passing its size bound', () =>
  withTemp(async (dir) => {
    const w = new StreamWriter(dir, 'w', 100);
    const line = JSON.stringify({ pad: 'x'.repeat(30) }) + '\n';
    for (let i = 0; i < 7; i++) await w.append(line);
    await w.close();
    const names = (await readdir(dir)).sort();
    assert.deepEqual(names, ['w.0.jsonl', 'w.1.jsonl', 'w.2.jsonl', 'w.3.jsonl']);
    for (const n of names) assert.ok((await stat(path.join(dir, n))).size <= 100, n);
    const reopened = new StreamWriter(dir, 'w', 100);
    await reopened.append(line);
    await reopened.close();
    const lines = async (n: string) => (await readFile(path.join(dir, n), 'utf8')).split('\n').length - 1;
    assert.deepEqual([await lines('w.0.jsonl'), await lines('w.3.jsonl')], [2, 2], 'a reopened writer appends only where it fits');
  }));

test('after a torn append the writer continues in a new part, so the torn part stays readable', () =>
  withTemp(async (dir) => {
    await writeFile(path.join(dir, 'w.0.jsonl'), '{"a":1}\n{"tor', { mode: 0o600 });
    const w = new StreamWriter(dir, 'w');
    await w.append('{"b":2}\n');
    await w.close();
    assert.equal(await readFile(path.join(dir, 'w.0.jsonl'), 'utf8'), '{"a":1}\n{"tor');
    assert.equal(await readFile(path.join(dir, 'w.1.jsonl'), 'utf8'), '{"b":2}\n');
  }));

test('a write failure is logged once and never thrown; recording resumes once writes succeed', () =>
  withTemp(async (dir) => {
    const home = path.join(dir, 'home');
    await writeFile(home, 'not a directory');
    const logged: string[] = [];
    const r = new AuditRecorder(home, (l) => logged.push(l));
    r.record(call(null));
    await r.flushed();
    r.record(call(null));
    await r.flushed();
    assert.equal(logged.length, 1);
    const [line] = logged;
    assert.ok(line);
    assert.match(line, /audit events could not be written/);
    assert.ok(!line.includes(SECRET_VALUE));
    await rm(home);
    r.record(call(null));
    await r.flushed();
    const events = await streamLines(home, null);
    assert.deepEqual(
      events.map((e) => e.sequence),
      [3],
      'events of failed batches are lost, later ones recorded',
    );
  }));

/** `{"a":{"a":…}}` nested `depth` deep, built without recursion. */
function deep(depth: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

test('a 100,000-deep argument is sized, never thrown on, and loses no other event of its batch (issue 13 §4)', () =>
  withTemp(async (dir) => {
    const home = path.join(dir, 'home');
    const doc = path.join(dir, 'onto.ttl');
    const r = new AuditRecorder(home, () => undefined);
    r.record(call(doc, { operation: 'add_axiom', workspaceId: 'ws-other' }));
    r.record(call(doc, { rawArgs: { entity: deep(100_000) } }));
    r.record(call(doc, { operation: 'add_axiom', workspaceId: 'ws-other' }));
    await r.flushed();
    assert.equal(r.lostEvents, 0);
    const [deepEvent] = await streamLines(home, doc);
    assert.ok(deepEvent);
    assert.equal(at(deepEvent.change.arguments, 0).bytes, 100_000 * 6 + 6, 'the exact size of its JSON text');
    assert.equal((await streamLines(home, doc, 'ws-other')).length, 2, "the other client's events were written");
  }));

test('one event that cannot be written is skipped alone and counted; the rest of the batch is written', () =>
  withTemp(async (dir) => {
    const home = path.join(dir, 'home');
    const doc = path.join(dir, 'onto.ttl');
    const r = new AuditRecorder(home, () => undefined);
    const hostile = {
      get entity(): unknown {
        throw new Error('unreadable argument');
      },
    };
    r.record(call(doc, { operation: 'add_axiom' }));
    r.record(call(doc, { rawArgs: hostile }));
    r.record(call(doc, { operation: 'remove_axiom' }));
    await r.flushed();
    assert.equal(r.lostEvents, 1);
    assert.deepEqual(
      (await streamLines(home, doc)).map((e) => e.operation),
      ['add_axiom', 'remove_axiom'],
    );
  }));
