// What the SPARQL engine (on the window actor) and its evaluation thread exchange: the thread exposes
// `HeldDataApi<EvaluationRequest, EvaluationResult>` and throws SparqlFailure for a refused query.

export class SparqlFailure extends Error {
  constructor(
    message: string,
    readonly reason: 'syntax' | 'evaluation' | 'timeout' | 'cancelled',
  ) {
    super(message);
    this.name = 'SparqlFailure';
  }
}

/** An RDF term in a result row (TOOLS.md 3.9): `datatype` omitted for xsd:string and language-tagged literals. */
export type ResultTerm =
  | { readonly type: 'uri' | 'bnode'; readonly value: string }
  | { readonly type: 'literal'; readonly value: string; readonly lang?: string; readonly datatype?: string };

export type ResultRow = Readonly<Record<string, ResultTerm>>;

export type EvaluationResult =
  | { readonly kind: 'select'; readonly vars: readonly string[]; readonly total: number; readonly rows: readonly ResultRow[] }
  | { readonly kind: 'ask'; readonly boolean: boolean }
  | { readonly kind: 'graph'; readonly total: number; readonly lines: readonly string[] };

export interface EvaluationRequest {
  /** Identifies the snapshot the query runs over; `documents` is present when the thread must (re)load it. */
  readonly snapshotKey: string;
  /** N-Triples documents, one per imports-closure member (blank nodes stay distinct per document). */
  readonly documents?: readonly string[];
  readonly query: string;
  /** The form the lexical scan found; decides the result serialization asked of the engine (UPDATE: parse only). */
  readonly form: 'SELECT' | 'ASK' | 'CONSTRUCT' | 'DESCRIBE' | 'UPDATE';
  /** At most this many rows or triples are returned (graph results are sorted before the cut). */
  readonly limit: number;
  /** Only parse (against an empty store; an UPDATE against a fresh throwaway one) and report the projected variables. */
  readonly parseOnly?: boolean;
}
