// semantic_diff through the real server and SDK client: a privately read right_document and a loaded right
// ontology in asserted mode (header, typed entities, rename candidates, annotation categories, axiom groups,
// compatibility), the inferred modes with the EL++ classifier on the reasoner pool (subsumption, equivalence,
// types, disjointness, satisfiability, an inconsistent side) and the told-only structural reasoner, the
// policy-driven module ownership and stage deltas, the overall time bound, and every documented error.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import * as v from 'valibot';
import { call, callOk, serveTempOntology, withProjectPolicy, type Row, type ServedTempOntology } from '../server/support.js';
import { toolContext } from '../support/tool-context.js';
import { readFunctional } from '../../src/model/formats/functional/reader.js';
import { semanticDiff, SemanticDiffArgs } from '../../src/diff/semantic-diff.js';
import { documentReader } from '../../src/tools/diff/ontology-diff.js';
import { at } from '../support/at.js';

const D = 'http://example.org/sd#';
const HEAD = `@prefix : <${D}> .
@prefix owl:  <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix obo:  <http://purl.obolibrary.org/obo/> .
`;
const ID_V1 = '<http://example.org/sd> a owl:Ontology ; owl:versionIRI <http://example.org/sd/1> ; rdfs:comment "first" .\n';
const ID_V2 = '<http://example.org/sd> a owl:Ontology ; owl:versionIRI <http://example.org/sd/2> ; rdfs:comment "first" .\n';
const BASE = `:Animal a owl:Class ; rdfs:label "animal"@en .
:Puppy a owl:Class ; rdfs:subClassOf :Dog ; rdfs:label "puppy"@en .
:Cat a owl:Class ; rdfs:subClassOf :Animal ; rdfs:label "cat"@en .
:hasOwner a owl:ObjectProperty ; rdfs:label "has owner"@en .
:rex a owl:NamedIndividual , :Puppy .
`;
const LEFT =
  HEAD +
  ID_V1 +
  BASE +
  `:Dog a owl:Class ; rdfs:subClassOf :Animal ; rdfs:label "dog"@en .
:OldBird a owl:Class ; rdfs:subClassOf :Animal ; rdfs:label "bird"@en .
`;

// Asserted changes: a new version IRI, OldBird renamed to Bird (same label), Dog's label changed and a
// definition added, Kitten new.
const ASSERTED =
  HEAD +
  ID_V2 +
  BASE +
  `:Dog a owl:Class ; rdfs:subClassOf :Animal ; rdfs:label "doggy"@en ; obo:IAO_0000115 "A domestic canine." .
:Bird a owl:Class ; rdfs:subClassOf :Animal ; rdfs:label "bird"@en .
:Kitten a owl:Class ; rdfs:subClassOf :Cat ; rdfs:label "kitten"@en .
`;

// Inferred changes: Mammal slides in between Dog and Animal (Dog ⊑ Animal stays entailed, indirectly); Hound
// is equivalent to Dog; tom is a Cat; Cat and Dog become disjoint, so Weird (under both) is unsatisfiable;
// a redundant Puppy ⊑ Animal changes no entailment.
const INFERRED =
  HEAD +
  ID_V1 +
  BASE +
  `:Dog a owl:Class ; rdfs:subClassOf :Mammal ; rdfs:label "dog"@en ; owl:disjointWith :Cat .
:OldBird a owl:Class ; rdfs:subClassOf :Animal ; rdfs:label "bird"@en .
:Mammal a owl:Class ; rdfs:subClassOf :Animal ; rdfs:label "mammal"@en .
:Hound a owl:Class ; owl:equivalentClass :Dog ; rdfs:label "hound"@en .
:Weird a owl:Class ; rdfs:subClassOf :Cat , :Dog ; rdfs:label "weird"@en .
:Puppy rdfs:subClassOf :Animal .
:tom a owl:NamedIndividual , :Cat .
`;

// rex, a Puppy, is also declared a Cat while Cat and Dog are disjoint.
const INCONSISTENT =
  HEAD +
  ID_V1 +
  BASE +
  `:Dog a owl:Class ; rdfs:subClassOf :Animal ; rdfs:label "dog"@en ; owl:disjointWith :Cat .
:OldBird a owl:Class ; rdfs:subClassOf :Animal ; rdfs:label "bird"@en .
:rex a :Cat .
`;

let served: ServedTempOntology;
let c: Client;
const doc = (name: string) => path.join(served.dir, name);

before(async () => {
  served = await serveTempOntology('athene-semantic-diff-', 'main.ttl', LEFT);
  c = served.c;
  await writeFile(doc('asserted.ttl'), ASSERTED);
  await writeFile(doc('inferred.ttl'), INFERRED);
  await writeFile(doc('inconsistent.ttl'), INCONSISTENT);
  await writeFile(doc('unlabelled.ttl'), LEFT + ':Nameless a owl:Class .\n');
});
after(async () => {
  await served.close();
});

const ontologyCount = async () => (await callOk(c, 'list_ontologies')).count as number;

test('semantic_diff against the saved document is identical and metadata_only, and loads nothing into the workspace', async () => {
  const d = await callOk(c, 'semantic_diff', { right_document: served.file });
  assert.equal(d.mode, 'asserted');
  assert.equal(d.identical, true);
  assert.deepEqual(d.right_document_unresolved_imports, []);
  assert.deepEqual(d.ontology_id, {
    changed: false,
    left: { ontology_iri: 'http://example.org/sd', version_iri: 'http://example.org/sd/1' },
    right: { ontology_iri: 'http://example.org/sd', version_iri: 'http://example.org/sd/1' },
  });
  assert.deepEqual(d.entities, { added: { count: 0, groups: [] }, removed: { count: 0, groups: [] } });
  assert.deepEqual(d.asserted_axioms, { added: { count: 0, groups: [], truncated: 0 }, removed: { count: 0, groups: [], truncated: 0 } });
  assert.equal((d.compatibility as Row).classification, 'metadata_only');
  assert.equal(d.inferred, undefined, 'asserted mode classifies nothing');
  assert.equal(d.module_ownership, undefined);
  assert.equal(await ontologyCount(), 1);
});

test('asserted mode: header, typed entities, rename candidates, annotation categories, axiom groups and a breaking verdict', async () => {
  const d = await callOk(c, 'semantic_diff', { right_document: doc('asserted.ttl') });
  assert.equal(d.identical, false);
  assert.equal((d.ontology_id as Row).changed, true);
  assert.deepEqual((d.ontology_id as Row).right, { ontology_iri: 'http://example.org/sd', version_iri: 'http://example.org/sd/2' });
  assert.deepEqual(d.imports, { changed: false, left: [], right: [] });
  assert.equal((d.ontology_annotations as Row).changed, false);
  assert.deepEqual((d.ontology_annotations as Row).left, [
    { property: 'rdfs:comment', property_iri: 'http://www.w3.org/2000/01/rdf-schema#comment', value: 'first' },
  ]);
  assert.deepEqual(d.entities, {
    added: {
      count: 3,
      groups: [
        {
          entity_type: 'Class',
          count: 2,
          items: [
            { iri: D + 'Bird', display: 'bird', type: 'Class' },
            { iri: D + 'Kitten', display: 'kitten', type: 'Class' },
          ],
        },
        {
          entity_type: 'AnnotationProperty',
          count: 1,
          items: [{ iri: 'http://purl.obolibrary.org/obo/IAO_0000115', display: 'obo:IAO_0000115', type: 'AnnotationProperty' }],
        },
      ],
    },
    removed: { count: 1, groups: [{ entity_type: 'Class', count: 1, items: [{ iri: D + 'OldBird', display: 'bird', type: 'Class' }] }] },
  });
  assert.deepEqual(d.rename_candidates, [
    {
      from: D + 'OldBird',
      to: D + 'Bird',
      entity_type: 'Class',
      evidence: {
        kind: 'exact_label',
        property_iri: 'http://www.w3.org/2000/01/rdf-schema#label',
        labels: [{ label: 'bird', lang: 'en' }],
      },
    },
  ]);
  assert.equal(d.rename_candidates_count, 1);
  const changes = d.annotation_changes as Row[];
  assert.deepEqual(
    changes.map((x) => [x.focus_iri, x.categories]),
    [
      [D + 'Bird', ['label']],
      [D + 'Dog', ['definition', 'label']],
      [D + 'Kitten', ['label']],
      [D + 'OldBird', ['label']],
    ],
  );
  const dog = at(changes, 1);
  assert.deepEqual(dog.removed, [
    { property: 'rdfs:label', property_iri: 'http://www.w3.org/2000/01/rdf-schema#label', value: 'dog', lang: 'en' },
  ]);
  assert.deepEqual(
    (dog.added as Row[]).map((r) => r.value),
    ['A domestic canine.', 'doggy'],
  );
  const added = d.asserted_axioms as { added: Row; removed: Row };
  assert.equal(added.added.count, 8);
  assert.deepEqual(
    (added.added.groups as Row[]).map((g) => [g.axiom_type, g.count]),
    [
      ['AnnotationAssertion', 4],
      ['Declaration', 2],
      ['SubClassOf', 2],
    ],
  );
  assert.deepEqual(
    (added.removed.groups as Row[]).map((g) => [g.axiom_type, g.count]),
    [
      ['AnnotationAssertion', 2],
      ['Declaration', 1],
      ['SubClassOf', 1],
    ],
  );
  assert.deepEqual(at(added.removed.groups as Row[], 2).items as Row[], [
    { axiom_type: 'SubClassOf', rendering: 'bird SubClassOf animal' },
  ]);
  const compat = d.compatibility as Row;
  assert.equal(compat.classification, 'potentially_breaking');
  assert.equal(compat.policy_driven, false);
  assert.equal(compat.anonymous_individual_churn, 0);
  assert.ok((compat.reasons as string[]).some((r) => /ontology id/.test(r)));

  const capped = await callOk(c, 'semantic_diff', { right_document: doc('asserted.ttl'), limit: 1 });
  const groups = (capped.asserted_axioms as { added: Row }).added;
  assert.deepEqual(
    (groups.groups as Row[]).map((g) => [g.count, (g.items as Row[]).length, g.truncated]),
    [
      [4, 1, 3],
      [2, 1, 1],
      [2, 1, 1],
    ],
  );
  assert.equal(groups.truncated, 5);
  assert.deepEqual(
    [(capped.annotation_changes as Row[]).length, capped.annotation_changes_count, capped.annotation_changes_truncated],
    [1, 4, 3],
  );
  const again = await callOk(c, 'semantic_diff', { right_document: doc('asserted.ttl') });
  assert.equal(JSON.stringify(again), JSON.stringify(d), 'unchanged state gives byte-identical results');
});

test('a loaded right ontology is compared by IRI; dropping every entity is potentially breaking', async () => {
  await callOk(c, 'create_ontology', { ontology_iri: 'http://example.org/empty', keep_active: true });
  const d = await callOk(c, 'semantic_diff', { right: 'http://example.org/empty' });
  assert.equal(d.right, 'http://example.org/empty');
  assert.equal(d.right_document_unresolved_imports, undefined);
  assert.equal(((d.entities as Row).removed as Row).count, 7, 'five classes, a property and an individual');
  assert.equal((d.compatibility as Row).classification, 'potentially_breaking');
  const reversed = await callOk(c, 'semantic_diff', { left: 'http://example.org/empty', right: 'http://example.org/sd' });
  assert.equal(((reversed.entities as Row).added as Row).count, 7);
});

test('inferred mode with the EL++ classifier: reduced subsumption with direct/indirect labels, equivalence, types, disjointness, satisfiability', async () => {
  const unselected = await call(c, 'semantic_diff', { right_document: doc('inferred.ttl'), mode: 'inferred' });
  assert.equal(unselected.isError, false, 'no reasoner given: the selected one (auto from the start) answers');
  const d = await callOk(c, 'semantic_diff', { right_document: doc('inferred.ttl'), mode: 'inferred', reasoner: 'el' });
  assert.equal(d.mode, 'inferred');
  const inf = d.inferred as Record<string, Row>;
  assert.equal(inf.entailment_set as unknown, 'inferred-diff-v1');
  assert.deepEqual(inf.excluded_categories as unknown, ['property_hierarchy', 'property_characteristics', 'property_assertions']);
  assert.deepEqual(inf.consistency, { left: true, right: true, changed: false, transition: 'unchanged' });
  assert.deepEqual(inf.satisfiability?.newly_unsatisfiable, { count: 1, items: [D + 'Weird'] });
  assert.deepEqual(inf.satisfiability?.newly_satisfiable, { count: 0, items: [] });
  assert.deepEqual(inf.subsumption?.added, {
    count: 4,
    direct: 4,
    indirect: 0,
    items: [
      { sub: D + 'Dog', super: D + 'Mammal', label: 'direct' },
      { sub: D + 'Hound', super: D + 'Mammal', label: 'direct' },
      { sub: D + 'Mammal', super: D + 'Animal', label: 'direct' },
      { sub: D + 'Puppy', super: D + 'Hound', label: 'direct' },
    ],
  });
  assert.deepEqual(inf.subsumption?.removed, {
    count: 1,
    direct: 0,
    indirect: 1,
    items: [{ sub: D + 'Dog', super: D + 'Animal', label: 'indirect' }],
  });
  assert.deepEqual(inf.equivalence, {
    added: { count: 1, items: [{ classes: [D + 'Dog', D + 'Hound'] }] },
    removed: { count: 0, items: [] },
  });
  assert.deepEqual(inf.types?.added, {
    count: 1,
    direct: 1,
    indirect: 0,
    items: [{ individual: D + 'tom', class: D + 'Cat', label: 'direct' }],
  });
  assert.deepEqual(inf.disjointness, {
    scope: 'asserted_candidates',
    candidates: 1,
    checked: 1,
    cap: 1000,
    added: { count: 1, items: [{ classes: [D + 'Cat', D + 'Dog'] }] },
    removed: { count: 0, items: [] },
  });
  assert.deepEqual(inf.errored_categories as unknown, []);
  const reasoner = d.reasoner as Row;
  assert.deepEqual([reasoner.id, reasoner.selection, reasoner.told_only, reasoner.configuration_parity], ['el', 'argument', false, true]);
  assert.match(reasoner.implementation_digest as string, /^sha256:[0-9a-f]{64}$/);
  assert.deepEqual(d.module_ownership, { available: false, reason: 'no project policy governs this ontology' });
  assert.deepEqual(d.stage_deltas, { available: false, reason: 'no project policy governs this ontology' });
  const compat = d.compatibility as Row;
  assert.equal(compat.classification, 'potentially_breaking');
  assert.ok((compat.reasons as string[]).includes('1 class became unsatisfiable'));

  const both = await callOk(c, 'semantic_diff', { right_document: doc('inferred.ttl'), mode: 'both', reasoner: 'EL++ Classifier' });
  assert.equal(both.mode, 'both');
  assert.deepEqual(both.inferred, d.inferred, 'a version-less name resolves to the same reasoner');
  assert.deepEqual(both.asserted_axioms, d.asserted_axioms);
});

test('a right_document imports through its sibling catalog: the inferred modes classify the flattened closure', async () => {
  const docs = await mkdtemp(path.join(os.tmpdir(), 'athene-semantic-diff-imports-'));
  try {
    await writeFile(
      path.join(docs, 'importer.ttl'),
      LEFT.replace(ID_V1, ID_V1 + '<http://example.org/sd> owl:imports <http://example.org/sd-ext> , <http://example.org/missing> .\n'),
    );
    await writeFile(
      path.join(docs, 'ext.ttl'),
      HEAD + '<http://example.org/sd-ext> a owl:Ontology .\n:Dog rdfs:subClassOf :Pet .\n:Pet a owl:Class .\n',
    );
    await writeFile(
      path.join(docs, 'catalog-v001.xml'),
      `<?xml version="1.0"?>
<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><uri name="http://example.org/sd-ext" uri="ext.ttl"/></catalog>
`,
    );
    const d = await callOk(c, 'semantic_diff', { right_document: path.join(docs, 'importer.ttl'), mode: 'both', reasoner: 'el' });
    assert.deepEqual(d.imports, { changed: true, left: [], right: ['http://example.org/missing', 'http://example.org/sd-ext'] });
    assert.deepEqual(d.right_document_unresolved_imports, [
      { import_iri: 'http://example.org/missing', reason: 'not loaded and not mapped to a local file by a catalog-v001.xml' },
    ]);
    assert.equal(((d.asserted_axioms as Row).added as Row).count, 0, 'without include_imports the imported axioms are not compared');
    const inf = d.inferred as Record<string, Row>;
    assert.deepEqual(inf.subsumption?.added, {
      count: 1,
      direct: 1,
      indirect: 0,
      items: [{ sub: D + 'Dog', super: D + 'Pet', label: 'direct' }],
    });
    assert.deepEqual(((d.reasoner as Row).right as Row).unresolved_imports, 1);
    const compat = d.compatibility as Row;
    assert.equal(compat.classification, 'potentially_breaking');
    assert.deepEqual(compat.reasons, ['the ontology id or imports changed']);

    const closure = await callOk(c, 'semantic_diff', { right_document: path.join(docs, 'importer.ttl'), include_imports: true });
    assert.equal(((closure.asserted_axioms as Row).added as Row).count, 2, 'Dog SubClassOf Pet and the declaration of Pet');
    assert.match(closure.caveat as string, /truncated/);
    assert.ok(((closure.compatibility as Row).reasons as string[]).includes('the right imports closure is truncated (unresolved imports)'));
  } finally {
    await rm(docs, { recursive: true, force: true });
  }
});

test('an inconsistent side is a consistency transition that suppresses the member categories', async () => {
  const d = await callOk(c, 'semantic_diff', { right_document: doc('inconsistent.ttl'), mode: 'inferred', reasoner: 'el' });
  const inf = d.inferred as Record<string, Row>;
  assert.deepEqual(inf.consistency, { left: true, right: false, changed: true, transition: 'became_inconsistent' });
  for (const name of ['satisfiability', 'subsumption', 'equivalence', 'types', 'disjointness']) {
    assert.equal(inf[name]?.categories_suppressed, true, name);
  }
  const reasons = (d.compatibility as Row).reasons as string[];
  assert.ok(reasons.includes('consistency changed between the sides'));
  assert.equal((d.compatibility as Row).classification, 'potentially_breaking');
});

test('the window selection is the default reasoner; the told-only structural reasoner errs on what it cannot decide', async () => {
  await callOk(c, 'set_reasoner', { reasoner: 'structural' });
  const d = await callOk(c, 'semantic_diff', { right_document: doc('inferred.ttl'), mode: 'inferred' });
  const reasoner = d.reasoner as Row;
  assert.deepEqual([reasoner.id, reasoner.selection, reasoner.told_only], ['structural', 'window_selection', true]);
  const inf = d.inferred as Record<string, Row>;
  assert.deepEqual(inf.errored_categories as unknown, ['consistency', 'satisfiability', 'disjointness']);
  assert.match(inf.consistency?.error as string, /told-only/);
  assert.deepEqual(
    ((inf.subsumption?.added as Row).items as Row[]).map((r) => [r.sub, r.super]),
    [
      [D + 'Dog', D + 'Mammal'],
      [D + 'Hound', D + 'Mammal'],
      [D + 'Mammal', D + 'Animal'],
      [D + 'Puppy', D + 'Hound'],
      [D + 'Weird', D + 'Cat'],
      [D + 'Weird', D + 'Dog'],
      [D + 'Weird', D + 'Hound'],
    ],
    'the told hierarchy: Weird is not known to be unsatisfiable',
  );
  assert.ok(((d.compatibility as Row).reasons as string[]).some((r) => /errored/.test(r)));
});

test('with a project policy the inferred modes report module ownership and governance stage deltas', async () => {
  const yaml = `version: 1
project_id: sd
root_ontology: http://example.org/sd
modules:
  - id: animals
    path: main.ttl
    namespaces: ["${D}"]
validation:
  required_stages: [governance]
`;
  await withProjectPolicy(served.dir, yaml, async () => {
    const d = await callOk(c, 'semantic_diff', { right_document: doc('unlabelled.ttl'), mode: 'inferred', reasoner: 'el' });
    assert.deepEqual(d.module_ownership, { available: true, count: 0, changes: [] }, 'namespace ownership does not move');
    const deltas = d.stage_deltas as Record<string, Row>;
    assert.deepEqual(Object.keys(deltas), ['governance'], 'only required stages are compared');
    assert.equal(deltas.governance?.scope, 'policy_rules_only');
    const entered = deltas.governance?.entered as Row;
    assert.equal(entered.count, 1);
    assert.deepEqual(
      (entered.items as Row[]).map((f) => [f.rule_id, f.focus_iri]),
      [['annotations.label_missing', D + 'Nameless']],
    );
    assert.deepEqual(deltas.governance?.left, { count: 0, items: [] });
    assert.equal((d.compatibility as Row).policy_driven, true);
    const same = await callOk(c, 'semantic_diff', { right_document: served.file, mode: 'inferred', reasoner: 'el' });
    assert.deepEqual((same.stage_deltas as Record<string, Row>).governance, {
      scope: 'policy_rules_only',
      entered: { count: 0, items: [] },
      left: { count: 0, items: [] },
    });
    assert.equal((same.compatibility as Row).classification, 'metadata_only');
    const asserted = await call(c, 'semantic_diff', {
      right_document: doc('asserted.ttl'),
      policy_path: path.join(served.dir, '.athene', 'project.yaml'),
    });
    assert.deepEqual([asserted.isError, asserted.body.error_code, asserted.body.argument], [true, 'invalid_argument', 'policy_path']);
  });
});

test('an expired overall time bound reports the inferred entailment set with an error and counts as potentially breaking', async () => {
  // a 3,000-class chain with existentials: its classification takes far longer than the 1 ms bound
  const body = Array.from(
    { length: 3000 },
    (_, i) => `SubClassOf(:C${i} :C${i + 1})\nSubClassOf(:C${i} ObjectSomeValuesFrom(:r :C${(i * 7) % 3000}))`,
  ).join('\n');
  const left = readFunctional(`Prefix(:=<${D}>)\nOntology(<http://example.org/chain>\n${body}\n)`);
  const right = readFunctional(`Prefix(:=<${D}>)\nOntology(<http://example.org/chain2>\n${body}\nSubClassOf(:Extra :C0)\n)`);
  const ctx = toolContext([left, right]);
  const request = v.parse(SemanticDiffArgs, { right: 'http://example.org/chain2', mode: 'inferred', reasoner: 'el', timeout_ms: 1 });
  const d = await semanticDiff(ctx, request, ctx.signal, documentReader);
  assert.deepEqual(d.inferred, { entailment_set: 'inferred-diff-v1', error: 'the inferred work did not finish within timeout_ms=1' });
  assert.equal((d.compatibility as Row).classification, 'potentially_breaking');
  assert.ok(((d.compatibility as Row).reasons as string[]).includes('the inferred comparison did not finish in time'));
  assert.equal(((d.asserted_axioms as Row).added as Row).count, 1, 'the asserted part is complete');
});

test('semantic_diff errors: both or neither right form, an unknown or ambiguous reasoner, a load failure, a bad mode', async () => {
  const both = await call(c, 'semantic_diff', { right: 'http://example.org/sd', right_document: served.file });
  assert.deepEqual([both.isError, both.body.error_code], [true, 'invalid_argument']);
  const neither = await call(c, 'semantic_diff', {});
  assert.deepEqual([neither.isError, neither.body.error_code], [true, 'invalid_argument']);
  const unknownAsserted = await call(c, 'semantic_diff', { right_document: served.file, reasoner: 'HermiT' });
  assert.deepEqual(
    [unknownAsserted.isError, unknownAsserted.body.error_code],
    [true, 'unknown_reasoner'],
    'a named reasoner is checked in asserted mode too',
  );
  const unknown = await call(c, 'semantic_diff', { right_document: served.file, mode: 'inferred', reasoner: 'HermiT' });
  assert.deepEqual([unknown.isError, unknown.body.error_code], [true, 'unknown_reasoner']);
  assert.match(unknown.body.error as string, /Athene EL\+\+ Classifier .* \[el\]/);
  const ambiguous = await call(c, 'semantic_diff', { right_document: served.file, mode: 'both', reasoner: 'Athene' });
  assert.deepEqual([ambiguous.isError, ambiguous.body.error_code], [true, 'ambiguous_reference']);
  const partialVersion = await call(c, 'semantic_diff', {
    right_document: served.file,
    mode: 'inferred',
    reasoner: 'Athene EL++ Classifier 0.1',
  });
  assert.equal(partialVersion.body.error_code, 'unknown_reasoner', 'a partial version never matches');
  const missing = await call(c, 'semantic_diff', { right_document: doc('nope.ttl') });
  assert.deepEqual([missing.isError, missing.body.error_code], [true, 'load_failed']);
  const badMode = await call(c, 'semantic_diff', { right_document: served.file, mode: 'entailed' });
  assert.equal(badMode.body.error_code, 'invalid_argument');
});

test('policy_path is refused with mode=asserted (it drives only the inferred parts); timeout_ms ≤0 takes the default', async () => {
  const refused = await call(c, 'semantic_diff', { right_document: served.file, policy_path: doc('project.yaml') });
  assert.deepEqual([refused.isError, refused.body.error_code, refused.body.argument], [true, 'invalid_argument', 'policy_path']);
  const zero = await callOk(c, 'semantic_diff', { right_document: served.file, timeout_ms: 0 });
  assert.equal(zero.identical, true);
  const negative = await callOk(c, 'semantic_diff', {
    right_document: doc('inferred.ttl'),
    mode: 'inferred',
    reasoner: 'el',
    timeout_ms: -5,
  });
  assert.equal((negative.inferred as Row).error, undefined, 'a non-positive bound is the 120000 ms default, not an instant expiry');
  assert.equal((negative.inferred as Row).entailment_set, 'inferred-diff-v1');
});

test('an entity added with no logical axiom is non_breaking; one-sided axioms about anonymous individuals are counted as churn', async () => {
  const added = await callOk(c, 'semantic_diff', { right_document: doc('unlabelled.ttl') });
  const compat = added.compatibility as Row;
  assert.deepEqual([added.identical, compat.classification, compat.policy_driven], [false, 'non_breaking', false]);
  assert.deepEqual(((added.entities as Row).added as Row).count, 1);
  await writeFile(doc('blank.ttl'), LEFT + ':hasOwner a owl:ObjectProperty .\n:rex :hasOwner [ a :Animal ] .\n');
  const blank = await callOk(c, 'semantic_diff', { right_document: doc('blank.ttl') });
  const churn = (blank.compatibility as Row).anonymous_individual_churn as number;
  assert.ok(churn > 0, JSON.stringify(blank.compatibility));
  assert.match(String((blank.compatibility as Row).caveat), /anonymous individuals/);
});
