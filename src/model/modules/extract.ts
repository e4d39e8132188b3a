// Syntactic locality modules: ⊥ (what the seed signature uses), ⊤ (what uses it) and STAR (⊥ and ⊤
// alternated to a fixpoint, the smallest). A module is the least set of axioms M such that every axiom
// outside M is local with respect to the seed signature extended by the signature of M. Declarations and
// annotation axioms are local by definition; they follow the module signature afterwards, so the module
// keeps the declarations, labels and annotation-property axioms of every entity it mentions.

import type { AnnotationProperty, Axiom, Entity, IRI } from '../terms.js';
import { isLogicalAxiom } from '../terms.js';
import { signature } from '../walk.js';
import { Locality, type LocalityKind } from './locality.js';

export type ModuleType = 'STAR' | 'BOT' | 'TOP';

/** The logical axioms of `axioms` that form the `kind` module of `seed` (in input order). */
export function localityModule(axioms: readonly Axiom[], seed: Iterable<Entity>, kind: LocalityKind): Axiom[] {
  const logical = axioms.filter(isLogicalAxiom);
  const signatures = logical.map((a) => signature(a));
  const users = new Map<Entity, number[]>();
  signatures.forEach((sig, i) => {
    for (const e of sig) {
      const list = users.get(e);
      if (list === undefined) users.set(e, [i]);
      else list.push(i);
    }
  });
  const sig = new Set<Entity>(seed);
  const locality = new Locality(kind, sig);
  const inModule = new Uint8Array(logical.length);
  const pending: Entity[] = [];
  // Axiom indexes are below logical.length, the length of signatures and inModule too.
  const include = (i: number) => {
    inModule[i] = 1;
    for (const e of signatures[i]!) {
      if (sig.has(e)) continue;
      sig.add(e);
      pending.push(e);
    }
  };
  // an axiom may be non-local without sharing an entity with Σ (⊤ ⊑ A under ⊥-locality), so all are tested once
  for (const [i, a] of logical.entries()) if (inModule[i] === 0 && !locality.local(a)) include(i);
  // afterwards an axiom's locality changes only when Σ gains one of its entities: re-test exactly those
  // pending grows while it is walked, so by index (head < pending.length).
  for (let head = 0; head < pending.length; head++) {
    for (const i of users.get(pending[head]!) ?? []) if (inModule[i] === 0 && !locality.local(logical[i]!)) include(i);
  }
  return logical.filter((_, i) => inModule[i] === 1);
}

/** The logical axioms of the module of `type` (STAR: ⊥ then ⊤, repeated until neither removes an axiom). */
export function logicalModule(axioms: readonly Axiom[], seed: readonly Entity[], type: ModuleType): Axiom[] {
  if (type !== 'STAR') return localityModule(axioms, seed, type);
  let current = axioms.filter(isLogicalAxiom);
  for (;;) {
    const next = localityModule(localityModule(current, seed, 'BOT'), seed, 'TOP');
    if (next.length === current.length) return next;
    current = next;
  }
}

/** The non-logical axioms of a source, indexed by what makes them follow an entity. */
class Enrichment {
  private readonly declarations = new Map<Entity, Axiom[]>();
  private readonly annotationsOf = new Map<IRI, Axiom[]>();
  private readonly propertyAxioms = new Map<AnnotationProperty, Axiom[]>();

  constructor(axioms: readonly Axiom[]) {
    for (const a of axioms) {
      if (a.kind === 'Declaration') push(this.declarations, a.entity, a);
      else if (a.kind === 'AnnotationAssertion' && a.subject.kind === 'IRI') push(this.annotationsOf, a.subject.iri, a);
      else if (a.kind === 'SubAnnotationPropertyOf' || a.kind === 'AnnotationPropertyDomain' || a.kind === 'AnnotationPropertyRange') {
        push(this.propertyAxioms, a.kind === 'SubAnnotationPropertyOf' ? a.sub : a.property, a);
      }
    }
  }

  /** What follows `e` into a module: its declarations, the annotations of its IRI, its annotation-property axioms. */
  of(e: Entity, iriSeen: Set<IRI>): readonly Axiom[] {
    const out = [...(this.declarations.get(e) ?? [])];
    if (!iriSeen.has(e.iri)) {
      iriSeen.add(e.iri);
      out.push(...(this.annotationsOf.get(e.iri) ?? []));
    }
    if (e.kind === 'AnnotationProperty') out.push(...(this.propertyAxioms.get(e) ?? []));
    return out;
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list === undefined) m.set(k, [v]);
  else list.push(v);
}

export interface ExtractedModule {
  /** Logical axioms first (module order), then the declarations and annotation axioms that follow them. */
  readonly axioms: readonly Axiom[];
  /** The signature of the module axioms and the seeds. */
  readonly entities: ReadonlySet<Entity>;
}

/** The module of `type` around `seed` in `axioms`, with the declarations and annotation axioms of its signature. */
export function extractModule(axioms: readonly Axiom[], seed: readonly Entity[], type: ModuleType): ExtractedModule {
  const logical = logicalModule(axioms, seed, type);
  const enrichment = new Enrichment(axioms);
  const entities = new Set<Entity>(seed);
  for (const a of logical) for (const e of signature(a)) entities.add(e);
  const included = new Set<Axiom>(logical);
  const out = [...logical];
  const iriSeen = new Set<IRI>();
  const queue = [...entities];
  // queue grows while it is walked, so by index (i < queue.length).
  for (let i = 0; i < queue.length; i++) {
    for (const a of enrichment.of(queue[i]!, iriSeen)) {
      if (included.has(a)) continue;
      included.add(a);
      out.push(a);
      for (const e of signature(a)) {
        if (entities.has(e)) continue;
        entities.add(e);
        queue.push(e);
      }
    }
  }
  return { axioms: out, entities };
}
