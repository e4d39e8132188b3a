// CURIE expansion for policy fields: the policy's own `prefixes` first, then the well-known vocabularies
// policies name most (so `rdfs:label` or `oboInOwl:hasExactSynonym` work without a prefixes block). A value
// whose prefix is neither is read as a full IRI only when its scheme is a real IRI scheme.

import { WELL_KNOWN_PREFIXES } from '../model/vocab.js';

export { WELL_KNOWN_PREFIXES };

const IRI_SCHEMES = new Set(['http', 'https', 'urn', 'file', 'tag', 'mailto', 'info', 'ftp']);

/** The full IRI a policy term names, or null when its prefix is unknown. */
export function expandTerm(value: string, prefixes: Readonly<Record<string, string>>): string | null {
  const colon = value.indexOf(':');
  if (colon < 0) return null;
  const prefix = value.slice(0, colon);
  const local = value.slice(colon + 1);
  const ns = Object.hasOwn(prefixes, prefix)
    ? prefixes[prefix]
    : Object.hasOwn(WELL_KNOWN_PREFIXES, prefix)
      ? WELL_KNOWN_PREFIXES[prefix]
      : undefined;
  if (ns !== undefined && !local.startsWith('//')) return ns + local;
  return IRI_SCHEMES.has(prefix.toLowerCase()) ? value : null;
}
