// get_session_info through the real server: what a static-token and an OAuth session learn about the
// server, their window, themselves and the gates; held writes visible to their own session only; every
// window listed with ids that reach it; and a broker that lists another process's window.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { CAPABILITIES } from '../../src/auth/principal.js';
import {
  sharedServer,
  startTestServer,
  fixture,
  connect,
  call,
  callOk,
  raw,
  pendingWrites,
  decideWrite,
  eventually,
  type Row,
  type TestServer,
} from './support.js';
import { authorize, registerClient } from './oauth-grant.js';
import { INIT, freePort, postToBackend, spawnAthene, stopAthene } from '../broker/support.js';
import { SECRET_HEADER } from '../../src/broker/wire.js';
import { at } from '../support/at.js';

const DIGEST = /^sha256:[0-9a-f]{64}$/;

const info = (c: Client, args: Row = {}) => callOk(c, 'get_session_info', args);
const sessionIdOf = (c: Client) => (c.transport as StreamableHTTPClientTransport).sessionId;

async function instanceIds(t: TestServer): Promise<string[]> {
  const res = await raw(t, { path: '/instances', headers: { authorization: `Bearer ${t.token}` } });
  return ((await res.json()) as { instances: { id: string }[] }).instances.map((i) => i.id);
}

// the tests that leave the window as they found it share one server; the others start their own
const zoo = sharedServer([fixture('zoo.ttl')]);
const withZoo = async (body: (t: TestServer) => Promise<void>): Promise<void> => body((await zoo()).t);

async function withServer(files: string[], flags: Record<string, string | boolean>, body: (t: TestServer) => Promise<void>): Promise<void> {
  const t = await startTestServer(files, flags);
  try {
    await body(t);
  } finally {
    await t.stop();
  }
}

test('a static-token session sees the server, its window, itself and the default gates, and no secret', () =>
  withZoo(async (t) => {
    const c = await connect(t);
    try {
      const body = await info(c);
      const [windowId] = await instanceIds(t);
      const server = body.server as Row;
      assert.equal(server.name, 'athene');
      assert.equal(server.version, c.getServerVersion()?.version);
      assert.equal(server.protocol_version, LATEST_PROTOCOL_VERSION, 'the version this SDK client negotiated');
      assert.equal(server.tool_count, (await c.listTools()).tools.length);
      assert.equal(server.prompt_count, 11);
      assert.equal(server.prompt_count, (await c.listPrompts()).prompts.length);
      assert.equal(server.mode, 'standalone', 'port 0 has no shared endpoint');
      assert.equal(server.base_url, new URL(t.server.url).origin);

      const instance = body.instance as Row;
      assert.equal(instance.instance_id, windowId);
      assert.equal(instance.label, 'http://example.org/zoo');
      assert.equal(instance.active_ontology, 'http://example.org/zoo');
      assert.deepEqual(instance.ontologies, ['http://example.org/zoo']);
      assert.equal(instance.dirty_count, 0);
      assert.equal(instance.undo_depth, 0);
      assert.equal(instance.redo_depth, 0);
      const revision = instance.revision as Row;
      assert.deepEqual(Object.keys(revision).sort(), ['document_fingerprint', 'semantic_fingerprint', 'session_revision', 'workspace_id']);
      assert.match(revision.semantic_fingerprint as string, DIGEST);
      assert.match(revision.document_fingerprint as string, DIGEST);
      assert.deepEqual(instance.reasoner, {
        selected_id: 'auto',
        selected_name: 'Athene Automatic Reasoner 0.1.0',
        status: 'not_initialized',
      });

      assert.deepEqual(body.session, {
        session_id: sessionIdOf(c),
        pinned_instance_id: windowId,
        auth: 'static_token',
        scopes: [],
        capabilities: [...CAPABILITIES].sort(),
        legacy_profile: false,
      });
      assert.deepEqual(body.gates, {
        read_only: false,
        confirm_each_write: false,
        approval_timeout_s: 300,
        allow_unrestricted_paths_without_policy: true,
      });
      assert.deepEqual(body.pending_writes, { count: 0, items: [] });
      assert.deepEqual(body.jobs, { queued: 0, running: 0 });
      assert.deepEqual(body.change_sets, { count: 0, items: [] });
      assert.equal('instances' in body, false, 'instances only when asked for');
      assert.equal(JSON.stringify(body).includes(t.token), false, 'the bearer token is never returned');
    } finally {
      await c.close();
    }
  }));

test('the window part follows edits, the reasoner selection and cached change-set previews', () =>
  withServer([fixture('zoo.ttl')], {}, async (t) => {
    const c = await connect(t);
    try {
      const before = (await info(c)).instance as Row;
      await callOk(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' });
      const reasoners = (await callOk(c, 'list_reasoners')).reasoners as Row[];
      await callOk(c, 'set_reasoner', { reasoner: at(reasoners, 0).id });
      const preview = await callOk(c, 'preview_change_set', {
        operations: [{ op: 'add', axiom_type: 'subclass_of', sub: 'Cat', super: 'Animal' }],
      });
      const body = await info(c);
      const instance = body.instance as Row;
      assert.equal(instance.undo_depth, 1);
      assert.equal(instance.dirty_count, 1);
      assert.equal((instance.revision as Row).session_revision, ((before.revision as Row).session_revision as number) + 1);
      assert.notEqual((instance.revision as Row).semantic_fingerprint, (before.revision as Row).semantic_fingerprint);
      assert.equal((instance.reasoner as Row).selected_id, at(reasoners, 0).id);
      assert.equal((instance.reasoner as Row).selected_name, at(reasoners, 0).name);
      assert.equal((instance.reasoner as Row).status, 'not_initialized');
      const changeSets = body.change_sets as { count: number; items: Row[] };
      assert.equal(changeSets.count, 1);
      assert.equal(at(changeSets.items, 0).change_set_id, preview.change_set_id);
      assert.equal(at(changeSets.items, 0).state, 'ready');
      assert.equal(at(changeSets.items, 0).expires_at, preview.expires_at);
      await callOk(c, 'discard_change_set', { change_set_id: preview.change_set_id });
      assert.deepEqual((await info(c)).change_sets, { count: 0, items: [] });
    } finally {
      await c.close();
    }
  }));

test('arguments are closed and typed', () =>
  withZoo(async (t) => {
    const c = await connect(t);
    try {
      assert.equal((await call(c, 'get_session_info', { include_instances: 'yes' })).body.error_code, 'invalid_argument');
      assert.equal((await call(c, 'get_session_info', { verbose: true })).body.error_code, 'invalid_argument');
    } finally {
      await c.close();
    }
  }));

test('an OAuth session sees its own client, scopes and capabilities; a grant without ontology:read is refused', () =>
  withZoo(async (t) => {
    const clientId = await registerClient(t, 'Session Info Agent');
    const grant = await authorize(t, clientId, 'read ontology:curate');
    const c = await connect(t, grant.accessToken);
    try {
      const body = await info(c);
      assert.deepEqual(body.session, {
        session_id: sessionIdOf(c),
        pinned_instance_id: (await instanceIds(t))[0],
        auth: 'oauth',
        client_id: clientId,
        client_name: 'Session Info Agent',
        scopes: ['read', 'ontology:curate'],
        capabilities: ['ontology:curate', 'ontology:read'],
        legacy_profile: false,
      });
      const text = JSON.stringify(body);
      assert.equal(text.includes(grant.accessToken), false);
      assert.equal(text.includes(grant.refreshToken), false);
    } finally {
      await c.close();
    }
    const curator = await connect(t, (await authorize(t, clientId, 'ontology:curate')).accessToken);
    try {
      const denied = await call(curator, 'get_session_info');
      assert.equal(denied.body.error_code, 'authorization_denied');
      assert.deepEqual(denied.body.missing_capabilities, ['ontology:read']);
    } finally {
      await curator.close();
    }
  }));

test('a held write is counted for every session of the window and listed only for its own session', () =>
  withServer([fixture('zoo.ttl')], { confirm_each_write: true, approval_timeout_s: '60' }, async (t) => {
    const writer = await connect(t);
    const other = await connect(t);
    try {
      const held = call(writer, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' });
      let entry: { approval_id: string; summary: string } | undefined;
      await eventually('a pending write', async () => (entry = (await pendingWrites(t))[0]) !== undefined);

      const own = await info(writer);
      assert.deepEqual((own.gates as Row).confirm_each_write, true);
      assert.deepEqual((own.gates as Row).approval_timeout_s, 60);
      const pending = own.pending_writes as { count: number; items: Row[] };
      assert.equal(pending.count, 1);
      assert.equal(pending.items.length, 1);
      assert.deepEqual(Object.keys(at(pending.items, 0)).sort(), ['approval_id', 'created_at', 'expires_at', 'summary', 'tool']);
      assert.equal(at(pending.items, 0).approval_id, entry!.approval_id);
      assert.equal(at(pending.items, 0).tool, 'add_axiom');
      assert.equal(at(pending.items, 0).summary, entry!.summary);
      assert.equal(Date.parse(at(pending.items, 0).expires_at as string) - Date.parse(at(pending.items, 0).created_at as string), 60_000);

      assert.deepEqual((await info(other)).pending_writes, { count: 1, items: [] }, 'another session sees the count, not the entry');
      assert.deepEqual((await info(writer, { include_pending: false })).pending_writes, { count: 1 });

      assert.equal((await decideWrite(t, entry!.approval_id, 'deny')).status, 200);
      assert.equal((await held).body.error_code, 'write_declined');
      assert.deepEqual((await info(writer)).pending_writes, { count: 0, items: [] });
    } finally {
      await writer.close();
      await other.close();
    }
  }));

test('read-only and path settings are reported as gates', () =>
  withServer([fixture('zoo.ttl')], { read_only: true, allow_unrestricted_paths_without_policy: false }, async (t) => {
    const c = await connect(t);
    try {
      assert.deepEqual((await info(c)).gates, {
        read_only: true,
        confirm_each_write: false,
        approval_timeout_s: 300,
        allow_unrestricted_paths_without_policy: false,
      });
    } finally {
      await c.close();
    }
  }));

test('include_instances lists every window with ids that reach it, its sessions and the newest', () =>
  withServer([fixture('zoo.ttl'), fixture('context.ttl')], {}, async (t) => {
    const ids = await instanceIds(t);
    assert.equal(ids.length, 2);
    const newest = await connect(t);
    try {
      const body = await info(newest, { include_instances: true });
      const instances = body.instances as Row[];
      assert.deepEqual(
        instances.map((i) => i.instance_id),
        [...ids].sort(),
      );
      const mine = instances.find((i) => i.instance_id === (body.instance as Row).instance_id)!;
      assert.equal(mine.most_recent, true, '/mcp pins new sessions to the newest window');
      assert.equal(mine.sessions, 1);
      const otherRow = instances.find((i) => i !== mine)!;
      assert.equal(otherRow.most_recent, false);
      assert.equal(otherRow.sessions, 0);
      assert.equal(otherRow.active_ontology, 'http://example.org/zoo');
      for (const i of instances) {
        assert.deepEqual(Object.keys(i).sort(), [
          'active_ontology',
          'instance_id',
          'label',
          'last_connected_at',
          'most_recent',
          'sessions',
        ]);
        assert.ok(!Number.isNaN(Date.parse(i.last_connected_at as string)));
      }

      const other = await connect(t, t.token, `/instances/${encodeURIComponent(otherRow.instance_id as string)}/mcp`);
      try {
        const there = await info(other, { include_instances: true });
        assert.equal((there.instance as Row).instance_id, otherRow.instance_id);
        assert.equal((there.session as Row).pinned_instance_id, otherRow.instance_id);
        assert.equal((there.instance as Row).active_ontology, 'http://example.org/zoo');
        assert.deepEqual(
          (there.instances as Row[]).map((i) => i.sessions),
          instances.map(() => 1),
        );
      } finally {
        await other.close();
      }
    } finally {
      await newest.close();
    }
  }));

test("a broker lists another process's window; that window reports the broker's URL, and the legacy profile of an old broker", async () => {
  const port = await freePort();
  const broker = await startTestServer([fixture('zoo.ttl')], { port: String(port), broker_idle_linger_s: '0' });
  // a registered process that never starts still lets the broker stop (else the file never ends)
  try {
    const registered = await spawnAthene(broker.home, port, fixture('context.ttl'));
    try {
      const role = broker.server.role;
      assert.equal(role.kind, 'broker');
      if (role.kind !== 'broker') return;
      const ids = await instanceIds(broker);
      assert.equal(ids.length, 2);
      const brokerWindow = at(broker.server.registry.local, 0).id;
      const remoteWindow = ids.find((id) => id !== brokerWindow)!;
      const onBroker = await connect(broker, broker.token, `/instances/${brokerWindow}/mcp`);
      const onRemote = await connect(broker, broker.token, `/instances/${remoteWindow}/mcp`);
      try {
        const here = await info(onBroker, { include_instances: true });
        assert.equal((here.server as Row).mode, 'broker');
        assert.equal((here.server as Row).base_url, new URL(broker.server.url).origin);
        assert.deepEqual(
          (here.instances as Row[]).map((i) => i.instance_id),
          [...ids].sort(),
        );
        const remoteRow = (here.instances as Row[]).find((i) => i.instance_id === remoteWindow)!;
        assert.equal(remoteRow.most_recent, true, 'the window that joined last takes new sessions');
        assert.equal(remoteRow.active_ontology, 'http://example.org/ctx');
        const there = await info(onRemote, { include_instances: true });
        assert.deepEqual(there.instances, here.instances, 'a registered process lists what the broker lists');
        assert.equal((there.server as Row).mode, 'broker', 'a registered process is served through the broker');
        assert.equal((there.server as Row).base_url, new URL(broker.server.url).origin);
        assert.equal((there.instance as Row).instance_id, remoteWindow);
        assert.equal((there.session as Row).legacy_profile, false);
      } finally {
        await onBroker.close();
        await onRemote.close();
      }

      // a version-1 broker forwards no principal: the window assumes the local-admin profile and says so
      const endpoint = at([...role.host.registry.endpoints()], 0);
      const backend = `http://127.0.0.1:${endpoint.port}/w/${encodeURIComponent(endpoint.windowId)}/mcp`;
      const opened = await postToBackend(backend, { [SECRET_HEADER]: endpoint.secret }, INIT);
      assert.equal(opened.status, 200);
      const sid = opened.headers.get('mcp-session-id')!;
      await opened.body?.cancel();
      const answer = await postToBackend(
        backend,
        { [SECRET_HEADER]: endpoint.secret },
        JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_session_info', arguments: {} } }),
        sid,
      );
      const result = ((await answer.json()) as { result: { structuredContent: Row } }).result.structuredContent;
      assert.equal((result.session as Row).legacy_profile, true);
      assert.equal((result.session as Row).auth, 'static_token');
      assert.equal((result.server as Row).protocol_version, '2025-06-18', 'the version the raw client sent');
    } finally {
      await stopAthene(registered);
    }
  } finally {
    await broker.stop();
  }
});
