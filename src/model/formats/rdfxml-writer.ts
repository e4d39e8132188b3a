// RDF/XML serializer of the OWL 2 RDF mapping: one node element per subject (typed by its first rdf:type
// when that has a qualified name), blank nodes used once nested in their property element, RDF lists of
// resources as rdf:parseType="Collection". Predicates and types need qualified names, so a namespace
// prefix is invented (ns1, ns2, ...) for any namespace the document's prefix map does not cover.

import type { Literal } from '../terms.js';
import type { Ontology } from '../ontology.js';
import { RDF, STANDARD_PREFIXES, SWRL, XSD_STRING } from '../vocab.js';
import {
  Blank,
  isNestable,
  listItems,
  orderGraph,
  owlToTriples,
  RDF_TYPE,
  type OrderedGraph,
  type RdfObject,
  type SubjectBlock,
} from '../rdf/owl-to-triples.js';

const INDENT = '    ';

/** Bound after the document's own prefixes when their names and namespaces are still free. */
const WELL_KNOWN: readonly (readonly [string, string])[] = STANDARD_PREFIXES.filter(([k]) => k !== 'xml:');

// ---------------------------------------------------------------- XML names

function isNameStart(c: number): boolean {
  return (
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x61 && c <= 0x7a) ||
    c === 0x5f ||
    (c >= 0xc0 && c <= 0xd6) ||
    (c >= 0xd8 && c <= 0xf6) ||
    (c >= 0xf8 && c <= 0x2ff) ||
    (c >= 0x370 && c <= 0x37d) ||
    (c >= 0x37f && c <= 0x1fff) ||
    (c >= 0x3001 && c <= 0xd7ff) ||
    (c >= 0xf900 && c <= 0xfdcf) ||
    (c >= 0xfdf0 && c <= 0xfffd)
  );
}

function isNameChar(c: number): boolean {
  return (
    isNameStart(c) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x2d ||
    c === 0x2e ||
    c === 0xb7 ||
    (c >= 0x300 && c <= 0x36f) ||
    c === 0x203f ||
    c === 0x2040
  );
}

function isNCName(s: string): boolean {
  if (s.length === 0 || !isNameStart(s.charCodeAt(0))) return false;
  for (let i = 1; i < s.length; i++) if (!isNameChar(s.charCodeAt(i))) return false;
  return true;
}

/** Where the longest NCName suffix of an IRI starts, or -1 when the IRI does not end in one. */
function ncNameSplit(iri: string): number {
  let i = iri.length;
  while (i > 0 && isNameChar(iri.charCodeAt(i - 1))) i--;
  while (i < iri.length && !isNameStart(iri.charCodeAt(i))) i++;
  return i < iri.length ? i : -1;
}

/** Qualified names for IRIs: declared namespaces first, invented ones (nsN) for the rest. */
class XmlNames {
  /** namespace → prefix name ('' is the default namespace) */
  readonly bindings = new Map<string, string>();
  private readonly byLength: string[];
  private readonly cache = new Map<string, string | null>();

  constructor(o: Ontology, g: OrderedGraph) {
    const used = new Set<string>();
    const declared = [...o.prefixes].sort((a, b) => (a[0] < b[0] ? -1 : 1));
    const swrl: [string, string][] = g.blocks.some((b) => b.p.some((p) => p.startsWith(SWRL))) ? [['swrl:', SWRL]] : [];
    for (const [k, ns] of [...declared, ...WELL_KNOWN, ...swrl]) {
      const name = k.endsWith(':') ? k.slice(0, -1) : k;
      if (ns.length === 0 || this.bindings.has(ns) || used.has(name) || name.toLowerCase().startsWith('xml')) continue;
      if (name !== '' && !isNCName(name)) continue;
      if (name === 'rdf' && ns !== RDF) continue;
      this.bindings.set(ns, name);
      used.add(name);
    }
    if (this.bindings.get(RDF) !== 'rdf') {
      this.bindings.set(RDF, 'rdf');
      used.add('rdf');
    }
    this.byLength = [...this.bindings.keys()].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
    // Invent prefixes, in namespace order, for every predicate or type no bound namespace covers.
    const missing = new Set<string>();
    const need = (iri: string) => {
      if (this.declared(iri) !== null) return;
      const at = ncNameSplit(iri);
      if (at >= 0) missing.add(iri.slice(0, at));
    };
    for (const block of g.blocks) {
      for (const p of block.p) need(p);
      if (block.p[0] === RDF_TYPE && typeof block.o[0] === 'string') need(block.o[0]);
    }
    let n = 0;
    for (const ns of [...missing].sort()) {
      let name: string;
      do name = 'ns' + ++n;
      while (used.has(name));
      this.bindings.set(ns, name);
    }
  }

  private declared(iri: string): string | null {
    for (const ns of this.byLength) {
      if (iri.startsWith(ns) && isNCName(iri.slice(ns.length))) {
        const name = this.bindings.get(ns)!;
        return name === '' ? iri.slice(ns.length) : name + ':' + iri.slice(ns.length);
      }
    }
    return null;
  }

  /** The qualified name of an IRI, or null when it does not end in an NCName. */
  qname(iri: string): string | null {
    let q = this.cache.get(iri);
    if (q === undefined) {
      q = this.declared(iri);
      if (q === null) {
        const at = ncNameSplit(iri);
        const name = at >= 0 ? this.bindings.get(iri.slice(0, at)) : undefined;
        if (name !== undefined) q = name === '' ? iri.slice(at) : name + ':' + iri.slice(at);
      }
      this.cache.set(iri, q);
    }
    return q;
  }
}

// ---------------------------------------------------------------- escaping

/** XML text and attribute escaping; controls XML 1.0 cannot carry are written as references (XML 1.1). */
class XmlEscaper {
  needsXml11 = false;

  text(s: string, attribute: boolean): string {
    let clean = true;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c === 0x26 || c === 0x3c || c === 0x3e || c === 0x22 || (c >= 0x7f && c <= 0x9f)) {
        clean = false;
        break;
      }
    }
    if (clean) return s;
    let out = '';
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 0x26) out += '&amp;';
      else if (c === 0x3c) out += '&lt;';
      else if (c === 0x3e) out += '&gt;';
      else if (c === 0x22) out += attribute ? '&quot;' : '"';
      else if (c === 0x0a) out += attribute ? '&#10;' : '\n';
      else if (c === 0x09) out += attribute ? '&#9;' : '\t';
      else if (c === 0x0d) out += '&#13;';
      else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
        if (c < 0x20) this.needsXml11 = true;
        out += '&#' + c + ';';
      } else out += s[i];
    }
    return out;
  }
}

// ---------------------------------------------------------------- the writer

class RdfXmlBody {
  readonly out: string[] = [];

  constructor(
    private readonly g: OrderedGraph,
    private readonly names: XmlNames,
    private readonly esc: XmlEscaper,
  ) {}

  private attr(s: string): string {
    return '"' + this.esc.text(s, true) + '"';
  }

  private qname(iri: string): string {
    const q = this.names.qname(iri);
    if (q === null) throw new Error(`RDF/XML cannot write the predicate <${iri}>: it does not end in an XML name`);
    return q;
  }

  topLevel(): void {
    for (const block of this.g.blocks) {
      const s = block.subject;
      if (s instanceof Blank && isNestable(this.g, s)) continue;
      const id =
        typeof s === 'string'
          ? ' rdf:about=' + this.attr(s)
          : !s.individual && !this.g.refs.has(s)
            ? ''
            : ' rdf:nodeID=' + this.attr(s.label);
      this.node(block, id, INDENT);
      this.out.push('\n');
    }
  }

  /** A node element: typed by its first rdf:type when that has a qualified name. */
  private node(block: SubjectBlock, idAttr: string, indent: string): void {
    let start = 0;
    let tag = 'rdf:Description';
    if (block.p[0] === RDF_TYPE && typeof block.o[0] === 'string') {
      const q = this.names.qname(block.o[0]);
      if (q !== null) {
        tag = q;
        start = 1;
      }
    }
    if (start === block.p.length) {
      this.out.push(indent + '<' + tag + idAttr + '/>\n');
      return;
    }
    this.out.push(indent + '<' + tag + idAttr + '>\n');
    for (const [i, p] of block.p.entries()) if (i >= start) this.property(p, block.o[i]!, indent + INDENT);
    this.out.push(indent + '</' + tag + '>\n');
  }

  private property(p: string, o: RdfObject, indent: string): void {
    const tag = this.qname(p);
    if (typeof o === 'string') {
      this.out.push(indent + '<' + tag + ' rdf:resource=' + this.attr(o) + '/>\n');
      return;
    }
    if (!(o instanceof Blank)) {
      this.out.push(indent + '<' + tag + this.literalAttrs(o) + '>' + this.esc.text(o.lex, false) + '</' + tag + '>\n');
      return;
    }
    if (!isNestable(this.g, o)) {
      this.out.push(indent + '<' + tag + ' rdf:nodeID=' + this.attr(o.label) + '/>\n');
      return;
    }
    const items = listItems(this.g, o);
    if (items !== null && items.length > 0 && items.every((x) => typeof x === 'string' || x instanceof Blank)) {
      this.out.push(indent + '<' + tag + ' rdf:parseType="Collection">\n');
      for (const item of items) this.resource(item, indent + INDENT);
      this.out.push(indent + '</' + tag + '>\n');
      return;
    }
    this.out.push(indent + '<' + tag + '>\n');
    this.resource(o, indent + INDENT);
    this.out.push(indent + '</' + tag + '>\n');
  }

  /** A resource written as a node element (a reference for IRIs and shared blank nodes). */
  private resource(r: RdfObject, indent: string): void {
    if (typeof r === 'string') {
      this.out.push(indent + '<rdf:Description rdf:about=' + this.attr(r) + '/>\n');
    } else if (r instanceof Blank) {
      const block = this.g.blockOf.get(r);
      if (!isNestable(this.g, r)) this.out.push(indent + '<rdf:Description rdf:nodeID=' + this.attr(r.label) + '/>\n');
      else if (block === undefined) this.out.push(indent + '<rdf:Description/>\n');
      else this.node(block, '', indent);
    }
  }

  private literalAttrs(l: Literal): string {
    if (l.lang) return ' xml:lang=' + this.attr(l.lang);
    return l.datatype === XSD_STRING ? '' : ' rdf:datatype=' + this.attr(l.datatype);
  }
}

export function writeRdfXml(o: Ontology): string {
  const g = orderGraph(owlToTriples(o));
  const names = new XmlNames(o, g);
  const esc = new XmlEscaper();
  const body = new RdfXmlBody(g, names, esc);
  body.topLevel();
  const xmlns = [...names.bindings]
    .sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
    .map(([ns, name]) => '\n' + INDENT + (name === '' ? 'xmlns' : 'xmlns:' + name) + '="' + esc.text(ns, true) + '"')
    .join('');
  const declaration = '<?xml version="' + (esc.needsXml11 ? '1.1' : '1.0') + '" encoding="UTF-8"?>\n';
  return declaration + '<rdf:RDF' + xmlns + '>\n\n' + body.out.join('') + '</rdf:RDF>\n';
}
