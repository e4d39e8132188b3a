// The inferred half of `semantic_diff` (TOOLS.md 3.2, entailment set `inferred-diff-v1`): consistency and
// satisfiability transitions, the transitively reduced named-class hierarchy, equivalences, direct types
// of named individuals, and disjointness over the candidate pairs asserted on either side. Pure functions
// over two finished classifications; property hierarchy, characteristics and assertions are excluded.
//
// Every changed entailment in `subsumption` and `types` is labelled: `direct` when the entailment itself
// was gained (or lost), `indirect` when the other side entails it too, only not as a direct edge (it moved
// in the reduced hierarchy because classes between the two changed).

import type { Axiom, IRI } from '../model/terms.js';
import type { Ontology } from '../model/ontology.js';
import { OWL_THING } from '../model/vocab.js';
import type { Classification } from '../reasoner/pool.js';
import type { JsonObject } from '../util/json-object.js';
import { unreachable } from '../util/unreachable.js';

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const ENTAILMENT_SET = 'inferred-diff-v1';
export const EXCLUDED_CATEGORIES = ['property_hierarchy', 'property_characteristics', 'property_assertions'] as const;
export const MEMBER_CATEGORIES = ['satisfiability', 'subsumption', 'equivalence', 'types', 'disjointness'] as const;
/** Most candidate pairs whose disjointness is decided (each costs one fresh class per side). */
export const DISJOINTNESS_CANDIDATE_CAP = 1000;

export type CategoryName = 'consistency' | (typeof MEMBER_CATEGORIES)[number];

/** One side's finished classification, with the named signature it is read over. */
export interface InferredSide {
  /** May hold auxiliary classes (`auxiliary`) besides the side's own. */
  readonly classification: Classification;
  /** Classes the classification was given only to answer a question (disjointness pairs): never reported. */
  readonly auxiliary?: (iri: IRI) => boolean;
  /** Named classes of the side's imports closure (owl:Thing left out). */
  readonly classes: readonly IRI[];
  readonly individuals: readonly IRI[];
  /** Keys (`pairKey`) of the checked candidate pairs found disjoint, or why they could not be decided. */
  readonly disjoint: ReadonlySet<string> | { readonly error: string };
}

/** A side that could not be classified at all. */
export interface FailedSide {
  readonly error: string;
}

export type SideOutcome = InferredSide | FailedSide;

const failed = (s: SideOutcome): s is FailedSide => !('classification' in s);

// ---------------------------------------------------------------- disjointness candidates

export const pairKey = (a: IRI, b: IRI): string => (a < b ? a + ' ' + b : b + ' ' + a);

/** Named-class pairs named together in an asserted DisjointClasses or DisjointUnion, sorted, each once. */
export function disjointnessCandidates(ontologies: Iterable<Ontology>): [IRI, IRI][] {
  const keys = new Set<string>();
  const addAll = (iris: readonly IRI[]) => {
    for (const [i, a] of iris.entries()) for (const b of iris.slice(i + 1)) if (a !== b) keys.add(pairKey(a, b));
  };
  const named = (a: Axiom): IRI[] => {
    if (a.kind === 'DisjointClasses' || a.kind === 'DisjointUnion') return a.classes.flatMap((c) => (c.kind === 'Class' ? [c.iri] : []));
    return [];
  };
  for (const o of ontologies) {
    for (const a of o.axiomsOfKind('DisjointClasses')) addAll(named(a));
    for (const a of o.axiomsOfKind('DisjointUnion')) addAll(named(a));
  }
  return [...keys].sort(cmp).map((k) => k.split(' ') as [IRI, IRI]);
}

// ---------------------------------------------------------------- the side's own classes

/** A classification read over the side's own classes: auxiliary classes are skipped and bridged. */
class SideTaxonomy {
  private readonly aux: (iri: IRI) => boolean;
  private readonly ancestors = new Map<IRI, Set<IRI>>();

  constructor(
    private readonly c: Classification,
    auxiliary?: (iri: IRI) => boolean,
  ) {
    this.aux = auxiliary ?? (() => false);
  }

  get unsatisfiable(): IRI[] {
    return this.c.data.unsatisfiable.filter((x) => !this.aux(x));
  }

  /** Every named superclass (the class's own equivalents excluded). */
  allSupers(cls: IRI): Set<IRI> {
    let all = this.ancestors.get(cls);
    if (all === undefined) {
      all = new Set(this.c.hasClass(cls) ? this.c.superclasses(cls, false).filter((x) => !this.aux(x)) : []);
      this.ancestors.set(cls, all);
    }
    return all;
  }

  equivalents(cls: IRI): IRI[] {
    return this.c.equivalents(cls).filter((x) => !this.aux(x));
  }

  directSupers(cls: IRI): IRI[] {
    return this.c.hasClass(cls) ? this.bridged(this.c.superclasses(cls, true)) : [];
  }

  allTypes(individual: IRI): Set<IRI> {
    return new Set(this.c.hasIndividual(individual) ? this.c.types(individual, false).filter((x) => !this.aux(x)) : []);
  }

  directTypes(individual: IRI): IRI[] {
    return this.c.hasIndividual(individual) ? this.bridged(this.c.types(individual, true)) : [];
  }

  /**
   * Direct answers with each node made only of auxiliary classes replaced by its own direct superclasses,
   * then reduced again (a bridged superclass may lie above another answer).
   */
  private bridged(direct: readonly IRI[]): IRI[] {
    const out = new Set<IRI>();
    const seen = new Set<IRI>();
    let spliced = false;
    const visit = (members: readonly IRI[]) => {
      const own = members.filter((x) => !this.aux(x));
      for (const x of own) out.add(x);
      for (const x of members) {
        if (!this.aux(x) || seen.has(x)) continue;
        seen.add(x);
        // an auxiliary class equivalent to one of the side's own stands beside it: only an all-auxiliary node is bridged
        if (this.equivalents(x).length === 0) {
          spliced = true;
          visit(this.c.superclasses(x, true));
        }
      }
    };
    visit(direct);
    if (!spliced) return [...out];
    const answers = [...out];
    return answers.filter((x) => !answers.some((y) => y !== x && this.allSupers(y).has(x)));
  }
}

// ---------------------------------------------------------------- entailment sets of one side

interface Entailment {
  readonly a: IRI;
  readonly b: IRI;
}

/** A side with its taxonomy view. */
interface Read {
  readonly side: InferredSide;
  readonly tax: SideTaxonomy;
}

const read = (side: InferredSide): Read => ({ side, tax: new SideTaxonomy(side.classification, side.auxiliary) });

/** Direct named superclasses of every satisfiable named class (owl:Thing left out): the reduced hierarchy. */
function directSubsumptions({ side, tax }: Read): Map<string, Entailment> {
  const out = new Map<string, Entailment>();
  const unsat = new Set(tax.unsatisfiable);
  for (const c of side.classes) {
    if (unsat.has(c)) continue;
    for (const sup of tax.directSupers(c)) if (sup !== OWL_THING) out.set(c + ' ' + sup, { a: c, b: sup });
  }
  return out;
}

/** Unordered pairs of satisfiable named classes (owl:Thing included) inferred equivalent. */
function equivalences({ side, tax }: Read): Map<string, Entailment> {
  const out = new Map<string, Entailment>();
  const unsat = new Set(tax.unsatisfiable);
  for (const c of side.classes) {
    if (unsat.has(c)) continue;
    for (const e of tax.equivalents(c)) {
      const [a, b] = c < e ? [c, e] : [e, c];
      out.set(a + ' ' + b, { a, b });
    }
  }
  return out;
}

/** Direct named types of every named individual (owl:Thing left out). */
function directTypes({ side, tax }: Read): Map<string, Entailment> {
  const out = new Map<string, Entailment>();
  for (const i of side.individuals) for (const t of tax.directTypes(i)) if (t !== OWL_THING) out.set(i + ' ' + t, { a: i, b: t });
  return out;
}

// ---------------------------------------------------------------- categories

const capped = <T>(all: readonly T[], limit: number): JsonObject => ({
  count: all.length,
  items: all.slice(0, limit),
  ...(all.length > limit ? { truncated: all.length - limit } : {}),
});

const sortPairs = (xs: Entailment[]) => xs.sort((x, y) => cmp(x.a, y.a) || cmp(x.b, y.b));

/** `only` minus `other`, sorted by (a, b). */
function minus(only: ReadonlyMap<string, Entailment>, other: ReadonlyMap<string, Entailment>): Entailment[] {
  return sortPairs([...only].filter(([k]) => !other.has(k)).map(([, e]) => e));
}

/** A changed entailment set with each change labelled by whether the other side entails it at all. */
function labelled(
  changes: readonly Entailment[],
  otherEntails: (e: Entailment) => boolean,
  names: [string, string],
  limit: number,
): JsonObject {
  const rows = changes.map((e) => ({ [names[0]]: e.a, [names[1]]: e.b, label: otherEntails(e) ? 'indirect' : 'direct' }));
  const indirect = rows.filter((r) => r.label === 'indirect').length;
  return { ...capped(rows, limit), direct: rows.length - indirect, indirect };
}

const entailsSubsumption = (r: Read) => (e: Entailment) => r.tax.allSupers(e.a).has(e.b);

/** Memoized: an individual's named types. */
function entailsType(r: Read): (e: Entailment) => boolean {
  const cache = new Map<IRI, Set<IRI>>();
  return (e) => {
    let all = cache.get(e.a);
    if (all === undefined) cache.set(e.a, (all = r.tax.allTypes(e.a)));
    return all.has(e.b);
  };
}

function subsumption(l: Read, r: Read, limit: number): JsonObject {
  const left = directSubsumptions(l);
  const right = directSubsumptions(r);
  return {
    added: labelled(minus(right, left), entailsSubsumption(l), ['sub', 'super'], limit),
    removed: labelled(minus(left, right), entailsSubsumption(r), ['sub', 'super'], limit),
  };
}

function types(l: Read, r: Read, limit: number): JsonObject {
  const left = directTypes(l);
  const right = directTypes(r);
  return {
    added: labelled(minus(right, left), entailsType(l), ['individual', 'class'], limit),
    removed: labelled(minus(left, right), entailsType(r), ['individual', 'class'], limit),
  };
}

function equivalence(l: Read, r: Read, limit: number): JsonObject {
  const left = equivalences(l);
  const right = equivalences(r);
  const rows = (xs: Entailment[]) => xs.map((e) => ({ classes: [e.a, e.b] }));
  return { added: capped(rows(minus(right, left)), limit), removed: capped(rows(minus(left, right)), limit) };
}

function satisfiability(l: Read, r: Read, limit: number): { json: JsonObject; newlyUnsatisfiable: number } {
  const left = new Set(l.tax.unsatisfiable);
  const right = new Set(r.tax.unsatisfiable);
  const gained = [...right].filter((c) => !left.has(c)).sort(cmp);
  const lost = [...left].filter((c) => !right.has(c)).sort(cmp);
  return {
    json: {
      left_unsatisfiable: left.size,
      right_unsatisfiable: right.size,
      newly_unsatisfiable: capped(gained, limit),
      newly_satisfiable: capped(lost, limit),
    },
    newlyUnsatisfiable: gained.length,
  };
}

export interface DisjointnessScope {
  /** Candidate pairs found on either side (before the cap). */
  readonly candidates: number;
  /** The pairs decided (the first `DISJOINTNESS_CANDIDATE_CAP` in sorted order). */
  readonly checked: readonly [IRI, IRI][];
}

function disjointness(l: InferredSide, r: InferredSide, scope: DisjointnessScope, limit: number): JsonObject {
  const head: JsonObject = {
    scope: 'asserted_candidates',
    candidates: scope.candidates,
    checked: scope.checked.length,
    cap: DISJOINTNESS_CANDIDATE_CAP,
    ...(scope.candidates > scope.checked.length ? { truncated: scope.candidates - scope.checked.length } : {}),
  };
  const error = [l, r].map((s) => s.disjoint).find((d): d is { error: string } => !(d instanceof Set));
  if (error !== undefined) return { ...head, error: error.error };
  const left = l.disjoint as ReadonlySet<string>;
  const right = r.disjoint as ReadonlySet<string>;
  const rows = (keep: (k: string) => boolean) =>
    scope.checked.filter(([a, b]) => keep(pairKey(a, b))).map(([a, b]) => ({ classes: [a, b] }));
  return {
    ...head,
    added: capped(
      rows((k) => right.has(k) && !left.has(k)),
      limit,
    ),
    removed: capped(
      rows((k) => left.has(k) && !right.has(k)),
      limit,
    ),
  };
}

export interface InferredDiff {
  readonly json: JsonObject;
  readonly errored: readonly CategoryName[];
  readonly suppressed: readonly CategoryName[];
  readonly consistencyTransition: boolean;
  readonly newlyUnsatisfiable: number;
}

/**
 * The `inferred` object. `toldOnly`: the reasoner decides no consistency, satisfiability or disjointness
 * (those categories carry an error). An inconsistent side suppresses every member category.
 */
export function inferredDiff(
  left: SideOutcome,
  right: SideOutcome,
  toldOnly: boolean,
  scope: DisjointnessScope,
  limit: number,
): InferredDiff {
  const json: JsonObject = { entailment_set: ENTAILMENT_SET, excluded_categories: [...EXCLUDED_CATEGORIES] };
  const errored: CategoryName[] = [];
  const suppressed: CategoryName[] = [];
  const error = (name: CategoryName, message: string) => {
    json[name] = { error: message };
    errored.push(name);
  };
  const sideFailure = [left, right].find(failed);
  if (sideFailure !== undefined) {
    const which = failed(left) ? 'left' : 'right';
    for (const name of ['consistency', ...MEMBER_CATEGORIES] as CategoryName[])
      error(name, `the ${which} side could not be classified: ${sideFailure.error}`);
    return { json: { ...json, errored_categories: errored }, errored, suppressed, consistencyTransition: false, newlyUnsatisfiable: 0 };
  }
  const l = read(left as InferredSide);
  const r = read(right as InferredSide);
  const TOLD = 'the reasoner is told-only (asserted named hierarchy and types): it does not decide';
  let transition = false;
  if (toldOnly) error('consistency', `${TOLD} consistency`);
  else {
    const lc = l.side.classification.consistent;
    const rc = r.side.classification.consistent;
    transition = lc !== rc;
    json.consistency = {
      left: lc,
      right: rc,
      changed: transition,
      transition: lc === rc ? 'unchanged' : lc ? 'became_inconsistent' : 'became_consistent',
    };
  }
  // told axioms alone can be inconsistent (an instance of a class under owl:Nothing): that verdict stands
  const inconsistent = (
    [
      ['left', l],
      ['right', r],
    ] as const
  )
    .filter(([, s]) => !s.side.classification.consistent)
    .map(([name]) => name);
  let newlyUnsatisfiable = 0;
  for (const name of MEMBER_CATEGORIES) {
    if (inconsistent.length > 0) {
      json[name] = {
        categories_suppressed: true,
        reason: `the ${inconsistent.join(' and ')} side${inconsistent.length === 2 ? 's are' : ' is'} inconsistent: every entailment holds there`,
      };
      suppressed.push(name);
      continue;
    }
    switch (name) {
      case 'satisfiability': {
        if (toldOnly) {
          error(name, `${TOLD} satisfiability`);
          break;
        }
        const s = satisfiability(l, r, limit);
        json[name] = s.json;
        newlyUnsatisfiable = s.newlyUnsatisfiable;
        break;
      }
      case 'subsumption':
        json[name] = subsumption(l, r, limit);
        break;
      case 'equivalence':
        json[name] = equivalence(l, r, limit);
        break;
      case 'types':
        json[name] = types(l, r, limit);
        break;
      case 'disjointness': {
        const d = toldOnly ? { scope: 'asserted_candidates', error: `${TOLD} disjointness` } : disjointness(l.side, r.side, scope, limit);
        json[name] = d;
        if (d.error !== undefined) errored.push(name);
        break;
      }
      default:
        return unreachable(name);
    }
  }
  json.errored_categories = errored;
  return { json, errored, suppressed, consistencyTransition: transition, newlyUnsatisfiable };
}
