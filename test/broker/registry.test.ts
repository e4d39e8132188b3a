// The broker's registry as explicit state: heartbeats that replace or drop endpoints, staleness,
// quarantine until the PID is gone, retirement, fail-closed memory, sealing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BrokerRegistry } from '../../src/broker/broker-registry.js';
import { generateEndpointSecret } from '../../src/broker/endpoint-secret.js';

const spec = (id: string, secret = generateEndpointSecret()) => ({ window_id: id, secret, label: id, documents: [], legacy_requests: 0 });

function setup(retiredCapacity = 4096) {
  let now = 1_000;
  const clock = { advance: (ms: number) => void (now += ms) };
  const registry = new BrokerRegistry(
    { maxProcesses: 4, maxWindowsPerProcess: 4, retiredCapacity, staleAfterMs: 5000 },
    () => now,
    () => now,
  );
  return { registry, clock };
}

function registered<T>(o: { ok: true; value: T } | { ok: false; refusal: { message: string } }): T {
  if (!o.ok) throw new Error(o.refusal.message);
  return o.value;
}

test('a heartbeat that drops or replaces a window quarantines the old endpoint until the PID exits', () => {
  const { registry } = setup();
  const a = spec('a');
  const p = registered(registry.register({ pid: 77, port: 9, protocol: 2, windows: [a, spec('b')] }));
  const before = new Map([...registry.endpoints()].map((e) => [e.windowId, e]));
  registered(registry.heartbeat({ process_id: p.id, windows: [spec('a')] }));
  const states = [...registry.endpoints()].map((e) => `${e.windowId}:${e.state}`).sort();
  assert.deepEqual(states, ['a:live', 'a:quarantined', 'b:quarantined']);
  assert.equal(before.get('a')!.state, 'quarantined', 'the replaced endpoint object is the quarantined one');
  assert.equal(registry.hasQuarantine(), true);
  assert.equal(
    registry.sweep(() => true),
    false,
    'nothing leaves quarantine while the PID lives',
  );
  assert.equal(
    registry.sweep(() => false),
    true,
  );
  assert.equal(registry.hasQuarantine(), false);
  assert.deepEqual(
    [...registry.endpoints()].map((e) => e.state),
    ['live'],
  );
  const again = registry.register({ pid: 78, port: 9, protocol: 2, windows: [a] });
  assert.equal(again.ok, false, 'a retired endpoint cannot register again');
  if (!again.ok) assert.equal(again.refusal.error, 'endpoint_retired');
});

test('a process without heartbeats goes stale: quarantined while alive, then retired and forgotten', () => {
  const { registry, clock } = setup();
  const p = registered(registry.register({ pid: 77, port: 9, protocol: 2, windows: [spec('a')] }));
  clock.advance(5001);
  assert.equal(
    registry.sweep(() => true),
    true,
  );
  assert.equal(registry.process(p.id)!.state, 'stale');
  assert.deepEqual(
    [...registry.endpoints()].map((e) => e.state),
    ['quarantined'],
  );
  const late = registry.heartbeat({ process_id: p.id, windows: [spec('a')] });
  assert.equal(late.ok, false, 'a stale process must register again');
  registry.sweep(() => false);
  assert.equal(registry.empty, true);
  assert.equal(registry.retiredCount, 1);
});

test('deregistration quarantines until the PID exits; a full retired list fails closed; sealing refuses registrations', () => {
  const { registry } = setup(1);
  const p = registered(registry.register({ pid: 77, port: 9, protocol: 2, windows: [spec('a'), spec('b')] }));
  registered(registry.deregister(p.id));
  assert.equal(registry.hasQuarantine(), true);
  registry.sweep(() => false);
  assert.equal(registry.retiredCount, 1);
  assert.equal(registry.hasQuarantine(), true, 'an endpoint the full list cannot remember stays quarantined');
  const refused = registry.register({ pid: 78, port: 9, protocol: 2, windows: [spec('c')] });
  assert.equal(refused.ok, false);
  if (!refused.ok) assert.equal(refused.refusal.error, 'retired_endpoints_full');

  const { registry: other } = setup();
  other.seal();
  const sealed = other.register({ pid: 78, port: 9, protocol: 2, windows: [spec('c')] });
  assert.equal(sealed.ok, false);
  if (!sealed.ok) assert.equal(sealed.refusal.error, 'registration_sealed');
});
