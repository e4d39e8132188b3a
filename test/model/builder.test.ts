import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAxiom, OperandError } from '../../src/model/operands/builder.js';
import { AXIOM_TYPES, AxiomOperandsSchema } from '../../src/model/operands/schema.js';
import { WorkspaceResolver } from '../../src/model/resolver.js';
import { NameError } from '../../src/model/names.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';
import * as t from '../../src/model/terms.js';
import * as v from 'valibot';
import { zoo, workspaceWith, ex, label } from './helpers.js';

const Z = (l: string) => '<' + ex(l) + '>';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';

function resolver() {
  const o = zoo();
  o.add(t.declaration(t.objectProperty(ex('partOf'))));
  o.add(t.declaration(t.dataProperty(ex('name'))));
  o.add(t.declaration(t.annotationProperty(ex('note'))));
  o.add(t.declaration(t.datatype(ex('smallInt'))));
  o.add(t.declaration(t.namedIndividual(ex('tom'))));
  return new WorkspaceResolver(workspaceWith(o));
}

const line = (input: unknown) => axiomLines([buildAxiom(input, resolver()).axiom])[0];

const cases: [string, Record<string, unknown>, string][] = [
  [
    'subclass_of',
    { sub: 'Dog', super: 'hasOwner some Animal' },
    `SubClassOf(${Z('Dog')} ObjectSomeValuesFrom(${Z('hasOwner')} ${Z('Animal')}))`,
  ],
  ['equivalent_classes', { classes: ['Dog', 'zoo:Cat'] }, `EquivalentClasses(${Z('Cat')} ${Z('Dog')})`],
  ['disjoint_classes', { classes: ['Dog', 'Cat', 'Animal'] }, `DisjointClasses(${Z('Animal')} ${Z('Cat')} ${Z('Dog')})`],
  ['disjoint_union', { class: 'Animal', classes: ['Dog', 'Cat'] }, `DisjointUnion(${Z('Animal')} ${Z('Cat')} ${Z('Dog')})`],
  ['class_assertion', { class: 'Dog', individual: 'rex' }, `ClassAssertion(${Z('Dog')} ${Z('rex')})`],
  [
    'object_property_assertion',
    { property: 'hasOwner', subject: 'rex', object: 'tom' },
    `ObjectPropertyAssertion(${Z('hasOwner')} ${Z('rex')} ${Z('tom')})`,
  ],
  [
    'data_property_assertion',
    { property: 'age', subject: 'rex', value: '3', datatype: 'xsd:integer' },
    `DataPropertyAssertion(${Z('age')} ${Z('rex')} "3"^^<${XSD}integer>)`,
  ],
  [
    'negative_object_property_assertion',
    { property: 'hasOwner', subject: 'rex', object: 'rex' },
    `NegativeObjectPropertyAssertion(${Z('hasOwner')} ${Z('rex')} ${Z('rex')})`,
  ],
  [
    'negative_data_property_assertion',
    { property: 'name', subject: 'rex', value: 'Rex', lang: 'EN' },
    `NegativeDataPropertyAssertion(${Z('name')} ${Z('rex')} "Rex"@en)`,
  ],
  ['same_individual', { individuals: ['rex', 'tom'] }, `SameIndividual(${Z('rex')} ${Z('tom')})`],
  ['different_individuals', { individuals: ['tom', 'rex'] }, `DifferentIndividuals(${Z('rex')} ${Z('tom')})`],
  ['sub_object_property_of', { property: 'partOf', super_property: 'hasOwner' }, `SubObjectPropertyOf(${Z('partOf')} ${Z('hasOwner')})`],
  ['sub_data_property_of', { property: 'name', super_property: 'age' }, `SubDataPropertyOf(${Z('name')} ${Z('age')})`],
  [
    'sub_property_chain_of',
    { chain: ['partOf', 'hasOwner'], super_property: 'hasOwner' },
    `SubObjectPropertyOf(ObjectPropertyChain(${Z('partOf')} ${Z('hasOwner')}) ${Z('hasOwner')})`,
  ],
  ['equivalent_object_properties', { properties: ['partOf', 'hasOwner'] }, `EquivalentObjectProperties(${Z('hasOwner')} ${Z('partOf')})`],
  ['disjoint_object_properties', { properties: ['partOf', 'hasOwner'] }, `DisjointObjectProperties(${Z('hasOwner')} ${Z('partOf')})`],
  ['equivalent_data_properties', { properties: ['name', 'age'] }, `EquivalentDataProperties(${Z('age')} ${Z('name')})`],
  ['disjoint_data_properties', { properties: ['name', 'age'] }, `DisjointDataProperties(${Z('age')} ${Z('name')})`],
  [
    'inverse_object_properties',
    { property: 'partOf', inverse_property: 'hasOwner' },
    `InverseObjectProperties(${Z('hasOwner')} ${Z('partOf')})`,
  ],
  ['transitive_object_property', { property: 'partOf' }, `TransitiveObjectProperty(${Z('partOf')})`],
  ['functional_object_property', { property: 'partOf' }, `FunctionalObjectProperty(${Z('partOf')})`],
  ['inverse_functional_object_property', { property: 'partOf' }, `InverseFunctionalObjectProperty(${Z('partOf')})`],
  ['symmetric_object_property', { property: 'partOf' }, `SymmetricObjectProperty(${Z('partOf')})`],
  ['asymmetric_object_property', { property: 'partOf' }, `AsymmetricObjectProperty(${Z('partOf')})`],
  ['reflexive_object_property', { property: 'partOf' }, `ReflexiveObjectProperty(${Z('partOf')})`],
  ['irreflexive_object_property', { property: 'partOf' }, `IrreflexiveObjectProperty(${Z('partOf')})`],
  ['functional_data_property', { property: 'age' }, `FunctionalDataProperty(${Z('age')})`],
  ['has_key', { class: 'Dog', properties: ['hasOwner', 'name'] }, `HasKey(${Z('Dog')} (${Z('hasOwner')}) (${Z('name')}))`],
  ['object_property_domain', { property: 'hasOwner', domain: 'Animal' }, `ObjectPropertyDomain(${Z('hasOwner')} ${Z('Animal')})`],
  [
    'object_property_range',
    { property: 'hasOwner', range: 'not Cat' },
    `ObjectPropertyRange(${Z('hasOwner')} ObjectComplementOf(${Z('Cat')}))`,
  ],
  ['data_property_domain', { property: 'age', domain: 'Animal' }, `DataPropertyDomain(${Z('age')} ${Z('Animal')})`],
  [
    'data_property_range',
    { property: 'age', range: 'xsd:integer[>= 0]' },
    `DataPropertyRange(${Z('age')} DatatypeRestriction(<${XSD}integer> <${XSD}minInclusive> "0"^^<${XSD}integer>))`,
  ],
  ['annotation_assertion', { subject: 'Cat', value: 'cat', lang: 'en' }, `AnnotationAssertion(<${RDFS}label> ${Z('Cat')} "cat"@en)`],
  [
    'sub_annotation_property_of',
    { property: 'note', super_property: 'rdfs:comment' },
    `SubAnnotationPropertyOf(${Z('note')} <${RDFS}comment>)`,
  ],
  ['annotation_property_domain', { property: 'note', domain: 'Animal' }, `AnnotationPropertyDomain(${Z('note')} ${Z('Animal')})`],
  ['annotation_property_range', { property: 'note', range: 'xsd:string' }, `AnnotationPropertyRange(${Z('note')} <${XSD}string>)`],
  ['declaration', { entity: 'Cat', entity_type: 'class' }, `Declaration(Class(${Z('Cat')}))`],
  [
    'datatype_definition',
    { datatype: 'smallInt', range: 'xsd:integer[< 10]' },
    `DatatypeDefinition(${Z('smallInt')} DatatypeRestriction(<${XSD}integer> <${XSD}maxExclusive> "10"^^<${XSD}integer>))`,
  ],
];

test('every axiom_type has a case', () => {
  assert.deepEqual(cases.map((c) => c[0]).sort(), [...AXIOM_TYPES].sort());
});

for (const [type, operands, expected] of cases) {
  test(`builds ${type}`, () => {
    assert.equal(line({ axiom_type: type, ...operands }), expected);
    // the valibot schema accepts exactly this operand set
    assert.equal(v.safeParse(AxiomOperandsSchema, { axiom_type: type, ...operands }).success, true);
  });
}

test('add and remove are symmetric: the same operands build the same node', () => {
  const r = resolver();
  const input = { axiom_type: 'subclass_of', sub: 'Dog', super: 'hasOwner some Animal' };
  assert.equal(buildAxiom(input, r).axiom, buildAxiom({ ...input }, r).axiom);
});

test('value_iri takes precedence over value', () => {
  assert.equal(
    line({ axiom_type: 'annotation_assertion', subject: 'Cat', value: 'x', value_iri: 'Dog', property: 'rdfs:seeAlso' }),
    `AnnotationAssertion(<${RDFS}seeAlso> ${Z('Cat')} ${Z('Dog')})`,
  );
});

test('datatype wins over lang, lang over a plain literal', () => {
  const base = { axiom_type: 'data_property_assertion', property: 'name', subject: 'rex', value: 'Rex' };
  assert.equal(
    line({ ...base, datatype: 'xsd:token', lang: 'en' }),
    `DataPropertyAssertion(${Z('name')} ${Z('rex')} "Rex"^^<${XSD}token>)`,
  );
  assert.equal(line({ ...base, lang: 'de' }), `DataPropertyAssertion(${Z('name')} ${Z('rex')} "Rex"@de)`);
  assert.equal(line(base), `DataPropertyAssertion(${Z('name')} ${Z('rex')} "Rex"^^<${XSD}string>)`);
});

test('annotations wrap the axiom, nested annotations included', () => {
  const got = line({
    axiom_type: 'subclass_of',
    sub: 'Cat',
    super: 'Animal',
    annotations: [{ property: 'rdfs:comment', value: 'told', annotations: [{ property: 'note', value_iri: 'http://example.org/src' }] }],
  });
  assert.equal(
    got,
    `SubClassOf(Annotation(Annotation(${Z('note')} <http://example.org/src>) <${RDFS}comment> "told"^^<${XSD}string>) ${Z('Cat')} ${Z('Animal')})`,
  );
});

test('an unknown axiom_type names every supported type', () => {
  assert.throws(
    () => line({ axiom_type: 'subclass' }),
    (e: unknown) => e instanceof OperandError && e.code === 'unknown_axiom_type' && AXIOM_TYPES.every((x) => e.message.includes(x)),
  );
});

test('a missing operand is an argument error naming it', () => {
  assert.throws(
    () => line({ axiom_type: 'subclass_of', sub: 'Dog' }),
    (e: unknown) => e instanceof OperandError && e.code === 'invalid_argument' && e.operand === 'super' && /super/.test(e.message),
  );
});

test('a list below its minimum size is an argument error naming it', () => {
  assert.throws(
    () => line({ axiom_type: 'equivalent_classes', classes: ['Dog'] }),
    (e: unknown) => e instanceof OperandError && e.operand === 'classes' && /at least 2/.test(e.message),
  );
  assert.throws(
    () => line({ axiom_type: 'has_key', class: 'Dog', properties: [] }),
    (e: unknown) => e instanceof OperandError && e.operand === 'properties' && /at least 1/.test(e.message),
  );
});

test('an unknown entity_type is an argument error', () => {
  assert.throws(
    () => line({ axiom_type: 'declaration', entity: 'X', entity_type: 'thing' }),
    (e: unknown) => e instanceof OperandError && e.operand === 'entity_type',
  );
});

test('operands of other axiom types are rejected (closed object)', () => {
  assert.throws(
    () => line({ axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal', individual: 'rex' }),
    (e: unknown) => e instanceof OperandError && e.operand === 'individual' && /not an operand of subclass_of/.test(e.message),
  );
  assert.equal(
    v.safeParse(AxiomOperandsSchema, { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal', individual: 'rex' }).success,
    false,
  );
});

test('annotation_assertion needs a value or value_iri', () => {
  assert.throws(
    () => line({ axiom_type: 'annotation_assertion', subject: 'Cat' }),
    (e: unknown) => e instanceof OperandError && e.operand === 'value',
  );
});

test('a Manchester parse error is an argument error naming the operand', () => {
  assert.throws(
    () => line({ axiom_type: 'subclass_of', sub: 'Dog', super: 'hasOwner some (' }),
    (e: unknown) => e instanceof OperandError && e.operand === 'super',
  );
});

test('new entities and their declarations; strict refuses them', () => {
  const r = resolver();
  const built = buildAxiom(
    { axiom_type: 'subclass_of', sub: 'Wolf', super: 'Animal', annotations: [{ property: 'zoo:source', value: 'x' }] },
    r,
  );
  assert.deepEqual(
    built.newEntities.map((e) => e.kind + ' ' + e.iri),
    ['Class ' + ex('Wolf'), 'AnnotationProperty ' + ex('source')],
  );
  assert.deepEqual(axiomLines(built.declarations), [`Declaration(AnnotationProperty(${Z('source')}))`, `Declaration(Class(${Z('Wolf')}))`]);
  assert.throws(
    () => buildAxiom({ axiom_type: 'subclass_of', sub: 'Wolf', super: 'Animal' }, r, { strict: true }),
    (e: unknown) => e instanceof OperandError && e.operand === 'sub',
  );
  // a declaration axiom is not repeated among its own declarations
  const decl = buildAxiom({ axiom_type: 'declaration', entity: 'Wolf', entity_type: 'class' }, r);
  assert.equal(decl.newEntities.length, 1);
  assert.equal(decl.declarations.length, 0);
});

test('an undeclared but used annotation property gets a declaration without being new', () => {
  const o = zoo();
  o.add(t.annotationAssertion(t.annotationProperty(ex('undeclared')), t.iriNode(ex('Dog')), t.literal('x')));
  const built = buildAxiom(
    { axiom_type: 'annotation_assertion', property: 'zoo:undeclared', subject: 'Cat', value: 'y' },
    new WorkspaceResolver(workspaceWith(o)),
  );
  assert.equal(built.newEntities.length, 0);
  assert.deepEqual(axiomLines(built.declarations), [`Declaration(AnnotationProperty(${Z('undeclared')}))`]);
});

test('class operands accept labels with spaces; ambiguous names fail listing candidates', () => {
  const o = zoo();
  o.add(t.declaration(t.cls(ex('BigCat'))));
  o.add(label(ex('BigCat'), 'big cat'));
  o.add(label(ex('Cat'), 'kitty'));
  o.add(label(ex('Animal'), 'kitty'));
  const r = new WorkspaceResolver(workspaceWith(o));
  assert.equal(
    axiomLines([buildAxiom({ axiom_type: 'subclass_of', sub: 'big cat', super: 'Cat' }, r).axiom])[0],
    `SubClassOf(${Z('BigCat')} ${Z('Cat')})`,
  );
  assert.throws(
    () => buildAxiom({ axiom_type: 'subclass_of', sub: 'kitty', super: 'Cat' }, r),
    (e: unknown) => e instanceof NameError && e.candidates.length === 2 && /^sub: /.test(e.message),
  );
});

test("labels: errors name operands as the caller's arguments do, and carry their error codes", () => {
  const o = zoo();
  o.add(label(ex('Cat'), 'kitty'));
  o.add(label(ex('Animal'), 'kitty'));
  const r = new WorkspaceResolver(workspaceWith(o));
  const labels = { sub: 'child', super: 'parent' };
  const fails = (input: Record<string, unknown>, strict = false) => {
    try {
      buildAxiom({ axiom_type: 'subclass_of', ...input }, r, { labels, strict });
    } catch (e) {
      return e;
    }
    return assert.fail('expected a refusal');
  };
  const missing = fails({ sub: 'Dog' });
  assert.ok(missing instanceof OperandError);
  assert.equal(missing.message, "Missing required operand 'parent' for subclass_of");
  assert.deepEqual([missing.code, missing.context], ['invalid_argument', { operand: 'parent' }]);
  const notString = fails({ sub: 'Dog', super: 3 });
  assert.ok(notString instanceof OperandError);
  assert.deepEqual([notString.message, notString.operand], ["Operand 'parent' must be a string", 'parent']);
  const ambiguous = fails({ sub: 'kitty', super: 'Dog' });
  assert.ok(ambiguous instanceof NameError);
  assert.match(ambiguous.message, /^child: /);
  assert.deepEqual([ambiguous.code, ambiguous.context], ['ambiguous_reference', { candidates: [...ambiguous.candidates] }]);
  const syntax = fails({ sub: 'Dog', super: 'hasOwner some (' });
  assert.ok(syntax instanceof OperandError);
  assert.match(syntax.message, /^parent: /);
  assert.equal(syntax.operand, 'parent');
  const minted = fails({ sub: 'Wolf', super: 'Dog' }, true);
  assert.ok(minted instanceof OperandError);
  assert.match(minted.message, /^Operand 'child' names no existing Class/);
  // an operand the labels do not name keeps its own name
  const closed = fails({ sub: 'Dog', super: 'Cat', individual: 'rex' });
  assert.ok(closed instanceof OperandError);
  assert.equal(closed.operand, 'individual');
});

test('an unknown literal datatype is a new entity named by its operand', () => {
  const r = resolver();
  const input = { axiom_type: 'data_property_assertion', property: 'age', subject: 'rex', value: '3', datatype: 'zoo:myType' };
  assert.deepEqual(buildAxiom(input, r).newEntities, [t.datatype(ex('myType'))]);
  assert.throws(
    () => buildAxiom(input, r, { strict: true }),
    (e: unknown) => e instanceof OperandError && e.operand === 'datatype',
  );
  const ann = { axiom_type: 'subclass_of', sub: 'Dog', super: 'Cat', annotations: [{ value: '1', datatype: 'zoo:myType' }] };
  assert.throws(
    () => buildAxiom(ann, r, { strict: true }),
    (e: unknown) => e instanceof OperandError && e.operand === 'annotations[0].datatype',
  );
});
