// A window worker that dies (killed, out of memory) cannot dispose of its state: its actor removes the private
// job artifacts it left, and the restarted window keeps serving.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { callOk, connect, eventually, fixture, startTestServer, type Row } from '../server/support.js';
import type { WindowHandle } from '../../src/actors/window.js';

const listing = (dir: string): Promise<string[]> => readdir(dir).catch(() => []);

test("a killed window's job artifacts are removed, and the restarted window serves", async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-crash-artifacts-'));
  const t = await startTestServer([fixture('zoo.ttl')], {}, home);
  try {
    const c = await connect(t);
    await callOk(c, 'set_reasoner', { reasoner: 'el' });
    const { job } = await callOk(c, 'start_job', { type: 'classification', idempotency_key: 'crash', request: {} });
    const jobId = (job as Row).job_id as string;
    await eventually(
      'the job succeeded',
      async () => ((await callOk(c, 'get_job', { job_id: jobId })).job as Row).state === 'succeeded',
      3000,
    );
    const jobsDir = path.join(home, 'jobs');
    const [windowDir] = await listing(jobsDir);
    assert.ok(windowDir !== undefined, 'the job kept its artifact in the private directory');
    assert.equal((await listing(path.join(jobsDir, windowDir))).length, 1);
    await c.close().catch(() => undefined);

    const [victim] = t.server.registry.local as WindowHandle[];
    assert.ok(victim);
    // the test's one reach into the handle: the worker a crash would take down
    await (victim as unknown as { worker: Worker }).worker.terminate();
    await eventually('the dead window’s artifacts are gone', async () => !(await listing(jobsDir)).includes(windowDir), 3000);

    await eventually('the window restarted', async () => victim.health.state === 'live', 9000);
    const again = await connect(t);
    assert.equal(((await callOk(again, 'get_entity', { entity: 'Animal' })).matches as Row[]).length, 1);
    await again.close();
  } finally {
    await t.stop();
    await rm(home, { recursive: true, force: true });
  }
});
