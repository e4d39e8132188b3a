// Issue 13 §2 and issue 14.4 against the real server: the private directory is never readable through a
// tool, a non-admin principal without a policy is confined to the active document's tree, FIFOs, devices
// and /proc files are refused at once (and never starve the I/O threads that OAuth persistence needs),
// parse errors quote at most 40 characters, and relative paths resolve against the project root.

import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { call, callOk, connect, startTestServer, type TestServer } from '../server/support.js';
import { authorize, registerClient } from '../server/oauth-grant.js';
import { at } from '../support/at.js';

const DOC =
  '@prefix : <http://example.org/sec#> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n<http://example.org/sec> a owl:Ontology .\n:A a owl:Class .\n';

interface Served {
  t: TestServer;
  dir: string;
  file: string;
}

let shared: Promise<Served> | undefined;

/**
 * The server the tests share: each adds only files of its own beside the document, clients and grants of its
 * own, and refused or unchanged-content calls, so none sees another's effects. Started by the first test.
 */
function served(): Promise<Served> {
  shared ??= (async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-sec-'));
    const file = path.join(dir, 'doc.ttl');
    await writeFile(file, DOC);
    return { t: await startTestServer([file]), dir, file };
  })();
  return shared;
}

after(async () => {
  const s = await shared?.catch(() => undefined);
  if (s === undefined) return;
  await s.t.stop();
  await rm(s.dir, { recursive: true, force: true });
});

const textOf = (r: { body: Record<string, unknown> }): string => JSON.stringify(r.body);

test('no principal reads the private directory: the static token and the directory secret stay private', async () => {
  const s = await served();
  const admin = await connect(s.t);
  const clientId = await registerClient(s.t, 'Reader');
  const grant = await authorize(s.t, clientId, 'read filesystem:project:read');
  const reader = await connect(s.t, grant.accessToken);
  const secrets = [path.join(s.t.home, 'token'), s.t.home + '/./token', path.join(s.dir, '..', path.basename(s.t.home), 'token')];
  await writeFile(path.join(s.dir, 'link.ttl'), '').then(() => rm(path.join(s.dir, 'link.ttl')));
  execFileSync('ln', ['-s', path.join(s.t.home, 'token'), path.join(s.dir, 'link.ttl')]);
  for (const client of [admin, reader]) {
    for (const target of [...secrets, path.join(s.dir, 'link.ttl')]) {
      const r = await call(client, 'diff_ontologies', { right_document: target });
      assert.equal(r.isError, true, target);
      assert.ok(!textOf(r).includes(s.t.token), 'the token never appears in an answer');
      assert.equal(r.body.error_code, 'authorization_denied', textOf(r));
      assert.match(textOf(r), /private directory/);
    }
    const load = await call(client, 'load_ontology', { source: path.join(s.t.home, 'token') });
    assert.equal(load.isError, true);
    assert.ok(!textOf(load).includes(s.t.token));
  }
  const save = await call(admin, 'save_ontology', { path: path.join(s.t.home, 'evil.ttl') });
  assert.equal(save.isError, true);
  await assert.rejects(stat(path.join(s.t.home, 'evil.ttl')));
  await admin.close();
  await reader.close();
});

test('without a policy a non-admin principal is confined to the active document directory; the local admin is not', async () => {
  const s = await served();
  const outside = await mkdtemp(path.join(os.tmpdir(), 'athene-outside-'));
  try {
    const other = path.join(outside, 'other.ttl');
    await writeFile(other, DOC);
    const clientId = await registerClient(s.t, 'Narrow');
    const grant = await authorize(s.t, clientId, 'read filesystem:project:read');
    const reader = await connect(s.t, grant.accessToken);
    for (const target of [other, '/etc/passwd', '/proc/self/environ']) {
      const r = await call(reader, 'diff_ontologies', { right_document: target });
      assert.equal(r.isError, true, target);
      assert.equal(r.body.error_code, 'authorization_denied', target);
    }
    const inside = await call(reader, 'diff_ontologies', { right_document: s.file });
    assert.equal(inside.isError, false, textOf(inside));
    const admin = await connect(s.t);
    const ok = await call(admin, 'diff_ontologies', { right_document: other });
    assert.equal(ok.isError, false, textOf(ok));
    await reader.close();
    await admin.close();
  } finally {
    await rm(outside, { recursive: true, force: true });
  }
});

test('parse errors quote at most 40 characters of the offending text', async () => {
  const s = await served();
  const secret = 'S3CRET' + 'x'.repeat(90) + ' and more words ' + 'y'.repeat(50);
  const bad = path.join(s.dir, 'bad.ttl');
  await writeFile(bad, `${secret}\n`);
  const admin = await connect(s.t);
  for (const tool of ['diff_ontologies', 'load_ontology']) {
    const r = await call(admin, tool, tool === 'load_ontology' ? { source: bad } : { right_document: bad });
    assert.equal(r.isError, true);
    assert.ok(!textOf(r).includes('x'.repeat(41)), textOf(r));
    assert.ok(!textOf(r).includes('y'.repeat(41)), textOf(r));
  }
  await admin.close();
});

test('FIFOs, devices and /proc files are refused at once; OAuth registration and revocation keep working', async () => {
  const s = await served();
  const fifo = path.join(s.dir, 'trap.ttl');
  execFileSync('mkfifo', [fifo]);
  const admin = await connect(s.t);
  const calls = [];
  for (let i = 0; i < 6; i++) calls.push(call(admin, 'load_ontology', { source: fifo }));
  calls.push(call(admin, 'diff_ontologies', { right_document: fifo }));
  calls.push(call(admin, 'load_ontology', { source: '/dev/zero' }));
  calls.push(call(admin, 'load_ontology', { source: '/dev/tty' }));
  calls.push(call(admin, 'diff_ontologies', { right_document: '/proc/self/environ' }));
  calls.push(call(admin, 'shacl_validate', { shapes_path: fifo }));
  const results = await Promise.all(calls);
  for (const r of results) {
    assert.equal(r.isError, true, textOf(r));
    assert.match(textOf(r), /FIFO|device|pseudo-file|ENXIO|not a readable file/, textOf(r));
  }
  assert.match(textOf(at(results, 0)), /FIFO/);
  // the I/O threads are free: a registration, a token, a revocation and a save all complete
  const clientId = await registerClient(s.t, 'After the trap');
  const grant = await authorize(s.t, clientId, 'read');
  const revoke = await fetch(new URL('/oauth/revoke', s.t.server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: grant.accessToken, client_id: clientId }),
  });
  assert.equal(revoke.status, 200);
  const refused = await fetch(new URL('/mcp', s.t.server.url), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${grant.accessToken}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
  });
  assert.equal(refused.status, 401);
  await callOk(admin, 'save_ontology', {});
  await admin.close();
});

test('a file over the document size limit is refused before it is read', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-sec-'));
  const file = path.join(dir, 'doc.ttl');
  await writeFile(file, DOC);
  const t = await startTestServer([file], { max_document_bytes: String(DOC.length + 10) });
  try {
    const big = path.join(dir, 'big.ttl');
    await writeFile(big, DOC + '#'.repeat(100) + '\n');
    const admin = await connect(t);
    const r = await call(admin, 'load_ontology', { source: big });
    assert.equal(r.body.error_code, 'file_too_large', textOf(r));
    await admin.close();
  } finally {
    await t.stop();
    await rm(dir, { recursive: true, force: true });
  }
});

test('relative paths resolve against the active document directory for every tool (issue 14.4)', async () => {
  const s = await served();
  const admin = await connect(s.t);
  const saved = await callOk(admin, 'save_ontology', { path: 'copy.ttl' });
  assert.equal(saved.path, path.join(s.dir, 'copy.ttl'));
  assert.match(await readFile(path.join(s.dir, 'copy.ttl'), 'utf8'), /example\.org\/sec/);
  const diff = await callOk(admin, 'diff_ontologies', { right_document: 'copy.ttl' });
  assert.equal(diff.right_document, path.join(s.dir, 'copy.ttl'));
  await writeFile(
    path.join(s.dir, 'shapes.ttl'),
    '@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n<http://example.org/shape> a sh:NodeShape ; sh:targetClass owl:Class .\n',
  );
  const shacl = await call(admin, 'shacl_validate', { shapes_path: 'shapes.ttl' });
  assert.equal(shacl.isError, false, textOf(shacl));
  const qc = await call(admin, 'run_qc_suite', { stages: ['shacl'], shacl_shapes_path: 'shapes.ttl' });
  assert.ok(!/not found|ENOENT/.test(textOf(qc)), textOf(qc));
  const policy = await call(admin, 'get_project_policy', { policy_path: 'missing.yaml' });
  assert.equal(policy.isError, true);
  assert.match(textOf(policy), new RegExp(path.join(s.dir, 'missing.yaml').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')));
  await admin.close();
});
