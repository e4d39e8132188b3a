// Running a read query for the tools: the prefixes a caller may use undeclared, the forms that are
// refused before evaluation, and the `sparql_query` result shape (TOOLS.md 3.9).

import type { Workspace } from '../model/workspace.js';
import type { Ontology } from '../model/ontology.js';
import { OWL, RDF, RDFS, XSD } from '../model/vocab.js';
import { DomainError } from '../util/errors.js';
import { isReadForm, type PrefixTable, type QueryScan } from './query-form.js';
import { SparqlFailure } from './engine.js';
import type { WindowState } from '../window/state.js';
import type { EvaluationResult } from './engine-protocol.js';

export const BUILT_IN_PREFIXES: PrefixTable = new Map([
  ['rdf', RDF],
  ['rdfs', RDFS],
  ['owl', OWL],
  ['xsd', XSD],
]);

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

/** Alternatives shown of a parser's "expected one of …" list; the rest are counted. */
const EXPECTED_SHOWN = 8;

/** The top-level items of a parser's comma-separated alternatives (character classes `[…]` hold commas too). */
function alternatives(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const ch = list[i];
    if (ch === '[') depth++;
    else if (ch === ']') depth--;
    else if (ch === ',' && depth === 0) {
      out.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(list.slice(start).trim());
  return out.filter((x) => x !== '');
}

/** A character class of the grammar in words; `[_]` (any other token) says nothing and is dropped. */
function describeAlternative(item: string): string | null {
  if (!item.startsWith('[')) return item;
  if (item === '[_]') return null;
  if (item.includes("'A'")) return 'a name';
  if (item.includes("'0'")) return 'a digit';
  return 'another character';
}

/**
 * A parser message (`error at L:C: expected …`, possibly listing the grammar's character classes over several
 * lines) as one sentence: the caller's line (L counts the prologue line, which the caller did not write),
 * the column, and what was expected, with long lists cut short.
 */
export function syntaxProblem(message: string): string {
  const m = /^error at (\d+):(\d+):\s*([\s\S]*)$/.exec(message.trim());
  if (m === null) return message.replace(/\s+/g, ' ').trim();
  // every group takes part in a match (the last may be empty)
  const [, line = '', column = '', detail = ''] = m;
  const where = `line ${Math.max(1, Number(line) - 1)}, column ${column}`;
  const list = /^expected one of ([\s\S]*)$/.exec(detail);
  if (list === null) return `${where}: ${detail.replace(/\s+/g, ' ').trim()}`;
  const items = [
    ...new Set(
      alternatives(list[1] ?? '')
        .map(describeAlternative)
        .filter((x): x is string => x !== null),
    ),
  ];
  const shown = items.slice(0, EXPECTED_SHOWN).join(', ');
  return `${where}: expected one of ${shown}${items.length > EXPECTED_SHOWN ? ` or ${items.length - EXPECTED_SHOWN} more` : ''}`;
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
export function refusal(scan: QueryScan): DomainError | null {
  if (scan.usesService)
    return new DomainError('SERVICE is not allowed: queries run over a private snapshot with no network access', 'service_not_allowed');
  if (scan.form === 'UPDATE')
    return new DomainError(
      'SPARQL UPDATE is not allowed: the engine is read-only (use the editing tools to change the ontology)',
      'forbidden_query_form',
    );
  return null;
}

/** Evaluates a read query over the active ontology's imports-closure snapshot; failures are DomainErrors. */
export async function evaluateRead(
  window: WindowState,
  query: string,
  scan: QueryScan,
  options: ReadOptions,
  inferred?: { key: string; document: string },
): Promise<EvaluationResult> {
  const refused = refusal(scan);
  if (refused !== null) throw refused;
  // A request without a form keyword is handed over as SELECT only to obtain the parser's message.
  const form = isReadForm(scan.form) ? scan.form : 'SELECT';
  try {
    const prefixes = options.snapshot?.prefixes ?? queryPrefixes(window.workspace);
    return await window.sparql.evaluate(prologue(prefixes) + query, {
      form,
      limit: options.limit,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      extra: inferred,
      closure: options.snapshot?.closure,
    });
  } catch (e) {
    if (!(e instanceof SparqlFailure)) throw e;
    if (e.reason === 'syntax') throw new DomainError(`SPARQL syntax error at ${syntaxProblem(e.message)}`, 'parse_error');
    if (e.reason === 'timeout') throw new DomainError(e.message, 'timeout', { retryable: true });
    if (e.reason === 'cancelled') throw new DomainError(e.message, 'cancelled');
    throw new DomainError(`The query failed: ${e.message}`, 'query_error');
  }
}

/** The `sparql_query` result shape for one evaluation (one shape per query form). */
export function queryResult(result: EvaluationResult, form: string) {
  if (result.kind === 'ask') return { query_type: 'ASK' as const, boolean: result.boolean };
  if (result.kind === 'select') {
    const omitted = result.total - result.rows.length;
    return {
      query_type: 'SELECT' as const,
      vars: result.vars,
      count: result.total,
      bindings: result.rows,
      ...(omitted > 0 ? { truncated: omitted } : {}),
    };
  }
  const omitted = result.total - result.lines.length;
  const turtle = result.lines.length === 0 ? '' : result.lines.join('\n') + '\n';
  return { query_type: form, count: result.total, turtle, ...(omitted > 0 ? { truncated: omitted, shown: result.lines.length } : {}) };
}
