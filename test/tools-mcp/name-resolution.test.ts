// Display names across the imports closure through the real server (TOOLS.md 1.4): a display name shared
// by an own entity (its label) and an imported one (its short form, being unlabelled) is ambiguous, so
// lookups list both and edits refuse to guess.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { call, callOk, serveTempOntology, axiomCount, type Row, type ServedTempOntology } from '../server/support.js';

const OWN = 'http://example.org/people#';
const IMPORTED = 'http://example.org/koala#';
const PREFIXES = '@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n';

const OWN_TTL = `${PREFIXES}@prefix : <${OWN}> .
<http://example.org/people> a owl:Ontology ; owl:imports <http://example.org/koala> .
:Human a owl:Class ; rdfs:label "Person" .
:Animal a owl:Class ; rdfs:label "animal" .
:Dog a owl:Class ; rdfs:label "canine" .
`;
const IMPORTED_TTL = `${PREFIXES}@prefix : <${IMPORTED}> .
<http://example.org/koala> a owl:Ontology .
:Person a owl:Class .
:Dog a owl:Class ; rdfs:label "dog" .
`;

let served: ServedTempOntology;

before(async () => {
  served = await serveTempOntology('athene-names-', 'people.ttl', OWN_TTL);
  const imported = path.join(served.dir, 'koala.ttl');
  await writeFile(imported, IMPORTED_TTL);
  await callOk(served.c, 'load_ontology', { source: imported, keep_active: true });
});
after(() => served.close());

test('an own label and an unlabelled imported short form sharing a display name are ambiguous', async () => {
  const { c } = served;
  const found = await callOk(c, 'get_entity', { entity: 'Person' });
  assert.deepEqual((found.matches as Row[]).map((e) => [e.iri, e.display]).sort(), [
    [`${IMPORTED}Person`, 'Person'],
    [`${OWN}Human`, 'Person'],
  ]);
  assert.equal(found.count, 2);
  const count = await axiomCount(c);
  const refused = await call(c, 'add_subclass_of', { child: 'Person', parent: 'animal' });
  assert.equal(refused.body.error_code, 'ambiguous_reference', JSON.stringify(refused.body));
  assert.deepEqual((refused.body.candidates as string[]).sort(), [`${IMPORTED}Person`, `${OWN}Human`]);
  assert.equal(await axiomCount(c), count, 'nothing edited');
  // Either IRI still works.
  assert.equal((await callOk(c, 'add_subclass_of', { child: `<${OWN}Human>`, parent: 'animal' })).applied, true);
  await callOk(c, 'undo_change');
});

test('a local name that is not a display name does not compete with a label', async () => {
  // own:Dog displays as "canine", imported koala:Dog as "dog": "dog" is only koala:Dog's display name.
  const canine = await callOk(served.c, 'get_entity', { entity: 'canine' });
  assert.deepEqual(
    (canine.matches as Row[]).map((e) => e.iri),
    [`${OWN}Dog`],
  );
  const dog = await callOk(served.c, 'get_entity', { entity: 'dog' });
  assert.deepEqual(
    (dog.matches as Row[]).map((e) => e.iri),
    [`${IMPORTED}Dog`],
  );
});

test('search_entities rows name the ontology each entity comes from', async () => {
  const found = await callOk(served.c, 'search_entities', { query: 'Person' });
  const rows = new Map((found.items as Row[]).map((r) => [r.iri, r.ontology]));
  assert.equal(rows.get(`${OWN}Human`), 'http://example.org/people');
  assert.equal(rows.get(`${IMPORTED}Person`), 'http://example.org/koala');
});
