// The object property hierarchy of OWL 2 Structural Specification §11.1–11.2 over an axiom closure: the
// relation → (sub-property, equivalence, inverse and symmetry axioms, closed under inversion), composite and
// non-simple property expressions, and the regularity of property chains.
//
// Property expressions are keyed by string: the property IRI, or '^' + IRI for its inverse.

import type { Axiom, ObjectPropertyExpression, SubPropertyChainOf } from '../terms.js';
import type { Ontology } from '../ontology.js';
import { OWL_BOTTOM_OBJECT_PROPERTY, OWL_TOP_OBJECT_PROPERTY } from '../vocab.js';
import { otherKinds, ANY_AXIOM } from '../terms.js';

export type PropertyKey = string;

export const keyOf = (p: ObjectPropertyExpression): PropertyKey => (p.kind === 'ObjectProperty' ? p.iri : '^' + p.property.iri);
export const inverseKey = (k: PropertyKey): PropertyKey => (k.startsWith('^') ? k.slice(1) : '^' + k);
/** The named property of a key, for messages. */
export const displayKey = (k: PropertyKey): string => (k.startsWith('^') ? 'ObjectInverseOf(<' + k.slice(1) + '>)' : '<' + k + '>');

function addEdge(m: Map<PropertyKey, Set<PropertyKey>>, a: PropertyKey, b: PropertyKey): void {
  let s = m.get(a);
  if (s === undefined) m.set(a, (s = new Set()));
  s.add(b);
}

/** Adds a → b and its mirror INV(a) → INV(b). */
function addMirrored(m: Map<PropertyKey, Set<PropertyKey>>, a: PropertyKey, b: PropertyKey): void {
  addEdge(m, a, b);
  addEdge(m, inverseKey(a), inverseKey(b));
}

/** Everything reachable from `from` over `edges`, `from` included (reflexive-transitive closure). */
function reach(edges: ReadonlyMap<PropertyKey, ReadonlySet<PropertyKey>>, from: Iterable<PropertyKey>): Set<PropertyKey> {
  const out = new Set<PropertyKey>(from);
  const stack = [...out];
  while (stack.length > 0) {
    const k = stack.pop()!;
    for (const n of edges.get(k) ?? []) {
      if (!out.has(n)) {
        out.add(n);
        stack.push(n);
      }
    }
  }
  return out;
}

export interface ChainProblem {
  readonly axiom: SubPropertyChainOf;
  readonly ontology: Ontology;
  /** The chain member that cannot be ordered below the super-property. */
  readonly member: PropertyKey;
}

/** A chain axiom with the ontology it comes from. */
export interface ChainUse {
  readonly axiom: SubPropertyChainOf;
  readonly ontology: Ontology;
}

export class PropertyHierarchy {
  /** OPE1 → OPE2 (direct). */
  readonly up = new Map<PropertyKey, Set<PropertyKey>>();
  readonly composite = new Set<PropertyKey>([OWL_TOP_OBJECT_PROPERTY, OWL_BOTTOM_OBJECT_PROPERTY]);
  readonly chains: ChainUse[] = [];
  private nonSimpleSet: Set<PropertyKey> | null = null;
  private readonly upClosure = new Map<PropertyKey, Set<PropertyKey>>();

  /** Reads the hierarchy axioms of every ontology of the closure (indexes by kind: no full pass). */
  static of(closure: readonly Ontology[]): PropertyHierarchy {
    const h = new PropertyHierarchy();
    for (const o of closure) {
      for (const a of o.axiomsOfKind('SubObjectPropertyOf')) addMirrored(h.up, keyOf(a.sub), keyOf(a.sup));
      for (const a of o.axiomsOfKind('EquivalentObjectProperties')) {
        for (const p of a.properties) for (const q of a.properties) if (p !== q) addMirrored(h.up, keyOf(p), keyOf(q));
      }
      for (const a of o.axiomsOfKind('InverseObjectProperties')) {
        const p = keyOf(a.first),
          q = keyOf(a.second);
        addMirrored(h.up, p, inverseKey(q));
        addMirrored(h.up, inverseKey(q), p);
      }
      for (const a of o.axiomsOfKind('SymmetricObjectProperty')) {
        const p = keyOf(a.property);
        addMirrored(h.up, p, inverseKey(p));
      }
      for (const a of o.axiomsOfKind('TransitiveObjectProperty')) h.markComposite(keyOf(a.property));
      for (const a of o.axiomsOfKind('SubPropertyChainOf')) {
        if (a.chain.length > 1) h.markComposite(keyOf(a.sup));
        h.chains.push({ axiom: a, ontology: o });
      }
    }
    return h;
  }

  private markComposite(k: PropertyKey): void {
    this.composite.add(k);
    this.composite.add(inverseKey(k));
  }

  /** OPE →* X for every X returned (OPE included). */
  supers(k: PropertyKey): ReadonlySet<PropertyKey> {
    let s = this.upClosure.get(k);
    if (s === undefined) {
      s = reach(this.up, [k]);
      this.upClosure.set(k, s);
    }
    return s;
  }

  /** Non-simple: some composite expression is a (reflexive-transitive) sub-property of it. */
  isNonSimple(p: ObjectPropertyExpression): boolean {
    this.nonSimpleSet ??= reach(this.up, this.composite);
    return this.nonSimpleSet.has(keyOf(p));
  }

  /**
   * Chain members that no strict order can place below the chain's super-property (§11.2). Each chain
   * SubObjectPropertyOf(ObjectPropertyChain(P1 … Pn) P) with n ≥ 2 and P ≠ owl:topObjectProperty asks
   * Pi < P for its members, except a leading or trailing P itself and the transitivity form (P P); the order
   * must be strict and must not put X below Y when Y →* X. Both the chain and its mirror over inverses are
   * constrained, as the chain entails the mirrored chain.
   */
  chainProblems(): ChainProblem[] {
    const less = new Map<PropertyKey, Set<PropertyKey>>();
    const demands: { chain: ChainUse; member: PropertyKey; sup: PropertyKey }[] = [];
    for (const c of this.chains) {
      const a = c.axiom;
      const n = a.chain.length;
      const sup = keyOf(a.sup);
      if (n < 2 || sup === OWL_TOP_OBJECT_PROPERTY) continue;
      const keys = a.chain.map(keyOf);
      if (n === 2 && keys[0] === sup && keys[1] === sup) continue;
      const members = keys[0] === sup ? keys.slice(1) : keys[n - 1] === sup ? keys.slice(0, n - 1) : keys;
      for (const m of members) {
        addMirrored(less, m, sup);
        demands.push({ chain: c, member: m, sup });
      }
    }
    const below = new Map<PropertyKey, Set<PropertyKey>>();
    for (const [a, bs] of less) for (const b of bs) addEdge(below, b, a);
    const problems: ChainProblem[] = [];
    for (const d of demands) {
      // member < sup fails when something at or above sup in the order is a sub-property (→*) of something
      // at or below member in the order: the order would then put an expression below one of its subs.
      const atOrBelowMember = reach(below, [d.member]);
      const atOrAboveSup = reach(less, [d.sup]);
      let bad = false;
      for (const b of atOrAboveSup) {
        for (const x of this.supers(b)) {
          if (atOrBelowMember.has(x)) {
            bad = true;
            break;
          }
        }
        if (bad) break;
      }
      if (bad) problems.push({ axiom: d.chain.axiom, ontology: d.chain.ontology, member: d.member });
    }
    return problems;
  }
}

/** Object property expressions an axiom requires to be simple (§11.1), with the position's rule name. */
export function simplePositions(a: Axiom): readonly { readonly property: ObjectPropertyExpression; readonly where: string }[] {
  switch (a.kind) {
    case 'FunctionalObjectProperty':
      return [{ property: a.property, where: 'functional' }];
    case 'InverseFunctionalObjectProperty':
      return [{ property: a.property, where: 'inverse_functional' }];
    case 'IrreflexiveObjectProperty':
      return [{ property: a.property, where: 'irreflexive' }];
    case 'AsymmetricObjectProperty':
      return [{ property: a.property, where: 'asymmetric' }];
    case 'DisjointObjectProperties':
      return a.properties.map((p) => ({ property: p, where: 'disjoint' }));
    default:
      otherKinds(a, ANY_AXIOM);
      return [];
  }
}
