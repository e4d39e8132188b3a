import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as f from '../../src/model/terms.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';
import { Ontology } from '../../src/model/ontology.js';
import { signature } from '../../src/model/walk.js';

const EX = 'http://example.org/';

test('structurally equal nodes are the same object', () => {
  const a = f.subClassOf(f.cls(EX + 'A'), f.objectSomeValuesFrom(f.objectProperty(EX + 'p'), f.cls(EX + 'B')));
  const b = f.subClassOf(f.cls(EX + 'A'), f.objectSomeValuesFrom(f.objectProperty(EX + 'p'), f.cls(EX + 'B')));
  assert.equal(a, b);
  assert.notEqual(f.cls(EX + 'A'), f.namedIndividual(EX + 'A'), 'punned IRIs are distinct entities');
  assert.ok(Object.isFrozen(a));
});

test('set-like operands ignore order and duplicates; disjointness keeps repetitions', () => {
  const [A, B, C] = [f.cls(EX + 'A'), f.cls(EX + 'B'), f.cls(EX + 'C')];
  assert.equal(f.objectIntersectionOf([A, B, C]), f.objectIntersectionOf([C, A, B, A]));
  assert.equal(f.equivalentClasses([A, B]), f.equivalentClasses([B, A, B]));
  assert.notEqual(f.disjointClasses([A, B, A]), f.disjointClasses([A, B]));
  assert.equal(f.disjointClasses([A, B, A]).classes.length, 3);
  assert.equal(
    f.inverseObjectProperties(f.objectProperty(EX + 'p'), f.objectProperty(EX + 'q')),
    f.inverseObjectProperties(f.objectProperty(EX + 'q'), f.objectProperty(EX + 'p')),
  );
});

test('property chains keep their order', () => {
  const [p, q, r] = [f.objectProperty(EX + 'p'), f.objectProperty(EX + 'q'), f.objectProperty(EX + 'r')];
  assert.notEqual(f.subPropertyChainOf([p, q], r), f.subPropertyChainOf([q, p], r));
});

test('literals: language tags lower-cased, plain literals are xsd:string', () => {
  assert.equal(f.literal('x', undefined, 'EN-us').lang, 'en-us');
  assert.equal(f.literal('x', undefined, 'EN-us').datatype, 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString');
  assert.equal(f.literal('x').datatype, 'http://www.w3.org/2001/XMLSchema#string');
  assert.equal(f.literal('x'), f.literal('x', 'http://www.w3.org/2001/XMLSchema#string'));
});

test('annotations distinguish axioms and can be stripped', () => {
  const A = f.cls(EX + 'A');
  const B = f.cls(EX + 'B');
  const ann = f.annotation(f.annotationProperty(EX + 'note'), f.literal('why'));
  const annotated = f.subClassOf(A, B, [ann]);
  assert.notEqual(annotated, f.subClassOf(A, B));
  assert.equal(f.axiomWithoutAnnotations(annotated), f.subClassOf(A, B));
});

test('canonical lines sort operands by text and render the README forms', () => {
  const p = f.objectProperty(EX + 'p');
  const lines = axiomLines([
    f.subClassOf(f.cls(EX + 'B'), f.objectMinCardinality(2, p)),
    f.subClassOf(f.cls(EX + 'B'), f.objectMinCardinality(2, p, f.cls(EX + 'C'))),
    f.equivalentClasses([f.cls(EX + 'Z'), f.cls(EX + 'A')]),
    f.subPropertyChainOf([f.objectProperty(EX + 'q'), p], p),
    f.hasKey(f.cls(EX + 'A'), [], [f.dataProperty(EX + 'd')]),
    f.annotationAssertion(f.annotationProperty(EX + 'label'), f.iriNode(EX + 'A'), f.literal('tab\there "q"', undefined, 'en')),
  ]);
  assert.deepEqual(lines, [
    `AnnotationAssertion(<${EX}label> <${EX}A> "tab\\there \\"q\\""@en)`,
    `EquivalentClasses(<${EX}A> <${EX}Z>)`,
    `HasKey(<${EX}A> () (<${EX}d>))`,
    `SubClassOf(<${EX}B> ObjectMinCardinality(2 <${EX}p> <${EX}C>))`,
    `SubClassOf(<${EX}B> ObjectMinCardinality(2 <${EX}p>))`,
    `SubObjectPropertyOf(ObjectPropertyChain(<${EX}q> <${EX}p>) <${EX}p>)`,
  ]);
});

test('anonymous individuals are numbered independently of their labels', () => {
  const knows = f.objectProperty(EX + 'knows');
  const build = (x: string, y: string) => [
    f.objectPropertyAssertion(knows, f.namedIndividual(EX + 'a'), f.anonymousIndividual(x)),
    f.objectPropertyAssertion(knows, f.anonymousIndividual(x), f.anonymousIndividual(y)),
    f.classAssertion(f.cls(EX + 'P'), f.anonymousIndividual(y)),
  ];
  const one = axiomLines(build('n1', 'n2'));
  const two = axiomLines(build('zz', 'aa'));
  assert.deepEqual(one, two);
  assert.ok(one.some((l) => l.includes('_:b1')) && one.some((l) => l.includes('_:b2')));
});

test('ontology indexes follow adds and removes', () => {
  const o = new Ontology();
  const A = f.cls(EX + 'A');
  const B = f.cls(EX + 'B');
  const i = f.namedIndividual(EX + 'i');
  const sub = f.subClassOf(A, B);
  assert.equal(o.add(sub), true);
  assert.equal(o.add(sub), false);
  assert.deepEqual(o.index.superClasses(A), [B]);
  const ca = f.classAssertion(A, i);
  o.add(ca);
  assert.deepEqual([...(o.index.classAssertionsByIndividual.get(i) ?? [])], [ca]);
  assert.deepEqual(
    [...(o.index.referencing.get(A) ?? [])].sort((x, y) => x.id - y.id),
    [sub, ca].sort((x, y) => x.id - y.id),
  );
  o.remove(sub);
  assert.deepEqual(o.index.superClasses(A), []);
  assert.equal(o.index.referencing.get(B), undefined);
  assert.deepEqual(o.entities('NamedIndividual'), [i]);
});

test('signature includes literal datatypes and annotation properties', () => {
  const ax = f.dataPropertyAssertion(
    f.dataProperty(EX + 'age'),
    f.namedIndividual(EX + 'i'),
    f.literal('5', 'http://www.w3.org/2001/XMLSchema#integer'),
    [f.annotation(f.annotationProperty(EX + 'src'), f.iriNode(EX + 'doc'))],
  );
  const iris = signature(ax)
    .map((e) => e.kind + ' ' + e.iri)
    .sort();
  assert.deepEqual(iris, [
    `AnnotationProperty ${EX}src`,
    `DataProperty ${EX}age`,
    'Datatype http://www.w3.org/2001/XMLSchema#integer',
    `NamedIndividual ${EX}i`,
  ]);
});
