// Version takeover, the requesting side, with real processes: a newer `athene` (a higher broker protocol,
// set with ATHENE_PROTOCOL_VERSION_OVERRIDE) finding an older live broker asks it for the port. Granted:
// the old broker exits, the newer one binds the port and is the broker, and the old broker's registered
// process registers with it. Refused (an endpoint is quarantined): the newer one registers with the old
// broker and says why.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readBrokerRecord } from '../../src/broker/broker-file.js';
import { BROKER_PROTOCOL } from '../../src/broker/wire.js';
import { PROTOCOL_OVERRIDE_ENV } from '../../src/broker/version.js';
import { callOk } from '../server/support.js';
import {
  brokerFixture,
  connectTo,
  eventually,
  internal,
  listInstances,
  readDirectorySecret,
  readToken,
  spawnAthene,
  stopAthene,
  withHome,
} from './support.js';

const NEWER = { [PROTOCOL_OVERRIDE_ENV]: String(BROKER_PROTOCOL + 1) };
const GAMMA = 'http://example.org/gamma';

test("a newer athene takes the port over from an older broker, which exits; the older broker's registered process moves to it", () =>
  withHome(async (home, port, procs) => {
    const a = await spawnAthene(home, port, brokerFixture('alpha.ttl'), ['--linger', '0']);
    procs.push(a);
    const b = await spawnAthene(home, port, brokerFixture('beta.ttl'), ['--linger', '0']);
    procs.push(b);
    const n = await spawnAthene(home, port, brokerFixture('gamma.ttl'), ['--linger', '0'], NEWER);
    procs.push(n);
    assert.match(n.output(), /Shared broker/);
    assert.match(
      n.errors(),
      new RegExp(`took the shared endpoint over from the older broker \\(pid ${a.pid}, athene \\S+, broker protocol ${BROKER_PROTOCOL}\\)`),
    );
    assert.equal(await a.exited, 0, 'the older broker handed over and exited');
    const record = await readBrokerRecord(home);
    assert.equal(record?.pid, n.pid);
    assert.equal(record?.protocol, BROKER_PROTOCOL + 1);

    const base = `http://127.0.0.1:${port}`;
    const token = await readToken(home);
    const listed = await eventually(async () => {
      const all = await listInstances(base, token);
      return all.length === 2 ? all : undefined;
    }, "the older broker's registered process to register with the newer one");
    assert.deepEqual(listed.map((i) => i.pid).sort(), [b.pid, n.pid].sort());
    assert.equal(listed.find((i) => i.pid === b.pid)?.state, 'live');
    const s = await connectTo(base, token, listed.find((i) => i.pid === n.pid)!.url);
    assert.equal((await callOk(s, 'get_active_ontology')).ontology_iri, GAMMA);
    await s.close();
    // the registered process leaves first: the broker stays up while any process is registered
    await stopAthene(b);
  }));

test('an older broker with a quarantined endpoint refuses the takeover: the newer athene registers with it and says why', () =>
  withHome(async (home, port, procs) => {
    const a = await spawnAthene(home, port, brokerFixture('alpha.ttl'), ['--linger', '0']);
    procs.push(a);
    const b = await spawnAthene(home, port, brokerFixture('beta.ttl'));
    procs.push(b);
    const base = `http://127.0.0.1:${port}`;
    const secret = await readDirectorySecret(home);
    b.child.kill('SIGSTOP');
    await eventually(
      async () => ((await internal(base, secret, '/internal/broker')).body.quarantine === true ? true : undefined),
      'quarantine',
      15_000,
    );

    const n = await spawnAthene(home, port, brokerFixture('gamma.ttl'), [], NEWER);
    procs.push(n);
    assert.match(n.output(), new RegExp(`Registered with the broker \\(pid ${a.pid}\\)`));
    assert.match(n.errors(), /runs an older release than this one .* but refused to hand over the port: A quarantined endpoint remains/);
    assert.equal(a.child.exitCode, null, 'the older broker keeps the port');
    assert.equal((await readBrokerRecord(home))?.pid, a.pid);
    const token = await readToken(home);
    const mine = (await listInstances(base, token)).find((i) => i.pid === n.pid);
    assert.equal(mine?.state, 'live');
    const s = await connectTo(base, token);
    assert.equal((await callOk(s, 'get_active_ontology')).ontology_iri, GAMMA, "new sessions go to the newer process's window");
    await s.close();
    // the stopped process never answers again: its PID must be gone for the broker to retire it and exit
    b.child.kill('SIGKILL');
    await b.exited;
  }));
