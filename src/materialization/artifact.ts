// The identity of a stored preview: its digest (over the request, the input identity, the destination plan,
// the per-category outcome and the materialization digest, recomputed at commit to detect any change) and
// the fingerprint a caller must hand back, binding the id, the digest, the owning session and the time.

import { timingSafeEqual } from 'node:crypto';
import { sha256Digest } from '../util/digest.js';
import type { JsonObject } from '../util/json-object.js';
import type { InputIdentity } from './identity.js';
import type { MaterializationRequest } from './request.js';
import type { Category } from './categories.js';

/** What the artifact digest covers of each category. */
export interface CategorySummary {
  readonly category: Category;
  readonly produced: boolean;
  readonly axioms: readonly unknown[];
  readonly digest: string | null;
  readonly skip?: { readonly reason: string };
}

export function artifactDigestOf(
  request: MaterializationRequest,
  identity: InputIdentity,
  plan: JsonObject,
  categories: readonly CategorySummary[],
  materializationDigest: string,
): string {
  const summary = categories.map((c) => ({
    category: c.category,
    produced: c.produced,
    count: c.axioms.length,
    digest: c.digest,
    skip: c.skip?.reason ?? null,
  }));
  return sha256Digest(JSON.stringify({ request, identity, plan, summary, materializationDigest }));
}

/** Binds an artifact id to its digest and owner: what the caller must hand back to commit. */
export function fingerprintOf(id: string, artifactDigest: string, owner: string | null, createdAt: number): string {
  return sha256Digest(JSON.stringify({ id, artifactDigest, owner, createdAt }));
}

/** Compares two digests in constant time (a fingerprint is a capability to commit). */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
