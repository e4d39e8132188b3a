// Minting settings (TOOLS.md 1.7) through the real server: `new_entity_namespace` and `new_entity_ids`
// from flags, environment and settings.json reach the window, and every minting tool honours them. With
// generated ids a bare name mints `<namespace>id-<uuid>` labelled with the name in the same undo unit.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestServer, fixture, connect, call, callOk, type TestServer } from '../server/support.js';
import { loadSettings, SettingsError } from '../../src/settings/settings.js';
import { at } from '../support/at.js';

type Row = Record<string, unknown>;

const ZOO = 'http://example.org/zoo#';
const OTHER = 'http://other.example/terms#Given';
const GENERATED = /^id-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The single IRI a reference resolves to in the window. */
async function iriOf(c: Client, entity: string): Promise<string> {
  const found = await callOk(c, 'get_entity', { entity });
  const matches = found.matches as Row[];
  assert.equal(found.count, 1, `${entity} resolves to one entity`);
  return at(matches, 0).iri as string;
}

const newIris = (result: Row) => ((result.new_entities ?? []) as Row[]).map((e) => e.iri as string);

describe('new_entity_namespace (name ids)', () => {
  const NS = 'http://example.org/minted/';
  let t: TestServer;
  let c: Client;
  before(async () => {
    t = await startTestServer([fixture('zoo.ttl')], { new_entity_namespace: NS });
    c = await connect(t);
  });
  after(async () => {
    await c.close();
    await t.stop();
  });

  test('add_axiom, remove_axiom, add_subclass_of and add_annotation mint bare names in the namespace', async () => {
    const added = await callOk(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Wolf', super: 'Animal' });
    assert.deepEqual(newIris(added), [NS + 'Wolf']);
    const removeUnknown = await call(c, 'remove_axiom', { axiom_type: 'subclass_of', sub: 'Hyena', super: 'Animal' });
    assert.equal(removeUnknown.isError, true);
    assert.match(removeUnknown.body.error as string, /not asserted/);
    assert.deepEqual(await callOk(c, 'remove_axiom', { axiom_type: 'subclass_of', sub: 'Wolf', super: 'Animal' }), {
      removed: true,
      axiom: 'Wolf SubClassOf animal',
    });
    assert.deepEqual(newIris(await callOk(c, 'add_subclass_of', { child: 'Fox', parent: 'Animal' })), [NS + 'Fox']);
    const annotated = await callOk(c, 'add_annotation', { entity: 'Fox', property: 'habitat', value: 'forest' });
    assert.deepEqual(newIris(annotated), [NS + 'habitat']);
    assert.equal(await iriOf(c, 'habitat'), NS + 'habitat');
  });

  test('preview_changes and apply_changes mint in the namespace; absolute IRIs are used as given', async () => {
    const operations = [
      { axiom_type: 'class_assertion', class: 'Fox', individual: 'reynard' },
      { axiom_type: 'subclass_of', sub: OTHER, super: 'Animal' },
    ];
    const preview = await callOk(c, 'preview_changes', { operations });
    assert.deepEqual(
      (preview.operations as Row[]).flatMap((r) => newIris(r)),
      [NS + 'reynard', OTHER],
    );
    assert.equal((await call(c, 'get_entity', { entity: 'reynard' })).isError, true, 'a preview applies nothing');
    const applied = await callOk(c, 'apply_changes', { operations });
    assert.deepEqual(
      (applied.operations as Row[]).flatMap((r) => newIris(r)),
      [NS + 'reynard', OTHER],
    );
    assert.equal(await iriOf(c, 'reynard'), NS + 'reynard');
  });

  test('create_class, create_entity and set_label use the namespace; header tools declare minted properties there', async () => {
    const made = await callOk(c, 'create_class', { name: 'Lynx', parent: 'Animal' });
    assert.equal((made.created as Row).iri, NS + 'Lynx');
    const entity = await callOk(c, 'create_entity', { entity_type: 'individual', name: 'rex' });
    assert.equal((entity.created as Row).iri, NS + 'rex');
    assert.equal((await callOk(c, 'set_label', { entity: 'rex', value: 'Rex the dog' })).entity, NS + 'rex');
    const explicit = await callOk(c, 'create_class', { name: 'Ocelot', namespace: 'http://example.org/cats#' });
    assert.equal((explicit.created as Row).iri, 'http://example.org/cats#Ocelot', 'an explicit namespace argument wins');
    await callOk(c, 'add_ontology_annotation', { property: 'curatedBy', value: 'zoo team' });
    assert.equal(await iriOf(c, 'curatedBy'), NS + 'curatedBy');
  });

  test('strict mode still refuses to mint', async () => {
    const refused = await call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Unicorn', super: 'Animal', strict: true });
    assert.equal(refused.isError, true);
    assert.equal(refused.body.error_code, 'invalid_argument');
    assert.match(refused.body.error as string, /strict mode refuses to mint/);
    assert.equal((await call(c, 'add_subclass_of', { child: 'Unicorn', parent: 'Animal', strict: true })).isError, true);
    assert.equal((await call(c, 'get_entity', { entity: 'Unicorn' })).isError, true);
  });
});

describe('new_entity_ids: generated', () => {
  const NS = 'http://example.org/gen#';
  let t: TestServer;
  let c: Client;
  before(async () => {
    t = await startTestServer([fixture('zoo.ttl')], { new_entity_namespace: NS, new_entity_ids: 'generated' });
    c = await connect(t);
  });
  after(async () => {
    await c.close();
    await t.stop();
  });

  /** A new_entities row of a generated id: the namespace, a UUID-based local part, the name (its label) as display. */
  function assertGenerated(row: Row, name: string): string {
    const iri = row.iri as string;
    assert.ok(iri.startsWith(NS), `${iri} is in the namespace`);
    assert.match(iri.slice(NS.length), GENERATED);
    assert.equal(row.display, name);
    assert.equal(row.generated_id, true);
    return iri;
  }

  test('add_axiom mints a generated id labelled with the name; the name then resolves to it', async () => {
    const added = await callOk(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Wolf', super: 'Animal' });
    const [row] = added.new_entities as Row[];
    assert.ok(row);
    const wolf = assertGenerated(row, 'Wolf');
    assert.equal(added.axiom, 'Wolf SubClassOf animal', 'renderings show the label');
    assert.equal(await iriOf(c, 'Wolf'), wolf);
    const again = await callOk(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Wolf', super: 'Animal' });
    assert.match(again.note as string, /already present/, 'a later call reaches the same entity by its label');
    assert.equal(again.new_entities, undefined);
    assert.equal(again.new_entities, undefined);
  });

  test('one name within a call is one entity; different names get different ids; undo removes labels and entities together', async () => {
    const before = (await callOk(c, 'get_active_ontology')).axioms as number;
    const applied = await callOk(c, 'apply_changes', {
      operations: [
        { axiom_type: 'subclass_of', sub: 'Coyote', super: 'Animal' },
        { axiom_type: 'subclass_of', sub: 'Jackal', super: 'Coyote' },
        { axiom_type: 'class_assertion', class: 'Coyote', individual: 'wile' },
      ],
    });
    const rows = applied.operations as Row[];
    const coyote = assertGenerated(at(at(rows, 0).new_entities as Row[], 0), 'Coyote');
    const jackalRows = at(rows, 1).new_entities as Row[];
    const jackal = assertGenerated(
      jackalRows.find((r) => r.display === 'Jackal')!,
      'Jackal',
    );
    assert.equal(jackalRows.find((r) => r.display === 'Coyote')?.iri, coyote, 'the second mention of Coyote reaches the same entity');
    const wile = assertGenerated(
      (at(rows, 2).new_entities as Row[]).find((r) => r.display === 'wile')!,
      'wile',
    );
    assert.equal(new Set([coyote, jackal, wile, await iriOf(c, 'Wolf')]).size, 4, 'distinct names, distinct ids');
    assert.equal(await iriOf(c, 'Coyote'), coyote);
    // 3 declarations, 3 labels, 3 axioms
    assert.equal((await callOk(c, 'get_active_ontology')).axioms, before + 9);

    const undone = await callOk(c, 'undo_change');
    assert.equal(undone.net_axiom_change, -9, 'labels and entities leave in one undo unit');
    for (const iri of [coyote, jackal, wile]) assert.equal((await call(c, 'get_entity', { entity: iri })).isError, true);
    assert.equal((await call(c, 'get_entity', { entity: 'Jackal' })).isError, true, 'the label went with it');
    assert.equal((await callOk(c, 'get_active_ontology')).axioms, before);
  });

  test('preview_changes shows the name and applies nothing; strict mode still refuses', async () => {
    const preview = await callOk(c, 'preview_changes', { operations: [{ axiom_type: 'subclass_of', sub: 'Dingo', super: 'Animal' }] });
    const row = at(preview.operations as Row[], 0);
    assertGenerated(at(row.new_entities as Row[], 0), 'Dingo');
    assert.equal(row.axiom, 'Dingo SubClassOf animal', 'the rendering shows the name the label will carry');
    assert.equal((await call(c, 'get_entity', { entity: 'Dingo' })).isError, true);
    const refused = await call(c, 'add_subclass_of', { child: 'Dingo', parent: 'Animal', strict: true });
    assert.equal(refused.isError, true);
    assert.equal(refused.body.error_code, 'invalid_argument');
    assert.equal((await call(c, 'get_entity', { entity: 'Dingo' })).isError, true);
  });

  test('create_class and create_entity mint generated ids named by their label; a known name is not minted again', async () => {
    const made = await callOk(c, 'create_class', { name: 'Lynx', parent: 'Predator' });
    const lynx = (made.created as Row).iri as string;
    assert.match(lynx.slice(NS.length), GENERATED);
    assert.equal((made.created as Row).display, 'Lynx');
    assert.deepEqual(
      (made.new_entities as Row[]).map((r) => [r.display, r.generated_id]),
      [
        ['Lynx', true],
        ['Predator', true],
      ],
    );
    const axioms = (((await callOk(c, 'get_axioms_for_entity', { entity: lynx })).axioms as Row).items as Row[]).map((r) => r.rendering);
    assert.deepEqual(axioms.sort(), ['Class: Lynx', 'Lynx SubClassOf Predator', 'Lynx rdfs:label "Lynx"'], 'one label, not two');
    const again = await callOk(c, 'create_class', { name: 'Lynx' });
    assert.equal((again.created as Row).iri, lynx);
    assert.match(again.note as string, /already existed/);
    const noLabel = await call(c, 'create_class', { name: 'Serval', no_label: true });
    assert.equal(noLabel.isError, true);
    assert.equal(noLabel.body.error_code, 'invalid_argument');
    assert.match(noLabel.body.error as string, /no_label would lose the name 'Serval'/);
    const individual = await callOk(c, 'create_entity', { entity_type: 'individual', name: 'rex', label: 'Rex' });
    assert.match(((individual.created as Row).iri as string).slice(NS.length), GENERATED);
    assert.equal((individual.created as Row).display, 'Rex');
    assert.deepEqual(
      (individual.new_entities as Row[]).map((r) => r.display),
      ['Rex'],
      'display is the label actually added',
    );
    const given = await callOk(c, 'create_class', { iri: OTHER });
    assert.equal((given.created as Row).iri, OTHER, 'absolute IRIs are used as given');
  });

  test('add_annotation and add_ontology_annotation label a generated annotation property; undo takes the label too', async () => {
    const annotated = await callOk(c, 'add_annotation', { entity: 'Wolf', property: 'habitat', value: 'forest' });
    const habitat = assertGenerated(at(annotated.new_entities as Row[], 0), 'habitat');
    assert.equal(await iriOf(c, 'habitat'), habitat);
    await callOk(c, 'undo_change');
    assert.equal((await call(c, 'get_entity', { entity: 'habitat' })).isError, true);
    await callOk(c, 'add_ontology_annotation', { property: 'curatedBy', value: 'zoo team' });
    const curatedBy = await iriOf(c, 'curatedBy');
    assert.match(curatedBy.slice(NS.length), GENERATED);
    const labelled = await callOk(c, 'set_label', { entity: 'curatedBy', value: 'curated by' });
    assert.equal(labelled.entity, curatedBy);
  });
});

test('the default namespace stays the active ontology IRI + #, and the environment sets the minting settings', async () => {
  const t = await startTestServer([fixture('zoo.ttl')]);
  const c = await connect(t);
  try {
    assert.deepEqual(newIris(await callOk(c, 'add_subclass_of', { child: 'Wolf', parent: 'Animal' })), [ZOO + 'Wolf']);
  } finally {
    await c.close();
    await t.stop();
  }
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-settings-'));
  try {
    const env = { ATHENE_NEW_ENTITY_NAMESPACE: 'urn:example:terms/', ATHENE_NEW_ENTITY_IDS: 'generated' };
    const settings = await loadSettings(home, {}, env);
    assert.equal(settings.new_entity_namespace, 'urn:example:terms/');
    assert.equal(settings.new_entity_ids, 'generated');
    await writeFile(
      path.join(home, 'settings.json'),
      JSON.stringify({ new_entity_namespace: 'http://example.org/file#', new_entity_ids: 'name' }),
    );
    assert.equal((await loadSettings(home, {}, {})).new_entity_namespace, 'http://example.org/file#');
    assert.equal(
      (await loadSettings(home, { new_entity_namespace: 'http://example.org/flag/' }, env)).new_entity_namespace,
      'http://example.org/flag/',
      'flags win over environment and file',
    );
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test('an invalid minting setting is a precise settings error', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-settings-'));
  try {
    const refused = (e: unknown, re: RegExp) => e instanceof SettingsError && re.test(e.message);
    await assert.rejects(loadSettings(home, {}, { ATHENE_NEW_ENTITY_NAMESPACE: 'http://example.org/no-separator' }), (e) =>
      refused(e, /^ATHENE_NEW_ENTITY_NAMESPACE: expected an absolute IRI ending in '#' or '\/', got 'http:\/\/example.org\/no-separator'$/),
    );
    await assert.rejects(loadSettings(home, { new_entity_namespace: 'terms#' }, {}), (e) =>
      refused(e, /^--new-entity-namespace: expected an absolute IRI/),
    );
    await assert.rejects(loadSettings(home, { new_entity_namespace: 'http://example.org/a b#' }, {}), (e) =>
      refused(e, /expected an absolute IRI/),
    );
    await assert.rejects(loadSettings(home, { new_entity_ids: 'uuid' }, {}), (e) =>
      refused(e, /^--new-entity-ids: expected 'name' or 'generated', got 'uuid'$/),
    );
    await assert.rejects(
      startTestServer([fixture('zoo.ttl')], { new_entity_namespace: 'zoo' }, home),
      (e) => refused(e, /^--new-entity-namespace: /),
      'the server does not start on an invalid setting',
    );
    await writeFile(path.join(home, 'settings.json'), JSON.stringify({ new_entity_namespace: 'example.org#' }));
    await assert.rejects(loadSettings(home, {}, {}), (e) =>
      refused(e, /settings\.json: new_entity_namespace: expected an absolute IRI ending in '#' or '\/'/),
    );
    await writeFile(path.join(home, 'settings.json'), JSON.stringify({ new_entity_ids: 'random' }));
    await assert.rejects(loadSettings(home, {}, {}), (e) => refused(e, /settings\.json: new_entity_ids: expected 'name' or 'generated'/));
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});
