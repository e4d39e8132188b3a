// The pure axiom-set diff and change-impact functions: exactness, logical_only, imports closures, anonymous
// individuals compared by content, affected terms, references, reachability, ownership, deprecation, modules.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as t from '../../src/model/terms.js';
import { Ontology } from '../../src/model/ontology.js';
import { readDocument } from '../../src/model/formats/registry.js';
import {
  attributeModules,
  deprecatedTermsInUse,
  diffAxiomSets,
  directlyAffected,
  downstreamTerms,
  foreignReaxiomatization,
  importedTerms,
  referencingAxioms,
  scopeAxioms,
} from '../../src/model/diff.js';
import { OWL_DEPRECATED, RDFS_COMMENT, XSD_BOOLEAN } from '../../src/model/vocab.js';
import { ex, label, zoo } from './helpers.js';

const C = (local: string) => t.cls(ex(local));
const sub = (a: string, b: string) => t.subClassOf(C(a), C(b));

function ontology(iri: string, axioms: t.Axiom[]): Ontology {
  const o = new Ontology();
  o.id = { iri, versionIri: null };
  for (const a of axioms) o.add(a);
  return o;
}

test('identical scopes have no one-sided axioms and every axiom in common', () => {
  const left = scopeAxioms([zoo()], false);
  const right = scopeAxioms([zoo()], false);
  const d = diffAxiomSets(left, right);
  assert.equal(d.onlyInLeft.length, 0);
  assert.equal(d.onlyInRight.length, 0);
  assert.equal(d.common, left.size);
  assert.equal(d.leftCount, d.rightCount);
});

test('the diff is exact: a changed superclass or an added axiom annotation is one removal and one addition', () => {
  const annotated = t.subClassOf(C('Cat'), C('Animal'), [t.annotation(t.annotationProperty(RDFS_COMMENT), t.literal('checked'))]);
  const d = diffAxiomSets(
    new Set([sub('Dog', 'Animal'), sub('Cat', 'Animal'), sub('Cow', 'Animal')]),
    new Set([sub('Dog', 'Mammal'), annotated, sub('Cow', 'Animal')]),
  );
  assert.equal(d.common, 1);
  assert.deepEqual(new Set(d.onlyInLeft), new Set([sub('Dog', 'Animal'), sub('Cat', 'Animal')]));
  assert.deepEqual(new Set(d.onlyInRight), new Set([sub('Dog', 'Mammal'), annotated]));
});

test('logical_only leaves out declarations and every annotation axiom', () => {
  const o = zoo();
  o.add(t.subAnnotationPropertyOf(t.annotationProperty(ex('note')), t.annotationProperty(RDFS_COMMENT)));
  assert.deepEqual([...scopeAxioms([o], true)], [sub('Dog', 'Animal')]);
  assert.equal(scopeAxioms([o], false).size, o.axiomCount);
});

test('a scope over an imports closure is the union: an axiom asserted in two members counts once', () => {
  const root = ontology('http://example.org/root', [sub('Dog', 'Animal'), sub('Cat', 'Animal')]);
  const imported = ontology('http://example.org/imp', [sub('Cat', 'Animal'), sub('Animal', 'Thing')]);
  const closure = scopeAxioms([root, imported], false);
  assert.equal(closure.size, 3);
  const d = diffAxiomSets(scopeAxioms([root], false), closure);
  assert.deepEqual(d.onlyInRight, [sub('Animal', 'Thing')]);
  assert.equal(d.common, 2);
});

const BLANKS = `@prefix : <http://example.org/zoo#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
<http://example.org/zoo> a owl:Ontology .
:Dog a owl:Class . :hasOwner a owl:ObjectProperty . :bob a owl:NamedIndividual .
[] a :Dog ; :hasOwner :bob .
`;

async function parse(text: string): Promise<Ontology> {
  return (await readDocument(text, { base: 'http://example.org/zoo', format: 'turtle' })).ontology;
}

test('anonymous individuals are document scoped, so their axioms compare by content, not identity', async () => {
  const a = await parse(BLANKS);
  const b = await parse(BLANKS);
  const anonA = [...a.axiomsOfKind('ClassAssertion')];
  const anonB = [...b.axiomsOfKind('ClassAssertion')];
  assert.notEqual(anonA[0], anonB[0], 'two reads give the blank node two identities');
  const same = diffAxiomSets(scopeAxioms([a], false), scopeAxioms([b], false));
  assert.equal(same.onlyInLeft.length + same.onlyInRight.length, 0);
  assert.equal(same.common, a.axiomCount);

  // what is said about the blank node changed: every axiom naming it differs, the others are common
  const c = await parse(BLANKS.replace(':hasOwner :bob', ':hasOwner :alice'));
  const changed = diffAxiomSets(scopeAxioms([a], false), scopeAxioms([c], false));
  assert.deepEqual(changed.onlyInLeft.map((x) => x.kind).sort(), ['ClassAssertion', 'ObjectPropertyAssertion']);
  assert.deepEqual(changed.onlyInRight.map((x) => x.kind).sort(), ['ClassAssertion', 'ObjectPropertyAssertion']);
});

test('two blank nodes described alike are matched as a multiset', async () => {
  const one = await parse(BLANKS);
  const two = await parse(BLANKS + '[] a :Dog ; :hasOwner :bob .\n');
  const d = diffAxiomSets(scopeAxioms([one], false), scopeAxioms([two], false));
  assert.equal(d.onlyInLeft.length, 0);
  assert.deepEqual(d.onlyInRight.map((x) => x.kind).sort(), ['ClassAssertion', 'ObjectPropertyAssertion']);
  assert.equal(d.common, one.axiomCount);
});

test('directly affected terms: signature, annotation subjects and IRI values, most affected first, no built-ins', () => {
  const seeAlso = t.annotationAssertion(t.annotationProperty(ex('seeAlso')), t.iriNode(ex('Dog')), t.iriNode(ex('Wolf')));
  const affected = directlyAffected({
    added: [sub('Dog', 'Mammal'), seeAlso, t.subClassOf(C('Dog'), t.thing())],
    removed: [sub('Dog', 'Animal')],
  });
  assert.deepEqual(affected, [
    { iri: ex('Dog'), added: 3, removed: 1 },
    { iri: ex('Animal'), added: 0, removed: 1 },
    { iri: ex('Mammal'), added: 1, removed: 0 },
    { iri: ex('Wolf'), added: 1, removed: 0 },
    { iri: ex('seeAlso'), added: 1, removed: 0 },
  ]);
});

test('referencing axioms name an affected term (also as an annotation IRI value) and are not in the delta', () => {
  const pointer = t.annotationAssertion(t.annotationProperty(ex('seeAlso')), t.iriNode(ex('Cat')), t.iriNode(ex('Dog')));
  const o = ontology('http://example.org/z', [
    sub('Dog', 'Animal'),
    sub('Puppy', 'Dog'),
    label(ex('Dog'), 'dog'),
    pointer,
    sub('Cat', 'Animal'),
  ]);
  const found = referencingAxioms([o], new Set([ex('Dog')]), { added: [], removed: [sub('Dog', 'Animal')] });
  assert.deepEqual(new Set(found), new Set([sub('Puppy', 'Dog'), label(ex('Dog'), 'dog'), pointer]));
});

test('downstream terms are reached by co-occurrence up to the depth cap; annotation properties are not expanded', () => {
  const note = t.annotationProperty(ex('note'));
  const o = ontology('http://example.org/z', [
    sub('B', 'A'),
    sub('C', 'B'),
    sub('D', 'C'),
    sub('E', 'D'),
    t.annotationAssertion(note, t.iriNode(ex('A')), t.literal('x')),
    t.annotationAssertion(note, t.iriNode(ex('Z')), t.literal('y')),
  ]);
  const r = downstreamTerms([o], new Set([ex('A')]), []);
  assert.deepEqual(r.items, [
    { iri: ex('B'), depth: 1 },
    { iri: ex('note'), depth: 1 },
    { iri: ex('C'), depth: 2 },
    { iri: ex('D'), depth: 3 },
  ]);
  assert.equal(r.searchTruncated, false);
  // an added axiom is an edge too
  const withAdded = downstreamTerms([o], new Set([ex('A')]), [sub('New', 'A')]);
  assert.ok(withAdded.items.some((x) => x.iri === ex('New') && x.depth === 1));
  const capped = downstreamTerms([o], new Set([ex('A')]), [], 3, 2);
  assert.equal(capped.items.length, 2);
  assert.equal(capped.searchTruncated, true);
});

test('foreign re-axiomatization: delta axioms about terms declared only in an imported member, not asserted by it', () => {
  const root = ontology('http://example.org/root', [t.declaration(C('Dog'))]);
  const imported = ontology('http://example.org/imp', [t.declaration(C('Animal')), t.declaration(C('Dog'))]);
  const importedIris = importedTerms([root], [imported]);
  assert.deepEqual([...importedIris], [ex('Animal')]);
  imported.add(sub('Animal', 'LivingThing'));
  const foreign = foreignReaxiomatization(
    {
      added: [sub('Animal', 'Thing'), sub('Dog', 'Animal'), label(ex('Animal'), 'animal'), sub('Animal', 'LivingThing')],
      removed: [t.subClassOf(C('Animal'), t.objectSomeValuesFrom(t.objectProperty(ex('eats')), C('Food')))],
    },
    importedIris,
    [imported],
  );
  assert.deepEqual(
    foreign.map((f) => [f.operation, f.subject, f.axiom.kind]),
    [
      ['add', ex('Animal'), 'SubClassOf'],
      ['add', ex('Animal'), 'AnnotationAssertion'],
      ['remove', ex('Animal'), 'SubClassOf'],
    ],
  );
});

test('deprecated terms in use: deprecated after the change and still named by a logical axiom', () => {
  const deprecated = (local: string) =>
    t.annotationAssertion(t.annotationProperty(OWL_DEPRECATED), t.iriNode(ex(local)), t.literal('true', XSD_BOOLEAN));
  const o = ontology('http://example.org/z', [deprecated('Old'), deprecated('Gone'), sub('Puppy', 'Old'), label(ex('Gone'), 'gone')]);
  const delta = {
    added: [sub('Dog', 'Old'), deprecated('Cat'), sub('Kitten', 'Cat'), sub('Gone', 'Animal')],
    removed: [deprecated('Gone')],
  };
  const affected = new Set(directlyAffected(delta).map((a) => a.iri));
  const referencing = referencingAxioms([o], affected, delta);
  // Gone is undeprecated by the change; Old and Cat stay or become deprecated and are used logically
  assert.deepEqual(deprecatedTermsInUse([o], affected, delta, referencing), [ex('Cat'), ex('Old')]);
});

test('module attribution by namespace; a term two modules claim is co-owned, the rest unowned', () => {
  const r = attributeModules(
    ['http://a.org/x', 'http://a.org/shared/y', 'http://b.org/z', 'http://c.org/q'],
    [
      { id: 'b', namespaces: ['http://b.org/', 'http://a.org/shared/'] },
      { id: 'a', namespaces: ['http://a.org/'] },
    ],
  );
  assert.deepEqual(r.modules, [
    { module: 'a', terms: ['http://a.org/x'] },
    { module: 'a,b', terms: ['http://a.org/shared/y'] },
    { module: 'b', terms: ['http://b.org/z'] },
  ]);
  assert.deepEqual(r.unowned, ['http://c.org/q']);
});
