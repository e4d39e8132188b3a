// The change journal with real processes (issue 16): `athene serve` as a child with its own home, 8 SDK
// client sessions making 200 acknowledged edits, kill -9, restart: the ontology is what it was before the
// crash, undo/redo go on from there, and the history names each change's client. The same with the
// document edited on disk meanwhile (nothing replayed, the recovery tool applies what still applies), and
// with a torn last entry (only that entry is lost).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdtemp, readFile, readdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fixture } from '../server/support.js';
import { at } from '../support/at.js';

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/cli/main.js');

interface Served {
  child: ChildProcess;
  url: string;
  token: string;
  output: () => string;
}

async function serve(home: string, file: string): Promise<Served> {
  const child = spawn(process.execPath, [MAIN, 'serve', file, '--port', '0', '--no-share', '--home', home], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ATHENE_HOME: home },
  });
  let out = '';
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('claude mcp add')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`serve exited early (${code}): ${out}`)));
  });
  child.removeAllListeners('exit');
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out)?.[1];
  assert.ok(url, out);
  const token = (await readFile(path.join(home, 'token'), 'utf8')).trim();
  return { child, url, token, output: () => out };
}

async function kill9(s: Served): Promise<void> {
  const exited = new Promise<void>((resolve) => s.child.once('exit', () => resolve()));
  s.child.kill('SIGKILL');
  await exited;
}

async function client(s: Served, name: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: { Authorization: `Bearer ${s.token}` } } });
  const c = new Client({ name, version: '1.0.0' });
  await c.connect(transport);
  return c;
}

type Body = Record<string, unknown>;

async function call(c: Client, tool: string, args: Body = {}): Promise<Body> {
  const r = await c.callTool({ name: tool, arguments: args });
  const body = r.structuredContent as Body;
  assert.equal(r.isError, false, `${tool} ${JSON.stringify(args)}: ${JSON.stringify(body)}`);
  return body;
}

async function fingerprint(c: Client): Promise<string> {
  const r = await call(c, 'get_model_revision');
  const rev = (r.revision ?? r) as Body;
  return String(rev.document_fingerprint);
}

async function health(s: Served): Promise<Body> {
  const r = await fetch(new URL('/health', s.url), { headers: { authorization: `Bearer ${s.token}` } });
  return (await r.json()) as Body;
}

const sub = (k: number, j: number) => ({ axiom_type: 'subclass_of', sub: `C${k}x${j}`, super: 'Animal' });

async function setUp(): Promise<{ dir: string; home: string; doc: string }> {
  // the document lives beside the private directory, never inside it (no tool reads there)
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-journal-'));
  const home = path.join(dir, 'home');
  const doc = path.join(dir, 'zoo.ttl');
  await copyFile(fixture('zoo.ttl'), doc);
  return { dir, home, doc };
}

test('200 acknowledged edits from 8 sessions survive kill -9: same ontology, undo/redo go on, history names each client', async () => {
  const { dir, home, doc } = await setUp();
  let s = await serve(home, doc);
  try {
    const clients = await Promise.all(Array.from({ length: 8 }, (_, k) => client(s, `client-${k}`)));
    // 8 × 24 concurrent edits: 20 adds, then 4 removes of a session's own axioms
    await Promise.all(
      clients.map(async (c, k) => {
        for (let j = 0; j < 20; j++) await call(c, 'add_axiom', sub(k, j));
        for (let j = 0; j < 4; j++) await call(c, 'remove_axiom', sub(k, j));
      }),
    );
    await call(at(clients, 0), 'add_ontology_annotation', { property: 'rdfs:comment', value: 'journaled header change' });
    await call(at(clients, 1), 'add_axiom', sub(1, 100));
    await call(at(clients, 1), 'undo_change');
    await call(at(clients, 2), 'add_axiom', sub(2, 100));
    await call(at(clients, 2), 'undo_change');
    await call(at(clients, 3), 'redo_change');
    await call(at(clients, 4), 'add_axiom', sub(4, 100));
    const beforeLast = await fingerprint(at(clients, 0));
    await call(at(clients, 5), 'remove_axiom', sub(5, 10));
    const crashed = await fingerprint(at(clients, 0));
    await kill9(s);

    s = await serve(home, doc);
    const c = await client(s, 'after-restart');
    assert.equal(await fingerprint(c), crashed, 'the ontology equals the pre-crash state axiom for axiom');
    const h = await health(s);
    assert.deepEqual(h.journal, { recovered: 200, pending_recovery: 0 });
    const listed = await call(c, 'list_ontologies');
    assert.equal((listed.journal as Body).recovered, 200);
    // the undo stack came back: the last unit was client-5's remove
    await call(c, 'undo_change');
    assert.equal(await fingerprint(c), beforeLast);
    await call(c, 'redo_change');
    assert.equal(await fingerprint(c), crashed);
    // every entry is attributed to the client that made it
    for (let k = 0; k < 8; k++) {
      const mine = await call(c, 'get_change_history', { client: `client-${k}`, limit: 200 });
      const expected = 24 + (k === 0 || k === 3 || k === 4 || k === 5 ? 1 : 0) + (k === 1 || k === 2 ? 2 : 0);
      assert.equal(mine.total_matched, expected, `client-${k}`);
      for (const e of mine.entries as Body[]) {
        assert.equal((e.client as Body).name, `client-${k}`);
        assert.equal((e.principal as Body).kind, 'static token');
        assert.equal(typeof e.session_id, 'string');
      }
    }
    const undos = await call(c, 'get_change_history', { tool: 'undo_change', limit: 200 });
    assert.equal(undos.total_matched, 3);
    const redo = (await call(c, 'get_change_history', { tool: 'redo_change' })).entries as Body[];
    assert.equal(redo.length, 2);
    assert.equal(typeof at(redo, 0).redoes, 'number');
    const entity = await call(c, 'get_change_history', { entity: 'C3x7' });
    assert.equal(entity.total_matched, 1);
    const changes = at(entity.entries as Body[], 0).changes as Body[];
    assert.deepEqual(
      changes.map((x) => x.op),
      ['add_axiom', 'add_axiom'],
      'the declaration and the subclass axiom',
    );
    const change = changes.find((x) => String(x.functional).startsWith('SubClassOf'))!;
    assert.match(String(change.functional), /^SubClassOf\(<http:\/\/example\.org\/zoo#C3x7> <http:\/\/example\.org\/zoo#Animal>\)$/);
    assert.match(String(change.manchester), /C3x7 SubClassOf animal/);
    const got = await call(c, 'get_entity', { entity: 'C3x7' });
    const last = at(got.last_changes as Body[], 0);
    assert.equal((last.client as Body).name, 'client-3');
    // private files: 0700 directories, 0600 logs
    const root = path.join(home, 'journal');
    assert.equal((await stat(root)).mode & 0o777, 0o700);
    const [dir] = await readdir(root);
    assert.ok(dir, 'a journal directory');
    assert.equal((await stat(path.join(root, dir))).mode & 0o777, 0o700);
    assert.equal((await stat(path.join(root, dir, 'journal.log'))).mode & 0o777, 0o600);
    await c.close();
  } finally {
    await kill9(s).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
});

test('a document edited on disk before the restart is opened as it is; the recovery tool applies what still applies', async () => {
  const { dir, home, doc } = await setUp();
  let s = await serve(home, doc);
  try {
    const clients = await Promise.all([client(s, 'alpha'), client(s, 'beta')]);
    await Promise.all(
      clients.map(async (c, k) => {
        for (let j = 0; j < 5; j++) await call(c, 'add_axiom', sub(k, j));
      }),
    );
    await kill9(s);
    // someone edits the file meanwhile, adding one of the journaled axioms and a new class
    await writeFile(doc, (await readFile(doc, 'utf8')) + '\n:C0x0 rdfs:subClassOf :Animal .\n:Fish a owl:Class .\n');

    s = await serve(home, doc);
    const c = await client(s, 'recoverer');
    const onDisk = await fingerprint(c);
    const listed = await call(c, 'list_ontologies');
    const journal = listed.journal as Body;
    assert.equal(journal.recovered, 0, 'nothing replayed silently');
    assert.equal(journal.pending_recovery, 10);
    assert.match(
      String(at(journal.notices as Body[], 0).message),
      /^10 unsaved changes from \d{4}-\d\d-\d\dT[\d:.]+Z could not be applied automatically/,
    );
    assert.deepEqual((await health(s)).journal, { recovered: 0, pending_recovery: 10 });
    assert.match(s.output(), /10 unsaved changes from .* could not be applied automatically/);
    const info = await call(c, 'get_session_info');
    assert.equal(((info.instance as Body).journal as Body).pending_recovery, 10);
    const inspected = await call(c, 'recover_unsaved_changes', { action: 'inspect' });
    assert.equal(inspected.count, 10);
    assert.equal(await fingerprint(c), onDisk, 'inspect changes nothing');
    const applied = await call(c, 'recover_unsaved_changes', { action: 'apply' });
    // 10 entries of a declaration and a subclass axiom each; the file already has one subclass axiom
    assert.equal(applied.entries, 10);
    assert.equal(applied.applied, 19);
    const conflicts = applied.conflicts as Body[];
    assert.equal(conflicts.length, 1);
    assert.equal(at(conflicts, 0).reason, 'the axiom is already present');
    assert.deepEqual((await health(s)).journal, { recovered: 0, pending_recovery: 0 });
    const axioms = await call(c, 'get_axioms_for_entity', { entity: 'C1x4' });
    assert.ok(JSON.stringify(axioms).includes('animal'));
    // applying is one new, undoable change
    await call(c, 'undo_change');
    assert.equal(await fingerprint(c), onDisk);
    await c.close();
  } finally {
    await kill9(s).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
});

test('a torn last entry (killed mid-append) loses only that entry', async () => {
  const { dir, home, doc } = await setUp();
  let s = await serve(home, doc);
  try {
    const c0 = await client(s, 'writer');
    for (let j = 0; j < 5; j++) await call(c0, 'add_axiom', sub(0, j));
    const afterFour = await fingerprint(c0);
    await call(c0, 'add_axiom', sub(0, 5));
    await kill9(s);
    const root = path.join(home, 'journal');
    const [dir] = await readdir(root);
    assert.ok(dir, 'a journal directory');
    const log = path.join(root, dir, 'journal.log');
    // the journal grows in zero-filled chunks: its data ends at the first zero byte
    const bytes = await readFile(log);
    const end = bytes.indexOf(0) < 0 ? bytes.length : bytes.indexOf(0);
    await truncate(log, end - 25);

    s = await serve(home, doc);
    const c = await client(s, 'reader');
    assert.equal(await fingerprint(c), afterFour);
    assert.deepEqual((await health(s)).journal, { recovered: 5, pending_recovery: 0 });
    // the torn line is cut off before the next append, which is read back whole
    await call(c, 'add_axiom', sub(0, 9));
    const history = await call(c, 'get_change_history', { limit: 200 });
    assert.equal(history.total_matched, 6);
    assert.equal(at(history.entries as Body[], 5).seq, 6);
    await c.close();
  } finally {
    await kill9(s).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
});
