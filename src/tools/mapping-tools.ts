// SSSOM mapping tools (TOOLS.md 3.11): list_mappings, add_mapping, remove_mapping, import_sssom,
// export_sssom and validate_mappings over the project's mapping store (src/mappings). Listings page with
// cursors bound to the store's revision; every write is a compare-and-swap on expected_mapping_revision
// and needs confirm=true.

import * as v from 'valibot';
import { addMapping, exportSssom, importSssom, removeMapping } from '../mappings/commands.js';
import { decodeCursor, encodeCursor, type CursorBinding } from '../mappings/cursor.js';
import { readStore, storeIdentity, type StoreLocation } from '../mappings/store.js';
import { defineTool, always, never, type JsonObject } from './tool.js';

const text = (max: number, what: string) => v.pipe(v.string(), v.minLength(1), v.maxLength(max), v.description(what));

const StoreArgs = {
  path: v.optional(text(4096, 'Mapping store (SSSOM/TSV). Policy v2: may only repeat mappings.path; policy v1: required; no policy: required, below the active document\'s directory.')),
  policy_path: v.optional(text(4096, 'Explicit project-policy file.')),
};

const PageArgs = {
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200), v.description('Items per page (1-200, default 50).')), 50),
  cursor: v.optional(text(4096, 'next_cursor of the previous page (bound to the store revision).')),
};

const revision = v.pipe(v.string(), v.regex(/^sha256:[0-9a-f]{64}$/, 'a sha256: digest'),
  v.description('The mapping_revision this write expects (list_mappings reports it; an absent store has its own).'));
const confirm = v.pipe(v.literal(true), v.description('Must be true: this call writes a project file.'));
const iri = (what: string) => v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(2048), v.description(what)));

const where = (args: { path?: string; policy_path?: string }): StoreLocation => ({ path: args.path, policyPath: args.policy_path });

const WRITE = ['ontology:curate', 'filesystem:project:read', 'filesystem:project:write'] as const;
const COMMITTED_FALSE = { committed: false };

/** Bytes of items one page may carry (TOOLS.md 3.11: a 1 MiB page budget may end a page early). */
const PAGE_BUDGET = 1024 * 1024;

/** One page of `items` from `offset`: at most `limit`, within the byte budget, never empty when any remain. */
function page<T>(items: readonly T[], offset: number, limit: number, binding: CursorBinding): { items: T[]; returned: number; next_cursor?: string } {
  const out: T[] = [];
  let bytes = 0;
  for (let i = offset; i < items.length && out.length < limit; i++) {
    const size = Buffer.byteLength(JSON.stringify(items[i]), 'utf8');
    if (out.length > 0 && bytes + size > PAGE_BUDGET) break;
    out.push(items[i]);
    bytes += size;
  }
  const next = offset + out.length;
  return { items: out, returned: out.length, ...(next < items.length ? { next_cursor: encodeCursor(binding, next) } : {}) };
}

export const listMappings = defineTool({
  name: 'list_mappings',
  description: 'The project\'s SSSOM mappings and the store\'s mapping_revision.',
  input: v.strictObject({ ...StoreArgs, ...PageArgs }),
  capabilities: ['ontology:read', 'filesystem:project:read'],
  mutating: never,
  handler: async (args, ctx): Promise<JsonObject> => {
    const { state, findings } = await readStore(ctx, 'list_mappings', where(args));
    const binding = { kind: 'list_mappings', scope: JSON.stringify([state.path, state.revision]) };
    const offset = args.cursor === undefined ? 0 : decodeCursor(args.cursor, binding);
    const rows = (state.document?.records ?? []).map((r) => ({
      mapping_id: r.mapping_id, subject_id: r.cells.subject_id ?? null, predicate_id: r.cells.predicate_id ?? null, object_id: r.cells.object_id ?? null, cells: r.cells,
    }));
    return { ...storeIdentity(state, findings), ...page(rows, offset, args.limit, binding) };
  },
});

export const validateMappings = defineTool({
  name: 'validate_mappings',
  description: 'Validate the mapping store against SSSOM, the policy and the ontology.',
  input: v.strictObject({ ...StoreArgs, ...PageArgs }),
  capabilities: ['ontology:read', 'filesystem:project:read'],
  mutating: never,
  handler: async (args, ctx): Promise<JsonObject> => {
    const { target, state, findings } = await readStore(ctx, 'validate_mappings', where(args));
    // the findings also depend on the loaded ontology and the policy, so the cursor is bound to them too
    const ws = ctx.workspace;
    const binding = { kind: 'validate_mappings', scope: JSON.stringify([state.path, state.revision, ws.id, ws.revision, target.resolution.digest]) };
    const offset = args.cursor === undefined ? 0 : decodeCursor(args.cursor, binding);
    const { items, ...rest } = page(findings.findings, offset, args.limit, binding);
    return { ...storeIdentity(state, findings), findings: items, ...rest };
  },
});

export const addMappingTool = defineTool({
  name: 'add_mapping',
  description: 'Add one SSSOM mapping row.',
  input: v.strictObject({
    expected_mapping_revision: revision,
    mapping: v.pipe(v.record(v.pipe(v.string(), v.minLength(1), v.maxLength(64)), v.string()), v.description('SSSOM cells by column name.')),
    mapping_set_id: iri('Absolute IRI of the mapping set (required on the first add).'),
    license: iri('Absolute IRI of the set\'s license (required on the first add).'),
    prefix_map: v.optional(v.pipe(v.record(v.pipe(v.string(), v.minLength(1), v.maxLength(64)), v.pipe(v.string(), v.maxLength(2048))),
      v.description('CURIE prefixes to add to the set\'s curie_map (a prefix may not be rebound).'))),
    ...StoreArgs,
    confirm,
  }),
  capabilities: WRITE,
  mutating: always,
  summary: (args) => `add_mapping ${args.mapping.subject_id ?? '?'} ${args.mapping.predicate_id ?? '?'} ${args.mapping.object_id ?? '?'}`,
  refusalContext: COMMITTED_FALSE,
  handler: async (args, ctx): Promise<JsonObject> => ({
    ...await addMapping(ctx, 'add_mapping', where(args), args.expected_mapping_revision, {
      cells: args.mapping, mapping_set_id: args.mapping_set_id, license: args.license, prefix_map: args.prefix_map,
    }),
  }),
});

export const removeMappingTool = defineTool({
  name: 'remove_mapping',
  description: 'Remove one mapping by mapping_id.',
  input: v.strictObject({
    expected_mapping_revision: revision,
    mapping_id: text(128, 'The mapping to remove.'),
    ...StoreArgs,
    confirm,
  }),
  capabilities: WRITE,
  mutating: always,
  destructive: true,
  summary: (args) => `remove_mapping ${args.mapping_id}`,
  refusalContext: COMMITTED_FALSE,
  handler: async (args, ctx): Promise<JsonObject> => ({ ...await removeMapping(ctx, 'remove_mapping', where(args), args.expected_mapping_revision, args.mapping_id) }),
});

export const importSssomTool = defineTool({
  name: 'import_sssom',
  description: 'Replace or merge the mapping store from an SSSOM/TSV file.',
  input: v.strictObject({
    expected_mapping_revision: revision,
    source: text(4096, 'The SSSOM/TSV file to import (relative paths: the project root).'),
    mode: v.pipe(v.picklist(['replace', 'merge']), v.description('replace the store, or merge by mapping_id.')),
    ...StoreArgs,
    confirm,
  }),
  capabilities: WRITE,
  mutating: always,
  destructive: true,
  summary: (args) => `import_sssom ${args.mode} from ${args.source}`,
  refusalContext: COMMITTED_FALSE,
  handler: async (args, ctx): Promise<JsonObject> => ({ ...await importSssom(ctx, 'import_sssom', where(args), args.expected_mapping_revision, args.source, args.mode) }),
});

export const exportSssomTool = defineTool({
  name: 'export_sssom',
  description: 'Write the mapping store as SSSOM/TSV to a project path.',
  input: v.strictObject({
    expected_mapping_revision: revision,
    destination: text(4096, 'Where to write (relative paths: the project root).'),
    overwrite: v.optional(v.pipe(v.boolean(), v.description('Replace an existing file (needs expected_target_digest).')), false),
    expected_target_digest: v.optional(v.pipe(v.string(), v.regex(/^sha256:[0-9a-f]{64}$/, 'a sha256: digest'), v.description('sha256 of the file being replaced.'))),
    spreadsheet_safe: v.optional(v.pipe(v.boolean(), v.description('Prefix cells starting with = + - @ so spreadsheets do not run them.')), false),
    ...StoreArgs,
    confirm,
  }),
  capabilities: ['ontology:read', 'filesystem:project:read', 'filesystem:project:write'],
  mutating: always,
  destructive: true,
  summary: (args) => `export_sssom to ${args.destination}${args.overwrite ? ' (overwrite)' : ''}`,
  refusalContext: COMMITTED_FALSE,
  handler: async (args, ctx): Promise<JsonObject> => ({
    ...await exportSssom(ctx, 'export_sssom', where(args), {
      expectedRevision: args.expected_mapping_revision, destination: args.destination, overwrite: args.overwrite,
      expectedTargetDigest: args.expected_target_digest, spreadsheetSafe: args.spreadsheet_safe,
    }),
  }),
});
