// The taxonomy kept between classifications is updated in place, only where subsumers changed. After any
// sequence of additions and removals, every part of it a caller walks (members, parents, children, the
// node of each class, the bottom node's parents, the types of individuals) must equal a full run's.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  classAssertion,
  cls,
  disjointClasses,
  equivalentClasses,
  namedIndividual,
  objectIntersectionOf,
  objectProperty,
  objectSomeValuesFrom,
  subClassOf,
  type Axiom,
} from '../../src/model/terms.js';
import { classify, ElReasoner, type ElResult } from '../../src/reasoner/el-reasoner.js';
import type { TaxonomyNode } from '../../src/reasoner/taxonomy.js';
import { generateElOntology, SYN_NS } from '../../bench/el-generator.js';
import { at } from '../support/at.js';

const c = (n: number) => cls(`${SYN_NS}C${n}`);
const e = (n: string) => cls(`http://e.org/${n}`);
const findingSite = objectProperty(`${SYN_NS}findingSite`);
const individuals = [0, 1, 2].map((i) => namedIndividual(`http://e.org/i${i}`));

/** Everything a caller can read from a result, as text that does not depend on node order or identity. */
function describe(res: ElResult): string {
  const name = (n: TaxonomyNode) => n.representative;
  const names = (ns: readonly TaxonomyNode[]) => ns.map(name).sort().join(' ');
  const lines: string[] = [`consistent ${res.consistent}`, `unsatisfiable ${res.unsatisfiable.join(' ')}`];
  for (const n of res.taxonomy.nodes) {
    lines.push(`node ${n.members.join(' ')} | parents ${names(n.parents)} | children ${names(n.children)}`);
    for (const m of n.members) assert.equal(res.taxonomy.nodeOf(m), n, `nodeOf(${m})`);
  }
  for (const ind of individuals) lines.push(`types ${ind.iri} ${names(res.types(ind))} | ${names(res.types(ind, false))}`);
  return lines.sort().join('\n');
}

/** A deterministic sequence of numbers in [0, n). */
function picker(seed: number): (n: number) => number {
  let x = seed;
  return (n) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
}

test('after a sequence of additions and removals the taxonomy, its children lists and the types equal a full run', () => {
  const generated = generateElOntology(1200, 11);
  const classes = generated.filter((a) => a.kind === 'Declaration' && a.entity.kind === 'Class').length;
  const pick = picker(5);
  const some = () => pick(classes);
  // A diamond: an edit between its sides changes the direct parents of the classes below without giving
  // them a new subsumer.
  const diamond = [
    subClassOf(e('Below'), e('Left')),
    subClassOf(e('Below'), e('Right')),
    subClassOf(e('Deeper'), e('Below')),
    subClassOf(e('Left'), c(some())),
    subClassOf(e('Right'), c(some())),
  ];
  const base = [...generated, ...diamond];
  // Edits of every effect: new subsumptions deep in the hierarchy, merges into one node, unsatisfiable
  // classes, existentials reaching definitions, assertions, and a class no other axiom mentions.
  const edits: Axiom[] = [
    subClassOf(e('Left'), e('Right')),
    subClassOf(c(some()), c(some())),
    equivalentClasses([c(some()), c(some())]),
    subClassOf(c(some()), objectSomeValuesFrom(findingSite, c(some()))),
    disjointClasses([c(7), c(8)]),
    subClassOf(c(some()), objectIntersectionOf([c(7), c(8)])),
    classAssertion(c(some()), at(individuals, 0)),
    classAssertion(objectSomeValuesFrom(findingSite, c(some())), at(individuals, 1)),
    subClassOf(e('Fresh'), c(some())),
    equivalentClasses([c(3), c(some())]),
    classAssertion(c(some()), at(individuals, 2)),
  ];
  const told = generated.filter((a) => a.kind === 'SubClassOf' && a.sup.kind === 'Class');
  const reasoner = new ElReasoner(base);
  const current = new Set<Axiom>(base);
  const check = (label: string) => {
    assert.equal(describe(reasoner.classify()), describe(classify([...current])), label);
  };
  check('initial');
  const removedTold: Axiom[] = [];
  for (let step = 0; step < 24; step++) {
    const edit = at(edits, step % edits.length);
    const undo = step % 3 === 2;
    let label: string;
    if (undo && current.has(edit)) {
      reasoner.remove([edit]);
      current.delete(edit);
      label = `step ${step}: removed edit ${step % edits.length}`;
    } else if (step % 4 === 3) {
      const gone = at(told, pick(told.length));
      reasoner.remove([gone]);
      current.delete(gone);
      removedTold.push(gone);
      label = `step ${step}: removed a told subsumption`;
    } else {
      const back = removedTold.pop();
      const added = back !== undefined && step % 5 === 0 ? [edit, back] : [edit];
      reasoner.add(added);
      for (const a of added) current.add(a);
      label = `step ${step}: added ${added.length}`;
    }
    check(label);
  }
});
