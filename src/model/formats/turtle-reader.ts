// Turtle, N-Triples, N-Quads and TriG → Ontology, through n3 and the RDF → OWL mapping. Turtle and
// N-Triples take the character-level scanner (turtle-scanner.ts) and fall back to n3's Parser for the rest.

import { Parser } from './n3-parser.js';
import type { Ontology } from '../ontology.js';
import { ParseError } from './errors.js';
import { TripleTable, termText } from '../rdf/rdf-graph-reader.js';
import { XSD_STRING } from '../vocab.js';
import { ownString } from '../terms.js';
import { triplesToOntology } from '../rdf/triples-to-owl.js';
import { scanTurtle } from './turtle-scanner.js';
import { scanTurtleOnThread } from './turtle-scan-thread.js';
import type { ImportedKinds } from '../rdf/graph-typing.js';

export type TurtleSyntax = 'turtle' | 'ntriples' | 'nquads' | 'trig';

const N3_FORMAT: Record<TurtleSyntax, string> = {
  turtle: 'text/turtle',
  ntriples: 'application/n-triples',
  nquads: 'application/n-quads',
  trig: 'application/trig',
};

/**
 * Documents at least this long (in UTF-16 units) are scanned on a second thread while this one interns
 * their literals; below it, starting the hand-over costs more than it saves.
 */
const SCAN_THREAD_MIN_LENGTH = 4 << 20;

export interface ReadTurtleOptions {
  readonly base?: string | undefined;
  readonly syntax?: TurtleSyntax;
  /** Overrides SCAN_THREAD_MIN_LENGTH (tests read small documents both ways). */
  readonly scanThreadMinLength?: number;
  /** The entity kinds the document's loaded imports closure declares. */
  readonly imported?: ImportedKinds | undefined;
}

export async function readTurtle(text: string, options: ReadTurtleOptions = {}): Promise<Ontology> {
  const syntax = options.syntax ?? 'turtle';
  const source = stripBom(text);
  const scannable = syntax === 'turtle' || syntax === 'ntriples';
  const outcome =
    scannable && source.length >= (options.scanThreadMinLength ?? SCAN_THREAD_MIN_LENGTH)
      ? await scanTurtleOnThread(source, syntax, options.base)
      : null;
  const scanned = outcome === 'parser' ? null : outcome;
  let table = scanned?.table ?? new TripleTable();
  let prefixes = scanned?.prefixes ?? new Map<string, string>();
  // A document the scanner left to n3 on the other thread is not scanned again here.
  const lean = scanned !== null || (scannable && outcome !== 'parser' && scanTurtle(source, syntax, options.base, table, prefixes));
  if (!lean) {
    table = new TripleTable();
    prefixes = new Map();
    await parseInto(source, syntax, options.base, table, prefixes);
  }
  const ontology = triplesToOntology(table, scanned?.early ?? null, options.imported ?? null);
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
  _subject: unknown;
  _predicate: unknown;
  _object: unknown;
  _graph: unknown;
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

/**
 * An RDF/JS data factory for n3 that writes straight into the triple table: each IRI and blank node becomes
 * its table id once (the term object is cached per id), and `quad` records the ids instead of building a
 * Quad. n3 passes what `quad` returns to the callback, or (for RDF 1.2 triple terms) uses it as a term; so
 * `quad` only stages the triple and returns a marker, and the callback commits the staged triple when it
 * receives the marker. Named-graph quads and triple terms are recorded as unmapped.
 */
class TableFactory {
  private readonly terms: (FactoryTerm | undefined)[] = [];
  private readonly graph = new FactoryTerm('DefaultGraph', '', -1);
  private staged = false;
  private ss = 0;
  private sp = 0;
  private so = 0;
  private blanks = 0;

  constructor(private readonly table: TripleTable) {}

  private node(termType: string, value: string, id: number): FactoryTerm {
    return this.terms[id] ?? (this.terms[id] = new FactoryTerm(termType, value, id));
  }

  namedNode = (iri: string): FactoryTerm => this.node('NamedNode', iri, this.table.iri(iri));
  blankNode = (name?: string): FactoryTerm => {
    const label = name ?? 'n3_' + this.blanks++;
    return this.node('BlankNode', label, this.table.blank(label));
  };
  literal = (value: string, languageOrDatatype?: string | FactoryTerm | { language: string }): FactoryTerm => {
    let lang = '',
      dt = XSD_STRING;
    if (typeof languageOrDatatype === 'string') lang = languageOrDatatype;
    else if (languageOrDatatype instanceof FactoryTerm) dt = languageOrDatatype.value;
    else if (languageOrDatatype !== undefined) lang = languageOrDatatype.language;
    return new FactoryTerm('Literal', value, this.table.literal(value, dt, lang));
  };
  variable = (name: string): FactoryTerm => new FactoryTerm('Variable', name, -1);
  defaultGraph = (): FactoryTerm => this.graph;
  quad = (s: FactoryTerm, p: FactoryTerm, o: FactoryTerm | object, g: FactoryTerm): object => {
    this.staged = false;
    if (!(o instanceof FactoryTerm) || o.id < 0 || s.id < 0 || p.termType !== 'NamedNode') {
      this.table.unmapped.push({ text: this.text(s, p, o, g), reason: 'triple term or generalised RDF triple' });
    } else if (g !== this.graph) {
      this.table.unmapped.push({ text: this.text(s, p, o, g), reason: 'quad in a named graph; only the default graph is the ontology' });
    } else {
      this.staged = true;
      this.ss = s.id;
      this.sp = p.id;
      this.so = o.id;
    }
    return STAGED;
  };

  /** Commits the staged triple when n3 emits it. */
  commit(quad: object): void {
    if (quad === STAGED && this.staged) this.table.add(this.ss, this.sp, this.so);
    this.staged = false;
  }

  private text(s: FactoryTerm, p: FactoryTerm, o: FactoryTerm | object, g: FactoryTerm): string {
    const graph = g === this.graph ? '' : ' ' + this.termValue(g);
    return ownString(this.termValue(s) + ' ' + this.termValue(p) + ' ' + this.termValue(o) + graph + ' .');
  }

  private termValue(t: FactoryTerm | object): string {
    if (!(t instanceof FactoryTerm)) return '<< triple term >>';
    if (t.id >= 0) return termText(this.table.terms[t.id]!); // a term with an id is in the table
    return t.termType === 'Variable' ? '?' + t.value : '<' + t.value + '>';
  }
}

const STAGED = Object.freeze({});

/** The few members n3 reads from a term: termType, value and (in error messages) id. */
class FactoryTerm {
  constructor(
    readonly termType: string,
    readonly value: string,
    readonly id: number,
  ) {}
  equals(other: unknown): boolean {
    return other instanceof FactoryTerm && other.termType === this.termType && other.value === this.value;
  }
}

/** Streams each triple into the table as n3's Parser produces it; resolves when the document has ended. */
export function parseInto(
  text: string,
  syntax: TurtleSyntax,
  base: string | undefined,
  table: TripleTable,
  prefixes: Map<string, string>,
): Promise<void> {
  const factory = new TableFactory(table);
  const parser = new LaxParser({ format: N3_FORMAT[syntax], baseIRI: base, factory: factory as never });
  return new Promise((resolve, reject) => {
    parser.parse(
      text,
      (err, quad) => {
        if (err) reject(toParseError(syntax, err));
        else if (quad) factory.commit(quad);
        else resolve();
      },
      (prefix, iri) => {
        prefixes.set(ownString(prefix + ':'), ownString(iri.value));
      },
    );
  });
}

function toParseError(syntax: TurtleSyntax, err: Error): ParseError {
  const line = (err as { context?: { line?: number } }).context?.line;
  const detail = err.message.replace(/ on line \d+\.$/, '');
  return new ParseError(syntax, detail, typeof line === 'number' ? line : undefined);
}
