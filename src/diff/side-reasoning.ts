// Classifies one side of a semantic diff on the reasoner pool: its imports closure flattened into one
// private snapshot document (never the window's reasoner state), under its own pool key so no cached parse
// or incremental reasoner is shared with the window or with the other side. The same run decides the
// disjointness of the candidate pairs: each pair defines an auxiliary class
// (`EquivalentClasses(P ObjectIntersectionOf(A B))`), a conservative extension, so P is unsatisfiable
// exactly when A and B are disjoint; readers skip the auxiliary classes (inferred-changes.ts).

import { randomUUID } from 'node:crypto';
import { cls, equivalentClasses, objectIntersectionOf, type IRI } from '../model/terms.js';
import type { Ontology } from '../model/ontology.js';
import { Classification, runTask, type PoolOutcome } from '../reasoner/pool.js';
import type { ClassificationData } from '../reasoner/pool-worker.js';
import type { ReasonerInfo } from '../reasoner/registry.js';
import { closureInput, shipAll, type ReasoningInput } from '../reasoner/snapshot.js';
import { pairKey } from './inferred-changes.js';

const PAIR_CLASS = 'urn:athene:semantic-diff:disjointness-pair:';

/** A class this module added to decide a disjointness pair. */
export const isPairClass = (iri: IRI): boolean => iri.startsWith(PAIR_CLASS);

/** One classification request over a flattened closure. */
export interface SideRun {
  readonly closure: readonly Ontology[];
  readonly reasoner: ReasonerInfo;
  /** Names the run in its pool key (diagnostics only). */
  readonly label: string;
  /** Candidate pairs to decide; none for a reasoner that cannot decide disjointness. */
  readonly pairs: readonly (readonly [IRI, IRI])[];
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

export interface SideClassification {
  /** Holds the auxiliary pair classes (`isPairClass`) besides the side's own. */
  readonly classification: Classification;
  /** Keys (`pairKey`) of the pairs found disjoint. */
  readonly disjoint: Set<string>;
}

/** The reasoning input of a flattened closure with one auxiliary class defined per pair. */
export function sideDocument(closure: readonly Ontology[], pairs: readonly (readonly [IRI, IRI])[]): ReasoningInput {
  const input = closureInput(closure);
  if (pairs.length === 0) return input;
  const definitions = pairs.map(([a, b], i) => equivalentClasses([cls(PAIR_CLASS + i), objectIntersectionOf([cls(a), cls(b)])]));
  return { axioms: [...input.axioms, ...definitions], ruleCount: input.ruleCount };
}

/** Keys (`pairKey`) of the pairs whose auxiliary class the classification found unsatisfiable. */
export function disjointFrom(data: ClassificationData, pairs: readonly (readonly [IRI, IRI])[]): Set<string> {
  const unsat = new Set(data.unsatisfiable);
  const out = new Set<string>();
  pairs.forEach(([a, b], i) => {
    if (unsat.has(PAIR_CLASS + i)) out.add(pairKey(a, b));
  });
  return out;
}

/** Classifies the side's flattened closure with the pair definitions added. */
export async function classifySide(run: SideRun): Promise<PoolOutcome<SideClassification>> {
  const doc = sideDocument(run.closure, run.pairs);
  const key = `semantic-diff:${randomUUID()}:${run.label}@0`;
  const out = await runTask<ClassificationData>(
    { type: 'classify', key, model: shipAll(doc), reasoner: run.reasoner.id, timeLimitMs: run.timeoutMs },
    run.timeoutMs,
    run.signal,
  );
  if (out.kind !== 'done') return out;
  return {
    kind: 'done',
    value: { classification: new Classification(out.value, 0, run.reasoner, doc.ruleCount), disjoint: disjointFrom(out.value, run.pairs) },
  };
}
