// The default `auto` reasoner on a small pizza-like DL ontology through a real server: outside the EL
// profile it answers with Konclude (a real subprocess) and says so; Margherita is recognised as a
// vegetarian, cheesy pizza, which the EL classifier alone cannot find. Cancelled runs are in
// test/reasoner/konclude-cancel, runs whose owner went away in test/reasoner/konclude-orphans.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { callOk, fixture, serveTempOntology, type Row, type ServedTempOntology } from '../server/support.js';

const P = 'http://example.org/pizza#';
let s: ServedTempOntology;

before(async () => {
  s = await serveTempOntology('athene-konclude-', 'mini-pizza.ofn', readFileSync(fixture('mini-pizza.ofn'), 'utf8'));
});
after(() => s.close());

const iris = (list: unknown) => ((list as Row).items as Row[]).map((r) => r.iri as string).sort();

test('auto classifies a DL ontology with Konclude, completely, and names it', async () => {
  const run = await callOk(s.c, 'run_reasoner');
  assert.equal(run.completed, true);
  assert.match(run.reasoner as string, /^Konclude /);
  assert.equal(run.selected_reasoner, 'Athene Automatic Reasoner 0.1.0');
  assert.equal(run.complete, true);
  const unsat = await callOk(s.c, 'get_unsatisfiable_classes');
  assert.deepEqual(iris(unsat), [P + 'Probe']);
  const sup = await callOk(s.c, 'get_inferred_superclasses', { entity: P + 'Margherita', direct: false });
  assert.deepEqual(
    iris(sup).filter((i) => i.startsWith(P)),
    [P + 'CheeseyPizza', P + 'Pizza', P + 'VegetarianPizza'],
  );
  const again = await callOk(s.c, 'run_reasoner');
  assert.equal(again.cached, true, 'nothing changed: no re-run');
});

test('execute_dl_query answers a DL expression with Konclude', async () => {
  const r = await callOk(s.c, 'execute_dl_query', { query: `<${P}Pizza> and <${P}hasTopping> some <${P}CheeseTopping>` });
  assert.deepEqual(iris(r.equivalent), [P + 'CheeseyPizza']);
  assert.deepEqual(iris(r.subclasses), [P + 'Margherita']);
  assert.match(r.reasoner as string, /^Konclude /);
});

test('with el selected the same ontology is answered incompletely', async () => {
  await callOk(s.c, 'set_reasoner', { reasoner: 'el' });
  const run = await callOk(s.c, 'run_reasoner');
  assert.equal(run.complete, false);
  const sup = await callOk(s.c, 'get_inferred_superclasses', { entity: P + 'Margherita', direct: false });
  assert.ok(!iris(sup).includes(P + 'VegetarianPizza'));
});
