// A per-window cache of the discovered project policy, for callers that only read its settings (the lexical
// block of search_entities) and run often. Discovery (the directory walk) runs on every call, so a policy
// created nearer the document is seen at once; the YAML parse and validation run again only when the file
// found is another one or its identity changed (device, inode, size, mtime and ctime in nanoseconds), or the
// active ontology changed (the root-ontology check depends on it). Only valid resolutions are kept: an
// invalid one may turn valid without the file changing (its missing root artifact gets saved). Path and
// network authorization never use this cache; they resolve afresh.

import { stat } from 'node:fs/promises';
import type { CallContext } from '../window/call-context.js';
import type { PolicyResolution } from './resolution.js';
import { discoverPolicyFile, readPolicy, resolvePolicy } from './resolve.js';

interface CachedResolution {
  readonly key: string;
  readonly resolution: PolicyResolution;
}

let reads = 0;

/** How many policy files this thread has read and validated through the cache (a cache miss each). */
export function cachedPolicyReads(): number {
  return reads;
}

/** What the resolution of `file` depends on, or null when the file cannot be examined. */
async function cacheKey(ctx: CallContext, file: string): Promise<string | null> {
  const s = await stat(file, { bigint: true }).catch(() => null);
  if (s === null) return null;
  const active = ctx.workspace.hasActive ? ctx.workspace.active : null;
  return JSON.stringify([
    file,
    String(s.dev),
    String(s.ino),
    String(s.size),
    String(s.mtimeNs),
    String(s.ctimeNs),
    active?.id.iri ?? null,
    active?.id.versionIri ?? null,
    active?.documentIri ?? null,
  ]);
}

/** One window's last valid discovered resolution. */
export class PolicyResolutionCache {
  private cached: CachedResolution | null = null;

  /** The policy discovered for the workspace, as `resolvePolicy(ctx)` yields it, reusing an unchanged valid one. */
  async resolve(ctx: CallContext): Promise<PolicyResolution> {
    const file = await discoverPolicyFile(ctx);
    // without a policy there is nothing to parse; resolvePolicy says which path mode applies
    if (file === null) return resolvePolicy(ctx);
    // the identity is taken before the read: a change in between makes the next call read again
    const key = await cacheKey(ctx, file);
    if (key !== null && this.cached?.key === key) return this.cached.resolution;
    reads++;
    const resolution = await readPolicy(ctx, file, 'discovered');
    this.cached = key !== null && resolution.valid ? { key, resolution } : null;
    return resolution;
  }

  clear(): void {
    this.cached = null;
  }
}
