// Catalog checking (entry statuses, duplicates, direct-import comparison, delegations, entity safety) and
// deterministic catalog writing, on real files in a temporary folder.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { catalogXml, checkCatalog, relativeUri } from '../../src/model/catalog-document.js';
import { parseCatalog } from '../../src/model/catalog.js';
import { at } from '../support/at.js';

let dir: string;
let secret: string;

const xml = (inner: string, prolog = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n${prolog}<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">\n${inner}\n</catalog>\n`;

async function catalog(name: string, text: string): Promise<string> {
  const file = path.join(dir, name, 'catalog-v001.xml');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'athene-catalog-doc-'));
  await mkdir(path.join(dir, 'p', 'imports'), { recursive: true });
  await writeFile(path.join(dir, 'p', 'imports', 'b.owl'), '<rdf:RDF/>');
  secret = path.join(dir, 'secret.txt');
  await writeFile(secret, 'TOP-SECRET');
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('each entry gets its status: local_ok, local_missing, remote_forbidden, invalid_uri', async () => {
  const file = await catalog(
    'p',
    xml(
      [
        '<group xml:base="imports/"><uri name="http://ex.org/b" uri="b.owl"/></group>',
        '<uri name="http://ex.org/gone" uri="imports/gone.owl"/>',
        '<uri name="http://ex.org/web" uri="https://ex.org/web.owl"/>',
        '<group xml:base="http://[bad"><uri name="http://ex.org/bad" uri="x.owl"/></group>',
      ].join('\n'),
    ),
  );
  const r = await checkCatalog(file, null);
  assert.deepEqual(
    r.entries.map((e) => [e.name, e.status]),
    [
      ['http://ex.org/b', 'local_ok'],
      ['http://ex.org/gone', 'local_missing'],
      ['http://ex.org/web', 'remote_forbidden'],
      ['http://ex.org/bad', 'invalid_uri'],
    ],
  );
  assert.equal(at(r.entries, 0).file, path.join(dir, 'p', 'imports', 'b.owl'));
  assert.equal(r.valid, false);
  assert.deepEqual(
    r.errors.map((e) => e.code),
    ['entry_missing', 'entry_remote', 'entry_invalid'],
  );
  assert.ok(r.errors.every((e) => typeof e.line === 'number'));
});

test('compare_imports lists unmapped direct imports, or reports them as delegated when nextCatalog exists', async () => {
  const mapped = '<uri name="http://ex.org/b" uri="imports/b.owl"/>';
  const plain = await catalog('p', xml(mapped));
  const r = await checkCatalog(plain, ['http://ex.org/z', 'http://ex.org/b', 'http://ex.org/a']);
  assert.equal(r.valid, false);
  assert.deepEqual(r.unmappedImports, ['http://ex.org/a', 'http://ex.org/z']);
  assert.deepEqual(r.delegatedImports, []);
  assert.deepEqual(
    r.errors.map((e) => e.code),
    ['import_unmapped', 'import_unmapped'],
  );

  const delegating = await catalog('p', xml(mapped + '\n<nextCatalog catalog="../shared/catalog-v001.xml"/>'));
  const d = await checkCatalog(delegating, ['http://ex.org/b', 'http://ex.org/a']);
  assert.equal(d.valid, true, 'a delegated import is unverified, not an error');
  assert.deepEqual(d.unmappedImports, []);
  assert.deepEqual(d.delegatedImports, ['http://ex.org/a']);
  assert.equal(d.nextCatalogs.length, 1);
});

test('a name mapped twice to different places is reported', async () => {
  const file = await catalog(
    'p',
    xml(
      '<uri name="http://ex.org/b" uri="imports/b.owl"/>\n<uri name="http://ex.org/b" uri="imports/../imports/b.owl"/>\n<uri name="http://ex.org/b" uri="other.owl"/>',
    ),
  );
  const r = await checkCatalog(file, null);
  assert.deepEqual(
    r.errors.map((e) => e.code),
    ['entry_missing', 'duplicate_name'],
  );
});

test('entities are never expanded: a DOCTYPE pointing at a local file makes the catalog malformed, the file unread', async () => {
  const file = await catalog('evil', xml('<uri name="&x;" uri="a.owl"/>', `<!DOCTYPE catalog [<!ENTITY x SYSTEM "${secret}">]>\n`));
  const r = await checkCatalog(file, null);
  assert.equal(r.valid, false);
  assert.equal(at(r.errors, 0).code, 'catalog_malformed');
  assert.ok(!JSON.stringify(r).includes('TOP-SECRET'));
});

test('a missing catalog is a negative verdict, not an exception', async () => {
  const r = await checkCatalog(path.join(dir, 'none', 'catalog-v001.xml'), ['http://ex.org/a']);
  assert.equal(r.valid, false);
  assert.deepEqual(
    r.errors.map((e) => e.code),
    ['catalog_missing'],
  );
});

test('catalogXml is deterministic, sorted and escaped, and reads back to the same mappings', () => {
  const entries = [
    { name: 'http://ex.org/z?a=1&b=2', uri: 'z%20dir/z.owl' },
    { name: 'http://ex.org/a', uri: '../a.owl' },
  ];
  const text = catalogXml(entries, ['../shared/catalog-v001.xml']);
  assert.equal(text, catalogXml([...entries].reverse(), ['../shared/catalog-v001.xml']));
  const back = parseCatalog(text, path.join(dir, 'q', 'catalog-v001.xml'));
  assert.deepEqual(
    back.entries.map((e) => [e.name, e.uri]),
    [
      ['http://ex.org/a', '../a.owl'],
      ['http://ex.org/z?a=1&b=2', 'z%20dir/z.owl'],
    ],
  );
  assert.equal(back.nextCatalogs.length, 1);
});

test('relativeUri encodes each segment and keeps parent steps', () => {
  const base = path.join(dir, 'p');
  assert.equal(relativeUri(base, path.join(dir, 'p', 'imports', 'b c.owl')), 'imports/b%20c.owl');
  assert.equal(relativeUri(base, path.join(dir, 'shared', 'x.owl')), '../shared/x.owl');
});
