// The job tools through the real server: a classification job polled to success, idempotent restarts,
// paging, cancelling queued and running jobs, a project_qc job under a policy, exporting an artifact
// (no-clobber, digest-checked overwrite with backup), another principal seeing nothing, and the private
// artifacts removed when the window closes.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  call,
  callOk,
  connect,
  eventually,
  serveTempOntology,
  startTestServer,
  withProjectPolicy,
  type Row,
  type ServedTempOntology,
  type TestServer,
} from '../server/support.js';
import { authorize, registerClient } from '../server/oauth-grant.js';
import { sha256Digest } from '../../src/util/digest.js';
import { at } from '../support/at.js';
import { slowOntology } from '../server/slow-classification.js';

const Z = 'http://example.org/zoo#';
const ONTOLOGY = `Prefix(:=<${Z}>)
Ontology(<http://example.org/zoo>
Declaration(Class(:Animal)) Declaration(Class(:Dog)) Declaration(Class(:Hound)) Declaration(Class(:Puppy))
SubClassOf(:Dog :Animal)
EquivalentClasses(:Dog :Hound)
SubClassOf(:Puppy :Dog)
)
`;

const DESCRIPTOR_FIELDS = [
  'job_id',
  'workspace_id',
  'owner_fingerprint',
  'principal_fingerprint',
  'client_fingerprint',
  'grant_fingerprint',
  'type',
  'state',
  'created_at',
  'started_at',
  'completed_at',
  'base_revision',
  'policy_digest',
  'phase',
  'progress_message',
  'progress_sequence',
  'cancellation_requested',
  'cancellation_effective',
  'commit_started',
  'idempotency_key',
  'required_capabilities',
  'input_identity',
  'result_discriminator',
  'result',
  'error',
].sort();
const DIGEST = /^sha256:[0-9a-f]{64}$/;

let served: ServedTempOntology;
let c: Client;
let dir: string;

before(async () => {
  served = await serveTempOntology('athene-jobs-', 'zoo.ofn', ONTOLOGY);
  ({ c, dir } = served);
  await callOk(c, 'set_reasoner', { reasoner: 'el' });
});
after(() => served.close());

/** Polls get_job until the job is in a terminal state; returns it. */
async function finished(client: Client, jobId: string): Promise<Row> {
  let job: Row = {};
  await eventually(
    'the job finished',
    async () => {
      job = (await callOk(client, 'get_job', { job_id: jobId })).job as Row;
      return ['succeeded', 'failed', 'cancelled'].includes(job.state as string);
    },
    1000,
  );
  return job;
}

let classified: Row;

test('a classification job runs from a captured snapshot to success and keeps its taxonomy as an artifact', async () => {
  const started = await callOk(c, 'start_job', { type: 'classification', idempotency_key: 'zoo-1', request: { limit: 10 } });
  assert.equal(started.reused, false);
  const job = started.job as Row;
  assert.deepEqual(Object.keys(job).sort(), DESCRIPTOR_FIELDS);
  assert.ok(['queued', 'running'].includes(job.state as string));
  for (const f of ['owner_fingerprint', 'principal_fingerprint', 'client_fingerprint', 'grant_fingerprint', 'input_identity'])
    assert.match(job[f] as string, DIGEST, f);
  assert.deepEqual(job.required_capabilities, ['filesystem:project:read', 'ontology:read']);
  assert.equal(job.result_discriminator, 'classification.v1');
  assert.equal(job.policy_digest, null);
  assert.deepEqual(Object.keys(job.base_revision as Row).sort(), [
    'document_fingerprint',
    'semantic_fingerprint',
    'session_revision',
    'workspace_id',
  ]);

  classified = await finished(c, job.job_id as string);
  assert.equal(classified.state, 'succeeded', JSON.stringify(classified.error));
  assert.ok((classified.progress_sequence as number) > (job.progress_sequence as number));
  const result = classified.result as Row;
  assert.deepEqual(result.reasoner, { id: 'el', name: 'Athene EL++ Classifier 0.1.0' });
  assert.deepEqual(result.consistency, { status: 'consistent' });
  assert.equal(result.complete, true);
  const edges = ((result.taxonomy as Row).subclass_edges as Row).items as Row[];
  assert.ok(
    edges.some((e) => e.sub === Z + 'Puppy' && e.super === Z + 'Dog'),
    JSON.stringify(edges),
  );
  assert.ok(edges.some((e) => e.sub === Z + 'Dog' && e.super === Z + 'Animal'));
  assert.deepEqual(((result.taxonomy as Row).equivalent_groups as Row).items, [[Z + 'Dog', Z + 'Hound']]);
  const [artifact] = result.artifacts as Row[];
  assert.ok(artifact);
  assert.equal(artifact.artifact_id, result.taxonomy_artifact_id);
  assert.match(artifact.sha256 as string, DIGEST);
  assert.equal(JSON.stringify(classified).includes(served.t.home), false, 'no private path is shown');

  const again = await callOk(c, 'start_job', { type: 'classification', idempotency_key: 'zoo-1', request: { limit: 10 } });
  assert.equal(again.reused, true);
  assert.equal((again.job as Row).job_id, job.job_id);
  const conflict = await call(c, 'start_job', { type: 'classification', idempotency_key: 'zoo-1', request: { limit: 5 } });
  assert.equal(conflict.isError, true);
  assert.equal(conflict.body.error_code, 'idempotency_conflict');
});

test('the structural reasoner reports consistency and satisfiability as unsupported, not as a verdict', async () => {
  await callOk(c, 'set_reasoner', { reasoner: 'structural' });
  try {
    const { job } = await callOk(c, 'start_job', { type: 'classification', idempotency_key: 'zoo-structural', request: {} });
    const done = await finished(c, (job as Row).job_id as string);
    const result = done.result as Row;
    assert.equal((result.consistency as Row).status, 'unsupported');
    assert.equal((result.satisfiability as Row).status, 'unsupported');
  } finally {
    await callOk(c, 'set_reasoner', { reasoner: 'el' });
  }
});

test('start_job refuses bad requests precisely and starts nothing', async () => {
  const before = ((await callOk(c, 'list_jobs')).jobs as Row[]).length;
  const cases: [Record<string, unknown>, string][] = [
    [{ type: 'classification', idempotency_key: 'x', request: { limit: 10_001 } }, 'invalid_argument'],
    [{ type: 'classification', idempotency_key: 'x', request: { bogus: 1 } }, 'invalid_argument'],
    [{ type: 'classification', idempotency_key: '-bad', request: {} }, 'invalid_argument'],
    [{ type: 'teleport', idempotency_key: 'x', request: {} }, 'invalid_argument'],
  ];
  for (const [args, code] of cases) {
    const r = await call(c, 'start_job', args);
    assert.equal(r.isError, true, JSON.stringify(args));
    assert.equal(r.body.error_code, code, JSON.stringify(r.body));
  }
  assert.equal(((await callOk(c, 'list_jobs')).jobs as Row[]).length, before);
  const unknown = await call(c, 'get_job', { job_id: '00000000-0000-4000-8000-000000000000' });
  assert.equal(unknown.body.error_code, 'unknown_job');
});

test("list_jobs pages the owner's jobs newest first; a cursor is refused once the list changed", async () => {
  const all = (await callOk(c, 'list_jobs')).jobs as Row[];
  assert.ok(all.length >= 2);
  const created = all.map((j) => j.created_at as string);
  assert.deepEqual(created, [...created].sort().reverse());
  const seen: string[] = [];
  let page = await callOk(c, 'list_jobs', { limit: 1 });
  const firstCursor = page.next_cursor as string;
  for (;;) {
    seen.push(...(page.jobs as Row[]).map((j) => j.job_id as string));
    if (page.next_cursor === undefined) break;
    page = await callOk(c, 'list_jobs', { limit: 1, cursor: page.next_cursor });
  }
  assert.deepEqual(
    seen,
    all.map((j) => j.job_id),
  );
  // Rows are summaries: a classification's result (taxonomy and all) comes only from get_job.
  for (const row of all) {
    assert.equal('result' in row, false, JSON.stringify(row).slice(0, 200));
    const job = (await callOk(c, 'get_job', { job_id: row.job_id })).job as Row;
    assert.equal(row.result_available, job.result !== null);
    assert.equal(row.state, job.state);
  }
  assert.ok(
    all.some((j) => j.result_available === true),
    'a finished job with a result is listed as having one',
  );
  for (const limit of [0, 101])
    assert.equal((await call(c, 'list_jobs', { limit })).body.error_code, 'invalid_argument', `limit ${limit} is out of range`);
  await callOk(c, 'start_job', { type: 'classification', idempotency_key: 'zoo-paging', request: {} });
  const stale = await call(c, 'list_jobs', { limit: 1, cursor: firstCursor });
  assert.equal(stale.body.error_code, 'cursor_invalid');
});

test('export_job_artifact copies atomically, never clobbers, overwrites only the expected file and keeps a backup', async () => {
  const result = classified.result as Row;
  const artifactId = result.taxonomy_artifact_id as string;
  const jobId = classified.job_id as string;
  const outDir = path.join(dir, 'out');
  await mkdir(outDir);
  const target = path.join(outDir, 'taxonomy.json');
  const base = { job_id: jobId, artifact_id: artifactId, destination: target, confirm: true };

  const r = await callOk(c, 'export_job_artifact', base);
  const text = await readFile(target);
  assert.deepEqual(
    { ...r },
    {
      exported: true,
      job_id: jobId,
      artifact_id: artifactId,
      path: target,
      sha256: sha256Digest(text),
      bytes: text.byteLength,
      overwritten: false,
      backup_path: null,
      interactive_write_confirmation: false,
    },
  );
  assert.equal(r.sha256, at(result.artifacts as Row[], 0).sha256);
  assert.ok((JSON.parse(text.toString()) as { edges: unknown[] }).edges.length >= 2);

  const exists = await call(c, 'export_job_artifact', base);
  assert.equal(exists.body.error_code, 'target_exists');
  await writeFile(target, 'edited by hand\n');
  const noDigest = await call(c, 'export_job_artifact', { ...base, overwrite: true });
  assert.equal(noDigest.body.error_code, 'invalid_argument');
  const wrong = await call(c, 'export_job_artifact', { ...base, overwrite: true, expected_target_digest: sha256Digest(text) });
  assert.equal(wrong.body.error_code, 'digest_mismatch');
  assert.equal(await readFile(target, 'utf8'), 'edited by hand\n', 'a refused overwrite leaves the file alone');

  const over = await callOk(c, 'export_job_artifact', {
    ...base,
    overwrite: true,
    expected_target_digest: sha256Digest('edited by hand\n'),
  });
  assert.equal(over.overwritten, true);
  assert.equal(over.backup_path, target + '.bak');
  assert.equal(await readFile(target + '.bak', 'utf8'), 'edited by hand\n');
  assert.deepEqual(await readFile(target), text);

  const onto = await callOk(c, 'export_job_artifact', { ...base, destination: path.join(outDir, 'fresh.json'), overwrite: true });
  assert.deepEqual([onto.overwritten, onto.backup_path], [false, null], 'overwrite onto a new file needs no digest: nothing is replaced');
  assert.deepEqual(await readFile(path.join(outDir, 'fresh.json')), text);

  const noParent = await call(c, 'export_job_artifact', { ...base, destination: path.join(dir, 'missing', 'x.json') });
  assert.equal(noParent.body.error_code, 'parent_not_found');
  await assert.rejects(stat(path.join(dir, 'missing')), { code: 'ENOENT' });
  assert.equal((await call(c, 'export_job_artifact', { ...base, confirm: false })).body.error_code, 'invalid_argument');
  assert.equal(
    (await call(c, 'export_job_artifact', { ...base, artifact_id: '00000000-0000-4000-8000-000000000001' })).body.error_code,
    'unknown_artifact',
  );
  assert.deepEqual((await readdir(outDir)).sort(), ['fresh.json', 'taxonomy.json', 'taxonomy.json.bak'], 'no temp file is left behind');
});

test('a project_qc job runs the policy gate and keeps the report; a v2 policy can narrow the job types', async () => {
  await withProjectPolicy(
    dir,
    'version: 2\nproject_id: zoo\nroot_ontology: http://example.org/zoo\njobs:\n  allowed_types: [project_qc]\n',
    async () => {
      const { job } = await callOk(c, 'start_job', { type: 'project_qc', idempotency_key: 'qc-1', request: { limit: 5 } });
      assert.match((job as Row).policy_digest as string, DIGEST);
      const done = await finished(c, (job as Row).job_id as string);
      assert.equal(done.state, 'succeeded', JSON.stringify(done.error));
      const result = done.result as Row;
      assert.ok(['pass', 'fail', 'error'].includes(result.gate as string));
      assert.equal(result.policy_loaded, true);
      assert.equal(result.policy_digest, (job as Row).policy_digest);
      assert.equal(at(result.artifacts as Row[], 0).artifact_id, result.report_artifact_id);

      const refused = await call(c, 'start_job', { type: 'classification', idempotency_key: 'not-allowed', request: {} });
      assert.equal(refused.body.error_code, 'job_type_not_allowed');
    },
  );
});

test('a policy can switch jobs off; an invalid policy admits only project_qc, which reports the diagnostics itself', async () => {
  await withProjectPolicy(
    dir,
    'version: 2\nproject_id: zoo\nroot_ontology: http://example.org/zoo\njobs:\n  enabled: false\n',
    async () => {
      const off = await call(c, 'start_job', { type: 'classification', idempotency_key: 'off', request: {} });
      assert.equal(off.body.error_code, 'jobs_disabled');
    },
  );
  await withProjectPolicy(dir, 'version: 2\nproject_id: zoo\nsurprise: 1\n', async () => {
    const refused = await call(c, 'start_job', { type: 'classification', idempotency_key: 'invalid', request: {} });
    assert.equal(refused.body.error_code, 'policy_invalid');
    const { job } = await callOk(c, 'start_job', { type: 'project_qc', idempotency_key: 'invalid-qc', request: {} });
    const done = await finished(c, (job as Row).job_id as string);
    assert.equal(done.state, 'succeeded', JSON.stringify(done.error));
    assert.equal((done.result as Row).gate, 'error');
    assert.equal((done.result as Row).policy_loaded, true);
  });
});

test('a semantic_diff job compares the active ontology with a project document, asserted only', async () => {
  const right = path.join(dir, 'zoo-next.ofn');
  await writeFile(
    right,
    ONTOLOGY.replace('SubClassOf(:Puppy :Dog)', 'SubClassOf(:Puppy :Dog)\nDeclaration(Class(:Cat))\nSubClassOf(:Cat :Animal)'),
  );
  const { job } = await callOk(c, 'start_job', { type: 'semantic_diff', idempotency_key: 'diff-1', request: { right_document: right } });
  const done = await finished(c, (job as Row).job_id as string);
  assert.equal(done.state, 'succeeded', JSON.stringify(done.error));
  const result = done.result as Row;
  assert.equal(result.mode, 'asserted');
  assert.equal(result.identical, false);
  assert.equal(at(result.artifacts as Row[], 0).artifact_id, result.report_artifact_id);
  for (const request of [
    { right_document: 'http://example.org/zoo.ofn' },
    { right_document: right, include_imports: true },
    { right_document: right, network: 'allow' },
  ]) {
    const r = await call(c, 'start_job', { type: 'semantic_diff', idempotency_key: 'diff-bad', request });
    assert.equal(r.body.error_code, 'invalid_argument', JSON.stringify(r.body));
  }
});

test('an inference_materialization job previews into the materialization store; commit_materialization takes it from there', async () => {
  const request = {
    categories: ['subclass_axioms'],
    destination: { kind: 'new_ontology', identifier: 'http://example.org/zoo-inferred' },
    provenance: { generator: 'job-test', purpose: 'test' },
    limits: { max_axioms_per_category: 100, max_axioms_total: 100, max_bytes: 65536, timeout_ms: 30000 },
  };
  const { job } = await callOk(c, 'start_job', { type: 'inference_materialization', idempotency_key: 'mat-1', request });
  const done = await finished(c, (job as Row).job_id as string);
  assert.equal(done.state, 'succeeded', JSON.stringify(done.error));
  const result = done.result as Row;
  assert.equal(typeof result.materialization_artifact_id, 'string');
  assert.match(result.materialization_digest as string, DIGEST);
  assert.equal(typeof result.axiom_count, 'number');
  assert.equal(at(result.artifacts as Row[], 0).artifact_id, result.report_artifact_id);
  const committed = await call(c, 'commit_materialization', {
    artifact_id: result.materialization_artifact_id,
    artifact_fingerprint: result.materialization_artifact_fingerprint,
    confirm: true,
  });
  assert.equal(committed.isError, false, JSON.stringify(committed.body));
  await callOk(c, 'set_active_ontology', { ontology_iri: 'http://example.org/zoo' });
  const tooMany = await call(c, 'start_job', {
    type: 'inference_materialization',
    idempotency_key: 'mat-2',
    request: { ...request, limits: { ...request.limits, max_axioms_total: 501 } },
  });
  assert.equal(tooMany.body.error_code, 'invalid_argument');
});

test('a job of another principal answers like an unknown one', async () => {
  const jobId = classified.job_id as string;
  const grant = await authorize(served.t, await registerClient(served.t, 'Other agent'));
  const other = await connect(served.t, grant.accessToken);
  try {
    for (const [tool, args] of [
      ['get_job', { job_id: jobId }],
      ['cancel_job', { job_id: jobId }],
      [
        'export_job_artifact',
        {
          job_id: jobId,
          artifact_id: (classified.result as Row).taxonomy_artifact_id,
          destination: path.join(dir, 'stolen.json'),
          confirm: true,
        },
      ],
    ] as const) {
      const r = await call(other, tool, args);
      assert.equal(r.body.error_code, 'unknown_job', `${tool}: ${JSON.stringify(r.body)}`);
    }
    assert.deepEqual((await callOk(other, 'list_jobs')).jobs, []);
    const mine = await callOk(c, 'list_jobs', { limit: 1 });
    assert.equal(
      (await call(other, 'list_jobs', { limit: 1, cursor: mine.next_cursor })).body.error_code,
      'cursor_invalid',
      'a cursor is bound to its owner',
    );
    await assert.rejects(stat(path.join(dir, 'stolen.json')), { code: 'ENOENT' });
  } finally {
    await other.close();
  }
});

test('cancelling: a queued job is cancelled at once, running ones go cancel_pending and stop; closing the window deletes the artifacts', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-jobs-home-'));
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'athene-jobs-big-'));
  let t: TestServer | null = null;
  try {
    const bigFile = path.join(scratch, 'big.ofn');
    // slow enough that two jobs are still running while a third waits
    await writeFile(bigFile, slowOntology(2000));
    t = await startTestServer([bigFile], {}, home);
    const cb = await connect(t);
    await callOk(cb, 'set_reasoner', { reasoner: 'el' });
    const ids: string[] = [];
    for (const key of ['big-1', 'big-2', 'big-3'])
      ids.push(
        ((await callOk(cb, 'start_job', { type: 'classification', idempotency_key: key, request: {} })).job as Row).job_id as string,
      );
    const queued = await callOk(cb, 'cancel_job', { job_id: ids[2] });
    assert.equal(queued.outcome, 'cancelled');
    assert.equal((queued.job as Row).state, 'cancelled');
    assert.equal((queued.job as Row).cancellation_effective, true);
    // a job queued behind them whose window changes before it runs refuses to judge the new content
    const stale = ((await callOk(cb, 'start_job', { type: 'project_qc', idempotency_key: 'stale', request: {} })).job as Row)
      .job_id as string;
    assert.equal(((await callOk(cb, 'get_job', { job_id: stale })).job as Row).state, 'queued');
    await callOk(cb, 'add_axiom', { axiom_type: 'subclass_of', sub: 'http://example.org/big#A0', super: 'http://example.org/big#Extra' });
    for (const id of ids.slice(0, 2)) {
      const running = await callOk(cb, 'cancel_job', { job_id: id });
      assert.equal(running.outcome, 'cancel_requested');
      assert.equal((running.job as Row).state, 'cancel_pending');
      assert.equal((running.job as Row).cancellation_requested, true);
      const stopped = await finished(cb, id);
      assert.equal(stopped.state, 'cancelled');
      assert.equal(stopped.cancellation_effective, true);
      assert.equal(stopped.result, null);
    }
    assert.equal((await callOk(cb, 'cancel_job', { job_id: ids[2] })).outcome, 'already_terminal');
    const staleJob = await finished(cb, stale);
    assert.equal(staleJob.state, 'failed');
    assert.deepEqual([(staleJob.error as Row).code, (staleJob.error as Row).retryable], ['job_inputs_changed', true]);
    // a job on a small ontology keeps its artifact until the window closes
    const small = path.join(scratch, 'zoo.ofn');
    await writeFile(small, ONTOLOGY);
    await callOk(cb, 'load_ontology', { source: small });
    const { job } = await callOk(cb, 'start_job', { type: 'classification', idempotency_key: 'small', request: {} });
    assert.equal((await finished(cb, (job as Row).job_id as string)).state, 'succeeded');
    const jobsDir = path.join(home, 'jobs');
    assert.equal((await readdir(jobsDir)).length, 1);
    await cb.close();
    await t.stop();
    t = null;
    assert.deepEqual(await readdir(jobsDir), [], 'the window deleted its artifacts when it closed');
  } finally {
    await t?.stop();
    await rm(home, { recursive: true, force: true });
    await rm(scratch, { recursive: true, force: true });
  }
});
