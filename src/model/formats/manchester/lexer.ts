// Tokenizer for Manchester OWL Syntax: documents, standalone class expressions and data ranges.
//
// One index scan over the text; no regular expressions. Names, keywords, CURIEs and numbers are all
// `word` tokens (the parser tells them apart); `<...>` is an IRI unless the `<` is a facet operator.

import { ParseError } from '../errors.js';
import { unreachable } from '../../../util/unreachable.js';

export class ManchesterParseError extends ParseError {
  constructor(detail: string, line?: number, column?: number) {
    super('manchester', detail, line, column);
    this.name = 'ManchesterParseError';
  }
}

export type TokenType =
  | 'word' // name, CURIE, keyword (`Class:`, `some`), number, `_:node`
  | 'iri' // <full IRI>; value without the brackets
  | 'quoted' // 'multi word name'; value without the quotes
  | 'string' // "literal"; value unescaped, `lang` set when followed by @tag
  | 'var' // SWRL variable: ?x (value `x`) or ?<iri> (value the IRI, `lang` = '<')
  | 'punct' // ( ) { } [ ] , ^^ -> < <= > >=
  | 'eof';

export interface Token {
  readonly type: TokenType;
  readonly value: string;
  readonly lang: string;
  readonly line: number;
  readonly col: number;
}

/** How a token is shown in error messages. */
export function describe(t: Token): string {
  switch (t.type) {
    case 'eof':
      return 'end of input';
    case 'iri':
      return `<${t.value}>`;
    case 'quoted':
      return `'${t.value}'`;
    case 'string':
      return `"${t.value}"`;
    case 'var':
      return t.lang === '<' ? `?<${t.value}>` : `?${t.value}`;
    case 'word':
    case 'punct':
      return `'${t.value}'`;
    default:
      return unreachable(t.type);
  }
}

// Characters that end a word.
function isDelimiter(c: number): boolean {
  return (
    c <= 0x20 ||
    c === 0x28 ||
    c === 0x29 ||
    c === 0x7b ||
    c === 0x7d ||
    c === 0x5b ||
    c === 0x5d ||
    c === 0x2c ||
    c === 0x22 ||
    c === 0x3c ||
    c === 0x3e ||
    c === 0x5e
  );
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0c;

/** Splits Manchester text into tokens (the last one is `eof`). Throws ManchesterParseError on bad input. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  const n = text.length;
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const push = (type: TokenType, value: string, start: number, lang = '') =>
    out.push({ type, value, lang, line, col: start - lineStart + 1 });
  const fail = (msg: string, at: number): never => {
    throw new ManchesterParseError(msg, line, at - lineStart + 1);
  };

  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === 0x23) {
      // '#': comment to end of line
      while (i < n && text.charCodeAt(i) !== 0x0a) i++;
      continue;
    }
    const start = i;
    switch (c) {
      case 0x28:
      case 0x29:
      case 0x7b:
      case 0x7d:
      case 0x5b:
      case 0x5d:
      case 0x2c:
        push('punct', text.charAt(i), start);
        i++;
        continue;
      case 0x5e: // ^^
        if (text.charCodeAt(i + 1) !== 0x5e) fail("expected '^^'", i);
        push('punct', '^^', start);
        i += 2;
        continue;
      case 0x22: {
        // "string" with backslash escapes (it may span lines: keep its start position)
        const sLine = line;
        const sCol = start - lineStart + 1;
        let s = '';
        let j = i + 1;
        let chunk = j;
        for (;;) {
          if (j >= n) fail('unterminated string literal', start);
          const d = text.charCodeAt(j);
          if (d === 0x22) break;
          if (d === 0x5c) {
            s += text.slice(chunk, j) + (text[j + 1] ?? '');
            j += 2;
            chunk = j;
            continue;
          }
          if (d === 0x0a) {
            line++;
            lineStart = j + 1;
          }
          j++;
        }
        s += text.slice(chunk, j);
        j++;
        let lang = '';
        if (text.charCodeAt(j) === 0x40) {
          // @lang
          let k = j + 1;
          while (k < n && !isDelimiter(text.charCodeAt(k))) k++;
          lang = text.slice(j + 1, k);
          if (lang === '') fail('expected a language tag after @', j);
          j = k;
        }
        out.push({ type: 'string', value: s, lang, line: sLine, col: sCol });
        i = j;
        continue;
      }
      case 0x27: {
        // 'quoted name'
        const end = text.indexOf("'", i + 1);
        if (end < 0) fail('unterminated quoted name', i);
        push('quoted', text.slice(i + 1, end), start);
        i = end + 1;
        continue;
      }
      case 0x3c: {
        // '<' : IRI or facet operator
        const next = text.charCodeAt(i + 1);
        if (next === 0x3d) {
          push('punct', '<=', start);
          i += 2;
          continue;
        }
        const end = iriEnd(text, i + 1);
        if (end < 0) {
          push('punct', '<', start);
          i++;
          continue;
        }
        push('iri', text.slice(i + 1, end), start);
        i = end + 1;
        continue;
      }
      case 0x3e:
        if (text.charCodeAt(i + 1) === 0x3d) {
          push('punct', '>=', start);
          i += 2;
        } else {
          push('punct', '>', start);
          i++;
        }
        continue;
      case 0x3f: // ?var or ?<iri>
        if (text.charCodeAt(i + 1) === 0x3c) {
          const end = iriEnd(text, i + 2);
          if (end < 0) fail('expected a variable IRI after ?<', i);
          push('var', text.slice(i + 2, end), start, '<');
          i = end + 1;
          continue;
        }
        break;
      case 0x2d: // '->'
        if (text.charCodeAt(i + 1) === 0x3e) {
          push('punct', '->', start);
          i += 2;
          continue;
        }
        break;
    }
    let j = i + 1;
    while (j < n && !isDelimiter(text.charCodeAt(j))) j++;
    const w = text.slice(i, j);
    if (c === 0x3f) push('var', w.slice(1), start);
    else push('word', w, start);
    i = j;
  }
  out.push({ type: 'eof', value: '', lang: '', line, col: n - lineStart + 1 });
  return out;
}

// End index of an IRI started after '<' (the index of '>'), or -1 when this '<' is not an IRI: IRIs hold
// no whitespace, and a facet operator '<' is followed by whitespace, a sign, a digit or a quote.
function iriEnd(text: string, from: number): number {
  const first = text.charCodeAt(from);
  if (Number.isNaN(first) || isSpace(first) || first === 0x22 || first === 0x2b || first === 0x2d || (first >= 0x30 && first <= 0x39))
    return -1;
  for (let j = from; j < text.length; j++) {
    const d = text.charCodeAt(j);
    if (d === 0x3e) return j;
    if (isSpace(d) || d === 0x3c || d === 0x22) return -1;
  }
  return -1;
}
