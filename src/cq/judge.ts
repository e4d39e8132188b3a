// Whether a competency question's answer is the expected one (TOOLS.md run_competency_questions), and the
// caveats a judgement always carries: `empty` holds under the open-world assumption only as "not stated or
// entailed", and a truncated answer cannot show rows beyond `limit`.

import type { EvaluationResult, ResultRow, ResultTerm } from '../sparql/engine-protocol.js';
import type { CountOp, ExpectedCell, Expected } from './question.js';
import { unreachable } from '../util/unreachable.js';

export interface Judgement {
  readonly pass: boolean;
  readonly summary: Record<string, unknown>;
  readonly caveats: readonly string[];
}

export const OPEN_WORLD_CAVEAT =
  'Open world: an empty answer means nothing is stated (or, with inferences, entailed), not that no such thing exists.';

const COMPARE: Readonly<Record<CountOp, (a: number, b: number) => boolean>> = {
  '>=': (a, b) => a >= b,
  '<=': (a, b) => a <= b,
  '==': (a, b) => a === b,
  '>': (a, b) => a > b,
  '<': (a, b) => a < b,
};

function cellMatches(expected: ExpectedCell, actual: ResultTerm): boolean {
  if (typeof expected === 'string') return expected === actual.value;
  if (expected.type !== actual.type || expected.value !== actual.value) return false;
  if (expected.type !== 'literal' || actual.type !== 'literal') return true;
  return (
    (expected.lang ?? '').toLowerCase() === (actual.lang ?? '').toLowerCase() && (expected.datatype ?? null) === (actual.datatype ?? null)
  );
}

function rowMatches(expected: Readonly<Record<string, ExpectedCell>>, actual: ResultRow): boolean {
  const keys = Object.keys(expected);
  if (keys.length !== Object.keys(actual).length) return false;
  return Object.entries(expected).every(([k, cell]) => {
    const got = actual[k];
    return got !== undefined && cellMatches(cell, got);
  });
}

/** Order- and duplicate-insensitive equality of the row sets. */
export function sameRowSet(expected: readonly Readonly<Record<string, ExpectedCell>>[], actual: readonly ResultRow[]): boolean {
  return actual.every((a) => expected.some((e) => rowMatches(e, a))) && expected.every((e) => actual.some((a) => rowMatches(e, a)));
}

/** Judges one evaluation against the expectation. */
export function judge(expected: Expected, result: EvaluationResult): Judgement {
  const caveats: string[] = [];
  if (expected.kind === 'empty') caveats.push(OPEN_WORLD_CAVEAT);
  if (result.kind === 'ask') {
    const n = result.boolean ? 1 : 0;
    const summary = { query_type: 'ASK', boolean: result.boolean };
    if (expected.kind === 'exactRows')
      return { pass: false, summary, caveats: [...caveats, 'exactRows needs a SELECT query: an ASK answer has no rows.'] };
    return { pass: countPasses(expected, n), summary, caveats };
  }
  if (result.kind !== 'select') return { pass: false, summary: { query_type: 'graph' }, caveats };
  const omitted = result.total - result.rows.length;
  const summary = { query_type: 'SELECT', row_count: result.total, ...(omitted > 0 ? { truncated: omitted } : {}) };
  if (omitted > 0)
    caveats.push(`The answer was truncated at limit: ${omitted} of ${result.total} row(s) not returned (the row count is exact).`);
  if (expected.kind !== 'exactRows') return { pass: countPasses(expected, result.total), summary, caveats };
  if (omitted > 0) return { pass: false, summary, caveats: [...caveats, 'exactRows cannot be judged on a truncated answer: raise limit.'] };
  return { pass: sameRowSet(expected.rows, result.rows), summary, caveats };
}

function countPasses(expected: Exclude<Expected, { kind: 'exactRows' }>, n: number): boolean {
  switch (expected.kind) {
    case 'nonEmpty':
      return n > 0;
    case 'empty':
      return n === 0;
    case 'count':
      return COMPARE[expected.op](n, expected.value);
    default:
      return unreachable(expected);
  }
}
