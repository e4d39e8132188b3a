// The explanation tools through the real server: explain_entailment, get_explanations and
// explain_inconsistency. Every justification returned is checked in-process: it entails the goal and
// dropping any one of its axioms loses the entailment.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { readFunctional } from '../../src/model/formats/functional/reader.js';
import type { Axiom } from '../../src/model/terms.js';
import { checkEntailment, explainInconsistency } from '../../src/reasoner/explain/explain.js';
import { call, principalWith, serveTempOntology, type ServedTempOntology } from '../server/support.js';
import { runInContext, toolContext } from '../support/tool-context.js';
import { at } from '../support/at.js';

const EX = 'http://example.org/ex#';
const CHAIN_LENGTH = 3000;

function fixtureText(): string {
  const chain: string[] = [];
  for (let i = 0; i < CHAIN_LENGTH; i++) chain.push(`SubClassOf(:L${i} :L${i + 1})`);
  return `Prefix(:=<${EX}>)
Prefix(rdfs:=<http://www.w3.org/2000/01/rdf-schema#>)
Ontology(<http://example.org/ex>
Declaration(Class(:Dog)) Declaration(Class(:Mammal)) Declaration(Class(:Animal)) Declaration(Class(:Tail))
Declaration(Class(:Pet)) Declaration(Class(:Canine)) Declaration(Class(:Plant)) Declaration(Class(:Weird))
Declaration(ObjectProperty(:hasPart)) Declaration(NamedIndividual(:rex))
AnnotationAssertion(rdfs:label :Dog "dog"@en)
AnnotationAssertion(rdfs:label :Weird "weird thing"@en)
SubClassOf(:Dog :Mammal) SubClassOf(:Mammal :Animal)
SubClassOf(:Dog ObjectSomeValuesFrom(:hasPart :Tail)) SubClassOf(ObjectSomeValuesFrom(:hasPart :Tail) :Animal)
EquivalentClasses(:Dog ObjectIntersectionOf(:Pet :Canine)) SubClassOf(:Canine :Animal)
DisjointClasses(:Animal :Plant) SubClassOf(:Weird :Mammal) SubClassOf(:Weird :Plant)
ClassAssertion(:Dog :rex)
FunctionalObjectProperty(:hasPart)
${chain.join('\n')}
)`;
}

let served: ServedTempOntology;
let c: Client;

before(async () => {
  served = await serveTempOntology('athene-explain-', 'ex.ofn', fixtureText());
  c = served.c;
});
after(() => served.close());

interface Row {
  axiom_type: string;
  rendering: string;
  functional: string;
}
interface Justification {
  size: number;
  axioms: Row[];
}

/** Axioms read back from the rows' functional syntax (full IRIs). */
function axiomsOf(rows: readonly Row[]): Axiom[] {
  return [...readFunctional('Ontology(\n' + rows.map((r) => r.functional).join('\n') + '\n)').axioms()];
}

async function assertMinimalJustification(rows: readonly Row[], goal: Axiom): Promise<void> {
  const axioms = axiomsOf(rows);
  assert.equal(axioms.length, rows.length);
  assert.equal((await checkEntailment(axioms, goal)).entailed, true, 'entailing');
  for (const a of axioms)
    assert.equal(
      (
        await checkEntailment(
          axioms.filter((x) => x !== a),
          goal,
        )
      ).entailed,
      false,
      'minimal',
    );
  const renderings = rows.map((r) => r.rendering);
  assert.deepEqual(renderings, [...renderings].sort(), 'rows sorted by rendering');
}

const goal = (text: string) => at(axiomsOf([{ axiom_type: '', rendering: '', functional: text }]), 0, 'goal axiom');
const iri = (name: string) => `<${EX}${name}>`;

test('the three explanation tools are listed, read-only, and refuse an unknown argument', async () => {
  const { tools } = await c.listTools();
  for (const name of ['explain_entailment', 'get_explanations', 'explain_inconsistency']) {
    const tool = tools.find((x) => x.name === name);
    assert.ok(tool, name);
    assert.equal((await call(c, name, { unknown_argument: 1 })).body.error_code, 'invalid_argument', name);
    assert.equal(tool.annotations?.readOnlyHint, true, name);
  }
  const ge = tools.find((x) => x.name === 'get_explanations')!.inputSchema as { properties: Record<string, unknown> };
  assert.ok('max' in ge.properties && 'timeout_ms' in ge.properties && 'sub' in ge.properties);
});

test('before set_reasoner the explanation tools use auto, which answers with the EL++ classifier on an EL ontology', async () => {
  const r = await call(c, 'get_explanations', { axiom_type: 'subclass_of', sub: 'dog', super: 'Animal', max: 1 });
  assert.equal(r.isError, false);
  assert.equal(r.body.entailed, true);
  assert.equal((r.body.reasoner_configuration as { reasoner_id: string }).reasoner_id, 'auto');
  assert.equal((await call(c, 'set_reasoner', { reasoner: 'el' })).isError, false);
});

test('explain_entailment answers entailed and not entailed, with the axiom row', async () => {
  const yes = await call(c, 'explain_entailment', { axiom_type: 'subclass_of', sub: 'dog', super: 'Animal' });
  assert.equal(yes.isError, false);
  assert.deepEqual(yes.body, { entailed: true, axiom: { axiom_type: 'SubClassOf', rendering: 'dog SubClassOf Animal' } });
  const no = await call(c, 'explain_entailment', { axiom_type: 'subclass_of', sub: 'Animal', super: 'dog' });
  assert.equal(no.body.entailed, false);
  const complex = await call(c, 'explain_entailment', { axiom_type: 'subclass_of', sub: 'Pet and Canine', super: 'hasPart some Tail' });
  assert.equal(complex.body.entailed, true);
  const instance = await call(c, 'explain_entailment', { axiom_type: 'class_assertion', class: 'Animal', individual: 'rex' });
  assert.equal(instance.body.entailed, true);
  const told = await call(c, 'explain_entailment', { axiom_type: 'functional_object_property', property: 'hasPart' });
  assert.equal(told.body.entailed, true);
  assert.match(told.body.note as string, /asserted/);
  const label = await call(c, 'explain_entailment', { axiom_type: 'annotation_assertion', subject: 'dog', value: 'dog', lang: 'en' });
  assert.equal(label.body.entailed, true, 'annotation axioms are looked up in the ontology itself');
  const noLabel = await call(c, 'explain_entailment', { axiom_type: 'annotation_assertion', subject: 'dog', value: 'cat', lang: 'en' });
  assert.equal(noLabel.body.entailed, false);
});

test('an unknown name is not_found for explain_entailment and get_explanations, as for get_inferred_superclasses', async () => {
  for (const name of ['explain_entailment', 'get_explanations']) {
    const r = await call(c, name, { axiom_type: 'subclass_of', sub: 'CheesyPizza', super: 'Animal' });
    assert.equal(r.isError, true, name);
    assert.equal(r.body.error_code, 'not_found', `${name}: ${JSON.stringify(r.body)}`);
    assert.deepEqual(r.body.unknown, [`${EX}CheesyPizza`], name);
  }
});

test('get_explanations returns every minimal justification (three for dog ⊑ Animal)', async () => {
  const all = await call(c, 'get_explanations', { axiom_type: 'subclass_of', sub: 'dog', super: 'Animal', max: 0 });
  assert.equal(all.isError, false, JSON.stringify(all.body));
  assert.equal(all.body.entailed, true);
  assert.equal(all.body.justification_count, 3);
  const js = all.body.justifications as Justification[];
  const g = goal(`SubClassOf(${iri('Dog')} ${iri('Animal')})`);
  for (const j of js) {
    assert.equal(j.size, j.axioms.length);
    await assertMinimalJustification(j.axioms, g);
  }
  assert.deepEqual(
    js.map((j) => j.axioms.map((r) => r.rendering)),
    [
      ['Canine SubClassOf Animal', 'Canine and Pet EquivalentTo dog'],
      ['dog SubClassOf Mammal', 'Mammal SubClassOf Animal'],
      ['dog SubClassOf hasPart some Tail', 'hasPart some Tail SubClassOf Animal'],
    ].map((rows) => rows.sort()),
  );
  const config = all.body.reasoner_configuration as Record<string, unknown>;
  assert.equal(config.reasoner_id, 'el');
  assert.equal(config.all_found, true);
  assert.ok((config.module_axioms as number) < 20, 'the ⊥-module leaves the long chain out');

  const one = await call(c, 'get_explanations', { axiom_type: 'subclass_of', sub: 'dog', super: 'Animal', max: 1 });
  assert.equal(one.body.justification_count, 1);
  const byDefault = await call(c, 'get_explanations', { axiom_type: 'subclass_of', sub: 'dog', super: 'Animal' });
  assert.equal(byDefault.body.justification_count, 3);
});

test('get_explanations explains an unsatisfiable class, and reports no justification for a non-entailment', async () => {
  const unsat = await call(c, 'get_explanations', { axiom_type: 'subclass_of', sub: 'weird thing', super: 'owl:Nothing', max: 0 });
  assert.equal(unsat.isError, false, JSON.stringify(unsat.body));
  const js = unsat.body.justifications as Justification[];
  assert.equal(js.length, 1);
  await assertMinimalJustification(at(js, 0).axioms, goal(`SubClassOf(${iri('Weird')} <http://www.w3.org/2002/07/owl#Nothing>)`));
  assert.equal(at(js, 0).size, 4);

  const no = await call(c, 'get_explanations', { axiom_type: 'subclass_of', sub: 'Animal', super: 'dog' });
  assert.equal(no.body.entailed, false);
  assert.equal(no.body.justification_count, 0);
  assert.deepEqual(no.body.justifications, []);
});

test('get_explanations falls back to an entailment check with related axioms for other axiom types', async () => {
  const r = await call(c, 'get_explanations', { axiom_type: 'functional_object_property', property: 'hasPart' });
  assert.equal(r.isError, false);
  assert.equal(r.body.justification_available, false);
  assert.equal(r.body.entailed, true);
  const related = r.body.related_axioms as { count: number; items: { rendering: string }[] };
  assert.equal(related.count, 3);
  assert.ok(related.items.some((i) => /Functional/.test(i.rendering)));
  const not = await call(c, 'get_explanations', { axiom_type: 'transitive_object_property', property: 'hasPart' });
  assert.equal(not.body.entailed, false);
  assert.equal(not.body.related_axioms, undefined);
});

test('get_explanations fails on timeout and rejects invalid arguments before the handler', async () => {
  const slow = await call(c, 'get_explanations', {
    axiom_type: 'subclass_of',
    sub: 'L0',
    super: `L${CHAIN_LENGTH}`,
    max: 0,
    timeout_ms: 1,
  });
  assert.equal(slow.isError, true);
  assert.equal(slow.body.error_code, 'timeout');
  for (const args of [
    { axiom_type: 'subclass_of', sub: 'dog', super: 'Animal', max: -1 },
    { axiom_type: 'subclass_of', sub: 'dog', super: 'Animal', timeout_ms: 0 },
    { axiom_type: 'subclass_of', sub: 'dog', super: 'Animal', extra: true },
    { axiom_type: 'subclass_of', sub: 'dog' },
    { axiom_type: 'no_such_type' },
  ]) {
    const r = await call(c, 'get_explanations', args);
    assert.equal(r.isError, true, JSON.stringify(args));
    assert.equal(r.body.error_code, 'invalid_argument', JSON.stringify(args));
  }
  const badEntail = await call(c, 'explain_entailment', { axiom_type: 'subclass_of', sub: 'dog', super: 'Animal', max: 2 });
  assert.equal(badEntail.body.error_code, 'invalid_argument');
  const badIncons = await call(c, 'explain_inconsistency', { timeout_ms: 'soon' });
  assert.equal(badIncons.body.error_code, 'invalid_argument');
});

test('explain_inconsistency: consistent, then a minimal inconsistent set; entailment tools refuse meanwhile', async () => {
  const fine = await call(c, 'explain_inconsistency');
  assert.equal(fine.isError, false);
  assert.equal(fine.body.inconsistent, false);
  assert.match(fine.body.reasoner as string, /EL\+\+/);

  assert.equal((await call(c, 'add_axiom', { axiom_type: 'class_assertion', class: 'weird thing', individual: 'w1' })).isError, false);
  const bad = await call(c, 'explain_inconsistency', { timeout_ms: 30000 });
  assert.equal(bad.isError, false, JSON.stringify(bad.body));
  assert.equal(bad.body.inconsistent, true);
  assert.equal(bad.body.minimal, true);
  assert.ok((bad.body.consistency_checks as number) > 1);
  const list = bad.body.justification as { count: number; items: Row[] };
  assert.equal(bad.body.axiom_count, list.count);
  const axioms = axiomsOf(list.items);
  assert.equal((await explainInconsistency(axioms)).inconsistent, true);
  for (const a of axioms) assert.equal((await explainInconsistency(axioms.filter((x) => x !== a))).inconsistent, false);
  assert.ok(list.items.some((r) => r.axiom_type === 'ClassAssertion'));

  for (const name of ['explain_entailment', 'get_explanations']) {
    const r = await call(c, name, { axiom_type: 'subclass_of', sub: 'dog', super: 'Animal' });
    assert.equal(r.body.error_code, 'inconsistent_ontology', name);
    assert.equal(r.body.see, 'explain_inconsistency');
  }
  assert.equal((await call(c, 'undo_change')).isError, false);
  assert.equal((await call(c, 'explain_inconsistency')).body.inconsistent, false);
});

test('the explanation tools need ontology:read', async () => {
  const ctx = toolContext([readFunctional(fixtureText())], principalWith(['ontology:curate']));
  const r = await runInContext('explain_inconsistency', {}, ctx);
  assert.equal(r.isError, true);
  assert.equal(r.body.error_code, 'authorization_denied');
  assert.deepEqual(r.body.missing_capabilities, ['ontology:read']);
});
