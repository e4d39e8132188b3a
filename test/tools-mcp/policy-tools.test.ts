// The project policy through the real server, on real files: the policy tools (get/validate, the template,
// get_model_revision), the bootstrap of a template's root artifact, each path mode, each network rule, and
// the entity_search block of search_entities. Principals without a capability go through the same gate
// without HTTP.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { readDocument } from '../../src/model/formats/registry.js';
import {
  call,
  callOk,
  principalWith,
  serveAndConnect,
  serveTempOntology,
  startOrigin,
  withProjectPolicy,
  type ServedClient,
  type TestOrigin,
} from '../server/support.js';
import { toolContext, runInContext } from '../support/tool-context.js';
import { at } from '../support/at.js';

const ZOO = 'http://example.org/zoo';
const REMOTE = 'http://example.org/remote';
const ZOO_TTL = `@prefix : <${ZOO}#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
<${ZOO}> a owl:Ontology .
:Cat a owl:Class ; rdfs:label "cat"@en , "chat"@fr ; skos:altLabel "kitty"@en .
:Dog a owl:Class ; rdfs:label "dog"@en ; <http://example.org/vocab#name> "Canis" .
`;
const ontologyTtl = (iri: string) =>
  `@prefix owl: <http://www.w3.org/2002/07/owl#> .\n<${iri}> a owl:Ontology .\n<${iri}#C> a owl:Class .\n`;

let scratch: string;
let project: string;
let policyFile: string;
let outsideFile: string;
let web: TestOrigin;
let served: ServedClient;
let c: Client;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'athene-policy-tools-'));
  project = path.join(scratch, 'project');
  policyFile = path.join(project, '.athene', 'project.yaml');
  await mkdir(project, { recursive: true });
  await writeFile(path.join(project, 'zoo.ttl'), ZOO_TTL);
  await writeFile(path.join(project, 'inside.ttl'), ontologyTtl('http://example.org/inside'));
  outsideFile = path.join(scratch, 'outside.ttl');
  await writeFile(outsideFile, ontologyTtl('http://example.org/outside'));
  web = await startOrigin({ '/remote.ttl': ontologyTtl(REMOTE) });
  served = await serveAndConnect([path.join(project, 'zoo.ttl')]);
  c = served.c;
});

after(async () => {
  await served.close();
  await web.close();
  await rm(scratch, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer | string) => 'sha256:' + createHash('sha256').update(bytes).digest('hex');

/** A valid policy for the project (root artifact = the saved bootstrap file), plus `extra` YAML. */
const validPolicy = (extra = '') => `version: 1\nproject_id: zoo\nroot_ontology: ${ZOO}\nroot_artifact: ontology/zoo.ttl\n${extra}`;

test('without a policy: legacy mode, nothing confined; validate_project_policy demands a policy', async () => {
  const got = await callOk(c, 'get_project_policy');
  assert.deepEqual(
    [got.policy_loaded, got.valid, got.discovery, got.path_mode, got.policy_path, got.policy_digest],
    [false, false, 'none', 'legacy_local_admin_unrestricted', null, null],
  );
  assert.equal(got.active_ontology_iri, ZOO);
  assert.deepEqual(got.errors, []);
  const validated = await callOk(c, 'validate_project_policy');
  assert.equal(validated.valid, false);
  assert.deepEqual(
    (validated.errors as { code: string }[]).map((e) => e.code),
    ['policy_not_found'],
  );
  const revision = await callOk(c, 'get_model_revision');
  const envelope = revision.revision as Record<string, unknown>;
  assert.deepEqual(Object.keys(envelope).sort(), ['document_fingerprint', 'semantic_fingerprint', 'session_revision', 'workspace_id']);
  for (const [k, value] of Object.entries(envelope)) assert.equal(revision[k], value, `${k} is flattened`);
  assert.deepEqual(
    [revision.policy_loaded, revision.policy_valid, revision.fingerprint_stability, revision.release_stable, revision.dirty],
    [false, false, 'stable', true, false],
  );
  assert.deepEqual(revision.ontology, { ontology_iri: ZOO, version_iri: null, document_iri: path.join(project, 'zoo.ttl') });
  const loaded = await call(c, 'load_ontology', { source: outsideFile, keep_active: true });
  assert.equal(loaded.isError, false, JSON.stringify(loaded.body));
});

test('get_model_revision recomputes the document fingerprint per call, so prefix-only edits show', async () => {
  const before = await callOk(c, 'get_model_revision');
  await callOk(c, 'set_prefix', { prefix: 'zz', namespace: 'http://example.org/zz#' });
  const afterEdit = await callOk(c, 'get_model_revision');
  assert.equal(afterEdit.semantic_fingerprint, before.semantic_fingerprint);
  assert.notEqual(afterEdit.document_fingerprint, before.document_fingerprint);
  await callOk(c, 'remove_prefix', { prefix: 'zz' });
});

test('write_project_policy_template writes a commented starter atomically, once', async () => {
  const written = await callOk(c, 'write_project_policy_template');
  assert.deepEqual(
    [written.written, written.path, written.project_id, written.profile, written.schema_version],
    [true, policyFile, 'zoo', 'general', 1],
  );
  const text = await readFile(policyFile);
  assert.equal(written.sha256, sha256(text));
  assert.equal(written.bytes, text.length);
  assert.match(text.toString(), /^# /m);
  assert.match(at(written.validation_hint as string[], 0), /save_ontology path=.*ontology[/\\]zoo\.ttl policy_bootstrap=true/);
  const again = await call(c, 'write_project_policy_template');
  assert.equal(again.isError, true);
  assert.deepEqual([again.body.error_code, again.body.written], ['policy_exists', false]);
  assert.deepEqual(await readFile(policyFile), text, 'the existing policy is untouched');
  const overwrite = await call(c, 'write_project_policy_template', { overwrite: true });
  assert.deepEqual(
    [overwrite.body.error_code, overwrite.body.denied_by],
    ['authorization_denied', 'invalid project policy'],
    'the starter is an invalid policy, and an invalid policy refuses writes (only diagnostics and the bootstrap save pass)',
  );
  await rm(policyFile);
  const v2 = await callOk(c, 'write_project_policy_template', { version: 2, profile: 'obo', project_id: 'zoo2' });
  assert.equal(v2.schema_version, 2);
  const v2text = await readFile(policyFile, 'utf8');
  assert.match(v2text, /^external_terms:/m);
  assert.match(v2text, /format: obo/);
  assert.match(v2text, /zoo2-edit\.obo/);
  const bad = await call(c, 'write_project_policy_template', { overwrite: true, version: 3 });
  assert.equal(bad.body.error_code, 'invalid_argument');
  await rm(policyFile);
  await callOk(c, 'write_project_policy_template');
});

test('the template is invalid until save_ontology policy_bootstrap=true creates its root artifact', async () => {
  const got = await callOk(c, 'get_project_policy');
  assert.deepEqual(
    [got.policy_loaded, got.valid, got.discovery, got.path_mode, got.schema_version, got.project_root],
    [true, false, 'discovered', 'policy_confined', 1, project],
  );
  assert.deepEqual(
    (got.errors as { code: string }[]).map((e) => e.code),
    ['root_artifact_missing'],
  );
  assert.equal((got.policy as { project_id: string }).project_id, 'zoo');
  assert.deepEqual(
    [(got.migration as Record<string, unknown>).automatic_write, (got.migration as Record<string, unknown>).diagnostic_affects_digest],
    [false, false],
  );
  const revision = await callOk(c, 'get_model_revision');
  assert.deepEqual([revision.policy_loaded, revision.policy_valid], [true, false]);
  assert.match(revision.policy_error as string, /root_artifact/);

  // an invalid policy refuses every file and network access…
  const load = await call(c, 'load_ontology', { source: path.join(project, 'inside.ttl'), keep_active: true });
  assert.deepEqual(
    [load.body.error_code, load.body.denied_by, load.body.effects_prevented],
    ['authorization_denied', 'invalid project policy', true],
  );
  const target = path.join(project, 'ontology', 'zoo.ttl');
  const plain = await call(c, 'save_ontology', { path: target });
  assert.equal(plain.body.error_code, 'authorization_denied');
  await assert.rejects(access(target));
  const escaping = await call(c, 'save_ontology', { path: path.join(scratch, 'elsewhere.ttl'), policy_bootstrap: true });
  assert.equal(escaping.body.error_code, 'authorization_denied');
  assert.match(escaping.body.error as string, /policy_bootstrap allows only paths inside the project root/);
  // …except the bootstrap save inside its project root
  const saved = await callOk(c, 'save_ontology', { path: target, policy_bootstrap: true });
  const report = saved.policy_bootstrap as Record<string, unknown>;
  assert.deepEqual([report.used, report.policy_path, report.contained_root], [true, policyFile, project]);
  assert.deepEqual(
    (report.policy_errors as { code: string }[]).map((e) => e.code),
    ['root_artifact_missing'],
  );
  assert.equal(typeof report.note, 'string');
  await access(target);

  const now = await callOk(c, 'get_project_policy');
  assert.equal(now.valid, true, JSON.stringify(now.errors));
  assert.match(now.policy_digest as string, /^sha256:[0-9a-f]{64}$/);
  assert.deepEqual((now.resolved_assets as { root_artifact: { exists: boolean; absolute: string } }).root_artifact, {
    field: 'root_artifact',
    kind: 'file',
    path: 'ontology/zoo.ttl',
    absolute: target,
    contained: true,
    exists: true,
  });
  const validated = await callOk(c, 'validate_project_policy');
  assert.equal(validated.valid, true);
  assert.equal((await callOk(c, 'get_model_revision')).policy_digest, now.policy_digest);
  const again = await callOk(c, 'save_ontology', { path: target, policy_bootstrap: true });
  assert.deepEqual(
    [(again.policy_bootstrap as Record<string, unknown>).used, typeof (again.policy_bootstrap as Record<string, unknown>).reason],
    [false, 'string'],
  );
  const noPath = await call(c, 'save_ontology', { policy_bootstrap: true });
  assert.equal(noPath.body.error_code, 'invalid_argument');
  const nested = await call(c, 'write_project_policy_template');
  assert.deepEqual(
    [nested.body.error_code, nested.body.path],
    ['policy_exists', policyFile],
    'the governing policy is the default target, not a nearer one',
  );
  await assert.rejects(access(path.join(project, 'ontology', '.athene')));
});

test('under a valid policy, paths are confined to the project root unless the policy allows external paths', async () => {
  await writeFile(policyFile, validPolicy());
  const outside = await call(c, 'load_ontology', { source: path.join(scratch, 'outside.ttl'), keep_active: true });
  assert.equal(outside.body.error_code, 'authorization_denied');
  assert.match(outside.body.error as string, /outside the project root/);
  const inside = await call(c, 'load_ontology', { source: path.join(project, 'inside.ttl'), keep_active: true });
  assert.equal(inside.isError, false, JSON.stringify(inside.body));
  const saveOutside = await call(c, 'save_ontology', { path: path.join(scratch, 'copy.ttl') });
  assert.equal(saveOutside.body.error_code, 'authorization_denied');
  await writeFile(policyFile, validPolicy('filesystem: {allow_external_paths: true}\n'));
  const copy = path.join(scratch, 'copy.ttl');
  assert.equal((await call(c, 'save_ontology', { path: copy })).isError, false, 'the static token holds filesystem:external');
  // back to the root artifact, so the active document stays the project's
  await callOk(c, 'save_ontology', { path: path.join(project, 'ontology', 'zoo.ttl') });
  const bad = await call(c, 'get_project_policy', { policy_path: 'file:///etc/passwd' });
  assert.equal(bad.body.error_code, 'invalid_argument');
});

test('network rules: request deny, network.default, imports.network, allowed_hosts', async () => {
  const url = `${web.base}/remote.ttl`;
  await writeFile(policyFile, validPolicy());
  let hits = web.hits;
  const denied = await call(c, 'load_ontology', { source: url, keep_active: true, network: 'allow' });
  assert.deepEqual(
    [denied.body.error_code, denied.body.denied_by],
    ['network_denied', 'project policy network.default'],
    'allow never overrides a policy deny',
  );
  assert.equal(web.hits, hits);

  await writeFile(policyFile, validPolicy('network: {default: allow, allowed_hosts: [example.org]}\n'));
  const host = await call(c, 'load_ontology', { source: url, keep_active: true });
  assert.deepEqual([host.body.error_code, host.body.denied_by], ['network_denied', 'project policy network.allowed_hosts']);

  await writeFile(policyFile, validPolicy('network: {default: allow, allowed_hosts: [127.0.0.1]}\nimports: {network: deny}\n'));
  const request = await call(c, 'load_ontology', { source: url, keep_active: true, network: 'deny' });
  assert.deepEqual([request.body.error_code, request.body.denied_by], ['network_denied', 'request network=deny']);
  assert.match(request.body.error as string, /request setting network=deny/);
  const asImport = await call(c, 'add_import', { iri: REMOTE, document: url });
  assert.deepEqual([asImport.body.error_code, asImport.body.denied_by], ['network_denied', 'project policy imports.network']);
  assert.equal(web.hits, hits, 'nothing was fetched');
  const fetched = await call(c, 'load_ontology', { source: url, keep_active: true });
  assert.equal(fetched.isError, false, JSON.stringify(fetched.body));
  assert.equal(web.hits, hits + 1);

  await writeFile(policyFile, validPolicy('network: {default: allow}\nunknown_block: {}\n'));
  hits = web.hits;
  const invalid = await call(c, 'load_ontology', { source: `${web.base}/other.ttl`, keep_active: true });
  assert.deepEqual([invalid.body.error_code, invalid.body.denied_by], ['network_denied', 'invalid project policy']);
  assert.equal(web.hits, hits);
});

test("search_entities uses a valid policy's entity_search block and falls back to defaults otherwise", async () => {
  await writeFile(
    policyFile,
    validPolicy(
      'prefixes: {ex: "http://example.org/vocab#"}\nentity_search:\n  preferred_properties: [rdfs:label, ex:name]\n  synonym_properties: [skos:altLabel]\n' +
        '  preferred_languages: [fr, de]\n  fallback_languages: [en, und]\n',
    ),
  );
  const byFrench = await callOk(c, 'search_entities', { query: 'chat' });
  const chat = at(byFrench.items as Record<string, unknown>[], 0);
  assert.deepEqual([chat.iri, chat.language, chat.score, chat.match_source], [`${ZOO}#Cat`, 'fr', 109, 'preferred_label']);
  const byEnglish = await callOk(c, 'search_entities', { query: 'cat' });
  const cat = (byEnglish.items as Record<string, unknown>[]).find((i) => i.iri === `${ZOO}#Cat`)!;
  assert.equal(cat.score, 104, 'en is the first fallback language: +4');
  const canis = await callOk(c, 'search_entities', { query: 'Canis' });
  assert.equal(canis.best_match, `${ZOO}#Dog`);
  assert.equal(at(canis.items as Record<string, unknown>[], 0).matched_property, 'http://example.org/vocab#name');
  assert.deepEqual(canis.lexical_policy, {
    source: 'policy',
    preferred_properties: ['http://www.w3.org/2000/01/rdf-schema#label', 'http://example.org/vocab#name'],
    synonym_properties: ['http://www.w3.org/2004/02/skos/core#altLabel'],
    preferred_languages: ['fr', 'de'],
    fallback_languages: ['en', 'und'],
  });

  await writeFile(policyFile, validPolicy('entity_search: {preferred_languages: [fr], fallback_languages: [fr]}\n'));
  const fallback = await callOk(c, 'search_entities', { query: 'Canis' });
  const lexical = fallback.lexical_policy as Record<string, unknown>;
  assert.equal(lexical.source, 'default');
  assert.match(lexical.fallback_reason as string, /invalid/);
  assert.equal(fallback.best_match, null, 'ex:name is no preferred property by default');
  const english = await callOk(c, 'search_entities', { query: 'cat' });
  assert.equal(
    (english.items as Record<string, unknown>[]).find((i) => i.iri === `${ZOO}#Cat`)!.score,
    109,
    'default: the label language first',
  );
  await writeFile(policyFile, validPolicy());
});

test('policy_required: caller-selected paths and URLs are refused, a plain save still works', async () => {
  const dir = path.join(scratch, 'strict');
  await mkdir(dir);
  const doc = path.join(dir, 'zoo.ttl');
  await writeFile(doc, ZOO_TTL);
  const { c: s, close } = await serveAndConnect([doc], { allow_unrestricted_paths_without_policy: false });
  try {
    const got = await callOk(s, 'get_project_policy');
    assert.deepEqual([got.policy_loaded, got.path_mode], [false, 'policy_required']);
    const load = await call(s, 'load_ontology', { source: path.join(project, 'inside.ttl') });
    assert.deepEqual(
      [load.body.error_code, load.body.denied_by, load.body.effects_prevented],
      ['authorization_denied', 'path_mode=policy_required', true],
    );
    const remote = await call(s, 'load_ontology', { source: `${web.base}/remote.ttl` });
    assert.deepEqual([remote.body.error_code, remote.body.denied_by], ['network_denied', 'path_mode=policy_required']);
    const saveAs = await call(s, 'save_ontology', { path: path.join(dir, 'copy.ttl') });
    assert.equal(saveAs.body.error_code, 'authorization_denied');
    await callOk(s, 'add_axiom', { axiom_type: 'declaration', entity: `${ZOO}#Emu`, entity_type: 'class' });
    const plain = await callOk(s, 'save_ontology');
    assert.equal(plain.saved, true);
    assert.match(await readFile(doc, 'utf8'), /Emu/);
    const template = await callOk(s, 'write_project_policy_template');
    assert.equal(template.written, true, 'the default template path is derived from the open document');
  } finally {
    await close();
  }
});

test('outside-root paths need filesystem:external as well as the policy opt-in; remote fetches need network:access', async () => {
  const text = await readFile(path.join(project, 'zoo.ttl'), 'utf8');
  const { ontology } = await readDocument(text, { base: 'file://' + path.join(project, 'zoo.ttl') });
  ontology.documentIri = path.join(project, 'ontology', 'zoo.ttl');
  await writeFile(policyFile, validPolicy('filesystem: {allow_external_paths: true}\nnetwork: {default: allow}\n'));
  const limited = toolContext([ontology], principalWith(['ontology:admin', 'filesystem:project:read']));
  const load = await runInContext('load_ontology', { source: outsideFile, keep_active: true }, limited);
  assert.deepEqual(
    [load.body.error_code, load.body.missing_capabilities, load.body.effects_prevented],
    ['authorization_denied', ['filesystem:external'], true],
  );
  const remote = await runInContext('load_ontology', { source: `${web.base}/remote.ttl`, keep_active: true }, limited);
  assert.deepEqual([remote.body.error_code, remote.body.missing_capabilities], ['authorization_denied', ['network:access']]);
  const reader = toolContext([ontology], principalWith(['ontology:read']));
  const policy = await runInContext('get_project_policy', {}, reader);
  assert.deepEqual(policy.body.missing_capabilities, ['filesystem:project:read']);
  await writeFile(policyFile, validPolicy());
});

test('a cqs/ (or invariants) directory that exists is no missing asset; one that does not exist is', async () => {
  const own = await serveTempOntology('athene-policy-assets-', 'a.ttl', ontologyTtl('http://example.org/a'));
  try {
    await mkdir(path.join(own.dir, 'cqs'));
    await mkdir(path.join(own.dir, 'qc', 'invariants'), { recursive: true });
    const yaml =
      'version: 1\nproject_id: a\nroot_ontology: http://example.org/a\ncqs:\n  paths: [cqs, missing-cqs]\ninvariants:\n  paths: [qc/invariants]\n';
    await withProjectPolicy(own.dir, yaml, async () => {
      const got = await callOk(own.c, 'get_project_policy');
      assert.equal(got.valid, true, JSON.stringify(got.errors));
      const missing = (got.warnings as { code: string; path: string }[]).filter((w) => w.code === 'asset_missing').map((w) => w.path);
      assert.deepEqual(missing, ['cqs.paths.1'], JSON.stringify(got.warnings));
    });
  } finally {
    await own.close();
  }
});
