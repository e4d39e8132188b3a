// primer.omn, which the OWL API refuses (it uses otherOnt:child undeclared), gives the axioms of the
// functional-syntax primer except where the two documents say different things (each line explained).
// The other .omn files are checked against their references by conformance.test.ts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readManchester } from '../src/model/formats/manchester/reader.js';
import { axiomLines } from '../src/model/render/axiom-lines.js';
import { compareWithReference, corpusBase, readCorpusFile } from './support/reference.js';

const read = (rel: string) => readManchester(readCorpusFile(rel), { base: corpusBase(rel) });

const F = 'http://example.com/owl/families/';
const X = 'http://www.w3.org/2001/XMLSchema#';
const O = 'http://example.org/otherOntologies/families/';
const int = (n: number) => `"${n}"^^<${X}integer>`;
const restriction = (a: [string, number], b: [string, number]) =>
  `DatatypeRestriction(<${X}integer> <${X}${a[0]}> ${int(a[1])} <${X}${b[0]}> ${int(b[1])})`;
const GCI =
  `SubClassOf(ObjectIntersectionOf(<${F}Female> ObjectOneOf(<${F}Bill> <${F}Mary> <${F}Meg>)) ` +
  `ObjectIntersectionOf(<${F}Parent> ObjectAllValuesFrom(<${F}hasChild> <${F}Female>) ObjectMaxCardinality(1 <${F}hasChild>)))`;

/** primer.omn against the reference of primer.ofn: every differing line and why the documents differ there. */
const PRIMER_MISSING: Record<string, string> = {
  [`DatatypeDefinition(<${F}minorAge> ${restriction(['maxInclusive', 18], ['minInclusive', 0])})`]:
    'primer.omn writes integer[<= 0 , >= 18] (bounds swapped)',
  [`DatatypeDefinition(<${F}personAge> ${restriction(['maxInclusive', 150], ['minInclusive', 0])})`]:
    'primer.omn writes integer[<= 0 , >= 150] (bounds swapped)',
  [`EquivalentClasses(<${F}HappyPerson> ObjectIntersectionOf(ObjectAllValuesFrom(<${F}hasChild> <${F}HappyPerson>) ObjectSomeValuesFrom(<${F}hasChild> <${F}HappyPerson>)))`]:
    'primer.omn says hasChild only Happy and hasChild some Happy',
  [`SubClassOf(<${F}Teenager> DataSomeValuesFrom(<${F}hasAge> ${restriction(['maxInclusive', 19], ['minExclusive', 12])}))`]:
    'primer.omn writes integer[<= 13 , >= 19]',
  [GCI]: 'primer.omn has no GCI: it states the two sides about a class X instead',
};
const PRIMER_EXTRA: Record<string, string> = {
  [`DatatypeDefinition(<${F}minorAge> ${restriction(['maxInclusive', 0], ['minInclusive', 18])})`]: 'integer[<= 0 , >= 18] as written',
  [`DatatypeDefinition(<${F}personAge> ${restriction(['maxInclusive', 0], ['minInclusive', 150])})`]: 'integer[<= 0 , >= 150] as written',
  [`EquivalentClasses(<${F}HappyPerson> ObjectIntersectionOf(ObjectAllValuesFrom(<${F}hasChild> <${F}Happy>) ObjectSomeValuesFrom(<${F}hasChild> <${F}Happy>)))`]:
    'Happy, as written',
  [`SubClassOf(<${F}Teenager> DataSomeValuesFrom(<${F}hasAge> ${restriction(['maxInclusive', 13], ['minInclusive', 19])}))`]:
    'integer[<= 13 , >= 19] as written',
  [`EquivalentClasses(<${F}X> ObjectIntersectionOf(<${F}Female> ObjectOneOf(<${F}Bill> <${F}Mary> <${F}Meg>)))`]:
    'Class: X EquivalentTo: {Mary, Bill, Meg} and Female',
  [`SubClassOf(<${F}X> ObjectIntersectionOf(<${F}Parent> ObjectAllValuesFrom(<${F}hasChild> <${F}Female>) ObjectMaxCardinality(1 <${F}hasChild>)))`]:
    'Class: X SubClassOf: ...',
  ...Object.fromEntries(
    [
      ['Class', 'Grandfather'],
      ['Class', 'Happy'],
      ['Class', 'X'],
      ['NamedIndividual', 'Father'],
      ['NamedIndividual', 'Meg'],
      ['ObjectProperty', 'hasFather'],
      ['ObjectProperty', 'hasRelative'],
      ['ObjectProperty', 'parentOf'],
    ].map(([k, n]) => [
      `Declaration(${k}(<${F}${n}>))`,
      `primer.omn has a ${k === 'NamedIndividual' ? 'Individual' : k}: ${n} frame, which declares it; primer.ofn does not declare it`,
    ]),
  ),
  [`Declaration(NamedIndividual(<${O}JohnBrown>))`]: 'primer.omn has an Individual: otherOnt:JohnBrown frame',
  [`Declaration(NamedIndividual(<${O}MaryBrown>))`]: 'primer.omn has an Individual: otherOnt:MaryBrown frame',
};

test('primer.omn gives the axioms of primer.ofn except where the documents differ', () => {
  const { missing, extra } = compareWithReference('owlapi/primer/primer.ofn', axiomLines(read('owlapi/primer/primer.omn').axioms()));
  assert.deepEqual(missing.sort(), Object.keys(PRIMER_MISSING).sort());
  assert.deepEqual(extra.sort(), Object.keys(PRIMER_EXTRA).sort());
});
