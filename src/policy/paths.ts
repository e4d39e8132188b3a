// Path facts the policy rules rest on: where an ontology's local document is, what a path really names once
// symlinks are resolved (even when the final part does not exist yet), and containment in a directory.

import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ontology } from '../model/ontology.js';
import type { Workspace } from '../model/workspace.js';

/** The local file an ontology was loaded from or is bound to, or null (untitled, remote). */
export function localDocumentOf(o: Ontology): string | null {
  const doc = o.documentIri;
  if (doc === null) return null;
  if (doc.startsWith('file:')) return fileURLToPath(doc);
  return path.isAbsolute(doc) ? doc : null;
}

/** The directory of the active ontology's local document, or null. */
export function activeDocumentDir(ctx: { readonly workspace: Workspace }): string | null {
  const doc = ctx.workspace.hasActive ? localDocumentOf(ctx.workspace.active) : null;
  return doc === null ? null : path.dirname(doc);
}

/** The real path of `p`, resolving the symlinks of its nearest existing ancestor (the rest may not exist yet). */
export async function realTarget(p: string): Promise<string> {
  const rest: string[] = [];
  let cur = path.resolve(p);
  for (;;) {
    try {
      return path.join(await realpath(cur), ...rest.reverse());
    } catch {
      const up = path.dirname(cur);
      if (up === cur) return path.resolve(p);
      rest.push(path.basename(cur));
      cur = up;
    }
  }
}

/** True when `p` is `root` or lies below it (both absolute and normalized). */
export function isInside(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** A URL scheme at the start of `s` (a one-letter "scheme" is a Windows drive, not a scheme). */
export function urlScheme(s: string): string | null {
  return /^([A-Za-z][A-Za-z0-9+.-]+):/.exec(s)?.[1]?.toLowerCase() ?? null;
}
