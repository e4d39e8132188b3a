// The provider record of TOOLS.md 3.12: what Athene reports about one external term, with two
// fingerprints. `term_fingerprint` covers the content only (and whether it came from a search hit or a
// term lookup, so a search fingerprint never passes for a looked-up one); `result_fingerprint` adds how it
// was acquired. Evidence that looks like a secret is refused whole, never returned or cached.

import { sha256Digest } from '../util/digest.js';
import { DomainError } from '../util/errors.js';
import type { OlsTerm } from './ols4.js';

export interface ProviderRecord {
  readonly provider_id: string;
  readonly profile: 'ols4';
  readonly source_ontology: string;
  readonly source_ontology_iri?: string;
  readonly entity_iri: string;
  readonly entity_type: string;
  readonly labels: readonly { readonly value: string; readonly language: string }[];
  readonly synonyms: readonly string[];
  readonly descriptions: readonly string[];
  readonly license?: string;
  readonly provenance?: { readonly acquired_via: string; readonly origin_alias: string };
  readonly match_explanation: string;
  readonly score: number;
  readonly provider_version?: string;
  readonly provider_timestamp: string;
  readonly source_url: string;
  readonly retries: number;
  readonly deprecated: boolean;
  readonly replaced_by?: string;
  readonly term_fingerprint: string;
  readonly result_fingerprint: string;
}

/** OLS's entity type words, as the entity-type enum of local_entity. */
const TYPES: Readonly<Record<string, string>> = {
  class: 'class',
  property: 'object_property',
  objectProperty: 'object_property',
  object_property: 'object_property',
  dataProperty: 'data_property',
  data_property: 'data_property',
  annotationProperty: 'annotation_property',
  annotation_property: 'annotation_property',
  individual: 'named_individual',
  datatype: 'datatype',
};

/** Lower-case, single-spaced: how a query and a label are compared for the score. */
const folded = (s: string) => s.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();

/** A lexical score in [0, 1] with its explanation; a lookup by IRI is an exact identification. */
function matchOf(term: OlsTerm, query: string | null): { score: number; explanation: string } {
  if (query === null) return { score: 1, explanation: 'looked up by IRI' };
  const q = folded(query),
    label = folded(term.label);
  if (label === q) return { score: 1, explanation: 'label equals the query' };
  if (term.synonyms.some((s) => folded(s) === q)) return { score: 0.9, explanation: 'a synonym equals the query' };
  if (label.startsWith(q)) return { score: 0.75, explanation: 'label starts with the query' };
  if (label.includes(q)) return { score: 0.6, explanation: 'label contains the query' };
  if (term.synonyms.some((s) => folded(s).includes(q))) return { score: 0.5, explanation: 'a synonym contains the query' };
  return { score: 0.3, explanation: 'matched by the provider in other fields' };
}

/** The URL without userinfo, query or fragment values that could carry secrets: path and parameter names only. */
export function sanitizedUrl(url: string): string {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  u.hash = '';
  const names = [...new Set([...u.searchParams.keys()])].sort();
  u.search = '';
  return u.href + (names.length === 0 ? '' : '?' + names.map((n) => `${encodeURIComponent(n)}=…`).join('&'));
}

/** Shapes of common tokens and keys: evidence carrying one is refused (a provider leaking a secret, or echoing one). */
const SECRET_SHAPES = [
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/, // JWT
  /\b(?:ghp|gho|ghs|ghu|github_pat)_[A-Za-z0-9_]{20,}/,
  /\bAKIA[0-9A-Z]{16}\b/,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/,
  /\bsk-[A-Za-z0-9_-]{20,}/,
  /\bBearer\s+[A-Za-z0-9._~+/-]{20,}=*/i,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
];

function looksSecret(value: string, secrets: readonly string[]): boolean {
  return SECRET_SHAPES.some((re) => re.test(value)) || secrets.some((s) => s.length >= 8 && value.includes(s));
}

export interface Acquisition {
  readonly providerId: string;
  readonly originAlias: string;
  readonly via: 'ols4:search' | 'ols4:term';
  readonly url: string;
  readonly retries: number;
  readonly fetchedAt: string;
  readonly language: string;
  readonly version: string | null;
  readonly license: string | null;
  /** Configured secrets, so evidence echoing one is refused. */
  readonly secrets: readonly string[];
}

/** The provider record of one term. Throws `provider_redaction_failed` on secret-like evidence. */
export function providerRecord(term: OlsTerm, acquisition: Acquisition, query: string | null): ProviderRecord {
  const texts = [
    term.iri,
    term.label,
    ...term.synonyms,
    ...term.descriptions,
    term.replacedBy ?? '',
    acquisition.license ?? '',
    acquisition.version ?? '',
  ];
  if (texts.some((t) => looksSecret(t, acquisition.secrets))) {
    throw new DomainError(
      `provider ${acquisition.providerId}: the provider's evidence for a term contains secret-like content; it is neither returned nor cached`,
      'provider_redaction_failed',
      { provider_id: acquisition.providerId },
    );
  }
  const content = {
    detail: acquisition.via === 'ols4:term' ? 'term' : 'search',
    entity_iri: term.iri,
    entity_type: TYPES[term.type] ?? 'class',
    source_ontology: term.ontology,
    labels: [{ value: term.label, language: acquisition.language }],
    synonyms: [...new Set(term.synonyms)].sort(),
    descriptions: term.descriptions.slice(),
    deprecated: term.obsolete,
    replaced_by: term.replacedBy,
  };
  const termFingerprint = sha256Digest(JSON.stringify(content));
  const sourceUrl = sanitizedUrl(acquisition.url);
  const match = matchOf(term, query);
  const resultFingerprint = sha256Digest(
    JSON.stringify([
      termFingerprint,
      acquisition.providerId,
      acquisition.originAlias,
      acquisition.via,
      acquisition.version,
      acquisition.license,
      acquisition.fetchedAt,
      sourceUrl,
    ]),
  );
  return {
    provider_id: acquisition.providerId,
    profile: 'ols4',
    source_ontology: term.ontology,
    ...(term.ontologyIri === null ? {} : { source_ontology_iri: term.ontologyIri }),
    entity_iri: term.iri,
    entity_type: content.entity_type,
    labels: content.labels,
    synonyms: content.synonyms,
    descriptions: content.descriptions,
    ...(acquisition.license === null ? {} : { license: acquisition.license }),
    provenance: { acquired_via: acquisition.via, origin_alias: acquisition.originAlias },
    match_explanation: match.explanation,
    score: match.score,
    ...(acquisition.version === null ? {} : { provider_version: acquisition.version }),
    provider_timestamp: acquisition.fetchedAt,
    source_url: sourceUrl,
    retries: acquisition.retries,
    deprecated: term.obsolete,
    ...(term.replacedBy === null ? {} : { replaced_by: term.replacedBy }),
    term_fingerprint: termFingerprint,
    result_fingerprint: resultFingerprint,
  };
}
