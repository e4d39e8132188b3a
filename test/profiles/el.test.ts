// OWL 2 EL (Profiles §2): its class expression grammar, axioms, datatypes, and the chain/range restriction.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, kinds } from './support.js';

test('§2.2 EL class expressions: existentials, intersections, has-value, self and singleton nominals are in EL', () => {
  const r = check(
    [
      'SubClassOf(:A ObjectIntersectionOf(:B ObjectSomeValuesFrom(:p :C)))',
      'EquivalentClasses(:D ObjectIntersectionOf(:B ObjectHasValue(:p :a) ObjectHasSelf(:q)))',
      'SubClassOf(ObjectOneOf(:a) :E)',
      'SubClassOf(:A DataSomeValuesFrom(:d DataOneOf("x")))',
      'SubClassOf(:A DataHasValue(:d "1"^^xsd:integer))',
    ].join('\n'),
    'EL',
  );
  assert.deepEqual(r.violations, []);
});

test('§2.2 EL forbids universals, cardinalities, unions, complements and nominals of several individuals', () => {
  const cases: [string, string][] = [
    ['SubClassOf(:A ObjectAllValuesFrom(:p :B))', 'illegal_class_expression'],
    ['SubClassOf(:A ObjectMinCardinality(1 :p))', 'illegal_class_expression'],
    ['SubClassOf(ObjectUnionOf(:A :B) :C)', 'illegal_class_expression'],
    ['SubClassOf(:A ObjectComplementOf(:B))', 'illegal_class_expression'],
    ['SubClassOf(:A DataAllValuesFrom(:d xsd:integer))', 'illegal_class_expression'],
    ['SubClassOf(:A DataMaxCardinality(1 :d))', 'illegal_class_expression'],
    ['SubClassOf(:A ObjectOneOf(:a :b))', 'object_one_of_multiple_individuals'],
    ['SubClassOf(:A DataSomeValuesFrom(:d DataOneOf("x" "y")))', 'data_one_of_multiple_literals'],
    ['SubClassOf(:A DataSomeValuesFrom(:d DataUnionOf(xsd:integer xsd:string)))', 'illegal_data_range'],
    ['SubClassOf(:A DataSomeValuesFrom(:d DatatypeRestriction(xsd:integer xsd:minInclusive "1"^^xsd:integer)))', 'illegal_data_range'],
  ];
  for (const [axiom, kind] of cases) {
    assert.deepEqual(kinds(axiom, 'DL'), [], axiom);
    assert.deepEqual(kinds(axiom, 'EL'), [kind], axiom);
  }
});

test('§2.2.2 EL has no inverse properties and no anonymous individuals', () => {
  assert.deepEqual(kinds('SubClassOf(:A ObjectSomeValuesFrom(ObjectInverseOf(:p) :B))', 'EL'), ['object_property_inverse']);
  assert.deepEqual(kinds('ObjectPropertyAssertion(:p :a _:x)', 'EL'), ['anonymous_individual']);
});

test('§2.2.4 EL axioms: functional, inverse, symmetric, asymmetric, irreflexive and disjoint properties are excluded', () => {
  for (const axiom of [
    'FunctionalObjectProperty(:p)',
    'InverseFunctionalObjectProperty(:p)',
    'InverseObjectProperties(:p :q)',
    'SymmetricObjectProperty(:p)',
    'AsymmetricObjectProperty(:p)',
    'IrreflexiveObjectProperty(:p)',
    'DisjointObjectProperties(:p :q)',
    'DisjointDataProperties(:d :e)',
    'DisjointUnion(:A :B :C)',
  ]) {
    assert.deepEqual(kinds(axiom, 'EL'), ['illegal_axiom'], axiom);
  }
  for (const axiom of [
    'TransitiveObjectProperty(:p)',
    'ReflexiveObjectProperty(:p)',
    'SubObjectPropertyOf(ObjectPropertyChain(:p :q) :r)',
    'FunctionalDataProperty(:d)',
    'HasKey(:A (:p) (:d))',
    'SameIndividual(:a :b)',
    'NegativeObjectPropertyAssertion(:p :a :b)',
  ]) {
    assert.deepEqual(kinds(axiom, 'EL'), [], axiom);
  }
});

test('§2.2.1 EL datatypes: xsd:integer and xsd:string are in, xsd:double, xsd:int and xsd:boolean are out', () => {
  assert.deepEqual(kinds('DataPropertyRange(:d xsd:integer)\nDataPropertyAssertion(:e :a "x"@en)', 'EL'), []);
  assert.deepEqual(kinds('DataPropertyRange(:d xsd:double)', 'EL'), ['illegal_datatype']);
  assert.deepEqual(kinds('DataPropertyAssertion(:d :a "1"^^xsd:int)', 'EL'), ['illegal_datatype']);
  assert.deepEqual(kinds('SubClassOf(:A DataHasValue(:d "true"^^xsd:boolean))', 'EL'), ['illegal_datatype']);
});

test("§2.2.6 EL chains and ranges: a range imposed on the chain's super-property must hold for its last property", () => {
  const chain = 'SubObjectPropertyOf(ObjectPropertyChain(:p :q) :r)\nObjectPropertyRange(:r :A)\n';
  assert.deepEqual(kinds(chain, 'EL'), ['chain_range_not_on_last_property']);
  assert.deepEqual(kinds(chain + 'ObjectPropertyRange(:q :A)', 'EL'), []);
  // the range may come from a super-property of the chain's super-property, and hold through a super-property of the last
  assert.deepEqual(
    kinds('SubObjectPropertyOf(ObjectPropertyChain(:p :q) :r)\nSubObjectPropertyOf(:r :s)\nObjectPropertyRange(:s :A)', 'EL'),
    ['chain_range_not_on_last_property'],
  );
  assert.deepEqual(
    kinds(
      'SubObjectPropertyOf(ObjectPropertyChain(:p :q) :r)\nSubObjectPropertyOf(:r :s)\nObjectPropertyRange(:s :A)\nSubObjectPropertyOf(:q :s)',
      'EL',
    ),
    [],
  );
  // not an EL rule: DL accepts it
  assert.deepEqual(kinds(chain, 'DL'), []);
});

test('EL includes the DL restrictions', () => {
  assert.deepEqual(kinds('SubClassOf(:Z :A)', 'EL'), ['undeclared_entity']);
});
