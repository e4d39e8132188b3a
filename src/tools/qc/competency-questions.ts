// Competency questions (TOOLS.md 3.3): add_competency_question, list_competency_questions,
// remove_competency_question, run_competency_questions, over the three stores of src/cq (robot-sparql-dir
// and sidecar-manifest beside the active document, ontology-annotations in the ontology itself). File
// targets derive from the open document and are authorized as such (filesystem:project:write, confined by a
// policy); an annotation edit is one undo unit.

import * as v from 'valibot';
import { defineTool, always, never, ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';
import { authorizeLocalPath } from '../../policy/authorize.js';
import { localDocumentOf } from '../../policy/paths.js';
import { SparqlFailure } from '../../sparql/engine.js';
import { scanQuery } from '../../sparql/query-form.js';
import { prologue, queryPrefixes, refusal, syntaxProblem } from '../../sparql/run.js';
import { liveTarget } from '../../sparql/target.js';
import { addChanges, ANNOTATION_TARGET, removeChange } from '../../cq/annotation-store.js';
import { addToManifest, removeFromManifest, removeRq, robotDirOf, rqTarget, sidecarOf, writeRq } from '../../cq/file-stores.js';
import { loadQuestions, type QuestionCatalog, type StoredQuestion } from '../../cq/load.js';
import { CONVENTIONS, CqFormatError, questionFrom, questionJson, type CompetencyQuestion, type Convention } from '../../cq/question.js';
import { outcomeRow, runQuestions } from '../../cq/run.js';
import { AnyList, AnyObject } from '../core/result-shapes.js';

const ConventionArg = v.picklist(CONVENTIONS as [Convention, ...Convention[]]);

const Line = (max: number) => v.pipe(v.string(), v.nonEmpty(), v.maxLength(max));

/** The id `CQ-N` after the highest N any store uses. */
function nextId(catalog: QuestionCatalog): string {
  let max = 0;
  for (const s of catalog.questions) {
    const m = /^CQ-(\d{1,9})$/.exec(s.question.id);
    if (m !== null) max = Math.max(max, Number(m[1]));
  }
  return `CQ-${max + 1}`;
}

/** TOOLS.md: follow the store already holding the id, else the first existing store, else robot-sparql-dir (annotations when unsaved). */
function chooseConvention(catalog: QuestionCatalog, id: string, document: string | null): Convention {
  const holders = [...new Set(catalog.questions.filter((s) => s.question.id === id).map((s) => s.convention))];
  const [holder] = holders;
  if (holders.length === 1 && holder !== undefined) return holder;
  const [found] = catalog.conventionsFound;
  if (found !== undefined) return found;
  return document === null ? 'ontology-annotations' : 'robot-sparql-dir';
}

function requireDocument(ctx: ToolContext, convention: Convention): string {
  const document = localDocumentOf(ctx.workspace.active);
  if (document === null) {
    throw new ToolFailure(
      `The ${convention} store lives beside the active ontology's document, and it has none: save it first or use convention ontology-annotations`,
      'invalid_argument',
      { argument: 'convention' },
    );
  }
  return document;
}

/** A syntax check by the engine (no snapshot is built), so a broken question is never stored. */
async function checkSyntax(ctx: ToolContext, query: string): Promise<void> {
  const scan = scanQuery(query, queryPrefixes(ctx.workspace));
  const refused = refusal(scan);
  if (refused !== null) throw refused;
  if (scan.form !== 'SELECT' && scan.form !== 'ASK' && scan.form !== 'UNKNOWN') {
    throw new ToolFailure(`${scan.form} cannot be a competency question: use SELECT or ASK`, 'forbidden_query_form', { argument: 'query' });
  }
  try {
    await ctx.window.sparql.evaluate(prologue(queryPrefixes(ctx.workspace)) + query, {
      form: scan.form === 'ASK' ? 'ASK' : 'SELECT',
      limit: 0,
      timeoutMs: 30_000,
      signal: ctx.signal,
      parseOnly: true,
    });
  } catch (e) {
    if (!(e instanceof SparqlFailure)) throw e;
    if (e.reason === 'syntax')
      throw new ToolFailure(`SPARQL syntax error at ${syntaxProblem(e.message)}`, 'parse_error', { argument: 'query' });
    if (e.reason === 'cancelled') throw new ToolFailure(e.message, 'cancelled');
  }
}

/** Writes `q` to a file store, authorized as a write derived from the open document; the file written. */
async function addToFileStore(
  ctx: ToolContext,
  convention: 'robot-sparql-dir' | 'sidecar-manifest',
  q: CompetencyQuestion,
): Promise<string> {
  const document = requireDocument(ctx, convention);
  try {
    if (convention === 'sidecar-manifest') {
      const file = await authorizeLocalPath(ctx, 'add_competency_question', sidecarOf(document), 'write', { derived: true });
      await addToManifest(file, q);
      return file;
    }
    const dir = await authorizeLocalPath(ctx, 'add_competency_question', robotDirOf(document), 'write', { derived: true });
    const file = await rqTarget(dir, q);
    await writeRq(await authorizeLocalPath(ctx, 'add_competency_question', file, 'write', { derived: true }), q);
    return file;
  } catch (e) {
    throw storeConflict(e, convention);
  }
}

/** A store entry that does not validate while a question is written or removed: the store, not the call, is at fault. */
function storeConflict(e: unknown, convention: Convention): unknown {
  return e instanceof CqFormatError ? new ToolFailure(e.message, 'store_conflict', { convention }) : e;
}

export const addCompetencyQuestion = defineTool({
  name: 'add_competency_question',
  description: 'Add or replace (same id) a SPARQL competency question with its expected answer.',
  input: v.strictObject({
    query: v.pipe(v.string(), v.nonEmpty(), v.maxLength(1_000_000), v.description('SELECT or ASK.')),
    id: v.optional(v.pipe(Line(128), v.description('Default CQ-N.'))),
    text: v.optional(Line(4000)),
    type: v.optional(Line(200)),
    query_lang: v.optional(v.picklist(['sparql']), 'sparql'),
    include_inferred: v.optional(v.boolean(), true),
    expected: v.optional(
      v.pipe(v.string(), v.nonEmpty(), v.maxLength(100), v.description('nonEmpty, empty, or count OP N (OP: >= <= == > <).')),
      'nonEmpty',
    ),
    tags: v.optional(v.pipe(v.array(Line(200)), v.maxLength(64))),
    convention: v.optional(ConventionArg),
  }),
  output: v.object({ added: AnyObject, convention: v.string(), target: v.string(), replaced: v.boolean() }),
  capabilities: ['ontology:curate'],
  mutating: always,
  // a file store's question of the same id is replaced, which undo cannot restore
  destructive: true,
  summary: (args) => `add_competency_question ${args.id ?? '(new id)'}${args.convention === undefined ? '' : ' in ' + args.convention}`,
  handler: async (args, ctx) => {
    const o = ctx.workspace.active;
    const catalog = await loadQuestions(o);
    const id = args.id ?? nextId(catalog);
    const q = questionFrom({
      id,
      text: args.text,
      type: args.type,
      query_lang: args.query_lang,
      query: args.query,
      include_inferred: args.include_inferred,
      expected: args.expected,
      tags: args.tags,
    });
    await checkSyntax(ctx, q.query);
    const convention = args.convention ?? chooseConvention(catalog, id, localDocumentOf(o));
    const replaced = catalog.questions.some((s) => s.question.id === id && s.convention === convention);
    let target: string;
    if (convention === 'ontology-annotations') {
      const changes = addChanges(o, q);
      if (changes.length > 0) ctx.workspace.apply(changes);
      target = ANNOTATION_TARGET;
    } else {
      target = await addToFileStore(ctx, convention, q);
    }
    return { added: questionJson(q), convention, target, replaced };
  },
});

/** One listed question: its entry, the store and where it is held. */
function listedRow(s: StoredQuestion): JsonObject {
  return { ...questionJson(s.question), convention: s.convention, source: s.source };
}

export const listCompetencyQuestions = defineTool({
  name: 'list_competency_questions',
  description: 'Competency questions of every store, by id.',
  input: v.strictObject({}),
  output: v.object({ count: v.number(), conventions_found: AnyList, competency_questions: AnyList, skipped: AnyList }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: async (_args, ctx) => {
    const catalog = await loadQuestions(ctx.workspace.active);
    return {
      count: catalog.questions.length,
      conventions_found: catalog.conventionsFound,
      competency_questions: catalog.questions.map(listedRow),
      skipped: catalog.skipped,
    };
  },
});

export const removeCompetencyQuestion = defineTool({
  name: 'remove_competency_question',
  description: 'Remove a competency question by id.',
  input: v.strictObject({
    id: Line(128),
    convention: v.optional(ConventionArg),
  }),
  output: v.object({ removed: v.boolean(), id: v.string(), convention: v.string(), target: v.string() }),
  capabilities: ['ontology:curate'],
  mutating: always,
  // removal from a file store is not undoable
  destructive: true,
  summary: (args) => `remove_competency_question ${args.id}${args.convention === undefined ? '' : ' from ' + args.convention}`,
  handler: async (args, ctx) => {
    const o = ctx.workspace.active;
    const catalog = await loadQuestions(o);
    const holders = catalog.questions.filter(
      (s) => s.question.id === args.id && (args.convention === undefined || s.convention === args.convention),
    );
    const [holder] = holders;
    if (holder === undefined) {
      throw new ToolFailure(
        `No competency question '${args.id}'${args.convention === undefined ? '' : ` in ${args.convention}`}`,
        'not_found',
        { id: args.id },
      );
    }
    if (holders.length > 1) {
      const conventions = holders.map((h) => h.convention);
      throw new ToolFailure(`The id '${args.id}' is held by several stores (${conventions.join(', ')}): pass convention`, 'ambiguous', {
        id: args.id,
        conventions,
      });
    }
    const { convention, source } = holder;
    if (convention === 'ontology-annotations') {
      const change = removeChange(o, args.id);
      if (change !== null) ctx.workspace.apply([change]);
    } else {
      const file = await authorizeLocalPath(ctx, 'remove_competency_question', source, 'write', { derived: true });
      try {
        const removed =
          convention === 'sidecar-manifest'
            ? await removeFromManifest(file, args.id)
            : (await removeRq(robotDirOf(requireDocument(ctx, convention)), args.id)) !== null;
        if (!removed)
          throw new ToolFailure(`The competency question '${args.id}' left ${source} while it was being removed`, 'not_found', {
            id: args.id,
          });
      } catch (e) {
        throw storeConflict(e, convention);
      }
    }
    return { removed: true, id: args.id, convention, target: source };
  },
});

const DEFAULT_TIMEOUT_MS = 120_000;

export const runCompetencyQuestions = defineTool({
  name: 'run_competency_questions',
  description: 'Run competency questions against their expected answers.',
  input: v.strictObject({
    ids: v.optional(v.pipe(v.array(Line(128)), v.maxLength(10_000))),
    convention: v.optional(ConventionArg),
    // TOOLS.md gives defaults only; these bounds keep one call bounded.
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000)), 1000),
    timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3_600_000)), DEFAULT_TIMEOUT_MS),
    fail_on: v.optional(v.picklist(['none', 'any']), 'none'),
  }),
  output: v.object({
    total: v.number(),
    passed: v.number(),
    failed: v.number(),
    fail_on: v.string(),
    gate: v.string(),
    questions: AnyList,
    skipped: AnyList,
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: async (args, ctx) => {
    const ws = ctx.workspace;
    const revision = ws.revision;
    const catalog = await loadQuestions(ws.active);
    let selected = catalog.questions.filter((s) => args.convention === undefined || s.convention === args.convention);
    if (args.ids !== undefined) {
      const wanted = new Set(args.ids);
      const unknown = [...wanted].filter((id) => !selected.some((s) => s.question.id === id)).sort();
      if (unknown.length > 0)
        throw new ToolFailure(
          `No competency question with id ${unknown.join(', ')}${args.convention === undefined ? '' : ` in ${args.convention}`}`,
          'not_found',
          { ids: unknown },
        );
      selected = selected.filter((s) => wanted.has(s.question.id));
    }
    const outcomes = await runQuestions(liveTarget(ctx.window, ctx.signal), selected, args.limit, args.timeout_ms);
    if (ws.revision !== revision) {
      throw new ToolFailure(
        'The ontology changed while the competency questions ran, so they did not all see one snapshot; run them again',
        'snapshot_changed',
        { retryable: true },
      );
    }
    const passed = outcomes.filter((o) => o.pass).length;
    const failed = outcomes.length - passed;
    return {
      total: outcomes.length,
      passed,
      failed,
      fail_on: args.fail_on,
      gate: args.fail_on === 'any' && failed > 0 ? 'fail' : 'pass',
      questions: outcomes.map(outcomeRow),
      skipped: catalog.skipped,
    };
  },
});
