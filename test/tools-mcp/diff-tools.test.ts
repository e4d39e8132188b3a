// diff_ontologies and analyze_change_impact through the real server and SDK client: a private right_document
// (never added to the workspace) from temp files, a loaded right ontology, imports closures through a sibling
// catalog, anonymous individuals, limits, every error, a policy refusal, and the impact of a cached preview
// (claimed and released, so it stays cached) and of a pair, with policy modules and validation assets.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  call,
  callOk,
  principalWith,
  serveTempOntology,
  startOrigin,
  withProjectPolicy,
  type Row,
  type ServedTempOntology,
} from '../server/support.js';
import { runInContext, toolContext } from '../support/tool-context.js';
import { zoo } from '../model/helpers.js';
import { changeSetStore } from '../../src/tools/edit/change-sets.js';

const D = 'http://example.org/diff#';
const HEAD = `@prefix : <${D}> .
@prefix owl:  <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
`;
const BODY = `:Animal a owl:Class ; rdfs:label "animal"@en .
:Dog a owl:Class ; rdfs:subClassOf :Animal ; rdfs:label "dog"@en .
:Puppy a owl:Class ; rdfs:subClassOf :Dog ; rdfs:label "puppy"@en .
:Old a owl:Class ; rdfs:label "old"@en ; owl:deprecated true .
:hasOwner a owl:ObjectProperty ; rdfs:label "has owner"@en .
:bob a owl:NamedIndividual .
[] a :Dog ; :hasOwner :bob .
`;
const CAT = ':Cat a owl:Class ; rdfs:subClassOf :Animal ; rdfs:label "cat"@en .\n';
const ONTOLOGY = HEAD + '<http://example.org/diff> a owl:Ontology .\n' + BODY + CAT;
/** 19 axioms: 7 declarations, 6 labels, 1 deprecation, 3 subclass axioms, 2 assertions about a blank node. */
const AXIOMS = 19;

// Cat moves under Dog; Kitten is new. The blank node is described alike, so its axioms are common.
const CHANGED =
  HEAD +
  '<http://example.org/diff> a owl:Ontology .\n' +
  BODY +
  ':Cat a owl:Class ; rdfs:subClassOf :Dog ; rdfs:label "cat"@en .\n:Kitten a owl:Class ; rdfs:subClassOf :Cat ; rdfs:label "kitten"@en .\n';

let served: ServedTempOntology;
let dir: string;
let outside: string;
let c: Client;

before(async () => {
  served = await serveTempOntology('athene-diff-', 'main.ttl', ONTOLOGY);
  ({ dir, c } = served);
  outside = await mkdtemp(path.join(os.tmpdir(), 'athene-diff-outside-'));
  await writeFile(path.join(dir, 'changed.ttl'), CHANGED);
});
after(async () => {
  await served.close();
  await rm(outside, { recursive: true, force: true });
});

const ontologyCount = async () => (await callOk(c, 'list_ontologies')).count as number;
const sub = (s: string, sup: string, op: 'add' | 'remove' = 'add') => ({ op, axiom_type: 'subclass_of', sub: s, super: sup });

test('diff_ontologies against the saved document is identical, blank nodes included, and loads nothing into the workspace', async () => {
  const d = await callOk(c, 'diff_ontologies', { right_document: served.file });
  assert.equal(d.identical, true);
  assert.equal(d.left, 'http://example.org/diff');
  assert.equal(d.right, 'http://example.org/diff');
  assert.equal(d.right_document, served.file);
  assert.deepEqual(d.right_document_unresolved_imports, []);
  assert.deepEqual([d.left_axioms, d.right_axioms, d.common], [AXIOMS, AXIOMS, AXIOMS]);
  assert.deepEqual([d.only_in_left, d.only_in_right, d.only_in_left_count, d.only_in_right_count], [[], [], 0, 0]);
  assert.equal(d.include_imports, false);
  assert.equal(d.logical_only, false);
  assert.equal(d.caveat, undefined);
  assert.equal(await ontologyCount(), 1);
});

test('diff_ontologies lists one-sided axioms as rows in rendering order, capped per side, and logical_only drops declarations and annotations', async () => {
  const d = await callOk(c, 'diff_ontologies', { right_document: path.join(dir, 'changed.ttl') });
  assert.equal(d.identical, false);
  assert.deepEqual([d.left_axioms, d.right_axioms, d.common], [AXIOMS, AXIOMS + 3, AXIOMS - 1]);
  assert.deepEqual(d.only_in_left, [{ axiom_type: 'SubClassOf', rendering: 'cat SubClassOf animal' }]);
  assert.deepEqual(
    d.only_in_right,
    [
      { axiom_type: 'Declaration', rendering: 'Class: kitten' },
      { axiom_type: 'SubClassOf', rendering: 'cat SubClassOf dog' },
      { axiom_type: 'SubClassOf', rendering: 'kitten SubClassOf cat' },
      { axiom_type: 'AnnotationAssertion', rendering: 'kitten rdfs:label "kitten"@en' },
    ],
    'ordered by rendering (code-unit order)',
  );
  assert.equal(d.only_in_right_count, 4);
  assert.equal(d.only_in_right_truncated, undefined);

  const capped = await callOk(c, 'diff_ontologies', { right_document: path.join(dir, 'changed.ttl'), limit: 1 });
  assert.deepEqual(capped.only_in_right, (d.only_in_right as Row[]).slice(0, 1));
  assert.deepEqual([capped.only_in_right_count, capped.only_in_right_truncated], [4, 3]);

  const logical = await callOk(c, 'diff_ontologies', { right_document: path.join(dir, 'changed.ttl'), logical_only: true });
  assert.equal(logical.logical_only, true);
  assert.deepEqual([logical.left_axioms, logical.right_axioms, logical.common], [5, 6, 4]);
  assert.deepEqual(
    (logical.only_in_right as Row[]).map((r) => r.rendering),
    ['cat SubClassOf dog', 'kitten SubClassOf cat'],
  );

  const again = await callOk(c, 'diff_ontologies', { right_document: path.join(dir, 'changed.ttl') });
  assert.equal(JSON.stringify(again), JSON.stringify(d), 'unchanged state gives byte-identical results');
});

test('diff_ontologies compares loaded ontologies by IRI and reports an unknown one', async () => {
  await callOk(c, 'create_ontology', { ontology_iri: 'http://example.org/empty', keep_active: true });
  try {
    const d = await callOk(c, 'diff_ontologies', { right: 'http://example.org/empty' });
    assert.deepEqual(
      [d.left, d.right, d.right_axioms, d.common, d.only_in_left_count],
      ['http://example.org/diff', 'http://example.org/empty', 0, 0, AXIOMS],
    );
    assert.equal(d.right_document, undefined);
    assert.equal(d.right_document_unresolved_imports, undefined);
    const reversed = await callOk(c, 'diff_ontologies', { left: 'http://example.org/empty', right: '<http://example.org/diff>' });
    assert.deepEqual([reversed.left_axioms, reversed.only_in_right_count], [0, AXIOMS]);
  } finally {
    await callOk(c, 'set_active_ontology', { ontology_iri: 'http://example.org/diff' });
  }
  const unknownRight = await call(c, 'diff_ontologies', { right: 'http://example.org/nope' });
  assert.deepEqual([unknownRight.isError, unknownRight.body.error_code, unknownRight.body.argument], [true, 'not_found', 'right']);
  const unknownLeft = await call(c, 'diff_ontologies', { left: 'http://example.org/nope', right_document: served.file });
  assert.deepEqual([unknownLeft.body.error_code, unknownLeft.body.argument], ['not_found', 'left']);
});

test('right_document imports resolve through a sibling catalog; unresolved ones are listed and truncate the closure with a caveat', async () => {
  const docs = await mkdtemp(path.join(os.tmpdir(), 'athene-diff-imports-'));
  const loaded = await ontologyCount();
  try {
    await writeFile(
      path.join(docs, 'importer.ttl'),
      HEAD +
        `<http://example.org/importer> a owl:Ontology ;
  owl:imports <http://example.org/part> , <http://example.org/missing> .
:Wolf a owl:Class .
:Fox rdfs:subClassOf :Wolf .
`,
    );
    await writeFile(
      path.join(docs, 'part.ttl'),
      HEAD + '<http://example.org/part> a owl:Ontology .\n:Fox a owl:Class ; rdfs:subClassOf :Animal .\n',
    );
    await writeFile(
      path.join(docs, 'catalog-v001.xml'),
      `<?xml version="1.0"?>
<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><uri name="http://example.org/part" uri="part.ttl"/></catalog>
`,
    );
    const flat = await callOk(c, 'diff_ontologies', { right_document: path.join(docs, 'importer.ttl') });
    assert.equal(flat.right_axioms, 2);
    assert.deepEqual(flat.right_document_unresolved_imports, [
      { import_iri: 'http://example.org/missing', reason: 'not loaded and not mapped to a local file by a catalog-v001.xml' },
    ]);
    assert.equal(flat.caveat, undefined, 'the caveat is about closures');
    const closure = await callOk(c, 'diff_ontologies', { right_document: path.join(docs, 'importer.ttl'), include_imports: true });
    assert.equal(closure.include_imports, true);
    assert.equal(closure.right_axioms, 4);
    // names come from the right side's own closure, where Animal has no label
    assert.ok((closure.only_in_right as Row[]).some((r) => r.rendering === 'Fox SubClassOf Animal'));
    assert.match(closure.caveat as string, /truncated.*http:\/\/example\.org\/missing/);

    // Fox is declared only in the imported part: the importer's axiom about it re-axiomatizes a foreign term
    const impact = await callOk(c, 'analyze_change_impact', {
      right_document: path.join(docs, 'importer.ttl'),
      include_imports: true,
      limit: 500,
    });
    assert.equal(impact.include_imports, true);
    assert.match(impact.caveat as string, /truncated/);
    assert.deepEqual(impact.right_document_unresolved_imports, closure.right_document_unresolved_imports);
    assert.deepEqual(impact.foreign_reaxiomatization, {
      count: 1,
      items: [{ operation: 'add', subject: D + 'Fox', axiom_type: 'SubClassOf', rendering: 'Fox SubClassOf Wolf' }],
    });
    assert.equal(await ontologyCount(), loaded, 'neither the document nor its import joined the workspace');
  } finally {
    await rm(docs, { recursive: true, force: true });
  }
});

test('diff_ontologies errors: neither or both right forms, unreadable or unparsable documents, network=deny, arguments', async () => {
  const neither = await call(c, 'diff_ontologies', {});
  assert.deepEqual([neither.isError, neither.body.error_code], [true, 'invalid_argument']);
  const both = await call(c, 'diff_ontologies', { right: 'http://example.org/diff', right_document: served.file });
  assert.equal(both.body.error_code, 'invalid_argument');
  const missing = await call(c, 'diff_ontologies', { right_document: path.join(dir, 'absent.ttl') });
  assert.deepEqual([missing.isError, missing.body.error_code], [true, 'load_failed']);
  await writeFile(path.join(outside, 'broken.ttl'), '@prefix : <http://x#> .\n:a :b');
  const broken = await call(c, 'diff_ontologies', { right_document: path.join(outside, 'broken.ttl') });
  assert.equal(broken.body.error_code, 'parse_error');
  const origin = await startOrigin({ '/remote.ttl': ONTOLOGY });
  try {
    const denied = await call(c, 'diff_ontologies', { right_document: origin.base + '/remote.ttl', network: 'deny' });
    assert.deepEqual([denied.body.error_code, denied.body.denied_by], ['network_denied', 'request network=deny']);
    assert.equal(origin.hits, 0, 'nothing was fetched');
    const remote = await callOk(c, 'diff_ontologies', { right_document: origin.base + '/remote.ttl' });
    assert.equal(remote.identical, true);
    assert.deepEqual(remote.right_document_unresolved_imports, []);
  } finally {
    await origin.close();
  }
  for (const bad of [{ limit: 0 }, { limit: 1.5 }, { logical_only: 'yes' }, { network: 'maybe' }, { extra: 1 }]) {
    const r = await call(c, 'diff_ontologies', { right_document: served.file, ...bad });
    assert.equal(r.body.error_code, 'invalid_argument', JSON.stringify(bad));
  }
});

test('reading a right_document needs filesystem:project:read beyond the static ontology:read', async () => {
  const ctx = toolContext([zoo()], principalWith(['ontology:read']));
  for (const tool of ['diff_ontologies', 'analyze_change_impact']) {
    const r = await runInContext(tool, { right_document: served.file }, ctx);
    assert.deepEqual(
      [r.isError, r.body.error_code, r.body.missing_capabilities, r.body.effects_prevented],
      [true, 'authorization_denied', ['filesystem:project:read'], true],
      tool,
    );
  }
  const loaded = await runInContext('diff_ontologies', { right: 'http://example.org/zoo' }, ctx);
  assert.equal(loaded.body.identical, true, 'a loaded right ontology needs nothing more');
});

test('under a project policy a right_document outside the project root is refused before it is read', async () => {
  await writeFile(path.join(outside, 'copy.ttl'), ONTOLOGY);
  await withProjectPolicy(dir, 'version: 1\nproject_id: diff\nroot_ontology: http://example.org/diff\n', async () => {
    const refused = await call(c, 'diff_ontologies', { right_document: path.join(outside, 'copy.ttl') });
    assert.deepEqual([refused.isError, refused.body.error_code, refused.body.denied_by], [true, 'authorization_denied', 'project policy']);
    const inside = await callOk(c, 'diff_ontologies', { right_document: path.join(dir, 'changed.ttl') });
    assert.equal(inside.identical, false);
  });
});

test('analyze_change_impact of a cached preview: delta, affected terms, references, reachable and deprecated terms; the preview stays cached', async () => {
  const p = await callOk(c, 'preview_change_set', { operations: [sub('cat', 'dog'), sub('cat', 'animal', 'remove'), sub('puppy', 'old')] });
  const id = p.change_set_id as string;
  const r = await callOk(c, 'analyze_change_impact', { change_set_id: id });
  assert.equal(r.analysis, 'syntactic');
  assert.match(r.note as string, /semantic_diff/);
  // TOOLS.md: co-occurrence proves reachability, not logical impact (it does not prove the absence of one)
  assert.match(r.note as string, /proves reachability, not logical impact/);
  assert.doesNotMatch(r.note as string, /proves no logical impact/);
  assert.equal(r.change_set_id, id);
  assert.deepEqual(r.base_revision, p.base_revision);
  assert.equal(r.left, undefined);
  assert.equal(r.include_imports, false);
  assert.deepEqual(r.delta, {
    added_axioms: {
      count: 2,
      items: [
        { axiom_type: 'SubClassOf', rendering: 'cat SubClassOf dog' },
        { axiom_type: 'SubClassOf', rendering: 'puppy SubClassOf old' },
      ],
    },
    removed_axioms: { count: 1, items: [{ axiom_type: 'SubClassOf', rendering: 'cat SubClassOf animal' }] },
  });
  const affected = r.directly_affected as Row;
  assert.equal(affected.count, 5);
  assert.deepEqual((affected.items as Row[])[0], { iri: D + 'Cat', added: 1, removed: 1 }, 'most affected first');
  assert.deepEqual(
    (affected.items as Row[]).slice(1).map((x) => x.iri),
    [D + 'Animal', D + 'Dog', D + 'Old', D + 'Puppy'],
  );
  assert.deepEqual(affected.modules, { available: false, reason: 'no project policy governs this ontology' });
  const referencing = (r.referencing_axioms as Row).items as Row[];
  assert.ok(referencing.some((x) => x.rendering === 'dog SubClassOf animal'));
  assert.ok(!referencing.some((x) => x.rendering === 'cat SubClassOf animal'), 'delta axioms are not references');
  const downstream = r.downstream_terms as Row;
  assert.deepEqual([downstream.analysis, downstream.depth_cap, downstream.size_cap], ['syntactic', 3, 1000]);
  assert.ok(
    (downstream.items as Row[]).some((x) => x.iri === D + 'hasOwner'),
    'reached through the blank node typed Dog',
  );
  assert.deepEqual(r.deprecated_terms_in_use, { count: 1, items: [{ iri: D + 'Old', display: 'old' }] });
  assert.deepEqual(r.foreign_reaxiomatization, { count: 0, items: [] });
  assert.deepEqual(r.validation_references, { available: false, reason: 'no project policy governs this ontology' });
  assert.equal((r.public_api_terms as Row).available, false);
  assert.equal((r.external_mappings as Row).available, false);

  const limited = await callOk(c, 'analyze_change_impact', { change_set_id: id, limit: 1 });
  assert.deepEqual(
    [
      (limited.directly_affected as Row).count,
      ((limited.directly_affected as Row).items as Row[]).length,
      (limited.directly_affected as Row).truncated,
    ],
    [5, 1, 4],
  );

  // the analysis claimed the preview and released it: it is still a ready, cached preview
  assert.equal((await callOk(c, 'discard_change_set', { change_set_id: id })).discarded, true);
  const gone = await call(c, 'analyze_change_impact', { change_set_id: id });
  assert.deepEqual(
    [gone.isError, gone.body.error_code, gone.body.analyzed, gone.body.change_set_id],
    [true, 'unknown_change_set', false, id],
  );
});

test('analyze_change_impact refuses a preview that is being committed, and leaves it to the committer', async () => {
  const ctx = toolContext([zoo()]);
  const preview = await runInContext(
    'preview_change_set',
    { operations: [{ axiom_type: 'subclass_of', sub: 'Cat', super: 'Animal' }] },
    ctx,
  );
  const id = preview.body.change_set_id as string;
  const store = changeSetStore(ctx.window);
  store.claim(id);
  const busy = await runInContext('analyze_change_impact', { change_set_id: id }, ctx);
  assert.deepEqual(
    [busy.isError, busy.body.error_code, busy.body.analyzed, busy.body.change_set_id, busy.body.retryable],
    [true, 'change_set_in_progress', false, id, true],
  );
  store.release(id);
  const done = await runInContext('analyze_change_impact', { change_set_id: id }, ctx);
  assert.equal(done.isError, false);
});

test('analyze_change_impact errors: unknown change set, both forms, neither form', async () => {
  const unknown = await call(c, 'analyze_change_impact', { change_set_id: 'cs_nope' });
  assert.deepEqual(
    [unknown.isError, unknown.body.error_code, unknown.body.analyzed, unknown.body.change_set_id],
    [true, 'unknown_change_set', false, 'cs_nope'],
  );
  const both = await call(c, 'analyze_change_impact', { change_set_id: 'cs_nope', right_document: served.file });
  assert.deepEqual([both.isError, both.body.error_code], [true, 'invalid_argument']);
  const neither = await call(c, 'analyze_change_impact', {});
  assert.deepEqual([neither.isError, neither.body.error_code], [true, 'invalid_argument']);
  const leftOnly = await call(c, 'analyze_change_impact', { left: 'http://example.org/diff' });
  assert.equal(leftOnly.body.error_code, 'invalid_argument');
});

test('analyze_change_impact of a pair, with policy modules and validation assets naming affected terms', async () => {
  await writeFile(path.join(dir, 'cqs.rq'), `PREFIX d: <${D}>\nSELECT ?x WHERE { ?x rdfs:subClassOf d:Cat }\n`);
  await writeFile(path.join(dir, 'shapes.ttl'), `<${D}KittenShape> <http://www.w3.org/ns/shacl#targetClass> <${D}Kitten> .\n`);
  const policy = [
    'version: 1',
    'project_id: diff',
    'root_ontology: http://example.org/diff',
    'prefixes:',
    `  d: "${D}"`,
    'modules:',
    '  - id: core',
    '    path: main.ttl',
    `    namespaces: ["${D}"]`,
    'cqs:',
    '  paths: [cqs.rq]',
    'shacl:',
    '  paths: [shapes.ttl]',
    '',
  ].join('\n');
  await withProjectPolicy(dir, policy, async () => {
    const r = await callOk(c, 'analyze_change_impact', { right_document: path.join(dir, 'changed.ttl') });
    assert.equal(r.analysis, 'syntactic');
    assert.deepEqual(
      [r.left, r.right, r.right_document, r.right_document_unresolved_imports],
      ['http://example.org/diff', 'http://example.org/diff', path.join(dir, 'changed.ttl'), []],
    );
    assert.equal(r.change_set_id, undefined);
    const delta = r.delta as Row;
    assert.deepEqual([(delta.added_axioms as Row).count, (delta.removed_axioms as Row).count], [4, 1]);
    const affected = r.directly_affected as Row;
    // Cat and Kitten are named by three delta axioms each (ties by IRI), Animal and Dog by one
    assert.deepEqual(
      (affected.items as Row[]).map((x) => x.iri),
      [D + 'Cat', D + 'Kitten', D + 'Animal', D + 'Dog'],
    );
    const modules = affected.modules as Row;
    assert.equal(modules.available, true);
    assert.deepEqual(modules.items, [{ module: 'core', terms: { count: 4, items: [D + 'Animal', D + 'Cat', D + 'Dog', D + 'Kitten'] } }]);
    assert.deepEqual(modules.unowned, { count: 0, items: [] });
    const refs = r.validation_references as Row;
    assert.equal(refs.available, true);
    assert.equal(refs.match, 'textual');
    assert.equal(refs.files_scanned, 2);
    assert.equal(refs.searched_iris, 4);
    assert.deepEqual(
      refs.items,
      [
        { source: 'shacl', ref: 'shapes.ttl', iris: [D + 'Kitten'] },
        { source: 'cqs', ref: 'cqs.rq', iris: [D + 'Cat'], convention: 'curie' },
      ],
      'assets in policy block order (invariants, shacl, cqs)',
    );
  });
});
