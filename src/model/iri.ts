// What counts as an absolute IRI where Athene checks one (arguments, policies, locks, mapping cells): a
// scheme (RFC 3987), a colon, then none of the characters an IRI may not contain.

import { DomainError } from '../util/errors.js';

export const ABSOLUTE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|\\^`]*$/;

export function isAbsoluteIri(s: string): boolean {
  return ABSOLUTE_IRI.test(s);
}

/** An absolute IRI argument, `<…>` brackets allowed. */
export function absoluteIri(value: string, argument: string): string {
  const s = value.trim();
  const iri = s.startsWith('<') && s.endsWith('>') ? s.slice(1, -1).trim() : s;
  if (!ABSOLUTE_IRI.test(iri))
    throw new DomainError(`${argument} must be an absolute IRI (got ${JSON.stringify(value)})`, 'invalid_argument');
  return iri;
}
