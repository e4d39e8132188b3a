// The first tools through the real server (the tool list as a whole; explore, search, edit, history and
// document tools): success paths, error conditions, argument validation, undo/redo, save and load.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestServer, fixture, connect, call, type TestServer } from '../server/support.js';
import { at } from '../support/at.js';

const ZOO = 'http://example.org/zoo#';
let t: TestServer;
let c: Client;
let scratch: string;

before(async () => {
  t = await startTestServer([fixture('zoo.ttl')]);
  c = await connect(t);
  scratch = await mkdtemp(path.join(os.tmpdir(), 'athene-tools-'));
});
after(async () => {
  await c.close();
  await t.stop();
  await rm(scratch, { recursive: true, force: true });
});

const axiomCount = async () => (await call(c, 'get_active_ontology')).body.axioms as number;

test('tools/list lists every tool built so far; every tool refuses an unknown argument', async () => {
  const { tools } = await c.listTools();
  assert.deepEqual(
    tools.map((x) => x.name).sort(),
    [
      'add_annotation',
      'add_axiom',
      'add_import',
      'add_ontology_annotation',
      'add_subclass_of',
      'apply_changes',
      'create_class',
      'create_entity',
      'create_ontology',
      'get_active_ontology',
      'get_axioms_for_entity',
      'get_entity',
      'get_entity_context',
      'get_ontology_context',
      'list_classes',
      'list_ontologies',
      'load_ontology',
      'preview_changes',
      'redo_change',
      'remove_axiom',
      'remove_import',
      'remove_ontology_annotation',
      'remove_prefix',
      'save_ontology',
      'search_entities',
      'set_active_ontology',
      'set_label',
      'set_ontology_id',
      'set_prefix',
      'summarize_ontology',
      'undo_change',
      // change journal: history, revert, recovery
      'get_change_history',
      'recover_unsaved_changes',
      'revert_changes',
      // reasoning
      'execute_dl_query',
      'explain_entailment',
      'explain_inconsistency',
      'get_explanations',
      'get_inferred_superclasses',
      'get_reasoner_capabilities',
      'get_unsatisfiable_classes',
      'list_reasoners',
      'run_reasoner',
      'set_reasoner',
      // materialization
      'commit_materialization',
      'materialize_inferences',
      // validation
      'validate_ontology',
      'validate_governance',
      // diff and impact
      'analyze_change_impact',
      'diff_ontologies',
      'semantic_diff',
      // term creation
      'create_properties',
      'create_property',
      'create_term',
      'create_terms',
      // change sets
      'commit_change_set',
      'discard_change_set',
      'preview_change_set',
      'rebase_change_set',
      // imports
      'inspect_imports',
      'verify_import_lock',
      'write_import_lock',
      // documents: catalogs, modules, merges
      'extract_module',
      'merge_ontology_document',
      'validate_catalog',
      'write_catalog',
      // project policy
      'get_model_revision',
      'get_project_policy',
      'validate_project_policy',
      'write_project_policy_template',
      // QC gates
      'run_project_qc',
      'run_qc_suite',
      'shacl_validate',
      // competency questions
      'add_competency_question',
      'list_competency_questions',
      'remove_competency_question',
      'run_competency_questions',
      // releases
      'prepare_release',
      'run_release_gate',
      // audit
      'export_audit_log',
      // asynchronous jobs
      'cancel_job',
      'export_job_artifact',
      'get_job',
      'list_jobs',
      'start_job',
      // server & session
      'get_session_info',
      // refactoring
      'delete_entity',
      'deprecate_entity',
      'move_class',
      'rename_entity',
      // SWRL rules
      'add_rule',
      'list_rules',
      'remove_rule',
      'validate_rules',
      // SPARQL
      'sparql_query',
      'sparql_schema',
      'sparql_validate',
      'verify_ontology',
      // SSSOM mappings
      'add_mapping',
      'export_sssom',
      'import_sssom',
      'list_mappings',
      'remove_mapping',
      'validate_mappings',
      // external terms
      'accept_reuse_proposal',
      'inspect_external_term',
      'propose_term_reuse',
      'search_external_terms',
    ].sort(),
  );
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, 'object', tool.name);
    const refused = await call(c, tool.name, { unknown_argument: 1 });
    assert.equal(refused.body.error_code, 'invalid_argument', tool.name);
    // a tool without required arguments can only be refusing the unknown one
    if (tool.inputSchema.required === undefined) assert.match(String(refused.body.error), /unknown_argument/, tool.name);
  }
  const declaration = { axiom_type: 'declaration', entity: 'Lion', entity_type: 'class' };
  const extra = await call(c, 'add_axiom', { ...declaration, unknown_argument: 1 });
  assert.equal(extra.body.error_code, 'invalid_argument');
  assert.match(String(extra.body.error), /unknown_argument/);
  const getEntity = tools.find((x) => x.name === 'get_entity')!;
  assert.equal(getEntity.inputSchema.type, 'object');
  assert.deepEqual(getEntity.inputSchema.required, ['entity']);
  const add = tools.find((x) => x.name === 'add_axiom')!;
  const addSchema = add.inputSchema as { oneOf?: unknown; required?: string[]; properties: Record<string, { enum?: string[] }> };
  assert.equal(addSchema.oneOf, undefined, 'no top-level oneOf (refused by some clients)');
  assert.deepEqual(addSchema.required, ['axiom_type']);
  assert.ok(addSchema.properties.axiom_type?.enum?.includes('subclass_of'));
  assert.ok('strict' in addSchema.properties && 'chain' in addSchema.properties);
  assert.equal(add.annotations?.readOnlyHint ?? false, false);
  assert.equal(getEntity.annotations?.readOnlyHint, true);
});

test('list_ontologies and get_active_ontology describe the window', async () => {
  const list = (await call(c, 'list_ontologies')).body;
  assert.equal(list.count, 1);
  assert.equal(list.active, 'http://example.org/zoo');
  const [row] = list.ontologies as Record<string, unknown>[];
  assert.ok(row);
  assert.equal(row.active, true);
  assert.equal(row.anonymous, false);
  assert.equal(row.document, fixture('zoo.ttl'));
  assert.ok((row.axioms as number) >= (row.logical_axioms as number));
  const active = (await call(c, 'get_active_ontology')).body;
  assert.equal(active.ontology_iri, 'http://example.org/zoo');
  assert.equal(active.version_iri, null);
  assert.equal(active.logical_axioms, 2);
  assert.equal(active.write_protection, 'writable');
  assert.deepEqual(active.direct_imports, []);
});

test('get_entity finds by label, CURIE-less name and IRI, and fails for unknown names', async () => {
  const byLabel = (await call(c, 'get_entity', { entity: 'mammal' })).body;
  assert.deepEqual(byLabel.matches, [{ iri: ZOO + 'Mammal', display: 'mammal', type: 'Class' }]);
  const byIri = (await call(c, 'get_entity', { entity: ZOO + 'eats' })).body;
  assert.equal(at(byIri.matches as { type: string }[], 0).type, 'ObjectProperty');
  const missing = await call(c, 'get_entity', { entity: 'Unicorn' });
  assert.equal(missing.isError, true);
  assert.equal(missing.body.error, "No entity found for 'Unicorn'.");
});

test('search_entities ranks an exact label first and pages', async () => {
  const exact = (await call(c, 'search_entities', { query: 'Mammal' })).body;
  assert.equal(exact.best_match, ZOO + 'Mammal');
  assert.equal(exact.would_mint, false);
  const first = at(exact.items as Record<string, unknown>[], 0);
  assert.equal(first.match_kind, 'exact');
  assert.equal(first.iri, ZOO + 'Mammal');
  const page = (await call(c, 'search_entities', { query: 'a', type: 'class', limit: 1 })).body;
  assert.equal(page.returned, 1);
  assert.equal(page.next_offset, 1);
  assert.ok((page.count as number) >= 3);
  const fresh = (await call(c, 'search_entities', { query: 'Zebra' })).body;
  assert.equal(fresh.count, 0);
  assert.equal(fresh.would_mint, true);
  assert.equal((await call(c, 'search_entities', { query: 'big cat' })).body.would_mint, false, 'multi-word queries never mint');
  const typo = (await call(c, 'search_entities', { query: 'Mamal' })).body;
  const hit = at(typo.items as Record<string, unknown>[], 0);
  assert.equal(hit.match_kind, 'fuzzy');
  assert.equal(hit.needs_review, true);
  assert.equal((typo.reuse_candidate as { iri: string }).iri, ZOO + 'Mammal');
  assert.equal(typo.best_match, null);
  const props = (await call(c, 'search_entities', { query: '*', type: 'object_property' })).body;
  assert.deepEqual(
    (props.items as { iri: string }[]).map((i) => i.iri),
    [ZOO + 'eats'],
  );
  const LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';
  const datatypes = (await call(c, 'search_entities', { query: '', type: 'datatype' })).body;
  assert.deepEqual(
    (datatypes.items as { iri: string }[]).map((i) => i.iri),
    [LANG_STRING],
    'implicit literal datatypes are listed for type=datatype',
  );
  const everything = (await call(c, 'search_entities', { query: '*' })).body;
  assert.ok(!(everything.items as { iri: string }[]).some((i) => i.iri === LANG_STRING), 'but not for type=all');
});

test('invalid arguments are rejected before the handler runs', async () => {
  const before = await axiomCount();
  const extra = await call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Cat', super: 'Mammal', bogus: 1 });
  assert.equal(extra.isError, true);
  assert.equal(extra.body.error_code, 'invalid_argument');
  const unknownType = await call(c, 'add_axiom', { axiom_type: 'subclass_off', sub: 'Cat', super: 'Mammal' });
  assert.equal(unknownType.body.error_code, 'invalid_argument');
  assert.match(unknownType.body.error as string, /subclass_of/);
  const tooFew = await call(c, 'add_axiom', { axiom_type: 'disjoint_classes', classes: ['Cat'] });
  assert.equal(tooFew.body.error_code, 'invalid_argument');
  const wrongType = await call(c, 'search_entities', { query: 'x', limit: 'ten' });
  assert.equal(wrongType.body.error_code, 'invalid_argument');
  const missing = await call(c, 'get_entity', {});
  assert.equal(missing.body.error_code, 'invalid_argument');
  assert.equal(await axiomCount(), before);
});

test('add_axiom applies once, declares new entities, and reports an already present axiom', async () => {
  const before = await axiomCount();
  const added = await call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'mammal' });
  assert.equal(added.isError, false);
  assert.equal(added.body.applied, true);
  assert.equal(added.body.axiom, 'Dog SubClassOf mammal');
  assert.deepEqual(added.body.new_entities, [{ iri: ZOO + 'Dog', display: 'Dog', type: 'Class' }]);
  assert.equal(await axiomCount(), before + 2);
  const again = await call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'mammal' });
  // applied = the axiom is now present, as add_subclass_of says it; the note tells that nothing changed
  assert.equal(again.body.applied, true);
  assert.match(again.body.note as string, /already present/);
  assert.equal(await axiomCount(), before + 2);
  const viaAuthoring = await call(c, 'add_subclass_of', { child: 'Dog', parent: 'mammal' });
  assert.deepEqual(
    [viaAuthoring.body.applied, viaAuthoring.body.note],
    [again.body.applied, again.body.note],
    'add_subclass_of and add_axiom agree on a no-op',
  );
  const strict = await call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Wolf', super: 'mammal', strict: true });
  assert.equal(strict.isError, true);
  assert.equal(await axiomCount(), before + 2);
});

test('remove_axiom removes an asserted axiom and fails for an absent one', async () => {
  await call(c, 'add_axiom', { axiom_type: 'class_assertion', class: 'Bird', individual: 'tweety' });
  const removed = await call(c, 'remove_axiom', { axiom_type: 'class_assertion', class: 'Bird', individual: 'tweety' });
  assert.equal(removed.isError, false);
  assert.equal(removed.body.removed, true);
  const absent = await call(c, 'remove_axiom', { axiom_type: 'class_assertion', class: 'Bird', individual: 'tweety' });
  assert.equal(absent.isError, true);
  assert.match(absent.body.error as string, /not asserted/);
});

test('undo and redo move one tool call at a time', async () => {
  const base = await axiomCount();
  await call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Parrot', super: 'Bird' });
  const peek = (await call(c, 'undo_change', { peek: true })).body;
  assert.equal(peek.peek, true);
  const next = peek.next_undo as { changes: number; sample: { op: string; axiom: string }[] };
  assert.equal(next.changes, 2);
  assert.ok(next.sample.some((s) => s.op === 'add' && s.axiom === 'Parrot SubClassOf bird'));
  assert.equal(await axiomCount(), base + 2);
  const undone = (await call(c, 'undo_change')).body;
  assert.equal(undone.undone, true);
  assert.equal(undone.net_axiom_change, -2);
  assert.equal(undone.can_redo, true);
  assert.equal(undone.dirty, true);
  assert.equal(await axiomCount(), base);
  const redone = (await call(c, 'redo_change')).body;
  assert.equal(redone.redone, true);
  assert.equal(redone.axioms_after, base + 2);
  const nothing = await call(c, 'redo_change');
  assert.equal(nothing.isError, true);
  assert.equal(nothing.body.error, 'Nothing to redo.');
});

test('save_ontology saves as a new file, rebinds it, and refuses unknown extensions', async () => {
  const target = path.join(scratch, 'zoo.ofn');
  const saved = await call(c, 'save_ontology', { path: target, verify_round_trip: true });
  assert.equal(saved.isError, false, JSON.stringify(saved.body));
  assert.equal(saved.body.saved, true);
  assert.equal(saved.body.format, 'ofn');
  assert.equal(saved.body.verified, true);
  assert.match(await readFile(target, 'utf8'), /SubClassOf\(:Dog :Mammal\)|SubClassOf\(<http:\/\/example.org\/zoo#Dog>/);
  const list = (await call(c, 'list_ontologies')).body;
  const [row] = list.ontologies as { document: string; dirty: boolean }[];
  assert.ok(row);
  assert.equal(row.document, target);
  assert.equal(row.dirty, false);
  const bad = await call(c, 'save_ontology', { path: path.join(scratch, 'zoo.docx') });
  assert.equal(bad.isError, true);
  assert.match(bad.body.error as string, /extension/);
  const both = await call(c, 'save_ontology', { path: target, all: true });
  assert.equal(both.isError, true);
});

test('load_ontology opens another document as active and reports unreadable sources', async () => {
  const loaded = await call(c, 'load_ontology', { source: fixture('../../../examples/demo.ttl') });
  assert.equal(loaded.isError, false, JSON.stringify(loaded.body));
  assert.equal(loaded.body.already_loaded, false);
  assert.equal(loaded.body.workspace_ontologies, 2);
  assert.match(loaded.body.active_ontology as string, /demo\/library/);
  const active = (await call(c, 'get_active_ontology')).body;
  assert.equal(active.ontology_iri, 'http://athene.example.org/demo/library');
  const missing = await call(c, 'load_ontology', { source: path.join(scratch, 'nope.ttl') });
  assert.equal(missing.isError, true);
  assert.equal(missing.body.error_code, 'load_failed');

  const before = (await call(c, 'list_ontologies')).body;
  const broken = path.join(scratch, 'broken.ttl');
  await writeFile(broken, '@prefix : <http://example.org/b#> .\n:A a <http://www.w3.org/2002/07/owl#Class> .\n:B :p [ :q ;; ] .\n');
  const refused = await call(c, 'load_ontology', { source: broken });
  assert.equal(refused.isError, true);
  assert.match(refused.body.error as string, /line 3/);
  assert.deepEqual((await call(c, 'list_ontologies')).body, before, 'a broken document leaves the workspace unchanged');
});
