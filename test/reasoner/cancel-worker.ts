// A thread that classifies a generated ontology under a cancellation flag shared with the test (see
// el-cancel.test.ts): it says when it starts, then how the classification ended.

import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { generateElOntology } from '../../bench/el-generator.js';
import { ElReasoner } from '../../src/reasoner/el-reasoner.js';
import { ReasonerCancelled, type CancelFlag } from '../../src/reasoner/saturation.js';

/** Classifies and reports; `node --test` also loads this file on the main thread, where it does nothing. */
function run(port: MessagePort): void {
  const { classes, flag } = workerData as { classes: number; flag: CancelFlag };
  const reasoner = new ElReasoner(generateElOntology(classes));
  port.postMessage('started');
  try {
    reasoner.classify({ cancel: flag });
    port.postMessage('finished');
  } catch (err) {
    port.postMessage(err instanceof ReasonerCancelled ? 'cancelled' : `failed: ${(err as Error).message}`);
  }
}

if (parentPort !== null) run(parentPort);
