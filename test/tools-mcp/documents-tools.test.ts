// save_ontology's lossy-format contract (OBO) and load_ontology's offline import resolution through sibling
// catalog-v001.xml files and its missing_imports modes, through the real server.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { readDocument } from '../../src/model/formats/registry.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';
import { startTestServer, fixture, connect, call, type TestServer } from '../server/support.js';
import { at } from '../support/at.js';

const OBO = 'http://purl.obolibrary.org/obo/';
const PREFIXES = '@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n';

let t: TestServer;
let c: Client;
let scratch: string;

/** Writes `text` under the scratch folder (creating folders) and returns the absolute path. */
async function put(rel: string, text: string): Promise<string> {
  const file = path.join(scratch, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

const ontologyTtl = (iri: string, imports: string[] = [], body = '') =>
  PREFIXES + `<${iri}> a owl:Ontology${imports.map((i) => ` ; owl:imports <${i}>`).join('')} .\n${body}`;

const catalogXml = (inner: string) =>
  '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' +
  '<catalog prefer="public" xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">\n' +
  inner +
  '\n</catalog>\n';

before(async () => {
  t = await startTestServer([fixture('zoo.ttl')]);
  c = await connect(t);
  scratch = await mkdtemp(path.join(os.tmpdir(), 'athene-documents-'));
});
after(async () => {
  await c.close();
  await t.stop();
  await rm(scratch, { recursive: true, force: true });
});

const ontologyIds = async () => ((await call(c, 'list_ontologies')).body.ontologies as { id: string }[]).map((o) => o.id).sort();

test('save_ontology to OBO keeps what OBO has no tag for in owl-axioms (OBO 1.4 → OWL mapping): nothing is dropped', async () => {
  const source = await put(
    'lossy/x.ttl',
    ontologyTtl(
      OBO + 'x.owl',
      [],
      [
        `<${OBO}X_1> a owl:Class ; rdfs:label "one" , "uno" ; <${OBO}IAO_0000115> "the first" ; rdfs:comment "a comment" .`,
        `<${OBO}X_2> a owl:Class ; rdfs:label "two" ; rdfs:subClassOf [ owl:unionOf ( <${OBO}X_1> <${OBO}X_3> ) ] .`,
        `<${OBO}X_3> a owl:Class ; rdfs:label "three"@en .`,
      ].join('\n'),
    ),
  );
  assert.equal((await call(c, 'load_ontology', { source })).isError, false);
  const before = (await readDocument(await readFile(source, 'utf8'), { format: 'turtle' })).ontology;
  const target = path.join(scratch, 'lossy', 'x.obo');
  const saved = await call(c, 'save_ontology', { path: target, on_lossy: 'fail' });
  assert.equal(saved.isError, false, JSON.stringify(saved.body));
  assert.equal(saved.body.saved, true);
  assert.equal(saved.body.format, 'obo');
  assert.equal(saved.body.lossy_format_warning, undefined);
  const compat = saved.body.obo_compatibility as {
    compatible: boolean;
    issues: { kind: string; focus_iri: string; detail: string }[];
    counts: Record<string, number>;
  };
  assert.equal(compat.compatible, true);
  assert.deepEqual(compat.counts, {
    iri_not_expressible: 0,
    version_iri_in_owl_axioms: 0,
    axiom_in_owl_axioms: 3,
    annotation_in_owl_axioms: 0,
  });
  assert.deepEqual(
    compat.issues.map((i) => [i.kind, i.focus_iri]),
    [
      ['axiom_in_owl_axioms', OBO + 'X_1'],
      ['axiom_in_owl_axioms', OBO + 'X_2'],
      ['axiom_in_owl_axioms', OBO + 'X_3'],
    ],
  );
  const text = await readFile(target, 'utf8');
  assert.match(text, /^def: "the first" \[\]$/m);
  assert.match(text, /^comment: a comment$/m);
  assert.match(text, /^owl-axioms: .*ObjectUnionOf/m);

  const back = (await readDocument(text, { format: 'obo' })).ontology;
  assert.equal(back.id.iri, OBO + 'x.owl');
  for (const a of before.axioms()) assert.ok(back.has(a), `kept: ${a.kind}`);
  const reloaded = await call(c, 'load_ontology', { source: target, keep_active: true });
  assert.equal(reloaded.isError, false, JSON.stringify(reloaded.body));
  assert.equal(reloaded.body.already_loaded, true, 'the save-as rebound the ontology to the OBO file');
});

test('save_ontology with on_lossy=fail refuses a lossy OBO save and leaves the target untouched', async () => {
  const source = await put('lossy/tag.ttl', ontologyTtl(OBO + 'tag.owl', [], '<tag:example.org,2024:thing> a owl:Class .\n'));
  assert.equal((await call(c, 'load_ontology', { source })).isError, false);
  const target = await put('lossy/kept.obo', 'format-version: 1.2\n');
  const refused = await call(c, 'save_ontology', { path: target, on_lossy: 'fail' });
  assert.equal(refused.isError, true);
  assert.equal(refused.body.saved, false);
  assert.equal(refused.body.error_code, 'lossy_format_refused');
  assert.equal((refused.body.obo_compatibility as { compatible: boolean }).compatible, false);
  assert.equal(await readFile(target, 'utf8'), 'format-version: 1.2\n');
});

test('save_ontology reports a lossless OBO save as compatible, and non-OBO saves carry no OBO fields', async () => {
  const source = await put(
    'clean/y.ttl',
    ontologyTtl(
      OBO + 'y.owl',
      [],
      `<${OBO}Y_1> a owl:Class ; rdfs:label "one" .\n<${OBO}Y_2> a owl:Class ; rdfs:subClassOf <${OBO}Y_1> .\n`,
    ),
  );
  await call(c, 'load_ontology', { source });
  const obo = await call(c, 'save_ontology', { path: path.join(scratch, 'clean', 'y.obo'), on_lossy: 'fail' });
  assert.equal(obo.isError, false, JSON.stringify(obo.body));
  assert.equal(obo.body.lossy_format_warning, undefined);
  assert.deepEqual((obo.body.obo_compatibility as { compatible: boolean; issues: unknown[] }).issues, []);
  assert.equal((obo.body.obo_compatibility as { compatible: boolean }).compatible, true);
  const ttl = await call(c, 'save_ontology', { path: path.join(scratch, 'clean', 'y2.ttl') });
  assert.equal(ttl.isError, false);
  assert.equal('obo_compatibility' in ttl.body, false);
  assert.equal('lossy_format_warning' in ttl.body, false);
});

test('save_ontology and load_ontology reject unknown on_lossy / missing_imports values before running', async () => {
  const bad = await call(c, 'save_ontology', { path: path.join(scratch, 'never.obo'), on_lossy: 'drop' });
  assert.equal(bad.isError, true);
  await assert.rejects(readFile(path.join(scratch, 'never.obo')));
  const badLoad = await call(c, 'load_ontology', { source: fixture('zoo.ttl'), missing_imports: 'ignore' });
  assert.equal(badLoad.isError, true);
  assert.match(badLoad.body.error as string, /missing_imports/);
});

test('load_ontology resolves a two-level import chain offline through sibling catalogs (group, xml:base)', async () => {
  const root = await put(
    'chain/root.ttl',
    ontologyTtl('http://example.org/root', ['http://example.org/mid'], '<http://example.org/root#R> a owl:Class .\n'),
  );
  await put(
    'chain/catalog-v001.xml',
    catalogXml(
      '  <group id="Folder Repository" prefer="public" xml:base="modules/">\n    <uri id="m" name="http://example.org/mid" uri="mid.ttl"/>\n  </group>',
    ),
  );
  const mid = await put(
    'chain/modules/mid.ttl',
    ontologyTtl('http://example.org/mid', ['http://example.org/leaf/v1'], '<http://example.org/mid#M> a owl:Class .\n'),
  );
  await put('chain/modules/catalog-v001.xml', catalogXml('  <uri name="http://example.org/leaf/v1" uri="../leaf/leaf.ttl"/>'));
  const leaf = await put(
    'chain/leaf/leaf.ttl',
    PREFIXES +
      '<http://example.org/leaf> a owl:Ontology ; owl:versionIRI <http://example.org/leaf/v1> .\n<http://example.org/leaf#L> a owl:Class .\n',
  );

  const loaded = await call(c, 'load_ontology', { source: root });
  assert.equal(loaded.isError, false, JSON.stringify(loaded.body));
  assert.equal(loaded.body.added_ontologies, 3);
  assert.equal(loaded.body.active_ontology, 'http://example.org/root');
  assert.deepEqual(loaded.body.unresolved_imports, []);
  assert.equal(loaded.body.missing_imports_mode, 'warn');
  assert.deepEqual(loaded.body.resolved_imports, [
    {
      import_iri: 'http://example.org/mid',
      source_ontology: 'http://example.org/root',
      source_document: root,
      target_ontology: 'http://example.org/mid',
      target_document: mid,
      depth: 1,
      location: 'local',
    },
    {
      import_iri: 'http://example.org/leaf/v1',
      source_ontology: 'http://example.org/mid',
      source_document: mid,
      target_ontology: 'http://example.org/leaf http://example.org/leaf/v1',
      target_document: leaf,
      depth: 2,
      location: 'local',
    },
  ]);
  // the imported terms are visible through the closure
  const found = await call(c, 'get_entity_context', { entity: 'http://example.org/leaf#L' });
  assert.equal(found.isError, false, JSON.stringify(found.body));
});

test('load_ontology reads a document with its imports closure declarations: restrictions on a data property declared only in the import are data restrictions (OWL 2 Mapping to RDF Graphs §3.1)', async () => {
  const source = path.join(path.dirname(fixture('zoo.ttl')), '..', 'imports', 'people.ttl');
  const loaded = await call(c, 'load_ontology', { source });
  assert.equal(loaded.isError, false, JSON.stringify(loaded.body));
  assert.equal(loaded.body.added_ontologies, 2, 'people-base.ttl attached through the sibling catalog');
  assert.deepEqual(loaded.body.unresolved_imports, []);
  const target = path.join(scratch, 'people', 'people.ofn');
  await mkdir(path.dirname(target), { recursive: true });
  const saved = await call(c, 'save_ontology', { path: target });
  assert.equal(saved.isError, false, JSON.stringify(saved.body));
  const lines = axiomLines((await readDocument(await readFile(target, 'utf8'), { format: 'ofn' })).ontology.axioms());
  const P = 'http://example.org/people#',
    B = 'http://example.org/people-base#';
  for (const expected of [
    `SubClassOf(<${P}Person> DataMaxCardinality(1 <${B}age>))`,
    `SubClassOf(<${P}Person> DataSomeValuesFrom(<${B}age> <${B}Years>))`,
    `DataPropertyAssertion(<${B}age> <${P}alice> "42"^^<http://www.w3.org/2001/XMLSchema#integer>)`,
  ])
    assert.ok(lines.includes(expected), `${expected} in\n${lines.join('\n')}`);
  assert.ok(
    !lines.some((l) => /Object(MaxCardinality|SomeValuesFrom)|AnnotationAssertion\(<http:\/\/example\.org\/people-base#age>/.test(l)),
    lines.join('\n'),
  );
});

test('an import satisfied by an ontology already loaded types the new document too', async () => {
  const base = path.join(path.dirname(fixture('zoo.ttl')), '..', 'imports', 'people-base.ttl');
  assert.equal((await call(c, 'load_ontology', { source: base, keep_active: true })).isError, false);
  const B = 'http://example.org/people-base#';
  const source = await put(
    'later/later.ttl',
    ontologyTtl(
      'http://example.org/later',
      ['http://example.org/people-base'],
      `<http://example.org/later#Adult> rdfs:subClassOf [ a owl:Restriction ; owl:onProperty <${B}age> ; owl:minCardinality 1 ] .\n`,
    ),
  );
  const loaded = await call(c, 'load_ontology', { source });
  assert.equal(loaded.isError, false, JSON.stringify(loaded.body));
  assert.equal(loaded.body.added_ontologies, 1, 'no catalog: the import is the loaded people-base');
  assert.deepEqual(loaded.body.unresolved_imports, []);
  const target = path.join(scratch, 'later', 'later.ofn');
  assert.equal((await call(c, 'save_ontology', { path: target })).isError, false);
  const lines = axiomLines((await readDocument(await readFile(target, 'utf8'), { format: 'ofn' })).ontology.axioms());
  assert.ok(lines.includes(`SubClassOf(<http://example.org/later#Adult> DataMinCardinality(1 <${B}age>))`), lines.join('\n'));
});

test('load_ontology missing_imports=error refuses before attaching anything, even the resolvable imports', async () => {
  const source = await put('partial/p.ttl', ontologyTtl('http://example.org/p', ['http://example.org/q', 'http://example.org/absent']));
  await put(
    'partial/catalog-v001.xml',
    catalogXml('  <uri name="http://example.org/q" uri="q.ttl"/>\n  <uri name="http://example.org/absent" uri="gone.ttl"/>'),
  );
  await put('partial/q.ttl', ontologyTtl('http://example.org/q'));
  const before = (await call(c, 'list_ontologies')).body;
  const refused = await call(c, 'load_ontology', { source, missing_imports: 'error' });
  assert.equal(refused.isError, true);
  assert.equal(refused.body.error_code, 'missing_imports');
  const missing = refused.body.unresolved_imports as { import_iri: string; reason: string }[];
  assert.deepEqual(
    missing.map((m) => m.import_iri),
    ['http://example.org/absent'],
  );
  assert.match(at(missing, 0).reason, /gone\.ttl.*cannot be read/);
  assert.deepEqual((await call(c, 'list_ontologies')).body, before, 'the workspace is unchanged');
});

test('load_ontology missing_imports=warn lists unresolved imports; silent lists none', async () => {
  const source = await put('partial/p.ttl', ontologyTtl('http://example.org/p', ['http://example.org/q', 'http://example.org/absent']));
  const warned = await call(c, 'load_ontology', { source, keep_active: true });
  assert.equal(warned.isError, false, JSON.stringify(warned.body));
  assert.equal(warned.body.added_ontologies, 2);
  assert.deepEqual(
    (warned.body.resolved_imports as { target_ontology: string }[]).map((e) => e.target_ontology),
    ['http://example.org/q'],
  );
  const unresolved = warned.body.unresolved_imports as { import_iri: string; source_ontology: string; depth: number }[];
  assert.deepEqual(
    unresolved.map((u) => [u.import_iri, u.source_ontology, u.depth]),
    [['http://example.org/absent', 'http://example.org/p', 1]],
  );
  assert.ok((await ontologyIds()).includes('http://example.org/q'));

  const lone = await put('lone/s.ttl', ontologyTtl('http://example.org/s', ['http://example.org/nowhere']));
  const silent = await call(c, 'load_ontology', { source: lone, missing_imports: 'silent', keep_active: true });
  assert.equal(silent.isError, false);
  assert.equal(silent.body.missing_imports_mode, 'silent');
  assert.deepEqual(silent.body.unresolved_imports, []);
  assert.deepEqual(silent.body.resolved_imports, []);
});

test('load_ontology reports a malformed sibling catalog precisely and loads nothing', async () => {
  const source = await put('badcat/b.ttl', ontologyTtl('http://example.org/b', ['http://example.org/c']));
  await put('badcat/catalog-v001.xml', '<catalog>\n  <uri name="x" uri="y">\n</catalog>\n');
  const before = await ontologyIds();
  const refused = await call(c, 'load_ontology', { source });
  assert.equal(refused.isError, true);
  assert.equal(refused.body.error_code, 'catalog_invalid');
  assert.match(refused.body.error as string, /catalog-v001\.xml:3:/);
  assert.deepEqual(await ontologyIds(), before);
});
