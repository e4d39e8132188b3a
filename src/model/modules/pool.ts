// Module extraction off the window thread: a one-thread piscina pool whose thread is terminated when the
// call's time bound passes or the call is cancelled, so a long extraction never blocks the window.

import { Piscina } from 'piscina';
import type { Ontology } from '../ontology.js';
import { decodeOntologyYielding, encodeOntology, transferables } from '../transfer.js';
import type { ModuleOutcome, ModuleTask } from './worker.js';

const IDLE_TIMEOUT_MS = 10_000;

let pool: Piscina<ModuleTask, ModuleOutcome> | null = null;

function thePool(): Piscina<ModuleTask, ModuleOutcome> {
  pool ??= new Piscina({
    filename: new URL('./worker.js', import.meta.url).href,
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: IDLE_TIMEOUT_MS,
  });
  return pool;
}

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
  const outcome = await thePool().run({ ...request, source }, { signal, transferList: transferables(source) });
  signal.throwIfAborted();
  const counts = { axioms: outcome.axioms, entities: outcome.entities };
  if (outcome.encoded === undefined) return { ...counts, ...(outcome.text === undefined ? {} : { text: outcome.text }) };
  return { ...counts, ontology: await decodeOntologyYielding(outcome.encoded) };
}

/** Stops the module thread (shutdown, tests); a later extraction starts a new pool. */
export async function closeModulePool(): Promise<void> {
  const p = pool;
  pool = null;
  await p?.destroy();
}
