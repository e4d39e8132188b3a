// validate_catalog and write_catalog through the real server: statuses of a Protégé-style catalog beside
// the active document, direct-import comparison, a deterministic written catalog that load_ontology then
// resolves imports through, preservation of hand-written entries, and policy confinement of the path.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { serveAndConnect, fixture, call, callOk, withProjectPolicy, type ServedClient, type Row } from '../server/support.js';

const PREFIXES = '@prefix owl: <http://www.w3.org/2002/07/owl#> .\n';
const ROOT = 'http://example.org/cat/root';
const A = 'http://example.org/cat/a';
const A_V1 = 'http://example.org/cat/a/1.0';
const B = 'http://example.org/cat/b';

const catalogXml = (inner: string) =>
  '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' +
  '<catalog prefer="public" xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">\n' +
  inner +
  '\n</catalog>\n';

let served: ServedClient;
let dir: string;
let root: string;

async function put(rel: string, text: string): Promise<string> {
  const file = path.join(dir, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'athene-catalog-tools-'));
  await put('imports/a.ttl', PREFIXES + `<${A}> a owl:Ontology ; owl:versionIRI <${A_V1}> .\n<${A}#X> a owl:Class .\n`);
  root = await put('root.ttl', PREFIXES + `<${ROOT}> a owl:Ontology ; owl:imports <${A_V1}> , <${B}> .\n`);
  await put(
    'catalog-v001.xml',
    catalogXml(
      [
        `    <group xml:base="imports/"><uri name="${A_V1}" uri="a.ttl"/></group>`,
        '    <uri name="http://example.org/cat/remote" uri="https://example.org/remote.owl"/>',
        '    <nextCatalog catalog="../shared/catalog-v001.xml"/>',
      ].join('\n'),
    ),
  );
  served = await serveAndConnect([fixture('zoo.ttl')]);
  await callOk(served.c, 'load_ontology', { source: root });
});
after(async () => {
  await served.close();
  await rm(dir, { recursive: true, force: true });
});

test('validate_catalog reads the catalog beside the active document, statuses and delegations included', async () => {
  const r = await callOk(served.c, 'validate_catalog', { compare_imports: true });
  assert.equal(r.catalog, path.join(dir, 'catalog-v001.xml'));
  assert.deepEqual(
    (r.entries as Row[]).map((e) => [e.name, e.status]),
    [
      [A_V1, 'local_ok'],
      ['http://example.org/cat/remote', 'remote_forbidden'],
    ],
  );
  assert.equal(r.valid, false, 'a remote entry is an error');
  assert.deepEqual(
    (r.errors as Row[]).map((e) => e.code),
    ['entry_remote'],
  );
  assert.equal((r.next_catalogs as string[]).length, 1);
  // B is unmapped, but a delegation exists that is never followed
  assert.deepEqual(r.unmapped_imports, []);
  assert.deepEqual(r.delegated_imports, [B]);
});

test('write_catalog maps every resolved local import by import, ontology and version IRI, and skips the rest', async () => {
  const out = path.join(dir, 'out');
  const r = await callOk(served.c, 'write_catalog', { path: out });
  assert.equal(r.catalog, path.join(out, 'catalog-v001.xml'));
  assert.deepEqual(r.entries, [
    { name: A, uri: '../imports/a.ttl' },
    { name: A_V1, uri: '../imports/a.ttl' },
  ]);
  assert.equal(r.entry_count, 2);
  assert.deepEqual(r.skipped, [{ import: B, reason: 'unresolved: no loaded ontology satisfies it' }]);
  const text = await readFile(path.join(out, 'catalog-v001.xml'), 'utf8');
  assert.match(
    text,
    /<uri name="http:\/\/example.org\/cat\/a" uri="..\/imports\/a.ttl"\/>\n {4}<uri name="http:\/\/example.org\/cat\/a\/1.0"/,
  );
  const again = await callOk(served.c, 'write_catalog', { path: path.join(out, 'catalog-v001.xml') });
  assert.deepEqual(again.entries, r.entries);
  assert.equal(await readFile(path.join(out, 'catalog-v001.xml'), 'utf8'), text, 'rewriting the same closure is byte-identical');
  const check = await callOk(served.c, 'validate_catalog', { path: out, compare_imports: true });
  assert.deepEqual(check.unmapped_imports, [B]);
  assert.deepEqual(
    (check.entries as Row[]).map((e) => e.status),
    ['local_ok', 'local_ok'],
  );
});

test('a written catalog resolves the imports of a later load offline', async () => {
  const copy = await put('out/root-copy.ttl', PREFIXES + `<${ROOT}/copy> a owl:Ontology ; owl:imports <${A}> .\n`);
  const s = await serveAndConnect([fixture('zoo.ttl')]);
  try {
    const loaded = await callOk(s.c, 'load_ontology', { source: copy, missing_imports: 'error' });
    assert.deepEqual(
      (loaded.resolved_imports as Row[]).map((e) => [e.import_iri, e.target_document]),
      [[A, path.join(dir, 'imports', 'a.ttl')]],
    );
  } finally {
    await s.close();
  }
});

test('write_catalog beside the document keeps hand-written entries and delegations of the existing catalog', async () => {
  const r = await callOk(served.c, 'write_catalog', {});
  assert.deepEqual(r.entries, [
    { name: A, uri: 'imports/a.ttl' },
    { name: A_V1, uri: 'imports/a.ttl' },
    { name: 'http://example.org/cat/remote', uri: 'https://example.org/remote.owl' },
  ]);
  assert.deepEqual(r.preserved, { entries: 1, next_catalogs: 1 });
  const text = await readFile(path.join(dir, 'catalog-v001.xml'), 'utf8');
  assert.match(text, /<nextCatalog catalog="..\/shared\/catalog-v001.xml"\/>/);
});

test('write_catalog refuses to replace a malformed catalog and writes nothing', async () => {
  const bad = await put('bad/catalog-v001.xml', '<catalog><uri name="x"');
  const r = await call(served.c, 'write_catalog', { path: bad });
  assert.equal(r.isError, true);
  assert.equal(r.body.error_code, 'catalog_invalid');
  assert.equal(await readFile(bad, 'utf8'), '<catalog><uri name="x"');
});

test('under a project policy a catalog path outside the project root is refused', async () => {
  const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'athene-catalog-outside-'));
  try {
    await withProjectPolicy(dir, `version: 1\nproject_id: cat\nroot_ontology: ${ROOT}\n`, async () => {
      const read = await call(served.c, 'validate_catalog', { path: elsewhere });
      assert.equal(read.body.error_code, 'authorization_denied');
      const write = await call(served.c, 'write_catalog', { path: elsewhere });
      assert.equal(write.body.error_code, 'authorization_denied');
      assert.equal(write.body.effects_prevented, true);
      const inside = await callOk(served.c, 'validate_catalog', {});
      assert.equal(inside.catalog, path.join(dir, 'catalog-v001.xml'));
    });
    await assert.rejects(readFile(path.join(elsewhere, 'catalog-v001.xml')), { code: 'ENOENT' });
  } finally {
    await rm(elsewhere, { recursive: true, force: true });
  }
});

test('validate_catalog reports a missing local target, a uri that names no location, a missing and a malformed catalog as errors of a valid:false verdict', async () => {
  const file = await put(
    'statuses/catalog-v001.xml',
    catalogXml(
      [
        `    <uri name="${A}" uri="../imports/a.ttl"/>`,
        '    <uri name="http://example.org/cat/gone" uri="gone.ttl"/>',
        '    <uri name="http://example.org/cat/elsewhere" uri="file://fileserver/share/x.owl"/>',
      ].join('\n'),
    ),
  );
  const r = await callOk(served.c, 'validate_catalog', { path: file });
  assert.equal(r.catalog, file);
  assert.deepEqual(
    (r.entries as Row[]).map((e) => [e.name, e.status]),
    [
      [A, 'local_ok'],
      ['http://example.org/cat/gone', 'local_missing'],
      ['http://example.org/cat/elsewhere', 'invalid_uri'],
    ],
  );
  assert.equal(r.valid, false);
  assert.deepEqual((r.errors as Row[]).map((e) => e.code).sort(), ['entry_invalid', 'entry_missing']);
  assert.deepEqual([r.next_catalogs, r.unmapped_imports, r.delegated_imports], [[], [], []], 'without compare_imports no import is judged');
  const absent = await callOk(served.c, 'validate_catalog', { path: path.join(dir, 'nowhere', 'catalog-v001.xml') });
  assert.deepEqual([absent.valid, (absent.errors as Row[]).map((e) => e.code), absent.entries], [false, ['catalog_missing'], []]);
  const malformed = await put('malformed/catalog-v001.xml', '<catalog><uri name="x"');
  const bad = await callOk(served.c, 'validate_catalog', { path: malformed });
  assert.deepEqual(
    [bad.valid, (bad.errors as Row[]).map((e) => e.code)],
    [false, ['catalog_malformed']],
    'a malformed catalog is a verdict, not a failure',
  );
});

test('no folder to write in: an active ontology without a local document (and no path), or a folder that cannot be created', async () => {
  await callOk(served.c, 'create_ontology', { ontology_iri: 'http://example.org/cat/untitled' });
  try {
    for (const tool of ['validate_catalog', 'write_catalog']) {
      const r = await call(served.c, tool, {});
      assert.deepEqual([r.isError, r.body.error_code], [true, 'invalid_argument'], tool);
      assert.match(String(r.body.error), /no local document; give path/);
    }
  } finally {
    await callOk(served.c, 'set_active_ontology', { ontology_iri: ROOT });
  }
  const underFile = await call(served.c, 'write_catalog', { path: path.join(root, 'sub') });
  assert.deepEqual(
    [underFile.isError, underFile.body.error_code, underFile.body.written],
    [true, 'io_error', false],
    'a folder that cannot be created',
  );
});

test("direct_imports_only maps only the active ontology's own imports; by default the whole closure is mapped", async () => {
  const MID = 'http://example.org/cat/mid';
  const LEAF = 'http://example.org/cat/leaf';
  await put('chain/leaf.ttl', PREFIXES + `<${LEAF}> a owl:Ontology .\n`);
  await put('chain/mid.ttl', PREFIXES + `<${MID}> a owl:Ontology ; owl:imports <${LEAF}> .\n`);
  await put('chain/catalog-v001.xml', catalogXml(`    <uri name="${MID}" uri="mid.ttl"/>\n    <uri name="${LEAF}" uri="leaf.ttl"/>`));
  const top = await put('chain/top.ttl', PREFIXES + `<${ROOT}/top> a owl:Ontology ; owl:imports <${MID}> .\n`);
  await callOk(served.c, 'load_ontology', { source: top, missing_imports: 'error' });
  try {
    const direct = await callOk(served.c, 'write_catalog', { path: path.join(dir, 'chain', 'direct'), direct_imports_only: true });
    assert.deepEqual(direct.entries, [{ name: MID, uri: '../mid.ttl' }]);
    assert.deepEqual([direct.entry_count, direct.skipped], [1, []]);
    const all = await callOk(served.c, 'write_catalog', { path: path.join(dir, 'chain', 'all') });
    assert.deepEqual(all.entries, [
      { name: LEAF, uri: '../leaf.ttl' },
      { name: MID, uri: '../mid.ttl' },
    ]);
  } finally {
    await callOk(served.c, 'set_active_ontology', { ontology_iri: ROOT });
  }
});
