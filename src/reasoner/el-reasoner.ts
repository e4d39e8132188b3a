// The EL++ classifier: index (normalize.ts) + saturation (saturation.ts) + taxonomy (taxonomy.ts).
//
// ElReasoner keeps the index and the saturation between calls. Added axioms are indexed and the saturation
// continues from where it stopped: rules of concepts whose index entries grew are re-applied in the contexts
// that hold them, which yields exactly the closure a full run would. Changes to the role box (property
// inclusions, chains, ranges, reflexivity, property assertions) change the precomputed role tables, so they
// restart the saturation over the same index; removals rebuild the index from the remaining axioms.

import type { Axiom, Individual, IRI } from '../model/terms.js';
import { isLogicalAxiom } from '../model/terms.js';
import { OWL_NOTHING } from '../model/vocab.js';
import { NOTHING, OntologyIndex, THING } from './normalize.js';
import { Saturation } from './saturation.js';
import {
  buildTaxonomy, compareUtf8, consistentSaturation, type Realization, type Taxonomy, type TaxonomyNode, type TaxonomyState,
} from './taxonomy.js';

export interface ElOptions {
  /** Stop with a ReasonerTimeout after this many milliseconds of saturation. */
  readonly timeLimitMs?: number;
}

export interface ElResult {
  readonly consistent: boolean;
  /** Named classes equivalent to owl:Nothing (sorted; all classes when the ontology is inconsistent). */
  readonly unsatisfiable: readonly IRI[];
  readonly taxonomy: Taxonomy;
  /** Types of an individual: the direct ones (default) or all of them. Every class when inconsistent. */
  types(individual: Individual, direct?: boolean): readonly TaxonomyNode[];
  /** Axioms outside what the reasoner handles (their entailments may be missing). */
  readonly unsupported: { readonly count: number; readonly sample: readonly Axiom[] };
  /** False whenever an axiom was unsupported: the answer is then sound but possibly incomplete. */
  readonly complete: boolean;
}

const SAMPLE_SIZE = 20;

export class ElReasoner {
  private index = new OntologyIndex();
  private saturation = new Saturation(this.index);
  private readonly axioms = new Set<Axiom>();
  private pending: Axiom[] = [];
  /** The previous taxonomy, reused for classes whose subsumers did not change (null after a restart). */
  private taxonomyState: TaxonomyState | null = null;

  constructor(axioms: Iterable<Axiom> = []) {
    this.add(axioms);
  }

  add(axioms: Iterable<Axiom>): void {
    for (const a of axioms) {
      if (this.axioms.has(a)) continue;
      this.axioms.add(a);
      this.pending.push(a);
    }
  }

  /** Removal is not incremental: the index and the saturation are rebuilt from the remaining axioms. */
  remove(axioms: Iterable<Axiom>): void {
    let changed = false;
    for (const a of axioms) changed = this.axioms.delete(a) || changed;
    if (!changed) return;
    this.index = new OntologyIndex();
    this.saturation = new Saturation(this.index);
    this.taxonomyState = null;
    this.pending = [...this.axioms];
  }

  classify(options: ElOptions = {}): ElResult {
    const ix = this.index;
    if (this.pending.length > 0) {
      const delta = ix.add(this.pending.filter(isRelevant));
      this.pending = [];
      if (delta.rolesChanged) {
        this.saturation = new Saturation(ix);
        this.taxonomyState = null;
      } else this.saturation.refire(delta.concepts);
    }
    const sat = this.saturation;
    sat.context(THING);
    for (const id of ix.classes.values()) sat.context(id);
    for (const id of ix.individuals.values()) sat.context(id);
    const limit = options.timeLimitMs ?? 0;
    sat.saturate(limit > 0 ? Date.now() + limit : Infinity, limit);
    const { taxonomy, realization, state } = buildTaxonomy(ix, sat, this.taxonomyState);
    this.taxonomyState = state;
    return makeResult(ix, sat, taxonomy, realization);
  }

  /** Size of the current saturation: contexts, derived subsumers (c ∈ S(X)) and links (X -r-> Y). */
  statistics(): { contexts: number; subsumers: number; links: number } {
    let subsumers = 0;
    let links = 0;
    for (const root of this.saturation.roots) {
      const ctx = this.saturation.contexts[root]!;
      subsumers += ctx.subs.size;
      for (const s of ctx.backSources) links += s.size;
    }
    return { contexts: this.saturation.roots.length, subsumers, links };
  }
}

function isRelevant(a: Axiom): boolean {
  return isLogicalAxiom(a) || (a.kind === 'Declaration' && (a.entity.kind === 'Class' || a.entity.kind === 'NamedIndividual'));
}

function makeResult(ix: OntologyIndex, sat: Saturation, taxonomy: Taxonomy, realization: Realization): ElResult {
  const consistent = consistentSaturation(ix, sat);
  const unsupported = [...ix.unsupported, ...ix.ignoredDataAxioms()];
  const named = [...ix.classes].filter(([, id]) => id !== THING && id !== NOTHING).map(([iri]) => iri);
  return {
    consistent,
    unsatisfiable: consistent
      ? taxonomy.bottom.members.filter((m) => m !== OWL_NOTHING)
      : named.sort(compareUtf8),
    taxonomy,
    types: (ind, direct = true) => typesOf(realization, taxonomy, consistent, ind, direct),
    unsupported: { count: unsupported.length, sample: unsupported.slice(0, SAMPLE_SIZE) },
    complete: unsupported.length === 0,
  };
}

function typesOf(r: Realization, t: Taxonomy, consistent: boolean, ind: Individual, direct: boolean): readonly TaxonomyNode[] {
  if (!consistent) return direct ? [t.bottom] : t.nodes;
  return direct ? r.directTypes(ind) : r.allTypes(ind);
}

/** Classifies an axiom set once (no state kept). */
export function classify(axioms: Iterable<Axiom>, options?: ElOptions): ElResult {
  return new ElReasoner(axioms).classify(options);
}

/**
 * The taxonomy in the reference format of the reasoning README: one line per statement, sorted by UTF-8
 * bytes, each ending with '\n'. Each node is written by its representative: `EquivalentClasses(<R> <C>)`
 * for every other member C, `SubClassOf(<A> <B>)` for each direct edge (edges into owl:Thing included,
 * edges from owl:Nothing left out). An inconsistent ontology gives the empty string.
 */
export function renderTaxonomy(result: Pick<ElResult, 'consistent' | 'taxonomy'>): string {
  if (!result.consistent) return '';
  const lines: string[] = [];
  for (const node of result.taxonomy.nodes) {
    const rep = node.representative;
    for (const m of node.members) if (m !== rep) lines.push(`EquivalentClasses(<${rep}> <${m}>)`);
    if (rep === OWL_NOTHING) continue;
    for (const p of node.parents) lines.push(`SubClassOf(<${rep}> <${p.representative}>)`);
  }
  lines.sort(compareUtf8);
  return lines.map((l) => l + '\n').join('');
}

