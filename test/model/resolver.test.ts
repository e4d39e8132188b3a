import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkspaceResolver } from '../../src/model/resolver.js';
import { NameError } from '../../src/model/names.js';
import { Ontology } from '../../src/model/ontology.js';
import * as t from '../../src/model/terms.js';
import { ex, label, zoo, workspaceWith } from './helpers.js';

function setup() {
  const o = zoo();
  const ws = workspaceWith(o);
  return { o, ws, r: new WorkspaceResolver(ws) };
}

test('full IRI, <IRI> and CURIE resolve, with the kinds known in the closure', () => {
  const { r } = setup();
  assert.equal(r.resolve(ex('Dog')).iri, ex('Dog'));
  assert.equal(r.resolve('<' + ex('Dog') + '>').iri, ex('Dog'));
  const viaCurie = r.resolve('zoo:hasOwner');
  assert.equal(viaCurie.iri, ex('hasOwner'));
  assert.deepEqual([...viaCurie.kinds], ['ObjectProperty']);
  assert.equal(r.resolve('rdfs:label').iri, 'http://www.w3.org/2000/01/rdf-schema#label');
  assert.deepEqual([...r.resolve('xsd:integer').kinds], ['Datatype']);
  assert.equal(r.resolve('urn:isbn:123').iri, 'urn:isbn:123');
});

test('asIri reads IRI spellings only, looking nothing up', () => {
  const { r } = setup();
  assert.equal(r.asIri(' <' + ex('Dog') + '> '), ex('Dog'));
  assert.equal(r.asIri('zoo:Unicorn'), ex('Unicorn'), 'a CURIE of a known prefix, entity or not');
  assert.equal(r.asIri('urn:isbn:123'), 'urn:isbn:123');
  for (const name of ['dog', 'Dog', 'nope:Dog', '<>', 'has owner']) assert.equal(r.asIri(name), null, name);
});

test('an unknown prefix is a NameError', () => {
  const { r } = setup();
  assert.throws(
    () => r.resolve('nope:Dog'),
    (e: unknown) => e instanceof NameError && /Unknown prefix 'nope:'/.test(e.message),
  );
});

test('display names: label first, then local name, case-insensitive only when unique', () => {
  const { r } = setup();
  assert.equal(r.resolve('dog').iri, ex('Dog'));
  assert.equal(r.resolve('chien').iri, ex('Dog'));
  assert.equal(r.resolve('Animal').iri, ex('Animal'));
  assert.equal(r.resolve('HASOWNER').iri, ex('hasOwner'));
  assert.equal(r.resolve("'dog'").iri, ex('Dog'));
});

test('a name shared by several IRIs is ambiguous and lists the candidates', () => {
  const { o, r } = setup();
  o.add(t.declaration(t.cls('http://other.org/Animal')));
  o.add(label(ex('Cat'), 'pet'));
  o.add(label(ex('Dog'), 'pet'));
  for (const name of ['Animal', 'pet']) {
    assert.throws(
      () => r.resolve(name),
      (e: unknown) =>
        e instanceof NameError && e.candidates.length === 2 && e.message.includes('<' + ex(name === 'pet' ? 'Cat' : 'Animal') + '>'),
    );
  }
});

test('an unknown bare name resolves to the IRI it would mint, with no kinds', () => {
  const { r } = setup();
  const n = r.resolve('Wolf');
  assert.equal(n.iri, ex('Wolf'));
  assert.equal(n.kinds.size, 0);
  assert.throws(() => r.resolve('big wolf'), NameError);
  assert.deepEqual(r.resolveEntity('Wolf', 'Class'), { entity: t.cls(ex('Wolf')), minted: true });
  assert.deepEqual(r.resolveEntity('Dog', 'Class'), { entity: t.cls(ex('Dog')), minted: false });
  assert.equal(r.wouldMint('Dog', 'NamedIndividual'), true);
  assert.throws(() => r.resolveEntity('Wolf', 'Class', { strict: true }), NameError);
});

test('the index follows workspace edits, undo and the imports closure', () => {
  const { o, ws, r } = setup();
  assert.equal(r.resolve('Wolf').kinds.size, 0);
  ws.apply([
    { kind: 'AddAxiom', ontology: o, axiom: t.declaration(t.cls(ex('Wolf'))) },
    { kind: 'AddAxiom', ontology: o, axiom: label(ex('Wolf'), 'grey wolf') },
  ]);
  assert.deepEqual([...r.resolve('Wolf').kinds], ['Class']);
  assert.equal(r.resolve('grey wolf').iri, ex('Wolf'));
  ws.undo();
  assert.equal(r.resolve('Wolf').kinds.size, 0);
  assert.throws(() => r.resolve('grey wolf'), NameError);

  const fish = new Ontology();
  fish.id = { iri: 'http://fish.org/o', versionIri: null };
  fish.add(t.declaration(t.cls('http://fish.org/o#Trout')));
  ws.load(fish);
  assert.equal(r.resolve('Trout').iri, ex('Trout'));
  ws.apply([{ kind: 'AddImport', ontology: o, iri: 'http://fish.org/o' }]);
  assert.equal(r.resolve('Trout').iri, 'http://fish.org/o#Trout');
});

test('an anonymous ontology mints in its default namespace, or refuses', () => {
  const o = new Ontology();
  const r = new WorkspaceResolver(workspaceWith(o));
  assert.throws(() => r.resolve('X'), NameError);
  o.prefixes.set(':', 'http://d.org/#');
  assert.equal(r.resolve('X').iri, 'http://d.org/#X');
  assert.equal(new WorkspaceResolver(workspaceWith(zoo()), { newEntityNamespace: 'http://n/' }).resolve('X').iri, 'http://n/X');
});
