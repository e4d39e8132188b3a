// Checking and writing OASIS `catalog-v001.xml` documents (validate_catalog, write_catalog). Reading goes
// through catalog.ts (saxes: no DTD processing, no external entities, `<nextCatalog>` reported and never
// followed); here each `<uri>` target is classified, direct imports are compared with the mapped names,
// and a catalog is written deterministically: sorted entries, URIs relative to the catalog's folder.

import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CatalogError, parseCatalog, type Catalog } from './catalog.js';
import { readRegularFile } from '../util/file-read.js';

export type EntryStatus = 'local_ok' | 'local_missing' | 'remote_forbidden' | 'invalid_uri';

export interface CheckedEntry {
  readonly name: string;
  readonly uri: string;
  readonly status: EntryStatus;
  /** The absolute local file the entry maps to (local statuses only). */
  readonly file?: string;
}

export interface CatalogIssue {
  readonly code:
    'catalog_missing' | 'catalog_malformed' | 'entry_missing' | 'entry_remote' | 'entry_invalid' | 'duplicate_name' | 'import_unmapped';
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

export interface CatalogReport {
  readonly valid: boolean;
  readonly catalog: string;
  readonly entries: readonly CheckedEntry[];
  readonly nextCatalogs: readonly string[];
  readonly errors: readonly CatalogIssue[];
  readonly unmappedImports: readonly string[];
  readonly delegatedImports: readonly string[];
}

/** Where an entry points: a local regular file that exists, one that does not, a remote URL, or nothing usable. */
async function statusOf(resolved: string | null): Promise<{ status: EntryStatus; file?: string }> {
  if (resolved === null) return { status: 'invalid_uri' };
  if (!resolved.startsWith('file:')) return { status: /^[a-z][a-z0-9+.-]*:/i.test(resolved) ? 'remote_forbidden' : 'invalid_uri' };
  let file: string;
  try {
    file = fileURLToPath(resolved);
  } catch {
    return { status: 'invalid_uri' };
  }
  const s = await stat(file).catch(() => null);
  return { status: s?.isFile() === true ? 'local_ok' : 'local_missing', file };
}

const ISSUE_OF: Readonly<Record<Exclude<EntryStatus, 'local_ok'>, { code: CatalogIssue['code']; says: string }>> = {
  local_missing: { code: 'entry_missing', says: 'maps to a local file that does not exist' },
  remote_forbidden: { code: 'entry_remote', says: 'maps to a remote location; catalogs resolve imports offline only' },
  invalid_uri: { code: 'entry_invalid', says: 'has a uri that does not resolve to a location' },
};

/** Checks the catalog at `file`; with `directImports`, every one must be mapped (or is delegated when `<nextCatalog>`s exist). */
export async function checkCatalog(file: string, directImports: readonly string[] | null): Promise<CatalogReport> {
  const empty = { catalog: file, entries: [], nextCatalogs: [], unmappedImports: [], delegatedImports: [] };
  let text: string;
  try {
    text = await readRegularFile(file, 'catalog', 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const message = code === 'ENOENT' ? `${file} does not exist` : `${file} cannot be read: ${(err as Error).message}`;
    return { ...empty, valid: false, errors: [{ code: code === 'ENOENT' ? 'catalog_missing' : 'catalog_malformed', message }] };
  }
  let catalog: Catalog;
  try {
    catalog = parseCatalog(text, file);
  } catch (err) {
    const e = err as CatalogError;
    return {
      ...empty,
      valid: false,
      errors: [{ code: 'catalog_malformed', message: e.message, ...(e.line === undefined ? {} : { line: e.line, column: e.column ?? 0 }) }],
    };
  }
  const errors: CatalogIssue[] = [];
  const entries: CheckedEntry[] = [];
  const seen = new Map<string, string>();
  for (const e of catalog.entries) {
    const { status, file: target } = await statusOf(e.resolved);
    entries.push({ name: e.name, uri: e.uri, status, ...(target === undefined ? {} : { file: target }) });
    if (status !== 'local_ok')
      errors.push({ code: ISSUE_OF[status].code, message: `<${e.name}> ${ISSUE_OF[status].says}: ${e.uri}`, line: e.line });
    const earlier = seen.get(e.name);
    if (earlier !== undefined && earlier !== (e.resolved ?? '')) {
      errors.push({
        code: 'duplicate_name',
        message: `<${e.name}> is mapped more than once to different locations; the first entry wins`,
        line: e.line,
      });
    }
    if (earlier === undefined) seen.set(e.name, e.resolved ?? '');
  }
  const unmapped = (directImports ?? []).filter((iri) => !seen.has(iri)).sort();
  // a delegated catalog might map them, but it is never read: they are reported as unverified, not as errors
  const delegated = catalog.nextCatalogs.length > 0 ? unmapped : [];
  const unmappedImports = catalog.nextCatalogs.length > 0 ? [] : unmapped;
  for (const iri of unmappedImports) errors.push({ code: 'import_unmapped', message: `The direct import <${iri}> has no <uri> entry` });
  return {
    valid: errors.length === 0,
    catalog: file,
    entries,
    nextCatalogs: catalog.nextCatalogs,
    errors,
    unmappedImports,
    delegatedImports: delegated,
  };
}

/** `file` as a URI reference relative to `dir` ('/'-separated, each segment percent-encoded). */
export function relativeUri(dir: string, file: string): string {
  const rel = path.relative(dir, file);
  if (path.isAbsolute(rel)) return pathToFileURL(file).href;
  return rel
    .split(path.sep)
    .map((segment) => (segment === '..' ? segment : encodeURIComponent(segment)))
    .join('/');
}

export interface CatalogMapping {
  readonly name: string;
  readonly uri: string;
}

const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The catalog document: entries sorted by name (then uri), one per line, then the delegations in order. */
export function catalogXml(entries: readonly CatalogMapping[], nextCatalogs: readonly string[] = []): string {
  const sorted = [...entries].sort((a, b) => (a.name === b.name ? (a.uri < b.uri ? -1 : 1) : a.name < b.name ? -1 : 1));
  const lines = [
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
    '<catalog prefer="public" xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">',
    ...sorted.map((e) => `    <uri name="${escapeAttribute(e.name)}" uri="${escapeAttribute(e.uri)}"/>`),
    ...nextCatalogs.map((c) => `    <nextCatalog catalog="${escapeAttribute(c)}"/>`),
    '</catalog>',
  ];
  return lines.join('\n') + '\n';
}
