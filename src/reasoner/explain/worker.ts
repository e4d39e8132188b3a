// The explanation thread (a task-pool worker): decodes a snapshot's axioms (transfer.ts), runs one entailment
// check, justification search or inconsistency contraction on them and returns the axioms found in the same
// encoding, never model objects. A raised cancellation flag stops the search at its next reasoner step
// (a running Konclude process is killed, its files removed). The last snapshot is kept with its module
// index, so repeated explanations at one revision decode and index it once.

import type { Axiom } from '../../model/terms.js';
import { classifierFor } from '../engines.js';
import type { KoncludeConfig } from '../konclude.js';
import { decodeAxioms, encodeAxioms, type EncodedAxioms } from '../../model/transfer.js';
import type { ReasonerId } from '../registry.js';
import { ReasonerCancelled, type CancelFlag } from '../saturation.js';
import { ExplainTimeout, inconsistencyGoal, EntailmentChecker, type Classifier } from './entailment.js';
import { checkEntailment, explainInconsistency, justify } from './explain.js';
import { ModuleExtractor } from './module.js';

export interface ExplainTask {
  /** Identifies the snapshot (workspace and revision), for the per-thread cache. */
  readonly key: string;
  readonly axioms: EncodedAxioms;
  readonly reasoner: ReasonerId;
  /** How to run Konclude (null: not installed). */
  readonly konclude: KoncludeConfig | null;
  readonly timeoutMs: number;
  /** Raised by the window when the call is cancelled (shared memory). */
  readonly cancel: CancelFlag;
  readonly type: 'entail' | 'justify' | 'inconsistency';
  /** The goal axiom (entail, justify). */
  readonly goal?: EncodedAxioms;
  /** Justifications wanted, 0 = all (justify). */
  readonly max?: number;
}

export type ExplainData =
  | { readonly kind: 'inconsistent_ontology' }
  | { readonly kind: 'entailment'; readonly entailed: boolean; readonly decided: boolean; readonly calls: number }
  | {
      readonly kind: 'justifications';
      readonly entailed: boolean;
      readonly decided: boolean;
      readonly justifications: readonly EncodedAxioms[];
      readonly complete: boolean;
      readonly moduleSize: number;
      readonly calls: number;
    }
  | {
      readonly kind: 'inconsistency';
      readonly inconsistent: boolean;
      readonly axioms: EncodedAxioms;
      readonly minimal: boolean;
      readonly calls: number;
    }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'cancelled' };

interface Loaded {
  readonly key: string;
  readonly axioms: readonly Axiom[];
  readonly extractor: ModuleExtractor;
}
let loaded: Loaded | null = null;

function load(task: ExplainTask): Loaded {
  if (loaded !== null && loaded.key === task.key) return loaded;
  const axioms = decodeAxioms(task.axioms);
  loaded = { key: task.key, axioms, extractor: new ModuleExtractor(axioms) };
  return loaded;
}

/** Whether the whole snapshot is inconsistent, from its ⊥-module for the empty signature (usually small). */
function inconsistent(l: Loaded, classifier: Classifier, deadline: number): Promise<boolean> {
  const checker = new EntailmentChecker(inconsistencyGoal(), classifier, deadline);
  return checker.entailed(l.extractor.module([]));
}

async function work(task: ExplainTask): Promise<ExplainData> {
  const l = load(task);
  const classifier: Classifier = classifierFor(task.reasoner, task.konclude, task.cancel);
  const start = Date.now();
  const remaining = () => Math.max(1, task.timeoutMs - (Date.now() - start));
  const options = () => ({ classifier, extractor: l.extractor, timeoutMs: remaining() });
  if (task.type === 'inconsistency') {
    const r = await explainInconsistency(l.axioms, options());
    return {
      kind: 'inconsistency',
      inconsistent: r.inconsistent,
      axioms: encodeAxioms(r.axioms),
      minimal: r.minimal,
      calls: r.consistencyChecks,
    };
  }
  if (await inconsistent(l, classifier, start + task.timeoutMs)) return { kind: 'inconsistent_ontology' };
  const [goal] = decodeAxioms(task.goal!);
  if (goal === undefined) throw new Error('the explanation task carries no goal axiom');
  if (task.type === 'entail') {
    const r = await checkEntailment(l.axioms, goal, options());
    return { kind: 'entailment', entailed: r.entailed, decided: r.decided, calls: r.reasonerCalls };
  }
  const r = await justify(l.axioms, goal, task.max ?? 0, options());
  return {
    kind: 'justifications',
    entailed: r.entailed,
    decided: r.decided,
    complete: r.complete,
    moduleSize: r.moduleSize,
    calls: r.reasonerCalls,
    justifications: r.justifications.map((j) => encodeAxioms(j)),
  };
}

export default async function run(task: ExplainTask): Promise<ExplainData> {
  try {
    return await work(task);
  } catch (err) {
    if (err instanceof ExplainTimeout) return { kind: 'timeout' };
    if (err instanceof ReasonerCancelled) return { kind: 'cancelled' };
    throw err;
  }
}
