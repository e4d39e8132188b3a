// The triple table every RDF reader fills before the RDF → OWL mapping runs.
//
// Every term gets a small integer id once: an IRI or blank node through one map lookup, a literal by
// position (literals are interned model Literals, so equal literals are the same object). The triples are
// three growable Int32Arrays of ids, so a million-triple document costs a few typed arrays rather than a
// million objects. The ids of the mapping vocabulary are fixed (see VOCABULARY in vocab-reader.ts).

import type * as RDF from '@rdfjs/types';
import { documentScope, literal, ownString, type Literal } from '../terms.js';
import type { UnmappedItem } from '../ontology.js';
import { XSD_STRING, RDF_LANG_STRING, RDF_PLAIN_LITERAL } from '../vocab.js';
import { escapeLexical } from '../render/axiom-lines.js';
import { VOCABULARY } from './vocab-reader.js';
import { unreachable } from '../../util/unreachable.js';

/** A term id: index into `TripleTable.terms`. */
export type TermId = number;
/** What a term id stands for: an IRI, a blank node ('_:label') or a literal. */
export type TermValue = string | Literal;

export class TripleTable {
  s = new Int32Array(1024);
  p = new Int32Array(1024);
  o = new Int32Array(1024);
  size = 0;
  /** Term values by id. */
  readonly terms: TermValue[] = [];
  /** Input dropped before mapping (quads in named graphs, generalised RDF), with the reason. */
  readonly unmapped: UnmappedItem[] = [];
  /**
   * IRIs (and blank-node labels) by their hash: open addressing over triples (hash, id + 1, namespace tag).
   * The hash is FNV-1a over the characters, so a reader can compute it while scanning the document and find
   * a name in place (`findIri`, `findPrefixed`) before making any string. The tag says which registered
   * namespace an IRI was made from (0: none), so a prefixed name found again need not compare its namespace.
   * A slot index is masked to below slots.length / 3, so its three entries are in bounds.
   */
  private slots = new Int32Array(3 << 15);
  private named = 0;
  private readonly namespaceTags = new Map<string, number>();
  private freshBlanks = 0;
  private lastSubject: RDF.Term | null = null;
  private lastSubjectId: TermId = -1;

  /**
   * `bnodePrefix` names this document's blank nodes; a table filled on another thread for this one is
   * given this thread's prefix, so its blank nodes are this document's.
   */
  constructor(readonly bnodePrefix = '_:d' + documentScope() + '_') {
    for (const iri of VOCABULARY) this.iri(iri);
  }

  /** A tag (≥ 1) for a namespace that prefixed names are made from: one per distinct namespace string. */
  namespaceTag(namespace: string): number {
    let tag = this.namespaceTags.get(namespace);
    if (tag === undefined) this.namespaceTags.set(namespace, (tag = this.namespaceTags.size + 1));
    return tag;
  }

  /**
   * The id of an IRI. The table keeps its own flat copy of a new IRI, not a view into the document, unless
   * the caller says the string is already its own.
   */
  iri(iri: string, owned = false): TermId {
    let h = FNV_START;
    for (let i = 0; i < iri.length; i++) h = fnvStep(h, iri.charCodeAt(i));
    const slots = this.slots,
      capacity = slots.length / 3,
      mask = capacity - 1;
    for (let i = fnvFinish(h) & mask; ; i = (i + 1) & mask) {
      const e = slots[3 * i + 1]!;
      if (e === 0) break;
      if (slots[3 * i] === h && this.terms[e - 1] === iri) return e - 1;
    }
    return this.addIri(owned ? iri : ownString(iri), h, 0);
  }

  /** The id of the IRI text[start, end) whose FNV-1a hash is h, or -1 if the table has not seen it. */
  findIri(text: string, start: number, end: number, h: number): TermId {
    const slots = this.slots,
      mask = slots.length / 3 - 1,
      len = end - start;
    for (let i = fnvFinish(h) & mask; ; i = (i + 1) & mask) {
      const e = slots[3 * i + 1]!;
      if (e === 0) return -1;
      if (slots[3 * i] === h) {
        const known = this.terms[e - 1] as string;
        if (known.length === len && text.startsWith(known, start)) return e - 1;
      }
    }
  }

  /**
   * The id of the IRI namespace + text[start, end) whose hash is h (the namespace's hash continued over
   * the local part), or -1; `tag` is the namespace's tag.
   */
  findPrefixed(namespace: string, tag: number, text: string, start: number, end: number, h: number): TermId {
    const slots = this.slots,
      mask = slots.length / 3 - 1,
      ns = namespace.length,
      len = ns + end - start;
    for (let i = fnvFinish(h) & mask; ; i = (i + 1) & mask) {
      const e = slots[3 * i + 1]!;
      if (e === 0) return -1;
      if (slots[3 * i] === h) {
        const known = this.terms[e - 1] as string;
        if (known.length === len && sameChars(known, ns, text, start, end) && (slots[3 * i + 2] === tag || known.startsWith(namespace)))
          return e - 1;
      }
    }
  }

  /** Records a new IRI (flat, owned) with its FNV-1a hash and the tag of the namespace it was made from (or 0). */
  addIri(iri: string, h: number, tag: number): TermId {
    if (2 * (this.named + 1) > this.slots.length / 3) this.growSlots();
    const slots = this.slots,
      mask = slots.length / 3 - 1;
    let i = fnvFinish(h) & mask;
    while (slots[3 * i + 1] !== 0) i = (i + 1) & mask;
    const id = this.terms.push(iri) - 1;
    slots[3 * i] = h;
    slots[3 * i + 1] = id + 1;
    slots[3 * i + 2] = tag;
    this.named++;
    return id;
  }

  private growSlots(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2),
      mask = slots.length / 3 - 1;
    for (let j = 0; j < old.length; j += 3) {
      if (old[j + 1] === 0) continue;
      // old.length is a multiple of 3: j + 2 < old.length.
      let i = fnvFinish(old[j]!) & mask;
      while (slots[3 * i + 1] !== 0) i = (i + 1) & mask;
      slots[3 * i] = old[j]!;
      slots[3 * i + 1] = old[j + 1]!;
      slots[3 * i + 2] = old[j + 2]!;
    }
    this.slots = slots;
  }

  /** The id of a blank node by its label in the document. */
  blank(label: string): TermId {
    return this.iri(this.bnodePrefix + label);
  }

  /** A new blank node, distinct from every labelled one (labels never start with '.'). */
  freshBlank(): TermId {
    return this.terms.push(this.bnodePrefix + '.' + this.freshBlanks++) - 1;
  }

  /** A new id for a literal occurrence; equal literals compare equal through their interned value. */
  literal(lex: string, datatypeIri: string, lang: string): TermId {
    return this.terms.push(this.literalValue(lex, datatypeIri, lang)) - 1;
  }

  /** The value a literal occurrence stands for (a table filled for another thread records it instead). */
  protected literalValue(lex: string, datatypeIri: string, lang: string): TermValue {
    return readLiteral(lex, datatypeIri, lang);
  }

  add(s: TermId, p: TermId, o: TermId): void {
    const i = this.size;
    if (i === this.s.length) this.grow();
    this.s[i] = s;
    this.p[i] = p;
    this.o[i] = o;
    this.size = i + 1;
  }

  /** Appends triples given as three columns of term ids. */
  addColumns(s: Int32Array, p: Int32Array, o: Int32Array): void {
    const at = this.size,
      n = s.length;
    while (at + n > this.s.length) this.grow();
    this.s.set(s, at);
    this.p.set(p, at);
    this.o.set(o, at);
    this.size = at + n;
  }

  private grow(): void {
    const n = this.s.length * 2;
    const widen = (a: Int32Array) => {
      const b = new Int32Array(n);
      b.set(a);
      return b;
    };
    this.s = widen(this.s);
    this.p = widen(this.p);
    this.o = widen(this.o);
  }

  /** Adds an RDF/JS quad of the default graph; anything else is recorded as unmapped. */
  addQuad(q: RDF.Quad): void {
    const s = q.subject,
      p = q.predicate,
      o = q.object;
    if (q.graph.termType !== 'DefaultGraph') {
      this.unmapped.push({ text: ownString(quadText(q)), reason: 'quad in a named graph; only the default graph is the ontology' });
      return;
    }
    if ((s.termType !== 'NamedNode' && s.termType !== 'BlankNode') || p.termType !== 'NamedNode') {
      this.unmapped.push({ text: ownString(quadText(q)), reason: 'generalised RDF triple (subject or predicate not an IRI/blank node)' });
      return;
    }
    let obj: TermId;
    if (o.termType === 'NamedNode') obj = this.iri(o.value);
    else if (o.termType === 'BlankNode') obj = this.blank(o.value);
    else if (o.termType === 'Literal') obj = this.literal(o.value, o.datatype.value, o.language);
    else {
      this.unmapped.push({ text: ownString(quadText(q)), reason: 'unsupported object term ' + o.termType });
      return;
    }
    this.add(this.subjectId(s), this.iri(p.value), obj);
  }

  /** Streaming parsers hand out one subject term for all the triples of a node: its id is looked up once. */
  private subjectId(s: RDF.Quad_Subject): TermId {
    if (s !== this.lastSubject) {
      this.lastSubject = s;
      this.lastSubjectId = s.termType === 'NamedNode' ? this.iri(s.value) : this.blank(s.value);
    }
    return this.lastSubjectId;
  }
}

/** FNV-1a over UTF-16 code units: the start value and one step. */
export const FNV_START = 0x811c9dc5 | 0;
export const fnvStep = (h: number, c: number): number => Math.imul(h ^ c, 0x01000193);

/** Spreads an FNV-1a hash's bits over its low bits (they choose the slot). */
function fnvFinish(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
}

/** Whether a[from, from + (end - start)) equals b[start, end). */
function sameChars(a: string, from: number, b: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (a.charCodeAt(from++) !== b.charCodeAt(i)) return false;
  return true;
}

/**
 * A literal as OWL reads it: an rdf:PlainLiteral "text@lang" is the language-tagged string "text"@lang, and
 * "text@" the plain string "text" (OWL 2 RDF mapping, table 3 footnote; rdf:PlainLiteral spec section 3).
 */
export function readLiteral(lex: string, datatypeIri: string, lang: string): Literal {
  if (datatypeIri === RDF_PLAIN_LITERAL) {
    const at = lex.lastIndexOf('@');
    if (at >= 0) return literal(lex.slice(0, at), XSD_STRING, lex.slice(at + 1));
  }
  return literal(lex, datatypeIri, lang);
}

export function isBlankValue(t: TermValue): boolean {
  return typeof t === 'string' && t.charCodeAt(0) === 95 && t.charCodeAt(1) === 58;
}

/** N-Triples text of one term. */
export function termText(t: TermValue): string {
  if (typeof t === 'string') return isBlankValue(t) ? t : '<' + t + '>';
  const q = '"' + escapeLexical(t.lex) + '"';
  if (t.lang) return q + '@' + t.lang;
  return t.datatype === XSD_STRING ? q : q + '^^<' + t.datatype + '>';
}

export function tripleText(s: TermValue, p: TermValue, o: TermValue): string {
  return termText(s) + ' ' + termText(p) + ' ' + termText(o) + ' .';
}

function rdfjsText(t: RDF.Term): string {
  switch (t.termType) {
    case 'NamedNode':
      return '<' + t.value + '>';
    case 'BlankNode':
      return '_:' + t.value;
    case 'Literal': {
      const q = '"' + escapeLexical(t.value) + '"';
      if (t.language) return q + '@' + t.language;
      return t.datatype.value === XSD_STRING || t.datatype.value === RDF_LANG_STRING ? q : q + '^^<' + t.datatype.value + '>';
    }
    case 'DefaultGraph':
      return '';
    case 'Variable':
      return '?' + t.value;
    case 'Quad':
      return '<< ' + quadText(t) + ' >>';
    default:
      return unreachable(t);
  }
}

export function quadText(q: RDF.BaseQuad): string {
  const g = q.graph.termType === 'DefaultGraph' ? '' : ' ' + rdfjsText(q.graph);
  return rdfjsText(q.subject) + ' ' + rdfjsText(q.predicate) + ' ' + rdfjsText(q.object) + g + ' .';
}
