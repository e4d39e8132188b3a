// Turtle, TriG, N-Triples and N-Quads serializers of the OWL 2 RDF mapping (rdf/owl-to-triples.ts).
// Turtle groups triples by subject with ';' and ',', nests blank nodes used once as [ ... ] and writes
// RDF lists as ( ... ), abbreviating IRIs with the document's prefix map.

import { escapeLexical } from '../render/axiom-lines.js';
import type { Literal } from '../terms.js';
import type { Ontology } from '../ontology.js';
import { STANDARD_PREFIXES, XSD, XSD_STRING } from '../vocab.js';
import {
  Blank,
  isNestable,
  listItems,
  orderGraph,
  owlToTriples,
  RDF_TYPE,
  type OrderedGraph,
  type RdfObject,
  type RdfSubject,
  type SubjectBlock,
} from '../rdf/owl-to-triples.js';

const INDENT = '    ';
const XSD_INTEGER = XSD + 'integer';
const XSD_DECIMAL = XSD + 'decimal';
const XSD_BOOLEAN = XSD + 'boolean';

// ---------------------------------------------------------------- escaping

const hex4 = (c: number) => c.toString(16).toUpperCase().padStart(4, '0');

/** An IRI in angle brackets, with the characters IRIREF forbids written as \u escapes. */
export function iriRef(iri: string): string {
  let plain = true;
  for (let i = 0; i < iri.length; i++)
    if (needsIriEscape(iri.charCodeAt(i))) {
      plain = false;
      break;
    }
  if (plain) return '<' + iri + '>';
  let out = '<';
  for (let i = 0; i < iri.length; i++) {
    const c = iri.charCodeAt(i);
    out += needsIriEscape(c) ? '\\u' + hex4(c) : iri[i];
  }
  return out + '>';
}

function needsIriEscape(c: number): boolean {
  // <>"{}|^`\ and everything up to space
  return (
    c <= 0x20 || c === 0x3c || c === 0x3e || c === 0x22 || c === 0x7b || c === 0x7d || c === 0x7c || c === 0x5e || c === 0x60 || c === 0x5c
  );
}

/** A lexical form as a double-quoted string (ECHAR for the usual controls, UCHAR for the others). */
export function quoted(s: string): string {
  return '"' + escapeLexical(s) + '"';
}

// ---------------------------------------------------------------- names

const isAlpha = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** A conservative PN_LOCAL test: ASCII letters, digits, '_', and '-' or '.' inside (never first; '.' never last). */
function isSafeLocal(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isAlpha(c) || isDigit(c) || c === 0x5f) continue;
    if ((c === 0x2d || c === 0x2e) && i > 0 && !(c === 0x2e && i === s.length - 1)) continue;
    return false;
  }
  return true;
}

/** A conservative PN_PREFIX test (the name without its ':'; empty is the default prefix). */
function isSafePrefixName(s: string): boolean {
  if (s.length === 0) return true;
  if (!isAlpha(s.charCodeAt(0)) || s.charCodeAt(s.length - 1) === 0x2e) return false;
  for (let i = 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!(isAlpha(c) || isDigit(c) || c === 0x5f || c === 0x2d || c === 0x2e)) return false;
  }
  return true;
}

/** The prefixes a Turtle document declares: the ontology's usable ones plus the standard ones not yet bound. */
export function turtlePrefixes(o: Ontology): [name: string, ns: string][] {
  const out = new Map<string, string>();
  for (const [k, ns] of o.prefixes) {
    const name = k.endsWith(':') ? k.slice(0, -1) : k;
    if (isSafePrefixName(name) && ns.length > 0) out.set(name, ns);
  }
  const bound = new Set(out.values());
  for (const [k, ns] of STANDARD_PREFIXES) {
    const name = k.slice(0, -1);
    if (name !== 'xml' && !out.has(name) && !bound.has(ns)) out.set(name, ns);
  }
  return [...out].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** Writes IRIs as prefixed names where a declared namespace gives a safe local name. */
class TurtleNames {
  private readonly namespaces: [name: string, ns: string][];
  private readonly cache = new Map<string, string>();

  constructor(prefixes: [string, string][]) {
    // Longest namespace first, so the most specific prefix wins.
    this.namespaces = prefixes.slice().sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  }

  iri(iri: string): string {
    let s = this.cache.get(iri);
    if (s === undefined) {
      s = iriRef(iri);
      for (const [name, ns] of this.namespaces) {
        if (iri.startsWith(ns) && isSafeLocal(iri.slice(ns.length))) {
          s = name + ':' + iri.slice(ns.length);
          break;
        }
      }
      this.cache.set(iri, s);
    }
    return s;
  }

  literal(l: Literal): string {
    if (l.lang) return quoted(l.lex) + '@' + l.lang;
    if (l.datatype === XSD_STRING) return quoted(l.lex);
    if (l.datatype === XSD_INTEGER && isIntegerToken(l.lex)) return l.lex;
    if (l.datatype === XSD_DECIMAL && isDecimalToken(l.lex)) return l.lex;
    if (l.datatype === XSD_BOOLEAN && (l.lex === 'true' || l.lex === 'false')) return l.lex;
    return quoted(l.lex) + '^^' + this.iri(l.datatype);
  }
}

/** Turtle INTEGER token: [+-]?[0-9]+ */
function isIntegerToken(s: string): boolean {
  const start = s.charCodeAt(0) === 0x2b || s.charCodeAt(0) === 0x2d ? 1 : 0;
  if (s.length <= start) return false;
  for (let i = start; i < s.length; i++) if (!isDigit(s.charCodeAt(i))) return false;
  return true;
}

/** Turtle DECIMAL token: [+-]?[0-9]*\.[0-9]+ */
function isDecimalToken(s: string): boolean {
  const dot = s.indexOf('.');
  if (dot < 0 || dot === s.length - 1) return false;
  const start = s.charCodeAt(0) === 0x2b || s.charCodeAt(0) === 0x2d ? 1 : 0;
  for (let i = start; i < s.length; i++) if (i !== dot && !isDigit(s.charCodeAt(i))) return false;
  return true;
}

// ---------------------------------------------------------------- Turtle body

class TurtleBody {
  constructor(
    private readonly g: OrderedGraph,
    private readonly names: TurtleNames,
  ) {}

  /** Every top-level statement, each starting at `indent`. */
  statements(indent: string): string[] {
    const out: string[] = [];
    for (const block of this.g.blocks) {
      const s = block.subject;
      if (s instanceof Blank && isNestable(this.g, s)) continue;
      if (s instanceof Blank && !s.individual && !this.g.refs.has(s)) {
        out.push(indent + '[\n' + indent + INDENT + this.predicateObjects(block, indent + INDENT) + '\n' + indent + '] .\n');
      } else {
        out.push(indent + this.subject(s) + ' ' + this.predicateObjects(block, indent + INDENT) + ' .\n');
      }
    }
    return out;
  }

  private subject(s: RdfSubject): string {
    return typeof s === 'string' ? this.names.iri(s) : '_:' + s.label;
  }

  /** "p o1 , o2 ;\n<indent>q o3": the first line is not indented (the caller places it). */
  private predicateObjects(block: SubjectBlock, indent: string): string {
    let out = '';
    let previous: string | undefined;
    for (const [i, p] of block.p.entries()) {
      const o = this.object(block.o[i]!, indent);
      if (p === previous) out += ' , ' + o;
      else out += (previous !== undefined ? ' ;\n' + indent : '') + (p === RDF_TYPE ? 'a' : this.names.iri(p)) + ' ' + o;
      previous = p;
    }
    return out;
  }

  private object(o: RdfObject, indent: string): string {
    if (typeof o === 'string') return this.names.iri(o);
    if (!(o instanceof Blank)) return this.names.literal(o);
    if (!isNestable(this.g, o)) return '_:' + o.label;
    const items = listItems(this.g, o);
    if (items !== null) return '(' + items.map((x) => ' ' + this.object(x, indent)).join('') + ' )';
    const block = this.g.blockOf.get(o);
    if (block === undefined) return '[]';
    return '[\n' + indent + INDENT + this.predicateObjects(block, indent + INDENT) + '\n' + indent + ']';
  }
}

function prefixLines(prefixes: [string, string][]): string {
  return prefixes.map(([name, ns]) => '@prefix ' + name + ': ' + iriRef(ns) + ' .\n').join('');
}

export function writeTurtle(o: Ontology): string {
  const prefixes = turtlePrefixes(o);
  const body = new TurtleBody(orderGraph(owlToTriples(o)), new TurtleNames(prefixes));
  return prefixLines(prefixes) + '\n' + body.statements('').join('\n');
}

/** TriG: the Turtle body as the default graph, wrapped in { }. */
export function writeTriG(o: Ontology): string {
  const prefixes = turtlePrefixes(o);
  const body = new TurtleBody(orderGraph(owlToTriples(o)), new TurtleNames(prefixes));
  return prefixLines(prefixes) + '\n{\n' + body.statements(INDENT).join('\n') + '}\n';
}

// ---------------------------------------------------------------- N-Triples / N-Quads

function ntTerm(t: RdfObject): string {
  if (typeof t === 'string') return iriRef(t);
  if (t instanceof Blank) return '_:' + t.label;
  if (t.lang) return quoted(t.lex) + '@' + t.lang;
  return t.datatype === XSD_STRING ? quoted(t.lex) : quoted(t.lex) + '^^' + iriRef(t.datatype);
}

function ntLines(o: Ontology): string {
  const g = orderGraph(owlToTriples(o));
  const out: string[] = [];
  for (const block of g.blocks) {
    const s = ntTerm(block.subject) + ' ';
    for (const [i, p] of block.p.entries()) out.push(s + iriRef(p) + ' ' + ntTerm(block.o[i]!) + ' .\n');
  }
  return out.join('');
}

export function writeNTriples(o: Ontology): string {
  return ntLines(o);
}

/** N-Quads: every triple in the default graph (N-Triples lines are valid N-Quads). */
export function writeNQuads(o: Ontology): string {
  return ntLines(o);
}
