// A client cancelling run_reasoner over the transport (the SDK's request signal): the run stops, and the
// results the window held before stay as they were, not reported as current. The reasoning tools otherwise:
// test/tools-mcp/reasoning-tools.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { call, serveTempOntology, type ServedTempOntology } from './support.js';
import { settledStatus, slowOntology, untilClassifying } from './slow-classification.js';

let s: ServedTempOntology;
before(async () => {
  s = await serveTempOntology('athene-reasoning-', 'big.ofn', slowOntology(2000));
});
after(() => s.close());

test('a client cancelling run_reasoner stops the run; earlier results stay as they were, not reported as current', async () => {
  assert.equal((await call(s.c, 'set_reasoner', { reasoner: 'structural' })).isError, false);
  const structural = (await call(s.c, 'run_reasoner')).body;
  assert.equal(structural.completed, true);
  assert.equal((await call(s.c, 'set_reasoner', { reasoner: 'el' })).isError, false);

  const abort = new AbortController();
  const run = s.c.callTool({ name: 'run_reasoner', arguments: { timeout_ms: 600_000 } }, undefined, { signal: abort.signal });
  await untilClassifying(s.c);
  abort.abort();
  await assert.rejects(run);
  assert.equal(await settledStatus(s.c), 'not_initialized', 'the cancelled run left no result');
  const reads = await call(s.c, 'get_unsatisfiable_classes');
  assert.equal(reads.isError, true, 'no classification to read from');

  // the structural result of this revision is untouched
  assert.equal((await call(s.c, 'set_reasoner', { reasoner: 'structural' })).isError, false);
  assert.equal((await call(s.c, 'list_reasoners')).body.status, 'classified');
  const again = (await call(s.c, 'run_reasoner')).body;
  assert.equal(again.cached, true);
});
