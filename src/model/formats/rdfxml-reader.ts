// RDF/XML → Ontology, through rdfxml-streaming-parser and the RDF → OWL mapping.

import type { Ontology } from '../ontology.js';
import { ParseError } from './errors.js';
import { TripleTable } from '../rdf/rdf-graph-reader.js';
import { triplesToOntology } from '../rdf/triples-to-owl.js';
import { ownString } from '../terms.js';
import { stripBom } from './turtle-reader.js';
import type { ImportedKinds } from '../rdf/graph-typing.js';
import { BoundedRdfXmlParser } from './rdfxml-parser.js';

export async function readRdfXml(
  text: string,
  options: { base?: string | undefined; imported?: ImportedKinds | undefined } = {},
): Promise<Ontology> {
  const doc = stripBom(text);
  const table = new TripleTable();
  await parseRdfXmlInto(doc, options.base, table);
  // Before the mapping, which releases the regexp engine's hold on the document text.
  const prefixes = rootNamespaces(doc);
  const ontology = triplesToOntology(table, null, options.imported ?? null);
  ontology.format = 'rdfxml';
  for (const [k, v] of prefixes) ontology.prefixes.set(ownString(k), ownString(v));
  return ontology;
}

/** Streams quads into the table; any parser error (a truncated document included) rejects the whole read. */
export function parseRdfXmlInto(text: string, base: string | undefined, table: TripleTable): Promise<void> {
  const parser = new CanonicalLiteralParser({ ...(base === undefined ? {} : { baseIRI: base }), trackPosition: true });
  parser.documentLength = text.length;
  return new Promise((resolve, reject) => {
    let failed = false;
    parser.on('data', (q) => table.addQuad(q));
    parser.on('error', (e: Error) => {
      if (!failed) reject(toParseError(e));
      failed = true;
    });
    parser.on('end', () => {
      if (failed) return;
      // The parser ends quietly on a truncated document; its open-element stack tells.
      const open = (parser as unknown as { activeTagStack: unknown[] }).activeTagStack.length;
      if (open > 0) reject(new ParseError('rdfxml', `unexpected end of document: ${open} element(s) not closed`, lineCount(text)));
      else resolve();
    });
    parser.write(text);
    parser.end();
  });
}

interface SaxAttribute {
  readonly name: string;
  readonly value: string;
  readonly prefix: string;
  readonly local: string;
  readonly uri: string;
}
interface SaxTag {
  readonly name: string;
  readonly prefix: string;
  readonly uri: string;
  readonly attributes: Record<string, SaxAttribute>;
}
/** The parser's frame for an element inside an rdf:parseType="Literal" value; `ns` holds the namespaces rendered above. */
interface LiteralFrame {
  childrenStringTags?: string[];
  childrenStringEmitClosingTag?: string;
  ns?: Map<string, string>;
}

/**
 * rdf:parseType="Literal" content as exclusive canonical XML (RDF 1.1 XML literals; Exclusive XML
 * Canonicalization 1.0): text and attribute values escaped, attributes sorted, and each element declaring
 * the namespaces it visibly uses that no rendered ancestor declares. The streaming parser hands the raw,
 * unescaped text, which is not even well-formed when it holds '&' or '<'.
 */
class CanonicalLiteralParser extends BoundedRdfXmlParser {
  override onTag(tag: SaxTag): void {
    const stack = (this as unknown as { activeTagStack: LiteralFrame[] }).activeTagStack;
    const parent = stack.at(-1);
    if (parent?.childrenStringTags === undefined) return super.onTag(tag as never);
    const above = parent.ns ?? new Map<string, string>();
    const ns = new Map(above);
    const decls: [string, string][] = [];
    const use = (prefix: string, uri: string) => {
      if (prefix === 'xml' || ns.get(prefix) === uri) return;
      ns.set(prefix, uri);
      decls.push([prefix, uri]);
    };
    use(tag.prefix, tag.uri);
    const attrs = Object.values(tag.attributes).filter((a) => a.prefix !== 'xmlns' && a.name !== 'xmlns');
    for (const a of attrs) if (a.prefix !== '') use(a.prefix, a.uri);
    decls.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    attrs.sort(
      (a, b) =>
        (a.prefix === '' ? '' : a.uri).localeCompare(b.prefix === '' ? '' : b.uri) || (a.local < b.local ? -1 : a.local > b.local ? 1 : 0),
    );
    let open = '<' + tag.name;
    for (const [prefix, uri] of decls) open += (prefix === '' ? ' xmlns' : ' xmlns:' + prefix) + '="' + escapeAttribute(uri) + '"';
    for (const a of attrs) open += ' ' + a.name + '="' + escapeAttribute(a.value) + '"';
    parent.childrenStringTags.push(open + '>');
    stack.push({ childrenStringTags: parent.childrenStringTags, childrenStringEmitClosingTag: '</' + tag.name + '>', ns });
  }

  override onText(text: string): void {
    const top = (this as unknown as { activeTagStack: LiteralFrame[] }).activeTagStack.at(-1);
    super.onText(top?.childrenStringTags === undefined ? text : escapeText(text));
  }
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#xD;');
const escapeAttribute = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#x9;')
    .replace(/\n/g, '&#xA;')
    .replace(/\r/g, '&#xD;');

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function toParseError(e: Error): ParseError {
  const m = /^(?:Line )?(\d+)(?::| column )(\d+):?\s*(.*)$/s.exec(e.message);
  if (m) return new ParseError('rdfxml', m[3]!, Number(m[1]), Number(m[2])); // (.*) is in every match
  return new ParseError('rdfxml', e.message);
}

/** Namespace declarations (xmlns, xmlns:p) of the document element, as prefixes; ':' is the default namespace. */
export function rootNamespaces(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let start = 0;
  // Skip the XML declaration, comments, processing instructions and the DOCTYPE before the root element.
  for (;;) {
    start = text.indexOf('<', start);
    if (start < 0) return out;
    const c = text[start + 1];
    if (c !== '?' && c !== '!') break;
    if (text.startsWith('<!--', start)) start = text.indexOf('-->', start) + 3;
    else if (text.startsWith('<!DOCTYPE', start)) start = skipDoctype(text, start);
    else start = text.indexOf('>', start) + 1;
    if (start <= 0) return out;
  }
  const end = text.indexOf('>', start);
  const tag = text.slice(start, end < 0 ? undefined : end);
  const attr = /xmlns(?::([\w.-]+))?\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  for (let m = attr.exec(tag); m !== null; m = attr.exec(tag)) out.set((m[1] ?? '') + ':', decodeEntities(m[2] ?? m[3]!, text));
  return out;
}

function skipDoctype(text: string, start: number): number {
  const subset = text.indexOf('[', start),
    close = text.indexOf('>', start);
  if (subset >= 0 && subset < close) return text.indexOf(']>', subset) + 2;
  return close + 1;
}

/** Resolves &entity; references declared in the DOCTYPE (common in OWL files) and the XML built-ins. */
function decodeEntities(value: string, text: string): string {
  return value.replace(/&([\w.-]+);/g, (all, name: string) => {
    const builtIn: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    const known = builtIn[name];
    if (known !== undefined) return known;
    return new RegExp('<!ENTITY\\s+' + name.replace(/[.-]/g, '\\$&') + '\\s+["\']([^"\']*)["\']').exec(text)?.[1] ?? all;
  });
}
