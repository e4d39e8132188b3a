// Cancellation of a classification through a flag in shared memory: raised by another thread, it stops the
// saturation where it is; the reasoner's state stays consistent, so a later run gives the full answer.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { generateElOntology } from '../../bench/el-generator.js';
import { classify, ElReasoner, renderTaxonomy } from '../../src/reasoner/el-reasoner.js';
import { cancelFlag, raiseFlag, ReasonerCancelled } from '../../src/reasoner/saturation.js';

test('a raised flag stops the classification; the same reasoner then finishes it to the full answer', () => {
  const axioms = generateElOntology(2000, 7);
  const reasoner = new ElReasoner(axioms);
  const flag = cancelFlag();
  raiseFlag(flag);
  assert.throws(() => reasoner.classify({ cancel: flag }), ReasonerCancelled);
  assert.equal(renderTaxonomy(reasoner.classify()), renderTaxonomy(classify(axioms)));
});

test('a classification running in another thread stops when the flag is raised', async () => {
  const flag = cancelFlag();
  const worker = new Worker(new URL('./cancel-worker.js', import.meta.url), { workerData: { classes: 40_000, flag } });
  try {
    const [first] = await once(worker, 'message');
    assert.equal(first, 'started');
    raiseFlag(flag);
    const [outcome] = await once(worker, 'message');
    assert.equal(outcome, 'cancelled');
  } finally {
    await worker.terminate();
  }
});
