// Raw RDF for the validation thread: a shapes document in any supported serialization, or a data document in
// N-Triples, parsed to RDF/JS quads (not through the OWL mapping: a shapes graph is not an ontology, and
// SHACL validates the RDF as written). Blank nodes are relabelled per document in order of first
// appearance (`<scope><n>`), so the same text always yields the same labels and documents never share one.
// Nothing is fetched: remote JSON-LD contexts are refused.

import { DataFactory, Parser } from 'n3';
import { BoundedRdfXmlParser } from '../model/formats/rdfxml-parser.js';
import jsonld from 'jsonld';
import type * as RDF from '@rdfjs/types';
import { jsonErrorPosition } from '../util/json-error-position.js';
import type { ShapesFormat } from './protocol.js';
import { unreachable } from '../util/unreachable.js';

/** A document that does not parse, with where. */
export class RdfSyntaxError extends Error {
  constructor(
    readonly detail: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(`${line === undefined ? '' : `line ${line}${column === undefined ? '' : `, column ${column}`}: `}${detail}`);
    this.name = 'RdfSyntaxError';
  }
}

/** A data factory whose blank nodes are numbered per document in order of first appearance. */
export function scopedFactory(scope: string): RDF.DataFactory {
  const labels = new Map<string, RDF.BlankNode>();
  let next = 0;
  const fresh = (): RDF.BlankNode => DataFactory.blankNode(`${scope}${next++}`);
  return {
    ...DataFactory,
    blankNode: (name?: string): RDF.BlankNode => {
      if (name === undefined) return fresh();
      let b = labels.get(name);
      if (b === undefined) labels.set(name, (b = fresh()));
      return b;
    },
  } as RDF.DataFactory;
}

const N3_FORMATS: Readonly<Partial<Record<ShapesFormat, string>>> = {
  turtle: 'Turtle',
  ntriples: 'N-Triples',
  nquads: 'N-Quads',
  trig: 'TriG',
};

function parseN3(text: string, format: string, base: string | undefined, factory: RDF.DataFactory): RDF.Quad[] {
  // A fixed label prefix: n3 would otherwise number documents globally, and the factory renumbers anyway.
  const parser = new Parser({ format, baseIRI: base, blankNodePrefix: '_:b', factory: factory as never });
  try {
    return parser.parse(text) as unknown as RDF.Quad[];
  } catch (e) {
    const err = e as Error & { context?: { line?: number } };
    throw new RdfSyntaxError(err.message.replace(/ on line \d+\.?$/, ''), err.context?.line);
  }
}

function parseRdfXml(text: string, base: string | undefined, factory: RDF.DataFactory): Promise<RDF.Quad[]> {
  const parser = new BoundedRdfXmlParser({ ...(base === undefined ? {} : { baseIRI: base }), dataFactory: factory, trackPosition: true });
  parser.documentLength = text.length;
  const quads: RDF.Quad[] = [];
  return new Promise((resolve, reject) => {
    let failed = false;
    parser.on('data', (q: RDF.Quad) => quads.push(q));
    parser.on('error', (e: Error) => {
      if (failed) return;
      failed = true;
      const m = /^(?:Line )?(\d+)(?::| column )(\d+):?\s*(.*)$/s.exec(e.message);
      // the pattern's groups always take part in a match
      reject(m === null ? new RdfSyntaxError(e.message) : new RdfSyntaxError(m[3]!, Number(m[1]), Number(m[2])));
    });
    parser.on('end', () => {
      if (failed) return;
      const open = (parser as unknown as { activeTagStack: unknown[] }).activeTagStack.length;
      if (open > 0) reject(new RdfSyntaxError(`unexpected end of document: ${open} element(s) not closed`));
      else resolve(quads);
    });
    parser.write(text);
    parser.end();
  });
}

const refuseRemote = async (url: string): Promise<never> => {
  throw new Error(`remote JSON-LD context <${url}> refused: Athene does not load documents from the network`);
};

function term<T extends RDF.Term>(t: RDF.Term, factory: RDF.DataFactory): T {
  switch (t.termType) {
    case 'NamedNode':
      return factory.namedNode(t.value) as T;
    case 'BlankNode':
      return factory.blankNode(t.value) as T;
    case 'Literal':
      return factory.literal(t.value, t.language !== '' ? t.language : factory.namedNode(t.datatype.value)) as T;
    case 'Variable':
    case 'DefaultGraph':
    case 'Quad':
      return factory.defaultGraph() as T;
    default:
      return unreachable(t);
  }
}

async function parseJsonLd(text: string, base: string | undefined, factory: RDF.DataFactory): Promise<RDF.Quad[]> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    const at = jsonErrorPosition(text);
    throw at === null ? new RdfSyntaxError((e as Error).message) : new RdfSyntaxError(`expected ${at.expected}`, at.line, at.column);
  }
  let raw: RDF.Quad[];
  try {
    raw = (await jsonld.toRDF(doc as jsonld.JsonLdDocument, { base, documentLoader: refuseRemote as never })) as unknown as RDF.Quad[];
  } catch (e) {
    const err = e as { message?: string; details?: { cause?: { message?: string } } };
    throw new RdfSyntaxError(
      (err.message ?? String(e)) + (err.details?.cause?.message === undefined ? '' : ': ' + err.details.cause.message),
    );
  }
  return raw.map((q) =>
    factory.quad(
      term<RDF.Quad_Subject>(q.subject, factory),
      term<RDF.Quad_Predicate>(q.predicate, factory),
      term<RDF.Quad_Object>(q.object, factory),
      term<RDF.Quad_Graph>(q.graph, factory),
    ),
  );
}

/** The quads of one document; blank nodes labelled `<scope><n>`. Throws RdfSyntaxError. */
export async function parseRdf(text: string, format: ShapesFormat, base: string | undefined, scope: string): Promise<RDF.Quad[]> {
  const factory = scopedFactory(scope);
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const n3 = N3_FORMATS[format];
  if (n3 !== undefined) return parseN3(body, n3, base, factory);
  if (format === 'rdfxml') return parseRdfXml(body, base, factory);
  return parseJsonLd(body, base, factory);
}
