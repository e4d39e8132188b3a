// An ontology that uses every axiom type, class expression, data range and annotation form, with all its
// entities declared (so a written document reads back to exactly these axioms).

import { Ontology } from '../../src/model/ontology.js';
import * as t from '../../src/model/terms.js';
import { RDFS_COMMENT, RDFS_LABEL, XSD } from '../../src/model/vocab.js';
import { at } from '../support/at.js';

export const EX = 'http://example.org/onto#';

export function everythingOntology(): Ontology {
  const o = new Ontology();
  o.id = { iri: 'http://example.org/onto', versionIri: 'http://example.org/onto/1.0' };
  o.imports.add('http://example.org/imported');
  o.prefixes.set(':', EX);
  o.prefixes.set('ex:', EX);
  o.prefixes.set('dc:', 'http://purl.org/dc/elements/1.1/');

  const A = t.cls(EX + 'A'),
    B = t.cls(EX + 'B'),
    C = t.cls(EX + 'C'),
    D = t.cls(EX + 'D'),
    U = t.cls(EX + 'Union');
  const p = t.objectProperty(EX + 'p'),
    q = t.objectProperty(EX + 'q'),
    r = t.objectProperty(EX + 'r');
  const d = t.dataProperty(EX + 'd'),
    e = t.dataProperty(EX + 'e'),
    f = t.dataProperty(EX + 'f');
  const label = t.annotationProperty(RDFS_LABEL),
    comment = t.annotationProperty(RDFS_COMMENT);
  const note = t.annotationProperty(EX + 'note'),
    note2 = t.annotationProperty(EX + 'note2');
  const creator = t.annotationProperty('http://purl.org/dc/elements/1.1/creator');
  const i = t.namedIndividual(EX + 'i'),
    j = t.namedIndividual(EX + 'j'),
    k = t.namedIndividual(EX + 'k');
  const dt = t.datatype(EX + 'dt');
  const int = t.datatype(XSD + 'integer'),
    str = t.datatype(XSD + 'string');
  const anon = t.anonymousIndividual('x1'),
    anon2 = t.anonymousIndividual('x2');
  const v = t.variable(EX + 'v'),
    w = t.variable(EX + 'w');

  for (const ent of [A, B, C, D, U, p, q, r, d, e, f, note, note2, creator, i, j, k, dt]) o.add(t.declaration(ent));

  const ann = (text: string) => t.annotation(comment, t.literal(text));
  const nested = t.annotation(note, t.literal('outer'), [t.annotation(note2, t.literal('inner', undefined, 'en'))]);
  o.annotations.add(t.annotation(label, t.literal('Everything', undefined, 'en')));
  o.annotations.add(t.annotation(creator, t.iriNode('http://example.org/people/me'), [ann('who')]));

  const inv = t.objectInverseOf(q);
  const ranges: t.DataRange[] = [
    t.dataIntersectionOf([
      int,
      t.datatypeRestriction(int, [
        t.facetRestriction(XSD + 'minInclusive', t.literal('0', XSD + 'integer')),
        t.facetRestriction(XSD + 'maxExclusive', t.literal('10', XSD + 'integer')),
      ]),
    ]),
    t.dataUnionOf([str, dt]),
    t.dataComplementOf(int),
    t.dataOneOf([t.literal('a'), t.literal('b', undefined, 'fr'), t.literal('3', XSD + 'integer')]),
  ];
  const ces: t.ClassExpression[] = [
    t.objectIntersectionOf([A, t.objectUnionOf([B, C])]),
    t.objectComplementOf(D),
    t.objectOneOf([i, j]),
    t.objectSomeValuesFrom(p, B),
    t.objectAllValuesFrom(inv, t.objectComplementOf(A)),
    t.objectHasValue(p, k),
    t.objectHasSelf(r),
    t.objectMinCardinality(2, p),
    t.objectMaxCardinality(3, p, B),
    t.objectExactCardinality(1, inv, C),
    t.objectExactCardinality(4, q),
    t.dataSomeValuesFrom(d, at(ranges, 0)),
    t.dataAllValuesFrom(d, at(ranges, 1)),
    t.dataHasValue(e, t.literal('x "quoted"\nline\ttab\\ \u0001 é 日本', undefined)),
    t.dataMinCardinality(1, d),
    t.dataMaxCardinality(2, d, ranges[2]),
    t.dataExactCardinality(3, e, ranges[3]),
  ];
  for (const ce of ces) o.add(t.subClassOf(A, ce));
  o.add(t.subClassOf(t.objectSomeValuesFrom(p, C), D, [ann('general axiom')]));
  o.add(t.subClassOf(B, A, [nested, ann('plain')]));

  o.add(t.equivalentClasses([A, t.objectIntersectionOf([B, C])]));
  o.add(t.equivalentClasses([C, D], [ann('eq')]));
  o.add(t.disjointClasses([A, D]));
  o.add(t.disjointClasses([B, C, U], [ann('all disjoint')]));
  o.add(t.disjointUnion(U, [B, C]));
  o.add(t.subObjectPropertyOf(p, q));
  o.add(t.subObjectPropertyOf(inv, r, [ann('inverse sub')]));
  o.add(t.subPropertyChainOf([p, q, inv], r));
  o.add(t.subPropertyChainOf([q, p], p, [ann('chain')]));
  o.add(t.equivalentObjectProperties([p, r]));
  o.add(t.disjointObjectProperties([q, r]));
  o.add(t.disjointObjectProperties([p, q, inv], [ann('props')]));
  o.add(t.inverseObjectProperties(p, q));
  o.add(t.objectPropertyDomain(p, A));
  o.add(t.objectPropertyRange(inv, t.objectUnionOf([A, B])));
  for (const kind of [
    'FunctionalObjectProperty',
    'InverseFunctionalObjectProperty',
    'ReflexiveObjectProperty',
    'IrreflexiveObjectProperty',
    'SymmetricObjectProperty',
    'AsymmetricObjectProperty',
    'TransitiveObjectProperty',
  ] as const) {
    o.add(t.objectPropertyCharacteristic(kind, kind === 'TransitiveObjectProperty' ? inv : r));
  }
  o.add(t.subDataPropertyOf(d, e));
  o.add(t.equivalentDataProperties([e, f]));
  o.add(t.disjointDataProperties([d, f]));
  o.add(t.disjointDataProperties([d, e, f]));
  o.add(t.dataPropertyDomain(d, A));
  o.add(t.dataPropertyRange(d, int));
  o.add(t.dataPropertyRange(f, at(ranges, 3)));
  o.add(t.functionalDataProperty(d, [ann('functional')]));
  o.add(t.datatypeDefinition(dt, at(ranges, 0)));
  o.add(t.hasKey(A, [p, inv], [d]));
  o.add(t.hasKey(B, [], [d, e]));
  o.add(t.sameIndividual([i, j]));
  o.add(t.differentIndividuals([i, k]));
  o.add(t.differentIndividuals([i, j, k], [ann('all different')]));
  o.add(t.classAssertion(A, i));
  o.add(t.classAssertion(t.objectSomeValuesFrom(p, B), j, [ann('typed')]));
  o.add(t.classAssertion(B, anon));
  o.add(t.objectPropertyAssertion(p, i, j));
  o.add(t.objectPropertyAssertion(q, i, anon));
  o.add(t.objectPropertyAssertion(p, anon, anon2));
  o.add(t.negativeObjectPropertyAssertion(p, i, k));
  o.add(t.negativeObjectPropertyAssertion(inv, j, k, [ann('negative')]));
  o.add(t.dataPropertyAssertion(d, i, t.literal('42', XSD + 'integer')));
  o.add(t.dataPropertyAssertion(d, j, t.literal('-3.25', XSD + 'decimal')));
  o.add(t.dataPropertyAssertion(e, i, t.literal('true', XSD + 'boolean')));
  o.add(t.dataPropertyAssertion(e, k, t.literal('1.5e3', XSD + 'double')));
  o.add(t.negativeDataPropertyAssertion(d, k, t.literal('7', XSD + 'integer'), [ann('negative data')]));
  o.add(t.annotationAssertion(label, t.iriNode(EX + 'A'), t.literal('A class', undefined, 'en-GB')));
  o.add(t.annotationAssertion(note, t.iriNode(EX + 'B'), t.iriNode('http://example.org/café#voir'), [nested]));
  o.add(t.annotationAssertion(note, anon, t.literal('about an anonymous individual')));
  o.add(t.annotationAssertion(comment, t.iriNode('http://example.org/unrelated'), anon2));
  o.add(t.subAnnotationPropertyOf(note2, note));
  o.add(t.annotationPropertyDomain(note, EX + 'A'));
  o.add(t.annotationPropertyRange(note, XSD + 'string'));
  o.add(
    t.dlSafeRule(
      [
        t.classAtom(A, v),
        t.objectPropertyAtom(p, v, w),
        t.dataPropertyAtom(d, v, t.variable(EX + 'z')),
        t.dataRangeAtom(int, t.variable(EX + 'z')),
        t.builtInAtom('http://www.w3.org/2003/11/swrlb#greaterThan', [t.variable(EX + 'z'), t.literal('5', XSD + 'integer')]),
      ],
      [t.classAtom(t.objectSomeValuesFrom(p, B), w), t.sameIndividualAtom(v, i), t.differentIndividualsAtom(w, j)],
      [ann('rule')],
    ),
  );
  return o;
}
