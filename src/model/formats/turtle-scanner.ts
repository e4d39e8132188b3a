// A character-level Turtle / N-Triples reader that writes term ids straight into a triple table.
//
// A tokenizer makes a token object and a substring for every name it reads, and the grammar then hashes
// that substring to find the name's id. This reader does neither for a name it has seen before: it hashes
// the characters in place while scanning and finds the id in its own table by comparing the document text
// at that position with the stored name. A string is made only for a name seen for the first time, and
// for literal values. Nesting ([ ] and ( )) is read by recursive descent.
//
// It emits the triples in the order n3's Parser does, allocates blank nodes as it does, and is lax the same
// way (a '.' inside a blank-node property list). On anything it does not read — RDF 1.2 syntax, VERSION,
// an escape inside an IRI, a syntax error, an undefined prefix — it stops and reports `false`: the caller
// then parses the whole document with n3's Parser, which accepts it or raises its own precise error.

import { Parser } from './n3-parser.js';
import { FNV_START, fnvStep, type TermId, type TripleTable } from '../rdf/rdf-graph-reader.js';
import { RDF_FIRST, RDF_NIL, RDF_REST, RDF_TYPE } from '../rdf/vocab-reader.js';
import { RDF_LANG_STRING, XSD_STRING } from '../vocab.js';
import { ownString } from '../terms.js';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const XSD_INTEGER = XSD + 'integer',
  XSD_DECIMAL = XSD + 'decimal',
  XSD_DOUBLE = XSD + 'double',
  XSD_BOOLEAN = XSD + 'boolean';
const RDF_DIR_LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#dirLangString';

/** The syntaxes this reader covers. */
export type ScannedSyntax = 'turtle' | 'ntriples';

/** The two n3 Parser members used to resolve relative IRIs exactly as n3 does (base handling, dot segments). */
interface IriResolver {
  _resolveIRI(iri: string): string | null;
  _setBase(iri: string): void;
}

/** Thrown to abandon the document to n3's Parser. */
const GIVE_UP: unique symbol = Symbol('give up');

/** Deeper nesting than this is left to n3's Parser, which keeps its own stack. */
const MAX_DEPTH = 1000;

// ASCII character classes of the Turtle grammar (section 6.5): bit flags by code.
const BASE = 1,
  DIGIT_OR_DASH = 2,
  UNDERSCORE = 4;
const ASCII = new Uint8Array(128);
for (let c = 65; c <= 90; c++) ASCII[c] = BASE;
for (let c = 97; c <= 122; c++) ASCII[c] = BASE;
for (let c = 48; c <= 57; c++) ASCII[c] = DIGIT_OR_DASH;
ASCII[45] = DIGIT_OR_DASH;
ASCII[95] = UNDERSCORE;

/** PN_CHARS_BASE beyond ASCII (surrogate pairs, i.e. U+10000–U+EFFFF, are accepted by their high half). */
function isWideNameStart(c: number): boolean {
  return (
    (c >= 0xc0 && c <= 0xd6) ||
    (c >= 0xd8 && c <= 0xf6) ||
    (c >= 0xf8 && c <= 0x2ff) ||
    (c >= 0x370 && c <= 0x37d) ||
    (c >= 0x37f && c <= 0x1fff) ||
    c === 0x200c ||
    c === 0x200d ||
    (c >= 0x2070 && c <= 0x218f) ||
    (c >= 0x2c00 && c <= 0x2fef) ||
    (c >= 0x3001 && c <= 0xd7ff) ||
    (c >= 0xf900 && c <= 0xfdcf) ||
    (c >= 0xfdf0 && c <= 0xfffd) ||
    (c >= 0xd800 && c <= 0xdb7f)
  );
}

/** PN_CHARS beyond ASCII: a name start, U+00B7, combining marks, the two ties, or a low surrogate half. */
function isWideNameChar(c: number): boolean {
  return isWideNameStart(c) || c === 0xb7 || (c >= 0x300 && c <= 0x36f) || c === 0x203f || c === 0x2040 || (c >= 0xdc00 && c <= 0xdfff);
}

/** PN_CHARS_BASE. */
/** The class bits of a code; a code beyond ASCII, or NaN past the end of the text, has none. */
const asciiClass = (c: number): number => ASCII[c] ?? 0;
const isNameStart = (c: number) => (c < 128 ? ASCII[c] === BASE : isWideNameStart(c));
/** PN_CHARS. */
const isNameChar = (c: number) => (c < 128 ? ASCII[c] !== 0 : isWideNameChar(c));

/** Characters a local name may escape with '\' (PN_LOCAL_ESC). */
const LOCAL_ESCAPES = "_~.-!$&'()*+,;=/?#@%";

/** What may follow a bare keyword or number: whitespace, punctuation, a comment or a quote. */
function isDelimiter(c: number): boolean {
  return (
    c !== c /* end of text */ ||
    c === 32 ||
    c === 10 ||
    c === 9 ||
    c === 13 ||
    c === 44 ||
    c === 59 ||
    c === 46 ||
    c === 41 ||
    c === 40 ||
    c === 93 ||
    c === 91 ||
    c === 35 ||
    c === 34 ||
    c === 39 ||
    c === 60 ||
    c === 62 ||
    c === 123 ||
    c === 125
  );
}

const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/** n3 refuses language subtags longer than 8 characters. */
function validLanguageTag(tag: string): boolean {
  let run = 0;
  for (let i = 0; i < tag.length; i++) {
    if (tag.charCodeAt(i) === 45) run = 0;
    else if (++run > 8) return false;
  }
  return true;
}

/**
 * Reads a Turtle or N-Triples document into `table` (and its prefix declarations into `prefixes`, keys
 * ending with ':'). Returns false, leaving partial content, when the document needs n3's full Parser.
 */
export function scanTurtle(
  text: string,
  syntax: ScannedSyntax,
  base: string | undefined,
  table: TripleTable,
  prefixes: Map<string, string>,
): boolean {
  try {
    new TurtleScanner(text, syntax, base, table, prefixes).document();
    return true;
  } catch (err) {
    if (err === GIVE_UP) return false;
    throw err;
  }
}

class TurtleScanner {
  private pos = 0;
  private readonly end: number;
  private readonly nt: boolean;
  /** Each prefix declaration (a scope): its name, namespace, and the hash of the namespace's characters. */
  private readonly prefixNames: string[] = [];
  private readonly namespaces: string[] = [];
  private readonly namespaceHashes: number[] = [];
  private readonly namespaceTags: number[] = [];
  /** The scope of each prefix name in force (a redefinition makes a new scope). */
  private readonly scopeOf = new Map<string, number>();
  private readonly blanks = new Map<string, TermId>();
  private readonly resolver: IriResolver;
  private depth = 0;
  /** The last list node of the collection just read (collections end with its rdf:rest rdf:nil). */
  private lastListNode: TermId = -1;

  constructor(
    private readonly text: string,
    syntax: ScannedSyntax,
    base: string | undefined,
    private readonly table: TripleTable,
    private readonly prefixes: Map<string, string>,
  ) {
    this.end = text.length;
    this.nt = syntax === 'ntriples';
    this.resolver = new Parser({ baseIRI: base, format: this.nt ? 'application/n-triples' : 'text/turtle' }) as unknown as IriResolver;
  }

  document(): void {
    for (;;) {
      const c = this.skip();
      if (c < 0) return;
      if (c === 64 /* @ */) this.atDirective();
      else if (!this.sparqlDirective(c)) this.statement(c);
    }
  }

  // ------------------------------------------------------------ characters

  /** Skips whitespace and comments; the next character code, or -1 at the end. */
  private skip(): number {
    const t = this.text,
      end = this.end;
    let p = this.pos;
    for (;;) {
      if (p >= end) {
        this.pos = p;
        return -1;
      }
      const c = t.charCodeAt(p);
      if (c === 32 || c === 10 || c === 9 || c === 13) p++;
      else if (c === 35) {
        while (p < end && t.charCodeAt(p) !== 10 && t.charCodeAt(p) !== 13) p++;
      } else {
        this.pos = p;
        return c;
      }
    }
  }

  private expect(c: number): void {
    if (this.skip() !== c) throw GIVE_UP;
    this.pos++;
  }

  // ------------------------------------------------------------ directives

  private atDirective(): void {
    if (this.nt) throw GIVE_UP;
    const t = this.text;
    if (t.startsWith('@prefix', this.pos) && !isNameChar(t.charCodeAt(this.pos + 7))) {
      this.pos += 7;
      this.prefixDeclaration();
    } else if (t.startsWith('@base', this.pos) && !isNameChar(t.charCodeAt(this.pos + 5))) {
      this.pos += 5;
      this.baseDeclaration();
    } else {
      throw GIVE_UP;
    }
    this.expect(46);
  }

  /** PREFIX / BASE (any case) followed by whitespace, '#' or '<'; false when the statement is a triple. */
  private sparqlDirective(c: number): boolean {
    if (this.nt || ((c | 32) !== 112 && (c | 32) !== 98 && (c | 32) !== 118 && (c | 32) !== 103)) return false;
    const t = this.text,
      p = this.pos;
    const word = (w: string) =>
      t.length >= p + w.length && t.slice(p, p + w.length).toUpperCase() === w && /[\s#<]/.test(t.charAt(p + w.length));
    if (word('PREFIX')) {
      this.pos += 6;
      this.prefixDeclaration();
      return true;
    }
    if (word('BASE')) {
      this.pos += 4;
      this.baseDeclaration();
      return true;
    }
    // RDF 1.2 VERSION and TriG's GRAPH are n3's to read.
    if (word('VERSION') || word('GRAPH')) throw GIVE_UP;
    return false;
  }

  private prefixDeclaration(): void {
    this.skip();
    const t = this.text,
      start = this.pos;
    let p = start;
    if (t.charCodeAt(p) !== 58) {
      if (!isNameStart(t.charCodeAt(p))) throw GIVE_UP;
      p++;
      while (isNameChar(t.charCodeAt(p)) || t.charCodeAt(p) === 46) p++;
      if (t.charCodeAt(p - 1) === 46 || t.charCodeAt(p) !== 58) throw GIVE_UP;
    }
    const name = t.slice(start, p);
    this.pos = p + 1;
    if (this.skip() !== 60) throw GIVE_UP;
    const namespace = ownString(this.resolved(this.iriRefText()));
    let h = FNV_START;
    for (let i = 0; i < namespace.length; i++) h = fnvStep(h, namespace.charCodeAt(i));
    const scope = this.namespaces.push(namespace) - 1;
    this.namespaceHashes.push(h);
    this.namespaceTags.push(this.table.namespaceTag(namespace));
    this.prefixNames.push(ownString(name));
    this.scopeOf.set(ownString(name), scope);
    this.prefixes.set(ownString(name + ':'), namespace);
  }

  private baseDeclaration(): void {
    if (this.skip() !== 60) throw GIVE_UP;
    const iri = this.resolved(this.iriRefText());
    if (iri === '') throw GIVE_UP;
    this.resolver._setBase(iri);
  }

  // ------------------------------------------------------------ triples

  private statement(c: number): void {
    if (this.nt && (c === 91 || c === 40)) throw GIVE_UP;
    if (c === 91 /* [ */) {
      const empty = this.text.charCodeAt(this.skipFrom(this.pos + 1)) === 93;
      const s = this.blankPropertyList();
      // A non-empty blank-node property list may stand alone as a statement.
      if (!empty && this.skip() === 46) {
        this.pos++;
        return;
      }
      this.predicateObjectList(s, false);
    } else {
      const s = c === 40 ? this.collection() : this.subject(c);
      this.predicateObjectList(s, false);
    }
    this.expect(46);
  }

  /** Position of the next character after whitespace and comments from p (the scanner's position is kept). */
  private skipFrom(p: number): number {
    const saved = this.pos;
    this.pos = p;
    this.skip();
    const at = this.pos;
    this.pos = saved;
    return at;
  }

  private subject(c: number): TermId {
    if (c === 60) return this.iriRef();
    if (c === 95 && this.text.charCodeAt(this.pos + 1) === 58) return this.blankLabel();
    if (this.nt) throw GIVE_UP;
    return this.prefixedName(false);
  }

  /** verb objectList (';' (verb objectList)?)*, ending before '.' or ']' (left for the caller). */
  private predicateObjectList(s: TermId, inBlank: boolean): void {
    for (;;) {
      const p = this.verb(this.skip());
      this.objectList(s, p);
      let c = this.skip();
      // In a blank-node property list n3 reads a '.' as it reads ';' (lax, like the OWL API).
      const separator = c === 59 || (inBlank && c === 46);
      if (!separator) return;
      if (this.nt) throw GIVE_UP;
      this.pos++;
      c = this.skip();
      while (c === 59) {
        this.pos++;
        c = this.skip();
      }
      if (c === 93) return;
      if (c === 46) {
        if (inBlank) throw GIVE_UP;
        return;
      }
    }
  }

  private verb(c: number): TermId {
    if (c === 60) return this.iriRef();
    if (this.nt) throw GIVE_UP;
    if (c === 97 /* a */) {
      const next = this.text.charCodeAt(this.pos + 1);
      if (!isNameChar(next) && next !== 58 && next !== 46) {
        this.pos++;
        return RDF_TYPE;
      }
    }
    return this.prefixedName(false);
  }

  private objectList(s: TermId, p: TermId): void {
    for (;;) {
      const o = this.object(this.skip());
      this.table.add(s, p, o);
      if (this.skip() !== 44) return;
      if (this.nt) throw GIVE_UP;
      this.pos++;
    }
  }

  private object(c: number): TermId {
    switch (c) {
      case 60:
        return this.iriRef();
      case 34:
      case 39:
        return this.rdfLiteral(c);
      case 91:
        if (this.nt) throw GIVE_UP;
        return this.blankPropertyList();
      case 40:
        if (this.nt) throw GIVE_UP;
        return this.collection();
      case 95:
        if (this.text.charCodeAt(this.pos + 1) === 58) return this.blankLabel();
        break;
      case 43:
      case 45:
      case 46:
      case 48:
      case 49:
      case 50:
      case 51:
      case 52:
      case 53:
      case 54:
      case 55:
      case 56:
      case 57:
        if (this.nt) throw GIVE_UP;
        return this.number();
      case -1:
        throw GIVE_UP;
    }
    if (this.nt) throw GIVE_UP;
    return this.prefixedName(true);
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) throw GIVE_UP;
  }

  /** '[' predicateObjectList? ']' → its fresh blank node. */
  private blankPropertyList(): TermId {
    return this.blankPropertyListOf(this.table.freshBlank());
  }

  /** '[' predicateObjectList? ']' with the blank node `id`. */
  private blankPropertyListOf(id: TermId): TermId {
    this.enter();
    this.pos++;
    if (this.skip() !== 93) {
      this.predicateObjectList(id, true);
      if (this.skip() !== 93) throw GIVE_UP;
    }
    this.pos++;
    this.depth--;
    return id;
  }

  /** '(' object* ')' → its head (rdf:nil when empty), every triple emitted. */
  private collection(): TermId {
    const head = this.collectionItems();
    if (head !== RDF_NIL) this.table.add(this.lastListNode, RDF_REST, RDF_NIL);
    return head;
  }

  /**
   * The items of a collection and the list nodes linking them; the closing rdf:rest rdf:nil of the last
   * node is left to the caller (`lastListNode`), because n3 emits it after the triple that links a nested
   * list to its parent's node.
   */
  private collectionItems(): TermId {
    this.enter();
    this.pos++;
    let head: TermId = RDF_NIL,
      previous: TermId = -1;
    for (;;) {
      const c = this.skip();
      if (c === 41) {
        this.pos++;
        break;
      }
      const node = this.table.freshBlank();
      if (previous === -1) head = node;
      else this.table.add(previous, RDF_REST, node);
      if (c === 40) {
        const inner = this.collectionItems();
        this.table.add(node, RDF_FIRST, inner);
        if (inner !== RDF_NIL) this.table.add(this.lastListNode, RDF_REST, RDF_NIL);
      } else if (c === 91) {
        // n3 links a blank-node item before reading its properties.
        const item = this.table.freshBlank();
        this.table.add(node, RDF_FIRST, item);
        this.blankPropertyListOf(item);
      } else {
        this.table.add(node, RDF_FIRST, this.object(c));
      }
      previous = node;
    }
    this.lastListNode = previous;
    this.depth--;
    return head;
  }

  // ------------------------------------------------------------ IRIs and names

  /** The characters of an IRIREF (no escapes; the scanner is left after '>'). */
  private iriRefText(): string {
    const t = this.text,
      start = this.pos + 1;
    let p = start;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 62) break;
      if (c <= 32 || c === 60 || c === 34 || c === 123 || c === 125 || c === 124 || c === 94 || c === 96 || c === 92 || c !== c)
        throw GIVE_UP;
      p++;
    }
    this.pos = p + 1;
    return t.slice(start, p);
  }

  /** An IRI resolved against the base as n3 resolves it. */
  private resolved(iri: string): string {
    if (this.nt && !/^[a-z][a-z0-9+.-]*:/i.test(iri)) throw GIVE_UP;
    const out = this.resolver._resolveIRI(iri);
    if (out === null) throw GIVE_UP;
    return out;
  }

  /** '<' IRI '>' → its id. Absolute IRIs are found in place; relative ones are resolved first. */
  private iriRef(): TermId {
    const t = this.text,
      start = this.pos + 1;
    let p = start,
      h = FNV_START,
      absolute = false;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 62) break;
      if (c <= 32 || c === 60 || c === 34 || c === 123 || c === 125 || c === 124 || c === 94 || c === 96 || c === 92 || c !== c)
        throw GIVE_UP;
      if (c === 58 && !absolute) absolute = isScheme(t, start, p);
      h = fnvStep(h, c);
      p++;
    }
    this.pos = p + 1;
    if (!absolute) return this.table.iri(this.resolved(t.slice(start, p)));
    const known = this.table.findIri(t, start, p, h);
    return known >= 0 ? known : this.table.addIri(ownString(t.slice(start, p)), h, 0);
  }

  /**
   * A prefixed name, or (in object position) the keywords true and false. PN_PREFIX? ':' PN_LOCAL?, where
   * a local name may hold %XX and '\'-escapes and does not end with '.'.
   */
  private prefixedName(keywordsAllowed: boolean): TermId {
    const t = this.text,
      start = this.pos;
    let p = start;
    let scope: number;
    if (t.charCodeAt(p) === 58) {
      scope = this.scope(start, p);
    } else {
      if (!isNameStart(t.charCodeAt(p))) throw GIVE_UP;
      p++;
      for (;;) {
        const c = t.charCodeAt(p);
        if (isNameChar(c) || c === 46) p++;
        else break;
      }
      if (t.charCodeAt(p) !== 58 || t.charCodeAt(p - 1) === 46) {
        if (keywordsAllowed) return this.keyword(start, p);
        throw GIVE_UP;
      }
      scope = this.scope(start, p);
    }
    p++;
    const localStart = p;
    // scope() returned an index of the prefix arrays, which grow together.
    let h = this.namespaceHashes[scope]!;
    let escaped = false;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c < 128 ? ASCII[c] !== 0 || c === 58 : isWideNameChar(c)) {
        // PN_LOCAL may start with a digit or ':' too, but not with '-' or a combining character.
        if (p === localStart && (c === 45 || (c >= 128 && !isWideNameStart(c)))) break;
      } else if (c === 46) {
        if (p === localStart) break;
      } else if (c === 37) {
        if (!isHex(t.charCodeAt(p + 1)) || !isHex(t.charCodeAt(p + 2))) throw GIVE_UP;
      } else if (c === 92) {
        if (!LOCAL_ESCAPES.includes(t.charAt(p + 1)) || p + 1 >= this.end) throw GIVE_UP;
        escaped = true;
        p++;
      } else {
        break;
      }
      h = fnvStep(h, t.charCodeAt(p));
      p++;
    }
    // A local name does not end with '.': a final dot ends the statement.
    let trimmed = false;
    while (p > localStart && t.charCodeAt(p - 1) === 46 && t.charCodeAt(p - 2) !== 92) {
      p--;
      trimmed = true;
    }
    this.pos = p;
    const namespace = this.namespaces[scope]!;
    if (escaped) return this.table.iri([namespace, t.slice(localStart, p).replace(/\\(.)/g, '$1')].join(''), true);
    if (trimmed) {
      h = this.namespaceHashes[scope]!;
      for (let i = localStart; i < p; i++) h = fnvStep(h, t.charCodeAt(i));
    }
    const tag = this.namespaceTags[scope]!;
    const known = this.table.findPrefixed(namespace, tag, t, localStart, p, h);
    // Joined, the IRI is one new flat string (a '+' would be a pair of parts, one a view into the text).
    return known >= 0 ? known : this.table.addIri([namespace, t.slice(localStart, p)].join(''), h, tag);
  }

  /** The scope of the prefix text[start, end): a scan over the few declared names, else the map. */
  private scope(start: number, end: number): number {
    const names = this.prefixNames,
      len = end - start,
      t = this.text;
    if (names.length <= 16) {
      for (let i = names.length - 1; i >= 0; i--) {
        const name = names[i]!;
        if (name.length === len && t.startsWith(name, start)) return i;
      }
      throw GIVE_UP;
    }
    const scope = this.scopeOf.get(t.slice(start, end));
    if (scope === undefined) throw GIVE_UP;
    return scope;
  }

  /** true / false (xsd:boolean) in object position. */
  private keyword(start: number, end: number): TermId {
    const word = this.text.slice(start, end);
    if ((word !== 'true' && word !== 'false') || !isDelimiter(this.text.charCodeAt(end))) throw GIVE_UP;
    this.pos = end;
    return this.table.literal(word, XSD_BOOLEAN, '');
  }

  private blankLabel(): TermId {
    const t = this.text,
      start = this.pos + 2;
    let p = start;
    const first = t.charCodeAt(p);
    if (!(first < 128 ? ASCII[first]! & (BASE | UNDERSCORE) || (first >= 48 && first <= 57) : isWideNameStart(first))) throw GIVE_UP;
    p++;
    for (;;) {
      const c = t.charCodeAt(p);
      if (isNameChar(c) || c === 46) p++;
      else break;
    }
    while (t.charCodeAt(p - 1) === 46) p--;
    this.pos = p;
    const label = t.slice(start, p);
    let id = this.blanks.get(label);
    if (id === undefined) this.blanks.set(label, (id = this.table.freshBlank()));
    return id;
  }

  // ------------------------------------------------------------ literals

  private rdfLiteral(quote: number): TermId {
    const value = this.quoted(quote);
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    if (c === 64 /* @ */) {
      const start = this.pos + 1;
      let p = start;
      while (ASCII[t.charCodeAt(p)] === BASE) p++;
      if (p === start) throw GIVE_UP;
      while (t.charCodeAt(p) === 45 && asciiClass(t.charCodeAt(p + 1)) & (BASE | DIGIT_OR_DASH) && t.charCodeAt(p + 1) !== 45) {
        p += 2;
        while (asciiClass(t.charCodeAt(p)) & BASE || (t.charCodeAt(p) >= 48 && t.charCodeAt(p) <= 57)) p++;
      }
      // A direction tag (RDF 1.2) or a malformed tag is n3's to judge.
      const next = t.charCodeAt(p);
      if (next === 45 || !isDelimiter(next)) throw GIVE_UP;
      const lang = t.slice(start, p);
      if (!validLanguageTag(lang)) throw GIVE_UP;
      this.pos = p;
      return this.table.literal(value, XSD_STRING, lang);
    }
    if (c === 94 && t.charCodeAt(this.pos + 1) === 94) {
      this.pos += 2;
      const d = t.charCodeAt(this.pos);
      const id = d === 60 ? this.iriRef() : this.nt ? -1 : this.prefixedName(false);
      if (id < 0) throw GIVE_UP;
      const datatype = this.table.terms[id] as string;
      if (datatype === RDF_LANG_STRING || datatype === RDF_DIR_LANG_STRING) throw GIVE_UP;
      return this.table.literal(value, datatype, '');
    }
    return this.table.literal(value, XSD_STRING, '');
  }

  /** A quoted string ('…', "…", '''…''' or """…""") → its value; the scanner is left after the quotes. */
  private quoted(q: number): string {
    const t = this.text;
    const long = t.charCodeAt(this.pos + 1) === q && t.charCodeAt(this.pos + 2) === q;
    if (long && this.nt) throw GIVE_UP;
    const start = this.pos + (long ? 3 : 1);
    let p = start;
    for (;;) {
      if (p >= this.end) throw GIVE_UP;
      const c = t.charCodeAt(p);
      if (c === q) {
        if (!long) break;
        if (t.charCodeAt(p + 1) === q && t.charCodeAt(p + 2) === q) {
          // """a"""" : the closing quotes are the last three of the run.
          while (t.charCodeAt(p + 3) === q) p++;
          break;
        }
      } else if (c === 92) {
        return this.escapedString(q, long, start);
      } else if (!long && (c === 10 || c === 13)) {
        throw GIVE_UP;
      }
      p++;
    }
    this.pos = p + (long ? 3 : 1);
    return t.slice(start, p);
  }

  /** The slow path of `quoted` for a string with escapes, read from its first character. */
  private escapedString(q: number, long: boolean, start: number): string {
    const t = this.text;
    const parts: string[] = [];
    let p = start,
      from = start;
    for (;;) {
      if (p >= this.end) throw GIVE_UP;
      const c = t.charCodeAt(p);
      if (c === q && (!long || (t.charCodeAt(p + 1) === q && t.charCodeAt(p + 2) === q))) {
        if (long) while (t.charCodeAt(p + 3) === q) p++;
        break;
      }
      if (!long && (c === 10 || c === 13)) throw GIVE_UP;
      if (c !== 92) {
        p++;
        continue;
      }
      parts.push(t.slice(from, p));
      const e = t.charCodeAt(p + 1);
      let width = 2;
      switch (e) {
        case 116:
          parts.push('\t');
          break;
        case 98:
          parts.push('\b');
          break;
        case 110:
          parts.push('\n');
          break;
        case 114:
          parts.push('\r');
          break;
        case 102:
          parts.push('\f');
          break;
        case 34:
          parts.push('"');
          break;
        case 39:
          parts.push("'");
          break;
        case 92:
          parts.push('\\');
          break;
        case 117:
        case 85: {
          const digits = e === 117 ? 4 : 8;
          const hex = t.slice(p + 2, p + 2 + digits);
          if (hex.length !== digits || !/^[0-9A-Fa-f]+$/.test(hex)) throw GIVE_UP;
          const code = parseInt(hex, 16);
          if (code > 0x10ffff) throw GIVE_UP;
          parts.push(String.fromCodePoint(code));
          width = 2 + digits;
          break;
        }
        default:
          throw GIVE_UP;
      }
      p += width;
      from = p;
    }
    parts.push(t.slice(from, p));
    this.pos = p + (long ? 3 : 1);
    return parts.join('');
  }

  /** INTEGER, DECIMAL or DOUBLE, followed by a delimiter (a final '.' ends the statement). */
  private number(): TermId {
    const t = this.text,
      start = this.pos;
    let p = start;
    const c0 = t.charCodeAt(p);
    if (c0 === 43 || c0 === 45) p++;
    const intStart = p;
    while (isDigit(t.charCodeAt(p))) p++;
    let datatype = XSD_INTEGER;
    const intDigits = p - intStart;
    if (t.charCodeAt(p) === 46 && isDigit(t.charCodeAt(p + 1))) {
      p++;
      while (isDigit(t.charCodeAt(p))) p++;
      datatype = XSD_DECIMAL;
    } else if (intDigits === 0) {
      throw GIVE_UP;
    } else if (t.charCodeAt(p) === 46 && isExponent(t, p + 1)) {
      // "8.E-2": a double whose fraction is empty.
      p++;
    }
    const e = t.charCodeAt(p);
    if (e === 101 || e === 69) {
      p++;
      if (t.charCodeAt(p) === 43 || t.charCodeAt(p) === 45) p++;
      if (!isDigit(t.charCodeAt(p))) throw GIVE_UP;
      while (isDigit(t.charCodeAt(p))) p++;
      datatype = XSD_DOUBLE;
    }
    const next = t.charCodeAt(p);
    if (!isDelimiter(next) || (next === 46 && (isDigit(t.charCodeAt(p + 1)) || isExponent(t, p + 1)))) throw GIVE_UP;
    this.pos = p;
    return this.table.literal(t.slice(start, p), datatype, '');
  }
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/** An exponent at p: [eE] [+-]? digit. */
function isExponent(t: string, p: number): boolean {
  const e = t.charCodeAt(p);
  if (e !== 101 && e !== 69) return false;
  const s = t.charCodeAt(p + 1);
  return isDigit(s) || ((s === 43 || s === 45) && isDigit(t.charCodeAt(p + 2)));
}

/** Whether text[start, colon) is a URI scheme, making the IRI absolute. */
function isScheme(t: string, start: number, colon: number): boolean {
  if (colon === start || ASCII[t.charCodeAt(start)] !== BASE) return false;
  for (let i = start + 1; i < colon; i++) {
    const c = t.charCodeAt(i);
    if (!(ASCII[c] === BASE || (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46)) return false;
  }
  return true;
}
