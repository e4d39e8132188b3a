// materialize_inferences in a server-less window: enumeration per category with the EL++ classifier,
// refusals before any reasoner runs, limits that discard whole categories, stable digests and provenance.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFunctional } from '../../src/model/formats/functional/reader.js';
import { reasonerById } from '../../src/reasoner/registry.js';
import { encodeAxioms } from '../../src/model/transfer.js';
import { previewMaterialization } from '../../src/materialization/preview.js';
import { PROVENANCE_PREFIX } from '../../src/materialization/provenance.js';
import { MaterializationBusy, runDisposableReasoner } from '../../src/materialization/run-reasoner.js';
import type { MaterializationRequest } from '../../src/materialization/request.js';
import { ToolFailure, type ToolContext } from '../../src/tools/core/tool.js';
import { toolContext } from '../support/tool-context.js';

const EX = 'http://example.org/m#';
const ONTOLOGY = `Prefix(:=<${EX}>)
Ontology(<http://example.org/m>
Declaration(Class(:A)) Declaration(Class(:B)) Declaration(Class(:C)) Declaration(Class(:D)) Declaration(Class(:E))
Declaration(ObjectProperty(:p)) Declaration(ObjectProperty(:q)) Declaration(ObjectProperty(:r))
Declaration(NamedIndividual(:x))
SubClassOf(:A :B)
SubClassOf(:B :C)
EquivalentClasses(:D :E)
SubClassOf(:E ObjectSomeValuesFrom(:p :A))
ClassAssertion(:A :x)
SubObjectPropertyOf(:p :q)
SubObjectPropertyOf(:q :r)
)`;

function context(text = ONTOLOGY, reasoner: 'el' | 'structural' = 'el'): ToolContext {
  const ctx = toolContext([readFunctional(text)]);
  ctx.window.reasoning.select(reasonerById(reasoner));
  return ctx;
}

function request(
  categories: MaterializationRequest['categories'],
  limits: Partial<MaterializationRequest['limits']> = {},
): MaterializationRequest {
  return {
    categories,
    destination: { kind: 'new_ontology', identifier: 'http://example.org/m-inferred' },
    provenance: { generator: 'unit test', purpose: 'check enumeration' },
    limits: { max_axioms_per_category: 500, max_axioms_total: 500, max_bytes: 1_000_000, timeout_ms: 60_000, ...limits },
  };
}

const signal = () => new AbortController().signal;

type Row = Record<string, unknown>;
const category = (r: Row, name: string) => (r.categories as Row[]).find((c) => c.category === name)!;
const renderings = (c: Row) => ((c.sample as Row).items as Row[]).map((i) => i.rendering as string).sort();

test('each supported category enumerates the inferred axioms of a small EL ontology', async () => {
  const r = await previewMaterialization(
    context(),
    request(['property_hierarchy_axioms', 'class_assertions', 'equivalent_class_axioms', 'subclass_axioms']),
    signal(),
  );
  assert.equal(r.status, 'ready');
  assert.equal(r.complete, true);
  assert.equal(r.live_state_changed, false);
  assert.deepEqual(r.requested_categories, ['subclass_axioms', 'equivalent_class_axioms', 'class_assertions', 'property_hierarchy_axioms']);
  assert.deepEqual(r.skipped_categories, []);
  // direct and indirect subclass axioms between named classes, owl:Thing left out
  assert.deepEqual(renderings(category(r, 'subclass_axioms')), ['A SubClassOf B', 'A SubClassOf C', 'B SubClassOf C']);
  assert.deepEqual(renderings(category(r, 'equivalent_class_axioms')), ['D EquivalentTo E']);
  assert.deepEqual(renderings(category(r, 'class_assertions')), ['x Type A', 'x Type B', 'x Type C']);
  assert.deepEqual(renderings(category(r, 'property_hierarchy_axioms')), ['p SubPropertyOf q', 'p SubPropertyOf r', 'q SubPropertyOf r']);
  const artifact = r.artifact as Row;
  assert.equal(artifact.axiom_count, 10);
  assert.match(artifact.materialization_digest as string, /^sha256:[0-9a-f]{64}$/);
  for (const c of r.categories as Row[]) {
    for (const item of (c.sample as Row).items as Row[]) assert.ok((item.provenance_iri as string).startsWith(PROVENANCE_PREFIX));
  }
});

test('asserted axioms among the generated ones are counted as collisions', async () => {
  const r = await previewMaterialization(context(), request(['subclass_axioms']), signal());
  // SubClassOf(A B) and SubClassOf(B C) are asserted plainly in the source
  assert.equal(category(r, 'subclass_axioms').collisions, 2);
  assert.equal(r.asserted_collision_count, 2);
});

test('the same state yields the same digests and provenance IRIs in every run', async () => {
  const a = await previewMaterialization(context(), request(['subclass_axioms', 'class_assertions']), signal());
  const b = await previewMaterialization(context(), request(['class_assertions', 'subclass_axioms']), signal());
  assert.equal((a.artifact as Row).materialization_digest, (b.artifact as Row).materialization_digest);
  assert.equal(category(a, 'subclass_axioms').digest, category(b, 'subclass_axioms').digest);
  assert.deepEqual(category(a, 'class_assertions').sample, category(b, 'class_assertions').sample);
  assert.notEqual((a.artifact as Row).artifact_id, (b.artifact as Row).artifact_id);
});

test('a different source state yields different provenance IRIs', async () => {
  const a = await previewMaterialization(context(), request(['subclass_axioms']), signal());
  const b = await previewMaterialization(
    context(ONTOLOGY.replace('SubClassOf(:B :C)', 'SubClassOf(:B :C)\nSubClassOf(:C :E)')),
    request(['subclass_axioms']),
    signal(),
  );
  const prov = (r: Row) =>
    ((category(r, 'subclass_axioms').sample as Row).items as Row[]).find((i) => i.rendering === 'A SubClassOf B')!.provenance_iri;
  assert.notEqual(prov(a), prov(b));
});

test('a category over its limit is discarded whole; the others are kept', async () => {
  const r = await previewMaterialization(
    context(),
    request(['subclass_axioms', 'class_assertions'], { max_axioms_per_category: 2 }),
    signal(),
  );
  assert.equal(r.status, 'discarded');
  assert.equal(r.complete, false);
  assert.deepEqual(r.produced_categories, []);
  assert.deepEqual(
    (r.skipped_categories as Row[]).map((s) => [s.category, s.reason]),
    [
      ['subclass_axioms', 'overflow_per_category'],
      ['class_assertions', 'overflow_per_category'],
    ],
  );
  assert.equal((r.artifact as Row).axiom_count, 0);
  const t = await previewMaterialization(context(), request(['subclass_axioms', 'class_assertions'], { max_axioms_total: 4 }), signal());
  assert.equal(t.status, 'partial');
  assert.deepEqual(t.produced_categories, ['subclass_axioms']);
  assert.deepEqual(
    (t.skipped_categories as Row[]).map((s) => [s.category, s.reason]),
    [['class_assertions', 'overflow_total']],
  );
  assert.equal((t.artifact as Row).axiom_count, 3);
});

test('the byte limit discards a category that would pass it', async () => {
  const r = await previewMaterialization(context(), request(['subclass_axioms'], { max_bytes: 1024 }), signal());
  assert.equal(r.status, 'ready');
  const big = ONTOLOGY.replace(
    ')\n)',
    ')\n' + Array.from({ length: 40 }, (_, i) => `SubClassOf(:Long${'x'.repeat(40)}${i} :A)`).join('\n') + '\n)',
  );
  const s = await previewMaterialization(context(big), request(['subclass_axioms'], { max_bytes: 1024 }), signal());
  assert.deepEqual(
    (s.skipped_categories as Row[]).map((x) => x.reason),
    ['overflow_bytes'],
  );
  assert.equal((s.artifact as Row).axiom_count, 0);
});

test('a category without supported evidence in the reasoner profile is refused before any reasoner runs', async () => {
  await assert.rejects(
    previewMaterialization(context(ONTOLOGY, 'structural'), request(['subclass_axioms', 'property_hierarchy_axioms']), signal()),
    (err: unknown) =>
      err instanceof ToolFailure &&
      err.code === 'unsupported_category' &&
      JSON.stringify(err.context.unsupported_categories).includes('property_hierarchy_axioms'),
  );
  await assert.rejects(
    previewMaterialization(context(), request(['data_property_assertions']), signal()),
    (err: unknown) => err instanceof ToolFailure && err.code === 'unsupported_category',
  );
});

test('ontology destinations refuse limits above 500', async () => {
  await assert.rejects(
    previewMaterialization(context(), request(['subclass_axioms'], { max_axioms_per_category: 501 }), signal()),
    (err: unknown) => err instanceof ToolFailure && err.code === 'invalid_argument',
  );
});

test('an inconsistent ontology is refused', async () => {
  // x is an instance of A, and A is disjoint with its superclass C
  const bad = ONTOLOGY.replace(')\n)', ')\nDisjointClasses(:A :C)\n)');
  await assert.rejects(
    previewMaterialization(context(bad), request(['subclass_axioms']), signal()),
    (err: unknown) => err instanceof ToolFailure && err.code === 'inconsistent_ontology',
  );
});

test('a second preview reasoner while one exists is refused with materialization_busy', async () => {
  const first = runDisposableReasoner(
    { axioms: encodeAxioms([]), reasoner: 'el', konclude: null, timeLimitMs: 60_000, categories: ['subclass_axioms'], cap: 10 },
    60_000,
    signal(),
  );
  assert.throws(
    () =>
      runDisposableReasoner(
        { axioms: encodeAxioms([]), reasoner: 'el', konclude: null, timeLimitMs: 60_000, categories: [], cap: 1 },
        60_000,
        signal(),
      ),
    MaterializationBusy,
  );
  const done = await first;
  assert.equal(done.ending, 'finished');
  const again = await runDisposableReasoner(
    { axioms: encodeAxioms([]), reasoner: 'el', konclude: null, timeLimitMs: 60_000, categories: [], cap: 1 },
    60_000,
    signal(),
  );
  assert.equal(again.ending, 'finished');
});

test('a cancelled preview keeps nothing and frees the preview reasoner', async () => {
  const aborted = new AbortController();
  aborted.abort();
  await assert.rejects(
    previewMaterialization(context(), request(['subclass_axioms']), aborted.signal),
    (err: unknown) => err instanceof ToolFailure && err.code === 'cancelled',
  );
  const r = await previewMaterialization(context(), request(['subclass_axioms']), signal());
  assert.equal(r.status, 'ready');
});

test('object property assertions follow property hierarchies, transitivity and value restrictions', async () => {
  const text = `Prefix(:=<${EX}>)
Ontology(<http://example.org/p>
Declaration(ObjectProperty(:p)) Declaration(ObjectProperty(:q)) Declaration(ObjectProperty(:t)) Declaration(ObjectProperty(:h))
Declaration(NamedIndividual(:x)) Declaration(NamedIndividual(:y)) Declaration(NamedIndividual(:z))
Declaration(Class(:K))
SubObjectPropertyOf(:p :q)
TransitiveObjectProperty(:t)
ObjectPropertyAssertion(:p :x :y)
ObjectPropertyAssertion(:t :x :y)
ObjectPropertyAssertion(:t :y :z)
SubClassOf(:K ObjectHasValue(:h :z))
ClassAssertion(:K :y)
)`;
  const r = await previewMaterialization(context(text), request(['object_property_assertions']), signal());
  assert.deepEqual(r.skipped_categories, []);
  const c = category(r, 'object_property_assertions');
  assert.deepEqual(renderings(c), ['x p y', 'x q y', 'x t y', 'x t z', 'y h z', 'y t z']);
  // the three asserted assertions are collisions
  assert.equal(c.collisions, 3);
});

test('categories not enumerated within timeout_ms are discarded and the reasoner is disposed of', async () => {
  // a thread cannot even start within 1 ms, so every category is discarded
  const r = await previewMaterialization(context(), request(['subclass_axioms', 'class_assertions'], { timeout_ms: 1 }), signal());
  assert.equal(r.status, 'discarded');
  assert.deepEqual(
    (r.skipped_categories as Row[]).map((s) => s.reason),
    ['timeout', 'timeout'],
  );
  assert.equal((r.artifact as Row).axiom_count, 0);
  assert.equal((await previewMaterialization(context(), request(['subclass_axioms']), signal())).status, 'ready');
});

test('the structural reasoner materializes the told hierarchy only', async () => {
  const r = await previewMaterialization(
    context(ONTOLOGY, 'structural'),
    request(['subclass_axioms', 'equivalent_class_axioms']),
    signal(),
  );
  assert.deepEqual(r.supported_categories, ['subclass_axioms', 'equivalent_class_axioms', 'class_assertions']);
  assert.deepEqual(renderings(category(r, 'subclass_axioms')), ['A SubClassOf B', 'A SubClassOf C', 'B SubClassOf C']);
  assert.deepEqual(renderings(category(r, 'equivalent_class_axioms')), ['D EquivalentTo E']);
  assert.equal((r.reasoner as Row).complete, false, 'the existential restriction is outside the told hierarchy');
});
