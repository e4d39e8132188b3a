// Known-profile fixtures: an EL ontology outside QL, a QL ontology outside EL, an RL ontology, and one
// ontology breaking each OWL 2 DL global restriction.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFunctional } from '../../src/model/formats/functional/reader.js';
import { checkProfile } from '../../src/model/profiles/check.js';
import type { OwlProfile } from '../../src/model/profiles/report.js';

function load(name: string) {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return readFunctional(readFileSync(path.join(dir, 'test/fixtures/profiles', name), 'utf8'));
}

function verdicts(name: string): Record<OwlProfile, boolean> {
  const o = load(name);
  const out = {} as Record<OwlProfile, boolean>;
  for (const p of ['DL', 'EL', 'QL', 'RL'] as const) out[p] = checkProfile([o], p, o).inProfile;
  return out;
}

test('an EL ontology with transitivity, chains and qualified existentials on the left is not QL nor RL', () => {
  assert.deepEqual(verdicts('el-not-ql.ofn'), { DL: true, EL: true, QL: false, RL: false });
  const o = load('el-not-ql.ofn');
  const ql = new Set(checkProfile([o], 'QL', o).violations.map((v) => v.kind));
  assert.deepEqual([...ql].sort(), ['illegal_axiom', 'non_subclass_expression']);
});

test('a QL ontology with inverses and complements is not EL', () => {
  assert.deepEqual(verdicts('ql-not-el.ofn'), { DL: true, EL: false, QL: true, RL: false });
  const o = load('ql-not-el.ofn');
  const el = new Set(checkProfile([o], 'EL', o).violations.map((v) => v.kind));
  assert.deepEqual([...el].sort(), ['illegal_axiom', 'illegal_class_expression', 'object_property_inverse']);
});

test('an RL ontology with universals, functional properties and max-0 cardinality is RL only', () => {
  assert.deepEqual(verdicts('rl.ofn'), { DL: true, EL: false, QL: false, RL: true });
});

test('an ontology breaking every DL global restriction reports each of them', () => {
  const o = load('dl-violations.ofn');
  const r = checkProfile([o], 'DL', o);
  assert.equal(r.inProfile, false);
  assert.ok(r.violations.every((v) => v.owned && v.ontology === 'http://example.org/bad'));
  assert.deepEqual([...new Set(r.violations.map((v) => v.kind))].sort(), [
    'anonymous_individual_cycle',
    'builtin_datatype_defined',
    'datatype_definition_cycle',
    'defined_datatype_in_restriction',
    'illegal_punning',
    'irregular_property_hierarchy',
    'non_simple_property_in_asymmetric',
    'non_simple_property_in_cardinality',
    'non_simple_property_in_disjoint',
    'non_simple_property_in_functional',
    'non_simple_property_in_has_self',
    'non_simple_property_in_inverse_functional',
    'non_simple_property_in_irreflexive',
    'reserved_vocabulary',
    'top_data_property_as_subproperty',
    'undeclared_entity',
  ]);
});
