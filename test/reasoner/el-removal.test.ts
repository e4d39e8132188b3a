// Incremental removal: after axioms are removed, the reasoner takes their index entries back and saturates
// again only the contexts that may depend on them; every answer must equal a full classification of the
// remaining axioms, for each shape of axiom and through removals, re-additions and unsatisfiability.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  classAssertion,
  cls,
  declaration,
  disjointClasses,
  equivalentClasses,
  namedIndividual,
  objectIntersectionOf,
  objectProperty,
  objectPropertyCharacteristic,
  objectSomeValuesFrom,
  subClassOf,
  subPropertyChainOf,
  type Axiom,
} from '../../src/model/terms.js';
import { classify, ElReasoner, renderTaxonomy } from '../../src/reasoner/el-reasoner.js';
import { generateElOntology } from '../../bench/el-generator.js';
import { subsumes } from './support.js';
import { at } from '../support/at.js';

const E = 'http://e.org/';
const c = (n: string) => cls(E + n);
const r = objectProperty(E + 'r');
const s = objectProperty(E + 's');

/** Removes `gone` from a reasoner holding `all`, and checks the result against a full run of the rest. */
function removeAndCompare(reasoner: ElReasoner, all: Axiom[], gone: Axiom[], how: 'incremental' | 'rebuild', label: string): Axiom[] {
  reasoner.remove(gone);
  const rest = all.filter((a) => !gone.includes(a));
  const result = reasoner.classify();
  assert.equal(reasoner.lastRemoval, how, `${label}: taken back by ${how}`);
  const full = classify(rest);
  assert.equal(renderTaxonomy(result), renderTaxonomy(full), label);
  assert.deepEqual(result.unsatisfiable, full.unsatisfiable, label);
  assert.equal(result.consistent, full.consistent, label);
  return rest;
}

test('removing a told subsumption takes back what was derived through it (existentials, definitions)', () => {
  const all = [
    subClassOf(c('A'), c('B')),
    subClassOf(c('C'), objectSomeValuesFrom(r, c('A'))),
    equivalentClasses([c('D'), objectSomeValuesFrom(r, c('B'))]),
    subClassOf(c('E'), c('C')),
  ];
  const reasoner = new ElReasoner(all);
  const before = reasoner.classify();
  assert.ok(subsumes(before, E + 'E', E + 'D'));
  const rest = removeAndCompare(reasoner, all, [at(all, 0)], 'incremental', 'A ⊑ B removed');
  const after = classify(rest);
  assert.equal(subsumes(after, E + 'C', E + 'D'), false);
  reasoner.add([at(all, 0)]);
  assert.equal(renderTaxonomy(reasoner.classify()), renderTaxonomy(before), 'added back: as before');
});

test('removing an existential, a definition and a class assertion; a class no axiom mentions leaves the taxonomy', () => {
  const all: Axiom[] = [
    subClassOf(c('A'), objectSomeValuesFrom(r, c('B'))),
    equivalentClasses([c('D'), objectSomeValuesFrom(r, c('B'))]),
    subClassOf(c('F'), objectIntersectionOf([c('A'), c('G')])),
    classAssertion(c('F'), namedIndividual(E + 'i')),
    subClassOf(c('Lonely'), c('G')),
  ];
  let axioms = all;
  const reasoner = new ElReasoner(axioms);
  reasoner.classify();
  axioms = removeAndCompare(reasoner, axioms, [at(all, 0)], 'incremental', 'existential removed');
  axioms = removeAndCompare(reasoner, axioms, [at(all, 1)], 'incremental', 'definition removed');
  axioms = removeAndCompare(reasoner, axioms, [at(all, 3)], 'incremental', 'class assertion removed');
  axioms = removeAndCompare(reasoner, axioms, [at(all, 4)], 'incremental', 'the only axiom of Lonely removed');
  assert.equal(reasoner.classify().taxonomy.nodeOf(E + 'Lonely'), undefined);
});

test('removing a disjointness makes its unsatisfiable classes (and those reaching them) satisfiable again', () => {
  const all = [
    disjointClasses([c('A'), c('B')]),
    subClassOf(c('U'), c('A')),
    subClassOf(c('U'), c('B')),
    subClassOf(c('V'), objectSomeValuesFrom(r, c('U'))),
    subClassOf(c('W'), c('V')),
    declaration(c('X')),
  ];
  const reasoner = new ElReasoner(all);
  assert.deepEqual(reasoner.classify().unsatisfiable, [E + 'U', E + 'V', E + 'W']);
  const rest = removeAndCompare(reasoner, all, [at(all, 0)], 'incremental', 'disjointness removed');
  assert.deepEqual(classify(rest).unsatisfiable, []);
  reasoner.add([at(all, 0)]);
  assert.deepEqual(reasoner.classify().unsatisfiable, [E + 'U', E + 'V', E + 'W']);
});

test('removing a property chain or transitivity rebuilds, with the same answer', () => {
  const all = [
    objectPropertyCharacteristic('TransitiveObjectProperty', r),
    subPropertyChainOf([s, r], s),
    subClassOf(c('A'), objectSomeValuesFrom(r, c('B'))),
    subClassOf(c('B'), objectSomeValuesFrom(r, c('C'))),
    subClassOf(c('P'), objectSomeValuesFrom(s, c('A'))),
    equivalentClasses([c('D'), objectSomeValuesFrom(s, c('C'))]),
    equivalentClasses([c('F'), objectSomeValuesFrom(r, c('C'))]),
  ];
  const reasoner = new ElReasoner(all);
  const first = reasoner.classify();
  assert.ok(subsumes(first, E + 'P', E + 'D'));
  assert.ok(subsumes(first, E + 'A', E + 'F'));
  const rest = removeAndCompare(reasoner, all, [at(all, 1)], 'rebuild', 'chain removed');
  removeAndCompare(reasoner, rest, [at(all, 0)], 'rebuild', 'transitivity removed');
});

test('on a generated ontology, removals of every shape, one after another, equal full classifications', () => {
  let axioms = generateElOntology(1500, 5);
  const reasoner = new ElReasoner(axioms);
  reasoner.classify();
  const pick = (kind: Axiom['kind'], pred: (a: Axiom) => boolean = () => true) => axioms.filter((a) => a.kind === kind && pred(a));
  const named = (a: Axiom) => a.kind === 'SubClassOf' && a.sup.kind === 'Class';
  const existential = (a: Axiom) => a.kind === 'SubClassOf' && a.sup.kind === 'ObjectSomeValuesFrom';
  const steps: [string, Axiom[]][] = [
    ['a told subsumption near the top', pick('SubClassOf', named).slice(0, 1)],
    ['an existential', pick('SubClassOf', existential).slice(3, 4)],
    ['a definition', pick('EquivalentClasses').slice(2, 3)],
    ['a disjointness', pick('DisjointClasses').slice(0, 1)],
    ['several at once', [...pick('SubClassOf', named).slice(40, 45), ...pick('EquivalentClasses').slice(10, 12)]],
  ];
  for (const [label, gone] of steps) {
    assert.ok(gone.length > 0, label);
    axioms = removeAndCompare(reasoner, axioms, gone, 'incremental', label);
  }
  const back = at(steps, 0)[1];
  reasoner.add(back);
  axioms = [...axioms, ...back];
  assert.equal(renderTaxonomy(reasoner.classify()), renderTaxonomy(classify(axioms)), 'added back');
  const chain = pick('SubPropertyChainOf').slice(0, 1);
  removeAndCompare(reasoner, axioms, chain, 'rebuild', 'a chain');
});
