import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFunctional } from '../../src/model/formats/functional/reader.js';
import { isLogicalAxiom, type Axiom } from '../../src/model/terms.js';
import { FunctionalRenderer } from '../../src/model/formats/functional/renderer.js';
import { checkEntailment, explainInconsistency, justify } from '../../src/reasoner/explain/explain.js';
import { EntailmentChecker, inconsistencyGoal } from '../../src/reasoner/explain/entailment.js';
import { contract } from '../../src/reasoner/explain/justify.js';
import { classify } from '../../src/reasoner/el-reasoner.js';
import { signature } from '../../src/model/walk.js';
import { ModuleExtractor } from '../../src/reasoner/explain/module.js';
import { classifyStructural } from '../../src/reasoner/structural.js';
import { at } from '../support/at.js';

const PREFIX = 'Prefix(:=<http://e.org/>)\n';

/** The logical axioms of a functional-syntax ontology body. */
function load(body: string): Axiom[] {
  return [...readFunctional(PREFIX + 'Ontology(<http://e.org/o>\n' + body + '\n)').axioms()].filter(isLogicalAxiom);
}

/** One axiom written in functional syntax. */
function ax(text: string): Axiom {
  return at(load(text), 0, 'axiom');
}

const fr = new FunctionalRenderer(new Map([[':', 'http://e.org/']]));
const show = (axioms: readonly Axiom[]) => axioms.map((a) => fr.axiom(a)).sort();

/** Entailing and minimal: every proper subset obtained by dropping one axiom loses the entailment. */
async function assertJustification(j: readonly Axiom[], goal: Axiom): Promise<void> {
  assert.equal((await checkEntailment(j, goal)).entailed, true, `not entailing: ${show(j).join(' ')}`);
  for (const a of j) {
    const rest = j.filter((x) => x !== a);
    assert.equal((await checkEntailment(rest, goal)).entailed, false, `not minimal without ${fr.axiom(a)}`);
  }
}

const CHAIN = `
SubClassOf(:A :B) SubClassOf(:B :C) SubClassOf(:C :D)
SubClassOf(:A ObjectSomeValuesFrom(:r :E)) SubClassOf(ObjectSomeValuesFrom(:r :E) :D)
EquivalentClasses(:A ObjectIntersectionOf(:F :G)) SubClassOf(:F :D)
SubClassOf(:X :Y) SubClassOf(:Y :Z) SubClassOf(:Q :D)
`;

test('checkEntailment decides subsumptions between named and complex classes', async () => {
  const o = load(CHAIN);
  assert.equal((await checkEntailment(o, ax('SubClassOf(:A :D)'))).entailed, true);
  assert.equal((await checkEntailment(o, ax('SubClassOf(:D :A)'))).entailed, false);
  assert.equal((await checkEntailment(o, ax('SubClassOf(ObjectIntersectionOf(:F :G) ObjectSomeValuesFrom(:r :E))'))).entailed, true);
  assert.equal((await checkEntailment(o, ax('SubClassOf(:X ObjectIntersectionOf(:Y :Z))'))).entailed, true);
  assert.equal((await checkEntailment(o, ax('SubClassOf(:X :D)'))).entailed, false);
  assert.equal((await checkEntailment(o, ax('EquivalentClasses(:A ObjectIntersectionOf(:G :F))'))).entailed, true);
  assert.equal((await checkEntailment(o, ax('EquivalentClasses(:A :B)'))).entailed, false);
});

test('single justification is minimal and entailing', async () => {
  const o = load(CHAIN);
  const goal = ax('SubClassOf(:A :C)');
  const res = await justify(o, goal, 1);
  assert.equal(res.entailed, true);
  assert.deepEqual(show(at(res.justifications, 0)), ['SubClassOf(:A :B)', 'SubClassOf(:B :C)']);
  await assertJustification(at(res.justifications, 0), goal);
});

test('all justifications: three distinct ones for A ⊑ D', async () => {
  const o = load(CHAIN);
  const goal = ax('SubClassOf(:A :D)');
  const res = await justify(o, goal, 0);
  assert.equal(res.complete, true);
  assert.equal(res.justifications.length, 3);
  for (const j of res.justifications) await assertJustification(j, goal);
  const sets = res.justifications.map((j) => show(j).join(' ')).sort();
  assert.deepEqual(sets, [
    'EquivalentClasses(:A ObjectIntersectionOf(:F :G)) SubClassOf(:F :D)',
    'SubClassOf(:A :B) SubClassOf(:B :C) SubClassOf(:C :D)',
    'SubClassOf(:A ObjectSomeValuesFrom(:r :E)) SubClassOf(ObjectSomeValuesFrom(:r :E) :D)',
  ]);
  const capped = await justify(o, goal, 2);
  assert.equal(capped.justifications.length, 2);
  assert.equal(capped.complete, false);
});

test('the ⊥-module keeps what matters for the signature and drops the rest', async () => {
  const o = load(CHAIN);
  const m = new ModuleExtractor(o).module(signature(ax('SubClassOf(:A :D)')));
  const shown = show(m);
  assert.ok(shown.includes('SubClassOf(:A :B)'));
  assert.ok(shown.includes('SubClassOf(:F :D)'));
  assert.ok(!shown.includes('SubClassOf(:X :Y)'));
  assert.ok(!shown.includes('SubClassOf(:Q :D)'), 'Q ⊑ D is ⊥-local for a signature without Q');
});

test('the ⊥-module leaves out axioms that hold whatever Σ is (the shared locality rules)', async () => {
  const o = load(`${CHAIN}
ObjectPropertyAssertion(owl:topObjectProperty :a :b) SymmetricObjectProperty(owl:topObjectProperty)
SubClassOf(:A ObjectAllValuesFrom(:s :H)) SubClassOf(:H :Nowhere) ClassAssertion(owl:Thing :a)`);
  const goal = ax('SubClassOf(:A :D)');
  const shown = show(new ModuleExtractor(o).module(signature(goal)));
  // the full relation relates everything and is symmetric; ∀s.H is everything while s is empty
  assert.ok(!shown.some((a) => a.includes('topObjectProperty')), shown.join(' '));
  assert.ok(!shown.includes('SubClassOf(:A ObjectAllValuesFrom(:s :H))'));
  assert.ok(!shown.includes('SubClassOf(:H :Nowhere)'));
  assert.ok(shown.includes('SubClassOf(:A :B)'));
  await assertJustification(at((await justify(o, goal, 1)).justifications, 0), goal);
});
test('unsatisfiable class: justifications of C ⊑ owl:Nothing', async () => {
  const o = load(`
DisjointClasses(:B :C) SubClassOf(:A :B) SubClassOf(:A :C)
SubClassOf(:A ObjectSomeValuesFrom(:r :N)) SubClassOf(:N owl:Nothing)
SubClassOf(:K :B)`);
  const goal = ax('SubClassOf(:A owl:Nothing)');
  const res = await justify(o, goal, 0);
  assert.equal(res.justifications.length, 2);
  for (const j of res.justifications) await assertJustification(j, goal);
  assert.equal((await checkEntailment(o, ax('SubClassOf(:K owl:Nothing)'))).entailed, false);
});

test('assertions, property hierarchy, domains and ranges', async () => {
  const o = load(`
ClassAssertion(:A :a) SubClassOf(:A :B) ObjectPropertyAssertion(:r :a :b) SubObjectPropertyOf(:r :s)
SubObjectPropertyOf(:s :t) ObjectPropertyDomain(:t :D) ObjectPropertyRange(:s :R) SubClassOf(:R :R2)
DataPropertyAssertion(:p :a "1"^^xsd:integer) SubDataPropertyOf(:p :q)
SubObjectPropertyOf(ObjectPropertyChain(:s :s) :t) TransitiveObjectProperty(:u)`);
  const cases: [string, boolean][] = [
    ['ClassAssertion(:B :a)', true],
    ['ClassAssertion(:D :a)', true],
    ['ClassAssertion(:R2 :b)', true],
    ['ClassAssertion(:A :b)', false],
    ['ObjectPropertyAssertion(:t :a :b)', true],
    ['ObjectPropertyAssertion(:t :b :a)', false],
    ['DataPropertyAssertion(:q :a "1"^^xsd:integer)', true],
    ['SubObjectPropertyOf(:r :t)', true],
    ['SubObjectPropertyOf(:t :r)', false],
    ['SubObjectPropertyOf(:p :q)', false],
    ['SubDataPropertyOf(:p :q)', true],
    ['SubObjectPropertyOf(ObjectPropertyChain(:r :r) :t)', true],
    ['TransitiveObjectProperty(:u)', true],
    ['TransitiveObjectProperty(:s)', false],
    ['ObjectPropertyDomain(:r :D)', true],
    ['ObjectPropertyDomain(:r :A)', false],
    ['ObjectPropertyRange(:r :R2)', true],
    ['ObjectPropertyRange(:t :R)', false],
  ];
  for (const [text, expected] of cases) assert.equal((await checkEntailment(o, ax(text))).entailed, expected, text);
  const goal = ax('ObjectPropertyRange(:r :R2)');
  const j = await justify(o, goal, 0);
  assert.equal(j.justifications.length, 1);
  assert.deepEqual(show(at(j.justifications, 0)), ['ObjectPropertyRange(:s :R)', 'SubClassOf(:R :R2)', 'SubObjectPropertyOf(:r :s)']);
  await assertJustification(at(j.justifications, 0), goal);
});

test('negative assertions and different individuals are entailed through inconsistency', async () => {
  const o = load(`
ClassAssertion(:A :a) ClassAssertion(:B :b) DisjointClasses(:A :B)
ObjectPropertyDomain(:r :B)`);
  assert.equal((await checkEntailment(o, ax('DifferentIndividuals(:a :b)'))).entailed, true);
  assert.equal((await checkEntailment(o, ax('DifferentIndividuals(:a :c)'))).entailed, false);
  const neg = ax('NegativeObjectPropertyAssertion(:r :a :b)');
  assert.equal((await checkEntailment(o, neg)).entailed, true);
  const j = await justify(o, neg, 0);
  assert.deepEqual(j.justifications.map(show), [['ClassAssertion(:A :a)', 'DisjointClasses(:A :B)', 'ObjectPropertyDomain(:r :B)']]);
  await assertJustification(at(j.justifications, 0), neg);
});

test('axiom types the reasoner cannot decide count only when asserted (annotated copies and non-logical axioms too)', async () => {
  const all = [
    ...readFunctional(
      PREFIX +
        `Ontology(
FunctionalObjectProperty(:r) SubClassOf(:A :B) Declaration(Class(:A)) AnnotationAssertion(rdfs:comment :A "x")
InverseFunctionalObjectProperty(Annotation(rdfs:comment "y") :r))`,
    ).axioms(),
  ];
  const whole = (text: string) => at([...readFunctional(PREFIX + 'Ontology(' + text + ')').axioms()], 0);
  assert.deepEqual(await checkEntailment(all, ax('FunctionalObjectProperty(:r)')), { entailed: true, decided: false, reasonerCalls: 0 });
  assert.equal((await checkEntailment(all, ax('FunctionalObjectProperty(:s)'))).entailed, false);
  assert.equal((await checkEntailment(all, ax('InverseFunctionalObjectProperty(:r)'))).entailed, true, 'an annotated copy counts');
  assert.equal((await checkEntailment(all, whole('Declaration(Class(:A))'))).entailed, true);
  assert.equal((await checkEntailment(all, whole('AnnotationAssertion(rdfs:comment :A "x")'))).entailed, true);
  assert.equal((await checkEntailment(all, whole('Declaration(Class(:Z))'))).entailed, false);
  assert.equal((await checkEntailment(all, ax('SubClassOf(:A :B)'))).decided, true);
});

test('tautologies have the empty justification', async () => {
  const res = await justify(load('SubClassOf(:A :B)'), ax('SubClassOf(:A owl:Thing)'), 0);
  assert.equal(res.entailed, true);
  assert.deepEqual(res.justifications, [[]]);
});

test('explainInconsistency contracts to a minimal inconsistent subset', async () => {
  const o = load(`
SubClassOf(:A :B) SubClassOf(:B :C) DisjointClasses(:C :D) ClassAssertion(:A :a) ClassAssertion(:D :a)
SubClassOf(:X :Y) ClassAssertion(:X :b) ObjectPropertyAssertion(:r :a :b)`);
  const res = await explainInconsistency(o);
  assert.equal(res.inconsistent, true);
  assert.equal(res.minimal, true);
  assert.deepEqual(show(res.axioms), [
    'ClassAssertion(:A :a)',
    'ClassAssertion(:D :a)',
    'DisjointClasses(:C :D)',
    'SubClassOf(:A :B)',
    'SubClassOf(:B :C)',
  ]);
  for (const a of res.axioms) assert.equal((await explainInconsistency(res.axioms.filter((x) => x !== a))).inconsistent, false);
  assert.ok(res.consistencyChecks > 1);
  const fine = await explainInconsistency(load('SubClassOf(:A :B) ClassAssertion(:A :a)'));
  assert.deepEqual(fine, { inconsistent: false, axioms: [], minimal: true, consistencyChecks: 1 });
});

test('a spent deadline makes justify throw ExplainTimeout', async () => {
  const body: string[] = [];
  for (let i = 0; i < 200; i++) body.push(`SubClassOf(:C${i} :C${i + 1})`);
  const o = load(body.join('\n'));
  await assert.rejects(justify(o, ax('SubClassOf(:C0 :C200)'), 0, { timeoutMs: 1e-9 }), { name: 'ExplainTimeout' });
});

test('another classifier can be plugged in (structural: told hierarchy only)', async () => {
  const o = load(
    'SubClassOf(:A :B) SubClassOf(:B :C) SubClassOf(:A ObjectSomeValuesFrom(:r :E)) SubClassOf(ObjectSomeValuesFrom(:r :E) :D)',
  );
  assert.equal((await checkEntailment(o, ax('SubClassOf(:A :C)'), { classifier: classifyStructural })).entailed, true);
  assert.equal((await checkEntailment(o, ax('SubClassOf(:A :D)'), { classifier: classifyStructural })).entailed, false);
  assert.equal((await checkEntailment(o, ax('SubClassOf(:A :D)'))).entailed, true);
});

test('contract returns the current set, marked non-minimal, when the deadline passes mid-way', async () => {
  const o = load(`
ClassAssertion(:A :a) SubClassOf(:A :B) DisjointClasses(:B :C) ClassAssertion(:C :a)
SubClassOf(:P :Q) SubClassOf(:Q :R) ClassAssertion(:P :b) ClassAssertion(:Q :c)`);
  let calls = 0;
  // the third classification runs past the deadline, so the search stops after the expansion
  const slow = (axioms: Iterable<Axiom>) => {
    if (++calls === 3) {
      const until = Date.now() + 40;
      while (Date.now() < until);
    }
    return classify(axioms);
  };
  const checker = new EntailmentChecker(inconsistencyGoal(), slow, Date.now() + 30);
  const res = await contract(checker, o);
  assert.ok(res !== null);
  assert.equal(res.minimal, false);
  assert.equal((await explainInconsistency(res.axioms)).inconsistent, true, 'still inconsistent');
  assert.ok(res.axioms.length > 4, 'not yet shrunk to the 4 responsible axioms');
});

test('same individuals, disjoint classes and equivalent properties', async () => {
  const o = load(`
SameIndividual(:a :b) SameIndividual(:b :c) DisjointClasses(:A :B) SubClassOf(:A2 :A)
SubObjectPropertyOf(:r :s) SubObjectPropertyOf(:s :r)`);
  const cases: [string, boolean][] = [
    ['SameIndividual(:a :c)', true],
    ['SameIndividual(:a :d)', false],
    ['DisjointClasses(:A2 :B)', true],
    ['DisjointClasses(:A2 :A)', false],
    ['EquivalentObjectProperties(:r :s)', true],
    ['EquivalentObjectProperties(:r :t)', false],
  ];
  for (const [text, expected] of cases) assert.equal((await checkEntailment(o, ax(text))).entailed, expected, text);
  const same = ax('SameIndividual(:a :c)');
  const j = await justify(o, same, 0);
  assert.deepEqual(j.justifications.map(show), [['SameIndividual(:a :b)', 'SameIndividual(:b :c)']]);
  await assertJustification(at(j.justifications, 0), same);
});
