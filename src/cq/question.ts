// A competency question (TOOLS.md add_competency_question): a SPARQL SELECT or ASK and the answer it must
// give. The entry shape `{id, text?, type?, query_lang, query, include_inferred, expected {kind, op?, value?,
// rows?}, tags?}` is shared by the sidecar manifest and the ontology annotations; the `expected` string
// grammar is `nonEmpty | empty | count OP N` (OP one of >= <= == > <).

import type { ResultTerm } from '../sparql/engine-protocol.js';
import { DomainError } from '../util/errors.js';
import { unreachable } from '../util/unreachable.js';

export type Convention = 'robot-sparql-dir' | 'sidecar-manifest' | 'ontology-annotations';

/** The stores in the order they are listed and searched. */
export const CONVENTIONS: readonly Convention[] = ['robot-sparql-dir', 'sidecar-manifest', 'ontology-annotations'];

export type CountOp = '>=' | '<=' | '==' | '>' | '<';

/** An expected cell of an `exactRows` row: a term, or a bare string matched against the term's value. */
export type ExpectedCell = string | ResultTerm;

export type Expected =
  | { readonly kind: 'nonEmpty' }
  | { readonly kind: 'empty' }
  | { readonly kind: 'count'; readonly op: CountOp; readonly value: number }
  | { readonly kind: 'exactRows'; readonly rows: readonly Readonly<Record<string, ExpectedCell>>[] };

export interface CompetencyQuestion {
  readonly id: string;
  readonly text?: string;
  readonly type?: string;
  readonly query_lang: 'sparql';
  readonly query: string;
  readonly include_inferred: boolean;
  readonly expected: Expected;
  readonly tags?: readonly string[];
}

/** Ids name files (`cqs/<id>.rq`), so they are file-name safe in every store (design). */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** A competency question (or a store entry) that does not validate: a bad argument where a caller gave it. */
export class CqFormatError extends DomainError {
  constructor(message: string) {
    super(message, 'invalid_argument');
    this.name = 'CqFormatError';
  }
}

const COUNT = /^count\s*(>=|<=|==|>|<)\s*(\d{1,15})$/;

/** Parses the `expected` string grammar; `exactRows` is authored only as a manifest object. */
export function parseExpected(text: string): Expected {
  const s = text.trim();
  if (s === 'nonEmpty' || s === 'empty') return { kind: s };
  const m = COUNT.exec(s);
  if (m !== null) return { kind: 'count', op: m[1] as CountOp, value: Number(m[2]) };
  if (s === 'exactRows') throw new CqFormatError('expected exactRows is authored only in a sidecar manifest entry (with its rows)');
  throw new CqFormatError(
    `expected must be nonEmpty, empty or count OP N (OP one of >= <= == > <, N a non-negative integer), not '${text}'`,
  );
}

/** The string form of an expectation (exactRows: with its row count). */
export function expectedText(e: Expected): string {
  switch (e.kind) {
    case 'count':
      return `count ${e.op} ${e.value}`;
    case 'exactRows':
      return `exactRows (${e.rows.length} row${e.rows.length === 1 ? '' : 's'})`;
    case 'nonEmpty':
    case 'empty':
      return e.kind;
    default:
      return unreachable(e);
  }
}

/** The manifest/annotation object of an expectation. */
export function expectedJson(e: Expected): Record<string, unknown> {
  return { ...e };
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

function oneLine(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string') throw new CqFormatError(`${field} must be a string`);
  if (/[\r\n]/.test(value)) throw new CqFormatError(`${field} must be one line`);
  if (value.length > max) throw new CqFormatError(`${field} is longer than ${max} characters`);
  return value;
}

export function checkId(value: unknown): string {
  const id = oneLine(value, 'id', 128);
  if (!ID_PATTERN.test(id)) throw new CqFormatError(`id '${id}' must match ${ID_PATTERN.source} (letters, digits, '.', '_', '-')`);
  return id;
}

function cell(value: unknown, where: string): ExpectedCell {
  if (typeof value === 'string') return value;
  if (!isObject(value) || typeof value.value !== 'string' || !['uri', 'bnode', 'literal'].includes(value.type as string)) {
    throw new CqFormatError(`${where} must be a string or a term {type: uri|bnode|literal, value, lang?, datatype?}`);
  }
  if (value.type !== 'literal') return { type: value.type as 'uri' | 'bnode', value: value.value };
  return {
    type: 'literal',
    value: value.value,
    ...(typeof value.lang === 'string' ? { lang: value.lang } : {}),
    ...(typeof value.datatype === 'string' ? { datatype: value.datatype } : {}),
  };
}

/** Validates a manifest/annotation `expected` object. */
export function expectedFrom(value: unknown): Expected {
  if (typeof value === 'string') return parseExpected(value);
  if (!isObject(value)) throw new CqFormatError('expected must be an object {kind, op?, value?, rows?} or a string');
  switch (value.kind) {
    case 'nonEmpty':
    case 'empty':
      return { kind: value.kind };
    case 'count': {
      const op = value.op;
      const n = value.value;
      if (!['>=', '<=', '==', '>', '<'].includes(op as string)) throw new CqFormatError('expected.op must be one of >= <= == > <');
      if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
        throw new CqFormatError('expected.value must be a non-negative integer');
      return { kind: 'count', op: op as CountOp, value: n };
    }
    case 'exactRows': {
      if (!Array.isArray(value.rows))
        throw new CqFormatError('expected.rows must be an array of rows (objects from variable name to value)');
      const rows = value.rows.map((row, i) => {
        if (!isObject(row)) throw new CqFormatError(`expected.rows[${i}] must be an object`);
        return Object.fromEntries(Object.entries(row).map(([k, c]) => [k, cell(c, `expected.rows[${i}].${k}`)]));
      });
      return { kind: 'exactRows', rows };
    }
    default:
      throw new CqFormatError('expected.kind must be nonEmpty, empty, count or exactRows');
  }
}

const ENTRY_KEYS = new Set(['id', 'text', 'type', 'query_lang', 'query', 'include_inferred', 'expected', 'tags']);

/** Validates one entry of a sidecar manifest or one annotation value (already JSON-parsed). */
export function questionFrom(value: unknown): CompetencyQuestion {
  if (!isObject(value)) throw new CqFormatError('an entry must be a JSON object');
  const unknown = Object.keys(value).filter((k) => !ENTRY_KEYS.has(k));
  if (unknown.length > 0) throw new CqFormatError(`unknown field${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}`);
  const id = checkId(value.id);
  if (value.query_lang !== undefined && value.query_lang !== 'sparql')
    throw new CqFormatError(`query_lang must be sparql, not ${JSON.stringify(value.query_lang)}`);
  if (typeof value.query !== 'string' || value.query.trim() === '') throw new CqFormatError('query must be a non-empty string');
  if (value.include_inferred !== undefined && typeof value.include_inferred !== 'boolean')
    throw new CqFormatError('include_inferred must be a boolean');
  const tags = value.tags;
  if (tags !== undefined && (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string')))
    throw new CqFormatError('tags must be an array of strings');
  return {
    id,
    ...(value.text === undefined ? {} : { text: oneLine(value.text, 'text', 4000) }),
    ...(value.type === undefined ? {} : { type: oneLine(value.type, 'type', 200) }),
    query_lang: 'sparql',
    query: value.query,
    include_inferred: value.include_inferred ?? true,
    expected: value.expected === undefined ? { kind: 'nonEmpty' } : expectedFrom(value.expected),
    ...(tags === undefined ? {} : { tags: (tags as unknown[]).map((t, i) => oneLine(t, `tags[${i}]`, 200)) }),
  };
}

/** The entry shape of a manifest and an annotation value, fields in a fixed order. */
export function questionJson(q: CompetencyQuestion): Record<string, unknown> {
  return {
    id: q.id,
    ...(q.text === undefined ? {} : { text: q.text }),
    ...(q.type === undefined ? {} : { type: q.type }),
    query_lang: q.query_lang,
    query: q.query,
    include_inferred: q.include_inferred,
    expected: expectedJson(q.expected),
    ...(q.tags === undefined ? {} : { tags: q.tags }),
  };
}
