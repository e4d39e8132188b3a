// Lexical layer of the OBO 1.4 flat file format: tag-value lines, escapes, quoted strings, dbxref lists,
// trailing `{qualifiers}` and `!` comments, and the matching writer-side quoting.

import { ParseError } from '../errors.js';

/** One `tag: value` line, split into its parts; `col` is the 1-based column of the value. */
export interface RawClause {
  readonly tag: string;
  readonly value: string;
  readonly qualifiers: string;
  readonly line: number;
  readonly col: number;
}

export interface Qualifier {
  readonly name: string;
  readonly value: string;
}

export interface Xref {
  readonly id: string;
  readonly description: string | null;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', W: ' ', r: '\r' };

export function unescape(s: string): string {
  if (!s.includes('\\')) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && i + 1 < s.length) {
      const n = s.charAt(++i);
      out += ESCAPES[n] ?? n;
    } else {
      out += c;
    }
  }
  return out;
}

/**
 * Splits the text after `tag:` into value and qualifier text, dropping an unquoted `!` comment.
 * Returns [value, qualifiers] with the qualifier braces removed.
 */
export function splitValue(s: string, line: number, col: number): [string, string] {
  let inQuote = false;
  let end = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 92)
      i++; // backslash escape
    else if (c === 34) inQuote = !inQuote;
    else if (c === 33 && !inQuote) {
      end = i;
      break;
    }
  }
  if (inQuote) throw new ParseError('obo', 'unterminated quoted string', line, col);
  let v = s.slice(0, end).trim();
  if (!v.endsWith('}') || v.endsWith('\\}')) return [v, ''];
  // find the `{` that opens the trailing qualifier block, outside quotes
  inQuote = false;
  let open = -1;
  for (let i = 0; i < v.length - 1; i++) {
    const c = v.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34) inQuote = !inQuote;
    else if (c === 123 && !inQuote) open = i;
  }
  if (open < 0) return [v, ''];
  const q = v.slice(open + 1, -1);
  v = v.slice(0, open).trim();
  return [v, q];
}

/** Parses `name="value", name2=value2` qualifier text. */
export function parseQualifiers(s: string, line: number, col: number): Qualifier[] {
  const out: Qualifier[] = [];
  let i = 0;
  while (i < s.length) {
    while (i < s.length && (s[i] === ' ' || s[i] === ',' || s[i] === '\t')) i++;
    if (i >= s.length) break;
    const eq = s.indexOf('=', i);
    if (eq < 0) throw new ParseError('obo', `qualifier "${s.slice(i)}" has no "="`, line, col);
    const name = s.slice(i, eq).trim();
    i = eq + 1;
    while (s[i] === ' ') i++;
    let value: string;
    if (s[i] === '"') {
      const [text, next] = readQuoted(s, i, line, col);
      value = text;
      i = next;
    } else {
      let j = i;
      while (j < s.length && s[j] !== ',') j += s[j] === '\\' ? 2 : 1;
      value = unescape(s.slice(i, j).trim());
      i = j;
    }
    out.push({ name, value });
  }
  return out;
}

/** Reads a quoted string starting at `s[start] === '"'`; returns the unescaped text and the index after it. */
export function readQuoted(s: string, start: number, line: number, col: number): [string, number] {
  let i = start + 1;
  let raw = '';
  while (i < s.length && s[i] !== '"') {
    if (s[i] === '\\') {
      raw += s.slice(i, i + 2);
      i += 2;
    } else {
      raw += s[i++];
    }
  }
  if (i >= s.length) throw new ParseError('obo', 'unterminated quoted string', line, col + start);
  return [unescape(raw), i + 1];
}

/** Parses `[X:1, Y:2 "description"]` starting at `s[start] === '['`; returns the xrefs and the index after `]`. */
export function readXrefList(s: string, start: number, line: number, col: number): [Xref[], number] {
  const out: Xref[] = [];
  let i = start + 1;
  for (;;) {
    while (i < s.length && (s[i] === ' ' || s[i] === ',' || s[i] === '\t')) i++;
    if (i >= s.length) throw new ParseError('obo', 'unterminated dbxref list', line, col + start);
    if (s[i] === ']') return [out, i + 1];
    let j = i;
    while (j < s.length && s[j] !== ',' && s[j] !== ']' && s[j] !== ' ' && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
    const id = unescape(s.slice(i, j));
    i = j;
    while (s[i] === ' ') i++;
    let description: string | null = null;
    if (s[i] === '"') [description, i] = readQuoted(s, i, line, col);
    if (id) out.push({ id, description });
  }
}

/** Splits an unquoted value into whitespace-separated tokens (escapes kept inside tokens). */
export function tokens(s: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
    if (i >= s.length) break;
    let j = i;
    while (j < s.length && s[j] !== ' ' && s[j] !== '\t') j += s[j] === '\\' ? 2 : 1;
    out.push(unescape(s.slice(i, j)));
    i = j;
  }
  return out;
}

// ---------------------------------------------------------------- writing

/** Escapes text for an unquoted position (ids, plain values); edge spaces as `\W`, since values are trimmed. */
export function escapeUnquoted(s: string): string {
  let out = '';
  const first = s.length - s.trimStart().length;
  const last = s.trimEnd().length;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === ' ' && (i < first || i >= last)) out += '\\W';
    else if (c === '\n') out += '\\n';
    else if (c === '\t') out += '\\t';
    else if (c === '\r') out += '\\r';
    else if (c === '\\' || c === '!' || c === '{' || c === '}' || c === '"') out += '\\' + c;
    else out += c;
  }
  return out;
}

/** A quoted string with OBO escapes. */
export function quote(s: string): string {
  let out = '"';
  for (const c of s) {
    if (c === '\n') out += '\\n';
    else if (c === '\t') out += '\\t';
    else if (c === '\r') out += '\\r';
    else if (c === '\\' || c === '"') out += '\\' + c;
    else out += c;
  }
  return out + '"';
}

/** Escapes an id or token: whitespace too, since tokens are whitespace-separated. */
export function escapeToken(s: string): string {
  return escapeUnquoted(s).replace(/ /g, '\\W').replace(/,/g, '\\,').replace(/\[/g, '\\[').replace(/]/g, '\\]');
}
