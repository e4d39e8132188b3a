// The six materialization categories of TOOLS.md 3.8, in their canonical order (results, digests and files
// always list categories in this order, whatever order the caller named them), and which of them a reasoner
// may materialize: a category needs `supported` evidence in the reasoner's exact capability profile for the
// constructs its axioms are made of, and an enumerator over that reasoner's answers.

import type { ReasonerId, ReasonerInfo } from '../reasoner/registry.js';

export const CATEGORIES = [
  'subclass_axioms',
  'equivalent_class_axioms',
  'class_assertions',
  'property_hierarchy_axioms',
  'object_property_assertions',
  'data_property_assertions',
] as const;

export type Category = (typeof CATEGORIES)[number];

/** Profile rows (any one, status `supported`) that vouch for each category's axioms. */
const EVIDENCE: Readonly<Record<Category, readonly string[]>> = {
  subclass_axioms: ['SubClassOf', 'SubClassOf(named named)'],
  equivalent_class_axioms: ['EquivalentClasses', 'EquivalentClasses(named ...)'],
  class_assertions: ['ClassAssertion', 'ClassAssertion(named)'],
  property_hierarchy_axioms: ['SubObjectPropertyOf'],
  object_property_assertions: ['ObjectPropertyAssertion'],
  data_property_assertions: ['DataPropertyAssertion'],
};

/**
 * Categories this server can enumerate from each reasoner's answers (no installed reasoner reasons with
 * data property assertions, so that category has no enumerator).
 */
const ENUMERATED: Readonly<Record<ReasonerId, readonly Category[]>> = {
  el: ['subclass_axioms', 'equivalent_class_axioms', 'class_assertions', 'property_hierarchy_axioms', 'object_property_assertions'],
  structural: ['subclass_axioms', 'equivalent_class_axioms', 'class_assertions'],
  konclude: ['subclass_axioms', 'equivalent_class_axioms', 'class_assertions', 'object_property_assertions'],
  auto: ['subclass_axioms', 'equivalent_class_axioms', 'class_assertions', 'object_property_assertions'],
};

export interface CategorySupport {
  readonly category: Category;
  readonly supported: boolean;
  /** Why not, or which profile row vouches for it. */
  readonly evidence: string;
}

export function categorySupport(r: ReasonerInfo, category: Category): CategorySupport {
  const row = r.owl.find((x) => EVIDENCE[category].includes(x.construct) && x.status === 'supported');
  if (row === undefined) {
    return {
      category,
      supported: false,
      evidence: `${r.name} has no supported evidence for ${EVIDENCE[category].join(' / ')} in its profile`,
    };
  }
  if (!ENUMERATED[r.id].includes(category)) {
    return { category, supported: false, evidence: `this server does not enumerate ${category} from ${r.name}'s answers` };
  }
  return { category, supported: true, evidence: `${row.construct}: ${row.evidence}` };
}

/** The categories in canonical order. */
export function canonicalOrder(categories: readonly Category[]): Category[] {
  return CATEGORIES.filter((c) => categories.includes(c));
}
