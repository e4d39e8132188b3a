// Issue 13 §5 against the real server: save_ontology keeps the document's mode and stale temporary files of
// ours are cleaned at start; loopback redirect URIs match any port (RFC 8252 §7.3); /instances shows
// process ids and absolute paths only to server:admin.

import test from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { s256Challenge } from '../../src/auth/oauth/pkce.js';
import { callOk, connect, fixture, raw, sharedServer, startTestServer } from '../server/support.js';
import { authorize, registerClient } from '../server/oauth-grant.js';
import { at } from '../support/at.js';

// the redirect and /instances tests change nothing on the server and share one
const zoo = sharedServer([fixture('zoo.ttl')]);

const DOC = '@prefix owl: <http://www.w3.org/2002/07/owl#> .\n<http://example.org/m> a owl:Ontology .\n';

test('save_ontology keeps a 0600 document 0600; stale temporary files of a dead process are removed at start', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-mode-'));
  const file = path.join(dir, 'doc.ttl');
  await writeFile(file, DOC);
  await chmod(file, 0o600);
  const stale = path.join(dir, `.doc.ttl.999999.${randomBytes(6).toString('hex')}.tmp`);
  const foreign = path.join(dir, '.other.ttl.999999.abcdefabcdef.tmp');
  await writeFile(stale, 'half a save');
  await writeFile(foreign, 'not ours to judge');
  const t = await startTestServer([file]);
  try {
    const names = await readdir(dir);
    assert.ok(!names.includes(path.basename(stale)), 'the stale temporary file was removed');
    assert.ok(names.includes(path.basename(foreign)), 'a temporary file of another document is left alone');
    const c = await connect(t);
    await callOk(c, 'save_ontology', {});
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.deepEqual(
      (await readdir(dir)).filter((n) => n.endsWith('.tmp')),
      [path.basename(foreign)],
      'no temporary file is left behind',
    );
    await c.close();
  } finally {
    await t.stop();
    await rm(dir, { recursive: true, force: true });
  }
});

test('a loopback redirect URI matches on any port; another host or path does not', async () => {
  const { t } = await zoo();
  const reg = await fetch(new URL('/oauth/register', t.server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Native', redirect_uris: ['http://127.0.0.1/callback'] }),
  });
  const clientId = ((await reg.json()) as { client_id: string }).client_id;
  const ask = (redirect: string) =>
    fetch(
      new URL(
        `/oauth/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: redirect, response_type: 'code', code_challenge: s256Challenge('v'.repeat(43)), code_challenge_method: 'S256' })}`,
        t.server.url,
      ),
      { redirect: 'manual' },
    );
  assert.equal((await ask('http://127.0.0.1:53123/callback')).status, 200, 'an ephemeral port is accepted');
  assert.equal((await ask('http://127.0.0.1:53123/elsewhere')).status, 400);
  assert.equal((await ask('http://localhost:53123/callback')).status, 400, 'the host must match');
});

test('/instances shows process ids and absolute paths only to server:admin', async () => {
  const { t } = await zoo();
  const grant = await authorize(t, await registerClient(t, 'Reader'), 'read');
  const asReader = (await (await raw(t, { path: '/instances', headers: { authorization: `Bearer ${grant.accessToken}` } })).json()) as {
    instances: Record<string, unknown>[];
  };
  const asAdmin = (await (await raw(t, { path: '/instances', headers: { authorization: `Bearer ${t.token}` } })).json()) as {
    instances: Record<string, unknown>[];
  };
  assert.equal(at(asAdmin.instances, 0).pid, process.pid);
  assert.equal(at(asAdmin.instances, 0).active_document, fixture('zoo.ttl'));
  assert.equal('pid' in at(asReader.instances, 0), false);
  assert.equal(at(asReader.instances, 0).active_document, 'zoo.ttl');
  assert.ok(!JSON.stringify(asReader).includes(path.dirname(fixture('zoo.ttl'))));
});
