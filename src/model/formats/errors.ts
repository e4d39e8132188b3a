// The error every document parser throws for input it cannot read.

import type { FormatId } from '../ontology.js';

export class ParseError extends Error {
  constructor(
    readonly format: FormatId,
    readonly detail: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(`${format}: ${line !== undefined ? `line ${line}${column !== undefined ? `, column ${column}` : ''}: ` : ''}${detail}`);
    this.name = 'ParseError';
  }
}
