import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManchesterRenderer, isPlainName } from '../../src/model/formats/manchester/render.js';
import { parseClassExpression } from '../../src/model/formats/manchester/expression.js';
import type { NameResolver } from '../../src/model/names.js';
import * as T from '../../src/model/terms.js';

const EX = 'http://ex.org/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const labels: Record<string, string> = { [EX + 'hasTopping']: 'has topping', [XSD + 'integer']: 'xsd:integer' };
const local = (e: T.Entity | string) => {
  const iri = typeof e === 'string' ? e : e.iri;
  return labels[iri] ?? iri.slice(iri.lastIndexOf('/') + 1);
};
const r = new ManchesterRenderer(local);
const C = (n: string) => T.cls(EX + n);
const p = T.objectProperty(EX + 'hasTopping');
const d = T.dataProperty(EX + 'size');
const names: NameResolver = {
  resolve: (t) => ({
    iri: t === "'has topping'" ? EX + 'hasTopping' : t === 'xsd:integer' ? XSD + 'integer' : EX + t,
    kinds: new Set(t === 'size' ? ['DataProperty' as const] : []),
  }),
};

test('class expressions: quoting, sorted operands, minimal parentheses that parse back', () => {
  const cases: [T.ClassExpression, string][] = [
    [T.objectSomeValuesFrom(p, C('Mozzarella')), "'has topping' some Mozzarella"],
    [T.objectIntersectionOf([C('Pizza'), T.objectUnionOf([C('B'), C('A')])]), '(A or B) and Pizza'],
    [T.objectUnionOf([C('Pizza'), T.objectIntersectionOf([C('B'), C('A')])]), 'A and B or Pizza'],
    [T.objectComplementOf(T.objectIntersectionOf([C('A'), C('B')])), 'not (A and B)'],
    [T.objectAllValuesFrom(p, T.objectUnionOf([C('A'), C('B')])), "'has topping' only (A or B)"],
    [T.objectMinCardinality(2, T.objectInverseOf(p)), "inverse 'has topping' min 2"],
    [T.objectExactCardinality(1, p, C('A')), "'has topping' exactly 1 A"],
    [T.objectHasValue(p, T.namedIndividual(EX + 'x')), "'has topping' value x"],
    [T.objectHasSelf(p), "'has topping' Self"],
    [T.objectOneOf([T.namedIndividual(EX + 'b'), T.namedIndividual(EX + 'a')]), '{a, b}'],
    [
      T.dataSomeValuesFrom(
        d,
        T.datatypeRestriction(T.datatype(XSD + 'integer'), [T.facetRestriction(XSD + 'minInclusive', T.literal('0', XSD + 'integer'))]),
      ),
      'size some xsd:integer[>= 0]',
    ],
    [T.dataHasValue(d, T.literal('x y', undefined, 'en')), 'size value "x y"@en'],
    [T.dataMaxCardinality(3, d), 'size max 3'],
  ];
  for (const [ce, text] of cases) {
    assert.equal(r.classExpression(ce), text);
    assert.equal(parseClassExpression(text, names), ce, 'parses back: ' + text);
  }
});

test('literals and data ranges', () => {
  assert.equal(r.literal(T.literal('5', XSD + 'integer')), '5');
  assert.equal(r.literal(T.literal('05.50', XSD + 'decimal')), '05.50');
  assert.equal(r.literal(T.literal('2.5', XSD + 'float')), '2.5f');
  assert.equal(r.literal(T.literal('true', XSD + 'boolean')), 'true');
  assert.equal(r.literal(T.literal('1', XSD + 'boolean')), '"1"^^\'XMLSchema#boolean\'');
  assert.equal(r.literal(T.literal('say "hi"\\')), '"say \\"hi\\"\\\\"');
  assert.equal(
    r.dataRange(T.dataUnionOf([T.datatype(XSD + 'string'), T.dataComplementOf(T.dataOneOf([T.literal('a'), T.literal('b')]))])),
    '\'XMLSchema#string\' or not {"a", "b"}',
  );
});

test('one readable form per axiom type, annotations first', () => {
  const a = T.namedIndividual(EX + 'a'),
    b = T.namedIndividual(EX + 'b');
  const comment = T.annotation(T.annotationProperty(EX + 'comment'), T.literal('why'));
  const cases: [T.Axiom, string][] = [
    [T.subClassOf(C('Margherita'), T.objectSomeValuesFrom(p, C('Mozzarella'))), "Margherita SubClassOf 'has topping' some Mozzarella"],
    [T.objectPropertyDomain(p, C('Pizza')), "'has topping' Domain Pizza"],
    [T.objectPropertyCharacteristic('TransitiveObjectProperty', T.objectProperty(EX + 'hasPart')), 'Transitive: hasPart'],
    [T.equivalentClasses([C('B'), C('A')]), 'A EquivalentTo B'],
    [T.disjointClasses([C('C'), C('B'), C('A')]), 'DisjointClasses: A, B, C'],
    [T.subPropertyChainOf([p, T.objectProperty(EX + 'q')], p), "'has topping' o q SubPropertyOf 'has topping'"],
    [T.inverseObjectProperties(T.objectProperty(EX + 'q'), p), "'has topping' InverseOf q"],
    [T.classAssertion(C('Pizza'), a), 'a Type Pizza'],
    [T.negativeObjectPropertyAssertion(p, a, b), "not a 'has topping' b"],
    [T.dataPropertyAssertion(d, a, T.literal('3', XSD + 'integer')), 'a size 3'],
    [T.hasKey(C('Pizza'), [p], [d]), "Pizza HasKey 'has topping', size"],
    [T.declaration(T.namedIndividual(EX + 'a')), 'Individual: a'],
    [
      T.annotationAssertion(T.annotationProperty(EX + 'label'), T.iriNode(EX + 'Pizza'), T.literal('Pizza', undefined, 'en')),
      'Pizza label "Pizza"@en',
    ],
    [T.subClassOf(C('Man'), C('Person'), [comment]), 'Annotations: comment "why" Man SubClassOf Person'],
    [
      T.dlSafeRule(
        [T.classAtom(C('Pizza'), T.variable('urn:swrl:var#x'))],
        [T.dataRangeAtom(T.datatype(XSD + 'integer'), T.variable('urn:swrl:var#y'))],
      ),
      'Pizza(?<urn:swrl:var#x>) -> xsd:integer(?<urn:swrl:var#y>)',
    ],
  ];
  for (const [ax, text] of cases) assert.equal(r.axiom(ax), text);
});

test('plain names', () => {
  assert.ok(isPlainName('pizza:Margherita'));
  assert.ok(isPlainName('<http://x/a b>') === false);
  for (const n of ['has topping', 'and', 'some', '5', 'a,b', "o'k", 'Class:']) assert.equal(isPlainName(n), false, n);
});
