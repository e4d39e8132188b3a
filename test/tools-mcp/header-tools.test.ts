// The seven header tools through the real server (success paths, errors, argument validation, undo), and
// their capability, read-only and project-policy behaviour through the same gate without HTTP.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Ontology } from '../../src/model/ontology.js';
import {
  fixture,
  call,
  principalWith,
  serveAndConnect,
  startOrigin,
  undoDepth,
  type ServedClient,
  type TestOrigin,
} from '../server/support.js';
import { toolContext, runInContext } from '../support/tool-context.js';

const ZOO = 'http://example.org/zoo';
const EXTRA = 'http://example.org/extra';
const REMOTE = 'http://example.org/remote';
const extraTtl = (iri: string, cls: string) =>
  `@prefix owl: <http://www.w3.org/2002/07/owl#> .\n<${iri}> a owl:Ontology .\n<${iri}#${cls}> a owl:Class .\n`;

let served: ServedClient;
let c: Client;
let scratch: string;
let web: TestOrigin;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'athene-header-'));
  await writeFile(path.join(scratch, 'extra.ttl'), extraTtl(EXTRA, 'Extra'));
  await writeFile(path.join(scratch, 'broken.ttl'), '@prefix : <http://x#> .\n:a :b ');
  web = await startOrigin({ '/remote.ttl': extraTtl(REMOTE, 'Far') });
  served = await serveAndConnect([fixture('zoo.ttl')]);
  c = served.c;
});
after(async () => {
  await served.close();
  await web.close();
  await rm(scratch, { recursive: true, force: true });
});

const active = async () => (await call(c, 'get_active_ontology')).body;

test('tools/list shows the header tools as mutating; each refuses an unknown argument', async () => {
  const { tools } = await c.listTools();
  for (const name of [
    'set_ontology_id',
    'set_prefix',
    'remove_prefix',
    'add_import',
    'remove_import',
    'add_ontology_annotation',
    'remove_ontology_annotation',
  ]) {
    const tool = tools.find((x) => x.name === name);
    assert.ok(tool !== undefined, name);
    assert.equal((await call(c, name, { unknown_argument: 1 })).body.error_code, 'invalid_argument', name);
    assert.equal(tool.annotations?.readOnlyHint ?? false, false, name);
  }
  const addImport = tools.find((x) => x.name === 'add_import')!;
  assert.deepEqual(addImport.inputSchema.required, ['iri']);
});

test('set_prefix registers and updates a binding; remove_prefix removes exactly that one', async () => {
  const depth = await undoDepth(c);
  const set = await call(c, 'set_prefix', { prefix: 'ex', namespace: 'http://example.org/ex#' });
  assert.equal(set.isError, false, JSON.stringify(set.body));
  assert.equal(set.body.prefix, 'ex:');
  assert.equal(set.body.namespace, 'http://example.org/ex#');
  const map = set.body.prefixes as Record<string, string>;
  assert.equal(map['ex:'], 'http://example.org/ex#');
  assert.equal(map[':'], ZOO + '#');
  assert.deepEqual(Object.keys(map), Object.keys(map).sort(), 'keys in a total order');
  const added = await call(c, 'add_axiom', { axiom_type: 'declaration', entity: 'ex:Thing1', entity_type: 'class' });
  assert.equal(added.body.applied, true, 'the new prefix parses in operands');
  assert.deepEqual(
    (added.body.new_entities as { iri: string }[]).map((e) => e.iri),
    ['http://example.org/ex#Thing1'],
  );
  await call(c, 'undo_change');
  const updated = await call(c, 'set_prefix', { prefix: 'ex:', namespace: 'http://example.org/ex2#' });
  assert.equal((updated.body.prefixes as Record<string, string>)['ex:'], 'http://example.org/ex2#');
  assert.equal(await undoDepth(c), depth, 'prefix edits are not undoable');

  const removed = await call(c, 'remove_prefix', { prefix: 'ex' });
  assert.equal(removed.isError, false);
  assert.equal(removed.body.removed, true);
  assert.equal(removed.body.prefix, 'ex:');
  assert.equal(removed.body.namespace, 'http://example.org/ex2#');
  assert.match(removed.body.note as string, /not undoable/i);
  const after = removed.body.prefixes as Record<string, string>;
  assert.equal(after['ex:'], undefined);
  assert.equal(after['owl:'], 'http://www.w3.org/2002/07/owl#', 'standard bindings are kept');
  assert.equal(after[':'], ZOO + '#');

  const again = await call(c, 'remove_prefix', { prefix: 'ex:' });
  assert.equal(again.isError, true);
  assert.equal(again.body.error, "Prefix not registered in the active ontology's prefix map: ex:");
  const bad = await call(c, 'set_prefix', { prefix: '1bad', namespace: 'http://x#' });
  assert.equal(bad.body.error_code, 'invalid_argument');
  const relative = await call(c, 'set_prefix', { prefix: 'ok', namespace: 'not an iri' });
  assert.equal(relative.body.error_code, 'invalid_argument');
  assert.equal((await call(c, 'set_prefix', { prefix: 'ex' })).body.error_code, 'invalid_argument');
});

test('the standard bindings cannot be rebound or removed, and the prefix map always shows all five, xml: included', async () => {
  const standard = {
    'owl:': 'http://www.w3.org/2002/07/owl#',
    'rdf:': 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
    'rdfs:': 'http://www.w3.org/2000/01/rdf-schema#',
    'xml:': 'http://www.w3.org/XML/1998/namespace',
    'xsd:': 'http://www.w3.org/2001/XMLSchema#',
  };
  for (const [prefix, namespace] of Object.entries(standard)) {
    const rebound = await call(c, 'set_prefix', { prefix, namespace: 'http://example.org/hijack#' });
    assert.equal(rebound.body.error_code, 'invalid_argument', `${prefix}: ${JSON.stringify(rebound.body)}`);
    assert.match(rebound.body.error as string, /standard binding/);
    assert.equal((await call(c, 'remove_prefix', { prefix })).body.error_code, 'invalid_argument', prefix);
    assert.equal(
      (await call(c, 'set_prefix', { prefix, namespace })).isError,
      false,
      `${prefix}: binding it to its own namespace changes nothing`,
    );
  }
  const set = await call(c, 'set_prefix', { prefix: 'ex3', namespace: 'http://example.org/ex3#' });
  const context = await call(c, 'get_ontology_context');
  for (const map of [set.body.prefixes, context.body.prefixes] as Record<string, string>[]) {
    for (const [prefix, namespace] of Object.entries(standard)) assert.equal(map[prefix], namespace, prefix);
  }
  await call(c, 'remove_prefix', { prefix: 'ex3' });
});

test('set_prefix and remove_prefix fail when the document format has no prefix map', async () => {
  const o = new Ontology();
  o.format = 'ntriples';
  const ctx = toolContext([o]);
  const set = await runInContext('set_prefix', { prefix: 'ex', namespace: 'http://x#' }, ctx);
  assert.equal(set.isError, true);
  assert.equal(set.body.error_code, 'no_prefix_map');
  assert.match(set.body.error as string, /no prefix map/);
  assert.equal((await runInContext('remove_prefix', { prefix: 'ex' }, ctx)).body.error_code, 'no_prefix_map');
  assert.equal(o.prefixes.size, 0);
});

test('add_import and remove_import declare and undeclare imports, one undo unit each', async () => {
  const added = await call(c, 'add_import', { iri: 'http://example.org/missing' });
  assert.equal(added.isError, false, JSON.stringify(added.body));
  assert.deepEqual(added.body, {
    added: true,
    iri: 'http://example.org/missing',
    already_present: false,
    resolved: false,
    note: added.body.note,
  });
  assert.match(added.body.note as string, /load_ontology with keep_active=true/);
  assert.deepEqual((await active()).direct_imports, ['http://example.org/missing']);
  const again = await call(c, 'add_import', { iri: 'http://example.org/missing' });
  assert.equal(again.body.added, false);
  assert.equal(again.body.already_present, true);

  const removed = await call(c, 'remove_import', { iri: 'http://example.org/missing' });
  assert.deepEqual(removed.body, { removed: true, iri: 'http://example.org/missing' });
  assert.deepEqual((await active()).direct_imports, []);
  const absent = await call(c, 'remove_import', { iri: 'http://example.org/missing' });
  assert.equal(absent.isError, true);
  assert.equal(absent.body.error, 'Import not present in the active ontology: http://example.org/missing');
  await call(c, 'undo_change');
  assert.deepEqual((await active()).direct_imports, ['http://example.org/missing'], 'undo restores the removed import');
  await call(c, 'undo_change');
  assert.deepEqual((await active()).direct_imports, [], 'and then removes the added one');
  assert.equal((await call(c, 'add_import', { iri: 'not an iri' })).body.error_code, 'invalid_argument');
  assert.equal((await call(c, 'add_import', { iri: EXTRA, connection_timeout_ms: 0 })).body.error_code, 'invalid_argument');
  assert.equal((await call(c, 'add_import', { iri: EXTRA, network: 'maybe' })).body.error_code, 'invalid_argument');
});

test('add_import with a local document loads it so the import resolves, keeping the active ontology', async () => {
  const result = await call(c, 'add_import', { iri: EXTRA, document: path.join(scratch, 'extra.ttl') });
  assert.equal(result.isError, false, JSON.stringify(result.body));
  assert.equal(result.body.added, true);
  assert.equal(result.body.resolved, true);
  assert.equal(result.body.document, path.join(scratch, 'extra.ttl'));
  assert.equal(result.body.note, undefined);
  assert.equal((await active()).ontology_iri, ZOO);
  assert.equal((await call(c, 'list_ontologies')).body.count, 2);
  const found = (await call(c, 'get_entity', { entity: 'Extra' })).body;
  assert.deepEqual(
    (found.matches as { iri: string }[]).map((m) => m.iri),
    [EXTRA + '#Extra'],
    'imported terms are visible',
  );
  await call(c, 'undo_change');
  assert.deepEqual((await active()).direct_imports, [], 'undo removes the declaration');
  assert.equal((await call(c, 'list_ontologies')).body.count, 2, 'but a load is not undone');
  await call(c, 'redo_change');
  assert.deepEqual((await active()).direct_imports, [EXTRA]);
});

test('add_import leaves the workspace unchanged when the document fails to load or holds another ontology', async () => {
  const count = (await call(c, 'list_ontologies')).body.count;
  const imports = (await active()).direct_imports;
  const parse = await call(c, 'add_import', { iri: 'http://x', document: path.join(scratch, 'broken.ttl') });
  assert.equal(parse.isError, true);
  assert.equal(parse.body.error_code, 'parse_error');
  const missing = await call(c, 'add_import', { iri: 'http://x', document: path.join(scratch, 'nope.ttl') });
  assert.equal(missing.body.error_code, 'load_failed');
  await writeFile(path.join(scratch, 'other.ttl'), extraTtl('http://example.org/other', 'O'));
  const wrong = await call(c, 'add_import', { iri: 'http://example.org/wanted', document: path.join(scratch, 'other.ttl') });
  assert.equal(wrong.isError, true);
  assert.match(wrong.body.error as string, /holds ontology http:\/\/example.org\/other, not http:\/\/example.org\/wanted/);
  const scheme = await call(c, 'add_import', { iri: 'http://x', document: 'ftp://example.org/x.ttl' });
  assert.equal(scheme.body.error_code, 'invalid_argument');
  assert.equal((await call(c, 'list_ontologies')).body.count, count);
  assert.deepEqual((await active()).direct_imports, imports);
});

test('add_import fetches a remote document in legacy mode, and network=deny refuses it without fetching', async () => {
  const hits = web.hits;
  const denied = await call(c, 'add_import', { iri: REMOTE, document: `${web.base}/remote.ttl`, network: 'deny' });
  assert.equal(denied.isError, true);
  assert.equal(denied.body.error_code, 'network_denied');
  assert.match(denied.body.error as string, /request setting network=deny/);
  assert.equal(web.hits, hits, 'nothing was fetched');
  assert.ok(!((await active()).direct_imports as string[]).includes(REMOTE));

  const fetched = await call(c, 'add_import', { iri: REMOTE, document: `${web.base}/remote.ttl`, network: 'allow' });
  assert.equal(fetched.isError, false, JSON.stringify(fetched.body));
  assert.equal(fetched.body.resolved, true);
  assert.equal(web.hits, hits + 1);
  const notFound = await call(c, 'add_import', { iri: 'http://example.org/gone', document: `${web.base}/gone.ttl` });
  assert.equal(notFound.body.error_code, 'load_failed');
  assert.match(notFound.body.error as string, /HTTP 404/);
});

test('add_ontology_annotation adds literal, IRI and nested annotations; remove_ontology_annotation removes them', async () => {
  const comment = { property: 'rdfs:comment', value: 'A small zoo', lang: 'EN' };
  const added = await call(c, 'add_ontology_annotation', comment);
  assert.equal(added.isError, false, JSON.stringify(added.body));
  assert.deepEqual(added.body, {
    added: true,
    already_present: false,
    annotation: {
      property: 'rdfs:comment',
      property_iri: 'http://www.w3.org/2000/01/rdf-schema#comment',
      value: 'A small zoo',
      lang: 'en',
    },
  });
  const again = await call(c, 'add_ontology_annotation', comment);
  assert.equal(again.body.added, false);
  assert.equal(again.body.already_present, true);

  const axioms = (await active()).axioms as number;
  const sourced = await call(c, 'add_ontology_annotation', {
    property: 'source',
    value_iri: 'http://example.org/zoo-source',
    annotations: [{ property: 'rdfs:comment', value: '3', datatype: 'xsd:integer' }],
  });
  assert.equal(sourced.isError, false, JSON.stringify(sourced.body));
  assert.deepEqual(sourced.body.annotation, {
    property: 'source',
    property_iri: ZOO + '#source',
    value_iri: 'http://example.org/zoo-source',
    annotations: [
      {
        property: 'rdfs:comment',
        property_iri: 'http://www.w3.org/2000/01/rdf-schema#comment',
        value: '3',
        datatype: 'http://www.w3.org/2001/XMLSchema#integer',
      },
    ],
  });
  assert.equal((await active()).axioms, axioms + 1, 'the undeclared property is declared in the same change');
  const peek = (await call(c, 'undo_change', { peek: true })).body.next_undo as { changes: number };
  assert.equal(peek.changes, 2, 'declaration and annotation form one undo unit');

  const notNested = await call(c, 'remove_ontology_annotation', { property: 'source', value_iri: 'http://example.org/zoo-source' });
  assert.equal(notNested.isError, true, 'nested annotations are part of the identity');
  assert.equal(notNested.body.error, 'Ontology annotation not present: source = <http://example.org/zoo-source>');
  const removed = await call(c, 'remove_ontology_annotation', comment);
  assert.equal(removed.isError, false);
  assert.equal(removed.body.removed, true);
  assert.equal((removed.body.annotation as { value: string }).value, 'A small zoo');
  const gone = await call(c, 'remove_ontology_annotation', comment);
  assert.equal(gone.body.error, 'Ontology annotation not present: rdfs:comment = "A small zoo"@en');
  await call(c, 'undo_change');
  assert.equal((await call(c, 'add_ontology_annotation', comment)).body.already_present, true, 'undo restored the removed annotation');

  assert.equal((await call(c, 'add_ontology_annotation', { property: 'rdfs:comment' })).body.error_code, 'invalid_argument');
  assert.equal((await call(c, 'add_ontology_annotation', { value: 'x', lang: 'not a tag' })).body.error_code, 'invalid_argument');
  assert.equal(
    (await call(c, 'add_ontology_annotation', { value: 'x', annotations: [{ value: 'y', colour: 'red' }] })).body.error_code,
    'invalid_argument',
  );
});

test('set_ontology_id renames the active ontology, is undoable, and refuses an id in use', async () => {
  const set = await call(c, 'set_ontology_id', { ontology_iri: ZOO + '/v2', version_iri: ZOO + '/v2/1.0' });
  assert.equal(set.isError, false, JSON.stringify(set.body));
  assert.deepEqual(set.body, {
    ontology_iri: ZOO + '/v2',
    version_iri: ZOO + '/v2/1.0',
    message: `Set ontology id to ${ZOO}/v2 version ${ZOO}/v2/1.0.`,
  });
  assert.equal((await active()).version_iri, ZOO + '/v2/1.0');
  const plain = await call(c, 'set_ontology_id', { ontology_iri: ZOO + '/v3' });
  assert.deepEqual(plain.body, { ontology_iri: ZOO + '/v3', message: `Set ontology id to ${ZOO}/v3.` });
  assert.equal((await active()).version_iri, null, 'no version_iri clears the version');
  await call(c, 'undo_change');
  await call(c, 'undo_change');
  const restored = await active();
  assert.equal(restored.ontology_iri, ZOO);
  assert.equal(restored.version_iri, null);

  const inUse = await call(c, 'set_ontology_id', { ontology_iri: EXTRA });
  assert.equal(inUse.isError, true);
  assert.equal(inUse.body.error_code, 'id_in_use');
  assert.match(inUse.body.error as string, /already in use/);
  assert.equal((await active()).ontology_iri, ZOO);
  assert.equal((await call(c, 'set_ontology_id', { ontology_iri: 'relative/name' })).body.error_code, 'invalid_argument');
  assert.equal((await call(c, 'set_ontology_id', {})).body.error_code, 'invalid_argument');
});

test('header tools need ontology:admin, and document loads their conditional capabilities', async () => {
  const zoo = new Ontology();
  zoo.id = { iri: ZOO, versionIri: null };
  const reader = toolContext([zoo], principalWith(['ontology:read']));
  const denied = await runInContext('add_import', { iri: EXTRA }, reader);
  assert.equal(denied.body.error_code, 'authorization_denied');
  assert.deepEqual(denied.body.missing_capabilities, ['ontology:admin']);

  const admin = toolContext([zoo], principalWith(['ontology:admin']));
  const local = await runInContext('add_import', { iri: EXTRA, document: path.join(scratch, 'extra.ttl') }, admin);
  assert.equal(local.body.error_code, 'authorization_denied');
  assert.deepEqual(local.body.missing_capabilities, ['filesystem:project:read']);
  assert.equal(local.body.effects_prevented, true);
  const remote = await runInContext('add_import', { iri: REMOTE, document: `${web.base}/remote.ttl` }, admin);
  assert.deepEqual(remote.body.missing_capabilities, ['network:access']);
  assert.equal(zoo.imports.size, 0);
  assert.equal(admin.workspace.ontologies.length, 1);
});

test('read-only mode refuses every header tool before any effect', async () => {
  const zoo = new Ontology();
  zoo.id = { iri: ZOO, versionIri: null };
  const ctx = toolContext([zoo], undefined, { read_only: true });
  const calls: [string, Record<string, unknown>][] = [
    ['set_ontology_id', { ontology_iri: 'http://x' }],
    ['set_prefix', { prefix: 'a', namespace: 'http://a#' }],
    ['remove_prefix', { prefix: 'a' }],
    ['add_import', { iri: 'http://x' }],
    ['remove_import', { iri: 'http://x' }],
    ['add_ontology_annotation', { value: 'x' }],
    ['remove_ontology_annotation', { value: 'x' }],
  ];
  for (const [name, args] of calls) assert.equal((await runInContext(name, args, ctx)).body.error_code, 'read_only', name);
  assert.equal(zoo.id.iri, ZOO);
  assert.equal(zoo.prefixes.size + zoo.imports.size + zoo.annotations.size, 0);
});

test('under a project policy, remote imports are refused and local documents must lie in the project root', async () => {
  const project = path.join(scratch, 'project');
  await mkdir(path.join(project, '.athene'), { recursive: true });
  await mkdir(path.join(project, 'src'), { recursive: true });
  await writeFile(path.join(project, '.athene', 'project.yaml'), 'version: 1\nproject_id: p\nroot_ontology: http://example.org/main\n');
  await writeFile(path.join(project, 'src', 'inner.ttl'), extraTtl('http://example.org/inner', 'In'));
  const main = new Ontology();
  main.id = { iri: 'http://example.org/main', versionIri: null };
  main.documentIri = path.join(project, 'src', 'main.ttl');
  const ctx = toolContext([main]);
  const hits = web.hits;
  const remote = await runInContext('add_import', { iri: REMOTE, document: `${web.base}/remote.ttl`, network: 'allow' }, ctx);
  assert.equal(remote.body.error_code, 'network_denied');
  assert.match(remote.body.error as string, /project policy/);
  assert.equal(web.hits, hits);
  const outside = await runInContext('add_import', { iri: EXTRA, document: path.join(scratch, 'extra.ttl') }, ctx);
  assert.equal(outside.body.error_code, 'authorization_denied');
  assert.equal(outside.body.effects_prevented, true);
  assert.match(outside.body.error as string, /outside the project root .*filesystem\.allow_external_paths: true/);
  assert.equal(main.imports.size, 0);
  const inside = await runInContext(
    'add_import',
    { iri: 'http://example.org/inner', document: path.join(project, 'src', 'inner.ttl') },
    ctx,
  );
  assert.equal(inside.isError, false, JSON.stringify(inside.body));
  assert.equal(inside.body.resolved, true);
});
