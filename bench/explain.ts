// bench/explain: one justification of a deep subsumption in a generated EL ontology of 50,000 classes
// (a random DAG of named superclasses, existential restrictions with domain-like definitions, a few
// role inclusions), then up to three justifications of the same goal. Target: one justification < 1 s.
// Usage: npm run build && node dist/bench/explain.js [classes]

import type { Axiom, Class, ObjectProperty } from '../src/model/terms.js';
import {
  cls,
  equivalentClasses,
  objectIntersectionOf,
  objectProperty,
  objectSomeValuesFrom,
  subClassOf,
  subObjectPropertyOf,
} from '../src/model/terms.js';
import { classify } from '../src/reasoner/el-reasoner.js';
import { justify } from '../src/reasoner/explain/explain.js';
import { ModuleExtractor } from '../src/reasoner/explain/module.js';
import { entry } from './el-generator.js';

const NS = 'http://bench.example/el#';

/** A small deterministic PRNG (mulberry32), so every run explains the same ontology. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

function generate(n: number): { axioms: Axiom[]; classes: Class[] } {
  const random = rng(42);
  const pick = (below: number) => Math.floor(random() * below);
  const classes = Array.from({ length: n }, (_, i) => cls(`${NS}C${i}`));
  const roles: ObjectProperty[] = Array.from({ length: 20 }, (_, i) => objectProperty(`${NS}r${i}`));
  const axioms: Axiom[] = [];
  for (let i = 1; i < roles.length; i++) if (random() < 0.5) axioms.push(subObjectPropertyOf(entry(roles, i), entry(roles, pick(i))));
  for (let i = 1; i < n; i++) {
    const c = entry(classes, i);
    axioms.push(subClassOf(c, entry(classes, pick(i))));
    if (random() < 0.3) axioms.push(subClassOf(c, entry(classes, pick(i))));
    if (random() < 0.2) axioms.push(subClassOf(c, objectSomeValuesFrom(entry(roles, pick(roles.length)), entry(classes, pick(n)))));
    if (random() < 0.05) {
      const r = entry(roles, pick(roles.length));
      axioms.push(
        equivalentClasses([c, objectIntersectionOf([entry(classes, pick(i)), objectSomeValuesFrom(r, entry(classes, pick(n)))])]),
      );
    }
  }
  return { axioms, classes };
}

/** The deepest class (most told ancestors) among a sample, and its most distant told ancestor. */
function deepGoal(axioms: readonly Axiom[], classes: readonly Class[]): [Class, Class] {
  const parents = new Map<Class, Class[]>();
  for (const a of axioms) {
    if (a.kind === 'SubClassOf' && a.sub.kind === 'Class' && a.sup.kind === 'Class') {
      const list = parents.get(a.sub) ?? [];
      list.push(a.sup);
      parents.set(a.sub, list);
    }
  }
  let best: [Class, Class, number] = [entry(classes, 1), entry(classes, 0), 0];
  for (const start of classes.slice(-199).reverse()) {
    let c = start;
    let depth = 0;
    for (let up = parents.get(c)?.[0]; up !== undefined; up = parents.get(c)?.[0]) {
      c = up;
      depth++;
    }
    if (depth > best[2]) best = [start, c, depth];
  }
  return [best[0], best[1]];
}

async function time<T>(f: () => T | Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await f();
  return [value, performance.now() - start];
}

const n = Number(process.argv[2] ?? 50000);
const { axioms, classes } = generate(n);
const [sub, sup] = deepGoal(axioms, classes);
const goal = subClassOf(sub, sup);
console.log(`ontology: ${n} classes, ${axioms.length} axioms; goal ${sub.iri.slice(NS.length)} ⊑ ${sup.iri.slice(NS.length)}`);

const [, classifyMs] = await time(() => classify(axioms));
console.log(`full classification (for scale): ${classifyMs.toFixed(0)} ms`);

const [one, oneMs] = await time(() => justify(axioms, goal, 1));
console.log(
  `one justification: ${oneMs.toFixed(1)} ms (size ${one.justifications[0]?.length}, module ${one.moduleSize} axioms, ${one.reasonerCalls} reasoner calls)`,
);

const [extractor, indexMs] = await time(() => new ModuleExtractor(axioms));
const [, searchMs] = await time(() => justify(axioms, goal, 1, { extractor }));
console.log(`  of which: module index ${indexMs.toFixed(1)} ms, module + search ${searchMs.toFixed(1)} ms`);

const [three, threeMs] = await time(() => justify(axioms, goal, 3, { extractor }));
console.log(
  `up to three justifications (prebuilt module index): ${threeMs.toFixed(1)} ms (found ${three.justifications.length}, ${three.reasonerCalls} reasoner calls)`,
);
console.log(oneMs < 1000 ? 'PASS: one justification under 1 s' : 'FAIL: one justification took 1 s or more');
