// The project audit stream through the real server: every tools/call is recorded (allowed and denied, with
// argument names and sizes but never their values or the bearer token), and export_audit_log merges the
// project's streams: dry run, commit under a valid policy, refusal without one, a symlinked source refused.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Ontology } from '../../src/model/ontology.js';
import { auditRecorder } from '../../src/audit/stream.js';
import { documentProjectHash, policyProjectHash, projectStreamsDir } from '../../src/audit/project.js';
import { mergeStreams } from '../../src/audit/merge.js';
import type { AuditEvent } from '../../src/audit/event.js';
import { call, callOk, principalWith, serveAndConnect, serveTempOntology, type ServedClient } from './support.js';
import { runInContext, toolContext } from '../support/tool-context.js';
import { at } from '../support/at.js';

const IRI = 'http://example.org/zoo';
const TTL = `@prefix owl: <http://www.w3.org/2002/07/owl#> .\n<${IRI}> a owl:Ontology .\n<${IRI}#Cat> a owl:Class .\n`;
const SECRET_LABEL = 'a-label-value-that-must-never-be-audited';

let scratch: string;
let project: string;
let policyFile: string;
let served: ServedClient;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'athene-audit-log-'));
  project = path.join(scratch, 'project');
  policyFile = path.join(project, '.athene', 'project.yaml');
  await mkdir(path.dirname(policyFile), { recursive: true });
  await writeFile(path.join(project, 'zoo.ttl'), TTL);
  await writeFile(policyFile, `version: 1\nproject_id: zoo\nroot_ontology: ${IRI}\nroot_artifact: zoo.ttl\n`);
  served = await serveAndConnect([path.join(project, 'zoo.ttl')]);
});

after(async () => {
  await served.close();
  await rm(scratch, { recursive: true, force: true });
});

async function projectEvents(): Promise<AuditEvent[]> {
  return [...(await mergeStreams(projectStreamsDir(served.t.home, await policyProjectHash(policyFile)))).events];
}

test('allowed and denied calls (a path-policy refusal denied, a mistyped argument allowed) are recorded with names and sizes, never values or the token', async () => {
  const c = served.c;
  assert.equal((await callOk(c, 'get_project_policy')).valid, true);
  await callOk(c, 'set_label', { entity: `${IRI}#Cat`, value: SECRET_LABEL });
  const bad = await call(c, 'get_entity', { entity: 'Cat', [SECRET_LABEL]: 1 });
  assert.equal(bad.body.error_code, 'invalid_argument');
  const missing = await call(c, 'get_entity', { entity: 'NoSuchThing' });
  // A path outside the policy's project root: the handler's policy refusal is a denial.
  const outside = await call(c, 'save_ontology', { path: path.join(scratch, 'outside.ttl') });
  assert.equal(outside.body.error_code, 'authorization_denied', JSON.stringify(outside.body));
  await call(c, 'export_audit_log', { dry_run: true });
  let events: AuditEvent[] = [];
  for (let i = 0; i < 100 && events.length < 6; i++) {
    events = await projectEvents().catch(() => []);
    if (events.length < 6) await new Promise((r) => setTimeout(r, 20));
  }
  const byOp = events.map((e) => [e.operation, e.outcome.status, e.outcome.error_code ?? null]);
  assert.deepEqual(byOp.slice(0, 5), [
    ['get_project_policy', 'allowed', null],
    ['set_label', 'allowed', null],
    // a mistyped argument is a failed call, not a refused one
    ['get_entity', 'allowed', 'invalid_argument'],
    ['get_entity', 'allowed', missing.isError ? (missing.body.error_code as string) : null],
    ['save_ontology', 'denied', 'authorization_denied'],
  ]);
  const label = at(events, 1);
  assert.equal(label.gate.mutating, true);
  assert.deepEqual(
    label.change.arguments.map((a) => a.name),
    ['entity', 'value'],
  );
  assert.equal(label.target.ontology_iri, IRI);
  assert.equal(label.client.client_id, 'static-token');
  assert.match(at(events, 0).policy_digest ?? '', /^sha256:[0-9a-f]{64}$/, 'the policy digest a call reported is kept');
  const dir = projectStreamsDir(served.t.home, await policyProjectHash(policyFile));
  for (const name of await readdir(dir)) {
    const text = await readFile(path.join(dir, name), 'utf8');
    assert.ok(!text.includes(SECRET_LABEL), 'argument values and names of refused arguments stay out');
    assert.ok(!text.includes(served.t.token), 'the bearer token never reaches the stream');
    assert.equal((await stat(path.join(dir, name))).mode & 0o777, 0o600);
  }
  assert.equal((await stat(dir)).mode & 0o777, 0o700);
});

test('gate refusals (capabilities, read-only, declined write) are recorded as denied', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-audit-gate-'));
  try {
    const onto = () => new Ontology();
    const cases: [ReturnType<typeof toolContext>, string][] = [
      [toolContext([onto()], principalWith(['ontology:read']), { audit_home: home }), 'authorization_denied'],
      [toolContext([onto()], undefined, { audit_home: home, read_only: true }), 'read_only'],
      [toolContext([onto()], undefined, { audit_home: home, confirm_each_write: true, approval_timeout_s: 0 }), 'write_declined'],
    ];
    for (const [ctx, code] of cases) {
      const r = await runInContext('add_axiom', { axiom_type: 'declaration', entity: 'X', entity_type: 'class' }, ctx);
      assert.equal(r.body.error_code, code);
    }
    await auditRecorder(home).flushed();
    const dir = projectStreamsDir(home, await documentProjectHash(null));
    // three workspaces: events of one millisecond order by workspace id, so look them up by error code
    const events = new Map((await mergeStreams(dir)).events.map((e) => [e.outcome.error_code, e]));
    assert.deepEqual([...events.keys()].sort(), cases.map(([, code]) => code).sort());
    for (const e of events.values()) assert.equal(e.outcome.status, 'denied');
    assert.equal(events.get('write_declined')?.gate.confirmation, 'declined');
    assert.deepEqual(events.get('authorization_denied')?.capabilities, ['ontology:read']);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test('export_audit_log: dry run writes nothing; a commit writes the sorted merge atomically', async () => {
  const c = served.c;
  const target = path.join(await realpath(project), '.athene', 'audit-export.jsonl');
  const dry = await callOk(c, 'export_audit_log');
  assert.deepEqual(dry, { exported: false, dry_run: true, path: target });
  await assert.rejects(stat(target), { code: 'ENOENT' });
  const done = await callOk(c, 'export_audit_log', { dry_run: false, output: '.athene/audit-export-1.jsonl' });
  const written = path.join(path.dirname(target), 'audit-export-1.jsonl');
  const bytes = await readFile(written);
  assert.deepEqual(done, {
    exported: true,
    dry_run: false,
    path: written,
    sha256: 'sha256:' + createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
    event_count: bytes.toString('utf8').split('\n').length - 1,
    source_count: 1,
  });
  assert.ok((done.event_count as number) >= 6);
  const lines = bytes
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as AuditEvent);
  const keys = lines.map((e) => `${e.timestamp}|${e.workspace_id}|${String(e.sequence).padStart(8, '0')}|${e.event_id}`);
  assert.deepEqual(keys, [...keys].sort());
  assert.equal((await stat(written)).mode & 0o777, 0o600);
  assert.ok(!bytes.toString('utf8').includes(SECRET_LABEL));
});

test('export_audit_log refuses other output names, absolute and escaping paths', async () => {
  for (const output of [
    '../audit-export.jsonl',
    '/tmp/audit-export.jsonl',
    '.athene/other.jsonl',
    '.athene/audit-export.json',
    '.athene/x/audit-export.jsonl',
  ]) {
    const r = await call(served.c, 'export_audit_log', { dry_run: false, output });
    assert.equal(r.body.error_code, 'invalid_argument', output);
    assert.equal(r.body.exported, false);
  }
});

test('a symlinked source refuses the export and nothing is written', async () => {
  const dir = projectStreamsDir(served.t.home, await policyProjectHash(policyFile));
  const outside = path.join(scratch, 'planted.jsonl');
  await writeFile(outside, '', { mode: 0o600 });
  const planted = path.join(dir, 'planted.0.jsonl');
  await symlink(outside, planted);
  try {
    const r = await call(served.c, 'export_audit_log', { dry_run: false, output: '.athene/audit-export-2.jsonl' });
    assert.equal(r.body.error_code, 'audit_source_refused');
    assert.equal(r.body.source, 'planted.0.jsonl');
    assert.equal(r.body.exported, false);
    await assert.rejects(stat(path.join(project, '.athene', 'audit-export-2.jsonl')), { code: 'ENOENT' });
    assert.equal((await call(served.c, 'export_audit_log')).body.error_code, 'audit_source_refused', 'a dry run checks the sources too');
  } finally {
    await rm(planted);
  }
});

test('without a project policy a dry run previews and a commit is refused', async () => {
  const s = await serveTempOntology('athene-audit-nopolicy-', 'free.ttl', TTL);
  try {
    await callOk(s.c, 'get_active_ontology');
    const dry = await callOk(s.c, 'export_audit_log');
    assert.equal(dry.exported, false);
    assert.equal(dry.path, path.join(s.dir, '.athene', 'audit-export.jsonl'));
    const commit = await call(s.c, 'export_audit_log', { dry_run: false });
    assert.equal(commit.isError, true);
    assert.equal(commit.body.error_code, 'policy_required');
    assert.equal(commit.body.exported, false);
    await assert.rejects(stat(path.join(s.dir, '.athene')), { code: 'ENOENT' });
  } finally {
    await s.close();
  }
});

test('export_audit_log in a server-less context (no private directory) says so', async () => {
  const r = await runInContext('export_audit_log', {}, toolContext([new Ontology()]));
  assert.equal(r.body.error_code, 'audit_unavailable');
});
