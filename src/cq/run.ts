// Running competency questions over one query target (TOOLS.md run_competency_questions, and the `cqs` QC
// stage): one after another over the same snapshot, each bounded by `timeoutMs`. A question whose inferences
// are unavailable runs over the asserted graph and says so; one that cannot run reports `error` and fails.

import { DomainError } from '../util/errors.js';
import type { JsonObject } from '../util/json-object.js';
import { runRead, type QueryTarget } from '../sparql/target.js';
import { judge } from './judge.js';
import type { StoredQuestion } from './load.js';
import { expectedText } from './question.js';

export interface QuestionOutcome {
  readonly stored: StoredQuestion;
  readonly pass: boolean;
  readonly summary: Record<string, unknown> | null;
  readonly ms: number;
  readonly caveats: readonly string[];
  readonly error?: string;
}

const FORM_HINT = 'a competency question is a SPARQL SELECT or ASK';

export async function runQuestion(target: QueryTarget, stored: StoredQuestion, limit: number, timeoutMs: number): Promise<QuestionOutcome> {
  const q = stored.question;
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  try {
    const answer = await runRead(target, {
      query: q.query,
      forms: ['SELECT', 'ASK'],
      formHint: FORM_HINT,
      includeInferred: q.include_inferred,
      whenUninferred: 'asserted',
      limit,
      timeoutMs,
    });
    const verdict = judge(q.expected, answer.result);
    const uninferred = answer.uninferred === undefined ? [] : [`Evaluated over the asserted axioms only: ${answer.uninferred}.`];
    return { stored, pass: verdict.pass, summary: verdict.summary, ms: ms(), caveats: [...uninferred, ...verdict.caveats] };
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    if (e.code === 'cancelled') throw e;
    return { stored, pass: false, summary: null, ms: ms(), caveats: [], error: e.message };
  }
}

export async function runQuestions(
  target: QueryTarget,
  questions: readonly StoredQuestion[],
  limit: number,
  timeoutMs: number,
): Promise<QuestionOutcome[]> {
  const out: QuestionOutcome[] = [];
  for (const q of questions) out.push(await runQuestion(target, q, limit, timeoutMs));
  return out;
}

/** The `questions[]` row of run_competency_questions. */
export function outcomeRow(o: QuestionOutcome): JsonObject {
  const q = o.stored.question;
  return {
    id: q.id,
    ...(q.text === undefined ? {} : { text: q.text }),
    expected: expectedText(q.expected),
    convention: o.stored.convention,
    pass: o.pass,
    actual_summary: o.summary,
    ms: o.ms,
    ...(o.caveats.length > 0 ? { caveats: o.caveats } : {}),
    ...(o.error === undefined ? {} : { error: o.error }),
  };
}

/** The row without its timing, for reports that must be identical for identical content (QC stages). */
export function stableRow(o: QuestionOutcome): JsonObject {
  const { ms: _ms, ...row } = outcomeRow(o);
  return row;
}
