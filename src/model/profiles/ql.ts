// OWL 2 QL (OWL 2 Profiles §3): sub-class expressions are classes and unqualified existentials; super-class
// expressions add intersections, complements of sub-class expressions and existentials with a named filler;
// no anonymous individuals, no property chains, no functionality or transitivity; the datatypes of §3.2.1.

import type { Axiom, AxiomKind, ClassExpression } from '../terms.js';
import type { Ontology } from '../ontology.js';
import { OWL_THING } from '../vocab.js';
import {
  checkLeaves,
  EL_QL_DATATYPES,
  illegalAxiom,
  intersectionsOnly,
  NON_LOGICAL,
  positionCheck,
  type LeafRules,
  type ProfileGrammar,
} from './grammar.js';
import type { ViolationSink } from './report.js';
import { otherKinds, ANY_AXIOM, ANY_COMPOUND } from '../terms.js';

const QL_AXIOMS: ReadonlySet<AxiomKind> = new Set<AxiomKind>([
  ...NON_LOGICAL,
  'SubClassOf',
  'EquivalentClasses',
  'DisjointClasses',
  'SubObjectPropertyOf',
  'EquivalentObjectProperties',
  'DisjointObjectProperties',
  'InverseObjectProperties',
  'ObjectPropertyDomain',
  'ObjectPropertyRange',
  'ReflexiveObjectProperty',
  'IrreflexiveObjectProperty',
  'SymmetricObjectProperty',
  'AsymmetricObjectProperty',
  'SubDataPropertyOf',
  'EquivalentDataProperties',
  'DisjointDataProperties',
  'DataPropertyDomain',
  'DataPropertyRange',
  'DatatypeDefinition',
  'DifferentIndividuals',
  'ClassAssertion',
  'ObjectPropertyAssertion',
  'DataPropertyAssertion',
]);

export function qlSub(c: ClassExpression): boolean {
  switch (c.kind) {
    case 'Class':
    case 'DataSomeValuesFrom':
      return true;
    case 'ObjectSomeValuesFrom':
      return c.filler.kind === 'Class' && c.filler.iri === OWL_THING;
    default:
      otherKinds(c, ANY_COMPOUND);
      return false;
  }
}

export function qlSuper(c: ClassExpression): boolean {
  switch (c.kind) {
    case 'Class':
    case 'DataSomeValuesFrom':
      return true;
    case 'ObjectIntersectionOf':
      return c.operands.every(qlSuper);
    case 'ObjectComplementOf':
      return qlSub(c.operand);
    case 'ObjectSomeValuesFrom':
      return c.filler.kind === 'Class';
    default:
      otherKinds(c, ANY_COMPOUND);
      return false;
  }
}

const RULES: LeafRules = {
  profile: 'QL',
  datatypes: EL_QL_DATATYPES,
  anonymousIndividuals: false,
  inverseProperties: true,
  dataRange: intersectionsOnly,
};

function positions(a: Axiom, o: Ontology, sink: ViolationSink): void {
  const sub = positionCheck('QL', 'sub-class', qlSub, a, o, sink);
  const sup = positionCheck('QL', 'super-class', qlSuper, a, o, sink);
  switch (a.kind) {
    case 'SubClassOf':
      sub(a.sub);
      sup(a.sup);
      return;
    case 'EquivalentClasses':
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
      if (a.cls.kind !== 'Class')
        sink.add(o, 'non_atomic_class_assertion', `Class assertion of ${sink.expr(a.cls)}: OWL 2 QL asserts named classes only.`, a);
      return;
    default:
      otherKinds(a, ANY_AXIOM);
  }
}

export const QL: ProfileGrammar = {
  profile: 'QL',
  check(a, o, sink) {
    if (!QL_AXIOMS.has(a.kind)) return illegalAxiom(a, o, sink, 'QL');
    if (NON_LOGICAL.has(a.kind)) return;
    positions(a, o, sink);
    checkLeaves(a, o, sink, RULES);
  },
};
