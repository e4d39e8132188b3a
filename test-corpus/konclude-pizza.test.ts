// The konclude reasoner through a real server on the real pizza ontology: unsatisfiable classes, inferred
// superclasses of a vegetarian pizza, a DL query, and a DL-only justification checked by running Konclude
// again on the justification alone.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readSnapshotAxioms } from '../src/reasoner/snapshot.js';
import { konclude } from '../src/reasoner/konclude.js';
import { koncludeConfig } from '../src/reasoner/registry.js';
import { subsumed } from '../src/reasoner/explain/entailment.js';
import { callOk, serveAndConnect, type Row, type ServedClient } from '../test/server/support.js';
import { sharedDir } from './support/reference.js';

const P = 'http://www.co-ode.org/ontologies/pizza/pizza.owl#';
let s: ServedClient;

before(async () => {
  s = await serveAndConnect([path.join(sharedDir, 'corpus', 'owlapi', 'pizza.owl')]);
  await callOk(s.c, 'set_reasoner', { reasoner: 'konclude' });
  const run = await callOk(s.c, 'run_reasoner');
  assert.equal(run.completed, true);
  assert.match(run.reasoner as string, /^Konclude /);
  assert.equal(run.complete, true);
});
after(() => s.close());

const iris = (list: unknown) => ((list as Row).items as Row[]).map((r) => r.iri as string).sort();

test('get_unsatisfiable_classes: the two classes HermiT finds', async () => {
  const r = await callOk(s.c, 'get_unsatisfiable_classes');
  assert.deepEqual(iris(r), [P + 'CheeseyVegetableTopping', P + 'IceCream']);
  assert.equal(r.complete, true);
  assert.match(r.reasoner as string, /^Konclude /);
});

test('get_inferred_superclasses: VegetarianPizza members are inferred vegetarian and cheesy', async () => {
  const members = iris(
    await callOk(s.c, 'get_inferred_superclasses', { entity: P + 'VegetarianPizza', relation: 'subclasses', direct: false }),
  );
  assert.ok(members.includes(P + 'Margherita'), 'a defined class gets its members only from a DL reasoner');
  for (const m of members) {
    const sup = iris(await callOk(s.c, 'get_inferred_superclasses', { entity: m, direct: false }));
    assert.ok(sup.includes(P + 'VegetarianPizza'), m);
    assert.ok(sup.includes(P + 'Pizza'), m);
  }
});

test('execute_dl_query: Pizza and hasTopping some CheeseTopping is CheeseyPizza', async () => {
  const r = await callOk(s.c, 'execute_dl_query', { query: `<${P}Pizza> and <${P}hasTopping> some <${P}CheeseTopping>` });
  assert.deepEqual(iris(r.equivalent), [P + 'CheeseyPizza']);
  assert.ok(iris(r.subclasses).length > 0);
  assert.match(r.reasoner as string, /^Konclude /);
  assert.equal(r.complete, true);
});

test('get_explanations of a DL-only entailment: the justification alone entails it (Konclude again)', async () => {
  // one Konclude process per entailment check: allow for a loaded machine beyond the client's default 60 s
  const args = { axiom_type: 'subclass_of', sub: P + 'Margherita', super: P + 'VegetarianPizza', max: 1, timeout_ms: 600_000 };
  const out = await s.c.callTool({ name: 'get_explanations', arguments: args }, undefined, { timeout: 600_000 });
  const body = out.structuredContent as Row;
  assert.equal(out.isError, false, JSON.stringify(body));
  assert.equal(body.entailed, true);
  const [j] = body.justifications as { axioms: { functional: string }[] }[];
  assert.ok(j !== undefined, 'a justification');
  const axioms = readSnapshotAxioms(['Ontology(', ...j.axioms.map((a) => a.functional), ')'].join('\n'));
  const k = koncludeConfig();
  assert.ok(k !== null, 'Konclude is installed');
  const again = await konclude(axioms, k);
  assert.ok(subsumed(again, P + 'Margherita', P + 'VegetarianPizza'));
  assert.ok(axioms.length > 1);
});
