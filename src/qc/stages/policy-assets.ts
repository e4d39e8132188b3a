// The asset files a valid project policy names for the `invariants` and `cqs` stages (`invariants.paths`,
// `cqs.paths`, TOOLS.md 1.9): resolved against the project root with symlinks resolved, and read only when
// they stay inside it. A missing or escaping asset is a malformed configuration, which the stage reports.

import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { EffectivePolicy } from '../../policy/schema.js';
import { isInside, realTarget } from '../../policy/paths.js';

export interface PolicyAssets {
  /** The project root (real path). */
  readonly root: string;
  /** Project-relative paths, as the policy lists them. */
  readonly paths: readonly string[];
}

export type ResolvedAsset =
  | { readonly ok: true; readonly path: string; readonly absolute: string; readonly directory: boolean }
  | { readonly ok: false; readonly path: string; readonly reason: string };

export async function resolveAsset(root: string, relative: string): Promise<ResolvedAsset> {
  const absolute = await realTarget(path.resolve(root, relative));
  if (!isInside(root, absolute)) return { ok: false, path: relative, reason: `${absolute} is outside the project root ${root}` };
  try {
    const s = await stat(absolute);
    if (s.isDirectory()) return { ok: true, path: relative, absolute, directory: true };
    if (s.isFile()) return { ok: true, path: relative, absolute, directory: false };
    return { ok: false, path: relative, reason: `${absolute} is neither a file nor a directory` };
  } catch (e) {
    return {
      ok: false,
      path: relative,
      reason: `${absolute} cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    };
  }
}

/** The policy's `invariants` and `cqs` asset lists (absent blocks: none). */
export function policyAssetOptions(
  policy: EffectivePolicy,
  root: string | null,
): { invariantAssets?: PolicyAssets; cqAssets?: PolicyAssets } {
  if (root === null) return {};
  return {
    ...(policy.invariants === undefined ? {} : { invariantAssets: { root, paths: policy.invariants.paths } }),
    ...(policy.cqs === undefined ? {} : { cqAssets: { root, paths: policy.cqs.paths } }),
  };
}
