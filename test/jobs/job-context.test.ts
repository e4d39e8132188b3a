// A job (and a semantic diff given its own signal) runs under its own cancellation: the starting call's lazy
// cancellation, copied with the rest of its context, must not answer for it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jobContext } from '../../src/jobs/types/job-type.js';
import { isCancelled } from '../../src/window/call-context.js';
import { LazyCancellation } from '../../src/actors/session-transport.js';
import { toolContext } from '../support/tool-context.js';

test("a job's context is cancelled by the job's signal, not by the starting call's", () => {
  const call = new LazyCancellation();
  const ctx = { ...toolContext([]), cancellation: call };
  const job = new AbortController();
  const jctx = jobContext(ctx, job.signal);
  assert.equal(isCancelled(jctx), false);
  job.abort();
  assert.equal(isCancelled(jctx), true, 'the job saw its own cancellation');
  assert.equal(isCancelled(ctx), false, 'the finished call was not cancelled');
  assert.equal(jctx.session, undefined);
});
