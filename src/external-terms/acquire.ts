// Searching and looking up terms at a provider, through the actor's cache. The cache is keyed by a digest
// (queries are not kept in clear), bound to the policy digest and binding generation it was filled under,
// bypassed by `fresh` and `freshness: fresh_required`, off with `ttl_seconds: 0`. Evidence that echoes
// the query is never cached.

import { DomainError } from '../util/errors.js';
import type { CallContext } from '../window/call-context.js';
import { sha256Digest } from '../util/digest.js';
import type { ProviderAccess } from './authority.js';
import type { CacheEntry } from './actor-store.js';
import { DETAIL_KINDS, ProviderError, encodedIri, getJson, ontologyFacts, searchHits, termDetail } from './ols4.js';
import { providerRecord, type ProviderRecord } from './record.js';

export interface Acquired {
  readonly records: readonly ProviderRecord[];
  readonly total: number;
  readonly fetchedAt: string;
  readonly retries: number;
  readonly cacheHit: boolean;
}

function providerFailure(access: ProviderAccess, err: unknown): never {
  if (err instanceof ProviderError) {
    throw new DomainError(`provider ${access.provider.id}: ${err.message}`, 'provider_unavailable', {
      provider_id: access.provider.id,
      retryable: err.retryable,
    });
  }
  throw err;
}

function cacheKey(access: ProviderAccess, parts: readonly unknown[]): string {
  return sha256Digest(JSON.stringify([access.provider.id, access.origin.alias, ...parts]));
}

function usable(entry: CacheEntry | undefined, access: ProviderAccess): entry is CacheEntry {
  return entry !== undefined && entry.policyDigest === access.policyDigest && entry.bindingGeneration === access.bindingGeneration;
}

const caching = (access: ProviderAccess) => access.provider.ttl_seconds > 0;

/** Whether any evidence repeats the query (such results are not cached: the query is never kept). */
function echoes(records: readonly ProviderRecord[], query: string): boolean {
  const q = query.toLowerCase();
  return records.some((r) =>
    [r.entity_iri, ...r.labels.map((l) => l.value), ...r.synonyms, ...r.descriptions].some((t) => t.toLowerCase().includes(q)),
  );
}

export interface SearchRequest {
  readonly query: string;
  readonly ontologies: readonly string[];
  readonly language: string;
  readonly limit: number;
  readonly start: number;
}

export async function searchProvider(ctx: CallContext, access: ProviderAccess, req: SearchRequest): Promise<Acquired> {
  const store = ctx.window.externalTerms;
  const now = Date.now();
  const key = cacheKey(access, ['search', req.query, req.ontologies, req.language, req.limit, req.start]);
  const hit = access.provider.freshness === 'fresh_required' ? undefined : store.cached(key, now);
  if (usable(hit, access)) return { records: hit.records, total: hit.total, fetchedAt: hit.fetchedAt, retries: 0, cacheHit: true };
  const params = new URLSearchParams({
    q: req.query,
    ontology: req.ontologies.join(','),
    rows: String(req.limit),
    start: String(req.start),
    lang: req.language,
  });
  let fetched;
  try {
    fetched = await getJson(access.origin, access.credential, `/api/search?${params}`, ctx.signal);
  } catch (err) {
    return providerFailure(access, err);
  }
  let hits;
  try {
    hits = searchHits(fetched.json);
  } catch (err) {
    return providerFailure(access, err);
  }
  const fetchedAt = new Date().toISOString();
  const records = hits.docs.slice(0, req.limit).map((d) =>
    providerRecord(
      d,
      {
        providerId: access.provider.id,
        originAlias: access.origin.alias,
        via: 'ols4:search',
        url: fetched.url,
        retries: fetched.retries,
        fetchedAt,
        language: req.language,
        version: null,
        license: null,
        secrets: access.secrets,
      },
      req.query,
    ),
  );
  if (caching(access) && !echoes(records, req.query)) {
    store.remember(key, {
      records,
      total: hits.total,
      fetchedAt,
      expires: now + access.provider.ttl_seconds * 1000,
      policyDigest: access.policyDigest,
      bindingGeneration: access.bindingGeneration,
    });
  }
  return { records, total: hits.total, fetchedAt, retries: fetched.retries, cacheHit: false };
}

export interface LookupRequest {
  readonly ontology: string;
  readonly iri: string;
  readonly language: string;
  /** Bypass the cache, both reading and writing. */
  readonly fresh: boolean;
}

export async function inspectTerm(
  ctx: CallContext,
  access: ProviderAccess,
  req: LookupRequest,
): Promise<{ record: ProviderRecord; cacheHit: boolean }> {
  const store = ctx.window.externalTerms;
  const now = Date.now();
  const key = cacheKey(access, ['term', req.ontology, req.iri, req.language]);
  const readCache = !req.fresh && access.provider.freshness !== 'fresh_required';
  const hit = readCache ? store.cached(key, now) : undefined;
  const [cachedRecord] = hit?.records ?? [];
  if (usable(hit, access) && cachedRecord !== undefined) return { record: cachedRecord, cacheHit: true };
  const lang = new URLSearchParams({ lang: req.language });
  let retries = 0;
  try {
    let term = null,
      url = '';
    for (const [segment, type] of DETAIL_KINDS) {
      const f = await getJson(
        access.origin,
        access.credential,
        `/api/ontologies/${encodeURIComponent(req.ontology)}/${segment}/${encodedIri(req.iri)}?${lang}`,
        ctx.signal,
      );
      retries += f.retries;
      if (f.status === 404) continue;
      term = termDetail(f.json, type);
      url = f.url;
      break;
    }
    if (term === null || term.iri !== req.iri) {
      throw new DomainError(
        `provider ${access.provider.id}: ontology '${req.ontology}' has no term ${req.iri}`,
        'external_term_not_found',
        { provider_id: access.provider.id, iri: req.iri },
      );
    }
    const facts = await getJson(access.origin, access.credential, `/api/ontologies/${encodeURIComponent(req.ontology)}`, ctx.signal);
    retries += facts.retries;
    const { version, license, iri: ontologyIri } = ontologyFacts(facts.json);
    const fetchedAt = new Date().toISOString();
    const record = providerRecord(
      { ...term, ontologyIri: term.ontologyIri ?? ontologyIri },
      {
        providerId: access.provider.id,
        originAlias: access.origin.alias,
        via: 'ols4:term',
        url,
        retries,
        fetchedAt,
        language: req.language,
        version,
        license,
        secrets: access.secrets,
      },
      null,
    );
    if (!req.fresh && caching(access)) {
      store.remember(key, {
        records: [record],
        total: 1,
        fetchedAt,
        expires: now + access.provider.ttl_seconds * 1000,
        policyDigest: access.policyDigest,
        bindingGeneration: access.bindingGeneration,
      });
    }
    return { record, cacheHit: false };
  } catch (err) {
    return providerFailure(access, err);
  }
}
