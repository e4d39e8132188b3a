// The `cqs` QC stage (TOOLS.md run_qc_suite, run_project_qc): the competency questions of the snapshot's
// stores (cqs/*.rq and the sidecar manifest beside its document, its own annotations, so a preview's delta
// is judged too) and of a policy's `cqs.paths` assets (a directory of query files, one `.rq`, or a `.json`
// manifest), run over the gate's private snapshot as run_competency_questions runs them. A failed question
// is an error finding (rule `cq:<id>`); a question that cannot run, or a malformed or missing entry, makes
// the stage `error`: a gate must not pass on a question it silently dropped.

import { expectedText } from '../../cq/question.js';
import { byIdThenStore, loadAsset, loadQuestions, type StoredQuestion } from '../../cq/load.js';
import { runQuestion, stableRow, type QuestionOutcome } from '../../cq/run.js';
import type { Finding, QcSnapshot, StageOutcome } from '../finding.js';
import { findingId } from '../identity.js';
import { resolveAsset, type PolicyAssets } from './policy-assets.js';
import { qcQueryTarget, remainingMs, type SnapshotQueryContext } from './sparql-snapshot.js';

/** Rows kept per question (the row count is always exact). */
const ROWS_PER_QUESTION = 1000;

export interface CqsStageContext extends SnapshotQueryContext {
  readonly assets?: PolicyAssets | undefined;
}

interface Gathered {
  readonly questions: StoredQuestion[];
  readonly problems: string[];
}

async function gather(s: QcSnapshot, assets: PolicyAssets | undefined): Promise<Gathered> {
  const own = await loadQuestions(s.ontology);
  const questions = [...own.questions];
  const problems = own.skipped.map((k) => `${k.source}: ${k.reason}`);
  for (const relative of assets?.paths ?? []) {
    const asset = await resolveAsset(assets!.root, relative);
    if (!asset.ok) {
      problems.push(`cqs asset ${asset.path}: ${asset.reason}`);
      continue;
    }
    const load = await loadAsset(asset.absolute, asset.directory);
    // The same file may be both an asset and a store beside the document: count each question once.
    for (const q of load.questions) if (!questions.some((x) => x.source === q.source && x.question.id === q.question.id)) questions.push(q);
    problems.push(...load.skipped.map((k) => `${k.source}: ${k.reason}`));
    if (asset.directory && load.questions.length === 0 && load.skipped.length === 0)
      problems.push(`cqs asset ${asset.path}: the directory holds no .rq or .sparql file`);
  }
  return { questions: questions.sort(byIdThenStore), problems };
}

function findingOf(o: QuestionOutcome): Finding {
  const q = o.stored.question;
  const ruleId = `cq:${q.id}`;
  const about = q.text === undefined ? '' : ` (${q.text})`;
  return {
    id: findingId('cqs', ruleId, null, null, `${o.stored.convention}\u0000${o.stored.source}`),
    source: 'cqs',
    severity: 'error',
    message: `Competency question '${q.id}'${about} ${o.error === undefined ? `did not give the expected answer (${expectedText(q.expected)})` : `could not run: ${o.error}`}.`,
    focus_iri: null,
    axiom: null,
    path: o.stored.source,
    rule_id: ruleId,
    waiver: null,
    details: stableRow(o),
  };
}

export async function cqsStage(s: QcSnapshot, ctx: CqsStageContext): Promise<StageOutcome> {
  const { questions, problems } = await gather(s, ctx.assets);
  if (questions.length === 0 && problems.length === 0)
    return { stage: 'cqs', status: 'skipped', reason: 'no competency questions given', findings: [] };
  if (problems.length > 0) {
    return {
      stage: 'cqs',
      status: 'error',
      reason: `malformed competency questions: ${problems.join('; ')}`,
      findings: [],
      details: { problems },
    };
  }
  const target = qcQueryTarget(s, ctx);
  const outcomes: QuestionOutcome[] = [];
  for (const q of questions) outcomes.push(await runQuestion(target, q, ROWS_PER_QUESTION, remainingMs(ctx.deadline)));
  const findings = outcomes.filter((o) => !o.pass).map(findingOf);
  const errored = outcomes.filter((o) => o.error !== undefined);
  const passed = outcomes.filter((o) => o.pass).length;
  const details = { total: outcomes.length, passed, failed: outcomes.length - passed, questions: outcomes.map(stableRow) };
  if (errored.length > 0) {
    return {
      stage: 'cqs',
      status: 'error',
      reason: `${errored.length} competency question(s) could not run: ${errored.map((o) => `${o.stored.question.id} (${o.error})`).join('; ')}`,
      findings,
      details,
    };
  }
  return { stage: 'cqs', status: 'completed', verdict: findings.length > 0 ? 'fail' : 'pass', findings, details };
}
