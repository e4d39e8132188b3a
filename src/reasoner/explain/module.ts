// Syntactic ⊥-locality modules (Cuenca Grau et al.): the axioms that are not satisfied when every entity
// outside a signature Σ is interpreted as empty, closed under growing Σ with their signatures. The module
// entails exactly what the whole ontology entails over Σ (inconsistency included), so a justification
// search can run on it alone. Locality itself is decided by `src/model/modules/locality.ts`.

import type { Axiom, Entity } from '../../model/terms.js';
import { isLogicalAxiom } from '../../model/terms.js';
import { Locality } from '../../model/modules/locality.js';
import { signature } from '../../model/walk.js';

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
    const empty = new Locality('BOT', new Set());
    for (const [i, axiom] of this.axioms.entries()) {
      const sig = signature(axiom);
      this.signatures.push(sig);
      for (const e of sig) {
        const list = this.byEntity.get(e);
        if (list === undefined) this.byEntity.set(e, [i]);
        else list.push(i);
      }
      if (!empty.local(axiom)) this.global.push(i);
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
    // the locality reads `sig` live, so it follows Σ as the module grows
    const locality = new Locality('BOT', sig);
    const inModule = new Uint8Array(this.axioms.length);
    const pending: Entity[] = [];
    const out: Axiom[] = [];
    // byEntity and global hold indexes of axioms (and of their signatures), built together above
    const include = (i: number) => {
      inModule[i] = 1;
      out.push(this.axioms[i]!);
      for (const e of this.signatures[i]!) {
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
    // (the loop also visits the entities pending meanwhile)
    for (const e of pending) {
      const users = this.byEntity.get(e);
      if (users === undefined) continue;
      for (const i of users) if (inModule[i] === 0 && !locality.local(this.axioms[i]!)) include(i);
    }
    return out;
  }
}
