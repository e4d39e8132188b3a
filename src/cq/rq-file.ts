// A `.rq` file with `# key: value` header lines (ROBOT-style query files): the competency questions of the
// `robot-sparql-dir` store (`cqs/<id>.rq`: `# id:`, `# text:`, `# type:`, `# expected:`, `# include_inferred:`,
// `# tags:`, a blank line, then the query) and the SPARQL invariant files a project policy names. Header
// lines are SPARQL comments, so the whole file stays a runnable query.

import path from 'node:path';
import { checkId, CqFormatError, expectedText, parseExpected, type CompetencyQuestion } from './question.js';

export interface RqFile {
  /** Header fields by lower-cased key (the first occurrence of a key wins). */
  readonly fields: ReadonlyMap<string, string>;
  /** The text after the header block. */
  readonly query: string;
}

const HEADER = /^#\s*([A-Za-z_]+)\s*:\s?(.*)$/;

/** Splits the leading `# key: value` lines (other leading comments are skipped) from the query. */
export function parseRq(text: string): RqFile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const fields = new Map<string, string>();
  let i = 0;
  for (let line = lines[i]; line?.startsWith('#'); line = lines[++i]) {
    const [, key, value] = HEADER.exec(line) ?? [];
    if (key !== undefined && value !== undefined && !fields.has(key.toLowerCase())) fields.set(key.toLowerCase(), value.trim());
  }
  const query = lines.slice(i).join('\n').trim();
  return { fields, query };
}

export function parseBoolean(value: string, field: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new CqFormatError(`# ${field}: must be true or false, not '${value}'`);
}

/** The id a file stands for without an `# id:` line: its name without the extension. */
export function idFromFileName(file: string): string {
  return path.basename(file).replace(/\.(rq|sparql)$/i, '');
}

/** A competency question from a `robot-sparql-dir` file. */
export function questionFromRq(text: string, file: string): CompetencyQuestion {
  const { fields, query } = parseRq(text);
  if (query === '') throw new CqFormatError('no query after the header lines');
  const get = (k: string): string | undefined => {
    const value = fields.get(k);
    return value === undefined || value === '' ? undefined : value;
  };
  const tags = get('tags');
  const text_ = get('text');
  const type = get('type');
  const expected = get('expected');
  const inferred = get('include_inferred');
  return {
    id: checkId(get('id') ?? idFromFileName(file)),
    ...(text_ === undefined ? {} : { text: text_ }),
    ...(type === undefined ? {} : { type }),
    query_lang: 'sparql',
    query,
    include_inferred: inferred === undefined ? true : parseBoolean(inferred, 'include_inferred'),
    expected: expected === undefined ? { kind: 'nonEmpty' } : parseExpected(expected),
    ...(tags === undefined
      ? {}
      : {
          tags: tags
            .split(',')
            .map((t) => t.trim())
            .filter((t) => t !== ''),
        }),
  };
}

/** The file text of a competency question; exactRows and tags with commas have no header form. */
export function questionToRq(q: CompetencyQuestion): string {
  if (q.expected.kind === 'exactRows') throw new CqFormatError('expected exactRows can only be stored in a sidecar manifest');
  if (q.tags?.some((t) => t.includes(',')) === true) throw new CqFormatError('a tag in a .rq header cannot contain a comma');
  const lines = [`# id: ${q.id}`];
  if (q.text !== undefined) lines.push(`# text: ${q.text}`);
  if (q.type !== undefined) lines.push(`# type: ${q.type}`);
  lines.push(`# expected: ${expectedText(q.expected)}`, `# include_inferred: ${q.include_inferred}`);
  if (q.tags !== undefined && q.tags.length > 0) lines.push(`# tags: ${q.tags.join(', ')}`);
  return `${lines.join('\n')}\n\n${q.query.trim()}\n`;
}
