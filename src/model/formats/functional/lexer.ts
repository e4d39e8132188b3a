// Tokenizer of OWL 2 Functional-Style Syntax. It scans the source with charCodeAt and keeps only the
// current token in its fields (no token objects), since the parser needs a single token of lookahead.

import { ParseError } from '../errors.js';
import { unreachable } from '../../../util/unreachable.js';

export const enum Tok {
  LParen,
  RParen,
  Equals,
  /** `^^` between a quoted string and its datatype. */
  DoubleCaret,
  /** `<...>`: `text` is the IRI between the brackets, unresolved. */
  FullIri,
  /** `"..."`: `text` is the unescaped lexical form. */
  String,
  /** `@tag` after a quoted string: `text` is the tag without '@'. */
  LangTag,
  /** Keywords, numbers, abbreviated IRIs `pfx:local` and node IDs `_:x`; `colon` locates the first ':'. */
  Word,
  EOF,
}

const TAB = 0x09,
  LF = 0x0a,
  CR = 0x0d,
  SPACE = 0x20,
  QUOTE = 0x22,
  HASH = 0x23,
  LPAREN = 0x28,
  RPAREN = 0x29;
const COLON = 0x3a,
  LT = 0x3c,
  EQUALS = 0x3d,
  GT = 0x3e,
  AT = 0x40,
  BACKSLASH = 0x5c,
  CARET = 0x5e;

/** ASCII characters that end a word: whitespace and the punctuation that starts or ends other tokens. */
const WORD_END = new Uint8Array(128);
for (const c of [TAB, LF, CR, SPACE, QUOTE, LPAREN, RPAREN, LT, GT, EQUALS]) WORD_END[c] = 1;

const isLangChar = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2d;

export interface LexerState {
  readonly type: Tok;
  readonly text: string;
  readonly colon: number;
  readonly line: number;
  readonly col: number;
  readonly pos: number;
  readonly curLine: number;
  readonly lineStart: number;
}

export class Lexer {
  /** The current token's type (a field read through tok(), so the parser's checks do not narrow it). */
  type: Tok = Tok.EOF;
  text = '';
  /** Index of the first ':' in a Word token, or -1. */
  colon = -1;
  /** 1-based position of the current token. */
  line = 1;
  col = 1;

  private pos = 0;
  private curLine = 1;
  private lineStart = 0;

  constructor(private readonly src: string) {
    this.next();
  }

  error(detail: string, line = this.line, col = this.col): ParseError {
    return new ParseError('ofn', detail, line, col);
  }

  tok(): Tok {
    return this.type;
  }

  /** The complete lexer state, to look one token further ahead and come back. */
  snapshot(): LexerState {
    return {
      type: this.type,
      text: this.text,
      colon: this.colon,
      line: this.line,
      col: this.col,
      pos: this.pos,
      curLine: this.curLine,
      lineStart: this.lineStart,
    };
  }

  restore(s: LexerState): void {
    this.type = s.type;
    this.text = s.text;
    this.colon = s.colon;
    this.line = s.line;
    this.col = s.col;
    this.pos = s.pos;
    this.curLine = s.curLine;
    this.lineStart = s.lineStart;
  }

  /** Advances to the next token. */
  next(): void {
    const src = this.src;
    this.skipSpace();
    const start = this.pos;
    this.line = this.curLine;
    this.col = start - this.lineStart + 1;
    if (start >= src.length) {
      this.type = Tok.EOF;
      this.text = '';
      return;
    }
    const c = src.charCodeAt(start);
    switch (c) {
      case LPAREN:
        this.pos++;
        this.type = Tok.LParen;
        return;
      case RPAREN:
        this.pos++;
        this.type = Tok.RParen;
        return;
      case EQUALS:
        this.pos++;
        this.type = Tok.Equals;
        return;
      case CARET:
        if (src.charCodeAt(start + 1) !== CARET) throw this.error("expected '^^'");
        this.pos += 2;
        this.type = Tok.DoubleCaret;
        return;
      case LT:
        this.fullIri(start);
        return;
      case QUOTE:
        this.quoted(start);
        return;
      case AT:
        this.langTag(start);
        return;
      case GT:
        throw this.error("unexpected '>'");
      default:
        this.word(start);
    }
  }

  private skipSpace(): void {
    const src = this.src;
    const n = src.length;
    let p = this.pos;
    while (p < n) {
      const c = src.charCodeAt(p);
      if (c === LF) {
        p++;
        this.curLine++;
        this.lineStart = p;
      } else if (c === SPACE || c === TAB || c === CR) {
        p++;
      } else if (c === HASH) {
        const eol = src.indexOf('\n', p);
        p = eol < 0 ? n : eol;
      } else {
        break;
      }
    }
    this.pos = p;
  }

  private fullIri(start: number): void {
    const src = this.src;
    const end = src.indexOf('>', start + 1);
    const eol = src.indexOf('\n', start + 1);
    if (end < 0 || (eol >= 0 && eol < end)) throw this.error('unterminated IRI');
    this.type = Tok.FullIri;
    this.text = src.slice(start + 1, end);
    this.pos = end + 1;
  }

  /** A quoted string; only `\"` and `\\` are escapes (other backslashes are kept, as the OWL API does). */
  private quoted(start: number): void {
    const src = this.src;
    const n = src.length;
    let p = start + 1;
    let out = '';
    let segment = p;
    for (;;) {
      if (p >= n) throw this.error('unterminated string literal');
      const c = src.charCodeAt(p);
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        const d = src.charCodeAt(p + 1);
        if (d === QUOTE || d === BACKSLASH) {
          out += src.slice(segment, p);
          segment = p + 1;
        }
        p += 2;
        continue;
      }
      if (c === LF) {
        this.curLine++;
        this.lineStart = p + 1;
      }
      p++;
    }
    this.type = Tok.String;
    this.text = out + src.slice(segment, p);
    this.pos = p + 1;
  }

  private langTag(start: number): void {
    const src = this.src;
    let p = start + 1;
    while (p < src.length && isLangChar(src.charCodeAt(p))) p++;
    if (p === start + 1) throw this.error("expected a language tag after '@'");
    this.type = Tok.LangTag;
    this.text = src.slice(start + 1, p);
    this.pos = p;
  }

  private word(start: number): void {
    const src = this.src;
    const n = src.length;
    let p = start;
    let colon = -1;
    while (p < n) {
      const c = src.charCodeAt(p);
      if (c < 128 && WORD_END[c] === 1) break;
      if (c === COLON && colon < 0) colon = p - start;
      p++;
    }
    this.type = Tok.Word;
    this.text = src.slice(start, p);
    this.colon = colon;
    this.pos = p;
  }
}

/** How a token is named in error messages. */
export function describe(lx: Lexer): string {
  switch (lx.type) {
    case Tok.LParen:
      return "'('";
    case Tok.RParen:
      return "')'";
    case Tok.Equals:
      return "'='";
    case Tok.DoubleCaret:
      return "'^^'";
    case Tok.FullIri:
      return '<' + lx.text + '>';
    case Tok.String:
      return 'a quoted string';
    case Tok.LangTag:
      return '@' + lx.text;
    case Tok.Word:
      return "'" + lx.text + "'";
    case Tok.EOF:
      return 'end of input';
    default:
      return unreachable(lx.type);
  }
}
