// Syntactic ⊥-locality modules (Cuenca Grau et al.): the axioms that are not satisfied when every entity
// outside a signature Σ is interpreted as empty, closed under growing Σ with their signatures. The module
// entails exactly what the whole ontology entails over Σ (inconsistency included), so a justification
// search can run on it alone. Where a rule is unclear the axiom counts as non-local: that only makes
// the module larger, never wrong.

import type { Axiom, ClassExpression, Entity, ObjectPropertyExpression } from '../../model/terms.js';
import { isLogicalAxiom } from '../../model/terms.js';
import { signature } from '../../model/walk.js';
import { OWL_NOTHING, OWL_THING, OWL_TOP_DATA_PROPERTY, OWL_TOP_OBJECT_PROPERTY } from '../../model/vocab.js';

type Sig = ReadonlySet<Entity>;

function roleIn(p: ObjectPropertyExpression, sig: Sig): boolean {
  const named = p.kind === 'ObjectProperty' ? p : p.property;
  return named.iri === OWL_TOP_OBJECT_PROPERTY || sig.has(named);
}

function dataIn(p: Entity, sig: Sig): boolean {
  return p.iri === OWL_TOP_DATA_PROPERTY || sig.has(p);
}

/** C is empty in every interpretation that empties the entities outside Σ. */
export function bottomEquivalent(c: ClassExpression, sig: Sig): boolean {
  switch (c.kind) {
    case 'Class': return c.iri === OWL_NOTHING || (c.iri !== OWL_THING && !sig.has(c));
    case 'ObjectComplementOf': return topEquivalent(c.operand, sig);
    case 'ObjectIntersectionOf': return c.operands.some((o) => bottomEquivalent(o, sig));
    case 'ObjectUnionOf': return c.operands.every((o) => bottomEquivalent(o, sig));
    case 'ObjectOneOf': return c.individuals.length === 0;
    case 'ObjectSomeValuesFrom': return !roleIn(c.property, sig) || bottomEquivalent(c.filler, sig);
    case 'ObjectHasValue': case 'ObjectHasSelf': return !roleIn(c.property, sig);
    case 'ObjectMinCardinality': case 'ObjectExactCardinality':
      return c.cardinality > 0 && (!roleIn(c.property, sig) || bottomEquivalent(c.filler, sig));
    case 'DataSomeValuesFrom': case 'DataHasValue': return !dataIn(c.property, sig);
    case 'DataMinCardinality': case 'DataExactCardinality': return c.cardinality > 0 && !dataIn(c.property, sig);
    default: return false;
  }
}

/** C is everything in every interpretation that empties the entities outside Σ. */
export function topEquivalent(c: ClassExpression, sig: Sig): boolean {
  switch (c.kind) {
    case 'Class': return c.iri === OWL_THING;
    case 'ObjectComplementOf': return bottomEquivalent(c.operand, sig);
    case 'ObjectIntersectionOf': return c.operands.every((o) => topEquivalent(o, sig));
    case 'ObjectUnionOf': return c.operands.some((o) => topEquivalent(o, sig));
    case 'ObjectAllValuesFrom': return !roleIn(c.property, sig) || topEquivalent(c.filler, sig);
    case 'ObjectMaxCardinality': return !roleIn(c.property, sig) || bottomEquivalent(c.filler, sig);
    case 'ObjectMinCardinality': case 'DataMinCardinality': return c.cardinality === 0;
    case 'DataAllValuesFrom': case 'DataMaxCardinality': return !dataIn(c.property, sig);
    default: return false;
  }
}

const atMostOne = <T>(xs: readonly T[], test: (x: T) => boolean): boolean => {
  let n = 0;
  for (const x of xs) if (test(x) && ++n > 1) return false;
  return true;
};

/** Whether an axiom is syntactically ⊥-local with respect to Σ (non-logical axioms always are). */
export function bottomLocal(a: Axiom, sig: Sig): boolean {
  const bot = (c: ClassExpression) => bottomEquivalent(c, sig);
  const top = (c: ClassExpression) => topEquivalent(c, sig);
  switch (a.kind) {
    case 'SubClassOf': return bot(a.sub) || top(a.sup);
    case 'EquivalentClasses': return a.classes.every(bot) || a.classes.every(top);
    case 'DisjointClasses': return atMostOne(a.classes, (c) => !bot(c));
    case 'DisjointUnion': return !sig.has(a.cls) && a.classes.every(bot);
    case 'SubObjectPropertyOf': return !roleIn(a.sub, sig);
    case 'SubPropertyChainOf': return a.chain.some((p) => !roleIn(p, sig));
    case 'EquivalentObjectProperties': return a.properties.every((p) => !roleIn(p, sig));
    case 'DisjointObjectProperties': return atMostOne(a.properties, (p) => roleIn(p, sig));
    case 'InverseObjectProperties': return !roleIn(a.first, sig) && !roleIn(a.second, sig);
    case 'ObjectPropertyDomain': return !roleIn(a.property, sig) || top(a.domain);
    case 'ObjectPropertyRange': return !roleIn(a.property, sig) || top(a.range);
    case 'FunctionalObjectProperty': case 'InverseFunctionalObjectProperty': case 'SymmetricObjectProperty':
    case 'AsymmetricObjectProperty': case 'IrreflexiveObjectProperty': case 'TransitiveObjectProperty':
    case 'NegativeObjectPropertyAssertion':
      return !roleIn(a.property, sig);
    case 'SubDataPropertyOf': return !dataIn(a.sub, sig);
    case 'EquivalentDataProperties': return a.properties.every((p) => !dataIn(p, sig));
    case 'DisjointDataProperties': return atMostOne(a.properties, (p) => dataIn(p, sig));
    case 'DataPropertyDomain': return !dataIn(a.property, sig) || top(a.domain);
    case 'DataPropertyRange': case 'FunctionalDataProperty': case 'NegativeDataPropertyAssertion':
      return !dataIn(a.property, sig);
    case 'HasKey': return bot(a.cls);
    case 'ClassAssertion': return top(a.cls);
    default: return !isLogicalAxiom(a);
  }
}

/**
 * Extracts ⊥-modules of one axiom set for different seed signatures. Axioms are indexed by the entities
 * they mention, so a module costs time in proportion to the axioms it looks at, not to the ontology.
 */
export class ModuleExtractor {
  private readonly byEntity = new Map<Entity, number[]>();
  private readonly signatures: (readonly Entity[])[] = [];
  /** Axioms that are non-local even for the empty signature (they belong to every module). */
  private readonly global: number[] = [];
  private readonly axioms: readonly Axiom[];

  constructor(axioms: Iterable<Axiom>) {
    this.axioms = [...axioms].filter(isLogicalAxiom);
    const empty: Sig = new Set();
    for (let i = 0; i < this.axioms.length; i++) {
      const sig = signature(this.axioms[i]);
      this.signatures.push(sig);
      for (const e of sig) {
        const list = this.byEntity.get(e);
        if (list === undefined) this.byEntity.set(e, [i]);
        else list.push(i);
      }
      if (!bottomLocal(this.axioms[i], empty)) this.global.push(i);
    }
  }

  get size(): number {
    return this.axioms.length;
  }

  /**
   * The ⊥-module for a seed signature, in the order the axioms joined it: breadth first from the seed,
   * so axioms closer to the seed come first (the order the justification search expands in).
   */
  module(seed: Iterable<Entity>): Axiom[] {
    const sig = new Set<Entity>();
    const inModule = new Uint8Array(this.axioms.length);
    const pending: Entity[] = [];
    const out: Axiom[] = [];
    const include = (i: number) => {
      inModule[i] = 1;
      out.push(this.axioms[i]);
      for (const e of this.signatures[i]) {
        if (!sig.has(e)) {
          sig.add(e);
          pending.push(e);
        }
      }
    };
    for (const e of seed) {
      if (!sig.has(e)) {
        sig.add(e);
        pending.push(e);
      }
    }
    for (const i of this.global) if (inModule[i] === 0) include(i);
    // An axiom's locality can only change when Σ gains one of its entities: re-test exactly those.
    for (let head = 0; head < pending.length; head++) {
      const users = this.byEntity.get(pending[head]);
      if (users === undefined) continue;
      for (const i of users) if (inModule[i] === 0 && !bottomLocal(this.axioms[i], sig)) include(i);
    }
    return out;
  }
}
