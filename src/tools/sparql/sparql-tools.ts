// SPARQL over a private snapshot of the imports closure (TOOLS.md 3.9) and SPARQL invariants
// (`verify_ontology`, TOOLS.md 3.3). The engine is oxigraph on its own thread (src/sparql/engine.ts).

import * as v from 'valibot';
import { defineTool, never, ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';
import { AnyList, AnyObject, StringList } from '../core/result-shapes.js';
import { isReadForm, scanQuery, type QueryScan } from '../../sparql/query-form.js';
import { syntaxProblem, evaluateRead, prologue, queryPrefixes, queryResult, refusal, type ReadOptions } from '../../sparql/run.js';
import { SparqlFailure } from '../../sparql/engine.js';
import { inferredDocument } from '../../sparql/inferred.js';
import { describeSchema } from '../../sparql/schema.js';
import { checkInvariants, duplicateId, invariantSpec, type InvariantSeverity } from '../../sparql/invariants.js';
import { liveTarget } from '../../sparql/target.js';
import { OWL, RDF, RDFS, XSD } from '../../model/vocab.js';

const DEFAULT_LIMIT = 1000;
const DEFAULT_TIMEOUT_MS = 120_000;

/** An int documented "(≤0→default)" (TOOLS.md 1.1); the upper bounds are not documented and keep results bounded. */
const intOrDefault = (fallback: number, max: number) =>
  v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.maxValue(max),
      v.transform((n) => (n <= 0 ? fallback : n)),
    ),
    fallback,
  );

const Limit = intOrDefault(DEFAULT_LIMIT, 100_000);
const TimeoutMs = intOrDefault(DEFAULT_TIMEOUT_MS, 3_600_000);
const Query = v.pipe(v.string(), v.nonEmpty(), v.maxLength(1_000_000));

const ENGINE_NOTE =
  "Evaluated by oxigraph over a private in-memory snapshot of the active ontology's imports closure (OWL 2 RDF mapping); no network.";

function readOptions(ctx: ToolContext, limit: number, timeoutMs: number): ReadOptions {
  return { limit, timeoutMs, signal: ctx.signal };
}

/** A query's rows, boolean or Turtle, by its form; a row's variables are the query's own, so rows stay untyped. */
const QueryOutput = v.union([
  v.object({ query_type: v.literal('ASK'), boolean: v.boolean(), note: v.string() }),
  v.object({
    query_type: v.literal('SELECT'),
    vars: StringList,
    count: v.number(),
    bindings: AnyList,
    truncated: v.optional(v.number()),
    note: v.string(),
  }),
  v.object({
    query_type: v.string(),
    count: v.number(),
    turtle: v.string(),
    truncated: v.optional(v.number()),
    shown: v.optional(v.number()),
    note: v.string(),
  }),
]);

/** Runs a read query with or without the reasoner's inferences; `note` says what the snapshot held. */
async function runQuery(
  ctx: ToolContext,
  query: string,
  scan: QueryScan,
  includeInferred: boolean,
  options: ReadOptions,
): Promise<v.InferOutput<typeof QueryOutput>> {
  const refused = refusal(scan);
  if (refused !== null) throw refused;
  const inferred = includeInferred ? inferredDocument(ctx.window.reasoning) : null;
  if (inferred !== null && inferred.kind !== 'ready') throw new ToolFailure(inferred.message, inferred.code);
  const result = await evaluateRead(ctx.window, query, scan, options, inferred === null ? undefined : inferred);
  const note = inferred === null ? ENGINE_NOTE : `${ENGINE_NOTE} ${inferred.note}`;
  return { ...queryResult(result, scan.form), note };
}

export const sparqlQuery = defineTool({
  name: 'sparql_query',
  description: 'Run a read-only SPARQL query over the imports closure.',
  input: v.strictObject({
    query: Query,
    include_inferred: v.optional(v.boolean(), false),
    limit: Limit,
    timeout_ms: TimeoutMs,
  }),
  output: QueryOutput,
  capabilities: ['ontology:read'],
  mutating: never,
  handler: async (args, ctx) => {
    const scan = scanQuery(args.query, queryPrefixes(ctx.workspace));
    return runQuery(ctx, args.query, scan, args.include_inferred, readOptions(ctx, args.limit, args.timeout_ms));
  },
});

const BUILT_IN_NAMESPACES = [RDF, RDFS, OWL, XSD];

/** IRIs the query mentions that name nothing in the closure (own ontology/version IRIs and built-ins excluded). */
function unknownTerms(ctx: ToolContext, scan: QueryScan): JsonObject[] {
  const own = new Set<string>();
  for (const o of ctx.resolver.closure) {
    if (o.id.iri !== null) own.add(o.id.iri);
    if (o.id.versionIri !== null) own.add(o.id.versionIri);
  }
  return scan.iris
    .filter((m) => !own.has(m.iri) && !BUILT_IN_NAMESPACES.some((ns) => m.iri.startsWith(ns)) && ctx.resolver.kindsOf(m.iri).size === 0)
    .map((m) => (m.curie === undefined ? { iri: m.iri } : { curie: m.curie, iri: m.iri }));
}

interface Parsed {
  valid: boolean;
  vars: readonly string[];
  parseError?: string;
  /** Set when the parse was not attempted by the engine, with why. */
  unchecked?: string;
}

/** Parses a read query against an empty store (no snapshot), or an UPDATE on a throwaway store. */
async function parse(ctx: ToolContext, query: string, scan: QueryScan, timeoutMs: number): Promise<Parsed> {
  if (scan.form === 'UPDATE' && scan.usesLoad)
    return { valid: true, vars: [], unchecked: 'UPDATE with LOAD is only scanned lexically: checking it with the engine could fetch.' };
  const form = isReadForm(scan.form) ? scan.form : scan.form === 'UPDATE' ? 'UPDATE' : 'SELECT';
  try {
    const result = await ctx.window.sparql.evaluate(prologue(queryPrefixes(ctx.workspace)) + query, {
      form,
      limit: 0,
      timeoutMs,
      signal: ctx.signal,
      parseOnly: true,
    });
    return { valid: true, vars: result.kind === 'select' ? result.vars : [] };
  } catch (e) {
    if (!(e instanceof SparqlFailure)) throw e;
    if (e.reason === 'syntax') return { valid: false, vars: [], parseError: syntaxProblem(e.message) };
    if (e.reason === 'timeout') throw new ToolFailure(e.message, 'timeout', { retryable: true });
    if (e.reason === 'cancelled') throw new ToolFailure(e.message, 'cancelled');
    // Parsed, but evaluating it over an empty store failed (e.g. a SERVICE it may not call): still valid.
    return { valid: true, vars: [] };
  }
}

export const sparqlValidate = defineTool({
  name: 'sparql_validate',
  description: 'Parse a SPARQL query, optionally run a sample; undeclared IRIs reported.',
  input: v.strictObject({
    query: Query,
    dry_run: v.optional(v.boolean(), false),
    sample_limit: intOrDefault(5, 1000),
    timeout_ms: TimeoutMs,
  }),
  output: v.object({
    valid: v.boolean(),
    query_type: v.string(),
    executable: v.boolean(),
    vars: StringList,
    uses_service: v.boolean(),
    parse_error: v.optional(v.string()),
    unknown_terms: AnyList,
    issues: StringList,
    sample: v.optional(AnyObject),
    sample_error: v.optional(v.string()),
    note: v.string(),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: async (args, ctx) => {
    const scan = scanQuery(args.query, queryPrefixes(ctx.workspace));
    const parsed = await parse(ctx, args.query, scan, args.timeout_ms);
    const executable = parsed.valid && isReadForm(scan.form) && !scan.usesService;
    const unknown = unknownTerms(ctx, scan);
    const issues: string[] = [];
    if (scan.form === 'UPDATE') issues.push('UPDATE is not executable: sparql_query is read-only.');
    if (scan.usesService) issues.push('SERVICE is not executable: queries have no network access.');
    if (unknown.length > 0) issues.push(`${unknown.length} IRI(s) name nothing declared in the imports closure (see unknown_terms).`);
    if (parsed.unchecked !== undefined) issues.push(parsed.unchecked);
    let tried: { sample: JsonObject } | { sample_error: string } | Record<string, never> = {};
    if (args.dry_run && executable) {
      try {
        const { note: _note, ...sample } = await runQuery(
          ctx,
          args.query,
          scan,
          false,
          readOptions(ctx, args.sample_limit, args.timeout_ms),
        );
        tried = { sample };
      } catch (e) {
        if (!(e instanceof ToolFailure)) throw e;
        tried = { sample_error: e.message };
      }
    }
    return {
      valid: parsed.valid,
      query_type: scan.form,
      executable,
      vars: parsed.vars,
      uses_service: scan.usesService,
      ...(parsed.parseError !== undefined ? { parse_error: parsed.parseError } : {}),
      unknown_terms: unknown,
      issues,
      ...tried,
      note: `Parsed by oxigraph with the ontology prefixes and rdf/rdfs/owl/xsd predeclared${args.dry_run && !executable ? '; no dry run: the query is not executable' : ''}.`,
    };
  },
});

export const sparqlSchema = defineTool({
  name: 'sparql_schema',
  description: 'Classes, properties, prefixes and example queries for writing SPARQL.',
  input: v.strictObject({
    keyword: v.optional(v.pipe(v.string(), v.maxLength(500))),
    limit: intOrDefault(100, 10_000),
    include_imports: v.optional(v.boolean(), true),
    include_individuals: v.optional(v.boolean(), true),
    include_examples: v.optional(v.boolean(), true),
    timeout_ms: TimeoutMs,
  }),
  output: v.object({
    active_ontology: AnyObject,
    counts: v.unknown(),
    matched: v.optional(v.unknown()),
    prefixes: AnyObject,
    prefix_lines: v.string(),
    keyword: v.optional(v.string()),
    truncated: v.optional(v.unknown()),
    note: v.string(),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (args, ctx) => {
    const active = ctx.workspace.active;
    const scope = args.include_imports ? ctx.resolver.closure : [active];
    const prefixes = queryPrefixes(ctx.workspace);
    const keyword = args.keyword === undefined || args.keyword.trim() === '' ? undefined : args.keyword.trim();
    const schema = describeSchema(scope, prefixes, {
      keyword,
      limit: args.limit,
      includeIndividuals: args.include_individuals,
      includeExamples: args.include_examples,
      labelLanguage: ctx.settings.label_language,
    });
    const { counts, matched, truncated, ...lists } = schema;
    return {
      active_ontology: {
        ontology_iri: active.id.iri,
        version_iri: active.id.versionIri,
        scope: args.include_imports ? 'imports_closure' : 'active_ontology',
      },
      counts,
      ...(matched !== undefined ? { matched } : {}),
      prefixes: Object.fromEntries(prefixes),
      prefix_lines: [...prefixes].map(([name, ns]) => `PREFIX ${name}: <${ns}>`).join('\n'),
      ...lists,
      ...(keyword !== undefined ? { keyword } : {}),
      ...(truncated !== undefined ? { truncated } : {}),
      // The lists are built synchronously from the asserted model's indexes, so timeout_ms never expires here.
      note: 'Asserted vocabulary only (no inferences); domains, ranges and types list named classes and datatypes; these prefixes are predeclared in sparql_query.',
    };
  },
});

const Severity = v.picklist(['error', 'warn', 'info']);
const RANK = { none: 99, info: 1, warn: 2, error: 3 } as const satisfies Readonly<Record<InvariantSeverity | 'none', number>>;

const Invariant = v.strictObject({
  sparql: Query,
  id: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(200))),
  message: v.optional(v.pipe(v.string(), v.maxLength(2000))),
  severity: v.optional(Severity, 'error'),
  include_inferred: v.optional(v.boolean(), false),
});

export const verifyOntology = defineTool({
  name: 'verify_ontology',
  description: 'Check SPARQL invariants: a SELECT row or ASK true is a violation.',
  input: v.strictObject({
    queries: v.pipe(v.array(Invariant), v.minLength(1), v.maxLength(500)),
    profile: v.optional(v.string()),
    fail_on: v.optional(v.picklist(['none', 'info', 'warn', 'error']), 'error'),
    limit: intOrDefault(DEFAULT_LIMIT, 100_000),
    timeout_ms: intOrDefault(DEFAULT_TIMEOUT_MS, 3_600_000),
  }),
  output: v.object({
    checked: v.number(),
    violations: v.number(),
    errors: v.number(),
    fail_on: v.string(),
    gate: v.picklist(['pass', 'fail']),
    invariants: AnyList,
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: async (args, ctx) => {
    if (args.profile !== undefined) {
      throw new ToolFailure(
        `profile '${args.profile}' is not available: persisted invariant sets are not supported; pass the invariants in queries`,
        'profile_not_found',
      );
    }
    const specs = args.queries.map(invariantSpec);
    const duplicate = duplicateId(specs);
    if (duplicate !== undefined) throw new ToolFailure(`Two invariants share the id '${duplicate}'`, 'invalid_argument');
    // Items run one after another over the same snapshot (the engine reuses it while the model is unchanged).
    const invariants = await checkInvariants(liveTarget(ctx.window, ctx.signal), specs, args.limit, args.timeout_ms);
    const errors = invariants.filter((r) => r.error !== undefined).length;
    const violated = invariants.filter((r) => r.violated);
    const gating = violated.some((r) => RANK[r.severity] >= RANK[args.fail_on]);
    return {
      checked: invariants.length,
      violations: violated.length,
      errors,
      fail_on: args.fail_on,
      gate: errors > 0 || gating ? ('fail' as const) : ('pass' as const),
      invariants,
    };
  },
});
