// Import locks through the real server with real files: write_import_lock then verify_import_lock, a tampered
// byte, load_ontology lock_mode (verify / required, success and refusal with the workspace unchanged), a
// policy-declared lockfile under imports.mode locked, and inspect_imports on a closure with a cycle and a
// missing import.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Ontology } from '../../src/model/ontology.js';
import { call, callOk, principalWith, serveAndConnect, type ServedClient } from '../server/support.js';
import { runInContext, toolContext } from '../support/tool-context.js';
import { at } from '../support/at.js';

const PREFIXES = '@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n';
const ontologyTtl = (iri: string, imports: string[] = []) =>
  PREFIXES + `<${iri}> a owl:Ontology${imports.map((i) => ` ; owl:imports <${i}>`).join('')} .\n<${iri}#C> a owl:Class .\n`;
const catalogXml = (entries: [string, string][]) =>
  '<?xml version="1.0" encoding="UTF-8"?>\n<catalog xmlns="urn:oasis:names:tc:entity:resolver:catalog">\n' +
  entries.map(([name, uri]) => `  <uri name="${name}" uri="${uri}"/>\n`).join('') +
  '</catalog>\n';
const sha = (b: string | Buffer) => 'sha256:' + createHash('sha256').update(b).digest('hex');

let scratch: string;
let served: ServedClient;
let c: Client;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'athene-import-lock-'));
  served = await serveAndConnect([]);
  c = served.c;
});

after(async () => {
  await served.close();
  await rm(scratch, { recursive: true, force: true });
});

async function put(rel: string, text: string): Promise<string> {
  const p = path.join(scratch, rel);
  await mkdir(path.dirname(p), { recursive: true });
  await writeFile(p, text);
  return p;
}

/** A project `name`: root → mid → leaf, imports resolved offline through the catalog beside root.ttl. */
async function chain(name: string): Promise<{ root: string; leaf: string; lock: string; ns: string }> {
  const ns = `http://example.org/${name}/`;
  const root = await put(`${name}/root.ttl`, ontologyTtl(ns + 'root', [ns + 'mid']));
  await put(`${name}/imports/mid.ttl`, ontologyTtl(ns + 'mid', [ns + 'leaf']));
  const leaf = await put(`${name}/imports/leaf.ttl`, ontologyTtl(ns + 'leaf'));
  await put(
    `${name}/catalog-v001.xml`,
    catalogXml([
      [ns + 'mid', 'imports/mid.ttl'],
      [ns + 'leaf', 'imports/leaf.ttl'],
    ]),
  );
  return { root, leaf, lock: path.join(scratch, name, 'imports.lock.json'), ns };
}

/** The lock a hand would write for `chain(name)`, with the leaf's digest overridden when given. */
async function handLock(p: { ns: string; root: string }, leafSha?: string): Promise<unknown> {
  const dir = path.dirname(p.root);
  return {
    version: 1,
    imports: [
      {
        ontology_iri: p.ns + 'mid',
        version_iri: null,
        path: 'imports/mid.ttl',
        sha256: sha(await readFile(path.join(dir, 'imports/mid.ttl'))),
        direct: true,
      },
      {
        ontology_iri: p.ns + 'leaf',
        version_iri: null,
        path: 'imports/leaf.ttl',
        sha256: leafSha ?? sha(await readFile(path.join(dir, 'imports/leaf.ttl'))),
        direct: false,
      },
    ],
  };
}

const ontologyCount = async () => ((await callOk(c, 'list_ontologies')).ontologies as unknown[]).length;
const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

test('write_import_lock writes a deterministic lock beside the document; verify_import_lock accepts it', async () => {
  const p = await chain('w');
  await callOk(c, 'load_ontology', { source: p.root });
  const written = await callOk(c, 'write_import_lock');
  assert.equal(written.written, true);
  assert.equal(written.path, p.lock);
  assert.equal(written.lockfile_source, 'beside_document');
  assert.equal(written.entry_count, 2);
  const bytes = await readFile(p.lock, 'utf8');
  assert.equal(written.sha256, sha(bytes));
  assert.deepEqual(JSON.parse(bytes), written.lock);
  assert.deepEqual((written.lock as { imports: unknown[] }).imports, [
    { ontology_iri: p.ns + 'leaf', version_iri: null, path: 'imports/leaf.ttl', sha256: sha(await readFile(p.leaf)), direct: false },
    {
      ontology_iri: p.ns + 'mid',
      version_iri: null,
      path: 'imports/mid.ttl',
      sha256: sha(await readFile(path.join(scratch, 'w/imports/mid.ttl'))),
      direct: true,
    },
  ]);
  // the same closure gives the same bytes
  const again = await callOk(c, 'write_import_lock');
  assert.equal(again.sha256, written.sha256);
  const verified = await callOk(c, 'verify_import_lock');
  assert.deepEqual(
    { ...verified, lockfile_note: undefined },
    {
      valid: true,
      path: p.lock,
      entry_count: 2,
      sha256: written.sha256,
      errors: [],
      missing_entries: [],
      extra_entries: [],
      mismatched_entries: [],
      lockfile_source: 'beside_document',
      lockfile_note: undefined,
    },
  );
  assert.match(verified.lockfile_note as string, /accident-safety, not tamper-evidence/);
});

test('a tampered byte in an imported document makes verify_import_lock report a sha256 mismatch', async () => {
  const p = await chain('t');
  await callOk(c, 'load_ontology', { source: p.root });
  await callOk(c, 'write_import_lock');
  const original = await readFile(p.leaf, 'utf8');
  await writeFile(p.leaf, original.replace('#C>', '#D>'));
  const verified = await callOk(c, 'verify_import_lock');
  assert.equal(verified.valid, false);
  assert.deepEqual(verified.mismatched_entries, [
    { ontology_iri: p.ns + 'leaf', field: 'sha256', locked: sha(original), actual: sha(await readFile(p.leaf)) },
  ]);
  // a lock named explicitly that does not exist is invalid, not skipped
  const absent = await callOk(c, 'verify_import_lock', { path: path.join(scratch, 't', 'none.lock.json') });
  assert.equal(absent.valid, false);
  assert.match(at(absent.errors as string[], 0), /ENOENT/);
});

test('write_import_lock refuses a closure with a missing import and replaces nothing', async () => {
  const ns = 'http://example.org/r/';
  const root = await put('r/root.ttl', ontologyTtl(ns + 'root', [ns + 'absent']));
  const lock = await put('r/imports.lock.json', 'previous content\n');
  await callOk(c, 'load_ontology', { source: root });
  const refused = await callOk(c, 'write_import_lock');
  assert.equal(refused.written, false);
  assert.equal(refused.valid, false);
  assert.match((refused.errors as string[]).join('\n'), /absent declared by http:\/\/example\.org\/r\/root is not resolved/);
  assert.equal(await readFile(lock, 'utf8'), 'previous content\n');
});

test('load_ontology lock_mode=verify loads and reports the verification; without a lockfile it is skipped', async () => {
  const q = await chain('lv2');
  const skipped = await callOk(c, 'load_ontology', { source: q.root, lock_mode: 'verify' });
  const sv = skipped.import_lock_verification as Record<string, unknown>;
  assert.deepEqual([sv.verified, sv.skipped, sv.path, sv.lockfile_source, sv.blocking], [false, true, q.lock, 'beside_document', false]);
  assert.equal(typeof sv.note, 'string');
  assert.equal(skipped.added_ontologies, 3);

  const r = await chain('lv3');
  await writeFile(r.lock, JSON.stringify(await handLock(r)));
  const loaded = await callOk(c, 'load_ontology', { source: r.root, lock_mode: 'verify' });
  const v = loaded.import_lock_verification as Record<string, unknown>;
  assert.deepEqual([v.verified, v.valid, v.mode, v.entry_count, v.lockfile_source], [true, true, 'verify', 2, 'beside_document']);
  assert.deepEqual(v.findings, []);
  // lock_mode ignore (the default) reports nothing
  const plain = await callOk(c, 'load_ontology', { source: (await chain('lv4')).root });
  assert.equal(plain.import_lock_verification, undefined);
});

test('load_ontology refuses a mismatching closure, and required without a lockfile, leaving the workspace unchanged', async () => {
  const p = await chain('lm');
  await writeFile(p.lock, JSON.stringify(await handLock(p, 'sha256:' + '0'.repeat(64))));
  const before = await ontologyCount();
  const active = (await callOk(c, 'get_active_ontology')).ontology_iri;
  const mismatch = await call(c, 'load_ontology', { source: p.root, lock_mode: 'verify' });
  assert.equal(mismatch.isError, true);
  assert.equal(mismatch.body.error_code, 'import_lock_mismatch');
  const v = mismatch.body.import_lock_verification as {
    mismatched_entries: { ontology_iri: string; field: string }[];
    findings: { rule_id: string }[];
  };
  assert.deepEqual(
    v.mismatched_entries.map((m) => [m.ontology_iri, m.field]),
    [[p.ns + 'leaf', 'sha256']],
  );
  assert.deepEqual(
    v.findings.map((f) => f.rule_id),
    ['imports.lock_mismatch'],
  );
  assert.equal(await ontologyCount(), before);
  assert.equal((await callOk(c, 'get_active_ontology')).ontology_iri, active);

  const q = await chain('lq');
  const missing = await call(c, 'load_ontology', { source: q.root, lock_mode: 'required' });
  assert.equal(missing.isError, true);
  assert.equal(missing.body.error_code, 'import_lock_missing');
  assert.deepEqual(
    (missing.body.import_lock_verification as { findings: { rule_id: string }[] }).findings.map((f) => f.rule_id),
    ['imports.lock_missing'],
  );
  assert.equal(await ontologyCount(), before);
  assert.equal((await callOk(c, 'get_active_ontology')).ontology_iri, active);
  // the same document loads once the lock matches
  await writeFile(p.lock, JSON.stringify(await handLock(p)));
  const loaded = await callOk(c, 'load_ontology', { source: p.root, lock_mode: 'required' });
  assert.equal((loaded.import_lock_verification as { valid: boolean }).valid, true);
  assert.equal(await ontologyCount(), before + 3);
});

test('inspect_imports reports a cycle and a missing import without failing integrity for the cycle alone', async () => {
  const ns = 'http://example.org/cy/';
  const root = await put('cy/root.ttl', ontologyTtl(ns + 'root', [ns + 'a', ns + 'missing']));
  await put('cy/a.ttl', ontologyTtl(ns + 'a', [ns + 'b']));
  await put('cy/b.ttl', ontologyTtl(ns + 'b', [ns + 'a']));
  await put(
    'cy/catalog-v001.xml',
    catalogXml([
      [ns + 'a', 'a.ttl'],
      [ns + 'b', 'b.ttl'],
    ]),
  );
  await callOk(c, 'load_ontology', { source: root });
  const r = await callOk(c, 'inspect_imports');
  assert.deepEqual(r.root, {
    ref: ns + 'root',
    ontology_iri: ns + 'root',
    version_iri: null,
    document_iri: root,
    source_type: 'local',
    anonymous: false,
    depth: 0,
    role: 'root',
  });
  assert.deepEqual(r.summary, {
    ontologies: 3,
    declarations: 4,
    direct_imports: 2,
    transitive_imports: 2,
    resolved_imports: 3,
    missing_imports: 1,
    local_documents: 2,
    remote_documents: 0,
    in_memory: 0,
    cycles: 1,
    conflicts: 0,
  });
  assert.deepEqual(
    (r.ontologies as { ref: string; depth: number; role: string }[]).map((o) => [o.ref, o.depth, o.role]),
    [
      [ns + 'root', 0, 'root'],
      [ns + 'a', 1, 'direct'],
      [ns + 'b', 2, 'transitive'],
    ],
  );
  assert.deepEqual(r.cycles, [{ ontologies: [ns + 'a', ns + 'b'], size: 2, self_loop: false }]);
  assert.deepEqual(
    (r.missing_imports as { import_iri: string; source_ref: string; resolved: boolean }[]).map((m) => [
      m.import_iri,
      m.source_ref,
      m.resolved,
    ]),
    [[ns + 'missing', ns + 'root', false]],
  );
  assert.equal((r.resolved_imports as unknown[]).length, 3);
  assert.deepEqual([r.missing_imports_clear, r.conflicts_clear, r.import_integrity_ok], [false, true, false]);
  // an unchanged workspace gives byte-identical JSON
  assert.equal(JSON.stringify(await callOk(c, 'inspect_imports')), JSON.stringify(r));
});

test('a policy-declared lockfile under imports.mode locked: bootstrap with path, then verify and locked loads use it', async () => {
  const p = await chain('pol');
  const ns = p.ns;
  await put(
    'pol/.athene/project.yaml',
    [
      'version: 1',
      'project_id: pol',
      `root_ontology: ${ns}root`,
      'root_artifact: root.ttl',
      'imports:',
      '  mode: locked',
      '  lockfile: imports.lock.json',
      '',
    ].join('\n'),
  );
  const anchor = await put('pol/anchor.ttl', ontologyTtl(ns + 'anchor'));
  const other = await put('pol/sub/other.ttl', ontologyTtl(ns + 'other', [ns + 'leaf']));
  const { c: client, close } = await serveAndConnect([anchor]);
  try {
    // the locked policy verifies even with lock_mode ignore; no lock yet: skipped, so the first lock can be written
    const first = await callOk(client, 'load_ontology', { source: p.root });
    const fv = first.import_lock_verification as Record<string, unknown>;
    assert.deepEqual([fv.forced_by_policy, fv.mode, fv.skipped, fv.blocking], [true, 'verify', true, false]);
    assert.match(fv.note as string, /does not resolve/);
    const unresolved = await call(client, 'write_import_lock');
    assert.equal(unresolved.body.error_code, 'lockfile_unresolved');
    assert.equal(await exists(p.lock), false);
    const conflict = await call(client, 'write_import_lock', { path: path.join(scratch, 'pol', 'other.lock.json') });
    assert.equal(conflict.body.error_code, 'policy_conflict');
    const written = await callOk(client, 'write_import_lock', { path: p.lock });
    assert.deepEqual([written.written, written.lockfile_source], [true, 'explicit']);
    const verified = await callOk(client, 'verify_import_lock');
    assert.deepEqual(
      [verified.valid, verified.path, verified.lockfile_source, verified.lockfile_note],
      [true, p.lock, 'policy_declared', undefined],
    );
    // a document that is not the root artifact is checked against the lockfile beside it (absent: skipped)
    const second = await callOk(client, 'load_ontology', { source: other, lock_mode: 'verify' });
    const sv = second.import_lock_verification as Record<string, unknown>;
    assert.deepEqual(
      [sv.skipped, sv.path, sv.lockfile_source],
      [true, path.join(scratch, 'pol', 'sub', 'imports.lock.json'), 'beside_document'],
    );
  } finally {
    await close();
  }
});

test('the lock tools declare the capabilities of TOOLS.md; inspect_imports needs only ontology:read', async () => {
  const o = new Ontology();
  o.id = { iri: 'http://example.org/caps', versionIri: null };
  const reader = toolContext([o], principalWith(['ontology:read']));
  const verify = await runInContext('verify_import_lock', {}, reader);
  assert.deepEqual([verify.body.error_code, verify.body.missing_capabilities], ['authorization_denied', ['filesystem:project:read']]);
  const inspect = await runInContext('inspect_imports', {}, reader);
  assert.equal(inspect.isError, false);
  assert.equal((inspect.body.root as { ref: string }).ref, 'http://example.org/caps');
  const admin = toolContext([o], principalWith(['ontology:admin', 'filesystem:project:read']));
  const write = await runInContext('write_import_lock', {}, admin);
  assert.deepEqual([write.body.error_code, write.body.missing_capabilities], ['authorization_denied', ['filesystem:project:write']]);
  const readOnly = toolContext([o], undefined, { read_only: true });
  assert.equal((await runInContext('write_import_lock', {}, readOnly)).body.error_code, 'read_only');
  assert.equal((await runInContext('inspect_imports', { extra: 1 }, reader)).body.error_code, 'invalid_argument');
});
