// OWL 2 QL (Profiles §3): sub- and super-class expression positions, allowed axioms, datatypes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, kinds } from './support.js';

test('§3.2.3 QL class expressions in their positions', () => {
  const r = check(
    [
      'SubClassOf(:A :B)',
      'SubClassOf(ObjectSomeValuesFrom(:p owl:Thing) ObjectIntersectionOf(:B ObjectComplementOf(:C) ObjectSomeValuesFrom(ObjectInverseOf(:q) :D)))',
      'SubClassOf(DataSomeValuesFrom(:d xsd:integer) :E)',
      'EquivalentClasses(:A ObjectSomeValuesFrom(:p owl:Thing))',
      'DisjointClasses(:A :B ObjectSomeValuesFrom(ObjectInverseOf(:p) owl:Thing))',
      'ObjectPropertyRange(:p ObjectIntersectionOf(:A :B))',
    ].join('\n'),
    'QL',
  );
  assert.deepEqual(r.violations, []);
});

test('§3.2.3 QL rejects qualified existentials on the left and unions or universals anywhere', () => {
  assert.deepEqual(kinds('SubClassOf(ObjectSomeValuesFrom(:p :B) :A)', 'QL'), ['non_subclass_expression']);
  assert.deepEqual(kinds('SubClassOf(ObjectIntersectionOf(:A :B) :C)', 'QL'), ['non_subclass_expression']);
  assert.deepEqual(kinds('SubClassOf(:A ObjectSomeValuesFrom(:p ObjectIntersectionOf(:B :C)))', 'QL'), ['non_superclass_expression']);
  assert.deepEqual(kinds('SubClassOf(:A ObjectUnionOf(:B :C))', 'QL'), ['non_superclass_expression']);
  assert.deepEqual(kinds('SubClassOf(:A ObjectComplementOf(ObjectSomeValuesFrom(:p :B)))', 'QL'), ['non_superclass_expression']);
  assert.deepEqual(kinds('EquivalentClasses(:A ObjectIntersectionOf(:B :C))', 'QL'), ['non_subclass_expression']);
  assert.deepEqual(kinds('ObjectPropertyDomain(:p ObjectAllValuesFrom(:q :B))', 'QL'), ['non_superclass_expression']);
  assert.deepEqual(kinds('ClassAssertion(ObjectSomeValuesFrom(:p :B) :a)', 'QL'), ['non_atomic_class_assertion']);
});

test('§3.2.5 QL axioms: no chains, transitivity, functionality, keys, same-individual or negative assertions', () => {
  for (const axiom of [
    'SubObjectPropertyOf(ObjectPropertyChain(:p :q) :r)',
    'TransitiveObjectProperty(:p)',
    'FunctionalObjectProperty(:p)',
    'InverseFunctionalObjectProperty(:p)',
    'FunctionalDataProperty(:d)',
    'HasKey(:A (:p) ())',
    'SameIndividual(:a :b)',
    'NegativeObjectPropertyAssertion(:p :a :b)',
    'NegativeDataPropertyAssertion(:d :a "x")',
    'DisjointUnion(:A :B :C)',
  ]) {
    assert.deepEqual(kinds(axiom, 'QL'), ['illegal_axiom'], axiom);
  }
  for (const axiom of [
    'InverseObjectProperties(:p :q)',
    'SymmetricObjectProperty(:p)',
    'ReflexiveObjectProperty(:p)',
    'IrreflexiveObjectProperty(:p)',
    'AsymmetricObjectProperty(:p)',
    'DisjointObjectProperties(:p :q)',
    'DifferentIndividuals(:a :b)',
  ]) {
    assert.deepEqual(kinds(axiom, 'QL'), [], axiom);
  }
});

test('§3.2.1–3.2.4 QL: no anonymous individuals, data ranges are datatypes and their intersections', () => {
  assert.deepEqual(kinds('ObjectPropertyAssertion(:p :a _:x)', 'QL'), ['anonymous_individual']);
  assert.deepEqual(kinds('DataPropertyRange(:d DataIntersectionOf(xsd:integer xsd:decimal))', 'QL'), []);
  assert.deepEqual(kinds('DataPropertyRange(:d DataOneOf("a" "b"))', 'QL'), ['illegal_data_range']);
  assert.deepEqual(kinds('DataPropertyRange(:d xsd:float)', 'QL'), ['illegal_datatype']);
});
