// Where a project policy sits: the nearest `.athene/project.yaml` walking up from a directory, and the
// directory it anchors. Kept apart from resolve.ts so the audit stream (front door thread) finds a project
// without loading the policy validator and the reasoner registry behind it.

import { stat } from 'node:fs/promises';
import path from 'node:path';

export const POLICY_DIR = '.athene';
export const POLICY_FILE = 'project.yaml';

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

/** The nearest `.athene/project.yaml` in `dir` or above it, or null. */
export async function discoverFrom(start: string): Promise<string | null> {
  let dir = start;
  for (;;) {
    const file = path.join(dir, POLICY_DIR, POLICY_FILE);
    if (await exists(file)) return file;
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** A policy inside `.athene/` anchors at that directory's parent, elsewhere at its own directory. */
export function policyAnchor(file: string): string {
  const dir = path.dirname(file);
  return path.basename(dir) === POLICY_DIR ? path.dirname(dir) : dir;
}
