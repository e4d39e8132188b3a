import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Ontology } from '../../src/model/ontology.js';
import { resolvePolicy } from '../../src/policy/resolve.js';
import { policyDigest } from '../../src/policy/schema.js';
import { ToolFailure } from '../../src/tools/core/tool.js';
import { toolContext } from '../support/tool-context.js';
import { at } from '../support/at.js';

const scratch = await mkdtemp(path.join(os.tmpdir(), 'athene-policy-'));
after(() => rm(scratch, { recursive: true, force: true }));

const ROOT_IRI = 'http://example.org/zoo';
let n = 0;

/** A fresh project directory holding `files` (relative path → content); returns its path. */
async function project(files: Record<string, string>): Promise<string> {
  const dir = path.join(scratch, `p${n++}`);
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
  return dir;
}

/** A context whose active ontology (ROOT_IRI unless given) is bound to `doc`. */
function contextAt(doc: string | null, iri = ROOT_IRI, settings = {}) {
  const o = new Ontology();
  o.id = { iri, versionIri: null };
  o.documentIri = doc;
  return toolContext([o], undefined, settings);
}

const policy = (extra = '') => `version: 1\nproject_id: zoo\nroot_ontology: ${ROOT_IRI}\n${extra}`;

test('without a policy the path mode follows the setting', async () => {
  const dir = await project({ 'zoo.ttl': '' });
  const legacy = await resolvePolicy(contextAt(path.join(dir, 'zoo.ttl')));
  assert.deepEqual(
    [legacy.discovery, legacy.pathMode, legacy.loaded, legacy.valid],
    ['none', 'legacy_local_admin_unrestricted', false, false],
  );
  const required = await resolvePolicy(contextAt(path.join(dir, 'zoo.ttl'), ROOT_IRI, { allow_unrestricted_paths_without_policy: false }));
  assert.equal(required.pathMode, 'policy_required');
  assert.equal((await resolvePolicy(contextAt(null))).discovery, 'none', 'an untitled ontology discovers nothing');
});

test("a policy in .athene/ is found walking up and anchors at its parent; the digest is the effective data's", async () => {
  const dir = await project({ '.athene/project.yaml': policy(), 'src/deep/zoo.ttl': '' });
  const res = await resolvePolicy(contextAt(path.join(dir, 'src', 'deep', 'zoo.ttl')));
  assert.equal(res.discovery, 'discovered');
  assert.equal(res.pathMode, 'policy_confined');
  assert.equal(res.file, path.join(dir, '.athene', 'project.yaml'));
  assert.equal(res.projectRoot, dir);
  assert.equal(res.valid, true, JSON.stringify(res.errors));
  assert.equal(res.digest, policyDigest(res.policy!));
});

test('an explicit policy outside .athene/ anchors at its own directory; project_root resolves against the anchor', async () => {
  const dir = await project({ 'conf/policy.yaml': policy('project_root: sub\n'), 'conf/sub/.keep': '', 'zoo.ttl': '' });
  const res = await resolvePolicy(contextAt(path.join(dir, 'zoo.ttl')), path.join(dir, 'conf', 'policy.yaml'));
  assert.equal(res.discovery, 'explicit');
  assert.equal(res.projectRoot, path.join(dir, 'conf', 'sub'));
  assert.equal(res.valid, true, JSON.stringify(res.errors));
});

test('project_root may not escape the anchor, not even through a symlink', async () => {
  const outside = await project({ 'x/.keep': '' });
  const dir = await project({ '.athene/project.yaml': policy('project_root: ../..\n'), 'zoo.ttl': '' });
  const escaped = await resolvePolicy(contextAt(path.join(dir, 'zoo.ttl')));
  assert.equal(escaped.valid, false);
  assert.equal(at(escaped.errors, 0).code, 'project_root_escape');
  assert.equal(escaped.projectRoot, dir, 'the anchor still confines');
  const linked = await project({ '.athene/project.yaml': policy('project_root: link\n'), 'zoo.ttl': '' });
  await symlink(path.join(outside, 'x'), path.join(linked, 'link'));
  const viaLink = await resolvePolicy(contextAt(path.join(linked, 'zoo.ttl')));
  assert.equal(viaLink.errors[0]?.code, 'project_root_escape');
});

test('assets must stay inside the project root (symlinks resolved); the root artifact must exist', async () => {
  const outside = await project({ 'secret.ttl': '' });
  const dir = await project({
    '.athene/project.yaml': policy('root_artifact: zoo.ttl\nmodules:\n  - {id: m, path: link.ttl}\n  - {id: n, path: later.ttl}\n'),
    'zoo.ttl': '',
  });
  await symlink(path.join(outside, 'secret.ttl'), path.join(dir, 'link.ttl'));
  const res = await resolvePolicy(contextAt(path.join(dir, 'zoo.ttl')));
  assert.deepEqual(
    res.errors.map((e) => [e.code, e.path]),
    [['asset_escape', 'modules.0.path']],
  );
  assert.deepEqual(
    res.warnings.map((e) => [e.code, e.path]),
    [['asset_missing', 'modules.1.path']],
    'a missing module is a warning',
  );
  const missing = await project({ '.athene/project.yaml': policy('root_artifact: ontology/zoo.ttl\n'), 'zoo.ttl': '' });
  const bootstrap = await resolvePolicy(contextAt(path.join(missing, 'zoo.ttl')));
  assert.deepEqual(
    bootstrap.errors.map((e) => e.code),
    ['root_artifact_missing'],
  );
  assert.equal(bootstrap.loaded, true);
  assert.equal(bootstrap.policy, null);
});

test('live checks: installed reasoner, CURIE prefixes, regular expressions, root ontology', async () => {
  const dir = await project({
    '.athene/project.yaml': policy(
      'reasoning: {reasoner: HermiT}\nentity_search: {preferred_properties: [ex:name]}\niri_policy: {pattern: "([a-z"}\n',
    ),
    'zoo.ttl': '',
  });
  const res = await resolvePolicy(contextAt(path.join(dir, 'zoo.ttl')));
  assert.deepEqual(res.errors.map((e) => e.code).sort(), ['curie_unresolved', 'reasoner_not_installed', 'regex_invalid']);
  const fixed = await project({
    '.athene/project.yaml': policy(
      'root_artifact: zoo.ttl\nprefixes: {ex: "http://example.org/vocab#"}\nreasoning: {reasoner: "Athene EL++ Classifier"}\nentity_search: {preferred_properties: [ex:name]}\n',
    ),
    'zoo.ttl': '',
    'module.ttl': '',
  });
  assert.equal((await resolvePolicy(contextAt(path.join(fixed, 'zoo.ttl')))).valid, true);
  const other = await resolvePolicy(contextAt(path.join(fixed, 'zoo.ttl'), 'http://example.org/other'));
  assert.deepEqual(
    other.errors.map((e) => e.code),
    ['root_ontology_mismatch'],
    'the root artifact holds another ontology',
  );
  const module = await resolvePolicy(contextAt(path.join(fixed, 'module.ttl'), 'http://example.org/module'));
  assert.equal(module.valid, true, 'another active ontology of the project is governed, with a warning');
  assert.deepEqual(
    module.warnings.map((e) => e.code),
    ['active_not_root'],
  );
});

test('a strict-YAML or schema failure makes the policy loaded but invalid, confined to its anchor', async () => {
  const dir = await project({ '.athene/project.yaml': 'version: 1\nversion: 1\n', 'zoo.ttl': '' });
  const res = await resolvePolicy(contextAt(path.join(dir, 'zoo.ttl')));
  assert.deepEqual([res.loaded, res.valid, res.projectRoot, at(res.errors, 0).code], [true, false, dir, 'yaml_syntax']);
  assert.match(at(res.errors, 0).message, /line 2, column 1/);
});

test('policy_path refuses URL schemes and is authorized as a caller-selected read', async () => {
  const dir = await project({ '.athene/project.yaml': policy(), 'zoo.ttl': '' });
  const other = await project({ 'p.yaml': policy() });
  const ctx = contextAt(path.join(dir, 'zoo.ttl'));
  await assert.rejects(resolvePolicy(ctx, 'https://example.org/p.yaml'), (e: ToolFailure) => e.code === 'invalid_argument');
  await assert.rejects(
    resolvePolicy(ctx, path.join(other, 'p.yaml')),
    (e: ToolFailure) => e.code === 'authorization_denied' && e.context.effects_prevented === true,
    'outside the discovered project root',
  );
  await assert.rejects(resolvePolicy(ctx, path.join(dir, 'absent.yaml')), (e: ToolFailure) => e.code === 'policy_not_found');
  const required = contextAt(path.join(other, 'zoo.ttl'), ROOT_IRI, { allow_unrestricted_paths_without_policy: false });
  await assert.rejects(resolvePolicy(required, path.join(other, 'p.yaml')), (e: ToolFailure) => e.code === 'authorization_denied');
});
