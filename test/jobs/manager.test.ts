// The per-actor job store: queue and quota bounds, idempotent starts, cancellation states, retention and
// artifacts, cursor paging, and ownership. Runners are real async functions the tests release by hand.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { JobManager, type JobRunHandle, type JobSpec } from '../../src/jobs/manager.js';
import { JobRunError, JobStoreError } from '../../src/jobs/job.js';
import { sha256Digest } from '../../src/util/digest.js';
import { jobOwner } from '../../src/jobs/owner.js';
import { staticPrincipal, PRINCIPAL_VERSION, type Principal } from '../../src/auth/principal.js';
import type { JsonObject } from '../../src/tools/core/tool.js';
import { at } from '../support/at.js';

const WS = randomUUID();
const REVISION = {
  workspace_id: WS,
  session_revision: 1,
  semantic_fingerprint: 'sha256:' + '0'.repeat(64),
  document_fingerprint: 'sha256:' + '1'.repeat(64),
};

function oauth(client: string, grant = 'g-' + client): Principal {
  return {
    version: PRINCIPAL_VERSION,
    type: 'oauth',
    client_id: client,
    display_name: client,
    grant_id: grant,
    capabilities: ['ontology:read'],
  };
}

/** A runner the test finishes by hand; `handle()` resolves once the job has started running. */
class Gate {
  private resolveResult: (v: JsonObject) => void = () => {};
  private rejectResult: (e: unknown) => void = () => {};
  private readonly result = new Promise<JsonObject>((resolve, reject) => {
    this.resolveResult = resolve;
    this.rejectResult = reject;
  });
  private gotHandle: (h: JobRunHandle) => void = () => {};
  private readonly started = new Promise<JobRunHandle>((resolve) => {
    this.gotHandle = resolve;
  });

  readonly run = (h: JobRunHandle): Promise<JsonObject> => {
    this.gotHandle(h);
    return this.result;
  };

  handle(): Promise<JobRunHandle> {
    return this.started;
  }

  finish(result: JsonObject = { ok: true }): void {
    this.resolveResult(result);
  }

  fail(err: unknown): void {
    this.rejectResult(err);
  }
}

function spec(run: JobSpec['run'], key: string = randomUUID(), identity = 'sha256:' + 'a'.repeat(64)): JobSpec {
  return {
    type: 'classification',
    idempotencyKey: key,
    inputIdentity: identity,
    baseRevision: REVISION,
    policyDigest: null,
    requiredCapabilities: ['ontology:read'],
    resultDiscriminator: 'classification.v1',
    run,
  };
}

const ticks = async (n = 5): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

async function until(what: string, ready: () => boolean): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (ready()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`never happened: ${what}`);
}

function refusal(code: string): (err: unknown) => boolean {
  return (err) => err instanceof JobStoreError && err.code === code;
}

async function withManager(body: (m: JobManager, dir: string, clock: { now: number }) => Promise<void>, limits = {}): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-jobs-'));
  const clock = { now: Date.parse('2026-01-01T00:00:00Z') };
  const m = new JobManager({ artifactsParent: dir, now: () => clock.now, limits });
  try {
    await body(m, dir, clock);
  } finally {
    await m.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const me = jobOwner(WS, staticPrincipal());

test('two jobs run at once; the rest wait in order and start as workers free up', () =>
  withManager(async (m) => {
    const gates = [new Gate(), new Gate(), new Gate()];
    const ids = gates.map((g) => m.start(me, spec(g.run)).job.job_id);
    assert.deepEqual(
      ids.map((id) => m.get(me, id).state),
      ['running', 'running', 'queued'],
    );
    at(gates, 1).finish({ n: 1 });
    await ticks();
    const done = m.get(me, at(ids, 1));
    assert.equal(done.state, 'succeeded');
    assert.deepEqual(done.result, { n: 1 });
    assert.ok(done.completed_at !== null && done.started_at !== null);
    assert.equal(m.get(me, at(ids, 2)).state, 'running');
    assert.deepEqual(m.counts(me.principalFingerprint), { queued: 0, running: 2 });
  }));

test('the queue holds 32 waiting jobs per actor; one more is job_queue_full', () =>
  withManager(async (m) => {
    const owners = [0, 1, 2, 3, 4].map((i) => jobOwner(WS, oauth('c' + i)));
    for (let i = 0; i < 34; i++) m.start(at(owners, Math.floor(i / 7)), spec(new Gate().run));
    assert.throws(() => m.start(at(owners, 4), spec(new Gate().run)), refusal('job_queue_full'));
  }));

test('a principal may have 8 unfinished jobs; a ninth is job_quota_exceeded until one finishes', () =>
  withManager(async (m) => {
    const gates = Array.from({ length: 8 }, () => new Gate());
    for (const g of gates) m.start(me, spec(g.run));
    assert.throws(
      () => m.start(me, spec(new Gate().run)),
      (err) => refusal('job_quota_exceeded')(err) && (err as JobStoreError).context.quota === 'active_per_principal',
    );
    // another principal is not held back
    m.start(jobOwner(WS, oauth('other')), spec(new Gate().run));
    at(gates, 0).finish();
    await ticks();
    assert.equal(m.start(me, spec(new Gate().run)).reused, false);
  }));

test('a principal keeps 32 jobs: the oldest finished one is forgotten to make room', () =>
  withManager(async (m) => {
    const first = m.start(
      me,
      spec(async () => ({})),
    ).job.job_id;
    await ticks();
    for (let i = 1; i < 32; i++) {
      m.start(
        me,
        spec(async () => ({})),
      );
      await ticks();
    }
    assert.equal(m.get(me, first).state, 'succeeded');
    m.start(
      me,
      spec(async () => ({})),
    );
    assert.throws(() => m.get(me, first), refusal('unknown_job'));
    assert.equal(m.list(me, 100).jobs.length, 32);
  }));

test('the same key and inputs within 15 minutes return the same job; other inputs are an idempotency_conflict', () =>
  withManager(async (m, _dir, clock) => {
    const first = m.start(me, spec(new Gate().run, 'nightly-1'));
    const again = m.start(me, spec(new Gate().run, 'nightly-1'));
    assert.equal(again.reused, true);
    assert.equal(again.job.job_id, first.job.job_id);
    assert.throws(
      () => m.start(me, spec(new Gate().run, 'nightly-1', 'sha256:' + 'b'.repeat(64))),
      (err) => refusal('idempotency_conflict')(err) && (err as JobStoreError).context.job_id === first.job.job_id,
    );
    // another owner's key is its own
    assert.equal(m.start(jobOwner(WS, oauth('other')), spec(new Gate().run, 'nightly-1')).reused, false);
    clock.now += 15 * 60 * 1000;
    const later = m.start(me, spec(new Gate().run, 'nightly-1'));
    assert.equal(later.reused, false);
    assert.notEqual(later.job.job_id, first.job.job_id);
  }));

test('cancelling a queued job cancels it at once; a running one goes cancel_pending until it stops', () =>
  withManager(async (m) => {
    const a = new Gate();
    const b = new Gate();
    const running = m.start(me, spec(a.run)).job.job_id;
    m.start(me, spec(b.run));
    const queued = m.start(me, spec(new Gate().run)).job.job_id;

    const q = m.cancel(me, queued);
    assert.equal(q.outcome, 'cancelled');
    assert.equal(q.job.state, 'cancelled');
    assert.equal(q.job.cancellation_requested, true);
    assert.equal(q.job.cancellation_effective, true);

    const before = m.get(me, running).progress_sequence;
    const r = m.cancel(me, running);
    assert.equal(r.outcome, 'cancel_requested');
    assert.equal(r.job.state, 'cancel_pending');
    assert.equal(r.job.cancellation_requested, true);
    assert.equal(r.job.cancellation_effective, false);
    assert.ok(r.job.progress_sequence > before);
    assert.equal((await a.handle()).signal.aborted, true);
    assert.equal(m.cancel(me, running).outcome, 'cancel_requested');
    // the runner finishes anyway: the tombstone wins and the result is dropped
    a.finish({ late: true });
    await ticks();
    const ended = m.get(me, running);
    assert.equal(ended.state, 'cancelled');
    assert.equal(ended.cancellation_effective, true);
    assert.equal(ended.result, null);
    assert.equal(m.cancel(me, running).outcome, 'already_terminal');
    assert.equal(m.cancel(me, queued).outcome, 'already_terminal');
  }));

test('a running job that ignores cancellation is declared cancelled after the grace and frees its worker', () =>
  withManager(
    async (m) => {
      const deaf = new Gate();
      const id = m.start(me, spec(deaf.run)).job.job_id;
      m.start(me, spec(new Gate().run));
      const waiting = m.start(me, spec(new Gate().run)).job.job_id;
      m.cancel(me, id);
      await until('the grace ran out', () => m.get(me, id).state === 'cancelled');
      assert.equal(m.get(me, waiting).state, 'running');
      deaf.finish({ late: true });
      await ticks();
      assert.equal(m.get(me, id).result, null);
    },
    { cancellationGraceMs: 10 },
  ));

test('a job whose commit started cannot be cancelled; the tombstone is still recorded', () =>
  withManager(async (m) => {
    const g = new Gate();
    const id = m.start(me, spec(g.run)).job.job_id;
    (await g.handle()).commitStarted();
    const c = m.cancel(me, id);
    assert.equal(c.outcome, 'commit_in_progress');
    assert.equal(c.job.commit_started, true);
    assert.equal(c.job.cancellation_requested, true);
    g.finish({ committed: true });
    await ticks();
    assert.equal(m.get(me, id).state, 'succeeded');
  }));

test('a failing runner ends the job failed with its code; other errors are job_failed', () =>
  withManager(async (m) => {
    const a = new Gate();
    const b = new Gate();
    const first = m.start(me, spec(a.run)).job.job_id;
    const second = m.start(me, spec(b.run)).job.job_id;
    a.fail(new JobRunError('too slow', 'timeout', true));
    b.fail(new Error('boom'));
    await ticks();
    assert.deepEqual(m.get(me, first).error, { code: 'timeout', message: 'too slow', retryable: true });
    assert.deepEqual(m.get(me, second).error, { code: 'job_failed', message: 'boom', retryable: false });
    assert.equal(m.get(me, second).state, 'failed');
  }));

test('a result over 1 MiB fails the job with job_result_too_large', () =>
  withManager(async (m) => {
    const id = m.start(
      me,
      spec(async () => ({ text: 'x'.repeat(1024 * 1024) })),
    ).job.job_id;
    await ticks();
    const job = m.get(me, id);
    assert.equal(job.state, 'failed');
    assert.equal(job.error?.code, 'job_result_too_large');
  }));

test('artifacts are private files (0600 in a 0700 directory), bounded per job, and deleted with their job', () =>
  withManager(async (m, dir, clock) => {
    // a directory left by a process that no longer exists is removed when this store makes its own
    const orphan = path.join(dir, `999999999-${randomUUID()}`);
    await mkdir(orphan, { recursive: true });
    const g = new Gate();
    const id = m.start(me, spec(g.run)).job.job_id;
    const ref = await (await g.handle()).artifact('report', 'application/json', Buffer.from('{"a":1}'));
    await assert.rejects(readdir(orphan), { code: 'ENOENT' });
    assert.equal((await stat(m.artifactDir)).mode & 0o777, 0o700);
    assert.equal((await stat(path.join(m.artifactDir, ref.artifact_id))).mode & 0o777, 0o600);
    for (let i = 0; i < 3; i++) await (await g.handle()).artifact('extra', 'text/plain', Buffer.from(String(i)));
    await assert.rejects(
      (await g.handle()).artifact('fifth', 'text/plain', Buffer.from('5')),
      (err: unknown) => err instanceof JobRunError && err.code === 'job_artifact_limit',
    );
    g.finish({ artifact: ref.artifact_id });
    await ticks();
    const found = m.artifact(me, id, ref.artifact_id);
    assert.equal((await found.read()).toString(), '{"a":1}');
    assert.equal(found.ref.sha256, sha256Digest('{"a":1}'));
    assert.throws(() => m.artifact(me, id, randomUUID()), refusal('unknown_artifact'));
    assert.throws(() => m.artifact(jobOwner(WS, oauth('other')), id, ref.artifact_id), refusal('unknown_job'));
    // retention: an hour after it finished the job and its files are gone
    clock.now += 60 * 60 * 1000;
    assert.throws(() => m.get(me, id), refusal('unknown_job'));
    await until('the artifact file is deleted', () => !existsSync(path.join(m.artifactDir, ref.artifact_id)));
  }));

test('an artifact over the per-artifact bound is refused before anything is written', () =>
  withManager(
    async (m) => {
      const g = new Gate();
      m.start(me, spec(g.run));
      await assert.rejects(
        (await g.handle()).artifact('big', 'application/octet-stream', new Uint8Array(2048)),
        (err: unknown) => err instanceof JobRunError && err.code === 'job_artifact_too_large',
      );
      await assert.rejects(stat(m.artifactDir), { code: 'ENOENT' });
    },
    { artifactBytes: 1024 },
  ));

test('a failed or cancelled job loses its artifacts', () =>
  withManager(async (m) => {
    const g = new Gate();
    const id = m.start(me, spec(g.run)).job.job_id;
    const ref = await (await g.handle()).artifact('partial', 'text/plain', Buffer.from('half'));
    g.fail(new JobRunError('stopped', 'reasoner_error'));
    await ticks();
    assert.throws(() => m.artifact(me, id, ref.artifact_id), refusal('unknown_artifact'));
    await until('the file is deleted', () => !existsSync(path.join(m.artifactDir, ref.artifact_id)));
  }));

test('list_jobs pages newest first with cursors bound to the owner and to the list revision', () =>
  withManager(async (m) => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        m.start(
          me,
          spec(async () => ({ i })),
        ).job.job_id,
      );
      await ticks();
    }
    const other = jobOwner(WS, oauth('other'));
    m.start(
      other,
      spec(async () => ({})),
    );
    await ticks();
    const seen: string[] = [];
    let page = m.list(me, 2);
    for (;;) {
      seen.push(...page.jobs.map((j) => j.job_id));
      if (page.next_cursor === undefined) break;
      page = m.list(me, 2, page.next_cursor);
    }
    assert.deepEqual(seen, [...ids].reverse());
    const first = m.list(me, 2);
    assert.throws(() => m.list(other, 2, first.next_cursor), refusal('cursor_invalid'));
    assert.throws(
      () =>
        m.list(
          me,
          2,
          first.next_cursor!.replace(/^./, (c) => (c === 'e' ? 'f' : 'e')),
        ),
      refusal('cursor_invalid'),
    );
    assert.throws(() => m.list(me, 2, 'not-a-cursor'), refusal('cursor_invalid'));
    // another owner's new job leaves this owner's cursor valid; a new job of its own does not
    m.start(
      other,
      spec(async () => ({})),
    );
    assert.equal(m.list(me, 2, first.next_cursor).jobs.length, 2);
    m.start(
      me,
      spec(async () => ({})),
    );
    assert.throws(() => m.list(me, 2, first.next_cursor), refusal('cursor_invalid'));
  }));

test('another owner, even the same client under another grant, sees unknown_job', () =>
  withManager(async (m) => {
    const mine = jobOwner(WS, oauth('client-a', 'grant-1'));
    const id = m.start(mine, spec(new Gate().run)).job.job_id;
    for (const stranger of [
      jobOwner(WS, oauth('client-a', 'grant-2')),
      jobOwner(WS, oauth('client-b')),
      jobOwner(randomUUID(), oauth('client-a', 'grant-1')),
    ]) {
      assert.throws(() => m.get(stranger, id), refusal('unknown_job'));
      assert.throws(() => m.cancel(stranger, id), refusal('unknown_job'));
      assert.deepEqual(m.list(stranger, 10).jobs, []);
    }
    const job = m.get(mine, id);
    assert.equal(job.owner_fingerprint, mine.ownerFingerprint);
    assert.match(job.principal_fingerprint, /^sha256:[0-9a-f]{64}$/);
    assert.doesNotMatch(JSON.stringify(job), /client-a|grant-1/);
  }));

test('closing the store cancels running jobs, forgets every id and deletes the artifact directory', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-jobs-'));
  try {
    const m = new JobManager({ artifactsParent: dir });
    const g = new Gate();
    const id = m.start(me, spec(g.run)).job.job_id;
    await (await g.handle()).artifact('report', 'application/json', Buffer.from('{}'));
    await m.close();
    assert.equal((await g.handle()).signal.aborted, true);
    assert.throws(() => m.get(me, id), refusal('unknown_job'));
    assert.throws(() => m.start(me, spec(new Gate().run)), refusal('jobs_closed'));
    await assert.rejects(stat(m.artifactDir), { code: 'ENOENT' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("revoking a grant cancels its unfinished jobs (queued and running), and no one else's", async () => {
  await withManager(async (m) => {
    const alice = jobOwner(WS, oauth('alice')),
      bob = jobOwner(WS, oauth('bob')),
      local = jobOwner(WS, staticPrincipal());
    const running = new Gate(),
      queued = new Gate(),
      other = new Gate();
    const a1 = m.start(alice, spec(running.run)).job;
    const b1 = m.start(bob, spec(other.run)).job;
    await running.handle();
    const a2 = m.start(alice, spec(queued.run)).job;
    const done = new Gate();
    const l1 = m.start(local, spec(done.run)).job;
    m.cancelGrants(new Set(['g-alice']));
    assert.equal(m.get(alice, a2.job_id).state, 'cancelled', 'the queued job never starts');
    assert.equal(m.get(alice, a1.job_id).state, 'cancel_pending', 'the running job is told to stop');
    assert.equal(m.get(alice, a1.job_id).cancellation_requested, true);
    assert.equal(m.get(bob, b1.job_id).cancellation_requested, false);
    assert.equal(m.get(local, l1.job_id).cancellation_requested, false, 'the static token has no grant to revoke');
    running.fail(new Error('stopped'));
    other.finish();
    await until("alice's job ends", () => m.get(alice, a1.job_id).state === 'cancelled');
    await until("bob's job succeeds", () => m.get(bob, b1.job_id).state === 'succeeded');
    done.finish();
  });
});
