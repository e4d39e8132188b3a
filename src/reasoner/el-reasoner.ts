// The EL++ classifier: index (normalize.ts) + saturation (saturation.ts) + taxonomy (taxonomy.ts).
//
// ElReasoner keeps the index and the saturation between calls. Added axioms are indexed and the saturation
// continues from where it stopped: rules of concepts whose index entries grew are re-applied in the contexts
// that hold them, which yields exactly the closure a full run would. Removed axioms have their index entries
// taken back, the contexts that may depend on them are reset (Saturation.retract) and saturated again.
// Changes to the role box (property inclusions, chains, ranges, reflexivity, property assertions) change the
// precomputed role tables: adding them restarts the saturation over the same index, removing them (or data
// property axioms) rebuilds the index from the remaining axioms.

import type { Axiom, Individual, IRI } from '../model/terms.js';
import { isLogicalAxiom } from '../model/terms.js';
import { OWL_NOTHING } from '../model/vocab.js';
import { NOTHING, OntologyIndex, THING } from './normalize.js';
import { Saturation, type CancelFlag } from './saturation.js';
import {
  buildTaxonomy,
  compareUtf8,
  consistentSaturation,
  type Realization,
  type Taxonomy,
  type TaxonomyNode,
  type TaxonomyState,
} from './taxonomy.js';

export interface ElOptions {
  /** Stop with a ReasonerTimeout after this many milliseconds of saturation. */
  readonly timeLimitMs?: number;
  /** Stop with a ReasonerCancelled once this flag is raised (from any thread). */
  readonly cancel?: CancelFlag;
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
  /** Indexed axioms removed since the last classification. */
  private removed: Axiom[] = [];
  /** Whether axioms were ever removed (then classes no axiom mentions any more leave the taxonomy). */
  private everRemoved = false;
  /** How the last classification after removals took them back. */
  lastRemoval: 'none' | 'incremental' | 'rebuild' = 'none';
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

  /** Removes axioms; the next classification takes them back incrementally where their kinds allow. */
  remove(axioms: Iterable<Axiom>): void {
    const gone = new Set<Axiom>();
    for (const a of axioms) if (this.axioms.delete(a)) gone.add(a);
    if (gone.size === 0) return;
    this.everRemoved = true;
    const unindexed = this.pending.filter((a) => gone.has(a));
    if (unindexed.length > 0) this.pending = this.pending.filter((a) => !gone.has(a));
    for (const a of gone) if (!unindexed.includes(a) && isRelevant(a)) this.removed.push(a);
  }

  /** Takes the removed axioms back: incrementally when possible, otherwise by rebuilding from the rest. */
  private retractRemoved(): void {
    const delta = this.index.remove(this.removed);
    this.removed = [];
    this.lastRemoval = 'incremental';
    if (!delta.rebuild && this.saturation.retract(delta.concepts)) return;
    this.lastRemoval = 'rebuild';
    this.index = new OntologyIndex();
    this.saturation = new Saturation(this.index);
    this.taxonomyState = null;
    this.pending = [...this.axioms];
  }

  /** Ids of the classes of the index that no axiom mentions any more. */
  private hiddenClasses(): Set<number> {
    const hidden = new Set<number>();
    if (!this.everRemoved) return hidden;
    const ix = this.index;
    for (const id of ix.classes.values()) if (id > NOTHING && ix.unused(id)) hidden.add(id);
    return hidden;
  }

  /**
   * Classifies the axioms added so far. The result reads the reasoner's state: the next classify() updates
   * its taxonomy and types in place, so use it (or copy what is needed) before changing the axioms.
   */
  classify(options: ElOptions = {}): ElResult {
    if (this.removed.length > 0) this.retractRemoved();
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
    sat.saturate(limit > 0 ? Date.now() + limit : Infinity, limit, options.cancel ?? null);
    const hidden = this.hiddenClasses();
    const { taxonomy, realization, state } = buildTaxonomy(ix, sat, this.taxonomyState, hidden);
    this.taxonomyState = state;
    return makeResult(ix, sat, taxonomy, realization, hidden);
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

function makeResult(
  ix: OntologyIndex,
  sat: Saturation,
  taxonomy: Taxonomy,
  realization: Realization,
  hidden: ReadonlySet<number>,
): ElResult {
  const consistent = consistentSaturation(ix, sat);
  const unsupported = [...ix.unsupported, ...ix.ignoredDataAxioms()];
  const named = () => [...ix.classes].filter(([, id]) => id !== THING && id !== NOTHING && !hidden.has(id)).map(([iri]) => iri);
  return {
    consistent,
    unsatisfiable: consistent ? taxonomy.bottom.members.filter((m) => m !== OWL_NOTHING) : named().sort(compareUtf8),
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
