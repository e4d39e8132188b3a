// The intern table holds every node of the thread: leaves and compounds must stay distinct across kinds,
// and identical across the table's growth, or `===` on model nodes would lie.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as f from '../../src/model/terms.js';

const EX = 'http://example.org/intern#';

test('nodes stay canonical while the table grows many times over', () => {
  const n = 40_000;
  const first = [];
  for (let i = 0; i < n; i++) first.push(f.subClassOf(f.cls(EX + 'C' + i), f.cls(EX + 'C' + (i >> 1))));
  for (let i = 0; i < n; i++) {
    const again = f.subClassOf(f.cls(EX + 'C' + i), f.cls(EX + 'C' + (i >> 1)));
    assert.equal(again, first[i]);
  }
  assert.equal(new Set(first).size, n, 'distinct axioms stay distinct');
});

test('one IRI, one lexical form: distinct nodes per kind, per datatype and per language', () => {
  const iri = EX + 'x';
  const nodes = [
    f.cls(iri),
    f.objectProperty(iri),
    f.dataProperty(iri),
    f.annotationProperty(iri),
    f.namedIndividual(iri),
    f.datatype(iri),
    f.iriNode(iri),
    f.variable(iri),
    f.anonymousIndividual(iri),
  ];
  assert.equal(new Set(nodes).size, nodes.length);
  const literals = [f.literal(iri), f.literal(iri, EX + 'dt'), f.literal(iri, undefined, 'en'), f.literal(iri, undefined, 'de')];
  assert.equal(new Set(literals).size, literals.length);
  assert.equal(f.literal(iri, undefined, 'EN'), literals[2], 'language tags compare lower-cased');
  assert.equal(f.cls(iri), nodes[0]);
  assert.equal(f.iriNode(iri), nodes[6]);
});

test('a leaf keeps an equal copy of a string sliced from a larger text', () => {
  const text = 'x'.repeat(1000) + '"a literal long enough to be a slice"' + 'y'.repeat(1000);
  const lex = text.slice(1001, 1036);
  const l = f.literal(lex, EX + 'sliced');
  assert.equal(l.lex, lex);
  assert.equal(f.ownString(lex), lex);
  assert.equal(f.literal(f.ownString(lex), EX + 'sliced'), l);
});
