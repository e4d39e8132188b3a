// A lean Turtle / N-Triples grammar over n3's Lexer tokens, writing term ids straight into a triple table.
//
// n3's Parser builds a Term object per token and concatenates every prefixed name into a new string that
// must then be hashed to find its id. This reader keeps n3's tokenizer but drives its own state machine:
// a prefixed name is looked up by its local part in a map per prefix (one lookup per token, the IRI
// string is built once per distinct name), and no per-triple objects are made.
//
// It follows n3's Parser step for step for the plain Turtle subset (directives, triples, blank-node
// property lists, collections, literals), emitting the triples in the same order, and is lax the same way
// (a '.' inside a blank-node property list). On anything else — RDF 1.2 syntax, VERSION, a syntax error,
// an undefined prefix, an invalid IRI — it stops and reports `false`: the caller then parses the whole
// document with n3's Parser, which accepts it or raises its own precise error.

import { Lexer, Parser } from 'n3';
import type { TermId, TripleTable } from '../rdf/rdf-graph-reader.js';
import { RDF_FIRST, RDF_NIL, RDF_REST, RDF_TYPE } from '../rdf/vocab-reader.js';
import { RDF_LANG_STRING, XSD_STRING } from '../vocab.js';
import { ownString } from '../terms.js';

const RDF_DIR_LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#dirLangString';

interface Token {
  readonly type: string;
  readonly value: string;
  readonly prefix: string;
}

/** The two n3 Parser members used to resolve IRIs exactly as n3 does (base handling, dot segments, line mode). */
interface IriResolver {
  _resolveIRI(iri: string): string | null;
  _setBase(iri: string): void;
}

/** Parser states: what the next token may be. */
const enum State {
  Statement, PrefixName, PrefixIri, BaseIri, DeclarationEnd, Predicate, PredicateAfterBlank, Object,
  ObjectLiteralTail, ListLiteralTail, LanguageTail, Punctuation, BlankHead, BlankPunctuation, BlankDot, ListItem, Done, Failed,
}

/** Kinds of saved contexts. */
const BLANK = 0, LIST = 1;
const NONE = -1;

/** A prefix's namespace and the ids of the local names read with it so far. */
interface PrefixScope {
  readonly namespace: string;
  readonly locals: Map<string, TermId>;
}

/** The syntaxes the lean grammar reads. */
export type LeanSyntax = 'turtle' | 'ntriples';

/**
 * Reads a Turtle or N-Triples document into `table` (and its prefix declarations into `prefixes`, keys
 * ending with ':'). Resolves to false, leaving partial content, when the document needs n3's full Parser.
 */
export function readTurtleTokens(text: string, syntax: LeanSyntax, base: string | undefined, table: TripleTable, prefixes: Map<string, string>): Promise<boolean> {
  const reader = new TokenReader(syntax, base, table, prefixes);
  const lexer = new Lexer(syntax === 'ntriples' ? { lineMode: true } : { n3: false });
  return new Promise((resolve) => {
    let settled = false;
    lexer.tokenize(text, (err, token) => {
      if (settled) return;
      const outcome = reader.consume(err ? null : token as Token);
      if (outcome !== undefined) {
        settled = true;
        resolve(outcome);
      }
    });
  });
}

class TokenReader {
  private state = State.Statement;
  private s: TermId = NONE;
  private p: TermId = NONE;
  private o: TermId = NONE;
  /** Saved contexts, four numbers each: kind, subject, predicate, object. */
  private readonly stack: number[] = [];
  private literalValue = '';
  private prefixName = '';
  /** SPARQL-style PREFIX/BASE take no final dot. */
  private sparqlStyle = false;
  private readonly scopes = new Map<string, PrefixScope>();
  private readonly blanks = new Map<string, TermId>();
  private readonly resolver: IriResolver;

  constructor(syntax: LeanSyntax, base: string | undefined, private readonly table: TripleTable, private readonly prefixes: Map<string, string>) {
    const format = syntax === 'ntriples' ? 'application/n-triples' : 'text/turtle';
    this.resolver = new Parser({ baseIRI: base, format }) as unknown as IriResolver;
  }

  /** Reads one token (null for a lexer error); true once the document has ended, false if n3 must take over. */
  consume(token: Token | null): boolean | undefined {
    if (token === null) this.fail();
    else this.read(token);
    return this.state === State.Done ? true : this.state === State.Failed ? false : undefined;
  }

  private read(token: Token): void {
    switch (this.state) {
      case State.Statement: return this.readStatement(token);
      case State.PrefixName: return this.readPrefixName(token);
      case State.PrefixIri: return this.readPrefixIri(token);
      case State.BaseIri: return this.readBaseIri(token);
      case State.DeclarationEnd: return this.readDeclarationEnd(token);
      case State.Predicate: return this.readPredicate(token);
      case State.PredicateAfterBlank: return this.readPredicateAfterBlank(token);
      case State.Object: return this.readObject(token);
      case State.ObjectLiteralTail: return this.readLiteralTail(token, false);
      case State.ListLiteralTail: return this.readLiteralTail(token, true);
      case State.LanguageTail: return this.readLanguageTail(token);
      case State.Punctuation: return this.readPunctuation(token);
      case State.BlankHead: return this.readBlankHead(token);
      case State.BlankPunctuation: return this.readBlankPunctuation(token);
      case State.BlankDot: return this.readBlankDot(token);
      case State.ListItem: return this.readListItem(token);
      default: this.state = State.Failed;
    }
  }

  // ------------------------------------------------------------ statements and directives

  private readStatement(token: Token): void {
    switch (token.type) {
      case 'eof': this.state = this.stack.length === 0 ? State.Done : State.Failed; return;
      case 'PREFIX': this.sparqlStyle = true; this.state = State.PrefixName; return;
      case '@prefix': this.state = State.PrefixName; return;
      case 'BASE': this.sparqlStyle = true; this.state = State.BaseIri; return;
      case '@base': this.state = State.BaseIri; return;
      default: this.readSubject(token);
    }
  }

  private readPrefixName(token: Token): void {
    if (token.type !== 'prefix') return this.fail();
    this.prefixName = token.value;
    this.state = State.PrefixIri;
  }

  private readPrefixIri(token: Token): void {
    let namespace = token.type === 'IRI' ? this.resolver._resolveIRI(token.value) : null;
    if (namespace === null) return this.fail();
    namespace = ownString(namespace);
    this.scopes.set(this.prefixName, { namespace, locals: new Map() });
    this.prefixes.set(ownString(this.prefixName + ':'), namespace);
    this.state = State.DeclarationEnd;
  }

  private readBaseIri(token: Token): void {
    const iri = token.type === 'IRI' ? this.resolver._resolveIRI(token.value) : null;
    if (!iri) return this.fail();
    this.resolver._setBase(iri);
    this.state = State.DeclarationEnd;
  }

  private readDeclarationEnd(token: Token): void {
    if (this.sparqlStyle) {
      this.sparqlStyle = false;
      this.state = State.Statement;
      return this.read(token);
    }
    if (token.type !== '.') return this.fail();
    this.state = State.Statement;
  }

  // ------------------------------------------------------------ triples

  private readSubject(token: Token): void {
    this.p = NONE;
    switch (token.type) {
      case '[':
        this.s = this.table.freshBlank();
        this.save(BLANK, this.s, NONE, NONE);
        this.state = State.BlankHead;
        return;
      case '(':
        this.save(LIST, RDF_NIL, NONE, NONE);
        this.s = NONE;
        this.state = State.ListItem;
        return;
      default:
        this.s = this.entity(token, true);
        if (this.s !== NONE) this.state = State.Predicate;
    }
  }

  private readPredicate(token: Token): void {
    switch (token.type) {
      case 'abbreviation':
        if (token.value !== 'a') return this.fail();
        this.p = RDF_TYPE;
        this.state = State.Object;
        return;
      case 'IRI': case 'prefixed':
        this.p = this.entity(token, false);
        if (this.p !== NONE) this.state = State.Object;
        return;
      case '.': case ']':
        // A trailing ';': the statement or property list ends without another predicate.
        if (this.p === NONE) return this.fail();
        this.s = NONE;
        return token.type === '.' ? this.readPunctuation(token) : this.readBlankTail();
      case ';':
        if (this.p === NONE) this.fail();
        return;
      default:
        this.fail();
    }
  }

  private readPredicateAfterBlank(token: Token): void {
    if (token.type !== '.') return this.readPredicate(token);
    this.s = NONE;
    this.readPunctuation(token);
  }

  private readObject(token: Token): void {
    switch (token.type) {
      case 'literal':
        if (token.prefix.length === 0) {
          this.literalValue = token.value;
          this.state = State.ObjectLiteralTail;
          return;
        }
        this.o = this.table.literal(token.value, token.prefix, '');
        this.state = this.contextEnd();
        return;
      case '[': {
        const blank = this.table.freshBlank();
        this.save(BLANK, this.s, this.p, blank);
        this.s = blank;
        this.state = State.BlankHead;
        return;
      }
      case '(':
        this.save(LIST, this.s, this.p, RDF_NIL);
        this.s = NONE;
        this.state = State.ListItem;
        return;
      default:
        this.o = this.entity(token, true);
        if (this.o !== NONE) this.state = this.contextEnd();
    }
  }

  /** The token after a quoted literal: a datatype, a language tag, or the next token proper. */
  private readLiteralTail(token: Token, listItem: boolean): void {
    const value = this.literalValue;
    switch (token.type) {
      case 'type': case 'typeIRI': {
        const datatype = this.iriOf(token);
        if (datatype === null || datatype === RDF_LANG_STRING || datatype === RDF_DIR_LANG_STRING) return this.fail();
        this.completeLiteral(this.table.literal(value, datatype, ''), listItem);
        return;
      }
      case 'langcode':
        if (!validLanguageTag(token.value)) return this.fail();
        this.completeLiteral(this.table.literal(value, XSD_STRING, token.value), listItem);
        // A direction tag may follow (RDF 1.2): n3's Parser reads those.
        if (this.state !== State.Failed) this.state = State.LanguageTail;
        return;
      default:
        this.completeLiteral(this.table.literal(value, XSD_STRING, ''), listItem);
        this.read(token);
    }
  }

  private completeLiteral(literal: TermId, listItem: boolean): void {
    this.o = literal;
    if (listItem) this.emit(this.s, RDF_FIRST, literal);
    this.state = this.contextEnd();
  }

  private readLanguageTail(token: Token): void {
    if (token.type === 'dircode') return this.fail();
    this.state = this.contextEnd();
    this.read(token);
  }

  private readPunctuation(token: Token): void {
    const s = this.s;
    switch (token.type) {
      case '.': this.s = NONE; this.state = State.Statement; break;
      case ';': this.state = State.Predicate; break;
      case ',': this.state = State.Object; break;
      default: return this.fail();
    }
    if (s !== NONE) this.emit(s, this.p, this.o);
  }

  // ------------------------------------------------------------ blank-node property lists

  private readBlankHead(token: Token): void {
    if (token.type === ']') {
      this.s = NONE;
      return this.readBlankTail();
    }
    this.p = NONE;
    this.readPredicate(token);
  }

  private readBlankPunctuation(token: Token): void {
    switch (token.type) {
      case ']': return this.readBlankTail();
      case ';': this.state = State.Predicate; break;
      case ',': this.state = State.Object; break;
      // Lax like the OWL API: '.' ends the list when ']' follows, and acts as ';' otherwise.
      case '.': this.state = State.BlankDot; return;
      default: return this.fail();
    }
    this.emit(this.s, this.p, this.o);
  }

  private readBlankDot(token: Token): void {
    if (token.type === ']') return this.readBlankTail();
    this.emit(this.s, this.p, this.o);
    this.readPredicate(token);
  }

  /** ']': the last triple of the list, then back to where the blank node stood. */
  private readBlankTail(): void {
    if (this.s !== NONE) this.emit(this.s, this.p, this.o);
    const empty = this.p === NONE;
    if (!this.restore(BLANK)) return this.fail();
    if (this.o !== NONE) this.state = this.contextEnd();
    else if (this.p !== NONE) this.fail();
    else this.state = empty ? State.Predicate : State.PredicateAfterBlank;
  }

  // ------------------------------------------------------------ collections

  private readListItem(token: Token): void {
    const previous = this.s;
    const parent = this.stack.length - 4;
    let list: TermId = NONE, item: TermId = NONE, next = State.ListItem;
    switch (token.type) {
      case '[':
        list = this.table.freshBlank();
        item = this.table.freshBlank();
        this.save(BLANK, list, RDF_FIRST, item);
        this.s = item;
        next = State.BlankHead;
        break;
      case '(':
        list = this.table.freshBlank();
        this.save(LIST, list, RDF_FIRST, RDF_NIL);
        this.s = NONE;
        break;
      case ')':
        return this.closeList(previous);
      case 'literal':
        if (token.prefix.length === 0) {
          this.literalValue = token.value;
          next = State.ListLiteralTail;
        } else {
          item = this.table.literal(token.value, token.prefix, '');
        }
        break;
      default:
        item = this.entity(token, true);
        if (item === NONE) return;
    }
    if (list === NONE) this.s = list = this.table.freshBlank();
    if (previous === NONE) {
      const stack = this.stack;
      if (stack[parent + 2] === NONE) stack[parent + 1] = list;
      else if (stack[parent + 3] === NONE) return this.fail();
      else stack[parent + 3] = list;
    } else {
      this.emit(previous, RDF_REST, list);
    }
    if (item !== NONE) this.emit(list, RDF_FIRST, item);
    this.state = next;
  }

  private closeList(last: TermId): void {
    if (!this.restore(LIST)) return this.fail();
    const n = this.stack.length;
    if (n !== 0 && this.stack[n - 4] === LIST) this.emit(this.s, this.p, this.o);
    let empty: boolean;
    if (this.p === NONE) {
      this.state = State.Predicate;
      empty = this.s === RDF_NIL;
    } else if (this.o === NONE) {
      return this.fail();
    } else {
      this.state = this.contextEnd();
      empty = this.o === RDF_NIL;
    }
    if (!empty) this.emit(last, RDF_REST, RDF_NIL);
  }

  // ------------------------------------------------------------ contexts and terms

  private save(kind: number, s: TermId, p: TermId, o: TermId): void {
    this.stack.push(kind, s, p, o);
  }

  private restore(kind: number): boolean {
    const stack = this.stack, n = stack.length - 4;
    if (n < 0 || stack[n] !== kind) return false;
    this.s = stack[n + 1];
    this.p = stack[n + 2];
    this.o = stack[n + 3];
    stack.length = n;
    return true;
  }

  /** What follows a complete object: the punctuation of the enclosing context. */
  private contextEnd(): State {
    const n = this.stack.length;
    if (n === 0) return State.Punctuation;
    return this.stack[n - 4] === BLANK ? State.BlankPunctuation : State.ListItem;
  }

  private emit(s: TermId, p: TermId, o: TermId): void {
    this.table.add(s, p, o);
  }

  /** The id of an IRI, prefixed name or (where allowed) blank node; NONE (and failed) for anything else. */
  private entity(token: Token, blankAllowed: boolean): TermId {
    switch (token.type) {
      case 'prefixed': {
        const scope = this.scopes.get(token.prefix);
        if (scope === undefined) break;
        let id = scope.locals.get(token.value);
        if (id === undefined) {
          // Joined, the IRI is one new flat string (a '+' would be a pair of parts, one a view into the text).
          id = this.table.iri([scope.namespace, token.value].join(''), true);
          scope.locals.set(token.value, id);
        }
        return id;
      }
      case 'IRI': {
        const iri = this.resolver._resolveIRI(token.value);
        if (iri === null) break;
        return this.table.iri(iri);
      }
      case 'blank': {
        if (!blankAllowed) break;
        let id = this.blanks.get(token.value);
        if (id === undefined) this.blanks.set(token.value, (id = this.table.freshBlank()));
        return id;
      }
    }
    this.fail();
    return NONE;
  }

  /** A datatype IRI (full or prefixed). */
  private iriOf(token: Token): string | null {
    if (token.type === 'typeIRI') return this.resolver._resolveIRI(token.value);
    const scope = this.scopes.get(token.prefix);
    return scope === undefined ? null : scope.namespace + token.value;
  }

  private fail(): void {
    this.state = State.Failed;
  }
}

/** n3 refuses language subtags longer than 8 characters. */
function validLanguageTag(tag: string): boolean {
  let run = 0;
  for (let i = 0; i < tag.length; i++) {
    if (tag.charCodeAt(i) === 45) run = 0;
    else if (++run > 8) return false;
  }
  return true;
}
