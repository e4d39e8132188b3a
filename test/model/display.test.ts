import { test } from 'node:test';
import assert from 'node:assert/strict';
import { displayName, shortForm, localName } from '../../src/model/display.js';
import { Ontology } from '../../src/model/ontology.js';
import * as t from '../../src/model/terms.js';
import { ex, EX, label, zoo } from './helpers.js';

test('label in the preferred language wins, then a regional variant, then an untagged label', () => {
  const o = zoo();
  o.add(label(ex('Cat'), 'Katze', 'de'));
  o.add(label(ex('Cat'), 'cat (plain)'));
  o.add(label(ex('Cat'), 'cat', 'en-GB'));
  assert.equal(displayName(ex('Dog'), [o]), 'dog');
  assert.equal(displayName(ex('Dog'), [o], 'fr'), 'chien');
  assert.equal(displayName(t.cls(ex('Cat')), [o], 'de'), 'Katze');
  assert.equal(displayName(ex('Cat'), [o], 'en'), 'cat');
  assert.equal(displayName(ex('Cat'), [o], 'es'), 'cat (plain)');
});

test('without a usable label the short form is used: CURIE, else local name', () => {
  const o = zoo();
  assert.equal(displayName(ex('Dog'), [o], 'es'), 'zoo:Dog');
  assert.equal(displayName('http://elsewhere.org/onto/Thing', [o]), 'Thing');
  assert.equal(displayName('http://www.w3.org/2002/07/owl#Thing', [o]), 'owl:Thing');
});

test('labels from imported ontologies count', () => {
  const o = new Ontology();
  const imported = new Ontology();
  imported.add(label(EX + '#Fish', 'fish'));
  assert.equal(displayName(EX + '#Fish', [o, imported]), 'fish');
});

test('short form: longest namespace, default prefix gives the bare name, unsafe locals fall back', () => {
  const prefixes = new Map([
    [':', 'http://a.org/'],
    ['ab:', 'http://a.org/b/'],
  ]);
  assert.equal(shortForm('http://a.org/b/C', prefixes), 'ab:C');
  assert.equal(shortForm('http://a.org/D', prefixes), 'D');
  assert.equal(shortForm('http://a.org/x/y', prefixes), 'y');
  assert.equal(localName('urn:isbn:123'), '123');
  assert.equal(localName('http://x.org/a#'), 'http://x.org/a#');
});
