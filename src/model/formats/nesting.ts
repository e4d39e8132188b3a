// One bound on how deeply expressions nest, for every reader and expression parser: each walk of the model
// (rendering, hashing, reasoning, writing) recurses over an expression, so deeper input would overflow the
// stack somewhere far from where it came in. Real ontologies stay far below.

/** How many levels an expression (or a document construct) may nest. */
export const MAX_EXPRESSION_NESTING = 500;

/**
 * How deeply a JSON-LD document's JSON may nest: jsonld expands it by deep async recursion, which
 * overflows the stack near a thousand levels.
 */
export const MAX_JSON_LD_NESTING = 200;

/** The error detail naming the limit. */
export const nestingLimitDetail = (what: string): string =>
  `${what} nested deeper than ${MAX_EXPRESSION_NESTING} levels (the nesting limit)`;

/** A document whose structure nests past the limit (the RDF mapping's blank-node expressions). */
export class NestingLimitError extends Error {
  constructor(what: string) {
    super(nestingLimitDetail(what));
    this.name = 'NestingLimitError';
  }
}
