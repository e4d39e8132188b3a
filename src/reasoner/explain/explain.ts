// The explanation entry points used by the tools: entailment checks, justifications of an axiom, and the
// contraction of an inconsistent axiom set. Each runs on the ⊥-module of its goal, with one deadline.

import type { Axiom } from '../../model/terms.js';
import { classify } from '../el-reasoner.js';
import { asserts, axiomGoal, EntailmentChecker, inconsistencyGoal, type Classifier, type Goal } from './entailment.js';
import { allJustifications, contract, oneJustification } from './justify.js';
import { ModuleExtractor } from './module.js';

export interface ExplainOptions {
  /** The reasoner (default: the EL classifier). */
  readonly classifier?: Classifier;
  /** Overall time bound; past it an ExplainTimeout is thrown (explainInconsistency returns instead). */
  readonly timeoutMs?: number;
  /** A prebuilt extractor over the same axioms, reused across calls. */
  readonly extractor?: ModuleExtractor;
}

function checkerFor(goal: Goal, options: ExplainOptions): EntailmentChecker {
  const deadline = options.timeoutMs !== undefined && options.timeoutMs > 0 ? Date.now() + options.timeoutMs : Infinity;
  return new EntailmentChecker(goal, options.classifier ?? classify, deadline);
}

function moduleOf(axioms: Iterable<Axiom>, goal: Goal, options: ExplainOptions): Axiom[] {
  return (options.extractor ?? new ModuleExtractor(axioms)).module(goal.signature);
}

export interface EntailmentAnswer {
  readonly entailed: boolean;
  /** False when the reasoner cannot decide the axiom type: only an asserted copy counts then. */
  readonly decided: boolean;
  readonly reasonerCalls: number;
}

/** Whether the axioms entail `axiom` (annotations ignored). */
export async function checkEntailment(axioms: Iterable<Axiom>, axiom: Axiom, options: ExplainOptions = {}): Promise<EntailmentAnswer> {
  const goal = axiomGoal(axiom);
  // an undecided goal is only looked up, among all axioms: declarations and annotations never reach a module
  if (goal.groups === null) return { entailed: asserts(axioms, goal.axiom!), decided: false, reasonerCalls: 0 };
  const checker = checkerFor(goal, options);
  const entailed = await checker.entailed(moduleOf(axioms, goal, options));
  return { entailed, decided: true, reasonerCalls: checker.calls };
}

export interface Justifications {
  readonly entailed: boolean;
  readonly decided: boolean;
  /** Each one minimal: removing any of its axioms loses the entailment. */
  readonly justifications: readonly (readonly Axiom[])[];
  /** Every justification was found (false when `max` stopped the search). */
  readonly complete: boolean;
  readonly moduleSize: number;
  readonly reasonerCalls: number;
}

/** Up to `max` justifications (0 = all) of `axiom` in the axioms. */
export async function justify(axioms: Iterable<Axiom>, axiom: Axiom, max: number, options: ExplainOptions = {}): Promise<Justifications> {
  const goal = axiomGoal(axiom);
  const checker = checkerFor(goal, options);
  const module = moduleOf(axioms, goal, options);
  const base = { decided: goal.groups !== null, moduleSize: module.length };
  if (max === 1) {
    const j = await oneJustification(checker, module);
    return { ...base, entailed: j !== null, justifications: j === null ? [] : [j], complete: j === null, reasonerCalls: checker.calls };
  }
  const all = await allJustifications(checker, module, max);
  return {
    ...base,
    entailed: all.justifications.length > 0,
    justifications: all.justifications,
    complete: all.complete,
    reasonerCalls: checker.calls,
  };
}

export interface InconsistencyExplanation {
  readonly inconsistent: boolean;
  /** A jointly inconsistent subset (empty when consistent). */
  readonly axioms: readonly Axiom[];
  readonly minimal: boolean;
  readonly consistencyChecks: number;
}

/** Contracts inconsistent axioms to a jointly inconsistent subset; minimal unless the deadline stopped it. */
export async function explainInconsistency(axioms: Iterable<Axiom>, options: ExplainOptions = {}): Promise<InconsistencyExplanation> {
  const goal = inconsistencyGoal();
  const checker = checkerFor(goal, options);
  const module = moduleOf(axioms, goal, options);
  // One check of the whole module first: a consistent ontology then costs a single classification.
  const found = (await checker.entailed(module)) ? await contract(checker, module) : null;
  if (found === null) return { inconsistent: false, axioms: [], minimal: true, consistencyChecks: checker.calls };
  return { inconsistent: true, axioms: found.axioms, minimal: found.minimal, consistencyChecks: checker.calls };
}
