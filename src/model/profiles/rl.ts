// OWL 2 RL (OWL 2 Profiles §4): separate grammars for sub-class, super-class and equivalent-class
// positions (owl:Thing in none of them), no reflexivity and no disjoint unions; the datatype map without
// owl:real and owl:rational; data ranges are datatypes and their intersections.

import type { Axiom, AxiomKind, ClassExpression } from '../terms.js';
import type { Ontology } from '../ontology.js';
import { OWL_THING } from '../vocab.js';
import {
  checkLeaves,
  illegalAxiom,
  intersectionsOnly,
  NON_LOGICAL,
  positionCheck,
  RL_DATATYPES,
  type LeafRules,
  type ProfileGrammar,
} from './grammar.js';
import type { ViolationSink } from './report.js';
import { unreachable } from '../../util/unreachable.js';
import { otherKinds, ANY_AXIOM, ANY_COMPOUND } from '../terms.js';

const RL_FORBIDDEN_AXIOMS: ReadonlySet<AxiomKind> = new Set<AxiomKind>(['DisjointUnion', 'ReflexiveObjectProperty', 'DLSafeRule']);

const isThing = (c: ClassExpression) => c.kind === 'Class' && c.iri === OWL_THING;

export function rlSub(c: ClassExpression): boolean {
  switch (c.kind) {
    case 'Class':
      return c.iri !== OWL_THING;
    case 'ObjectIntersectionOf':
    case 'ObjectUnionOf':
      return c.operands.every(rlSub);
    case 'ObjectOneOf':
    case 'ObjectHasValue':
    case 'DataSomeValuesFrom':
    case 'DataHasValue':
      return true;
    case 'ObjectSomeValuesFrom':
      return isThing(c.filler) || rlSub(c.filler);
    default:
      otherKinds(c, ANY_COMPOUND);
      return false;
  }
}

export function rlSuper(c: ClassExpression): boolean {
  switch (c.kind) {
    case 'Class':
      return c.iri !== OWL_THING;
    case 'ObjectIntersectionOf':
      return c.operands.every(rlSuper);
    case 'ObjectComplementOf':
      return rlSub(c.operand);
    case 'ObjectAllValuesFrom':
      return rlSuper(c.filler);
    case 'ObjectHasValue':
    case 'DataAllValuesFrom':
    case 'DataHasValue':
      return true;
    case 'ObjectMaxCardinality':
      return c.cardinality <= 1 && (isThing(c.filler) || rlSub(c.filler));
    case 'DataMaxCardinality':
      return c.cardinality <= 1;
    case 'ObjectMinCardinality':
    case 'ObjectExactCardinality':
    case 'DataMinCardinality':
    case 'DataExactCardinality':
    case 'ObjectUnionOf':
    case 'ObjectOneOf':
    case 'ObjectSomeValuesFrom':
    case 'ObjectHasSelf':
    case 'DataSomeValuesFrom':
      return false;
    default:
      return unreachable(c);
  }
}

export function rlEquivalent(c: ClassExpression): boolean {
  switch (c.kind) {
    case 'Class':
      return c.iri !== OWL_THING;
    case 'ObjectIntersectionOf':
      return c.operands.every(rlEquivalent);
    case 'ObjectHasValue':
    case 'DataHasValue':
      return true;
    default:
      otherKinds(c, ANY_COMPOUND);
      return false;
  }
}

const RULES: LeafRules = {
  profile: 'RL',
  datatypes: RL_DATATYPES,
  anonymousIndividuals: true,
  inverseProperties: true,
  dataRange: intersectionsOnly,
};

function positions(a: Axiom, o: Ontology, sink: ViolationSink): void {
  const sub = positionCheck('RL', 'sub-class', rlSub, a, o, sink);
  const sup = positionCheck('RL', 'super-class', rlSuper, a, o, sink);
  switch (a.kind) {
    case 'SubClassOf':
      sub(a.sub);
      sup(a.sup);
      return;
    case 'EquivalentClasses':
      a.classes.forEach(positionCheck('RL', 'equivalent-class', rlEquivalent, a, o, sink));
      return;
    case 'DisjointClasses':
      a.classes.forEach(sub);
      return;
    case 'ObjectPropertyDomain':
      sup(a.domain);
      return;
    case 'ObjectPropertyRange':
      sup(a.range);
      return;
    case 'DataPropertyDomain':
      sup(a.domain);
      return;
    case 'ClassAssertion':
      sup(a.cls);
      return;
    case 'HasKey':
      sub(a.cls);
      return;
    default:
      otherKinds(a, ANY_AXIOM);
  }
}

export const RL: ProfileGrammar = {
  profile: 'RL',
  check(a, o, sink) {
    if (RL_FORBIDDEN_AXIOMS.has(a.kind)) return illegalAxiom(a, o, sink, 'RL');
    if (NON_LOGICAL.has(a.kind)) return;
    positions(a, o, sink);
    checkLeaves(a, o, sink, RULES);
  },
};
