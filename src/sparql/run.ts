// Running a read query for the tools: the prefixes a caller may use undeclared, the forms that are
// refused before evaluation, and the `sparql_query` result shape (TOOLS.md 3.9).

import type { Workspace } from '../model/workspace.js';
import type { Ontology } from '../model/ontology.js';
import { OWL, RDF, RDFS, XSD } from '../model/vocab.js';
import { ToolFailure, type JsonObject } from '../tools/tool.js';
import { isReadForm, type PrefixTable, type QueryScan } from './query-form.js';
import { SparqlFailure, sparqlEngine } from './engine.js';
import type { EvaluationResult } from './engine-protocol.js';

export const BUILT_IN_PREFIXES: PrefixTable = new Map([['rdf', RDF], ['rdfs', RDFS], ['owl', OWL], ['xsd', XSD]]);

// SPARQL's PN_PREFIX (ASCII subset plus letters): a prefix name outside it cannot be declared in a query.
const PREFIX_NAME = /^(?:\p{L}(?:[\p{L}\p{N}_.-]*[\p{L}\p{N}_-])?)?$/u;

/** The active ontology's prefixes plus rdf/rdfs/owl/xsd (which win: their meaning is fixed). */
export function queryPrefixes(ws: Workspace): PrefixTable {
  return ontologyPrefixes(ws.active);
}

/** `o`'s prefixes plus rdf/rdfs/owl/xsd (which win: their meaning is fixed). */
export function ontologyPrefixes(o: Ontology): PrefixTable {
  const table = new Map<string, string>();
  for (const [name, ns] of o.prefixes) {
    const bare = name.endsWith(':') ? name.slice(0, -1) : name;
    if (PREFIX_NAME.test(bare) && !/[<>"\s]/.test(ns)) table.set(bare, ns);
  }
  for (const [name, ns] of BUILT_IN_PREFIXES) table.set(name, ns);
  return new Map([...table].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The prologue prepended to every query, on one line so parser positions keep their column and are one
 * line late. A caller's own PREFIX declarations come later and override these.
 */
export function prologue(prefixes: PrefixTable): string {
  return [...prefixes].map(([name, ns]) => `PREFIX ${name}: <${ns}>`).join(' ') + '\n';
}

/** Parser messages say `error at L:C`; L counts the prologue line, which the caller did not write. */
export function callerPosition(message: string): string {
  return message.replace(/^error at (\d+):(\d+)/, (_m, line: string, col: string) => `error at ${Math.max(1, Number(line) - 1)}:${col}`);
}

export interface ReadOptions {
  readonly limit: number;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** A private snapshot (a QC snapshot's closure and its root's prefixes) instead of the live active closure. */
  readonly snapshot?: PrivateSnapshot;
}

export interface PrivateSnapshot {
  readonly closure: readonly Ontology[];
  readonly prefixes: PrefixTable;
}

/** Refuses what must never be evaluated; the message says why. */
export function refusal(scan: QueryScan): ToolFailure | null {
  if (scan.usesService) return new ToolFailure('SERVICE is not allowed: queries run over a private snapshot with no network access', 'service_not_allowed');
  if (scan.form === 'UPDATE') return new ToolFailure('SPARQL UPDATE is not allowed: the engine is read-only (use the editing tools to change the ontology)', 'forbidden_query_form');
  return null;
}

/** Evaluates a read query over the active ontology's imports-closure snapshot; failures are ToolFailures. */
export async function evaluateRead(ws: Workspace, query: string, scan: QueryScan, options: ReadOptions, inferred?: { key: string; document: string }): Promise<EvaluationResult> {
  const refused = refusal(scan);
  if (refused !== null) throw refused;
  // A request without a form keyword is handed over as SELECT only to obtain the parser's message.
  const form = isReadForm(scan.form) ? scan.form : 'SELECT';
  try {
    const prefixes = options.snapshot?.prefixes ?? queryPrefixes(ws);
    return await sparqlEngine(ws).evaluate(prologue(prefixes) + query, {
      form, limit: options.limit, timeoutMs: options.timeoutMs, signal: options.signal, extra: inferred, closure: options.snapshot?.closure,
    });
  } catch (e) {
    if (!(e instanceof SparqlFailure)) throw e;
    if (e.reason === 'syntax') throw new ToolFailure(`SPARQL syntax error: ${callerPosition(e.message)}`, 'parse_error');
    if (e.reason === 'timeout') throw new ToolFailure(e.message, 'timeout', { retryable: true });
    if (e.reason === 'cancelled') throw new ToolFailure(e.message, 'cancelled');
    throw new ToolFailure(`The query failed: ${e.message}`, 'query_error');
  }
}

/** The `sparql_query` result shape for one evaluation. */
export function queryResult(result: EvaluationResult, form: string): JsonObject {
  if (result.kind === 'ask') return { query_type: 'ASK', boolean: result.boolean };
  if (result.kind === 'select') {
    const omitted = result.total - result.rows.length;
    return { query_type: 'SELECT', vars: result.vars, count: result.total, bindings: result.rows, ...(omitted > 0 ? { truncated: omitted } : {}) };
  }
  const omitted = result.total - result.lines.length;
  const turtle = result.lines.length === 0 ? '' : result.lines.join('\n') + '\n';
  return { query_type: form, count: result.total, turtle, ...(omitted > 0 ? { truncated: omitted, shown: result.lines.length } : {}) };
}
