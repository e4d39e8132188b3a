// RDF/XML → Ontology, through rdfxml-streaming-parser and the RDF → OWL mapping.

import { RdfXmlParser } from 'rdfxml-streaming-parser';
import type { Ontology } from '../ontology.js';
import { ParseError } from './errors.js';
import { TripleTable } from '../rdf/rdf-graph-reader.js';
import { triplesToOntology } from '../rdf/triples-to-owl.js';
import { ownString } from '../terms.js';
import { stripBom } from './turtle-reader.js';

export async function readRdfXml(text: string, options: { base?: string } = {}): Promise<Ontology> {
  const doc = stripBom(text);
  const table = new TripleTable();
  await parseRdfXmlInto(doc, options.base, table);
  // Before the mapping, which releases the regexp engine's hold on the document text.
  const prefixes = rootNamespaces(doc);
  const ontology = triplesToOntology(table);
  ontology.format = 'rdfxml';
  for (const [k, v] of prefixes) ontology.prefixes.set(ownString(k), ownString(v));
  return ontology;
}

/** Streams quads into the table; any parser error (a truncated document included) rejects the whole read. */
export function parseRdfXmlInto(text: string, base: string | undefined, table: TripleTable): Promise<void> {
  const parser = new RdfXmlParser({ baseIRI: base, trackPosition: true });
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

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function toParseError(e: Error): ParseError {
  const m = /^(?:Line )?(\d+)(?::| column )(\d+):?\s*(.*)$/s.exec(e.message);
  if (m) return new ParseError('rdfxml', m[3], Number(m[1]), Number(m[2]));
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
  for (let m = attr.exec(tag); m !== null; m = attr.exec(tag)) out.set((m[1] ?? '') + ':', decodeEntities(m[2] ?? m[3], text));
  return out;
}

function skipDoctype(text: string, start: number): number {
  const subset = text.indexOf('[', start), close = text.indexOf('>', start);
  if (subset >= 0 && subset < close) return text.indexOf(']>', subset) + 2;
  return close + 1;
}

/** Resolves &entity; references declared in the DOCTYPE (common in OWL files) and the XML built-ins. */
function decodeEntities(value: string, text: string): string {
  return value.replace(/&([\w.-]+);/g, (all, name: string) => {
    const builtIn: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (name in builtIn) return builtIn[name];
    const decl = new RegExp('<!ENTITY\\s+' + name.replace(/[.-]/g, '\\$&') + '\\s+["\']([^"\']*)["\']').exec(text);
    return decl ? decl[1] : all;
  });
}
