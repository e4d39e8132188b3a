// The files a project policy names (modules, lockfile, invariants, shapes, questions, release output),
// resolved against the project root with what is there.

import { stat } from 'node:fs/promises';
import path from 'node:path';
import { isInside, realTarget } from './paths.js';
import { assetPaths, type EffectivePolicy } from './schema.js';
import type { JsonObject } from '../util/json-object.js';

/** What is at `p`: a file, a directory or nothing (or something else). */
export async function existsAs(p: string): Promise<'file' | 'directory' | null> {
  try {
    const s = await stat(p);
    return s.isFile() ? 'file' : s.isDirectory() ? 'directory' : null;
  } catch {
    return null;
  }
}

/** Each asset the policy names, resolved against the project root (symlinks resolved) with what is there. */
export async function resolvedAssets(policy: EffectivePolicy, root: string): Promise<JsonObject> {
  const rows = await Promise.all(
    assetPaths(policy).map(async (a) => {
      const absolute = await realTarget(path.resolve(root, a.path));
      const contained = isInside(root, absolute);
      return { field: a.field, kind: a.kind, path: a.path, absolute, contained, exists: contained && (await existsAs(absolute)) !== null };
    }),
  );
  const pick = (prefix: string) => rows.filter((r) => r.field === prefix || r.field.startsWith(prefix + '.'));
  const one = (field: string) => rows.find((r) => r.field === field) ?? null;
  const store = one('mappings.path');
  return {
    root_artifact: one('root_artifact'),
    modules: pick('modules'),
    import_lock: one('imports.lockfile'),
    invariants: pick('invariants'),
    shacl: pick('shacl'),
    cqs: pick('cqs'),
    release_output: one('release.output_dir'),
    // v2: the mapping store only once it exists (it is created by the first mapping commit)
    ...(policy.version === 2 ? { mapping_store: store !== null && store.exists ? store : null } : {}),
  };
}
