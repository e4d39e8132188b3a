// set_active_ontology and create_ontology through the real server, and their capability, read-only and
// project-policy behaviour through the same gate without HTTP.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Ontology } from '../../src/model/ontology.js';
import { startTestServer, fixture, connect, call, principalWith, type TestServer } from '../server/support.js';
import { toolContext, runInContext } from '../support/tool-context.js';

const ZOO = 'http://example.org/zoo';
const NEW = 'http://example.org/new';
let t: TestServer;
let c: Client;
let scratch: string;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'athene-workspace-'));
  t = await startTestServer([fixture('zoo.ttl')]);
  c = await connect(t);
});
after(async () => {
  await c.close();
  await t.stop();
  await rm(scratch, { recursive: true, force: true });
});

const activeIri = async () => (await call(c, 'get_active_ontology')).body.ontology_iri;

test('create_ontology makes a new empty ontology active, bound to a file a plain save writes', async () => {
  const file = path.join(scratch, 'nested', 'dir', 'new.ofn');
  const created = await call(c, 'create_ontology', { ontology_iri: NEW, version_iri: NEW + '/1.0', path: file });
  assert.equal(created.isError, false, JSON.stringify(created.body));
  assert.deepEqual(created.body, {
    created_ontology: `${NEW} ${NEW}/1.0`,
    active_ontology: `${NEW} ${NEW}/1.0`,
    kept_active: false,
    document_iri: file,
    workspace_ontologies: 2,
    note: created.body.note,
  });
  assert.match(created.body.note as string, /not undoable/);
  const active = (await call(c, 'get_active_ontology')).body;
  assert.equal(active.ontology_iri, NEW);
  assert.equal(active.axioms, 0);
  await access(path.dirname(file));
  const added = await call(c, 'add_axiom', { axiom_type: 'declaration', entity: 'Thing1', entity_type: 'class' });
  assert.deepEqual(
    (added.body.new_entities as { iri: string }[]).map((e) => e.iri),
    [NEW + '#Thing1'],
    'bare names mint in the new namespace',
  );
  const saved = await call(c, 'save_ontology', {});
  assert.equal(saved.isError, false, JSON.stringify(saved.body));
  assert.match(await readFile(file, 'utf8'), /Declaration\(Class\(/);

  const kept = await call(c, 'create_ontology', { ontology_iri: NEW + '/kept', keep_active: true });
  assert.equal(kept.body.kept_active, true);
  assert.equal(kept.body.document_iri, undefined);
  assert.equal(kept.body.active_ontology, `${NEW} ${NEW}/1.0`);
  assert.equal(await activeIri(), NEW);
});

test('create_ontology refuses a colliding id, an unknown extension and bad arguments, creating nothing', async () => {
  const count = (await call(c, 'list_ontologies')).body.count;
  const collide = await call(c, 'create_ontology', { ontology_iri: ZOO });
  assert.equal(collide.isError, true);
  assert.equal(collide.body.error_code, 'id_in_use');
  assert.match(collide.body.error as string, /already in use/);
  const byVersion = await call(c, 'create_ontology', { ontology_iri: 'http://example.org/fresh', version_iri: NEW + '/1.0' });
  assert.equal(byVersion.body.error_code, 'id_in_use');
  const ext = await call(c, 'create_ontology', { ontology_iri: 'http://example.org/fresh', path: path.join(scratch, 'x.docx') });
  assert.match(ext.body.error as string, /extension/);
  assert.equal((await call(c, 'create_ontology', { ontology_iri: 'no iri' })).body.error_code, 'invalid_argument');
  assert.equal((await call(c, 'create_ontology', { ontology_iri: 'http://a', extra: 1 })).body.error_code, 'invalid_argument');
  const blocker = path.join(scratch, 'blocker');
  await writeFile(blocker, 'a file, not a directory');
  const dir = await call(c, 'create_ontology', { ontology_iri: 'http://example.org/fresh', path: path.join(blocker, 'sub', 'o.ttl') });
  assert.equal(dir.body.error_code, 'io_error');
  assert.equal((await call(c, 'list_ontologies')).body.count, count);
});

test('set_active_ontology switches by ontology or version IRI and reports unknown references', async () => {
  const toZoo = await call(c, 'set_active_ontology', { ontology_iri: ZOO });
  assert.equal(toZoo.isError, false, JSON.stringify(toZoo.body));
  assert.deepEqual(toZoo.body, { active_ontology: ZOO, changed: true, axioms: toZoo.body.axioms, logical_axioms: 2, direct_imports: 0 });
  assert.equal(await activeIri(), ZOO);
  assert.equal((await call(c, 'set_active_ontology', { ontology_iri: ZOO })).body.changed, false);
  const byVersion = await call(c, 'set_active_ontology', { ontology_iri: NEW + '/1.0' });
  assert.equal(byVersion.body.active_ontology, `${NEW} ${NEW}/1.0`);
  assert.equal(byVersion.body.axioms, 1);
  const unknown = await call(c, 'set_active_ontology', { ontology_iri: 'http://example.org/none' });
  assert.equal(unknown.isError, true);
  assert.equal(unknown.body.error, "No loaded ontology matches 'http://example.org/none'. See list_ontologies.");
  assert.equal((await call(c, 'set_active_ontology', {})).body.error_code, 'invalid_argument');
  assert.equal(await activeIri(), NEW);
});

test('an anonymous ontology is made active again by the label list_ontologies shows, or by its document', async () => {
  const anon = path.join(scratch, 'anon-1.ttl');
  const other = path.join(scratch, 'anon-2.ttl');
  for (const file of [anon, other])
    await writeFile(file, '@prefix owl: <http://www.w3.org/2002/07/owl#> .\n[] a owl:Ontology .\n<http://example.org/a#C> a owl:Class .\n');
  assert.equal((await call(c, 'load_ontology', { source: anon })).isError, false);
  await call(c, 'set_active_ontology', { ontology_iri: ZOO });
  const listed = ((await call(c, 'list_ontologies')).body.ontologies as { id: string; anonymous: boolean; document: string }[]).find(
    (o) => o.anonymous,
  )!;
  const byLabel = await call(c, 'set_active_ontology', { ontology_iri: listed.id });
  assert.equal(byLabel.isError, false, JSON.stringify(byLabel.body));
  assert.equal(byLabel.body.changed, true);
  assert.equal((await call(c, 'get_active_ontology')).body.anonymous, true);
  await call(c, 'set_active_ontology', { ontology_iri: ZOO });
  // A second anonymous ontology shares the label: the label is ambiguous, the document is not.
  assert.equal((await call(c, 'load_ontology', { source: other, keep_active: true })).isError, false);
  const ambiguous = await call(c, 'set_active_ontology', { ontology_iri: listed.id });
  assert.equal(ambiguous.body.error_code, 'ambiguous_reference', JSON.stringify(ambiguous.body));
  assert.equal((ambiguous.body.candidates as string[]).length, 2);
  for (const ref of [listed.document, pathToFileURL(anon).href]) {
    await call(c, 'set_active_ontology', { ontology_iri: ZOO });
    const byDocument = await call(c, 'set_active_ontology', { ontology_iri: ref });
    assert.equal(byDocument.isError, false, `${ref}: ${JSON.stringify(byDocument.body)}`);
    assert.equal((await call(c, 'get_active_ontology')).body.anonymous, true);
  }
  await call(c, 'set_active_ontology', { ontology_iri: ZOO });
});

test('workspace tools need ontology:admin, are refused in read-only mode, and a path needs filesystem:project:write', async () => {
  const a = new Ontology();
  a.id = { iri: 'http://example.org/a', versionIri: null };
  const b = new Ontology();
  b.id = { iri: 'http://example.org/b', versionIri: null };
  const reader = toolContext([a, b], principalWith(['ontology:read']));
  assert.deepEqual(
    (await runInContext('set_active_ontology', { ontology_iri: 'http://example.org/b' }, reader)).body.missing_capabilities,
    ['ontology:admin'],
  );
  assert.equal(
    (await runInContext('create_ontology', { ontology_iri: 'http://example.org/c' }, reader)).body.error_code,
    'authorization_denied',
  );
  const readOnly = toolContext([a, b], undefined, { read_only: true });
  assert.equal(
    (await runInContext('set_active_ontology', { ontology_iri: 'http://example.org/b' }, readOnly)).body.error_code,
    'read_only',
  );
  assert.equal((await runInContext('create_ontology', { ontology_iri: 'http://example.org/c' }, readOnly)).body.error_code, 'read_only');
  assert.equal(readOnly.workspace.active, a);

  const admin = toolContext([a], principalWith(['ontology:admin']));
  const target = path.join(scratch, 'denied', 'c.ttl');
  const denied = await runInContext('create_ontology', { ontology_iri: 'http://example.org/c', path: target }, admin);
  assert.deepEqual(denied.body.missing_capabilities, ['filesystem:project:write']);
  await assert.rejects(access(path.dirname(target)), 'no directory was created');
  assert.equal(admin.workspace.ontologies.length, 1);
  assert.equal(
    (await runInContext('create_ontology', { ontology_iri: 'http://example.org/c' }, admin)).isError,
    false,
    'no path: no file capability needed',
  );
});

test('under a project policy create_ontology binds only paths inside the project root', async () => {
  const project = path.join(scratch, 'project');
  await mkdir(path.join(project, '.athene'), { recursive: true });
  await writeFile(path.join(project, '.athene', 'project.yaml'), 'version: 1\nproject_id: p\nroot_ontology: http://example.org/main\n');
  const main = new Ontology();
  main.id = { iri: 'http://example.org/main', versionIri: null };
  main.documentIri = path.join(project, 'main.ttl');
  const ctx = toolContext([main]);
  const outside = await runInContext(
    'create_ontology',
    { ontology_iri: 'http://example.org/out', path: path.join(scratch, 'out', 'o.ttl') },
    ctx,
  );
  assert.equal(outside.body.error_code, 'authorization_denied');
  assert.equal(outside.body.effects_prevented, true);
  assert.match(outside.body.error as string, /outside the project root .*filesystem\.allow_external_paths: true/);
  await assert.rejects(access(path.join(scratch, 'out')));
  const inside = await runInContext(
    'create_ontology',
    { ontology_iri: 'http://example.org/in', path: path.join(project, 'sub', 'in.ttl') },
    ctx,
  );
  assert.equal(inside.isError, false, JSON.stringify(inside.body));
  await access(path.join(project, 'sub'));
});
