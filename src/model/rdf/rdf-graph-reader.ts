// The triple table every RDF reader fills before the RDF → OWL mapping runs.
//
// Terms are kept compact: an IRI is its string, a blank node is '_:' + a label made unique per document,
// a literal is the interned model Literal. Triples are three parallel arrays, so a million-triple document
// costs three arrays rather than a million objects.

import type * as RDF from '@rdfjs/types';
import { literal, type Literal } from '../terms.js';
import type { UnmappedItem } from '../ontology.js';
import { XSD_STRING, RDF_LANG_STRING } from '../vocab.js';
import { escapeLexical } from '../render/axiom-lines.js';

/** Subject or object term: an IRI, a blank node ('_:label') or (objects only) a literal. */
export type TermKey = string;
export type ObjectTerm = TermKey | Literal;

/** Each document's blank nodes get their own label space, so equal labels in two documents never meet. */
let documentCounter = 0;

export class TripleTable {
  readonly s: TermKey[] = [];
  readonly p: string[] = [];
  readonly o: ObjectTerm[] = [];
  /** Input dropped before mapping (quads in named graphs, generalised RDF), with the reason. */
  readonly unmapped: UnmappedItem[] = [];
  private readonly bnodePrefix = '_:d' + ++documentCounter + '_';

  get size(): number {
    return this.s.length;
  }

  add(s: TermKey, p: string, o: ObjectTerm): void {
    this.s.push(s);
    this.p.push(p);
    this.o.push(o);
  }

  blank(label: string): TermKey {
    return this.bnodePrefix + label;
  }

  /** Adds an RDF/JS quad of the default graph; anything else is recorded as unmapped. */
  addQuad(q: RDF.Quad): void {
    const s = q.subject, p = q.predicate, o = q.object;
    if (q.graph.termType !== 'DefaultGraph') {
      this.unmapped.push({ text: quadText(q), reason: 'quad in a named graph; only the default graph is the ontology' });
      return;
    }
    if ((s.termType !== 'NamedNode' && s.termType !== 'BlankNode') || p.termType !== 'NamedNode') {
      this.unmapped.push({ text: quadText(q), reason: 'generalised RDF triple (subject or predicate not an IRI/blank node)' });
      return;
    }
    let obj: ObjectTerm;
    if (o.termType === 'NamedNode') obj = o.value;
    else if (o.termType === 'BlankNode') obj = this.blank(o.value);
    else if (o.termType === 'Literal') obj = literal(o.value, o.datatype.value, o.language);
    else {
      this.unmapped.push({ text: quadText(q), reason: 'unsupported object term ' + o.termType });
      return;
    }
    this.add(s.termType === 'NamedNode' ? s.value : this.blank(s.value), p.value, obj);
  }
}

export function isBlank(t: ObjectTerm): t is TermKey {
  return typeof t === 'string' && t.charCodeAt(0) === 95 && t.charCodeAt(1) === 58;
}

export function isIri(t: ObjectTerm): t is TermKey {
  return typeof t === 'string' && !(t.charCodeAt(0) === 95 && t.charCodeAt(1) === 58);
}

/** N-Triples text of one term. */
export function termText(t: ObjectTerm): string {
  if (typeof t === 'string') return isBlank(t) ? t : '<' + t + '>';
  const q = '"' + escapeLexical(t.lex) + '"';
  if (t.lang) return q + '@' + t.lang;
  return t.datatype === XSD_STRING ? q : q + '^^<' + t.datatype + '>';
}

export function tripleText(s: TermKey, p: string, o: ObjectTerm): string {
  return termText(s) + ' <' + p + '> ' + termText(o) + ' .';
}

function rdfjsText(t: RDF.Term): string {
  switch (t.termType) {
    case 'NamedNode': return '<' + t.value + '>';
    case 'BlankNode': return '_:' + t.value;
    case 'Literal': {
      const q = '"' + escapeLexical(t.value) + '"';
      if (t.language) return q + '@' + t.language;
      return t.datatype.value === XSD_STRING || t.datatype.value === RDF_LANG_STRING ? q : q + '^^<' + t.datatype.value + '>';
    }
    case 'DefaultGraph': return '';
    case 'Variable': return '?' + t.value;
    case 'Quad': return '<< ' + quadText(t) + ' >>';
  }
}

function quadText(q: RDF.BaseQuad): string {
  const g = q.graph.termType === 'DefaultGraph' ? '' : ' ' + rdfjsText(q.graph);
  return rdfjsText(q.subject) + ' ' + rdfjsText(q.predicate) + ' ' + rdfjsText(q.object) + g + ' .';
}
