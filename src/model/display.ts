// Display names: what the tools show for an entity. The rdfs:label in the preferred language, else an
// untagged label, else the IRI's short form (a CURIE through the prefix map, else the local name).

import type { Entity, IRI } from './terms.js';
import type { Ontology, PrefixMap } from './ontology.js';
import { RDFS_LABEL, RDF_LANG_STRING, STANDARD_PREFIXES } from './vocab.js';

/** The local name of an IRI: the part after the last '#', else after the last '/', else after the last ':'. */
export function localName(iri: IRI): string {
  let cut = iri.lastIndexOf('#');
  if (cut < 0) cut = iri.lastIndexOf('/');
  if (cut < 0) cut = iri.lastIndexOf(':');
  const local = iri.slice(cut + 1);
  return local === '' ? iri : local;
}

/** True for a local part that reads back unambiguously as the right-hand side of a CURIE. */
function isCurieLocal(local: string): boolean {
  for (let i = 0; i < local.length; i++) {
    const c = local.charCodeAt(i);
    // whitespace, '/', '#', '<', '>', '"', '?' and '\' would not survive being read back as a name
    if (c <= 0x20 || c === 0x2f || c === 0x23 || c === 0x3c || c === 0x3e || c === 0x22 || c === 0x3f || c === 0x5c) return false;
  }
  return true;
}

/**
 * The short form of an IRI: `prefix:local` for the longest matching namespace of the prefix map (the
 * standard prefixes included), else its local name. The default prefix ':' yields the bare local name.
 */
export function shortForm(iri: IRI, prefixes?: PrefixMap): string {
  let best = '';
  let bestNs = '';
  const consider = (prefix: string, ns: string) => {
    if (ns.length > bestNs.length && iri.length > ns.length && iri.startsWith(ns) && isCurieLocal(iri.slice(ns.length))) {
      best = prefix;
      bestNs = ns;
    }
  };
  if (prefixes !== undefined) for (const [p, ns] of prefixes) consider(p, ns);
  for (const [p, ns] of STANDARD_PREFIXES) if (prefixes === undefined || !prefixes.has(p)) consider(p, ns);
  if (bestNs === '') return localName(iri);
  return best === ':' ? iri.slice(bestNs.length) : best + iri.slice(bestNs.length);
}

/** The label chosen by preference: exact language, then a sub-tag of it ('en-gb' for 'en'), then untagged. */
export function preferredLabel(iri: IRI, ontologies: Iterable<Ontology>, preferredLang = 'en'): string | null {
  const want = preferredLang.toLowerCase();
  const region = want + '-';
  let exact: string | null = null;
  let sub: string | null = null;
  let plain: string | null = null;
  const better = (cur: string | null, lex: string) => (cur === null || lex < cur ? lex : cur);
  for (const o of ontologies) {
    const anns = o.index.annotationsBySubject.get(iri);
    if (anns === undefined) continue;
    for (const a of anns) {
      if (a.property.iri !== RDFS_LABEL || a.value.kind !== 'Literal') continue;
      const v = a.value;
      if (v.datatype !== RDF_LANG_STRING) plain = better(plain, v.lex);
      else if (v.lang === want) exact = better(exact, v.lex);
      else if (v.lang.startsWith(region)) sub = better(sub, v.lex);
    }
  }
  return exact ?? sub ?? plain;
}

/**
 * The display name of an entity or IRI over `ontologies` (the first one's prefix map gives the short
 * form). Among several labels of the same rank the smallest wins, so the result is deterministic.
 */
export function displayName(entityOrIri: Entity | IRI, ontologies: readonly Ontology[], preferredLang = 'en'): string {
  const iri = typeof entityOrIri === 'string' ? entityOrIri : entityOrIri.iri;
  return preferredLabel(iri, ontologies, preferredLang) ?? shortForm(iri, ontologies[0]?.prefixes);
}
