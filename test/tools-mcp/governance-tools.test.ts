// validate_governance through the real server (fixture: governance.ofn importing governance-base.ofn):
// the profile row with owned and imported violations, IRI policy, required annotations, import layering,
// include_imports, limits, and each error.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { fixture, call, callOk, serveAndConnect, type Row, type ServedClient } from '../server/support.js';
import { at } from '../support/at.js';

const GOV = 'http://example.org/gov#';
const BASE = 'http://example.org/gov-base#';

let served: ServedClient;
let c: Client;

before(async () => {
  served = await serveAndConnect([fixture('governance.ofn')]);
  c = served.c;
  const loaded = await call(c, 'load_ontology', { source: fixture('governance-base.ofn'), keep_active: true });
  assert.equal(loaded.isError, false, JSON.stringify(loaded.body));
});
after(() => served.close());

const run = (args: Row = {}): Promise<Row> => callOk(c, 'validate_governance', args);
const row = (body: Row, id: string) => (body.checks as Row[]).find((r) => r.id === id);

test('tools/list shows validate_governance as read-only with the profile enum; an unknown argument is refused', async () => {
  const { tools } = await c.listTools();
  const tool = tools.find((x) => x.name === 'validate_governance')!;
  assert.equal(tool.annotations?.readOnlyHint, true);
  const schema = tool.inputSchema as { properties: Record<string, { enum?: string[] }> };
  assert.equal((await call(c, 'validate_governance', { unknown_argument: 1 })).body.error_code, 'invalid_argument', 'validate_governance');
  assert.deepEqual(schema.properties.owl_profile?.enum, ['DL', 'EL', 'QL', 'RL', 'none', 'Full']);
});

test('default run: the DL profile row gates on owned violations; imported ones are context; import layering warns', async () => {
  const body = await run();
  assert.equal(body.scope, 'active_ontology');
  assert.equal(body.profile, 'DL');
  assert.deepEqual(
    (body.checks as Row[]).map((r) => r.id),
    ['owl_profile', 'import_layering'],
  );
  const profile = row(body, 'owl_profile')!;
  assert.equal(profile.severity, 'error');
  assert.equal(profile.in_profile, false);
  assert.equal(profile.owned_in_profile, false);
  assert.equal(profile.count, 1);
  assert.match(profile.identity_digest as string, /^sha256:[0-9a-f]{64}$/);
  const [example] = profile.examples as Row[];
  assert.ok(example);
  assert.equal(example.kind, 'non_simple_property_in_functional');
  assert.equal(example.axiom, `FunctionalObjectProperty(<${GOV}partOf>)`);
  assert.equal(example.ontology, 'http://example.org/gov');
  const imported = profile.imported_violations as { count: number; items: Row[] };
  assert.equal(imported.count, 1);
  assert.equal(at(imported.items, 0).kind, 'undeclared_entity');
  assert.equal(at(imported.items, 0).entity, BASE + 'Cell');
  const layering = row(body, 'import_layering')!;
  assert.equal(layering.severity, 'warn');
  assert.equal(layering.count, 1);
  assert.deepEqual(layering.axioms, [`SubClassOf(<${BASE}Organ> <${BASE}Tissue>)`]);
  assert.deepEqual(
    (layering.examples as Row[]).map((e) => [e.iri, e.type]),
    [[BASE + 'Organ', 'Class']],
  );
  assert.equal(body.total_violations, 2);
  assert.deepEqual(body.notes, []);
  // unchanged state yields byte-identical JSON
  assert.equal(JSON.stringify(await run()), JSON.stringify(body));
});

test('EL adds the union; none skips the profile row', async () => {
  const el = await run({ owl_profile: 'EL', check_ownership: false });
  const kinds = (row(el, 'owl_profile')!.examples as Row[]).map((e) => e.kind);
  assert.deepEqual(kinds.sort(), ['illegal_axiom', 'illegal_class_expression', 'non_simple_property_in_functional']);
  const none = await run({ owl_profile: 'none', check_ownership: false });
  assert.deepEqual(none.checks, []);
  assert.equal(none.total_violations, 0);
  assert.match(none.note as string, /profile check was skipped/);
});

test('iri_policy and required_annotations over owned terms; unresolvable references become notes', async () => {
  const body = await run({
    owl_profile: 'none',
    check_ownership: false,
    required_namespaces: [GOV],
    iri_pattern: '#[A-Z][A-Za-z]*$',
    required_annotations: ['label', 'definition', 'no such property'],
  });
  const iri = row(body, 'iri_policy')!;
  assert.equal(iri.severity, 'error');
  assert.deepEqual(
    (iri.examples as Row[]).map((e) => e.iri),
    ['http://elsewhere.org/Stray', GOV + 'bad_Name', GOV + 'partOf', 'http://purl.obolibrary.org/obo/IAO_0000115'],
  );
  assert.deepEqual(iri.details, { required_namespaces: [GOV], iri_pattern: '#[A-Z][A-Za-z]*$' });
  const ann = row(body, 'required_annotations')!;
  const missing = (ann.examples as Row[]).map((e) => `${e.iri} ${e.missing}`);
  assert.ok(missing.includes(GOV + 'Lung label'));
  assert.ok(missing.includes(GOV + 'partOf definition'));
  assert.ok(!missing.some((m) => m.startsWith(GOV + 'Heart ')));
  assert.ok(!missing.some((m) => m.startsWith(BASE)), 'imported terms are not owned');
  assert.deepEqual((ann.details as Row).missing_by_annotation, { label: 4, definition: 5 });
  assert.equal(ann.count, 9);
  assert.deepEqual(body.notes, [
    'required annotation "no such property" is not checked: no annotation property has that IRI, CURIE or name.',
  ]);
  assert.equal(body.total_violations, 4 + 9);
});

test('include_imports makes the whole closure owned', async () => {
  const body = await run({ include_imports: true });
  assert.equal(body.scope, 'imports_closure');
  const profile = row(body, 'owl_profile')!;
  assert.equal(profile.count, 2);
  assert.equal(profile.imported_violations, undefined);
  assert.equal(row(body, 'import_layering')!.count, 0);
});

test('limit caps examples and reports what was left out', async () => {
  const body = await run({ owl_profile: 'none', check_ownership: false, required_annotations: ['label'], limit: 1 });
  const ann = row(body, 'required_annotations')!;
  assert.equal(ann.count, 4);
  assert.equal((ann.examples as Row[]).length, 1);
  assert.equal(ann.truncated, 3);
});

test('errors: invalid iri_pattern, unknown owl_profile, out-of-range and unknown arguments', async () => {
  const bad = await call(c, 'validate_governance', { iri_pattern: '([a-z' });
  assert.equal(bad.isError, true);
  assert.equal(bad.body.error_code, 'invalid_argument');
  assert.match(bad.body.error as string, /invalid iri_pattern/);
  const profile = await call(c, 'validate_governance', { owl_profile: 'OWL2' });
  assert.equal(profile.isError, true);
  assert.equal(profile.body.error_code, 'invalid_argument');
  assert.match(profile.body.error as string, /owl_profile must be one of DL, EL, QL, RL, none, Full/);
  for (const args of [{ limit: 0 }, { limit: 1.5 }, { verbose: true }, { required_namespaces: 'x' }]) {
    const r = await call(c, 'validate_governance', args);
    assert.equal(r.isError, true, JSON.stringify(args));
    assert.equal(r.body.error_code, 'invalid_argument', JSON.stringify(args));
  }
  // timeout_ms ≤ 0 takes the default
  assert.equal((await call(c, 'validate_governance', { timeout_ms: 0 })).isError, false);
});
