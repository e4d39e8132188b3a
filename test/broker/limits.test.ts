// Registration limits against a real broker (in this process, on a real port) with real registration
// requests: 32 processes and 128 windows each at the real numbers, the next refused with a clear error;
// and the internal API's directory-secret check.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServer, demoOntologyPath, type RunningServer } from '../../src/http/server.js';
import { generateEndpointSecret } from '../../src/broker/endpoint-secret.js';
import { BROKER_PROTOCOL } from '../../src/broker/wire.js';
import type { RegistryLimits } from '../../src/broker/broker-registry.js';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { eventually, freePort, internal, readDirectorySecret } from './support.js';

/**
 * The PID of a process that has exited: registrations under it are retired as soon as they are
 * deregistered, so the broker can stop without waiting for a live PID to leave quarantine.
 */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

async function deregisterAll(base: string, secret: string, ids: unknown[]): Promise<void> {
  for (const id of ids) assert.equal((await internal(base, secret, '/internal/deregister', { process_id: id })).status, 200);
}

function windows(n: number): { window_id: string; secret: string; label: string; documents: string[]; legacy_requests: number }[] {
  return Array.from({ length: n }, (_, i) => ({
    window_id: `w${i}`,
    secret: generateEndpointSecret(),
    label: `window ${i}`,
    documents: [],
    legacy_requests: 0,
  }));
}

async function withBroker(
  limits: RegistryLimits | undefined,
  body: (base: string, secret: string, server: RunningServer) => Promise<void>,
): Promise<void> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-broker-limits-'));
  const port = await freePort();
  const server = await startServer({
    home,
    files: [demoOntologyPath()],
    flags: { port: String(port), broker_idle_linger_s: '0' },
    env: {},
    brokerLimits: limits,
  });
  try {
    assert.equal(server.role.kind, 'broker');
    await body(`http://127.0.0.1:${port}`, await readDirectorySecret(home), server);
  } finally {
    await server.close(500);
    await rm(home, { recursive: true, force: true });
  }
}

test('the 33rd process and the 129th window are refused (real limits, real registrations)', () =>
  withBroker(undefined, async (base, secret, server) => {
    const pid = await deadPid();
    const register = (n: number) =>
      internal(base, secret, '/internal/register', { pid, port: 9, protocol: BROKER_PROTOCOL, windows: windows(n) });
    const ids: unknown[] = [];
    const tooWide = await register(129);
    assert.equal(tooWide.status, 429);
    assert.equal(tooWide.body.error, 'registration_limit');
    assert.match(String(tooWide.body.message), /At most 128 windows per process/);

    const first = await register(128);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    ids.push(first.body.process_id);
    for (let i = 1; i < 32; i++) {
      const next = await register(1);
      assert.equal(next.status, 201);
      ids.push(next.body.process_id);
    }
    const refused = await register(1);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, 'registration_limit');
    assert.match(String(refused.body.message), /At most 32 processes/);
    assert.equal(server.registry.all.length, 1 + 128 + 31, 'every accepted window is routable through the broker');

    const grow = await internal(base, secret, '/internal/heartbeat', { process_id: first.body.process_id, windows: windows(129) });
    assert.equal(grow.status, 429, 'a heartbeat cannot grow a process past 128 windows');
    await deregisterAll(base, secret, ids);
  }));

test('lowered limits: the next process and window are refused; a secret in use is refused; the internal API needs the directory secret', () =>
  withBroker({ maxProcesses: 2, maxWindowsPerProcess: 2, retiredCapacity: 4096, staleAfterMs: 5000 }, async (base, secret) => {
    const pid = await deadPid();
    const ws = windows(2);
    const one = await internal(base, secret, '/internal/register', { pid, port: 9, protocol: BROKER_PROTOCOL, windows: ws });
    assert.equal(one.status, 201);
    assert.equal(
      (await internal(base, secret, '/internal/register', { pid, port: 9, protocol: BROKER_PROTOCOL, windows: windows(3) })).status,
      429,
    );
    const reuse = await internal(base, secret, '/internal/register', { pid, port: 9, protocol: BROKER_PROTOCOL, windows: [ws[0]] });
    assert.equal(reuse.status, 409, 'a secret in use cannot be registered by another process');
    const two = await internal(base, secret, '/internal/register', { pid, port: 9, protocol: BROKER_PROTOCOL, windows: windows(1) });
    assert.equal(two.status, 201);
    assert.equal(
      (await internal(base, secret, '/internal/register', { pid, port: 9, protocol: BROKER_PROTOCOL, windows: windows(1) })).status,
      429,
    );
    await deregisterAll(base, secret, [one.body.process_id, two.body.process_id]);

    const bad = await internal(base, secret, '/internal/register', {
      pid: process.pid,
      port: 9,
      protocol: BROKER_PROTOCOL,
      windows: [{ window_id: 'x' }],
    });
    assert.equal(bad.status, 400);
    assert.match(String(bad.body.message), /windows\.0\.secret/);

    for (const presented of ['', 'wrong-secret']) {
      const res = await fetch(new URL('/internal/broker', base), {
        headers: presented === '' ? {} : { 'x-athene-directory-secret': presented },
      });
      assert.equal(res.status, 403);
      await res.body?.cancel();
    }
    const res = await fetch(new URL('/internal/register', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pid: 1, port: 9, protocol: 2, windows: windows(1) }),
    });
    assert.equal(res.status, 403, 'registration needs the directory secret');
    await res.body?.cancel();
  }));

test('a version takeover is refused to a release that is not newer and while an endpoint is quarantined, and granted once its process exited', () =>
  withBroker(undefined, async (base, secret, server) => {
    const newer = { pid: process.pid, protocol: BROKER_PROTOCOL + 1, version: '0.0.1' };
    const same = await internal(base, secret, '/internal/takeover', {
      pid: process.pid,
      protocol: BROKER_PROTOCOL,
      version: (await internal(base, secret, '/internal/broker')).body.version,
    });
    assert.equal(same.status, 409);
    assert.equal(same.body.error, 'not_newer');
    assert.equal((await internal(base, secret, '/internal/takeover', {})).status, 400, 'a request must say which release asks');
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    const gone = new Promise((resolve) => sleeper.once('exit', resolve));
    try {
      const reg = await internal(base, secret, '/internal/register', {
        pid: sleeper.pid,
        port: 9,
        protocol: BROKER_PROTOCOL,
        windows: windows(1),
      });
      assert.equal(reg.status, 201);
      await deregisterAll(base, secret, [reg.body.process_id]);
      assert.equal(
        (await internal(base, secret, '/internal/broker')).body.quarantine,
        true,
        'a deregistered process whose PID lives is quarantined',
      );
      const refused = await internal(base, secret, '/internal/takeover', newer);
      assert.equal(refused.status, 409);
      assert.equal(refused.body.error, 'quarantine');
      sleeper.kill('SIGKILL');
      await gone;
      await eventually(
        async () => ((await internal(base, secret, '/internal/broker')).body.quarantine === false ? true : undefined),
        'the quarantine to end',
      );
      const granted = await internal(base, secret, '/internal/takeover', newer);
      assert.equal(granted.status, 202);
      await server.closed;
      // the port is free for the newer process
      const port = Number(new URL(base).port);
      const successor = net.createServer();
      await new Promise<void>((resolve, reject) => successor.once('error', reject).listen(port, '127.0.0.1', resolve));
      await new Promise((resolve) => successor.close(resolve));
    } finally {
      sleeper.kill('SIGKILL');
    }
  }));
