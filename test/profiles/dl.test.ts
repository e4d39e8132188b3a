// OWL 2 DL restrictions (Structural Specification §2.4, §3.1, §5.8, §11): for each rule an ontology that
// keeps it and one that breaks it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFunctional } from '../../src/model/formats/functional/reader.js';
import { checkProfile } from '../../src/model/profiles/check.js';
import { check, kinds, onto, PREFIXES } from './support.js';
import { at } from '../support/at.js';

test('a plain DL ontology has no violations in DL', () => {
  const r = check('SubClassOf(:A ObjectSomeValuesFrom(:p :B))\nSubClassOf(:A ObjectMaxCardinality(1 :q :C))\nFunctionalObjectProperty(:q)');
  assert.equal(r.inProfile, true);
  assert.deepEqual(r.violations, []);
});

test('§11.1 simple properties: a transitive property may not be used in a cardinality restriction', () => {
  assert.deepEqual(kinds('SubClassOf(:A ObjectMaxCardinality(1 :r))'), []);
  assert.deepEqual(kinds('TransitiveObjectProperty(:r)\nSubClassOf(:A ObjectMaxCardinality(1 :r))'), [
    'non_simple_property_in_cardinality',
  ]);
  // nested deep inside a class expression, and through a sub-property (a super-property of a composite is non-simple)
  assert.deepEqual(
    kinds('TransitiveObjectProperty(:p)\nSubObjectPropertyOf(:p :r)\nSubClassOf(:A ObjectSomeValuesFrom(:q ObjectMinCardinality(2 :r)))'),
    ['non_simple_property_in_cardinality'],
  );
  // a sub-property of a composite property stays simple
  assert.deepEqual(kinds('TransitiveObjectProperty(:r)\nSubObjectPropertyOf(:p :r)\nSubClassOf(:A ObjectExactCardinality(1 :p))'), []);
});

test('§11.1 simple properties: the inverse of a composite property is non-simple too', () => {
  assert.deepEqual(kinds('TransitiveObjectProperty(:r)\nSubClassOf(:A ObjectMaxCardinality(1 ObjectInverseOf(:r)))'), [
    'non_simple_property_in_cardinality',
  ]);
  // InverseObjectProperties(r q) with r composite: q is non-simple
  assert.deepEqual(kinds('TransitiveObjectProperty(:r)\nInverseObjectProperties(:r :q)\nFunctionalObjectProperty(:q)'), [
    'non_simple_property_in_functional',
  ]);
});

test('§11.1 simple properties: characteristic, disjointness and self restrictions', () => {
  const composite = 'SubObjectPropertyOf(ObjectPropertyChain(:p :q) :r)\n';
  const cases: [string, string][] = [
    ['FunctionalObjectProperty(:r)', 'non_simple_property_in_functional'],
    ['InverseFunctionalObjectProperty(:r)', 'non_simple_property_in_inverse_functional'],
    ['IrreflexiveObjectProperty(:r)', 'non_simple_property_in_irreflexive'],
    ['AsymmetricObjectProperty(:r)', 'non_simple_property_in_asymmetric'],
    ['DisjointObjectProperties(:r :s)', 'non_simple_property_in_disjoint'],
    ['SubClassOf(:A ObjectHasSelf(:r))', 'non_simple_property_in_has_self'],
  ];
  for (const [axiom, kind] of cases) {
    assert.deepEqual(kinds(axiom), [], axiom);
    assert.deepEqual(kinds(composite + axiom), [kind], axiom);
  }
});

test('§11.2 regular hierarchy: allowed chain forms are accepted', () => {
  assert.deepEqual(kinds('SubObjectPropertyOf(ObjectPropertyChain(:r :r) :r)'), []);
  assert.deepEqual(kinds('SubObjectPropertyOf(ObjectPropertyChain(:p :q) :r)'), []);
  assert.deepEqual(kinds('SubObjectPropertyOf(ObjectPropertyChain(:r :p) :r)'), []);
  assert.deepEqual(kinds('SubObjectPropertyOf(ObjectPropertyChain(:p :r) :r)'), []);
  // the uncle example: hasFather o hasBrother -> hasUncle, hasUncle o hasWife -> hasAuntInLaw
  assert.deepEqual(kinds('SubObjectPropertyOf(ObjectPropertyChain(:p :q) :r)\nSubObjectPropertyOf(ObjectPropertyChain(:r :s) :t)'), []);
});

test('§11.2 regular hierarchy: cyclic chains and chains against the hierarchy are irregular', () => {
  // r o s -> s together with s o r -> r: s < r and r < s
  assert.deepEqual(kinds('SubObjectPropertyOf(ObjectPropertyChain(:p :s) :r)\nSubObjectPropertyOf(ObjectPropertyChain(:r :q) :s)'), [
    'irregular_property_hierarchy',
  ]);
  // p o q -> q with q sub-property of p: p < q but q ->* p
  assert.deepEqual(kinds('SubObjectPropertyOf(ObjectPropertyChain(:p :q) :q)\nSubObjectPropertyOf(:q :p)'), [
    'irregular_property_hierarchy',
  ]);
  // the super-property in the middle of a longer chain
  assert.deepEqual(kinds('SubObjectPropertyOf(ObjectPropertyChain(:p :r :q) :r)'), ['irregular_property_hierarchy']);
  // owl:topObjectProperty as super-property is exempt
  assert.deepEqual(kinds('SubObjectPropertyOf(ObjectPropertyChain(:p :r :q) owl:topObjectProperty)'), []);
  const r = check('SubObjectPropertyOf(ObjectPropertyChain(:p :r :q) :r)');
  assert.equal(
    at(r.violations, 0).axiom,
    'SubObjectPropertyOf(ObjectPropertyChain(<http://ex.org/p> <http://ex.org/r> <http://ex.org/q>) <http://ex.org/r>)',
  );
  assert.equal(at(r.violations, 0).entity, 'http://ex.org/r');
});

test('§5.8.1 typing: one IRI as object and data property, or as class and datatype, is illegal punning', () => {
  assert.deepEqual(kinds('Declaration(DataProperty(:p))\nDataPropertyAssertion(:p :a "x")'), ['illegal_punning']);
  assert.deepEqual(kinds('Declaration(Datatype(:A))\nDataPropertyRange(:d :A)'), ['illegal_punning']);
  assert.deepEqual(kinds('Declaration(AnnotationProperty(:d))'), ['illegal_punning']);
  // class/individual punning is allowed in OWL 2 DL
  assert.deepEqual(kinds('Declaration(NamedIndividual(:A))\nClassAssertion(:B :A)'), []);
});

test('§5.8.1 declarations: an entity used without a declaration anywhere in the closure', () => {
  assert.deepEqual(kinds('SubClassOf(:Z :A)'), ['undeclared_entity']);
  const r = check('SubClassOf(:Z :A)');
  assert.equal(at(r.violations, 0).entity, 'http://ex.org/Z');
  // built-ins need no declaration
  assert.deepEqual(kinds('SubClassOf(:A owl:Thing)\nDataPropertyRange(:d xsd:integer)\nAnnotationAssertion(rdfs:label :A "a")'), []);
  // a declaration in an imported ontology counts
  const imported = readFunctional(`${PREFIXES}Ontology(<http://ex.org/imp>\nDeclaration(Class(:Z))\n)`);
  const o = onto('SubClassOf(:Z :A)');
  assert.deepEqual(checkProfile([o, imported], 'DL', o).violations, []);
});

test('§5.8.1 typing constraints name classes, datatypes and properties only: an undeclared named individual is fine', () => {
  for (const profile of ['DL', 'EL', 'QL', 'RL'] as const) {
    assert.deepEqual(kinds('ClassAssertion(:A :undeclared)\nObjectPropertyAssertion(:p :a :other)', profile), [], profile);
  }
  assert.deepEqual(kinds('ClassAssertion(:Z :undeclared)'), ['undeclared_entity']);
  assert.equal(at(check('ClassAssertion(:Z :undeclared)').violations, 0).entity, 'http://ex.org/Z');
});

test('§2.4 reserved vocabulary: reserved IRIs may not name ordinary entities', () => {
  assert.deepEqual(kinds('Declaration(Class(owl:Foo))\nSubClassOf(owl:Foo :A)'), ['reserved_vocabulary']);
  assert.deepEqual(kinds('Declaration(NamedIndividual(rdf:x))\nClassAssertion(:A rdf:x)'), ['reserved_vocabulary']);
  assert.deepEqual(kinds('Declaration(ObjectProperty(rdfs:label))\nObjectPropertyAssertion(rdfs:label :a :b)'), ['reserved_vocabulary']);
  // §4: a reserved datatype outside the OWL 2 datatype map, even as the datatype of an annotation value
  assert.deepEqual(kinds('DataPropertyRange(:d xsd:date)'), ['unknown_datatype']);
  assert.deepEqual(kinds('AnnotationAssertion(rdfs:comment :A "2020-01-01"^^xsd:date)'), ['unknown_datatype']);
  assert.deepEqual(kinds('SubObjectPropertyOf(:p owl:topObjectProperty)\nSubClassOf(owl:Nothing :A)'), []);
});

test('§2.3 entity IRIs must be absolute', () => {
  const o = readFunctional(
    `${PREFIXES}Ontology(<http://ex.org/o>\nDeclaration(Class(<relative>))\nSubClassOf(<relative> :A)\nDeclaration(Class(:A))\n)`,
  );
  assert.deepEqual([...new Set(checkProfile([o], 'DL', o).violations.map((v) => v.kind))], ['non_absolute_iri']);
});

test('§3.1 header: relative or reserved ontology and version IRIs; undeclared header annotation properties', () => {
  const rel = onto('', 'relative/ontology');
  assert.deepEqual(
    checkProfile([rel], 'DL', rel).violations.map((v) => v.kind),
    ['ontology_iri_not_absolute'],
  );
  const reserved = onto('', 'http://www.w3.org/2002/07/owl#MyOntology');
  assert.deepEqual(
    checkProfile([reserved], 'DL', reserved).violations.map((v) => v.kind),
    ['ontology_iri_reserved'],
  );
  const ann = onto('', 'http://ex.org/o', 'Annotation(:note "x")\nAnnotation(rdfs:comment "fine")\n');
  const vs = checkProfile([ann], 'DL', ann).violations;
  assert.deepEqual(
    vs.map((v) => [v.kind, v.entity, v.axiom]),
    [['undeclared_entity', 'http://ex.org/note', undefined]],
  );
});

test('§11.2 datatypes: definitions may not be cyclic, define built-ins, or be restricted by facets', () => {
  const d = 'Declaration(Datatype(:dt1))\nDeclaration(Datatype(:dt2))\n';
  assert.deepEqual(kinds(d + 'DatatypeDefinition(:dt1 xsd:integer)\nDatatypeDefinition(:dt2 :dt1)'), []);
  assert.deepEqual(kinds(d + 'DatatypeDefinition(:dt1 :dt2)\nDatatypeDefinition(:dt2 DataUnionOf(:dt1 xsd:string))'), [
    'datatype_definition_cycle',
  ]);
  assert.deepEqual(kinds('DatatypeDefinition(xsd:integer xsd:string)'), ['builtin_datatype_defined']);
  assert.deepEqual(
    kinds(d + 'DatatypeDefinition(:dt1 xsd:integer)\nDataPropertyRange(:d DatatypeRestriction(:dt1 xsd:minInclusive "1"^^xsd:integer))'),
    ['defined_datatype_in_restriction'],
  );
  assert.deepEqual(kinds('DataPropertyRange(:d DatatypeRestriction(xsd:integer xsd:minInclusive "1"^^xsd:integer))'), []);
  assert.deepEqual(kinds('DataPropertyRange(:d DatatypeRestriction(xsd:integer :myFacet "1"^^xsd:integer))'), ['illegal_facet']);
});

test('§11.2 owl:topDataProperty may not be a sub-property', () => {
  assert.deepEqual(kinds('SubDataPropertyOf(:d owl:topDataProperty)'), []);
  assert.deepEqual(kinds('SubDataPropertyOf(owl:topDataProperty :d)'), ['top_data_property_as_subproperty']);
});

test('§11.2 anonymous individuals: assertions between them must form a forest', () => {
  assert.deepEqual(
    kinds('ObjectPropertyAssertion(:p _:x _:y)\nObjectPropertyAssertion(:p _:y _:z)\nObjectPropertyAssertion(:p :a _:x)'),
    [],
  );
  assert.deepEqual(kinds('ObjectPropertyAssertion(:p _:x _:y)\nObjectPropertyAssertion(:p _:y _:z)\nObjectPropertyAssertion(:q _:z _:x)'), [
    'anonymous_individual_cycle',
  ]);
  assert.deepEqual(kinds('ObjectPropertyAssertion(:p _:x _:y)\nObjectPropertyAssertion(:q _:y _:x)'), ['anonymous_individual_cycle']);
});

test('violations are attributed to their ontology: owned for the audited one, not for imports', () => {
  const imported = readFunctional(
    `${PREFIXES}Ontology(<http://ex.org/imp>\nDeclaration(ObjectProperty(:r))\nDeclaration(Class(:A))\nTransitiveObjectProperty(:r)\nSubClassOf(:A ObjectMaxCardinality(1 :r))\n)`,
  );
  const o = onto('SubClassOf(:B ObjectMaxCardinality(2 :r))', 'http://ex.org/o', 'Import(<http://ex.org/imp>)\n');
  const r = checkProfile([o, imported], 'DL', o);
  assert.equal(r.inProfile, false);
  assert.deepEqual(
    r.violations.map((v) => [v.ontology, v.owned, v.kind]),
    [
      ['http://ex.org/imp', false, 'non_simple_property_in_cardinality'],
      ['http://ex.org/o', true, 'non_simple_property_in_cardinality'],
    ],
  );
});

test('the report is deterministic: the same content gives the same list whatever the axiom order', () => {
  const a = check('SubClassOf(:Z :A)\nTransitiveObjectProperty(:r)\nFunctionalObjectProperty(:r)\nSubClassOf(:Y :B)');
  const b = check('SubClassOf(:Y :B)\nFunctionalObjectProperty(:r)\nSubClassOf(:Z :A)\nTransitiveObjectProperty(:r)');
  assert.deepEqual(a.violations, b.violations);
  assert.equal(a.violations.length, 3);
});
