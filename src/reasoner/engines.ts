// Which engine answers for a reasoner id. `auto` lets the EL++ classifier answer when it handles every
// axiom (the EL profile), Konclude otherwise when installed, and else the EL++ classifier marked
// incomplete with a note on how to get complete answers. Konclude runs as a child process, leaving the thread
// free, and able to cancel, meanwhile.

import type { Axiom } from '../model/terms.js';
import { classify, type ElOptions, type ElResult } from './el-reasoner.js';
import { konclude, type KoncludeConfig } from './konclude.js';
import { KONCLUDE_HINT, type ReasonerId } from './registry.js';
import type { CancelFlag } from './saturation.js';
import { classifyStructural } from './structural.js';
import { unreachable } from '../util/unreachable.js';

/** The engine that gave an answer (never `auto`). */
export type EngineId = Exclude<ReasonerId, 'auto'>;

export interface EngineAnswer {
  readonly result: ElResult;
  readonly engine: EngineId;
  /** Set when `auto` fell back to the incomplete EL++ answer. */
  readonly note?: string;
}

function missing(id: ReasonerId): never {
  throw new Error(`${id === 'konclude' ? 'Konclude' : id} is not installed. ${KONCLUDE_HINT}`);
}

const fallback = (result: ElResult): EngineAnswer => ({
  result,
  engine: 'el',
  note: `Some axioms are outside the EL profile and Konclude is not installed, so the EL++ classifier answered: inferences may be missing. ${KONCLUDE_HINT}`,
});

/**
 * Answers with the engine `id` stands for; Konclude runs while the thread serves other work. `el` is the EL++
 * answer to use for `el` and `auto` (the pool keeps an incremental EL reasoner per workspace).
 */
export async function answer(
  id: ReasonerId,
  axioms: readonly Axiom[],
  k: KoncludeConfig | null,
  options: ElOptions,
  el: () => ElResult,
): Promise<EngineAnswer> {
  switch (id) {
    case 'structural':
      return { result: classifyStructural(axioms, options), engine: 'structural' };
    case 'el':
      return { result: el(), engine: 'el' };
    case 'konclude':
      return { result: await konclude(axioms, k ?? missing(id), options), engine: 'konclude' };
    case 'auto': {
      const r = el();
      if (r.complete) return { result: r, engine: 'el' };
      return k === null ? fallback(r) : { result: await konclude(axioms, k, options), engine: 'konclude' };
    }
    default:
      return unreachable(id);
  }
}

/**
 * The classifier of the explanation search. Konclude runs as a child process while the thread watches
 * `cancel`, so a cancelled explanation kills it at once instead of at the time bound.
 */
export function classifierFor(
  id: ReasonerId,
  k: KoncludeConfig | null,
  cancel: CancelFlag,
): (axioms: Iterable<Axiom>, options?: ElOptions) => Promise<ElResult> {
  return async (axioms, options = {}) => {
    const all = [...axioms];
    const bounded = { ...options, cancel };
    return (await answer(id, all, k, bounded, () => classify(all, bounded))).result;
  };
}
