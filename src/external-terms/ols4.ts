// The OLS4 profile: the HTTP calls Athene makes to an Ontology Lookup Service and the parts of its answers
// it reads. Requests go to the owner-bound origin only (node:https, so a private CA can be trusted for that
// origin alone), with a time limit, a response-size bound and a few retries on 429 and 5xx answers.

import https from 'node:https';
import type { BoundCredential, BoundOrigin } from './binding.js';

const TIMEOUT_MS = 15_000;
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
const MAX_ATTEMPTS = 3;
const RETRY_STATUS = new Set([429, 500, 502, 503, 504]);

/** A provider answered, but not with what the profile expects (or not at all). */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

export interface Fetched {
  readonly json: unknown;
  /** The request URL without anything secret (the credential travels in a header, never in the URL). */
  readonly url: string;
  /** Attempts beyond the first. */
  readonly retries: number;
}

function getOnce(
  url: URL,
  origin: BoundOrigin,
  credential: BoundCredential | null,
  signal: AbortSignal,
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'athene-mcp (ols4 profile)' };
    if (credential?.secret != null) headers[credential.header] = credential.secret;
    const req = https.get(url, { headers, timeout: TIMEOUT_MS, signal, ...(origin.ca === null ? {} : { ca: origin.ca }) }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_RESPONSE_BYTES) {
          req.destroy(new ProviderError(`the provider's answer exceeds ${MAX_RESPONSE_BYTES} bytes`, false));
          return;
        }
        chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new ProviderError(`the provider did not answer within ${TIMEOUT_MS} ms`, true)));
    req.on('error', reject);
  });
}

/** GETs `pathAndQuery` from the bound origin and parses JSON; 404 answers null. */
export async function getJson(
  origin: BoundOrigin,
  credential: BoundCredential | null,
  pathAndQuery: string,
  signal: AbortSignal,
): Promise<Fetched & { status: number }> {
  const url = new URL(origin.origin + pathAndQuery);
  let retries = 0;
  for (let attempt = 1; ; attempt++) {
    let answer: { status: number; body: Buffer };
    try {
      answer = await getOnce(url, origin, credential, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      const retryable = !(err instanceof ProviderError) || err.retryable;
      if (retryable && attempt < MAX_ATTEMPTS) {
        retries++;
        continue;
      }
      throw err instanceof ProviderError
        ? err
        : new ProviderError(`the provider cannot be reached (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, true);
    }
    if (RETRY_STATUS.has(answer.status) && attempt < MAX_ATTEMPTS) {
      retries++;
      await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
      continue;
    }
    if (answer.status === 404) return { json: null, url: url.href, retries, status: 404 };
    if (answer.status !== 200)
      throw new ProviderError(`the provider answered HTTP ${answer.status}`, RETRY_STATUS.has(answer.status), answer.status);
    try {
      return { json: JSON.parse(answer.body.toString('utf8')), url: url.href, retries, status: 200 };
    } catch {
      throw new ProviderError('the provider answered with malformed JSON', false, 200);
    }
  }
}

/** One search hit or term as OLS describes it (fields Athene reads; anything else is ignored). */
export interface OlsTerm {
  readonly iri: string;
  readonly label: string;
  readonly synonyms: readonly string[];
  readonly descriptions: readonly string[];
  readonly ontology: string;
  readonly ontologyIri: string | null;
  /** OLS's entity type word (`class`, `property`, `individual`, …). */
  readonly type: string;
  readonly obsolete: boolean;
  readonly replacedBy: string | null;
}

const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);
const strs = (x: unknown): string[] =>
  Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : typeof x === 'string' ? [x] : [];

function termOf(doc: unknown, fallbackType: string): OlsTerm | null {
  if (typeof doc !== 'object' || doc === null) return null;
  const d = doc as Record<string, unknown>;
  const iri = str(d.iri),
    ontology = str(d.ontology_name);
  if (iri === null || ontology === null) return null;
  const label = str(d.label) ?? strs(d.label)[0] ?? null;
  if (label === null) return null;
  return {
    iri,
    label,
    ontology,
    synonyms: strs(d.synonyms ?? d.synonym),
    descriptions: strs(d.description),
    ontologyIri: str(d.ontology_iri),
    type: str(d.type) ?? fallbackType,
    obsolete: d.is_obsolete === true,
    replacedBy: str(d.term_replaced_by),
  };
}

/** The hits of a `/api/search` answer and its total. */
export function searchHits(json: unknown): { total: number; docs: OlsTerm[] } {
  const response = (json as { response?: { numFound?: unknown; docs?: unknown } } | null)?.response;
  if (response === undefined || typeof response.numFound !== 'number' || !Array.isArray(response.docs)) {
    throw new ProviderError("the provider's search answer lacks response.numFound or response.docs", false);
  }
  return { total: response.numFound, docs: response.docs.map((d) => termOf(d, 'class')).filter((t): t is OlsTerm => t !== null) };
}

/** A term-detail answer. */
export function termDetail(json: unknown, type: string): OlsTerm {
  const t = termOf(json, type);
  if (t === null) throw new ProviderError("the provider's term answer lacks iri, label or ontology_name", false);
  return t;
}

/** Version and license of an ontology, from `/api/ontologies/{id}` (both optional in OLS). */
export function ontologyFacts(json: unknown): {
  version: string | null;
  license: string | null;
  iri: string | null;
  updated: string | null;
} {
  const o = (json ?? {}) as { config?: Record<string, unknown>; updated?: unknown };
  const config = o.config ?? {};
  const license = config.license as { url?: unknown; label?: unknown } | string | undefined;
  return {
    version: str(config.version) ?? str(config.versionIri),
    license: typeof license === 'string' ? license : (str(license?.url) ?? str(license?.label)),
    iri: str(config.ontology_purl),
    updated: str(o.updated),
  };
}

/** OLS's double-encoded IRI path segment. */
export const encodedIri = (iri: string): string => encodeURIComponent(encodeURIComponent(iri));

/** The term-detail paths to try, in order, with the entity type each implies. */
export const DETAIL_KINDS: readonly (readonly [string, string])[] = [
  ['terms', 'class'],
  ['properties', 'property'],
  ['individuals', 'individual'],
];
