// SPARQL invariants (TOOLS.md verify_ontology, and the `invariants` QC stage): a query's answers are
// violations (any SELECT row, or ASK true). An item that cannot run (parse error, timeout, inferences
// unavailable, a refused form) reports `error` and never counts as a pass.

import { DomainError } from '../util/errors.js';
import type { ResultTerm } from './engine-protocol.js';
import { runRead, type QueryTarget } from './target.js';

export type InvariantSeverity = 'error' | 'warn' | 'info';

export interface InvariantSpec {
  readonly id: string;
  readonly sparql: string;
  readonly message: string;
  readonly severity: InvariantSeverity;
  readonly includeInferred: boolean;
}

/** One invariant's outcome (the `invariants[]` row of verify_ontology). */
export interface InvariantResult {
  readonly id: string;
  readonly severity: InvariantSeverity;
  readonly message: string;
  readonly violated: boolean;
  readonly violation_count?: number;
  readonly violations?: readonly Readonly<Record<string, ResultTerm>>[];
  readonly truncated?: number;
  readonly error?: string;
}

/** The default id and message of the `index`-th (0-based) invariant of a list (TOOLS.md verify_ontology). */
export function invariantSpec(
  item: {
    sparql: string;
    id?: string | undefined;
    message?: string | undefined;
    severity?: InvariantSeverity | undefined;
    include_inferred?: boolean | undefined;
  },
  index: number,
): InvariantSpec {
  const id = item.id ?? `invariant-${index + 1}`;
  return {
    id,
    sparql: item.sparql,
    message: item.message ?? `Invariant '${id}' violated.`,
    severity: item.severity ?? 'error',
    includeInferred: item.include_inferred ?? false,
  };
}

/** The first id two specs share, if any. */
export function duplicateId(specs: readonly { id: string }[]): string | undefined {
  const seen = new Set<string>();
  for (const s of specs) {
    if (seen.has(s.id)) return s.id;
    seen.add(s.id);
  }
  return undefined;
}

/** Evaluates one invariant over the target; a caller's cancellation propagates, every other failure is the row's `error`. */
export async function checkInvariant(target: QueryTarget, spec: InvariantSpec, limit: number, timeoutMs: number): Promise<InvariantResult> {
  const base = { id: spec.id, severity: spec.severity, message: spec.message };
  try {
    const { result } = await runRead(target, {
      query: spec.sparql,
      forms: ['SELECT', 'ASK'],
      formHint: 'an invariant is a SELECT (violating rows) or an ASK (true = violated)',
      includeInferred: spec.includeInferred,
      whenUninferred: 'fail',
      limit,
      timeoutMs,
    });
    if (result.kind === 'ask') return { ...base, violated: result.boolean, ...(result.boolean ? { violation_count: 1 } : {}) };
    if (result.kind !== 'select')
      throw new DomainError('an invariant is a SELECT (violating rows) or an ASK (true = violated)', 'forbidden_query_form');
    const omitted = result.total - result.rows.length;
    return {
      ...base,
      violated: result.total > 0,
      ...(result.total > 0 ? { violation_count: result.total, violations: result.rows } : {}),
      ...(omitted > 0 ? { truncated: omitted } : {}),
    };
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    if (e.code === 'cancelled') throw e;
    return { ...base, violated: false, error: e.message };
  }
}

/** Runs the invariants one after another over the same target (the engine keeps its snapshot between them). */
export async function checkInvariants(
  target: QueryTarget,
  specs: readonly InvariantSpec[],
  limit: number,
  timeoutMs: number,
): Promise<InvariantResult[]> {
  const out: InvariantResult[] = [];
  for (const spec of specs) out.push(await checkInvariant(target, spec, limit, timeoutMs));
  return out;
}
