// Justifications: minimal subsets of the asserted axioms that still entail a goal.
//
// One justification: over the goal's module in relevance order (breadth first from the goal's
// signature), a prefix doubling in size is tested until it entails the goal (expand), then QuickXplain's
// divide and conquer shrinks it (O(k·log(n/k)) reasoner calls for a justification of size k in n axioms).
// All justifications: Reiter's hitting-set tree over the ⊥-module, with justification reuse (a node whose
// path misses a known justification needs no reasoner call) and early path termination (paths already
// seen, or containing a path that lost the entailment, are not expanded).

import type { Axiom } from '../../model/terms.js';
import { EntailmentChecker, ExplainTimeout } from './entailment.js';

const FIRST_PREFIX = 16;

/** The shortest prefix (doubling) of `ordered` that entails the goal, or null if none does. */
async function expand(checker: EntailmentChecker, ordered: readonly Axiom[]): Promise<Axiom[] | null> {
  let n = Math.min(FIRST_PREFIX, ordered.length);
  for (;;) {
    const prefix = ordered.slice(0, n);
    if (await checker.entailed(prefix)) return prefix;
    if (n === ordered.length) return null;
    n = Math.min(n * 2, ordered.length);
  }
}

/**
 * QuickXplain: a minimal subset D of `candidates` with background ∪ D entailing the goal, given that
 * background ∪ candidates does. `tested` says whether background alone still has to be tested.
 */
async function quickXplain(checker: EntailmentChecker, background: Axiom[], tested: boolean, candidates: Axiom[]): Promise<Axiom[]> {
  if (tested && (await checker.entailed(background))) return [];
  if (candidates.length === 1) return candidates;
  const half = candidates.length >> 1;
  const first = candidates.slice(0, half);
  const second = candidates.slice(half);
  const fromSecond = await quickXplain(checker, background.concat(first), first.length > 0, second);
  const fromFirst = await quickXplain(checker, background.concat(fromSecond), fromSecond.length > 0, first);
  return fromFirst.concat(fromSecond);
}

/** Shrinks an entailing set to a minimal one (empty when the goal holds with no axioms at all). */
export async function shrink(checker: EntailmentChecker, entailing: Axiom[]): Promise<Axiom[]> {
  if (await checker.entailed([])) return [];
  return quickXplain(checker, [], false, entailing);
}

/**
 * One justification of the goal within `axioms`, or null. The axioms are a module in relevance order
 * (ModuleExtractor.module), so the expansion meets the needed axioms early.
 */
export async function oneJustification(checker: EntailmentChecker, axioms: readonly Axiom[]): Promise<Axiom[] | null> {
  const prefix = await expand(checker, axioms);
  return prefix === null ? null : shrink(checker, prefix);
}

export interface Contraction {
  readonly axioms: readonly Axiom[];
  /** False when the deadline stopped the shrinking: the set entails the goal but may not be minimal. */
  readonly minimal: boolean;
}

/**
 * An anytime justification for explain_inconsistency: on the deadline the current entailing set is
 * returned unminimized. Null when the axioms do not entail the goal.
 */
export async function contract(checker: EntailmentChecker, axioms: readonly Axiom[]): Promise<Contraction | null> {
  let prefix: Axiom[] | null;
  try {
    prefix = await expand(checker, axioms);
  } catch (err) {
    if (err instanceof ExplainTimeout) return { axioms, minimal: false };
    throw err;
  }
  if (prefix === null) return null;
  try {
    return { axioms: await shrink(checker, prefix), minimal: true };
  } catch (err) {
    if (err instanceof ExplainTimeout) return { axioms: prefix, minimal: false };
    throw err;
  }
}

export interface AllJustifications {
  readonly justifications: readonly (readonly Axiom[])[];
  /** True when the tree was fully explored (every justification found); false when `max` stopped it. */
  readonly complete: boolean;
}

const pathKey = (path: readonly Axiom[]) =>
  path
    .map((a) => a.id)
    .sort((x, y) => x - y)
    .join(',');

function disjoint(j: readonly Axiom[], path: ReadonlySet<Axiom>): boolean {
  for (const a of j) if (path.has(a)) return false;
  return true;
}

function containsAll(path: ReadonlySet<Axiom>, subset: ReadonlySet<Axiom>): boolean {
  if (subset.size > path.size) return false;
  for (const a of subset) if (!path.has(a)) return false;
  return true;
}

/** Up to `max` justifications (0 = all) of the goal within `axioms` (a module), breadth first. */
export async function allJustifications(checker: EntailmentChecker, axioms: readonly Axiom[], max: number): Promise<AllJustifications> {
  const found: Axiom[][] = [];
  const closed: Set<Axiom>[] = [];
  const seen = new Set<string>(['']);
  const queue: Axiom[][] = [[]];
  // the loop also visits the paths queued meanwhile
  for (const path of queue) {
    const removed = new Set(path);
    if (closed.some((c) => containsAll(removed, c))) continue;
    let j = found.find((f) => disjoint(f, removed));
    if (j === undefined) {
      const next = await oneJustification(checker, path.length === 0 ? axioms : axioms.filter((a) => !removed.has(a)));
      if (next === null) {
        closed.push(removed);
        continue;
      }
      j = next;
      found.push(j);
      if (max > 0 && found.length >= max) return { justifications: found, complete: false };
      if (j.length === 0) break; // a tautology: the empty set is its only justification
    }
    for (const a of j) {
      const child = [...path, a];
      const key = pathKey(child);
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push(child);
    }
  }
  return { justifications: found, complete: true };
}
