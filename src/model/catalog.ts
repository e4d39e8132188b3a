// OASIS XML catalogs as Protégé writes them (`catalog-v001.xml`): `<uri name="IRI" uri="relative/path"/>`
// entries, possibly inside `<group>` elements, with nested `xml:base`. Only `<uri>` and `<nextCatalog>` are
// read; a DOCTYPE is ignored (saxes never fetches external entities) and `<nextCatalog>` is reported, never
// followed, so reading a catalog touches no other file.

import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as SaxesModule from 'saxes';
import type { SaxesTagPlain } from 'saxes';
import { readRegularFile } from '../util/file-read.js';
import { lazyRequire } from '../util/lazy.js';

/** The XML parser loads with the first catalog read. */
const saxes = lazyRequire<typeof SaxesModule>('saxes');

export const CATALOG_FILE_NAME = 'catalog-v001.xml';

export interface CatalogEntry {
  /** The mapped IRI (the `name` attribute). */
  readonly name: string;
  /** The `uri` attribute as written. */
  readonly uri: string;
  /** `uri` resolved against the enclosing `xml:base` chain and the catalog's own location; null if invalid. */
  readonly resolved: string | null;
  readonly line: number;
}

export interface Catalog {
  /** Absolute path of the catalog file. */
  readonly file: string;
  readonly entries: readonly CatalogEntry[];
  /** `catalog` attributes of `<nextCatalog>` elements, resolved like entries. */
  readonly nextCatalogs: readonly string[];
}

export class CatalogError extends Error {
  constructor(
    readonly file: string,
    detail: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(`${file}${line === undefined ? '' : `:${line}:${column ?? 0}`}: ${detail}`);
    this.name = 'CatalogError';
  }
}

function localName(qname: string): string {
  const i = qname.indexOf(':');
  return i < 0 ? qname : qname.slice(i + 1);
}

function resolveAgainst(ref: string, base: string | null): string | null {
  if (base === null) return null;
  try {
    return new URL(ref, base).href;
  } catch {
    return null;
  }
}

/** Parses catalog text; `file` is its absolute path (the base for relative references). */
export function parseCatalog(text: string, file: string): Catalog {
  const entries: CatalogEntry[] = [];
  const nextCatalogs: string[] = [];
  // one base per open element, so a closing tag restores the enclosing base
  const bases: (string | null)[] = [pathToFileURL(file).href];
  const parser = new (saxes().SaxesParser)({ position: true });
  let failure: CatalogError | null = null;
  parser.on('error', (e) => {
    failure ??= new CatalogError(file, e.message.replace(/^(?:[^:]*:)?\d+:\d+: /, ''), parser.line, parser.column);
  });
  parser.on('opentag', (tag) => {
    const attrs = (tag as SaxesTagPlain).attributes;
    const outer = bases[bases.length - 1]!; // the file's own base stays at the bottom: every closetag pops an opentag's push
    const xmlBase = attrs['xml:base'];
    const base = xmlBase === undefined ? outer : resolveAgainst(xmlBase, outer);
    bases.push(base);
    const name = localName(tag.name);
    if (name === 'uri' && attrs.name !== undefined && attrs.uri !== undefined) {
      entries.push({ name: attrs.name, uri: attrs.uri, resolved: resolveAgainst(attrs.uri, base), line: parser.line });
    } else if (name === 'nextCatalog' && attrs.catalog !== undefined) {
      nextCatalogs.push(resolveAgainst(attrs.catalog, base) ?? attrs.catalog);
    }
  });
  parser.on('closetag', () => {
    bases.pop();
  });
  try {
    parser.write(text).close();
  } catch (err) {
    failure ??= new CatalogError(file, (err as Error).message, parser.line, parser.column);
  }
  if (failure !== null) throw failure;
  return { file, entries, nextCatalogs };
}

/** The catalog beside a local document, or null when there is none. Malformed catalogs throw CatalogError. */
export async function readSiblingCatalog(document: string): Promise<Catalog | null> {
  const file = path.join(path.dirname(path.resolve(document)), CATALOG_FILE_NAME);
  let text: string;
  try {
    text = await readRegularFile(file, 'catalog', 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new CatalogError(file, (err as Error).message);
  }
  return parseCatalog(text, file);
}

/**
 * Sibling catalogs by folder, each read once during one import resolution. A malformed catalog is kept as
 * its error, so each caller decides whether that fails the whole call or leaves the import unresolved.
 */
export class SiblingCatalogs {
  private readonly byDir = new Map<string, Catalog | Error | null>();

  async of(document: string): Promise<Catalog | Error | null> {
    const dir = path.dirname(document);
    if (!this.byDir.has(dir)) this.byDir.set(dir, await readSiblingCatalog(document).catch((err: Error) => err));
    return this.byDir.get(dir) ?? null;
  }
}

/** The local file a catalog maps `iri` to (first matching entry, as OASIS resolution does), or null. */
export function catalogLocalFile(catalog: Catalog, iri: string): string | null {
  for (const e of catalog.entries) {
    if (e.name !== iri) continue;
    return e.resolved !== null && e.resolved.startsWith('file:') ? fileURLToPath(e.resolved) : null;
  }
  return null;
}
