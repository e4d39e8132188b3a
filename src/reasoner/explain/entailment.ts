// Entailment checks over the EL reasoner. The reasoner answers questions about named classes and
// individuals only, so each goal axiom is reduced to such questions with fresh names (a conservative
// extension of the ontology): C ⊑ D becomes X ⊑ C, D ⊑ Y and the question "X ⊑ Y?"; r ⊑ s becomes
// X ⊑ ∃r.Z, ∃s.Z ⊑ Y and "X ⊑ Y?"; a negative assertion becomes "is the ontology plus the positive one
// inconsistent?". A goal is a list of groups; each group is one classification (its fresh axioms added
// to the axioms under test) with a test of the result, and the goal holds when every group does.

import type {
  Axiom,
  ClassExpression,
  DataProperty,
  Entity,
  Individual,
  IRI,
  Literal,
  ObjectPropertyExpression,
} from '../../model/terms.js';
import * as t from '../../model/terms.js';
import { signature } from '../../model/walk.js';
import { OWL_THING } from '../../model/vocab.js';
import type { ElOptions, ElResult } from '../el-reasoner.js';
import type { TaxonomyNode } from '../taxonomy.js';
import { otherKinds, ANY_AXIOM } from '../../model/terms.js';

/**
 * A reasoner run over an axiom set: the EL classifier or the structural one answer at once, Konclude
 * through a promise (its process runs while the thread can still notice a cancellation).
 */
export type Classifier = (axioms: Iterable<Axiom>, options?: ElOptions) => ElResult | Promise<ElResult>;

export interface CheckGroup {
  /** Fresh-name axioms added to the axioms under test for this classification. */
  readonly extra: readonly Axiom[];
  holds(result: ElResult): boolean;
}

export interface Goal {
  /** The goal axiom (annotations dropped), or null for "the ontology is inconsistent". */
  readonly axiom: Axiom | null;
  /** Entities of the goal: the seed signature of its module. */
  readonly signature: readonly Entity[];
  /**
   * The reasoner decides the goal (groups are set). Otherwise only an asserted copy of the axiom
   * entails it (`told`), which is what the fallback of get_explanations reports.
   */
  readonly groups: readonly CheckGroup[] | null;
}

const FRESH_NS = 'urn:x-athene-explain:';

/** Fresh names for one goal; they never occur in an ontology (reserved URN namespace). */
class Fresh {
  private n = 0;
  cls(): t.Class {
    return t.cls(FRESH_NS + 'C' + ++this.n);
  }
  literal(): Literal {
    return t.literal(FRESH_NS + 'v' + ++this.n);
  }
}

// ---------------------------------------------------------------- tests over a classification

function reaches(from: TaxonomyNode, target: TaxonomyNode): boolean {
  if (from === target) return true;
  const seen = new Set<TaxonomyNode>([from]);
  const stack = [from];
  while (stack.length > 0) {
    for (const p of stack.pop()!.parents) {
      if (p === target) return true;
      if (!seen.has(p)) {
        seen.add(p);
        stack.push(p);
      }
    }
  }
  return false;
}

/** Named class `sub` is subsumed by named class `sup` (everything holds in an inconsistent ontology). */
export function subsumed(r: ElResult, sub: IRI, sup: IRI): boolean {
  if (!r.consistent || sup === OWL_THING) return true;
  const a = r.taxonomy.nodeOf(sub);
  if (a === undefined) return sub === sup;
  if (a === r.taxonomy.bottom) return true;
  const b = r.taxonomy.nodeOf(sup);
  return b !== undefined && reaches(a, b);
}

function instanceOf(r: ElResult, ind: Individual, cls: IRI): boolean {
  if (!r.consistent || cls === OWL_THING) return true;
  const node = r.taxonomy.nodeOf(cls);
  return node !== undefined && r.types(ind, false).includes(node);
}

// ---------------------------------------------------------------- goal construction

/** Collects subsumption and instance questions into one group. */
class GroupBuilder {
  readonly extra: Axiom[] = [];
  private readonly tests: ((r: ElResult) => boolean)[] = [];
  constructor(readonly fresh: Fresh) {}

  /** Asks whether `sub` ⊑ `sup` for class expressions. */
  subClass(sub: ClassExpression, sup: ClassExpression): void {
    const x = sub.kind === 'Class' ? sub : this.fresh.cls();
    const y = sup.kind === 'Class' ? sup : this.fresh.cls();
    if (x !== sub) this.extra.push(t.subClassOf(x, sub));
    if (y !== sup) this.extra.push(t.subClassOf(sup, y));
    this.tests.push((r) => subsumed(r, x.iri, y.iri));
  }

  /** Asks whether `ind` is an instance of `c`. */
  instance(c: ClassExpression, ind: Individual): void {
    const y = c.kind === 'Class' ? c : this.fresh.cls();
    if (y !== c) this.extra.push(t.subClassOf(c, y));
    this.tests.push((r) => instanceOf(r, ind, y.iri));
  }

  /** Asks whether every `sub`-edge (a chain of them) is an `sup`-edge, via X ⊑ ∃sub.Z and ∃sup.Z ⊑ Y. */
  subRole(chain: readonly ObjectPropertyExpression[], sup: ObjectPropertyExpression): void {
    const z = this.fresh.cls();
    let path: ClassExpression = z;
    for (const p of [...chain].reverse()) path = t.objectSomeValuesFrom(p, path);
    this.subClass(path, t.objectSomeValuesFrom(sup, z));
  }

  /** Asks whether every `sub` value is a `sup` value, via a fresh literal. */
  subData(sub: DataProperty, sup: DataProperty): void {
    const v = this.fresh.literal();
    this.subClass(t.dataHasValue(sub, v), t.dataHasValue(sup, v));
  }

  build(): CheckGroup {
    const tests = this.tests;
    return { extra: this.extra, holds: (r) => tests.every((test) => test(r)) };
  }
}

/** A group that holds when the axioms plus `extra` are inconsistent. */
function refutes(extra: readonly Axiom[]): CheckGroup {
  return { extra, holds: (r) => !r.consistent };
}

function pairs<T>(xs: readonly T[]): [T, T][] {
  const out: [T, T][] = [];
  for (const [i, x] of xs.entries()) for (const y of xs.slice(i + 1)) out.push([x, y]);
  return out;
}

/** The checks of a goal axiom, or null when the reasoner cannot decide it. */
function groupsOf(a: Axiom): CheckGroup[] | null {
  const fresh = new Fresh();
  const g = new GroupBuilder(fresh);
  switch (a.kind) {
    case 'SubClassOf':
      g.subClass(a.sub, a.sup);
      break;
    case 'EquivalentClasses': {
      const [first, ...others] = a.classes;
      if (first !== undefined)
        for (const c of others) {
          g.subClass(first, c);
          g.subClass(c, first);
        }
      break;
    }
    case 'DisjointClasses':
      for (const [c, d] of pairs(a.classes)) g.subClass(t.objectIntersectionOf([c, d]), t.nothing());
      break;
    case 'ClassAssertion':
      g.instance(a.cls, a.individual);
      break;
    case 'ObjectPropertyAssertion':
      g.instance(t.objectHasValue(a.property, a.object), a.subject);
      break;
    case 'DataPropertyAssertion':
      g.instance(t.dataHasValue(a.property, a.value), a.subject);
      break;
    case 'SameIndividual': {
      const [first, ...others] = a.individuals;
      if (first !== undefined) for (const i of others) g.instance(t.objectOneOf([first]), i);
      break;
    }
    case 'NegativeObjectPropertyAssertion':
      return [refutes([t.objectPropertyAssertion(a.property, a.subject, a.object)])];
    case 'NegativeDataPropertyAssertion':
      return [refutes([t.dataPropertyAssertion(a.property, a.subject, a.value)])];
    case 'DifferentIndividuals':
      return pairs(a.individuals).map(([x, y]) => refutes([t.sameIndividual([x, y])]));
    case 'ObjectPropertyDomain':
      g.subClass(t.objectSomeValuesFrom(a.property, t.thing()), a.domain);
      break;
    case 'DataPropertyDomain':
      g.subClass(t.dataSomeValuesFrom(a.property, t.rdfsLiteral()), a.domain);
      break;
    case 'ObjectPropertyRange': {
      // Every r-successor is in the range iff X ⊑ ∃r.Z entails X ⊑ ∃r.(Z ⊓ range) for fresh X, Z.
      const z = fresh.cls();
      g.subClass(t.objectSomeValuesFrom(a.property, z), t.objectSomeValuesFrom(a.property, t.objectIntersectionOf([z, a.range])));
      break;
    }
    case 'SubObjectPropertyOf':
      g.subRole([a.sub], a.sup);
      break;
    case 'SubPropertyChainOf':
      g.subRole(a.chain, a.sup);
      break;
    case 'TransitiveObjectProperty':
      g.subRole([a.property, a.property], a.property);
      break;
    case 'EquivalentObjectProperties': {
      const [first, ...others] = a.properties;
      if (first !== undefined)
        for (const p of others) {
          g.subRole([first], p);
          g.subRole([p], first);
        }
      break;
    }
    case 'ReflexiveObjectProperty':
      g.subClass(t.thing(), t.objectHasSelf(a.property));
      break;
    case 'SubDataPropertyOf':
      g.subData(a.sub, a.sup);
      break;
    case 'EquivalentDataProperties': {
      const [first, ...others] = a.properties;
      if (first !== undefined)
        for (const p of others) {
          g.subData(first, p);
          g.subData(p, first);
        }
      break;
    }
    default:
      otherKinds(a, ANY_AXIOM);
      return null;
  }
  return [g.build()];
}

/** The goal "the axiom is entailed" (its annotations do not matter). */
export function axiomGoal(axiom: Axiom): Goal {
  const plain = t.axiomWithoutAnnotations(axiom);
  return { axiom: plain, signature: signature(plain), groups: groupsOf(plain) };
}

/** The goal "the axioms are inconsistent". */
export function inconsistencyGoal(): Goal {
  return { axiom: null, signature: [], groups: [refutes([])] };
}

/** Types of goal the reasoner decides and get_explanations justifies (TOOLS.md 3.8). */
export const JUSTIFIED_KINDS: ReadonlySet<Axiom['kind']> = new Set([
  'SubClassOf',
  'EquivalentClasses',
  'DisjointClasses',
  'ClassAssertion',
  'ObjectPropertyAssertion',
  'DataPropertyAssertion',
  'NegativeObjectPropertyAssertion',
  'NegativeDataPropertyAssertion',
  'SameIndividual',
  'DifferentIndividuals',
  'ObjectPropertyDomain',
  'ObjectPropertyRange',
  'DataPropertyDomain',
  'DataPropertyRange',
]);

export class ExplainTimeout extends Error {
  constructor() {
    super('The explanation ran out of time');
    this.name = 'ExplainTimeout';
  }
}

/** Whether `axioms` assert `goal` (an annotation-free axiom), with or without annotations. */
export function asserts(axioms: Iterable<Axiom>, goal: Axiom): boolean {
  for (const a of axioms) if (a === goal || (a.annotations.length > 0 && t.axiomWithoutAnnotations(a) === goal)) return true;
  return false;
}

/**
 * Decides a goal over varying axiom sets, counting reasoner calls and enforcing one deadline.
 * A goal without groups holds exactly when the goal axiom itself is among the axioms.
 */
export class EntailmentChecker {
  calls = 0;

  constructor(
    readonly goal: Goal,
    private readonly classifier: Classifier,
    readonly deadline = Infinity,
  ) {}

  async entailed(axioms: readonly Axiom[]): Promise<boolean> {
    const groups = this.goal.groups;
    if (groups === null) return asserts(axioms, this.goal.axiom!);
    for (const g of groups) {
      const remaining = this.deadline - Date.now();
      if (remaining <= 0) throw new ExplainTimeout();
      this.calls++;
      const input = g.extra.length === 0 ? axioms : [...axioms, ...g.extra];
      const result = await this.runClassifier(input, remaining);
      if (!g.holds(result)) return false;
    }
    return true;
  }

  private async runClassifier(axioms: readonly Axiom[], remaining: number): Promise<ElResult> {
    try {
      return await this.classifier(axioms, Number.isFinite(remaining) ? { timeLimitMs: Math.max(1, Math.ceil(remaining)) } : {});
    } catch (err) {
      if (Date.now() >= this.deadline) throw new ExplainTimeout();
      throw err;
    }
  }
}
