// The reasoning tools through the real server: reasoner selection (the reference rule), classification on
// the pool, inference reads, DL queries, honesty fields (complete, unsupported axioms, SWRL warning),
// out_of_sync after edits, inconsistency, and a long classification: the window keeps answering, the run
// has a time bound and is cancelled by another selection. A client cancelling it over the transport:
// test/server/reasoning-cancel.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestServer, connect, call, fixture, principalWith, type Row, type TestServer } from '../server/support.js';
import { toolContext, runInContext } from '../support/tool-context.js';
import { settledStatus, slowOntology, untilClassifying } from '../server/slow-classification.js';
import { resolveReasoner } from '../../src/reasoner/registry.js';
import { loadOntologyFile } from '../../src/model/io.js';

const P = 'http://example.org/pets#';
const OWL_THING = 'http://www.w3.org/2002/07/owl#Thing';
const REASONING = [
  'execute_dl_query',
  'get_inferred_superclasses',
  'get_reasoner_capabilities',
  'get_unsatisfiable_classes',
  'list_reasoners',
  'run_reasoner',
  'set_reasoner',
];

const pets = () => path.join(path.dirname(fixture('x')), '..', 'reasoning', 'pets.ofn');

let t: TestServer;
let c: Client;
let big: TestServer;
let cb: Client;
let scratch: string;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'athene-reasoning-'));
  const bigFile = path.join(scratch, 'big.ofn');
  await writeFile(bigFile, slowOntology(2000));
  [t, big] = await Promise.all([startTestServer([pets()]), startTestServer([bigFile])]);
  [c, cb] = await Promise.all([connect(t), connect(big)]);
});
after(async () => {
  await Promise.all([c.close(), cb.close()]);
  await Promise.all([t.stop(), big.stop()]);
  await rm(scratch, { recursive: true, force: true });
});

const iris = (list: unknown) => (list as { items: { iri: string }[] }).items.map((r) => r.iri);
const displays = (list: unknown) => (list as { items: { display: string }[] }).items.map((r) => r.display);

test('the seven reasoning tools are listed and refuse an unknown argument; none mutates an ontology', async () => {
  const { tools } = await c.listTools();
  const mine = tools.filter((x) => REASONING.includes(x.name));
  assert.deepEqual(mine.map((x) => x.name).sort(), REASONING);
  for (const tool of mine) {
    assert.equal((await call(c, tool.name, { unknown_argument: 1 })).body.error_code, 'invalid_argument', tool.name);
    // set_reasoner is M·N in TOOLS.md: it changes the window's shared selection, a write to a client
    assert.equal(tool.annotations?.readOnlyHint, tool.name === 'set_reasoner' ? undefined : true, tool.name);
  }
});

test('auto is selected from the start: inference tools ask for run_reasoner, list_reasoners reports not_initialized', async () => {
  const list = (await call(c, 'list_reasoners')).body;
  const installed = [
    { name: 'Athene Automatic Reasoner 0.1.0', id: 'auto', current: true },
    { name: 'Athene EL++ Classifier 0.1.0', id: 'el', current: false },
    { name: 'Athene Structural Reasoner 0.1.0', id: 'structural', current: false },
  ];
  // Konclude is listed when installed (its name sorts after Athene's)
  const konclude = (list.reasoners as { id: string; name: string; current: boolean }[]).find((r) => r.id === 'konclude');
  assert.deepEqual(list.reasoners, konclude === undefined ? installed : [...installed, konclude]);
  if (konclude !== undefined) assert.match(konclude.name, /^Konclude \d/);
  assert.equal(list.count, installed.length + (konclude === undefined ? 0 : 1));
  assert.equal(list.current_id, 'auto');
  assert.equal(list.status, 'not_initialized');
  for (const [tool, args] of [
    ['get_unsatisfiable_classes', {}],
    ['get_inferred_superclasses', { entity: 'Dog' }],
  ] as const) {
    const r = await call(c, tool, args);
    assert.equal(r.isError, true, tool);
    assert.equal(r.body.error_code, 'no_reasoner_results', tool);
    assert.match(r.body.error as string, /run_reasoner/);
  }
});

test('the reasoner reference rule: ids, full names, version-less names; no partial versions; ambiguity', () => {
  const id = (ref: string) => {
    const o = resolveReasoner(ref);
    return o.kind === 'match' ? o.reasoner.id : o.kind;
  };
  assert.equal(id('el'), 'el');
  assert.equal(id('STRUCTURAL'), 'structural');
  assert.equal(id('athene el++ classifier 0.1.0'), 'el');
  assert.equal(id('EL++ Classifier'), 'el');
  assert.equal(id('structural reasoner'), 'structural');
  assert.equal(id('EL++ Classifier 0.1'), 'none', 'a partial version never matches');
  assert.equal(id('Classifier 0.1.0'), 'none', 'a version needs the full name');
  assert.equal(id('Classif'), 'none', 'whole tokens only');
  assert.equal(id('Reasoner Structural'), 'none', 'the run must be contiguous and in order');
  assert.equal(id('Athene'), 'ambiguous');
});

test('set_reasoner reports no match and ambiguity as failures, and selects by name', async () => {
  const none = await call(c, 'set_reasoner', { reasoner: 'HermiT' });
  assert.equal(none.isError, true);
  assert.equal(none.body.error_code, 'unknown_reasoner');
  assert.match(none.body.error as string, /Athene EL\+\+ Classifier 0\.1\.0 \[el\]/);
  const ambiguous = await call(c, 'set_reasoner', { reasoner: 'athene' });
  assert.equal(ambiguous.body.error_code, 'ambiguous_reference');
  assert.deepEqual(ambiguous.body.candidates, [
    'Athene Automatic Reasoner 0.1.0 [auto]',
    'Athene EL++ Classifier 0.1.0 [el]',
    'Athene Structural Reasoner 0.1.0 [structural]',
  ]);
  const bad = await call(c, 'set_reasoner', {});
  assert.equal(bad.body.error_code, 'invalid_argument');
  const ok = await call(c, 'set_reasoner', { reasoner: 'EL++ classifier' });
  assert.equal(ok.isError, false);
  assert.deepEqual(ok.body.selected, { name: 'Athene EL++ Classifier 0.1.0', id: 'el' });
  assert.match(ok.body.message as string, /run_reasoner/);
  const list = (await call(c, 'list_reasoners')).body;
  assert.equal(list.current_id, 'el');
  assert.equal(list.status, 'not_initialized');
  const noResults = await call(c, 'get_unsatisfiable_classes');
  assert.equal(noResults.body.error_code, 'no_reasoner_results');
  assert.equal(noResults.body.status, 'not_initialized');
});

test('run_reasoner classifies off the window and reports completeness, unsupported axioms and the SWRL warning', async () => {
  await call(c, 'set_reasoner', { reasoner: 'el' });
  const invalid = await call(c, 'run_reasoner', { timeout_ms: 0 });
  assert.equal(invalid.body.error_code, 'invalid_argument');
  const run = await call(c, 'run_reasoner');
  assert.equal(run.isError, false);
  assert.equal(run.body.started, true);
  assert.equal(run.body.completed, true);
  assert.equal(run.body.status, 'classified');
  assert.equal(run.body.inconsistent, false);
  assert.equal(run.body.unsatisfiable_count, 1);
  assert.equal(run.body.complete, false);
  const unsupported = run.body.unsupported_axioms as { count: number; sample: { axiom_type: string; rendering: string }[] };
  assert.equal(unsupported.count, 2);
  assert.deepEqual(unsupported.sample.map((r) => r.axiom_type).sort(), ['DLSafeRule', 'SubClassOf']);
  assert.ok(unsupported.sample.some((r) => r.rendering === 'Herbivore SubClassOf eats only Plant'));
  assert.match(run.body.warning as string, /SWRL/);
  assert.equal(run.body.cached, false);
  const again = (await call(c, 'run_reasoner')).body;
  assert.equal(again.cached, true, 'the result of this revision is reused');
  assert.equal(again.result_revision, run.body.result_revision);

  const unsat = (await call(c, 'get_unsatisfiable_classes')).body;
  assert.equal(unsat.count, 1);
  assert.deepEqual(iris(unsat), [P + 'Chimera']);
  assert.equal(unsat.coherent, false);
  assert.equal(unsat.status, 'classified');
  assert.equal(unsat.complete, false);
  // the sample is said once per run; inference reads give the count and refer to the run
  const read = unsat.unsupported_axioms as Row;
  assert.equal(read.count, 2);
  assert.equal(read.sample, undefined);
  assert.match(read.sample_in as string, new RegExp(`run_reasoner result of revision ${run.body.result_revision}`));
  const supers = (await call(c, 'get_inferred_superclasses', { entity: 'Puppy' })).body;
  assert.equal((supers.unsupported_axioms as Row).sample, undefined);
});

test('get_inferred_superclasses answers every relation, direct and transitive', async () => {
  const q = async (args: Record<string, unknown>) => (await call(c, 'get_inferred_superclasses', args)).body;
  const direct = await q({ entity: 'Puppy' });
  assert.deepEqual(displays(direct), ['dog']);
  assert.equal(direct.relation, 'superclasses');
  assert.equal(direct.direct, true);
  assert.equal(direct.entity, 'Puppy');
  assert.deepEqual(iris(await q({ entity: 'Puppy', direct: false })).sort(), [P + 'Animal', P + 'Dog', OWL_THING]);
  assert.deepEqual(iris(await q({ entity: 'Animal', relation: 'subclasses' })).sort(), [P + 'Cat', P + 'Dog']);
  assert.deepEqual(
    iris(await q({ entity: 'Animal', relation: 'subclasses', direct: false })).sort(),
    [P + 'Cat', P + 'Dog', P + 'Puppy'],
    'unsatisfiable classes are not reported as subclasses',
  );
  assert.deepEqual(iris(await q({ entity: 'dog owner', relation: 'superclasses' })), [P + 'PetOwner'], 'an inferred subsumption');
  assert.deepEqual(iris(await q({ entity: P + 'rex', relation: 'types' })), [P + 'Puppy']);
  assert.deepEqual(iris(await q({ entity: 'rex', relation: 'types', direct: false })).sort(), [
    P + 'Animal',
    P + 'Dog',
    P + 'Puppy',
    OWL_THING,
  ]);
  const owners = await q({ entity: 'dog owner', relation: 'instances' });
  assert.deepEqual(owners.items, [{ iri: P + 'alice', display: 'alice', type: 'NamedIndividual' }]);
  assert.deepEqual(iris(await q({ entity: 'Animal', relation: 'instances' })), [], 'rex is not a direct instance of Animal');
  assert.deepEqual(iris(await q({ entity: 'Animal', relation: 'instances', direct: false })), [P + 'rex']);
  assert.deepEqual(iris(await q({ entity: 'Chimera', relation: 'equivalent' })), ['http://www.w3.org/2002/07/owl#Nothing']);

  const unknown = await call(c, 'get_inferred_superclasses', { entity: 'Unicorn' });
  assert.equal(unknown.body.error_code, 'not_found');
  const classAsIndividual = await call(c, 'get_inferred_superclasses', { entity: 'Dog', relation: 'types' });
  assert.equal(classAsIndividual.body.error_code, 'not_found');
  const badRelation = await call(c, 'get_inferred_superclasses', { entity: 'Dog', relation: 'parents' });
  assert.equal(badRelation.body.error_code, 'invalid_argument');
});

test('execute_dl_query answers anonymous and named expressions and reports parse errors and unknown names', async () => {
  const all = await call(c, 'execute_dl_query', { query: 'Person and (owns some Animal)' });
  assert.equal(all.isError, false);
  assert.deepEqual(iris(all.body.equivalent), [P + 'PetOwner']);
  assert.deepEqual(iris(all.body.superclasses), [P + 'Person']);
  assert.deepEqual(iris(all.body.subclasses), [P + 'DogOwner']);
  assert.deepEqual(iris(all.body.instances), [], 'alice is a direct instance of DogOwner only');
  assert.equal(all.body.completed, true);
  assert.equal(typeof all.body.result_revision, 'number');
  assert.equal(all.body.status, undefined, 'computed at the current revision');
  assert.equal(all.body.complete, false);
  assert.equal(all.body.warning !== undefined && /SWRL/.test(all.body.warning as string), true);

  const inst = await call(c, 'execute_dl_query', { query: 'owns some Dog', relation: 'instances', direct: false });
  assert.deepEqual(
    Object.keys(inst.body).filter((k) => ['equivalent', 'superclasses', 'subclasses', 'instances'].includes(k)),
    ['instances'],
  );
  assert.deepEqual(iris(inst.body.instances), [P + 'alice']);
  assert.match(inst.body.warning as string, /complete=true/, 'EL++ + anonymous + direct=false without complete');
  const completeArg = await call(c, 'execute_dl_query', { query: 'owns some Dog', relation: 'instances', direct: false, complete: true });
  assert.doesNotMatch(completeArg.body.warning as string, /complete=true/);

  const named = await call(c, 'execute_dl_query', { query: 'dog', relation: 'superclasses' });
  assert.deepEqual(iris(named.body.superclasses), [P + 'Animal']);
  const outside = await call(c, 'execute_dl_query', { query: 'eats only Plant' });
  assert.match(outside.body.note as string, /does not handle/);

  const parse = await call(c, 'execute_dl_query', { query: 'Person and owns some' });
  assert.equal(parse.body.error_code, 'parse_error');
  assert.match(parse.body.error as string, /column/);
  const unknown = await call(c, 'execute_dl_query', { query: 'Unicorn' });
  assert.equal(unknown.body.error_code, 'not_found');
  assert.deepEqual(unknown.body.unknown, ['http://example.org/pets#Unicorn']);
  const badRelation = await call(c, 'execute_dl_query', { query: 'Dog', relation: 'types' });
  assert.equal(badRelation.body.error_code, 'invalid_argument');
});

test('an edit makes the results out_of_sync (never reported as current) until run_reasoner runs again', async () => {
  await call(c, 'set_reasoner', { reasoner: 'el' });
  await call(c, 'run_reasoner');
  const added = await call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Herbivore', super: 'Chimera' });
  assert.equal(added.isError, false);
  const stale = (await call(c, 'get_unsatisfiable_classes')).body;
  assert.equal(stale.status, 'out_of_sync');
  assert.deepEqual(iris(stale), [P + 'Chimera'], 'the old answer, marked stale');
  assert.match(stale.note as string, /revision/);
  assert.equal(typeof stale.result_revision, 'number');
  assert.equal((await call(c, 'list_reasoners')).body.status, 'out_of_sync');
  const run = (await call(c, 'run_reasoner')).body;
  assert.equal(run.status, 'classified');
  assert.equal(run.unsatisfiable_count, 2);
  const fresh = (await call(c, 'get_unsatisfiable_classes')).body;
  assert.equal(fresh.status, 'classified');
  assert.deepEqual(iris(fresh), [P + 'Chimera', P + 'Herbivore']);
  assert.equal(fresh.note, undefined);
  assert.equal((await call(c, 'undo_change')).isError, false);
});

test('an inconsistent ontology: run_reasoner says so and inference reads point at explain_inconsistency', async () => {
  await call(c, 'set_reasoner', { reasoner: 'el' });
  assert.equal((await call(c, 'add_axiom', { axiom_type: 'class_assertion', class: 'Cat', individual: 'rex' })).isError, false);
  const run = (await call(c, 'run_reasoner')).body;
  assert.equal(run.inconsistent, true);
  assert.equal(run.status, 'inconsistent');
  assert.equal(run.unsatisfiable_count, undefined);
  assert.match(run.message as string, /explain_inconsistency/);
  for (const [tool, args] of [
    ['get_unsatisfiable_classes', {}],
    ['get_inferred_superclasses', { entity: 'Dog' }],
    ['execute_dl_query', { query: 'Dog' }],
  ] as const) {
    const r = await call(c, tool, args);
    assert.equal(r.isError, true, tool);
    assert.equal(r.body.error_code, 'inconsistent_ontology', tool);
    assert.match(r.body.error as string, /explain_inconsistency/);
  }
  assert.equal((await call(c, 'undo_change')).isError, false);
  assert.equal((await call(c, 'run_reasoner')).body.status, 'classified');
});

test('the structural reasoner keeps to the told hierarchy and says it is incomplete', async () => {
  await call(c, 'set_reasoner', { reasoner: 'structural reasoner' });
  assert.equal((await call(c, 'list_reasoners')).body.status, 'not_initialized', 'results of another reasoner are not reused');
  const run = (await call(c, 'run_reasoner')).body;
  assert.equal(run.completed, true);
  assert.equal(run.unsatisfiable_count, 0, 'told-only: Chimera is not found unsatisfiable');
  assert.equal(run.complete, false);
  assert.ok((run.unsupported_axioms as { count: number }).count >= 4);
  const sup = (await call(c, 'get_inferred_superclasses', { entity: 'dog owner' })).body;
  assert.deepEqual(iris(sup), [OWL_THING]);
});

test('get_reasoner_capabilities gives stable identity, digests and closed capability rows', async () => {
  await call(c, 'set_reasoner', { reasoner: 'el' });
  const a = (await call(c, 'get_reasoner_capabilities')).body;
  const b = (await call(c, 'get_reasoner_capabilities')).body;
  assert.deepEqual(a, b, 'unchanged state yields identical JSON');
  const id = a.identity as Record<string, unknown>;
  assert.equal(id.id, 'el');
  assert.equal(id.name, 'Athene EL++ Classifier 0.1.0');
  for (const k of ['implementation_digest', 'configuration_digest', 'semantic_configuration_digest'])
    assert.match(id[k] as string, /^sha256:[0-9a-f]{64}$/, k);
  assert.match(a.capability_digest as string, /^sha256:[0-9a-f]{64}$/);
  assert.equal(a.absence_means_supported, false);
  const rows = a.owl_capabilities as { construct: string; status: string }[];
  assert.equal(rows.find((r) => r.construct === 'ObjectSomeValuesFrom')?.status, 'supported');
  assert.equal(rows.find((r) => r.construct === 'ObjectUnionOf')?.status, 'unsupported');
  assert.ok((a.rule_capabilities as { status: string }[]).every((r) => r.status === 'unsupported'));
  await call(c, 'set_reasoner', { reasoner: 'structural' });
  const s = (await call(c, 'get_reasoner_capabilities')).body;
  assert.notEqual((s.identity as Record<string, unknown>).implementation_digest, id.implementation_digest);
  assert.notEqual(s.capability_digest, a.capability_digest);
});

test('set_reasoner is M·N (TOOLS.md): a read-only server refuses it with read_only and keeps the selection, yet classifies with it', async () => {
  const readOnly = await startTestServer([pets()], { read_only: true });
  try {
    const client = await connect(readOnly);
    const before = (await call(client, 'list_reasoners')).body.current_id;
    const refused = await call(client, 'set_reasoner', { reasoner: before === 'el' ? 'structural' : 'el' });
    assert.equal(refused.isError, true);
    assert.equal(refused.body.error_code, 'read_only');
    assert.equal(refused.body.effects_prevented, true);
    assert.equal((await call(client, 'list_reasoners')).body.current_id, before, 'the selection is unchanged');
    assert.equal((await call(client, 'run_reasoner')).body.completed, true, 'run_reasoner (R) still runs');
    assert.equal(
      (await call(client, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'Cat' })).body.error_code,
      'read_only',
      'edits stay refused',
    );
    await client.close();
  } finally {
    await readOnly.stop();
  }
  const reader = toolContext([await loadOntologyFile(pets())], principalWith(['ontology:read']));
  const denied = await runInContext('set_reasoner', { reasoner: 'el' }, reader);
  assert.equal(denied.body.error_code, 'authorization_denied');
  assert.deepEqual(denied.body.missing_capabilities, ['ontology:admin']);
});

test('a long classification: the window keeps serving, duplicates are refused, the run is cancellable and time-bounded', async () => {
  assert.equal((await call(cb, 'set_reasoner', { reasoner: 'el' })).isError, false);
  const bounded = (await call(cb, 'run_reasoner', { timeout_ms: 300 })).body;
  assert.equal(bounded.started, true);
  assert.equal(bounded.completed, false);
  assert.match(bounded.message as string, /time bound/);
  assert.equal((await call(cb, 'list_reasoners')).body.status, 'not_initialized');
  const query = (await call(cb, 'execute_dl_query', { query: 'r some A5', timeout_ms: 300 })).body;
  assert.equal(query.completed, false);
  assert.match(query.note as string, /within 300 ms/);

  const long = call(cb, 'run_reasoner', { timeout_ms: 60_000 });
  let status = '';
  for (let i = 0; i < 50 && status !== 'classifying'; i++) status = (await call(cb, 'list_reasoners')).body.status as string;
  assert.equal(status, 'classifying');
  const started = Date.now();
  const read = await call(cb, 'get_active_ontology');
  assert.equal(read.body.ontology_iri, 'http://example.org/big');
  assert.ok(Date.now() - started < 2000, 'a read is answered while the classification runs');
  const duplicate = (await call(cb, 'run_reasoner')).body;
  assert.equal(duplicate.started, false);
  assert.match(duplicate.message as string, /already/);
  // selecting another reasoner cancels the running classification
  assert.equal((await call(cb, 'set_reasoner', { reasoner: 'structural' })).isError, false);
  const cancelled = (await long).body;
  assert.equal(cancelled.completed, false);
  assert.match(cancelled.message as string, /cancelled/);
  const structural = (await call(cb, 'run_reasoner')).body;
  assert.equal(structural.completed, true);
  assert.equal(structural.status, 'classified');
  assert.equal(structural.warning, undefined, 'no SWRL rules, no warning');
});

test('a run stopped by its time bound frees the reasoner: a quick run next is not queued behind the stopped work', async () => {
  // a new revision, so that neither reasoner has a result for it
  assert.equal((await call(cb, 'add_axiom', { axiom_type: 'declaration', entity: 'Fresh', entity_type: 'class' })).isError, false);
  assert.equal((await call(cb, 'set_reasoner', { reasoner: 'el' })).isError, false);
  // the answer comes at the bound while the thread may still be indexing the chain (unchecked until saturation)
  const bounded = (await call(cb, 'run_reasoner', { timeout_ms: 300 })).body;
  assert.equal(bounded.completed, false);
  assert.equal((await call(cb, 'set_reasoner', { reasoner: 'structural' })).isError, false);
  // a stopped task leaves its thread within the grace of 2 s (terminated then); 30 s is far beyond that
  const structural = (await call(cb, 'run_reasoner', { timeout_ms: 30_000 })).body;
  assert.equal(structural.completed, true, String(structural.message));
  assert.equal(structural.status, 'classified');
});

test('a run that finishes after an edit reports its own revision and out_of_sync, never current', async () => {
  // a run that completes: a chain half as long as the big one, a quarter of its saturation, still seconds long
  const midFile = path.join(scratch, 'mid.ofn');
  await writeFile(midFile, slowOntology(1000, 'mid'));
  assert.equal((await call(cb, 'load_ontology', { source: midFile })).isError, false);
  assert.equal((await call(cb, 'get_active_ontology')).body.ontology_iri, 'http://example.org/mid');
  assert.equal((await call(cb, 'set_reasoner', { reasoner: 'el' })).isError, false);
  const run = call(cb, 'run_reasoner', { timeout_ms: 600_000 });
  await untilClassifying(cb);
  const edited = await call(cb, 'add_axiom', { axiom_type: 'subclass_of', sub: 'A1', super: 'B0' });
  assert.equal(edited.isError, false);
  const out = (await run).body;
  assert.equal(out.completed, true);
  assert.equal(out.status, 'out_of_sync');
  assert.equal(await settledStatus(cb), 'out_of_sync');
  const read = (await call(cb, 'get_unsatisfiable_classes')).body;
  assert.equal(read.status, 'out_of_sync');
  assert.equal(read.result_revision, out.result_revision);
  assert.match(read.note as string, /revision/);
});

test('classifying after an addition and after its undo answers as a fresh classification would', async () => {
  assert.equal((await call(c, 'set_reasoner', { reasoner: 'el' })).isError, false);
  const unsatisfiable = async () => {
    assert.equal((await call(c, 'run_reasoner')).body.completed, true);
    return iris((await call(c, 'get_unsatisfiable_classes')).body);
  };
  assert.deepEqual(await unsatisfiable(), [P + 'Chimera']);
  assert.equal((await call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Herbivore', super: 'Chimera' })).isError, false);
  assert.deepEqual(await unsatisfiable(), [P + 'Chimera', P + 'Herbivore']);
  assert.equal((await call(c, 'undo_change')).isError, false);
  assert.deepEqual(await unsatisfiable(), [P + 'Chimera']);
  assert.equal((await call(c, 'redo_change')).isError, false);
  assert.deepEqual(await unsatisfiable(), [P + 'Chimera', P + 'Herbivore']);
  assert.equal((await call(c, 'undo_change')).isError, false);
});
