// The told-only reasoner: the asserted hierarchy between named classes (SubClassOf and the named members of
// EquivalentClasses), asserted types, and nothing else. Same result shape as the EL reasoner; every other
// logical axiom is reported as unsupported, so its answer is complete only for purely told ontologies.

import type { Axiom, Class } from '../model/terms.js';
import { declaration, equivalentClasses, isLogicalAxiom, otherKinds, ANY_AXIOM } from '../model/terms.js';
import { signature } from '../model/walk.js';
import { classify, type ElOptions, type ElResult } from './el-reasoner.js';

const SAMPLE_SIZE = 20;

export function classifyStructural(axioms: Iterable<Axiom>, options?: ElOptions): ElResult {
  const told: Axiom[] = [];
  const ignored: Axiom[] = [];
  for (const a of axioms) {
    const kept = toldPart(a);
    if (kept !== null) told.push(kept);
    if (kept === a || !isLogicalAxiom(a)) continue;
    ignored.push(a);
    for (const e of signature(a)) if (e.kind === 'Class' || e.kind === 'NamedIndividual') told.push(declaration(e));
  }
  const result = classify(told, options);
  const unsupported = [...ignored, ...result.unsupported.sample];
  const count = ignored.length + result.unsupported.count;
  return { ...result, unsupported: { count, sample: unsupported.slice(0, SAMPLE_SIZE) }, complete: count === 0 };
}

/** The told part of an axiom: the axiom itself, its named-class core, or null. */
function toldPart(a: Axiom): Axiom | null {
  switch (a.kind) {
    case 'Declaration':
      return a;
    case 'SubClassOf':
      return a.sub.kind === 'Class' && a.sup.kind === 'Class' ? a : null;
    case 'EquivalentClasses': {
      const named = a.classes.filter((c): c is Class => c.kind === 'Class');
      if (named.length === a.classes.length) return a;
      return named.length >= 2 ? equivalentClasses(named) : null;
    }
    case 'ClassAssertion':
      return a.cls.kind === 'Class' ? a : null;
    default:
      otherKinds(a, ANY_AXIOM);
      return null;
  }
}
