// A registered process that stops answering (quarantine until its PID is gone), the broker's linger after
// the last registered process leaves, the standalone fallback when sharing is off, and a registered
// process taking the endpoint over when the broker dies, and a registered process's shutdown answering the
// call it cuts through the broker.
// test-process: own (its tests run 15-50 s, mostly waiting on processes and timers, so it starts first rather
// than lengthening a group)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { callOk, startOrigin } from '../server/support.js';
import {
  INIT,
  brokerFixture,
  connectTo,
  eventually,
  internal,
  listInstances,
  readDirectorySecret,
  readToken,
  spawnAthene,
  withHome,
} from './support.js';
import { at } from '../support/at.js';

const ALPHA = 'http://example.org/alpha';
const BETA = 'http://example.org/beta';

test('a stopped process is quarantined within the heartbeat bound and leaves quarantine only once its PID is gone', () =>
  withHome(async (home, port, procs) => {
    const a = await spawnAthene(home, port, brokerFixture('alpha.ttl'), ['--linger', '0']);
    procs.push(a);
    const b = await spawnAthene(home, port, brokerFixture('beta.ttl'));
    procs.push(b);
    const base = `http://127.0.0.1:${port}`;
    const token = await readToken(home);
    const secret = await readDirectorySecret(home);
    const beta = (await listInstances(base, token)).find((i) => i.pid === b.pid)!;
    assert.equal(beta.state, 'live');

    b.child.kill('SIGSTOP');
    await eventually(
      async () => ((await listInstances(base, token)).find((i) => i.id === beta.id)?.state === 'quarantined' ? true : undefined),
      'quarantine',
      15_000,
    );
    assert.equal((await internal(base, secret, '/internal/broker')).body.quarantine, true);
    const fresh = await connectTo(base, token);
    assert.equal((await callOk(fresh, 'get_active_ontology')).ontology_iri, ALPHA, 'a quarantined window takes no new sessions');
    const direct = await fetch(new URL(beta.url, base), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      }),
    });
    assert.equal(direct.status, 503, '/instances/{id}/mcp does not reach a quarantined window');
    assert.match(((await direct.json()) as { error: { message: string } }).error.message, /quarantined/);

    // still quarantined while the PID lives, however long it has been stale
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal((await listInstances(base, token)).find((i) => i.id === beta.id)?.state, 'quarantined');

    b.child.kill('SIGKILL');
    await b.exited;
    await eventually(
      async () => ((await listInstances(base, token)).some((i) => i.id === beta.id) ? undefined : true),
      'retirement after the PID is gone',
      10_000,
    );
    assert.equal((await internal(base, secret, '/internal/broker')).body.quarantine, false);
    await fresh.close();
  }));

test("the broker serves other processes' windows after it is asked to stop, and exits the linger after the last one left", () =>
  withHome(async (home, port, procs) => {
    const a = await spawnAthene(home, port, brokerFixture('alpha.ttl'), ['--linger', '1']);
    procs.push(a);
    const b = await spawnAthene(home, port, brokerFixture('beta.ttl'));
    procs.push(b);
    const base = `http://127.0.0.1:${port}`;
    const token = await readToken(home);
    assert.ok(existsSync(path.join(home, 'broker.json')));

    a.child.kill('SIGTERM');
    await a.waitFor(/staying up as broker/);
    const listed = await eventually(async () => {
      const all = await listInstances(base, token);
      return all.length === 1 ? all : undefined;
    }, "the broker's own window to close");
    assert.equal(at(listed, 0).active_ontology, BETA);
    const s = await connectTo(base, token);
    assert.equal((await callOk(s, 'get_active_ontology')).ontology_iri, BETA, 'the lingering broker still routes to the other process');
    await s.close();
    assert.equal(a.child.exitCode, null, 'the broker stays while a process is registered');

    const bExit = b.exited.then(() => Date.now());
    b.child.kill('SIGTERM');
    const aExit = await a.exited.then(() => Date.now());
    assert.ok(aExit >= (await bExit), 'the broker exits after the last registered process');
    assert.equal(existsSync(path.join(home, 'broker.json')), false, 'the broker record is removed');
  }));

test('sharing off: a second process on a taken port falls back to an ephemeral port, on its own', () =>
  withHome(async (home, port, procs) => {
    const a = await spawnAthene(home, port, brokerFixture('alpha.ttl'), ['--linger', '0']);
    procs.push(a);
    const d = await spawnAthene(home, port, brokerFixture('beta.ttl'), ['--no-share']);
    procs.push(d);
    assert.match(d.output(), new RegExp(`Port ${port} is in use; bound an ephemeral port instead`));
    const url = at(/listening on (\S+)/.exec(d.output()) ?? [], 1, 'listening address');
    assert.notEqual(new URL(url).port, String(port));
    const token = await readToken(home);
    const atBroker = await listInstances(`http://127.0.0.1:${port}`, token);
    assert.deepEqual(
      atBroker.map((i) => i.active_ontology),
      [ALPHA],
      'a standalone process registers nothing',
    );
    const s = await connectTo(url, token, '/mcp');
    assert.equal((await callOk(s, 'get_active_ontology')).ontology_iri, BETA);
    await s.close();
  }));

test('when the broker dies, a registered process takes the endpoint over and later processes register with it', () =>
  withHome(async (home, port, procs) => {
    const a = await spawnAthene(home, port, brokerFixture('alpha.ttl'), ['--linger', '0']);
    procs.push(a);
    const b = await spawnAthene(home, port, brokerFixture('beta.ttl'), ['--linger', '0']);
    procs.push(b);
    const base = `http://127.0.0.1:${port}`;
    const token = await readToken(home);
    a.child.kill('SIGKILL');
    await a.exited;
    const listed = await eventually(
      async () => {
        const all = await listInstances(base, token).catch(() => undefined);
        return all?.length === 1 && at(all, 0).pid === b.pid ? all : undefined;
      },
      'the registered process to own the endpoint',
      20_000,
    );
    assert.equal(at(listed, 0).active_ontology, BETA);
    const s = await connectTo(base, token);
    assert.equal((await callOk(s, 'get_active_ontology')).ontology_iri, BETA);
    await s.close();
    const c = await spawnAthene(home, port, brokerFixture('gamma.ttl'));
    procs.push(c);
    assert.match(c.output(), new RegExp(`Registered with the broker \\(pid ${b.pid}\\)`));
    assert.equal((await listInstances(base, token)).length, 2);
  }));

test('a registered process asked to stop answers its call still running after the grace through the broker with a JSON-RPC error, and exits 0', () =>
  withHome(async (home, port, procs) => {
    const a = await spawnAthene(home, port, brokerFixture('alpha.ttl'), ['--linger', '0']);
    procs.push(a);
    const b = await spawnAthene(home, port, brokerFixture('beta.ttl'), ['--shutdown-grace-s', '2']);
    procs.push(b);
    const base = `http://127.0.0.1:${port}`;
    const token = await readToken(home);
    const origin = await startOrigin({}, ['/slow.ttl']);
    try {
      const headers = {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      const init = await fetch(new URL('/mcp', base), { method: 'POST', headers, body: INIT });
      assert.equal(init.status, 200);
      await init.text();
      const session = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };
      await (
        await fetch(new URL('/mcp', base), {
          method: 'POST',
          headers: session,
          body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        })
      ).text();
      const active = await fetch(new URL('/mcp', base), {
        method: 'POST',
        headers: session,
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_active_ontology', arguments: {} } }),
      });
      assert.match(await active.text(), new RegExp(BETA), "the session is on the registered process's window");

      const loading = fetch(new URL('/mcp', base), {
        method: 'POST',
        headers: session,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'load_ontology', arguments: { source: `${origin.base}/slow.ttl`, connection_timeout_ms: 600_000 } },
        }),
      });
      await eventually(async () => (origin.hits > 0 ? true : undefined), 'the load to reach the origin');
      b.child.kill('SIGTERM');
      const answer = await loading;
      const body = await answer.text();
      assert.equal(answer.status, 503, body);
      const error = (JSON.parse(body) as { id: unknown; error: { code: number; message: string } }).error;
      assert.match(error.message, /shutting down: this call did not finish within the 2 s grace period/, body);
      assert.equal(await b.exited, 0);
      const s = await connectTo(base, token);
      assert.equal((await callOk(s, 'get_active_ontology')).ontology_iri, ALPHA, 'the broker keeps serving its own window');
      await s.close();
    } finally {
      await origin.close();
    }
  }));
