// Commit fences at the window: the fence set, the check before the handler, after an approval and at
// commit time (a handler that awaited I/O cannot commit after the fence), fences given to a starting
// window, and pending fences persisted and retried by the fan-out. Real window workers, real files.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { WindowRegistry } from '../../src/actors/registry.js';
import { FenceSet, fenceFor, type Fence, type FenceTarget } from '../../src/actors/fences.js';
import { RevocationFanout } from '../../src/actors/revocation-fanout.js';
import { fencesPath, loadPendingFences, savePendingFences } from '../../src/actors/pending-fences.js';
import { staticPrincipal } from '../../src/auth/principal.js';
import type { WindowSettings } from '../../src/tools/core/tool.js';
import { fixture } from '../server/support.js';
import { DirectSession, oauthPrincipal as oauth } from '../server/direct-window.js';
import { at } from '../support/at.js';

const SETTINGS: WindowSettings = { read_only: false, confirm_each_write: false, approval_timeout_s: 30, label_language: 'en' };

const EXTRA_IRI = 'http://example.org/fenced-extra';
const EXTRA_TTL = `@prefix owl: <http://www.w3.org/2002/07/owl#> .\n<${EXTRA_IRI}> a owl:Ontology .\n<${EXTRA_IRI}#Thing> a owl:Class .\n`;

/** An origin on a real socket that holds the first request until `release` sends the page. */
async function startHeldOrigin(): Promise<{
  base: string;
  requested: Promise<void>;
  release: (page: string) => void;
  close: () => Promise<void>;
}> {
  let requested!: () => void;
  let answer!: (page: string) => void;
  const arrived = new Promise<void>((resolve) => (requested = resolve));
  const page = new Promise<string>((resolve) => (answer = resolve));
  const web = createServer((_req, res) => {
    requested();
    void page.then((body) => res.writeHead(200, { 'content-type': 'text/turtle' }).end(body));
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(web.address() as AddressInfo).port}`,
    requested: arrived,
    release: answer,
    close: async () => {
      web.closeAllConnections();
      await new Promise((resolve) => web.close(resolve));
    },
  };
}

async function loadedIris(s: DirectSession): Promise<string[]> {
  const listed = await s.call('list_ontologies');
  return JSON.stringify(listed.body).includes(EXTRA_IRI) ? [EXTRA_IRI] : [];
}

test('a fence set blocks OAuth principals of its grants only, never the static token, and stays bounded', () => {
  const set = new FenceSet(3);
  set.add(fenceFor({ client_id: 'c1', grant_ids: ['g1', 'g2'] }));
  assert.equal(set.blocks(oauth('c1', 'g1')), true);
  assert.equal(set.blocks(oauth('c1', 'g3')), false, 'a later grant of the same client (re-authorized) is not fenced');
  assert.equal(set.blocks({ ...staticPrincipal(), grant_id: 'g1' }), false, 'the static token is not an OAuth principal');
  set.add(fenceFor({ client_id: null, grant_ids: ['g3', 'g4'] }));
  assert.equal(set.size, 3);
  assert.equal(set.blocks(oauth('c1', 'g1')), false, 'past the bound the oldest id goes first');
  assert.equal(set.blocks(oauth('c1', 'g4')), true);
});

test('a handler that awaited I/O cannot commit after the fence, later calls are refused before the handler, others still commit', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-fence-'));
  const registry = new WindowRegistry(SETTINGS);
  const origin = await startHeldOrigin();
  try {
    const window = await registry.open([fixture('zoo.ttl')]);
    const revoked = oauth('client-r', 'grant-r');
    const other = oauth('client-o', 'grant-o');
    const victim = await DirectSession.open(window, revoked);
    const bystander = await DirectSession.open(window, other);

    // an origin that answers only when the test releases it: the load awaits real I/O past the gate
    const loading = victim.call('load_ontology', { source: `${origin.base}/slow.ttl`, connection_timeout_ms: 600_000 });
    await origin.requested;
    assert.equal(await window.fence(fenceFor({ client_id: 'client-r', grant_ids: ['grant-r'] })), true);
    origin.release(EXTRA_TTL);
    const refused = await loading;
    assert.equal(refused.isError, true);
    assert.equal(refused.body.error_code, 'authorization_revoked');
    assert.deepEqual(await loadedIris(bystander), [], 'the fenced load was not committed');

    const later = await victim.call('add_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' });
    assert.equal(later.body.error_code, 'authorization_revoked');
    assert.equal(later.body.effects_prevented, true);
    assert.equal((await bystander.call('get_entity', { entity: 'Dog' })).isError, true);

    const file = path.join(dir, 'extra.ttl');
    await writeFile(file, EXTRA_TTL);
    assert.equal((await bystander.call('load_ontology', { source: file })).isError, false, 'another client still commits');
    assert.deepEqual(await loadedIris(bystander), [EXTRA_IRI]);
  } finally {
    await origin.close();
    await registry.stopAll();
    await rm(dir, { recursive: true, force: true });
  }
});

test('a held write approved after the fence is refused, and a window started later holds every fence before it serves', async () => {
  const registry = new WindowRegistry({ ...SETTINGS, confirm_each_write: true });
  try {
    const window = await registry.open([fixture('zoo.ttl')]);
    const revoked = oauth('client-h', 'grant-h');
    const session = await DirectSession.open(window, revoked);
    const held = session.call('add_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' });
    let entries = await window.listApprovals();
    while (entries.length === 0) entries = await window.listApprovals();
    const fence = fenceFor({ client_id: null, grant_ids: ['grant-h'] });
    registry.fences.add(fence);
    assert.equal(await window.fence(fence), true);
    assert.equal(await window.decide(at(entries, 0).approval_id, true), true);
    const outcome = await held;
    assert.equal(outcome.body.error_code, 'authorization_revoked', 'approval does not outrun the fence');

    const admin = await DirectSession.open(window, staticPrincipal());
    assert.equal((await admin.call('get_entity', { entity: 'Dog' })).isError, true, 'nothing was applied');

    const fresh = await registry.open([fixture('zoo.ttl')]);
    const inFresh = await DirectSession.open(fresh, revoked);
    const call = await inFresh.call('get_entity', { entity: 'Animal' });
    assert.equal(call.body.error_code, 'authorization_revoked', 'the new window got the fence with its start');
  } finally {
    await registry.stopAll();
  }
});

test('a window restarted after a crash holds every fence again before it serves', async () => {
  const registry = new WindowRegistry(SETTINGS);
  try {
    const window = await registry.open([fixture('zoo.ttl')]);
    const fence = fenceFor({ client_id: 'client-c', grant_ids: ['grant-c'] });
    registry.fences.add(fence);
    assert.equal(await window.fence(fence), true);
    const restarted = new Promise<void>((resolve) => {
      registry.onWindowStarted = () => resolve();
    });
    const worker = Reflect.get(window, 'worker') as { terminate(): Promise<number> };
    // the restart timer is unref'd (a server's listener keeps its process alive); here nothing else would
    const alive = setInterval(() => undefined, 1000);
    try {
      await worker.terminate();
      await restarted;
    } finally {
      clearInterval(alive);
    }
    const session = await DirectSession.open(window, oauth('client-c', 'grant-c'));
    assert.equal((await session.call('get_entity', { entity: 'Animal' })).body.error_code, 'authorization_revoked');
    const other = await DirectSession.open(window, oauth('client-c', 'grant-new'));
    assert.equal((await other.call('get_entity', { entity: 'Animal' })).isError, false);
  } finally {
    await registry.stopAll();
  }
});

/** A window that never answers a fence (a hung or partitioned window). */
function silentTarget(id: string): FenceTarget & { delivered: Fence[] } {
  const delivered: Fence[] = [];
  return {
    id,
    delivered,
    fence: (f) => {
      delivered.push(f);
      return new Promise<boolean>(() => undefined);
    },
  };
}

test('an unconfirmed fence is persisted (0600), retried when the window restarts, and leaves the file once confirmed or the window is gone', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-pending-'));
  const registry = new WindowRegistry(SETTINGS);
  let fanout: RevocationFanout | null = null;
  try {
    const live = await registry.open([fixture('zoo.ttl')]);
    const down = await registry.open([fixture('zoo.ttl')]);
    await down.stop();
    const silent = silentTarget('silent-window');
    fanout = await RevocationFanout.open({
      home,
      ledger: registry.fences,
      targets: () => [...registry.fenceTargets(), silent],
      cutInFlight: () => 0,
      dropSessions: (r) => registry.dropSessions(r),
      ackTimeoutMs: 200,
      retryIntervalMs: 3_600_000,
    });
    registry.onWindowStarted = (w) => void fanout?.started(w);

    const result = await fanout.revoked({ client_id: 'client-p', grant_ids: ['grant-p'] });
    assert.deepEqual(result.fenced_windows, [live.id]);
    assert.deepEqual([...result.pending_windows].sort(), [down.id, 'silent-window'].sort());
    assert.equal(result.in_flight_termination, false);
    assert.equal((await stat(fencesPath(home))).mode & 0o777, 0o600);
    const onDisk = await loadPendingFences(home);
    assert.equal(onDisk.length, 1);
    const [pending] = onDisk;
    assert.ok(pending);
    assert.equal(pending.fence.fence_id, result.fence_id);
    assert.deepEqual([...pending.windows].sort(), [down.id, 'silent-window'].sort());

    await down.start();
    await fanout.started(down);
    await fanout.retry();
    assert.deepEqual(
      fanout.pendingFences().map((p) => p.windows),
      [['silent-window']],
      'the restarted window confirmed it',
    );
    assert.ok(silent.delivered.length >= 2, 'the silent window was asked again');
    assert.deepEqual([...at(await loadPendingFences(home), 0).windows], ['silent-window']);

    await fanout.close();
    fanout = await RevocationFanout.open({
      home,
      ledger: registry.fences,
      targets: () => registry.fenceTargets(),
      cutInFlight: () => 0,
      dropSessions: () => 0,
      ackTimeoutMs: 200,
      retryIntervalMs: 3_600_000,
    });
    assert.equal(fanout.pendingFences().length, 1, 'pending fences survive a restart');
    const answering: FenceTarget = { id: 'silent-window', fence: async () => true };
    assert.equal(await fanout.admit(answering), true);
    await fanout.close();
    assert.deepEqual(await loadPendingFences(home), [], 'a confirmed fence leaves the file');

    fanout = await RevocationFanout.open({
      home,
      ledger: registry.fences,
      targets: () => [silent],
      cutInFlight: () => 0,
      dropSessions: () => 0,
      ackTimeoutMs: 200,
      retryIntervalMs: 3_600_000,
    });
    assert.deepEqual((await fanout.revoked({ client_id: null, grant_ids: ['grant-q'] })).pending_windows, ['silent-window']);
    assert.equal((await loadPendingFences(home)).length, 1);
    const late = silentTarget('late-window');
    assert.equal(await fanout.admit(late), false, 'a joining window that does not answer');
    assert.equal(late.delivered.length, 1, 'after the first unanswered fence the rest are not sent, only recorded');
    assert.equal(fanout.pendingFences().filter((p) => p.windows.includes('late-window')).length, registry.fences.all().length);
    await fanout.forget(['silent-window', 'late-window']);
    assert.deepEqual(await loadPendingFences(home), [], 'a window gone for good owes no fence');
    await fanout.close();
    fanout = null;
  } finally {
    await fanout?.close();
    await registry.stopAll();
    await rm(home, { recursive: true, force: true });
  }
});

test('a malformed fences.json is an error naming the problem, not silently dropped', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-pending-'));
  try {
    await writeFile(fencesPath(home), '{"version":1,"pending":[{"fence":{"fence_id":"f"}}]}');
    await assert.rejects(loadPendingFences(home), /fences\.json is malformed at pending\.0\.fence/);
    await writeFile(fencesPath(home), '{"version":1,');
    await assert.rejects(loadPendingFences(home), /not valid JSON/);
    await savePendingFences(home, []);
    assert.deepEqual(JSON.parse(await readFile(fencesPath(home), 'utf8')), { version: 1, pending: [] });
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});
