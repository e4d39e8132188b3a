// What the SHACL engine (on the window actor) and its validation thread exchange (the thread exposes
// `HeldDataApi<ValidationRequest, readonly ShaclResult[]>` and throws ShaclFailure when it produces no
// results), and the result row every SHACL surface reports (shacl_validate, the QC stage `shacl`).

/** A serialization a shapes graph may come in (a shapes file's format comes from its extension). */
export type ShapesFormat = 'turtle' | 'ntriples' | 'nquads' | 'trig' | 'jsonld' | 'rdfxml';

/** One shapes document: the union of every document given is the shapes graph (all named graphs included). */
export interface ShapesDocument {
  readonly text: string;
  readonly format: ShapesFormat;
  /** Where it came from (the argument name or the absolute file path), for error messages. */
  readonly origin: string;
  /** Base IRI for relative IRIs (a file's `file:` URL). */
  readonly base?: string;
}

/** The three SHACL severities by their local names; a non-standard severity IRI is reported as itself. */
export type ShaclSeverity = 'Violation' | 'Warning' | 'Info';

/**
 * One validation result (TOOLS.md shacl_validate). Terms are written as text: an IRI as itself, a blank node
 * as `_:label` (stable for unchanged input), a literal in N-Triples syntax (`"v"`, `"v"@en`, `"v"^^<dt>`).
 */
export interface ShaclResult {
  readonly focus_node: string;
  /** The path in SPARQL property-path syntax (`<p>`, `^<p>`, `<p>/<q>`, `(<p>|<q>)*`), null for a node shape. */
  readonly result_path: string | null;
  readonly value: string | null;
  readonly severity: ShaclSeverity | string;
  readonly constraint_component: string;
  readonly source_shape: string;
  readonly message: string;
}

export interface ValidationRequest {
  /** Names the data graph; `documents` is present when the thread must (re)load it. */
  readonly dataKey: string;
  /** N-Triples documents, one per imports-closure member (plus the inferred one); blank nodes stay distinct per document. */
  readonly documents?: readonly string[];
  readonly shapes: readonly ShapesDocument[];
  /** Preferred language of result messages. */
  readonly language: string;
}

/** Why a validation did not produce results. */
export type FailureReason = 'shapes' | 'data' | 'engine' | 'timeout' | 'cancelled';

export class ShaclFailure extends Error {
  constructor(
    message: string,
    readonly reason: FailureReason,
  ) {
    super(message);
    this.name = 'ShaclFailure';
  }
}
