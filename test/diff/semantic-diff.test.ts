// The pure parts of semantic_diff on small ontology pairs written in functional syntax: header changes,
// typed entity changes, rename candidates, annotation categories, axiom groups, the compatibility
// classification, disjointness candidates, every inferred-diff-v1 category over real EL++ and structural
// classifications (run in-process by the pool worker's task function), and module ownership.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Ontology } from '../../src/model/ontology.js';
import { readFunctional } from '../../src/model/formats/functional/reader.js';
import { diffAxiomSets, scopeAxioms } from '../../src/model/diff.js';
import {
  annotationCategory,
  annotationChanges,
  anonymousChurn,
  axiomGroups,
  byKind,
  classifyCompatibility,
  countLogical,
  entityChanges,
  importsChange,
  ontologyAnnotationsChange,
  ontologyIdChange,
  renameCandidates,
  scopeEntities,
  type CompatibilityFacts,
} from '../../src/diff/asserted-changes.js';
import { disjointnessCandidates, inferredDiff, pairKey, type InferredSide } from '../../src/diff/inferred-changes.js';
import { ownershipChanges } from '../../src/diff/policy-deltas.js';
import run, { type ClassificationData } from '../../src/reasoner/pool-worker.js';
import { Classification } from '../../src/reasoner/pool.js';
import { reasonerById } from '../../src/reasoner/registry.js';
import { disjointFrom, isPairClass, sideDocument } from '../../src/diff/side-reasoning.js';
import { cancelFlag } from '../../src/reasoner/saturation.js';
import { shipAll } from '../../src/reasoner/snapshot.js';

const X = 'http://example.org/x#';
const doc = (id: string, body: string) =>
  readFunctional(`Prefix(:=<${X}>)\nPrefix(rdfs:=<http://www.w3.org/2000/01/rdf-schema#>)\nOntology(${id}\n${body}\n)`);

const pair = (left: Ontology, right: Ontology) => diffAxiomSets(scopeAxioms([left], false), scopeAxioms([right], false));

test('header changes: ontology id, imports (sorted), ontology annotations', () => {
  const a = doc(
    '<http://example.org/x> <http://example.org/x/1>\nImport(<http://example.org/b>)\nImport(<http://example.org/a>)\nAnnotation(rdfs:comment "v")',
    '',
  );
  const b = doc(
    '<http://example.org/x> <http://example.org/x/2>\nImport(<http://example.org/a>)\nImport(<http://example.org/b>)\nAnnotation(rdfs:comment "w")',
    '',
  );
  const id = ontologyIdChange(a.id, b.id);
  assert.equal(id.changed, true);
  assert.deepEqual(id.right, { iri: 'http://example.org/x', versionIri: 'http://example.org/x/2' });
  assert.deepEqual(importsChange(a, b), {
    changed: false,
    left: ['http://example.org/a', 'http://example.org/b'],
    right: ['http://example.org/a', 'http://example.org/b'],
  });
  assert.equal(ontologyAnnotationsChange(a, b).changed, true);
  assert.equal(ontologyAnnotationsChange(a, a).changed, false);
  assert.equal(ontologyIdChange(a.id, a.id).changed, false);
});

test('entity changes are typed (punning keeps one entity per kind), grouped in kind order, built-ins left out', () => {
  const a = doc('<http://example.org/x>', 'Declaration(Class(:A))\nDeclaration(Class(:P))\nSubClassOf(:A owl:Thing)');
  const b = doc(
    '<http://example.org/x>',
    'Declaration(Class(:A))\nDeclaration(NamedIndividual(:P))\nDeclaration(ObjectProperty(:r))\nDeclaration(Class(:B))',
  );
  const changes = entityChanges(scopeEntities([a]), scopeEntities([b]));
  assert.deepEqual(
    changes.added.map((e) => [e.kind, e.iri]),
    [
      ['Class', X + 'B'],
      ['ObjectProperty', X + 'r'],
      ['NamedIndividual', X + 'P'],
    ],
  );
  assert.deepEqual(
    changes.removed.map((e) => [e.kind, e.iri]),
    [['Class', X + 'P']],
  );
  assert.deepEqual(
    byKind(changes.added).map((g) => [g.kind, g.entities.length]),
    [
      ['Class', 1],
      ['ObjectProperty', 1],
      ['NamedIndividual', 1],
    ],
  );
});

test('rename candidates: unique exact-label pairs of one kind only', () => {
  const label = (iri: string, text: string, lang = 'en') => `AnnotationAssertion(rdfs:label :${iri} "${text}"@${lang})`;
  const left = doc(
    '<http://example.org/x>',
    [
      'Declaration(Class(:Old))',
      label('Old', 'bird'),
      'Declaration(Class(:Twin1))',
      'Declaration(Class(:Twin2))',
      label('Twin1', 'twin'),
      label('Twin2', 'twin'),
      'Declaration(Class(:Lang))',
      label('Lang', 'colour', 'en'),
      'Declaration(ObjectProperty(:oldProp))',
      label('oldProp', 'owns'),
    ].join('\n'),
  );
  const right = doc(
    '<http://example.org/x>',
    [
      'Declaration(Class(:New))',
      label('New', 'bird'),
      'Declaration(Class(:Twin3))',
      label('Twin3', 'twin'),
      'Declaration(Class(:Lang2))',
      label('Lang2', 'colour', 'en-GB'),
      'Declaration(Class(:owns))',
      label('owns', 'owns'),
    ].join('\n'),
  );
  const changes = entityChanges(scopeEntities([left]), scopeEntities([right]));
  const found = renameCandidates(changes, [left], [right]);
  assert.deepEqual(
    found.map((c) => [c.from.iri, c.to.iri, c.from.kind, c.labels]),
    [[X + 'Old', X + 'New', 'Class', [{ label: 'bird', lang: 'en' }]]],
    'two removed entities sharing a label, another language tag and another kind are no evidence',
  );
});

test('annotation changes are grouped by subject with release categories', () => {
  const left = doc(
    '<http://example.org/x>',
    'AnnotationAssertion(rdfs:label :A "a")\nAnnotationAssertion(<http://purl.obolibrary.org/obo/IAO_0000115> :A "def")',
  );
  const right = doc(
    '<http://example.org/x>',
    'AnnotationAssertion(rdfs:label :A "a2")\nAnnotationAssertion(<http://www.w3.org/2002/07/owl#deprecated> :B "true"^^<http://www.w3.org/2001/XMLSchema#boolean>)\nAnnotationAssertion(<http://example.org/custom> :B "x")',
  );
  const changes = annotationChanges(pair(left, right));
  assert.deepEqual(
    changes.map((c) => [c.focus, c.added.length, c.removed.length, c.categories]),
    [
      [X + 'A', 1, 2, ['definition', 'label']],
      [X + 'B', 2, 0, ['deprecation', 'other']],
    ],
  );
  assert.equal(annotationCategory('http://www.geneontology.org/formats/oboInOwl#hasExactSynonym'), 'synonym');
  assert.equal(annotationCategory('http://purl.obolibrary.org/obo/IAO_0100001'), 'replacement');
  assert.equal(annotationCategory('http://www.w3.org/2000/01/rdf-schema#comment'), 'comment');
});

test('axiom groups by type name, logical counts and anonymous-individual churn', () => {
  const left = doc('<http://example.org/x>', 'SubClassOf(:A :B)\nClassAssertion(:A _:n)');
  const right = doc(
    '<http://example.org/x>',
    'SubClassOf(:A :C)\nDeclaration(Class(:C))\nClassAssertion(:C _:n)\nAnnotationAssertion(rdfs:label :C "c")',
  );
  const d = pair(left, right);
  assert.deepEqual(
    axiomGroups(d.onlyInRight).map((g) => [g.axiomType, g.axioms.length]),
    [
      ['AnnotationAssertion', 1],
      ['ClassAssertion', 1],
      ['Declaration', 1],
      ['SubClassOf', 1],
    ],
  );
  assert.equal(countLogical(d.onlyInRight), 2);
  assert.equal(countLogical(d.onlyInLeft), 2);
  assert.equal(anonymousChurn(d), 2, 'the re-described blank node shows as removed and added');
});

test('compatibility: metadata_only, non_breaking and each potentially_breaking cause', () => {
  const quiet: CompatibilityFacts = {
    headerChanged: false,
    entitiesAdded: 0,
    entitiesRemoved: 0,
    logicalAdded: 0,
    logicalRemoved: 0,
    rightClosureTruncated: false,
    inferredReasons: [],
  };
  assert.equal(classifyCompatibility(quiet).classification, 'metadata_only');
  assert.equal(classifyCompatibility({ ...quiet, entitiesAdded: 2 }).classification, 'non_breaking');
  for (const breaking of [
    { headerChanged: true },
    { entitiesRemoved: 1 },
    { logicalAdded: 1 },
    { logicalRemoved: 1 },
    { rightClosureTruncated: true },
    { inferredReasons: ['consistency changed'] },
  ]) {
    const v = classifyCompatibility({ ...quiet, entitiesAdded: 1, ...breaking });
    assert.equal(v.classification, 'potentially_breaking', JSON.stringify(breaking));
    assert.equal(v.reasons.length, 1);
  }
});

test('disjointness candidates: named pairs of DisjointClasses and DisjointUnion on either side, each once, sorted', () => {
  const a = doc('<http://example.org/x>', 'DisjointClasses(:C :A :B)\nDisjointClasses(:A ObjectSomeValuesFrom(:r :B))');
  const b = doc('<http://example.org/x>', 'DisjointUnion(:U :A :D)\nDisjointClasses(:B :A)');
  assert.deepEqual(disjointnessCandidates([a, b]), [
    [X + 'A', X + 'B'],
    [X + 'A', X + 'C'],
    [X + 'A', X + 'D'],
    [X + 'B', X + 'C'],
  ]);
  assert.equal(pairKey(X + 'B', X + 'A'), pairKey(X + 'A', X + 'B'));
});

/** A side classified in-process by the pool worker's own task function, candidate pairs decided in the same run. */
async function classified(o: Ontology, reasoner: 'el' | 'structural', pairs: readonly [string, string][] = []): Promise<InferredSide> {
  const doc = sideDocument([o], pairs);
  const data = (await run({
    type: 'classify',
    key: 'pure-' + Math.random() + '@0',
    model: shipAll(doc),
    reasoner,
    timeLimitMs: 60_000,
    cancel: cancelFlag(),
    konclude: null,
  })) as ClassificationData;
  const classes = new Set<string>();
  const individuals = new Set<string>();
  for (const k of o.index.referencing.keys()) {
    if (k.kind === 'Class' && !k.iri.startsWith('http://www.w3.org/')) classes.add(k.iri);
    if (k.kind === 'NamedIndividual') individuals.add(k.iri);
  }
  return {
    classification: new Classification(data, 0, reasonerById(reasoner), 0),
    auxiliary: isPairClass,
    classes: [...classes].sort(),
    individuals: [...individuals].sort(),
    disjoint: disjointFrom(data, pairs),
  };
}

const NO_CANDIDATES = { candidates: 0, checked: [] };

const LEFT = doc(
  '<http://example.org/x>',
  `Declaration(Class(:A))
SubClassOf(:B :A)
SubClassOf(:C :B)
SubClassOf(:D :A)
ClassAssertion(:C :i)`,
);

test('inferred: the reduced hierarchy changes with direct and indirect labels; equivalence and types', async () => {
  // E slides in between B and A (B ⊑ A stays entailed); F ≡ D; C ⊑ D is new; i gains type D indirectly (via C)
  const right = doc(
    '<http://example.org/x>',
    `Declaration(Class(:A))
SubClassOf(:B :E)
SubClassOf(:E :A)
SubClassOf(:C :B)
SubClassOf(:C :D)
SubClassOf(:D :A)
EquivalentClasses(:D :F)
ClassAssertion(:C :i)
ClassAssertion(:A :j)`,
  );
  const d = inferredDiff(await classified(LEFT, 'el'), await classified(right, 'el'), false, NO_CANDIDATES, 50);
  const j = d.json as Record<string, Record<string, unknown>>;
  assert.deepEqual(j.subsumption?.removed, {
    count: 1,
    items: [{ sub: X + 'B', super: X + 'A', label: 'indirect' }],
    direct: 0,
    indirect: 1,
  });
  assert.deepEqual((j.subsumption?.added as { items: unknown[] }).items, [
    { sub: X + 'B', super: X + 'E', label: 'direct' },
    { sub: X + 'C', super: X + 'D', label: 'direct' },
    { sub: X + 'C', super: X + 'F', label: 'direct' },
    { sub: X + 'E', super: X + 'A', label: 'direct' },
    { sub: X + 'F', super: X + 'A', label: 'direct' },
  ]);
  assert.deepEqual(j.equivalence, { added: { count: 1, items: [{ classes: [X + 'D', X + 'F'] }] }, removed: { count: 0, items: [] } });
  assert.deepEqual(
    j.types,
    {
      added: { count: 1, items: [{ individual: X + 'j', class: X + 'A', label: 'direct' }], direct: 1, indirect: 0 },
      removed: { count: 0, items: [], direct: 0, indirect: 0 },
    },
    'i keeps its one direct type C',
  );
  assert.deepEqual(j.consistency, { left: true, right: true, changed: false, transition: 'unchanged' });
  assert.deepEqual(d.errored, []);
  assert.equal(d.consistencyTransition, false);

  const limited = inferredDiff(await classified(LEFT, 'el'), await classified(right, 'el'), false, NO_CANDIDATES, 2).json as Record<
    string,
    Record<string, Record<string, unknown>>
  >;
  assert.deepEqual(
    [limited.subsumption?.added?.count, (limited.subsumption?.added?.items as unknown[]).length, limited.subsumption?.added?.truncated],
    [5, 2, 3],
  );
});

test('inferred: satisfiability transitions and disjointness over the checked candidates', async () => {
  const right = doc(
    '<http://example.org/x>',
    `Declaration(Class(:A))
SubClassOf(:B :A)
SubClassOf(:C :B)
SubClassOf(:D :A)
DisjointClasses(:B :D)
SubClassOf(:W :B)
SubClassOf(:W :D)
ClassAssertion(:C :i)`,
  );
  const scope = { candidates: 2, checked: [[X + 'B', X + 'D']] as [string, string][] };
  const d = inferredDiff(await classified(LEFT, 'el', scope.checked), await classified(right, 'el', scope.checked), false, scope, 50);
  const j = d.json as Record<string, Record<string, unknown>>;
  assert.deepEqual(j.satisfiability?.newly_unsatisfiable, { count: 1, items: [X + 'W'] });
  assert.equal(d.newlyUnsatisfiable, 1);
  assert.deepEqual(j.disjointness, {
    scope: 'asserted_candidates',
    candidates: 2,
    checked: 1,
    cap: 1000,
    truncated: 1,
    added: { count: 1, items: [{ classes: [X + 'B', X + 'D'] }] },
    removed: { count: 0, items: [] },
  });
  const undecided = inferredDiff(
    await classified(LEFT, 'el'),
    { ...(await classified(right, 'el')), disjoint: { error: 'boom' } },
    false,
    scope,
    50,
  );
  assert.deepEqual(undecided.errored, ['disjointness']);
  assert.equal((undecided.json.disjointness as Record<string, unknown>).error, 'boom');
});

test('inferred: an inconsistent side suppresses member categories; a failed side errs every category; told-only errs what it cannot decide', async () => {
  const inconsistent = doc('<http://example.org/x>', 'DisjointClasses(:A :B)\nClassAssertion(:A :i)\nClassAssertion(:B :i)');
  const d = inferredDiff(await classified(LEFT, 'el'), await classified(inconsistent, 'el'), false, NO_CANDIDATES, 50);
  assert.equal(d.consistencyTransition, true);
  assert.deepEqual((d.json.consistency as Record<string, unknown>).transition, 'became_inconsistent');
  assert.deepEqual(d.suppressed, ['satisfiability', 'subsumption', 'equivalence', 'types', 'disjointness']);
  assert.equal((d.json.types as Record<string, unknown>).categories_suppressed, true);

  const failed = inferredDiff(await classified(LEFT, 'el'), { error: 'parse failure' }, false, NO_CANDIDATES, 50);
  assert.deepEqual(failed.errored, ['consistency', 'satisfiability', 'subsumption', 'equivalence', 'types', 'disjointness']);
  assert.match((failed.json.subsumption as Record<string, string>).error ?? '', /right side could not be classified: parse failure/);

  const told = inferredDiff(await classified(LEFT, 'structural'), await classified(inconsistent, 'structural'), true, NO_CANDIDATES, 50);
  assert.deepEqual(told.errored, ['consistency', 'satisfiability', 'disjointness']);
  assert.deepEqual(told.suppressed, [], 'the structural reasoner does not read the disjointness');
  const toldBottom = doc('<http://example.org/x>', 'SubClassOf(:A <http://www.w3.org/2002/07/owl#Nothing>)\nClassAssertion(:A :i)');
  const bottom = inferredDiff(await classified(LEFT, 'structural'), await classified(toldBottom, 'structural'), true, NO_CANDIDATES, 50);
  assert.deepEqual(
    bottom.suppressed,
    ['satisfiability', 'subsumption', 'equivalence', 'types', 'disjointness'],
    'a told inconsistency still suppresses',
  );
  assert.deepEqual(bottom.errored, ['consistency']);
  assert.deepEqual(told.json.errored_categories as string[], ['consistency', 'satisfiability', 'disjointness']);
});

test('module ownership: a term moving between module ontologies changes owner; namespace owners stay', () => {
  const coreL = doc('<http://example.org/core>', 'Declaration(Class(:T))\nDeclaration(Class(:S))');
  const extL = doc('<http://example.org/ext>', 'Declaration(Class(:U))');
  const coreR = doc('<http://example.org/core>', 'Declaration(Class(:S))');
  const extR = doc('<http://example.org/ext>', 'Declaration(Class(:U))\nDeclaration(Class(:T))');
  const modules = [
    { id: 'core', namespaces: [], iri: 'http://example.org/core' },
    { id: 'ext', namespaces: [], iri: 'http://example.org/ext' },
    { id: 'all', namespaces: [X] },
  ];
  const changes = ownershipChanges(scopeEntities([coreL, extL]), scopeEntities([coreR, extR]), [coreL, extL], [coreR, extR], modules);
  assert.deepEqual(changes, [{ iri: X + 'T', was_module: 'all,core', now_module: 'all,ext' }]);
});

test('auxiliary pair classes decided in the same run change no reported entailment', async () => {
  const o = doc(
    '<http://example.org/x>',
    `SubClassOf(:C :A)
SubClassOf(:C :B)
SubClassOf(:C :X)
SubClassOf(:X :A)
SubClassOf(:G :H)
ClassAssertion(:A :j)
ClassAssertion(:B :j)`,
  );
  const pairs: [string, string][] = [
    [X + 'A', X + 'B'],
    [X + 'A', X + 'X'],
    [X + 'G', X + 'H'],
  ];
  const plain = await classified(o, 'el');
  const withPairs = await classified(o, 'el', pairs);
  assert.ok(withPairs.classification.superclasses(X + 'C', true).some(isPairClass), 'the raw taxonomy places C under the auxiliary A ⊓ B');
  assert.ok(withPairs.classification.types(X + 'j', true).some(isPairClass), 'and j directly in it');
  assert.ok(withPairs.classification.equivalents(X + 'G').some(isPairClass), 'G ⊓ H is equivalent to G');
  const d = inferredDiff(plain, withPairs, false, { candidates: 3, checked: pairs }, 50).json as Record<
    string,
    Record<string, Record<string, unknown>>
  >;
  for (const name of ['subsumption', 'types']) {
    assert.deepEqual([d[name]?.added?.count, d[name]?.removed?.count], [0, 0], name);
  }
  assert.deepEqual([d.equivalence?.added?.count, d.equivalence?.removed?.count], [0, 0]);
  assert.deepEqual(
    [d.satisfiability?.newly_unsatisfiable, d.satisfiability?.newly_satisfiable],
    [
      { count: 0, items: [] },
      { count: 0, items: [] },
    ],
  );
  const own = inferredDiff(withPairs, withPairs, false, { candidates: 0, checked: [] }, 50);
  assert.deepEqual(own.errored, []);
  // what the side reports: C directly under X and B (A is above X), j directly in A and B
  const empty = doc('<http://example.org/x>', '');
  const fromEmpty = inferredDiff(await classified(empty, 'el'), withPairs, false, { candidates: 0, checked: [] }, 50).json as Record<
    string,
    Record<string, Record<string, unknown>>
  >;
  assert.deepEqual(
    (fromEmpty.subsumption?.added?.items as Record<string, unknown>[]).map((r) => [r.sub, r.super]),
    [
      [X + 'C', X + 'B'],
      [X + 'C', X + 'X'],
      [X + 'G', X + 'H'],
      [X + 'X', X + 'A'],
    ],
  );
  assert.deepEqual(
    (fromEmpty.types?.added?.items as Record<string, unknown>[]).map((r) => [r.individual, r.class]),
    [
      [X + 'j', X + 'A'],
      [X + 'j', X + 'B'],
    ],
  );
});
