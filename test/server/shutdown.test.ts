// Graceful shutdown of a real `athene serve` process (through the transport ATHENE_HTTP_SERVER selects): on
// SIGTERM or SIGINT, with an unsaved edit, an open event stream and calls in flight (their documents held
// back by a local HTTP server), it stops accepting connections, lets a call finish that can within the grace
// period, answers the others with a JSON-RPC error (a plain JSON answer, and an error event on a call answered
// as a stream), ends the event stream, says which documents hold unsaved changes, exits 0 (at once when
// nothing is left to wait for), and keeps the journal: the next start replays the edit.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fixture, INIT_BODY, MCP_HEADERS } from './support.js';
import { connectTo, readToken, spawnAthene, stopAthene } from '../broker/support.js';
import { at } from '../support/at.js';

/** Serves small Turtle documents, each held back until the test releases it; records which were asked for. */
class HeldDocuments {
  private readonly server: http.Server;
  private readonly waiting = new Map<string, http.ServerResponse>();

  constructor() {
    this.server = http.createServer((req, res) => this.waiting.set(req.url ?? '/', res));
  }

  async start(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  asked(p: string): boolean {
    return this.waiting.has(p);
  }

  release(p: string): void {
    const name = path.basename(p, '.ttl');
    const res = this.waiting.get(p);
    assert.ok(res, `${p} was asked for`);
    res.writeHead(200, { 'content-type': 'text/turtle' });
    res.end(
      `<http://example.org/${name}> a <http://www.w3.org/2002/07/owl#Ontology> .\n<http://example.org/${name}#C> a <http://www.w3.org/2002/07/owl#Class> .\n`,
    );
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

interface Answer {
  status: number;
  type: string;
  body: string;
}

async function post(base: string, headers: Record<string, string>, body: string): Promise<Answer> {
  const res = await fetch(new URL('/mcp', base), { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body });
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text() };
}

/** An initialized raw session's headers. */
async function openSession(base: string, token: string): Promise<Record<string, string>> {
  const auth = { authorization: `Bearer ${token}` };
  const res = await fetch(new URL('/mcp', base), { method: 'POST', headers: { ...MCP_HEADERS, ...auth }, body: INIT_BODY });
  assert.equal(res.status, 200);
  await res.text();
  const session = { ...auth, 'mcp-session-id': res.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-06-18' };
  assert.equal((await post(base, session, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))).status, 202);
  return session;
}

function loadCall(id: number, url: string, progress: boolean): string {
  const params = {
    name: 'load_ontology',
    arguments: { source: url, keep_active: true, connection_timeout_ms: 600_000 },
    ...(progress ? { _meta: { progressToken: id } } : {}),
  };
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });
}

/** The JSON-RPC messages of an answer: its JSON body, or the data lines of its event stream. */
function messages(a: Answer): {
  id?: unknown;
  result?: { isError?: boolean; structuredContent?: Record<string, unknown> };
  error?: { code: number; message: string };
}[] {
  if (!a.type.startsWith('text/event-stream')) return [JSON.parse(a.body)];
  return a.body
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)));
}

/** Resolves with the connection error a new connection to `port` meets (null when one is accepted). */
function connectError(port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(null);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

/**
 * SIGTERM: a short grace, and two calls that never finish in it (one answered as plain JSON, one as an event
 * stream) besides the one that does. SIGINT: a long grace and only a call that finishes: the stop does not
 * wait the grace out.
 */
const SCENARIOS = [
  { signal: 'SIGTERM', grace: 6, held: true },
  { signal: 'SIGINT', grace: 120, held: false },
] as const;

for (const { signal, grace, held } of SCENARIOS) {
  test(`${signal}: stops accepting, finishes ${held ? 'or answers ' : ''}in-flight calls, ends event streams, keeps unsaved edits, exits 0`, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-shutdown-'));
    const home = path.join(dir, 'home');
    const file = path.join(dir, 'zoo.ttl');
    await copyFile(fixture('zoo.ttl'), file);
    const original = await readFile(file, 'utf8');
    const docs = new HeldDocuments();
    const docPort = await docs.start();
    const athene = await spawnAthene(home, 0, file, ['--shutdown-grace-s', String(grace)]);
    try {
      const base = at(/listening on (\S+)/.exec(athene.output()) ?? [], 1, 'listening address');
      const port = Number(new URL(base).port);
      const token = await readToken(home);
      const session = await openSession(base, token);
      const edit = await post(
        base,
        session,
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'add_axiom', arguments: { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' } },
        }),
      );
      assert.equal(at(messages(edit), 0).result?.structuredContent?.applied, true, edit.body);

      const events = await fetch(new URL('/mcp', base), { headers: { ...session, accept: 'text/event-stream' } });
      assert.equal(events.status, 200);
      const eventsEnded = events.text();
      const finishing = post(base, session, loadCall(2, `http://127.0.0.1:${docPort}/finishing.ttl`, false));
      const cut = held ? post(base, session, loadCall(3, `http://127.0.0.1:${docPort}/cut.ttl`, false)) : null;
      const cutStream = held ? post(base, session, loadCall(4, `http://127.0.0.1:${docPort}/cut-stream.ttl`, true)) : null;
      for (const p of held ? ['/finishing.ttl', '/cut.ttl', '/cut-stream.ttl'] : ['/finishing.ttl']) {
        const deadline = Date.now() + 20_000;
        while (!docs.asked(p)) {
          assert.ok(Date.now() < deadline, `the window never fetched ${p}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      }

      const signalled = Date.now();
      athene.child.kill(signal);
      await athene.waitFor(new RegExp(`${signal}: finishing in-flight calls \\(at most ${grace} s\\)`));
      assert.match((await connectError(port)) ?? 'accepted', /ECONNREFUSED/, 'no new connection is accepted while draining');

      docs.release('/finishing.ttl');
      const done = await finishing;
      assert.equal(done.status, 200, done.body);
      const loaded = at(messages(done), 0);
      assert.equal(loaded.id, 2);
      assert.notEqual(loaded.result?.isError, true, done.body);
      assert.ok(Date.now() - signalled < grace * 1000, 'the finished call was answered within the grace period, not cut at its end');

      if (cut !== null && cutStream !== null) {
        const refused = await cut;
        assert.equal(refused.status, 503, refused.body);
        const error = at(messages(refused), 0).error;
        assert.equal(error?.code, -32603);
        assert.match(error?.message ?? '', new RegExp(`shutting down: this call did not finish within the ${grace} s grace period`));

        const streamed = await cutStream;
        assert.equal(streamed.status, 200, 'a streamed answer had started before the cut');
        assert.ok(streamed.type.startsWith('text/event-stream'), streamed.type);
        const last = messages(streamed).at(-1);
        assert.equal(last?.id, 4, streamed.body);
        assert.match(last?.error?.message ?? '', /shutting down/, streamed.body);
      }
      await eventsEnded;

      const bound = held ? (grace + 30) * 1000 : (grace * 1000) / 2;
      const code = await Promise.race([athene.exited, new Promise((r) => setTimeout(() => r('still running'), bound).unref())]);
      assert.equal(code, 0, `${athene.output()}\n${athene.errors()}`);
      if (held) {
        assert.ok(Date.now() - signalled >= grace * 1000, 'the stop waited out the grace period for the held calls');
        assert.match(athene.errors(), /calls cut at shutdown/);
      } else {
        assert.doesNotMatch(athene.errors(), /calls cut at shutdown/);
      }
      assert.ok(
        athene.output().includes(`Unsaved changes are kept in the change journal and replayed at the next start: ${file}`),
        athene.output(),
      );
      assert.match(athene.errors(), /window stops with unsaved changes/);

      assert.equal(await readFile(file, 'utf8'), original, 'the document itself is not written at shutdown');
      assert.ok((await readdir(home)).includes('token'), 'the private directory is kept');
    } finally {
      await stopAthene(athene);
      await docs.stop();
    }

    // the next start replays the journaled edit
    const again = await spawnAthene(home, 0, file);
    try {
      const base = at(/listening on (\S+)/.exec(again.output()) ?? [], 1, 'listening address');
      const client = await connectTo(base, await readToken(home));
      const dog = await client.callTool({ name: 'get_entity', arguments: { entity: 'Dog' } });
      assert.notEqual(dog.isError, true, JSON.stringify(dog));
      await client.close();
    } finally {
      await stopAthene(again);
      await rm(dir, { recursive: true, force: true });
    }
  });
}
