// What a read query runs over when a tool or a QC stage evaluates a list of queries (verify_ontology's
// invariants, competency questions, the `invariants` and `cqs` QC stages): the live active closure or a
// private QC snapshot, the prefixes its queries may use undeclared, and the inferences `include_inferred`
// adds, obtained at most once per target.

import type { WindowState } from '../window/state.js';
import { DomainError } from '../util/errors.js';
import type { EvaluationResult } from './engine-protocol.js';
import { inferredDocument, type InferredSnapshot } from './inferred.js';
import { scanQuery, type PrefixTable, type QueryForm } from './query-form.js';
import { evaluateRead, queryPrefixes, refusal, type PrivateSnapshot } from './run.js';

export interface QueryTarget {
  /** The window whose engine thread evaluates. */
  readonly window: WindowState;
  /** Absent: the live active closure (the engine's cached snapshot of the current revision). */
  readonly snapshot?: PrivateSnapshot;
  readonly prefixes: PrefixTable;
  /** The inferences of this state; asked only when a query needs them. */
  readonly inferences: () => Promise<InferredSnapshot>;
  readonly signal: AbortSignal;
}

/** Runs `make` once, on first use, and keeps its promise. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let kept: Promise<T> | null = null;
  return () => (kept ??= make());
}

/** The live active closure with the window's current classification (TOOLS.md 1.10 rules). */
export function liveTarget(window: WindowState, signal: AbortSignal): QueryTarget {
  return { window, prefixes: queryPrefixes(window.workspace), inferences: once(async () => inferredDocument(window.reasoning)), signal };
}

/** A private snapshot; `inferences` is computed on first need and shared by every query of the target. */
export function snapshotTarget(
  window: WindowState,
  snapshot: PrivateSnapshot,
  inferences: () => Promise<InferredSnapshot>,
  signal: AbortSignal,
): QueryTarget {
  return { window, snapshot, prefixes: snapshot.prefixes, inferences: once(inferences), signal };
}

export interface ReadRequest {
  readonly query: string;
  /** The forms the caller can judge; any other is refused with `forbidden_query_form` before evaluation. */
  readonly forms: readonly QueryForm[];
  /** Why other forms are refused (ends the refusal message). */
  readonly formHint: string;
  readonly includeInferred: boolean;
  /** Without usable inferences: `fail` with their reason (TOOLS.md 1.10), or evaluate over the asserted graph. */
  readonly whenUninferred: 'fail' | 'asserted';
  readonly limit: number;
  readonly timeoutMs: number;
}

export interface ReadAnswer {
  readonly result: EvaluationResult;
  /** The inferences asked for, when they were not available (only with `whenUninferred: asserted`). */
  readonly uninferred?: string;
}

/** Scans, refuses what must not run, and evaluates one read query over the target; failures are DomainErrors. */
export async function runRead(target: QueryTarget, request: ReadRequest): Promise<ReadAnswer> {
  const scan = scanQuery(request.query, target.prefixes);
  const refused = refusal(scan);
  if (refused !== null) throw refused;
  if (scan.form !== 'UNKNOWN' && !request.forms.includes(scan.form)) {
    throw new DomainError(`${scan.form} is not allowed here: ${request.formHint}`, 'forbidden_query_form');
  }
  const inferred = request.includeInferred ? await target.inferences() : null;
  if (inferred !== null && inferred.kind !== 'ready' && request.whenUninferred === 'fail')
    throw new DomainError(inferred.message, inferred.code);
  const extra = inferred !== null && inferred.kind === 'ready' ? inferred : undefined;
  const options = {
    limit: request.limit,
    timeoutMs: request.timeoutMs,
    signal: target.signal,
    ...(target.snapshot === undefined ? {} : { snapshot: target.snapshot }),
  };
  const result = await evaluateRead(target.window, request.query, scan, options, extra);
  return { result, ...(inferred !== null && inferred.kind !== 'ready' ? { uninferred: inferred.message } : {}) };
}
