// The error every document parser throws for input it cannot read.

import type { FormatId } from '../ontology.js';
import { DomainError } from '../../util/errors.js';

/** The longest excerpt of the offending text an error quotes (a file's secret must not leak through it). */
export const MAX_EXCERPT = 40;

const clip = (text: string): string => (text.length > MAX_EXCERPT ? text.slice(0, MAX_EXCERPT) + '…' : text);

/**
 * A parser's message with every quoted passage and every long unbroken run of characters cut to
 * MAX_EXCERPT: parsers quote the offending line or token, and that text may be anything the file held.
 */
export function boundExcerpts(detail: string): string {
  const bounded = detail
    .replace(/"([^"\n]*)"|'([^'\n]*)'|`([^`\n]*)`/g, (m, a?: string, b?: string, c?: string) => {
      const inner = a ?? b ?? c ?? '';
      return inner.length > MAX_EXCERPT ? m[0] + clip(inner) + m[0] : m;
    })
    .replace(/[^\s"'`]{41,}/g, clip);
  const end = bounded.indexOf('\n');
  return end < 0 ? bounded : bounded.slice(0, end);
}

export class ParseError extends DomainError {
  readonly detail: string;
  constructor(
    readonly format: FormatId,
    detail: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    const bounded = boundExcerpts(detail);
    super(
      `${format}: ${line !== undefined ? `line ${line}${column !== undefined ? `, column ${column}` : ''}: ` : ''}${bounded}`,
      'parse_error',
    );
    this.detail = bounded;
    this.name = 'ParseError';
  }
}
