// Three athene processes on one private directory and one port: the first is the broker; the others
// register their windows and are reached through it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { call, callOk } from '../server/support.js';
import { PRINCIPAL_VERSION } from '../../src/auth/principal.js';
import { encodePrincipal } from '../../src/broker/wire.js';
import { brokerFixture, connectTo, freePort, listInstances, readToken, spawnAthene, stopAthene, type Athene } from './support.js';

const ALPHA = 'http://example.org/alpha';
const BETA = 'http://example.org/beta';
const GAMMA = 'http://example.org/gamma';

test('three processes behind one endpoint: listing, routing, pinning, isolation, secrets', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-broker-'));
  const port = await freePort();
  const procs: Athene[] = [];
  try {
    const a = await spawnAthene(home, port, brokerFixture('alpha.ttl'), ['--linger', '0']);
    procs.push(a);
    assert.match(a.output(), /Shared broker/);
    const base = `http://127.0.0.1:${port}`;
    assert.match(a.output(), new RegExp(`listening on ${base}/mcp`));
    const b = await spawnAthene(home, port, brokerFixture('beta.ttl'));
    procs.push(b);
    assert.match(b.output(), /Registered with the broker/);
    assert.match(b.output(), new RegExp(`listening on ${base}/mcp`), 'a registered process gives the shared URL');
    const token = await readToken(home);

    const s1 = await connectTo(base, token);
    assert.equal(
      (await callOk(s1, 'get_active_ontology')).ontology_iri,
      BETA,
      'a new session goes to the newest window, in another process',
    );

    const c = await spawnAthene(home, port, brokerFixture('gamma.ttl'));
    procs.push(c);
    const s2 = await connectTo(base, token);
    assert.equal((await callOk(s2, 'get_active_ontology')).ontology_iri, GAMMA, 'the newest window across processes takes new sessions');
    assert.equal((await callOk(s1, 'get_active_ontology')).ontology_iri, BETA, 'a pinned session stays on its window');

    const listed = await listInstances(base, token);
    assert.equal(listed.length, 3);
    const byIri = new Map(listed.map((i) => [i.active_ontology, i]));
    assert.deepEqual([...byIri.keys()].sort(), [ALPHA, BETA, GAMMA]);
    assert.equal(byIri.get(ALPHA)!.pid, a.pid);
    assert.equal(byIri.get(BETA)!.pid, b.pid);
    assert.equal(byIri.get(GAMMA)!.pid, c.pid);
    assert.equal(new Set(listed.map((i) => i.process_id)).size, 3);
    assert.ok(listed.every((i) => i.state === 'live'));
    assert.equal(byIri.get(GAMMA)!.newest, true);
    assert.equal(byIri.get(BETA)!.sessions, 1);
    assert.equal(byIri.get(GAMMA)!.active_document, brokerFixture('gamma.ttl'));
    assert.notEqual(byIri.get(BETA)!.last_heartbeat, null, 'a registered window shows its last heartbeat');

    const direct = await connectTo(base, token, byIri.get(ALPHA)!.url);
    assert.equal((await callOk(direct, 'get_active_ontology')).ontology_iri, ALPHA, '/instances/{id}/mcp reaches the named window');

    assert.equal((await callOk(s1, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'ThingBeta' })).applied, true);
    assert.equal((await call(s1, 'get_entity', { entity: 'Dog' })).isError, false);
    assert.equal(
      (await call(s2, 'get_entity', { entity: `${BETA}#Dog` })).isError,
      true,
      "an edit in one process's window is not visible in another",
    );
    assert.equal((await call(direct, 'get_entity', { entity: `${BETA}#Dog` })).isError, true);

    // a principal without any capability, posing as the broker's: stripped, so the static token's profile applies
    const forged = encodePrincipal({
      version: PRINCIPAL_VERSION,
      type: 'oauth',
      client_id: 'forger',
      display_name: 'forger',
      grant_id: 'g',
      capabilities: [],
    });
    const s3 = await connectTo(base, token, '/mcp', {
      'x-athene-principal': forged,
      'x-athene-broker-secret': 'guess',
      'x-athene-broker-protocol': '1',
    });
    assert.equal(
      (await callOk(s3, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Cat', super: 'ThingGamma' })).applied,
      true,
      'a forged principal header has no effect',
    );

    const backendPort = Number(/loopback port (\d+)/.exec(b.output())![1]);
    const betaWindow = `/w/${encodeURIComponent(byIri.get(BETA)!.id)}/mcp`;
    const attempts: Record<string, string>[] = [
      {},
      { 'x-athene-broker-secret': 'not-the-secret' },
      { 'x-athene-broker-secret': 'x'.repeat(43), 'x-athene-principal': forged },
    ];
    for (const headers of attempts) {
      const res = await fetch(`http://127.0.0.1:${backendPort}${betaWindow}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        }),
      });
      assert.equal(res.status, 403, "a backend port refuses a request without its window's broker secret");
      await res.body?.cancel();
    }

    // an event stream from another process's window comes through the broker as a stream
    const mcpHeaders = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    };
    const init = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: mcpHeaders,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.body?.cancel();
    const aborter = new AbortController();
    const stream = await fetch(`${base}/mcp`, { headers: { ...mcpHeaders, 'mcp-session-id': sessionId }, signal: aborter.signal });
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
    const first = await stream.body!.getReader().read();
    assert.equal(first.done, false, 'the stream is open');
    aborter.abort();
    const listedAfter = await listInstances(base, token);
    assert.equal(listedAfter.find((i) => i.active_ontology === GAMMA)!.sessions, 3, 'the raw session is pinned to the newest window');
    await Promise.all([s1.close(), s2.close(), s3.close(), direct.close()]);
  } finally {
    for (const p of procs.reverse()) await stopAthene(p);
    await rm(home, { recursive: true, force: true });
  }
});
