// The dense structures of the saturation, the skipping of redundant transitive-closure derivations, the
// incremental taxonomy, the generator of bench/reasoner and the output of `athene classify`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  classAssertion,
  cls,
  namedIndividual,
  disjointClasses,
  equivalentClasses,
  objectIntersectionOf,
  objectProperty,
  objectPropertyCharacteristic,
  objectSomeValuesFrom,
  subClassOf,
  subPropertyChainOf,
  type Axiom,
} from '../../src/model/terms.js';
import { IntSet, IntStack } from '../../src/reasoner/int-set.js';
import { classify, ElReasoner, renderTaxonomy } from '../../src/reasoner/el-reasoner.js';
import { classifyAxioms } from '../../src/cli/classify.js';
import { generateElOntology, SYN_NS } from '../../bench/el-generator.js';
import { subsumes } from './support.js';
import { at } from '../support/at.js';

const E = 'http://e.org/';
const c = (n: string) => cls(E + n);

test('IntSet agrees with Set through growth, including 0 and large values', () => {
  const ours = new IntSet();
  const ref = new Set<number>();
  let x = 12345;
  for (let i = 0; i < 5000; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 1;
    const v = i % 7 === 0 ? i % 50 : x % 100000;
    assert.equal(ours.add(v), !ref.has(v));
    ref.add(v);
  }
  assert.equal(ours.size, ref.size);
  assert.deepEqual(
    [...ours.values()].sort((a, b) => a - b),
    [...ref].sort((a, b) => a - b),
  );
  for (let v = 0; v < 2000; v++) assert.equal(ours.has(v), ref.has(v));
  assert.ok(ours.has(0) === ref.has(0));
});

test('IntSet deletions agree with Set in every representation (list, hash table, bitset)', () => {
  const sizes: [number, number][] = [
    [6, 1000],
    [300, 1_000_000],
    [3000, 5000],
  ];
  for (const [count, range] of sizes) {
    const ours = new IntSet();
    const ref = new Set<number>();
    let x = 777;
    const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 1) % range;
    for (let i = 0; i < count; i++) {
      const v = next();
      ours.add(v);
      ref.add(v);
    }
    for (let i = 0; i < count; i++) {
      const v = i % 2 === 0 ? at([...ref], i % ref.size) : next();
      assert.equal(ours.delete(v), ref.delete(v), `delete ${v}`);
      if (i % 3 === 0) {
        const w = next();
        assert.equal(ours.add(w), !ref.has(w));
        ref.add(w);
      }
    }
    assert.equal(ours.size, ref.size);
    assert.deepEqual(
      [...ours.values()].sort((a, b) => a - b),
      [...ref].sort((a, b) => a - b),
    );
    for (const v of ref) assert.ok(ours.has(v));
    for (let i = 0; i < 2000; i++) {
      const v = next();
      assert.equal(ours.has(v), ref.has(v));
    }
  }
});

test('IntStack keeps pairs and triples across growth', () => {
  const s = new IntStack();
  for (let i = 0; i < 3000; i++) s.push3(i, -i, i * 2);
  assert.equal(s.length, 9000);
  assert.deepEqual([...s.data.subarray(8997, 9000)], [2999, -2999, 5998]);
  s.push2(7, 8);
  assert.deepEqual([...s.data.subarray(9000, 9002)], [7, 8]);
});

/** P0 -partOf-> P1 -partOf-> ... -partOf-> Pn, with partOf transitive. */
function partChain(n: number): Axiom[] {
  const partOf = objectProperty(E + 'partOf');
  const out: Axiom[] = [objectPropertyCharacteristic('TransitiveObjectProperty', partOf)];
  for (let i = 0; i < n; i++) out.push(subClassOf(c('P' + i), objectSomeValuesFrom(partOf, c('P' + (i + 1)))));
  return out;
}

test('transitive closures and chains over them are complete with the redundant steps skipped', () => {
  const partOf = objectProperty(E + 'partOf');
  const site = objectProperty(E + 'site');
  const region = objectProperty(E + 'region');
  const n = 25;
  const ax = [
    ...partChain(n),
    subPropertyChainOf([site, partOf], site), // absorbing: site∘partOf ⊑ site
    subPropertyChainOf([region, partOf], objectProperty(E + 'regionSite')), // not absorbing: region∘partOf ⊑ regionSite only
    subClassOf(c('F'), objectSomeValuesFrom(site, c('P0'))),
    subClassOf(c('R'), objectSomeValuesFrom(region, c('P0'))),
    subClassOf(objectSomeValuesFrom(site, c('P' + n)), c('G')),
    subClassOf(objectSomeValuesFrom(partOf, c('P' + n)), c('H')),
    subClassOf(objectSomeValuesFrom(objectProperty(E + 'regionSite'), c('P' + n)), c('K')),
    subClassOf(objectSomeValuesFrom(objectProperty(E + 'regionSite'), c('P1')), c('K1')),
  ];
  const res = classify(ax);
  assert.ok(subsumes(res, E + 'F', E + 'G'));
  assert.ok(subsumes(res, E + 'P0', E + 'H'));
  assert.ok(subsumes(res, E + 'P' + (n - 1), E + 'H'));
  assert.ok(!subsumes(res, E + 'P' + n, E + 'H'));
  // region∘partOf ⊑ regionSite is one step, so R reaches Pn only through the closure link P0 -partOf-> Pn,
  // which is derived by transitivity steps: the non-absorbing chain must still use such links.
  assert.ok(subsumes(res, E + 'R', E + 'K1'));
  assert.ok(subsumes(res, E + 'R', E + 'K'));
  // The same with R's link in place before the closure is derived (the chain then fires on the new
  // partOf links rather than on R's link): added incrementally, as the roles are already known.
  const [transitive, ...steps] = partChain(n);
  assert.ok(transitive);
  const late = new ElReasoner(ax.filter((x) => !steps.includes(x)));
  assert.ok(!subsumes(late.classify(), E + 'R', E + 'K'));
  late.add(steps);
  assert.ok(subsumes(late.classify(), E + 'R', E + 'K'));
  assert.ok(ax.includes(transitive));
  const reasoner = new ElReasoner(ax);
  reasoner.classify();
  // The closure has n(n+1)/2 partOf links; not composing absorbed links again still derives each one.
  assert.ok(reasoner.statistics().links >= (n * (n + 1)) / 2);
});

test('a link absorbed by one transitive role still composes with another; composed existentials still count', () => {
  const partOf = objectProperty(E + 'partOf');
  const from = objectProperty(E + 'from');
  const site = objectProperty(E + 'site');
  const ax = [
    objectPropertyCharacteristic('TransitiveObjectProperty', partOf),
    objectPropertyCharacteristic('TransitiveObjectProperty', from),
    subPropertyChainOf([site, partOf], site),
    subPropertyChainOf([site, from], site),
    subClassOf(c('F'), objectSomeValuesFrom(site, c('P0'))),
    subClassOf(c('P0'), objectSomeValuesFrom(partOf, c('P1'))),
    subClassOf(c('P1'), objectSomeValuesFrom(from, c('D1'))),
    subClassOf(c('D1'), objectSomeValuesFrom(partOf, c('P2'))),
    subClassOf(c('P2'), objectSomeValuesFrom(from, c('D2'))),
    equivalentClasses([c('G'), objectSomeValuesFrom(site, c('D2'))]),
    // ∃site.D2 reaches F by composition first; H needs it decomposed only through G's definition
    equivalentClasses([c('H'), objectSomeValuesFrom(site, objectSomeValuesFrom(from, c('D2')))]),
    subClassOf(c('D2'), c('X')),
    equivalentClasses([c('K'), objectSomeValuesFrom(site, c('X'))]),
  ];
  const res = classify(ax);
  assert.ok(subsumes(res, E + 'F', E + 'G'));
  assert.ok(subsumes(res, E + 'F', E + 'H'));
  assert.ok(subsumes(res, E + 'F', E + 'K'));
  assert.ok(subsumes(res, E + 'G', E + 'K'));
  assert.ok(!subsumes(res, E + 'G', E + 'H'));
});

test('the generator is deterministic, in EL, with unsatisfiable classes', () => {
  const a = generateElOntology(2000, 7);
  const b = generateElOntology(2000, 7);
  assert.deepEqual(a, b);
  assert.notDeepEqual(generateElOntology(2000, 8), a);
  const res = classify(a);
  assert.ok(res.complete);
  assert.ok(res.consistent);
  assert.deepEqual(res.unsatisfiable, [`${SYN_NS}C2002`, `${SYN_NS}C2003`]);
  assert.ok(a.some((x) => x.kind === 'SubPropertyChainOf'));
  assert.ok(a.some((x) => x.kind === 'EquivalentClasses'));
});

test('incremental classification (taxonomy reused where nothing changed) equals a full run, step by step', () => {
  const all = generateElOntology(1500, 3);
  const logical = all.filter((x) => x.kind !== 'Declaration');
  const declarations = all.filter((x) => x.kind === 'Declaration');
  const inc = new ElReasoner(declarations);
  inc.classify();
  const chunk = Math.ceil(logical.length / 6);
  for (let i = 0; i < logical.length; i += chunk) {
    const sofar = [...declarations, ...logical.slice(0, i + chunk)];
    inc.add(logical.slice(i, i + chunk));
    assert.equal(renderTaxonomy(inc.classify()), renderTaxonomy(classify(sofar)), `after ${i + chunk} axioms`);
  }
  // Additions that make a class equivalent to another, unsatisfiable, and that reach a whole subtree.
  const more = [
    equivalentClasses([cls(SYN_NS + 'C10'), cls(SYN_NS + 'C11')]),
    disjointClasses([cls(SYN_NS + 'C20'), cls(SYN_NS + 'C21')]),
    subClassOf(cls(SYN_NS + 'C22'), objectIntersectionOf([cls(SYN_NS + 'C20'), cls(SYN_NS + 'C21')])),
    subClassOf(cls(SYN_NS + 'C1'), cls(SYN_NS + 'C5')),
    classAssertion(cls(SYN_NS + 'C30'), namedIndividual(E + 'a')),
  ];
  for (let i = 0; i < more.length; i++) {
    inc.add([at(more, i)]);
    assert.equal(renderTaxonomy(inc.classify()), renderTaxonomy(classify([...all, ...more.slice(0, i + 1)])), `after extra ${i}`);
  }
  inc.remove([at(more, 3), at(logical, 5)]);
  const kept = [...all, ...more].filter((x) => x !== more[3] && x !== logical[5]);
  assert.equal(renderTaxonomy(inc.classify()), renderTaxonomy(classify(kept)));
});

test('athene classify output: taxonomy on stdout, notes on stderr', async () => {
  const ok = await classifyAxioms([subClassOf(c('A'), c('B'))]);
  assert.equal(ok.stdout, `SubClassOf(<${E}A> <${E}B>)\nSubClassOf(<${E}B> <http://www.w3.org/2002/07/owl#Thing>)\n`);
  assert.equal(ok.stderr, '');
  const bad = await classifyAxioms([
    subClassOf(c('A'), cls('http://www.w3.org/2002/07/owl#Nothing')),
    classAssertion(c('A'), namedIndividual(E + 'a')),
  ]);
  assert.equal(bad.stdout, '');
  assert.equal(bad.stderr, 'consistent: false\n');
  const partial = await classifyAxioms([objectPropertyCharacteristic('FunctionalObjectProperty', objectProperty(E + 'r'))]);
  assert.match(partial.stderr, /^complete: false \(1 axiom/);
  const told = await classifyAxioms([subClassOf(c('A'), objectSomeValuesFrom(objectProperty(E + 'r'), c('B')))], 'structural');
  assert.match(told.stderr, /complete: false/);
});
