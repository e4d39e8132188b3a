import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Ontology } from '../../src/model/ontology.js';
import { checkLocalPath, checkRemote, hostAllowed } from '../../src/policy/path-rules.js';
import { resolvePolicy } from '../../src/policy/resolve.js';
import { loadSettings } from '../../src/settings/settings.js';
import { ToolFailure } from '../../src/tools/core/tool.js';
import { principalWith } from '../server/support.js';
import { toolContext } from '../support/tool-context.js';

const scratch = await mkdtemp(path.join(os.tmpdir(), 'athene-path-rules-'));
after(() => rm(scratch, { recursive: true, force: true }));

const ROOT_IRI = 'http://example.org/zoo';

async function projectWith(policyText: string): Promise<string> {
  const dir = await mkdtemp(path.join(scratch, 'p-'));
  await mkdir(path.join(dir, '.athene'));
  await writeFile(path.join(dir, '.athene', 'project.yaml'), policyText);
  await writeFile(path.join(dir, 'zoo.ttl'), '');
  return dir;
}

function contextIn(dir: string, capabilities?: readonly string[]) {
  const o = new Ontology();
  o.id = { iri: ROOT_IRI, versionIri: null };
  o.documentIri = path.join(dir, 'zoo.ttl');
  return toolContext([o], capabilities === undefined ? undefined : principalWith(capabilities));
}

const refusal = (code: string, deniedBy?: string) => (e: unknown) =>
  e instanceof ToolFailure &&
  e.code === code &&
  e.context.effects_prevented === true &&
  (deniedBy === undefined || e.context.denied_by === deniedBy);

test('allowed_hosts: exact host, optional port, "*." for subdomains only', () => {
  assert.equal(hostAllowed(['example.org'], 'https://example.org/x.ttl'), true);
  assert.equal(hostAllowed(['example.org'], 'https://EXAMPLE.org:8443/x.ttl'), true, 'no port in the entry: any port');
  assert.equal(hostAllowed(['example.org:8443'], 'https://example.org/x.ttl'), false);
  assert.equal(hostAllowed(['example.org:8443'], 'https://example.org:8443/x.ttl'), true);
  assert.equal(hostAllowed(['example.org'], 'https://evil-example.org/x.ttl'), false);
  assert.equal(hostAllowed(['*.example.org'], 'https://purl.example.org/x'), true);
  assert.equal(hostAllowed(['*.example.org'], 'https://example.org/x'), false);
  assert.equal(hostAllowed(['*.example.org'], 'https://badexample.org/x'), false);
});

test('a symlink inside the project root that points outside it is outside', async () => {
  const outside = await mkdtemp(path.join(scratch, 'out-'));
  const dir = await projectWith(`version: 1\nproject_id: zoo\nroot_ontology: ${ROOT_IRI}\n`);
  await symlink(outside, path.join(dir, 'escape'));
  const ctx = contextIn(dir);
  const res = await resolvePolicy(ctx);
  assert.equal(res.valid, true, JSON.stringify(res.errors));
  await assert.rejects(
    checkLocalPath(ctx, 't', path.join(dir, 'escape', 'new.ttl'), 'write', res),
    refusal('authorization_denied', 'project policy'),
  );
  assert.equal(await checkLocalPath(ctx, 't', path.join(dir, 'sub', 'new.ttl'), 'write', res), path.join(dir, 'sub', 'new.ttl'));
});

test('an invalid policy refuses everything but bootstrap and diagnostic access inside its root', async () => {
  const dir = await projectWith('version: 1\nproject_id: zoo\n');
  const ctx = contextIn(dir);
  const res = await resolvePolicy(ctx);
  assert.deepEqual([res.loaded, res.valid], [true, false]);
  const inside = path.join(dir, 'inside.ttl');
  await assert.rejects(checkLocalPath(ctx, 't', inside, 'read', res), refusal('authorization_denied', 'invalid project policy'));
  assert.equal(await checkLocalPath(ctx, 't', inside, 'write', res, { bootstrap: true }), inside);
  assert.equal(await checkLocalPath(ctx, 't', inside, 'read', res, { diagnostic: true }), inside);
  await assert.rejects(
    checkLocalPath(ctx, 't', path.join(scratch, 'x.ttl'), 'write', res, { bootstrap: true }),
    refusal('authorization_denied'),
  );
  await assert.rejects(
    checkLocalPath(ctx, 't', inside, 'read', res, { derived: true }),
    refusal('authorization_denied'),
    'derived targets are refused too',
  );
  assert.throws(
    () => checkRemote(ctx, 't', 'https://example.org/x', 'allow', res, 'document'),
    refusal('network_denied', 'invalid project policy'),
  );
});

test('the capability check comes first, and names what is missing', async () => {
  const dir = await projectWith(`version: 1\nproject_id: zoo\nroot_ontology: ${ROOT_IRI}\nnetwork: {default: allow}\n`);
  const ctx = contextIn(dir, ['ontology:read']);
  const res = await resolvePolicy(ctx);
  await assert.rejects(
    checkLocalPath(ctx, 't', path.join(dir, 'a.ttl'), 'write', res),
    (e: ToolFailure) =>
      e.code === 'authorization_denied' && JSON.stringify(e.context.missing_capabilities) === '["filesystem:project:write"]',
  );
  assert.throws(
    () => checkRemote(ctx, 't', 'https://example.org/x', undefined, res, 'document'),
    (e: ToolFailure) => e.code === 'authorization_denied' && JSON.stringify(e.context.missing_capabilities) === '["network:access"]',
  );
  assert.throws(
    () => checkRemote(ctx, 't', 'https://example.org/x', 'deny', res, 'document'),
    refusal('network_denied', 'request network=deny'),
    "the request's own deny is decided before any capability",
  );
});

test('allow_unrestricted_paths_without_policy defaults to true; settings.json, environment and flag turn it off', async () => {
  const home = await mkdtemp(path.join(scratch, 'home-'));
  assert.equal((await loadSettings(home, {}, {})).allow_unrestricted_paths_without_policy, true);
  assert.equal(
    (await loadSettings(home, {}, { ATHENE_ALLOW_UNRESTRICTED_PATHS_WITHOUT_POLICY: 'false' })).allow_unrestricted_paths_without_policy,
    false,
  );
  assert.equal(
    (await loadSettings(home, { allow_unrestricted_paths_without_policy: false }, {})).allow_unrestricted_paths_without_policy,
    false,
  );
  await writeFile(path.join(home, 'settings.json'), JSON.stringify({ allow_unrestricted_paths_without_policy: false }));
  assert.equal((await loadSettings(home, {}, {})).allow_unrestricted_paths_without_policy, false);
  await writeFile(path.join(home, 'settings.json'), JSON.stringify({ allow_unrestricted_paths_without_policy: 'no' }));
  await assert.rejects(loadSettings(home, {}, {}), /allow_unrestricted_paths_without_policy/);
});
