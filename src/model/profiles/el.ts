// OWL 2 EL (OWL 2 Profiles §2): existential restrictions, intersections, nominals of one individual, self
// restrictions and has-value; no inverse properties, no anonymous individuals; the datatypes of §2.2.1.
// Its class expression grammar does not depend on the position, so one walk judges an axiom.

import type { AxiomKind, ClassExpression, Node } from '../terms.js';
import type { Ontology } from '../ontology.js';
import type { ClosureFacts } from './closure-facts.js';
import { keyOf, type PropertyKey } from './property-hierarchy.js';
import { checkLeaves, EL_QL_DATATYPES, illegalAxiom, NON_LOGICAL, type LeafRules, type ProfileGrammar } from './grammar.js';
import type { ViolationSink } from './report.js';

const EL_AXIOMS: ReadonlySet<AxiomKind> = new Set<AxiomKind>([
  ...NON_LOGICAL,
  'SubClassOf',
  'EquivalentClasses',
  'DisjointClasses',
  'SubObjectPropertyOf',
  'SubPropertyChainOf',
  'EquivalentObjectProperties',
  'ObjectPropertyDomain',
  'ObjectPropertyRange',
  'ReflexiveObjectProperty',
  'TransitiveObjectProperty',
  'SubDataPropertyOf',
  'EquivalentDataProperties',
  'DataPropertyDomain',
  'DataPropertyRange',
  'FunctionalDataProperty',
  'DatatypeDefinition',
  'HasKey',
  'SameIndividual',
  'DifferentIndividuals',
  'ClassAssertion',
  'ObjectPropertyAssertion',
  'DataPropertyAssertion',
  'NegativeObjectPropertyAssertion',
  'NegativeDataPropertyAssertion',
]);

const EL_FORBIDDEN_CLASS_EXPRESSIONS = new Set<string>([
  'ObjectUnionOf',
  'ObjectComplementOf',
  'ObjectAllValuesFrom',
  'ObjectMinCardinality',
  'ObjectMaxCardinality',
  'ObjectExactCardinality',
  'DataAllValuesFrom',
  'DataMinCardinality',
  'DataMaxCardinality',
  'DataExactCardinality',
]);

const RULES: LeafRules = {
  profile: 'EL',
  datatypes: EL_QL_DATATYPES,
  anonymousIndividuals: false,
  inverseProperties: false,
  dataRange: (n: Node) => {
    if (n.kind === 'DataIntersectionOf') return null;
    if (n.kind === 'DataOneOf') return n.literals.length === 1 ? null : 'data_one_of_multiple_literals';
    return 'illegal_data_range';
  },
  classExpression: (n: Node) => {
    if (n.kind === 'ObjectOneOf') return n.individuals.length === 1 ? null : 'object_one_of_multiple_individuals';
    return EL_FORBIDDEN_CLASS_EXPRESSIONS.has(n.kind) ? 'illegal_class_expression' : null;
  },
};

export const EL: ProfileGrammar = {
  profile: 'EL',
  check(a, o, sink) {
    if (!EL_AXIOMS.has(a.kind)) return illegalAxiom(a, o, sink, 'EL');
    if (NON_LOGICAL.has(a.kind)) return;
    checkLeaves(a, o, sink, RULES);
  },
};

/**
 * The EL restriction on ranges and chains (Profiles §2.2.6): when a chain P1 … Pn implies P and a range C is
 * imposed on P (a range axiom on P or on a super-property of it), C must also be a range of Pn. Checked
 * structurally: C must be a told range of Pn or of a super-property of Pn.
 */
export function checkElChainRanges(closure: readonly Ontology[], facts: ClosureFacts, sink: ViolationSink): void {
  if (facts.hierarchy.chains.length === 0) return;
  const ranges = new Map<PropertyKey, Set<ClassExpression>>();
  for (const o of closure) {
    for (const a of o.axiomsOfKind('ObjectPropertyRange')) {
      const k = keyOf(a.property);
      let s = ranges.get(k);
      if (s === undefined) ranges.set(k, (s = new Set()));
      s.add(a.range);
    }
  }
  const rangesOf = (k: PropertyKey) => {
    const out = new Set<ClassExpression>();
    for (const sup of facts.hierarchy.supers(k)) for (const c of ranges.get(sup) ?? []) out.add(c);
    return out;
  };
  for (const { axiom, ontology } of facts.hierarchy.chains) {
    const lastLink = axiom.chain[axiom.chain.length - 1];
    if (lastLink === undefined || axiom.chain.length < 2) continue;
    const imposed = rangesOf(keyOf(axiom.sup));
    if (imposed.size === 0) continue;
    const last = rangesOf(keyOf(lastLink));
    for (const c of imposed) {
      if (!last.has(c)) {
        sink.add(
          ontology,
          'chain_range_not_on_last_property',
          `Range ${sink.expr(c)} of ${sink.expr(axiom.sup)} is not a range of the chain's last property (OWL 2 EL §2.2.6).`,
          axiom,
        );
      }
    }
  }
}
