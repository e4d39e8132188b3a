// A Konclude run whose owner goes away without stopping it (the window closes, the reasoner thread is
// terminated, the command line is killed) is not left behind: the Konclude process goes too and its private
// directory is removed. Each run is caught in its silent classification phase, so a process that merely died
// of a broken output pipe is not mistaken for one killed.
// test-process: own (its tests run 15-50 s, mostly waiting on processes and timers, so it starts first rather
// than lengthening a group)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cls, subClassOf } from '../../src/model/terms.js';
import { encodeAxioms } from '../../src/model/transfer.js';
import type { PoolTask } from '../../src/reasoner/pool-worker.js';
import { TaskPool } from '../../src/util/task-pool.js';
import { callOk, serveTempOntology } from '../server/support.js';
import { CHAIN_NS, chain, koncludeRuns, requireKonclude, until } from './konclude-runs.js';

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/cli/main.js');
const REASONER_WORKER = new URL('../../src/reasoner/pool-worker.js', import.meta.url);

/** The CPU seconds a process has used (utime + stime of /proc/PID/stat, in the usual 100 ticks a second). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Waits until Konclude is classifying: then it writes nothing to its output for a long while (half a minute on
 * the chain), so a process that merely dies of a broken output pipe (SIGPIPE) is not mistaken for one killed.
 */
const classifying = (pid: number) =>
  until('Konclude in its classification phase', 600_000, () => (cpuSeconds(pid) >= 5 ? true : undefined));

/** Whether `pid` has exited (a zombie, exited but not yet reaped, counts as gone). */
function gone(pid: number): true | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z') ? true : undefined;
  } catch {
    return true;
  }
}

test('a window closed while Konclude classifies takes the Konclude process with it', async () => {
  requireKonclude();
  const n = 12_000; // Konclude's classification of it is silent for minutes
  const served = await serveTempOntology('athene-konclude-chain-', 'chain.ofn', chain(n));
  let closed = false;
  try {
    await callOk(served.c, 'set_reasoner', { reasoner: 'konclude' });
    const pending = served.c.callTool({ name: 'run_reasoner', arguments: { timeout_ms: 3_600_000 } }, undefined, { timeout: 3_600_000 });
    pending.catch(() => {});
    const run = await until('Konclude classifying the chain', 600_000, () => koncludeRuns().find((r) => r.lines > n));
    await classifying(run.pid);
    // the server shuts down: the window's reasoner thread is terminated while its Konclude process runs
    await served.close();
    closed = true;
    await until('the Konclude process of the closed window is gone', 10_000, () => gone(run.pid));
    assert.deepEqual(koncludeRuns(), [], 'no Konclude process is left behind');
  } finally {
    if (!closed) await served.close();
  }
});

test('a reasoner thread terminated while Konclude classifies takes the Konclude process with it', async () => {
  const config = requireKonclude();
  const n = 12_000; // Konclude's classification of it is silent for minutes
  const axioms = Array.from({ length: n }, (_, i) => subClassOf(cls(`${CHAIN_NS}C${i}`), cls(`${CHAIN_NS}C${i + 1}`)));
  // no grace period: a stopped task's thread is terminated at once, before it can kill its child itself
  const pool = new TaskPool<PoolTask, unknown>({ worker: REASONER_WORKER, idleMs: 60_000, graceMs: 0 });
  try {
    const controller = new AbortController();
    const pending = pool.run(
      (cancel): PoolTask => ({
        type: 'classify',
        key: 'chain@1',
        model: { kind: 'full', axioms: encodeAxioms(axioms) },
        reasoner: 'konclude',
        timeLimitMs: 3_600_000,
        cancel,
        konclude: config,
      }),
      { signal: controller.signal },
    );
    const run = await until('Konclude classifying the chain on a reasoner thread', 600_000, () => koncludeRuns().find((r) => r.lines > n));
    await classifying(run.pid);
    controller.abort();
    assert.equal((await pending).kind, 'cancelled');
    await until('the Konclude process of the terminated thread is gone', 10_000, () => gone(run.pid));
    await until('its private directory is removed', 10_000, () => (existsSync(run.dir) ? undefined : true));
  } finally {
    await pool.close();
  }
});

test('the command line killed while Konclude classifies takes the Konclude process with it', async () => {
  requireKonclude();
  const n = 12_000; // Konclude's classification of it is silent for minutes
  const dir = mkdtempSync(path.join(os.tmpdir(), 'athene-konclude-cli-'));
  try {
    const file = path.join(dir, 'chain.ofn');
    writeFileSync(file, chain(n));
    const cli = spawn(process.execPath, [MAIN, 'classify', file, '--reasoner', 'konclude'], { stdio: 'ignore' });
    let exitCode: number | null | undefined;
    const exited = new Promise((resolve) => cli.once('exit', (code) => resolve((exitCode = code))));
    try {
      const run = await until('Konclude classifying the chain for the command line', 600_000, () => {
        // a command that ended before its Konclude run was seen will not start one
        if (exitCode !== undefined) throw new Error(`athene classify exited with ${exitCode} before Konclude classified`);
        return koncludeRuns().find((r) => r.lines > n);
      });
      await classifying(run.pid);
      // no chance to clean up: the process is gone at once, its Konclude run is orphaned
      cli.kill('SIGKILL');
      await exited;
      await until('the Konclude process of the killed command is gone', 10_000, () => gone(run.pid));
      await until('its private directory is removed', 10_000, () => (existsSync(run.dir) ? undefined : true));
    } finally {
      cli.kill('SIGKILL');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
