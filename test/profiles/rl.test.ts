// OWL 2 RL (Profiles §4): sub-, super- and equivalent-class positions, allowed axioms, datatypes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, kinds } from './support.js';

test('§4.2.3 RL class expressions in their positions', () => {
  const r = check(
    [
      'SubClassOf(ObjectUnionOf(:A ObjectSomeValuesFrom(:p :B) ObjectOneOf(:a :b)) ObjectAllValuesFrom(:q :C))',
      'SubClassOf(ObjectIntersectionOf(:A DataHasValue(:d "1"^^xsd:int)) ObjectMaxCardinality(1 :p :B))',
      'SubClassOf(:A ObjectComplementOf(:B))',
      'EquivalentClasses(:A ObjectIntersectionOf(:B ObjectHasValue(:p :a)))',
      'ClassAssertion(ObjectAllValuesFrom(:p :B) :a)',
      'HasKey(ObjectUnionOf(:A :B) (:p) ())',
      'ObjectPropertyDomain(:p DataMaxCardinality(0 :d))',
    ].join('\n'),
    'RL',
  );
  assert.deepEqual(r.violations, []);
});

test('§4.2.3 RL rejects expressions out of position, owl:Thing included', () => {
  assert.deepEqual(kinds('SubClassOf(:A ObjectSomeValuesFrom(:p :B))', 'RL'), ['non_superclass_expression']);
  assert.deepEqual(kinds('SubClassOf(ObjectAllValuesFrom(:p :B) :A)', 'RL'), ['non_subclass_expression']);
  assert.deepEqual(kinds('SubClassOf(:A ObjectUnionOf(:B :C))', 'RL'), ['non_superclass_expression']);
  assert.deepEqual(kinds('SubClassOf(:A ObjectMaxCardinality(2 :p))', 'RL'), ['non_superclass_expression']);
  assert.deepEqual(kinds('SubClassOf(owl:Thing :A)', 'RL'), ['non_subclass_expression']);
  assert.deepEqual(kinds('EquivalentClasses(:A ObjectSomeValuesFrom(:p :B))', 'RL'), ['non_equivalent_class_expression']);
  assert.deepEqual(kinds('DisjointClasses(:A ObjectAllValuesFrom(:p :B))', 'RL'), ['non_subclass_expression']);
  assert.deepEqual(kinds('ObjectPropertyRange(:p ObjectSomeValuesFrom(:q :B))', 'RL'), ['non_superclass_expression']);
  assert.deepEqual(kinds('ClassAssertion(ObjectUnionOf(:A :B) :a)', 'RL'), ['non_superclass_expression']);
});

test('§4.2.5 RL axioms: no reflexivity and no disjoint union; chains, keys and characteristics are in', () => {
  assert.deepEqual(kinds('ReflexiveObjectProperty(:p)', 'RL'), ['illegal_axiom']);
  assert.deepEqual(kinds('DisjointUnion(:A :B :C)', 'RL'), ['illegal_axiom']);
  for (const axiom of [
    'SubObjectPropertyOf(ObjectPropertyChain(:p :q) :r)',
    'TransitiveObjectProperty(:p)',
    'FunctionalObjectProperty(:p)',
    'InverseFunctionalObjectProperty(:p)',
    'SymmetricObjectProperty(:p)',
    'AsymmetricObjectProperty(:p)',
    'IrreflexiveObjectProperty(:p)',
    'SameIndividual(:a :b)',
    'NegativeDataPropertyAssertion(:d :a "x")',
    'ObjectPropertyAssertion(:p :a _:x)',
  ]) {
    assert.deepEqual(kinds(axiom, 'RL'), [], axiom);
  }
});

test('§4.2.1 RL datatypes: the datatype map without owl:real and owl:rational; no data unions or one-ofs', () => {
  assert.deepEqual(kinds('DataPropertyRange(:d xsd:double)\nDataPropertyRange(:e xsd:boolean)', 'RL'), []);
  assert.deepEqual(kinds('DataPropertyRange(:d owl:real)', 'RL'), ['illegal_datatype']);
  assert.deepEqual(kinds('DataPropertyRange(:d DataUnionOf(xsd:integer xsd:string))', 'RL'), ['illegal_data_range']);
  assert.deepEqual(kinds('DataPropertyRange(:d DataOneOf("a"))', 'RL'), ['illegal_data_range']);
});
