// Path facts the policy rules rest on: where an ontology's local document is, what a path really names once
// symlinks are resolved (even when the final part does not exist yet), and containment in a directory.

import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ontology } from '../model/ontology.js';
import type { Workspace } from '../model/workspace.js';
import { DomainError } from '../util/errors.js';

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

/** A document source: a remote URL, or a local file (plain path, relative ones resolved by the caller against callerBase, or `file:` URL). */
export type Source = { readonly remote: true; readonly url: string } | { readonly remote: false; readonly file: string };

/** Accepts only `file:`, `http:`, `https:` and plain paths (a one-letter "scheme" is a Windows drive). */
export function classifySource(source: string): Source {
  const scheme = urlScheme(source);
  if (scheme === 'http' || scheme === 'https') {
    // GitHub blob pages become the raw content they show
    const url = source.replace(/^https:\/\/github\.com\/([^/]+)\/([^/]+)\/blob\//, 'https://raw.githubusercontent.com/$1/$2/');
    return { remote: true, url };
  }
  if (scheme === 'file') return { remote: false, file: fileURLToPath(source) };
  if (scheme !== null)
    throw new DomainError(`Unsupported document scheme '${scheme}:' (use a path, file:, http: or https:)`, 'invalid_argument');
  return { remote: false, file: source };
}
