// OASIS catalog reading: entries, nested xml:base, nextCatalog reporting, errors and sibling lookup.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CatalogError, catalogLocalFile, parseCatalog, readSiblingCatalog } from '../../src/model/catalog.js';
import { at } from '../support/at.js';

const DIR = path.resolve('/project/onto');
const FILE = path.join(DIR, 'catalog-v001.xml');
const url = (rel: string) => pathToFileURL(path.join(DIR, rel)).href;

const PROTEGE = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<catalog prefer="public" xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
    <uri id="User Entered Import Resolution" name="http://example.org/a" uri="a.owl"/>
    <group id="Folder Repository, directory=, recursive=false" prefer="public" xml:base="imports/">
        <uri id="Automatically generated entry" name="http://example.org/b" uri="b.owl"/>
        <group xml:base="deeper/">
            <uri name="http://example.org/c" uri="c.owl"/>
        </group>
        <uri name="http://example.org/d" uri="../d.owl"/>
    </group>
    <uri name="http://example.org/remote" uri="http://example.org/remote.owl"/>
    <uri name="http://example.org/a" uri="shadowed.owl"/>
    <nextCatalog catalog="../shared/catalog-v001.xml"/>
</catalog>
`;

test('parseCatalog resolves entries through nested xml:base and reports nextCatalog without following it', () => {
  const c = parseCatalog(PROTEGE, FILE);
  assert.equal(c.file, FILE);
  assert.deepEqual(
    c.entries.map((e) => [e.name, e.uri, e.resolved]),
    [
      ['http://example.org/a', 'a.owl', url('a.owl')],
      ['http://example.org/b', 'b.owl', url('imports/b.owl')],
      ['http://example.org/c', 'c.owl', url('imports/deeper/c.owl')],
      ['http://example.org/d', '../d.owl', url('d.owl')],
      ['http://example.org/remote', 'http://example.org/remote.owl', 'http://example.org/remote.owl'],
      ['http://example.org/a', 'shadowed.owl', url('shadowed.owl')],
    ],
  );
  assert.equal(at(c.entries, 1).line, 5);
  assert.deepEqual(c.nextCatalogs, [pathToFileURL(path.resolve(DIR, '../shared/catalog-v001.xml')).href]);
});

test('catalogLocalFile gives the first mapping as a local path, and null for remote or unmapped IRIs', () => {
  const c = parseCatalog(PROTEGE, FILE);
  assert.equal(catalogLocalFile(c, 'http://example.org/a'), path.join(DIR, 'a.owl'));
  assert.equal(catalogLocalFile(c, 'http://example.org/c'), path.join(DIR, 'imports', 'deeper', 'c.owl'));
  assert.equal(catalogLocalFile(c, 'http://example.org/remote'), null);
  assert.equal(catalogLocalFile(c, 'http://example.org/unknown'), null);
});

test('an empty xml:base keeps the enclosing base (as Protégé writes it)', () => {
  const c = parseCatalog('<catalog><group xml:base=""><uri name="x" uri="x.owl"/></group></catalog>', FILE);
  assert.equal(at(c.entries, 0).resolved, url('x.owl'));
});

test('parseCatalog reports malformed XML with its line and column', () => {
  assert.throws(
    () => parseCatalog('<catalog>\n  <uri name="x" uri="y">\n</catalog>\n', FILE),
    (err: unknown) => {
      assert.ok(err instanceof CatalogError);
      assert.equal(err.line, 3);
      assert.match(err.message, /catalog-v001\.xml:3:\d+: /);
      return true;
    },
  );
});

test('readSiblingCatalog reads the catalog beside a document, or gives null when there is none', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-catalog-'));
  try {
    const doc = path.join(dir, 'root.ttl');
    assert.equal(await readSiblingCatalog(doc), null);
    await writeFile(path.join(dir, 'catalog-v001.xml'), '<catalog><uri name="http://example.org/m" uri="m.ttl"/></catalog>');
    const c = await readSiblingCatalog(doc);
    assert.ok(c !== null);
    assert.equal(catalogLocalFile(c, 'http://example.org/m'), path.join(dir, 'm.ttl'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
