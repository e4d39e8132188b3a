// JSON-LD → Ontology, through jsonld.toRDF and the RDF → OWL mapping. No network: every remote context is refused.

import jsonld from 'jsonld';
import type * as RDF from '@rdfjs/types';
import type { Ontology } from '../ontology.js';
import { ParseError } from './errors.js';
import { TripleTable } from '../rdf/rdf-graph-reader.js';
import { triplesToOntology } from '../rdf/triples-to-owl.js';
import { stripBom } from './turtle-reader.js';

/** A document loader that refuses to load anything: Athene never fetches remote contexts. */
const refuseRemote = async (url: string): Promise<never> => {
  throw new Error(`remote JSON-LD context <${url}> refused: Athene does not load documents from the network`);
};

export async function readJsonLd(text: string, options: { base?: string } = {}): Promise<Ontology> {
  const doc = parseJson(stripBom(text));
  let quads: RDF.Quad[];
  try {
    quads = (await jsonld.toRDF(doc as jsonld.JsonLdDocument, {
      base: options.base,
      documentLoader: refuseRemote as never,
    })) as unknown as RDF.Quad[];
  } catch (e) {
    throw new ParseError('jsonld', jsonLdMessage(e));
  }
  const table = new TripleTable();
  for (const q of quads) table.addQuad(q);
  const ontology = triplesToOntology(table);
  ontology.format = 'jsonld';
  for (const [k, v] of contextPrefixes(doc)) ontology.prefixes.set(k, v);
  return ontology;
}

/** JSON.parse with the line and column of a syntax error. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    const pos = /position (\d+)/.exec(msg);
    if (!pos) throw new ParseError('jsonld', msg);
    const offset = Number(pos[1]);
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    throw new ParseError('jsonld', msg.replace(/ in JSON at position \d+.*$/s, ''), line, offset - before.lastIndexOf('\n'));
  }
}

function jsonLdMessage(e: unknown): string {
  const err = e as { message?: string; details?: { cause?: { message?: string } } };
  const cause = err.details?.cause?.message;
  return (err.message ?? String(e)) + (cause ? ': ' + cause : '');
}

/** Prefix-like terms of the top-level @context: string values ending in '/' or '#' (and '@vocab' as ':'). */
function contextPrefixes(doc: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const first = Array.isArray(doc) ? doc[0] : doc;
  const ctx = first && typeof first === 'object' ? (first as Record<string, unknown>)['@context'] : undefined;
  for (const c of Array.isArray(ctx) ? ctx : [ctx]) {
    if (!c || typeof c !== 'object') continue;
    for (const [k, v] of Object.entries(c as Record<string, unknown>)) {
      if (typeof v !== 'string' || !/[/#]$/.test(v)) continue;
      if (k === '@vocab') out.set(':', v);
      else if (!k.startsWith('@')) out.set(k + ':', v);
    }
  }
  return out;
}
