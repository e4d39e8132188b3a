import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AxiomSet } from '../../src/model/axiom-set.js';
import { cls, subClassOf, type Axiom } from '../../src/model/terms.js';
import { at } from '../support/at.js';

const axiom = (n: number): Axiom => subClassOf(cls(`http://ex.org/set#A${n}`), cls(`http://ex.org/set#B${n % 7}`));

/** A small deterministic generator, so a failure replays. */
function lcg(seed: number): () => number {
  let x = seed;
  return () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

test('an AxiomSet behaves as a Set of the same axioms under random adds and removes (membership, size, insertion order)', () => {
  const pool = Array.from({ length: 3000 }, (_, i) => axiom(i));
  for (const seed of [1, 2, 3]) {
    const rnd = lcg(seed);
    const mine = new AxiomSet();
    const ref = new Set<Axiom>();
    for (let step = 0; step < 40_000; step++) {
      const a = at(pool, Math.floor(rnd() * pool.length));
      // Phases of growth and of shrinking exercise both resizing directions and hole squeezing.
      const removing = Math.floor(step / 5000) % 2 === 1 ? rnd() < 0.8 : rnd() < 0.2;
      if (removing) assert.equal(mine.delete(a), ref.delete(a));
      else {
        const had = ref.has(a);
        ref.add(a);
        assert.equal(mine.add(a), !had);
      }
      assert.equal(mine.size, ref.size);
    }
    for (const a of pool) assert.equal(mine.has(a), ref.has(a));
    assert.deepEqual([...mine], [...ref]);
  }
});

test('removing the axioms of an AxiomSet while iterating it visits each live axiom once, as a Set does', () => {
  const all = Array.from({ length: 500 }, (_, i) => axiom(10_000 + i));
  const set = new AxiomSet(all, all.length);
  const seen: Axiom[] = [];
  for (const a of set) {
    seen.push(a);
    set.delete(a);
    // Removing an axiom not yet visited means it is never visited.
    const ahead = all[all.indexOf(a) + 1];
    if (ahead !== undefined && all.indexOf(a) % 3 === 0) set.delete(ahead);
  }
  const expected = all.filter((_, i) => i === 0 || (i - 1) % 3 !== 0);
  assert.deepEqual(seen, expected);
  assert.equal(set.size, 0);
});
