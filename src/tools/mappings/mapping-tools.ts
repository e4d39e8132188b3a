// SSSOM mapping tools (TOOLS.md 3.11): list_mappings, add_mapping, remove_mapping, import_sssom,
// export_sssom and validate_mappings over the project's mapping store (src/mappings). Listings page with
// cursors bound to the store's revision; every write is a compare-and-swap on expected_mapping_revision
// and needs confirm=true.

import * as v from 'valibot';
import { addMapping, exportSssom, importSssom, removeMapping } from '../../mappings/commands.js';
import { decodeCursor, encodeCursor, type CursorBinding } from '../../mappings/cursor.js';
import { readStore, storeIdentity, type StoreLocation } from '../../mappings/store.js';
import { defineTool, always, never } from '../core/tool.js';
import { AnyList } from '../core/result-shapes.js';

const text = (max: number) => v.pipe(v.string(), v.minLength(1), v.maxLength(max));

const StoreArgs = {
  path: v.optional(v.pipe(text(4096), v.description('SSSOM/TSV store; required without a v2 policy.'))),
  policy_path: v.optional(text(4096)),
};

const PageArgs = {
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200)), 50),
  cursor: v.optional(text(4096)),
};

const revision = v.pipe(v.string(), v.regex(/^sha256:[0-9a-f]{64}$/, 'a sha256: digest'), v.description('From list_mappings.'));
const confirm = v.literal(true);
const iri = v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(2048)));

const where = (args: { path?: string | undefined; policy_path?: string | undefined }): StoreLocation => ({
  path: args.path,
  policyPath: args.policy_path,
});

const WRITE = ['ontology:curate', 'filesystem:project:read', 'filesystem:project:write'] as const;
const COMMITTED_FALSE = { committed: false };

/** The store as read: where, its revision and size, and its findings' counts. */
const StoreOutput = {
  path: v.string(),
  exists: v.boolean(),
  mapping_revision: v.string(),
  canonical_bytes: v.number(),
  record_count: v.number(),
  valid: v.boolean(),
  error_count: v.number(),
  warning_count: v.number(),
  findings_truncated: v.boolean(),
};
const PageOutput = { returned: v.number(), next_cursor: v.optional(v.string()) };

/** A committed write of the store. */
const CommitOutput = {
  committed: v.boolean(),
  path: v.string(),
  previous_mapping_revision: v.string(),
  mapping_revision: v.string(),
  record_count: v.number(),
  bytes: v.number(),
  backup_path: v.optional(v.string()),
  valid: v.boolean(),
  error_count: v.number(),
  warning_count: v.number(),
  findings_truncated: v.boolean(),
};

/** Bytes of items one page may carry (TOOLS.md 3.11: a 1 MiB page budget may end a page early). */
const PAGE_BUDGET = 1024 * 1024;

/** One page of `items` from `offset`: at most `limit`, within the byte budget, never empty when any remain. */
function page<T>(
  items: readonly T[],
  offset: number,
  limit: number,
  binding: CursorBinding,
): { items: T[]; returned: number; next_cursor?: string } {
  const out: T[] = [];
  let bytes = 0;
  for (const item of items.slice(offset)) {
    if (out.length >= limit) break;
    const size = Buffer.byteLength(JSON.stringify(item), 'utf8');
    if (out.length > 0 && bytes + size > PAGE_BUDGET) break;
    out.push(item);
    bytes += size;
  }
  const next = offset + out.length;
  return { items: out, returned: out.length, ...(next < items.length ? { next_cursor: encodeCursor(binding, next) } : {}) };
}

export const listMappings = defineTool({
  name: 'list_mappings',
  description: "The project's SSSOM mappings and the store's mapping_revision.",
  input: v.strictObject({ ...StoreArgs, ...PageArgs }),
  output: v.object({ ...StoreOutput, items: AnyList, ...PageOutput }),
  capabilities: ['ontology:read', 'filesystem:project:read'],
  mutating: never,
  handler: async (args, ctx) => {
    const { state, findings } = await readStore(ctx, 'list_mappings', where(args));
    const binding = { kind: 'list_mappings', scope: JSON.stringify([state.path, state.revision]) };
    const offset = args.cursor === undefined ? 0 : decodeCursor(args.cursor, binding);
    const rows = (state.document?.records ?? []).map((r) => ({
      mapping_id: r.mapping_id,
      subject_id: r.cells.subject_id ?? null,
      predicate_id: r.cells.predicate_id ?? null,
      object_id: r.cells.object_id ?? null,
      cells: r.cells,
    }));
    return { ...storeIdentity(state, findings), ...page(rows, offset, args.limit, binding) };
  },
});

export const validateMappings = defineTool({
  name: 'validate_mappings',
  description: 'Validate the mapping store against SSSOM, the policy and the ontology.',
  input: v.strictObject({ ...StoreArgs, ...PageArgs }),
  output: v.object({ ...StoreOutput, findings: AnyList, ...PageOutput }),
  capabilities: ['ontology:read', 'filesystem:project:read'],
  mutating: never,
  handler: async (args, ctx) => {
    const { target, state, findings } = await readStore(ctx, 'validate_mappings', where(args));
    // the findings also depend on the loaded ontology and the policy, so the cursor is bound to them too
    const ws = ctx.workspace;
    const binding = {
      kind: 'validate_mappings',
      scope: JSON.stringify([state.path, state.revision, ws.id, ws.revision, target.resolution.digest]),
    };
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
    mapping: v.record(v.pipe(v.string(), v.minLength(1), v.maxLength(64)), v.string()),
    mapping_set_id: v.pipe(iri, v.description('Required on the first add.')),
    license: v.pipe(iri, v.description('Required on the first add.')),
    prefix_map: v.optional(
      v.pipe(
        v.record(v.pipe(v.string(), v.minLength(1), v.maxLength(64)), v.pipe(v.string(), v.maxLength(2048))),
        v.description("Added to the set's curie_map."),
      ),
    ),
    ...StoreArgs,
    confirm,
  }),
  output: v.object({ ...CommitOutput, mapping_id: v.string() }),
  capabilities: WRITE,
  mutating: always,
  summary: (args) => `add_mapping ${args.mapping.subject_id ?? '?'} ${args.mapping.predicate_id ?? '?'} ${args.mapping.object_id ?? '?'}`,
  refusalContext: COMMITTED_FALSE,
  handler: async (args, ctx) => ({
    ...(await addMapping(ctx, 'add_mapping', where(args), args.expected_mapping_revision, {
      cells: args.mapping,
      mapping_set_id: args.mapping_set_id,
      license: args.license,
      prefix_map: args.prefix_map,
    })),
  }),
});

export const removeMappingTool = defineTool({
  name: 'remove_mapping',
  description: 'Remove one mapping by mapping_id.',
  input: v.strictObject({
    expected_mapping_revision: revision,
    mapping_id: text(128),
    ...StoreArgs,
    confirm,
  }),
  output: v.object(CommitOutput),
  capabilities: WRITE,
  mutating: always,
  destructive: true,
  summary: (args) => `remove_mapping ${args.mapping_id}`,
  refusalContext: COMMITTED_FALSE,
  handler: async (args, ctx) => ({
    ...(await removeMapping(ctx, 'remove_mapping', where(args), args.expected_mapping_revision, args.mapping_id)),
  }),
});

export const importSssomTool = defineTool({
  name: 'import_sssom',
  description: 'Replace or merge the mapping store from an SSSOM/TSV file.',
  input: v.strictObject({
    expected_mapping_revision: revision,
    source: text(4096),
    mode: v.picklist(['replace', 'merge']),
    ...StoreArgs,
    confirm,
  }),
  output: v.object({
    ...CommitOutput,
    mode: v.picklist(['replace', 'merge']),
    source: v.string(),
    source_records: v.number(),
    added: v.optional(v.number()),
    updated: v.optional(v.number()),
    unchanged: v.optional(v.number()),
  }),
  capabilities: WRITE,
  mutating: always,
  destructive: true,
  summary: (args) => `import_sssom ${args.mode} from ${args.source}`,
  refusalContext: COMMITTED_FALSE,
  handler: async (args, ctx) => ({
    ...(await importSssom(ctx, 'import_sssom', where(args), args.expected_mapping_revision, args.source, args.mode)),
  }),
});

export const exportSssomTool = defineTool({
  name: 'export_sssom',
  description: 'Write the mapping store as SSSOM/TSV to a project path.',
  input: v.strictObject({
    expected_mapping_revision: revision,
    destination: text(4096),
    overwrite: v.optional(v.pipe(v.boolean(), v.description('Needs expected_target_digest.')), false),
    expected_target_digest: v.optional(v.pipe(v.string(), v.regex(/^sha256:[0-9a-f]{64}$/, 'a sha256: digest'))),
    spreadsheet_safe: v.optional(v.pipe(v.boolean(), v.description('Escape formula-like cells.')), false),
    ...StoreArgs,
    confirm,
  }),
  output: v.object({
    committed: v.boolean(),
    path: v.string(),
    mapping_revision: v.string(),
    sha256: v.string(),
    bytes: v.number(),
    backup_path: v.optional(v.string()),
    spreadsheet_safe: v.boolean(),
    lossless: v.boolean(),
  }),
  capabilities: ['ontology:read', 'filesystem:project:read', 'filesystem:project:write'],
  mutating: always,
  destructive: true,
  summary: (args) => `export_sssom to ${args.destination}${args.overwrite ? ' (overwrite)' : ''}`,
  refusalContext: COMMITTED_FALSE,
  handler: async (args, ctx) => ({
    ...(await exportSssom(ctx, 'export_sssom', where(args), {
      expectedRevision: args.expected_mapping_revision,
      destination: args.destination,
      overwrite: args.overwrite,
      expectedTargetDigest: args.expected_target_digest,
      spreadsheetSafe: args.spreadsheet_safe,
    })),
  }),
});
