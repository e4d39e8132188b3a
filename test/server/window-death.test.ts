// A window's death never takes the process down and is never hidden: its worker is killed and what it
// would restart from is corrupted; requests to it get JSON-RPC 503s, the other window keeps serving, and
// /health and /instances report restarting, then failed, with the reason and the restart count.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startTestServer, fixture, raw, connect, INIT_BODY, MCP_HEADERS } from './support.js';
import type { WindowHandle } from '../../src/actors/window.js';

interface Health {
  status: string;
  instances: { id: string; state: string; reason: string | null; restarts: number }[];
}

test('a killed window that cannot restart is reported failed; the process serves the other window', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-death-'));
  const doomed = path.join(dir, 'doomed.ttl');
  await copyFile(fixture('zoo.ttl'), doomed);
  const t = await startTestServer([fixture('zoo.ttl'), doomed]);
  try {
    const auth = { authorization: `Bearer ${t.token}` };
    // the victim opened last: it is the window new sessions would go to
    const [survivor, victim] = t.server.registry.local as WindowHandle[];
    assert.ok(survivor);
    assert.ok(victim);
    const victimUrl = `/instances/${victim.id}/mcp`;
    const old = await connect(t, t.token, victimUrl);
    const oldSession = (old.transport as { sessionId?: string }).sessionId!;
    await writeFile(doomed, '@prefix : <http://example.org/> .\n:broken :triple');
    // the test's one reach into the handle: the worker a crash would take down
    await (victim as unknown as { worker: Worker }).worker.terminate();

    const during = await raw(t, { method: 'POST', path: victimUrl, headers: { ...MCP_HEADERS, ...auth }, body: INIT_BODY });
    assert.equal(during.status, 503);
    const duringBody = (await during.json()) as { jsonrpc: string; error: { message: string } };
    assert.equal(duringBody.jsonrpc, '2.0');
    assert.match(duringBody.error.message, /restarting after a crash|failed/);

    const onOldSession = await raw(t, {
      method: 'POST',
      path: victimUrl,
      body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
      headers: { ...MCP_HEADERS, ...auth, 'mcp-session-id': oldSession, 'mcp-protocol-version': '2025-06-18' },
    });
    assert.equal(onOldSession.status, 404, 'the crashed session is over');

    let health: Health | undefined;
    // restarts back off, and each one reads the document on a busy machine: a generous deadline, not a count
    const deadline = Date.now() + 180_000;
    while (Date.now() < deadline) {
      health = (await (await raw(t, { path: '/health', headers: auth })).json()) as Health;
      if (health.instances.find((w) => w.id === victim.id)?.state === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const dead = health!.instances.find((w) => w.id === victim.id)!;
    assert.equal(dead.state, 'failed', JSON.stringify(health));
    assert.ok(dead.restarts >= 3, `restarted with backoff before giving up (${dead.restarts})`);
    assert.match(dead.reason ?? '', /\S/);
    assert.equal(health!.status, 'degraded');
    assert.equal(health!.instances.find((w) => w.id === survivor.id)?.state, 'live');

    const listed = (await (await raw(t, { path: '/instances', headers: auth })).json()) as {
      instances: { id: string; state: string; restarts: number }[];
    };
    assert.equal(listed.instances.find((w) => w.id === victim.id)?.state, 'failed');

    const after = await raw(t, { method: 'POST', path: victimUrl, headers: { ...MCP_HEADERS, ...auth }, body: INIT_BODY });
    assert.equal(after.status, 503);
    assert.match(
      ((await after.json()) as { error: { message: string } }).error.message,
      /failed: it could not be restarted after \d+ attempt/,
    );

    // new sessions on /mcp skip the failed window and go to the one that serves
    const c = await connect(t);
    const { tools } = await c.listTools();
    assert.ok(tools.length > 0);
    await c.close();
    await old.close().catch(() => undefined);
  } finally {
    await t.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
