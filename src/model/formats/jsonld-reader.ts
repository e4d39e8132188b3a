// JSON-LD → Ontology, through jsonld.toRDF and the RDF → OWL mapping. No network: every remote context is refused.

import jsonld from 'jsonld';
import type * as RDF from '@rdfjs/types';
import type { Ontology } from '../ontology.js';
import { ParseError } from './errors.js';
import { TripleTable } from '../rdf/rdf-graph-reader.js';
import { triplesToOntology } from '../rdf/triples-to-owl.js';
import { stripBom } from './turtle-reader.js';
import type { ImportedKinds } from '../rdf/graph-typing.js';
import { jsonErrorPosition } from '../../util/json-error-position.js';
import { nestedDeeperThan } from '../../util/json-nesting.js';
import { MAX_JSON_LD_NESTING } from './nesting.js';

/** A document loader that refuses to load anything: Athene never fetches remote contexts. */
const refuseRemote = async (url: string): Promise<never> => {
  throw new Error(`remote JSON-LD context <${url}> refused: Athene does not load documents from the network`);
};

export async function readJsonLd(
  text: string,
  options: { base?: string | undefined; imported?: ImportedKinds | undefined } = {},
): Promise<Ontology> {
  if (nestedDeeperThan(text, MAX_JSON_LD_NESTING)) {
    throw new ParseError('jsonld', `JSON nested deeper than ${MAX_JSON_LD_NESTING} levels (the nesting limit of JSON-LD documents)`);
  }
  const doc = parseJson(stripBom(text));
  let quads: RDF.Quad[];
  try {
    const expanded = await jsonld.expand(doc as jsonld.JsonLdDocument, { base: options.base, documentLoader: refuseRemote as never });
    quads = (await jsonld.toRDF(shieldDoubles(expanded) as jsonld.JsonLdDocument, {
      documentLoader: refuseRemote as never,
    })) as unknown as RDF.Quad[];
  } catch (e) {
    throw new ParseError('jsonld', jsonLdMessage(e));
  }
  const table = new TripleTable();
  for (const q of quads) {
    const o = q.object;
    if (o.termType === 'Literal' && o.datatype.value === SHIELDED_DOUBLE) {
      table.addQuad({ ...q, object: { ...o, datatype: { termType: 'NamedNode', value: XSD_DOUBLE } } } as RDF.Quad);
    } else {
      table.addQuad(q);
    }
  }
  const ontology = triplesToOntology(table, null, options.imported ?? null);
  ontology.format = 'jsonld';
  for (const [k, v] of contextPrefixes(doc)) ontology.prefixes.set(k, v);
  return ontology;
}

const XSD_DOUBLE = 'http://www.w3.org/2001/XMLSchema#double';
const SHIELDED_DOUBLE = 'urn:athene:jsonld:xsd-double-lexical-form';

/**
 * jsonld.js rewrites the lexical form of every xsd:double value (toExponential(15)), which changes and can
 * round the literal. Typed string values are retyped to a private datatype for toRDF and back afterwards,
 * so the document's lexical form survives; native JSON numbers keep the JSON-LD canonical form.
 */
function shieldDoubles(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(shieldDoubles);
  if (node === null || typeof node !== 'object') return node;
  const obj = node as Record<string, unknown>;
  if (obj['@type'] === XSD_DOUBLE && typeof obj['@value'] === 'string') return { ...obj, '@type': SHIELDED_DOUBLE };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = k === '@value' ? v : shieldDoubles(v);
  return out;
}

/** JSON.parse with the line and column of a syntax error. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const at = jsonErrorPosition(text);
    if (at === null) throw new ParseError('jsonld', (e as Error).message);
    const found = at.offset < text.length ? `'${text[at.offset]}'` : 'the end of the document';
    throw new ParseError('jsonld', `expected ${at.expected}, found ${found}`, at.line, at.column);
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
