// Catalog tools (TOOLS.md 3.6): validate_catalog checks an OASIS catalog-v001.xml offline (entry targets,
// delegations, optionally the active ontology's direct imports); write_catalog maps every import of the
// active ontology's closure that a local file satisfies, atomically and deterministically.

import * as v from 'valibot';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATALOG_FILE_NAME, parseCatalog, type Catalog } from '../../model/catalog.js';
import { catalogXml, checkCatalog, relativeUri, type CatalogMapping } from '../../model/catalog-document.js';
import { importGraph } from '../../imports/closure.js';
import { localDocumentOf } from '../../policy/paths.js';
import { authorizeLocalPath } from '../../policy/authorize.js';
import { writeFileAtomic } from '../../util/atomic-file.js';
import { defineTool, always, never, ToolFailure, type ToolContext } from '../core/tool.js';
import { readRegularFile } from '../../util/file-read.js';
import { AnyList, AnyObject } from '../core/result-shapes.js';

/** The folder of the active ontology's local document, or the refusal naming why there is none. */
function documentFolder(ctx: ToolContext, tool: string): string {
  const file = localDocumentOf(ctx.workspace.active);
  if (file === null) throw new ToolFailure(`${tool}: the active ontology has no local document; give path`, 'invalid_argument');
  return path.dirname(file);
}

/** A catalog path argument names the catalog file, or a folder (existing, or written without an extension) to hold one. */
async function catalogFile(given: string): Promise<string> {
  const target = path.resolve(given);
  const s = await stat(target).catch(() => null);
  if (s?.isDirectory() === true || (s === null && path.extname(target) === '')) return path.join(target, CATALOG_FILE_NAME);
  return target;
}

export const validateCatalog = defineTool({
  name: 'validate_catalog',
  description: 'Check a catalog-v001.xml offline; compare_imports requires every import mapped.',
  input: v.strictObject({
    path: v.optional(v.pipe(v.string(), v.nonEmpty())),
    compare_imports: v.optional(v.boolean(), false),
  }),
  output: v.object({
    valid: v.boolean(),
    catalog: v.string(),
    entries: AnyList,
    next_catalogs: AnyList,
    errors: AnyList,
    unmapped_imports: AnyList,
    delegated_imports: AnyList,
  }),
  capabilities: ['ontology:read', 'filesystem:project:read'],
  mutating: never,
  handler: async (args, ctx) => {
    const file =
      args.path !== undefined ? await catalogFile(args.path) : path.join(documentFolder(ctx, 'validate_catalog'), CATALOG_FILE_NAME);
    const authorized = await authorizeLocalPath(ctx, 'validate_catalog', file, 'read', { derived: args.path === undefined });
    const imports = args.compare_imports ? [...ctx.workspace.active.imports] : null;
    const report = await checkCatalog(authorized, imports);
    return {
      valid: report.valid,
      catalog: report.catalog,
      entries: report.entries.map((e) => ({
        name: e.name,
        uri: e.uri,
        status: e.status,
        ...(e.file === undefined ? {} : { file: e.file }),
      })),
      next_catalogs: report.nextCatalogs,
      errors: report.errors,
      unmapped_imports: report.unmappedImports,
      delegated_imports: report.delegatedImports,
    };
  },
});

interface CatalogPlan {
  readonly mappings: Map<string, string>;
  readonly skipped: Map<string, string>;
}

/** Each import IRI of the closure (or only the direct ones) with the local file satisfying it, and why the others are skipped. */
function planCatalog(ctx: ToolContext, directOnly: boolean): CatalogPlan {
  const ws = ctx.workspace;
  const graph = importGraph(ws.active, (iri) => ws.find(iri));
  const mappings = new Map<string, string>();
  const skipped = new Map<string, string>();
  const map = (name: string, file: string, via: string) => {
    const earlier = mappings.get(name);
    if (earlier === undefined) mappings.set(name, file);
    else if (earlier !== file) skipped.set(name, `satisfied by two local files (${earlier}, ${file} via <${via}>); the first is kept`);
  };
  for (const edge of graph.edges) {
    if (directOnly && !edge.direct) continue;
    const target = edge.target;
    if (target === null) {
      skipped.set(edge.import_iri, 'unresolved: no loaded ontology satisfies it');
      continue;
    }
    if (target.file === null) {
      skipped.set(
        edge.import_iri,
        `not a local file (${target.source_type} document${target.document_iri === null ? '' : ' ' + target.document_iri})`,
      );
      continue;
    }
    for (const name of [edge.import_iri, target.ontology_iri, target.version_iri])
      if (name !== null) map(name, target.file, edge.import_iri);
  }
  for (const name of mappings.keys()) skipped.delete(name);
  return { mappings, skipped };
}

/** The existing catalog at `file`, so entries for other names and delegations survive a rewrite; a malformed one refuses. */
async function existingCatalog(file: string): Promise<Catalog | null> {
  let text: string;
  try {
    text = await readRegularFile(file, 'catalog', 'utf8');
  } catch (err) {
    // ENOTDIR: a path component is a file, so there is no catalog there (the write then names the folder problem)
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw new ToolFailure(`Cannot read the existing catalog ${file}: ${(err as Error).message}; nothing was written`, 'io_error', {
      written: false,
    });
  }
  try {
    return parseCatalog(text, file);
  } catch (err) {
    throw new ToolFailure(
      `The existing catalog is malformed (${(err as Error).message}); fix or remove it first, nothing was written`,
      'catalog_invalid',
    );
  }
}

/** A reference kept from an existing catalog, relative to its folder when it is a local file. */
function keptUri(dir: string, resolved: string | null, written: string): string {
  return resolved !== null && resolved.startsWith('file:') ? relativeUri(dir, fileURLToPath(resolved)) : written;
}

export const writeCatalog = defineTool({
  name: 'write_catalog',
  description: 'Write catalog-v001.xml mapping each import IRI to its local file.',
  input: v.strictObject({
    path: v.optional(v.pipe(v.string(), v.nonEmpty())),
    direct_imports_only: v.optional(v.boolean(), false),
  }),
  output: v.object({
    catalog: v.string(),
    entries: AnyList,
    entry_count: v.number(),
    skipped: AnyList,
    preserved: v.optional(AnyObject),
  }),
  capabilities: ['ontology:admin', 'filesystem:project:write'],
  mutating: always,
  destructive: true,
  idempotent: true,
  summary: (args) => `write_catalog ${args.path ?? '(beside the active document)'}`,
  handler: async (args, ctx) => {
    const chosen =
      args.path !== undefined ? await catalogFile(args.path) : path.join(documentFolder(ctx, 'write_catalog'), CATALOG_FILE_NAME);
    const file = await authorizeLocalPath(ctx, 'write_catalog', chosen, 'write', { derived: args.path === undefined });
    const dir = path.dirname(file);
    const plan = planCatalog(ctx, args.direct_imports_only);
    const existing = await existingCatalog(file);
    const entries: CatalogMapping[] = [...plan.mappings].map(([name, target]) => ({ name, uri: relativeUri(dir, target) }));
    const kept: CatalogMapping[] = [];
    for (const e of existing?.entries ?? []) {
      if (plan.mappings.has(e.name) || kept.some((k) => k.name === e.name)) continue;
      kept.push({ name: e.name, uri: keptUri(dir, e.resolved, e.uri) });
    }
    const delegations = (existing?.nextCatalogs ?? []).map((c) => keptUri(dir, c, c));
    const xml = catalogXml([...entries, ...kept], delegations);
    ctx.signal.throwIfAborted();
    try {
      await writeFileAtomic(file, xml);
    } catch (err) {
      throw new ToolFailure(`Cannot write ${file}: ${(err as Error).message}`, 'io_error', { written: false });
    }
    const rows = [...entries, ...kept].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return {
      catalog: file,
      entries: rows,
      entry_count: rows.length,
      skipped: [...plan.skipped].sort(([a], [b]) => (a < b ? -1 : 1)).map(([iri, reason]) => ({ import: iri, reason })),
      // beyond TOOLS.md: what an existing catalog contributed, so a rewrite never hides kept entries
      ...(kept.length > 0 || delegations.length > 0 ? { preserved: { entries: kept.length, next_catalogs: delegations.length } } : {}),
    };
  },
});
