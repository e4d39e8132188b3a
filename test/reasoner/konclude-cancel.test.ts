// Cancelling a call that runs Konclude, through a real server: the cancelled call's Konclude process is killed
// at once and its files removed, and what it held (the explanation thread, the preview reasoner) is free for
// the next call. What a transport does with a cancellation is tested on each transport by test/server/cancellation
// and test/server/reasoning-cancel; what happens to Konclude after it does not depend on the transport, so these run once.
// test-process: own (its tests run 15-50 s, mostly waiting on processes and timers, so it starts first rather
// than lengthening a group)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { call, callOk, serveTempOntology, type Row } from '../server/support.js';
import { CHAIN_NS, chain, koncludeRuns, until } from './konclude-runs.js';

test('a cancelled explanation kills its Konclude process at once and removes its files; the next call works', async () => {
  const n = 6000;
  const served = await serveTempOntology('athene-konclude-chain-', 'chain.ofn', chain(n));
  try {
    await callOk(served.c, 'set_reasoner', { reasoner: 'konclude' });
    const controller = new AbortController();
    const args = { axiom_type: 'subclass_of', sub: `${CHAIN_NS}C0`, super: `${CHAIN_NS}C${n}`, max: 1, timeout_ms: 3_600_000 };
    const pending = served.c.callTool({ name: 'get_explanations', arguments: args }, undefined, {
      signal: controller.signal,
      timeout: 3_600_000,
    });
    pending.catch(() => {});
    // the expansion doubles its prefix of the chain: wait for a run on 4,096 or more axioms (≥10 s on its own)
    const long = await until('a Konclude run on a long prefix of the chain', 600_000, () => koncludeRuns().find((r) => r.lines > 4096));
    controller.abort('the user changed their mind');
    await assert.rejects(pending);
    await until('the cancelled Konclude process is gone', 3_000, () => (existsSync(`/proc/${long.pid}`) ? undefined : true));
    await until('its private directory is removed', 3_000, () => (existsSync(long.dir) ? undefined : true));

    // the explanation thread is free again: a short explanation on the same chain is answered
    const next = await served.c.callTool({ name: 'get_explanations', arguments: { ...args, super: `${CHAIN_NS}C2` } }, undefined, {
      timeout: 600_000,
    });
    const body = next.structuredContent as Row;
    assert.equal(next.isError, false, JSON.stringify(body));
    assert.equal(body.entailed, true);
    assert.equal(body.justification_count, 1);
    assert.deepEqual(koncludeRuns(), [], 'no Konclude process is left behind');
  } finally {
    await served.close();
  }
});

test('a cancelled materialization preview kills its Konclude process and frees the preview reasoner', async () => {
  const n = 6000;
  const served = await serveTempOntology('athene-konclude-chain-', 'chain.ofn', chain(n));
  try {
    await callOk(served.c, 'set_reasoner', { reasoner: 'konclude' });
    const args = {
      categories: ['subclass_axioms'],
      destination: { kind: 'new_ontology', identifier: 'http://example.org/chain-inferred' },
      provenance: { generator: 'konclude test', purpose: 'cancellation' },
      limits: { max_axioms_per_category: 100, max_axioms_total: 100, max_bytes: 100_000, timeout_ms: 3_600_000 },
    };
    const controller = new AbortController();
    const pending = served.c.callTool({ name: 'materialize_inferences', arguments: args }, undefined, {
      signal: controller.signal,
      timeout: 3_600_000,
    });
    pending.catch(() => {});
    // the whole chain in one run: far longer than the 3 s allowed below
    const run = await until('Konclude classifying the chain', 600_000, () => koncludeRuns().find((r) => r.lines > n));
    controller.abort('the user changed their mind');
    await assert.rejects(pending);
    await until('the cancelled Konclude process is gone', 3_000, () => (existsSync(`/proc/${run.pid}`) ? undefined : true));
    await until('its private directory is removed', 3_000, () => (existsSync(run.dir) ? undefined : true));

    // the preview reasoner is freed once its thread has exited (busy until then, as TOOLS.md allows): the next
    // preview (EL this time) gets it within seconds, not after the Konclude run would have finished
    await callOk(served.c, 'set_reasoner', { reasoner: 'el' });
    const next = await until('the next preview gets the preview reasoner', 10_000, async () => {
      const out = await call(served.c, 'materialize_inferences', { ...args, limits: { ...args.limits, timeout_ms: 60_000 } });
      return out.body.error_code === 'materialization_busy' ? undefined : out;
    });
    assert.equal(next.isError, false, JSON.stringify(next.body));
    assert.equal(next.body.preview_only, true);
    assert.deepEqual(koncludeRuns(), [], 'no Konclude process is left behind');
  } finally {
    await served.close();
  }
});
