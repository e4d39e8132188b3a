// What counts as an absolute IRI where Athene checks one (arguments, policies, locks, mapping cells): a
// scheme (RFC 3987), a colon, then none of the characters an IRI may not contain.

export const ABSOLUTE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|\\^`]*$/;

export function isAbsoluteIri(s: string): boolean {
  return ABSOLUTE_IRI.test(s);
}
