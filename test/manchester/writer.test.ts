import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readManchester } from '../../src/model/formats/manchester/reader.js';
import { manchesterOmissions, writeManchester } from '../../src/model/formats/manchester/writer.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';
import { Ontology } from '../../src/model/ontology.js';
import * as T from '../../src/model/terms.js';
import { manchesterCarries } from '../support/manchester-carries.js';

const fixture = (name: string) => readFileSync(new URL('../../../test/fixtures/manchester/' + name, import.meta.url), 'utf8');
const EX = 'http://ex.org/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** Standard Manchester syntax: every line a prefix, the header, a frame keyword or an indented section. */
const STANDARD_LINE =
  /^(|Prefix: .*|Ontology:.*|Import: .*|Annotations: .*|(Class|ObjectProperty|DataProperty|AnnotationProperty|Individual|Datatype): .*|(EquivalentClasses|DisjointClasses|EquivalentProperties|DisjointProperties|SameIndividual|DifferentIndividuals|Rule): .*| {4}(Annotations|SubClassOf|EquivalentTo|DisjointWith|DisjointUnionOf|HasKey|Domain|Range|Characteristics|SubPropertyOf|InverseOf|SubPropertyChain|Types|Facts|SameAs|DifferentFrom): .*)$/;

function roundTrip(o: Ontology): Ontology {
  const text = writeManchester(o);
  for (const line of text.split('\n')) assert.match(line, STANDARD_LINE);
  const back = readManchester(text, {});
  assert.deepEqual(axiomLines(back.axioms()), manchesterCarries(o), text);
  assert.deepEqual(back.id, o.id);
  assert.deepEqual([...back.imports].sort(), [...o.imports].sort());
  assert.deepEqual(new Map([...back.prefixes].sort()), new Map([...o.prefixes].sort()));
  assert.deepEqual([...back.annotations].map((a) => a.id).sort(), [...o.annotations].map((a) => a.id).sort());
  assert.equal(writeManchester(back), text, 'a second write is identical');
  return back;
}

test('a document with every frame and section round-trips exactly', () => {
  roundTrip(readManchester(fixture('all-frames.omn'), {}));
});

test('Manchester syntax (W3C note §2): only standard frames; what it cannot say is left out as the OWL API leaves it out', () => {
  const o = new Ontology();
  o.prefixes.set('ex:', EX);
  const A = T.cls(EX + 'A'),
    B = T.cls(EX + 'B');
  const p = T.objectProperty(EX + 'p'),
    d = T.dataProperty(EX + 'd'),
    q = T.objectProperty(EX + 'q');
  const inv = T.objectInverseOf(p);
  const note = [T.annotation(T.annotationProperty(EX + 'note'), T.literal('n'))];
  const axioms = [
    T.subClassOf(T.objectIntersectionOf([A, B]), T.objectSomeValuesFrom(p, A)), // GCI
    T.subClassOf(A, B, note), // A undeclared
    T.declaration(B, note), // annotated declaration
    T.objectPropertyDomain(inv, A),
    T.objectPropertyCharacteristic('TransitiveObjectProperty', inv),
    T.subObjectPropertyOf(inv, q),
    T.inverseObjectProperties(inv, q),
    T.subPropertyChainOf([p, inv], q),
    T.objectPropertyAssertion(inv, T.namedIndividual(EX + 'a'), T.namedIndividual(EX + 'b')),
    T.subDataPropertyOf(d, T.dataProperty(EX + 'e')),
    T.dataPropertyRange(d, T.datatype(EX + 'D')),
    T.functionalDataProperty(d),
    T.equivalentDataProperties([d, T.dataProperty(EX + 'e')]),
    T.dataPropertyAssertion(d, T.anonymousIndividual('n1'), T.literal('1.5', XSD + 'float')),
    T.hasKey(T.objectUnionOf([A, B]), [inv], [d]),
    T.datatypeDefinition(T.datatype(EX + 'D'), T.dataOneOf([T.literal('x')])),
    T.annotationAssertion(T.annotationProperty(EX + 'note'), T.iriNode('http://nowhere.org/x'), T.literal('y', undefined, 'de')),
    T.subAnnotationPropertyOf(T.annotationProperty(EX + 'note'), T.annotationProperty(EX + 'remark')),
    T.annotationPropertyRange(T.annotationProperty(EX + 'note'), XSD + 'string'),
    T.disjointUnion(A, [B, T.cls(EX + 'C')]),
    T.classAssertion(A, T.namedIndividual(EX + 'a')),
    T.negativeObjectPropertyAssertion(p, T.namedIndividual(EX + 'a'), T.namedIndividual(EX + 'b')),
    T.dlSafeRule([T.classAtom(A, T.variable(EX + 'x'))], [T.classAtom(B, T.variable(EX + 'x'))], note),
  ];
  for (const a of axioms) o.add(a);
  o.id = { iri: EX + 'o', versionIri: null };
  const text = writeManchester(o);
  assert.doesNotMatch(text, /^Axiom:/m);
  assert.match(text, /^Class: ex:B$/m);
  assert.match(text, /^ {4}SubClassOf: Annotations: ex:note "n" ex:B$/m, 'axiom annotations precede the section item');
  assert.deepEqual(
    axiomLines(manchesterOmissions(o)),
    axiomLines([
      T.subClassOf(T.objectIntersectionOf([A, B]), T.objectSomeValuesFrom(p, A)),
      T.declaration(B, note),
      T.objectPropertyDomain(inv, A),
      T.objectPropertyCharacteristic('TransitiveObjectProperty', inv),
      T.subObjectPropertyOf(inv, q),
      T.objectPropertyAssertion(inv, T.namedIndividual(EX + 'a'), T.namedIndividual(EX + 'b')),
      T.hasKey(T.objectUnionOf([A, B]), [inv], [d]),
      T.annotationAssertion(T.annotationProperty(EX + 'note'), T.iriNode('http://nowhere.org/x'), T.literal('y', undefined, 'de')),
    ]),
  );
  roundTrip(o);
});

test('frames are sorted, one for every entity declared or used, as the OWL API writes them', () => {
  const o = new Ontology();
  o.prefixes.set(':', EX);
  for (const n of ['Zebra', 'Ant']) o.add(T.declaration(T.cls(EX + n)));
  o.add(T.declaration(T.objectProperty(EX + 'eats')));
  o.add(T.subClassOf(T.cls(EX + 'Zebra'), T.objectAllValuesFrom(T.objectProperty(EX + 'eats'), T.cls(EX + 'Grass'))));
  const text = writeManchester(o);
  assert.equal(
    text,
    [
      'Prefix: : <http://ex.org/>',
      '',
      'Ontology:',
      '',
      'ObjectProperty: :eats',
      '',
      'Class: :Ant',
      '',
      'Class: :Grass',
      '',
      'Class: :Zebra',
      '    SubClassOf: :eats only :Grass',
      '',
    ].join('\n'),
  );
  roundTrip(o);
});
