// Strongly connected components, as the import-cycle report and the subclass-cycle check find them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stronglyConnectedComponents } from '../../src/util/strongly-connected.js';
import { at } from '../support/at.js';

const graph = (edges: Record<string, string[]>) => (n: string) => edges[n] ?? [];

test('every node lands in exactly one component; cycles group, the rest are singletons, completed deepest first', () => {
  // a → b → c → a is one cycle; c → d → e → d another below it; f stands alone
  const successors = graph({ a: ['b'], b: ['c'], c: ['a', 'd'], d: ['e'], e: ['d'] });
  const components = stronglyConnectedComponents(['a', 'f'], successors);
  assert.deepEqual(
    components.map((c) => [...c].sort()),
    [['d', 'e'], ['a', 'b', 'c'], ['f']],
  );
});

test('a self loop is a singleton component: the caller decides whether it is a cycle', () => {
  assert.deepEqual(stronglyConnectedComponents(['a'], graph({ a: ['a'] })), [['a']]);
});

test('nodes reached from an earlier root are not visited again as roots', () => {
  const components = stronglyConnectedComponents(['a', 'b', 'a'], graph({ a: ['b'], b: ['a'] }));
  assert.deepEqual(
    components.map((c) => [...c].sort()),
    [['a', 'b']],
  );
});

test('a chain far deeper than the call stack allows is walked without overflowing', () => {
  const depth = 200_000;
  const successors = (n: number) => (n + 1 < depth ? [n + 1] : [0]);
  const components = stronglyConnectedComponents([0], successors);
  assert.equal(components.length, 1);
  assert.equal(at(components, 0).length, depth);
});

test('step runs at every step of the walk, so a caller can stop it', () => {
  let steps = 0;
  const successors = graph({ a: ['b'], b: ['c'], c: [] });
  stronglyConnectedComponents(['a'], successors, () => steps++);
  assert.ok(steps >= 3, `one step at least per node (${steps})`);
  assert.throws(
    () =>
      stronglyConnectedComponents(['a'], successors, () => {
        throw new Error('budget spent');
      }),
    /budget spent/,
  );
});
