// Module extraction off the window thread: a one-thread task pool whose thread is terminated when the
// call's time bound passes or the call is cancelled, so a long extraction never blocks the window.

import type { Ontology } from '../ontology.js';
import { decodeOntologyYielding, encodeOntology, transferables } from '../transfer.js';
import { TaskPool, valueOf } from '../../util/task-pool.js';
import type { ModuleOutcome, ModuleTask } from './worker.js';

const IDLE_TIMEOUT_MS = 10_000;

// no grace: the extraction does not watch a stop flag
const pool = new TaskPool<ModuleTask, ModuleOutcome>({
  worker: new URL('./worker.js', import.meta.url),
  idleMs: IDLE_TIMEOUT_MS,
  graceMs: 0,
});

export interface ModuleRequest extends Omit<ModuleTask, 'source'> {
  /** An ontology holding the axioms to extract from and the prefix map the module keeps. */
  readonly source: Ontology;
}

export interface ModuleResult {
  readonly axioms: number;
  readonly entities: number;
  /** The serialized module (when a format was asked for). */
  readonly text?: string;
  /** The module rebuilt on this thread (otherwise). */
  readonly ontology?: Ontology;
}

/** Extracts on the module thread; an abort of `signal` terminates that thread and rejects with its reason. */
export async function extractModuleOffThread(request: ModuleRequest, signal: AbortSignal): Promise<ModuleResult> {
  const source = encodeOntology(request.source);
  const outcome = valueOf(await pool.run(() => ({ ...request, source }), { signal, transferList: transferables(source) }), signal);
  signal.throwIfAborted();
  const counts = { axioms: outcome.axioms, entities: outcome.entities };
  if (outcome.encoded === undefined) return { ...counts, ...(outcome.text === undefined ? {} : { text: outcome.text }) };
  return { ...counts, ontology: await decodeOntologyYielding(outcome.encoded) };
}

/** Stops the module thread (shutdown, tests); a later extraction starts a new one. */
export function closeModulePool(): Promise<void> {
  return pool.close();
}
