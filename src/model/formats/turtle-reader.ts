// Turtle, N-Triples, N-Quads and TriG → Ontology, through n3's streaming parser and the RDF → OWL mapping.

import { Parser } from 'n3';
import type { Ontology } from '../ontology.js';
import { ParseError } from './errors.js';
import { TripleTable } from '../rdf/rdf-graph-reader.js';
import { triplesToOntology } from '../rdf/triples-to-owl.js';

export type TurtleSyntax = 'turtle' | 'ntriples' | 'nquads' | 'trig';

const N3_FORMAT: Record<TurtleSyntax, string> = {
  turtle: 'text/turtle', ntriples: 'application/n-triples', nquads: 'application/n-quads', trig: 'application/trig',
};

export async function readTurtle(text: string, options: { base?: string; syntax?: TurtleSyntax } = {}): Promise<Ontology> {
  const syntax = options.syntax ?? 'turtle';
  const table = new TripleTable();
  const prefixes = new Map<string, string>();
  await parseInto(stripBom(text), syntax, options.base, table, prefixes);
  const ontology = triplesToOntology(table);
  ontology.format = syntax;
  for (const [k, v] of prefixes) ontology.prefixes.set(k, v);
  return ontology;
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

type Token = { type: string };
type Reader = (token: Token) => Reader;
interface ParserInternals {
  _readBlankNodePunctuation(token: Token): Reader;
  _readBlankNodeTail(token: Token): Reader;
  _readPredicate(token: Token): Reader;
  _emitCurrent(s: unknown, p: unknown, o: unknown, g: unknown): void;
  _subject: unknown; _predicate: unknown; _object: unknown; _graph: unknown;
}

/**
 * n3's parser, tolerant like the OWL API of a '.' inside a blank-node property list (`[ :p :o . ]`,
 * found in published ontologies): it ends the list when ']' follows and acts as ';' otherwise.
 */
class LaxParser extends Parser {
  constructor(options: ConstructorParameters<typeof Parser>[0]) {
    super(options);
    const self = this as unknown as ParserInternals;
    const strict = self._readBlankNodePunctuation;
    self._readBlankNodePunctuation = function (this: ParserInternals, token: Token): Reader {
      if (token.type !== '.') return strict.call(this, token);
      return (next: Token) => {
        if (next.type === ']') return this._readBlankNodeTail(next);
        this._emitCurrent(this._subject, this._predicate, this._object, this._graph);
        return this._readPredicate(next);
      };
    };
  }
}

/** Streams each quad into the table as n3 produces it; resolves when the document has ended. */
function parseInto(text: string, syntax: TurtleSyntax, base: string | undefined, table: TripleTable, prefixes: Map<string, string>): Promise<void> {
  const parser = new LaxParser({ format: N3_FORMAT[syntax], baseIRI: base });
  return new Promise((resolve, reject) => {
    parser.parse(
      text,
      (err, quad) => {
        if (err) reject(toParseError(syntax, err));
        else if (quad) table.addQuad(quad);
        else resolve();
      },
      (prefix, iri) => {
        prefixes.set(prefix + ':', iri.value);
      },
    );
  });
}

function toParseError(syntax: TurtleSyntax, err: Error): ParseError {
  const line = (err as { context?: { line?: number } }).context?.line;
  const detail = err.message.replace(/ on line \d+\.$/, '');
  return new ParseError(syntax, detail, typeof line === 'number' ? line : undefined);
}
