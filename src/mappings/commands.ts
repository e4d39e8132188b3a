// The mapping store's operations as plain functions of a tool context and arguments: what the six mapping
// tools run, and what other tools (accepting a reuse proposal adds a mapping) call to change the store
// through the same protocol.

import { stat } from 'node:fs/promises';
import path from 'node:path';
import { checkLocalPath } from '../policy/path-rules.js';
import { realTarget } from '../policy/paths.js';
import { DomainError, type ErrorCode } from '../util/errors.js';
import type { CallContext } from '../window/call-context.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { sha256Digest } from '../util/digest.js';
import { mergeDocuments, withAddedMapping, withoutMapping, type NewMapping } from './edits.js';
import { compareFindings } from './finding.js';
import {
  callerPath,
  commitMappings,
  publishNew,
  readSnapshot,
  readState,
  requireDocument,
  resolveStore,
  revisionConflict,
  verifiedBackup,
  type MappingCommit,
  type StoreLocation,
} from './store.js';
import { parseSssom, serializeSssom } from './tsv.js';

/** Adds one mapping; the result names the id it was stored under. */
export async function addMapping(
  ctx: CallContext,
  tool: string,
  where: StoreLocation,
  expectedRevision: string,
  mapping: NewMapping,
): Promise<MappingCommit & { mapping_id: string }> {
  const target = await resolveStore(ctx, tool, where, 'write');
  let id = '';
  const commit = await commitMappings(ctx, tool, target, expectedRevision, (current) => {
    const added = withAddedMapping(requireDocument(current), current.exists, mapping);
    id = added.record.mapping_id;
    return added.document;
  });
  return { ...commit, mapping_id: id };
}

export async function removeMapping(
  ctx: CallContext,
  tool: string,
  where: StoreLocation,
  expectedRevision: string,
  mappingId: string,
): Promise<MappingCommit> {
  const target = await resolveStore(ctx, tool, where, 'write');
  return commitMappings(ctx, tool, target, expectedRevision, (current) => withoutMapping(requireDocument(current), mappingId));
}

export interface ImportOutcome extends MappingCommit {
  readonly mode: 'replace' | 'merge';
  readonly source: string;
  readonly source_records: number;
  readonly added?: number;
  readonly updated?: number;
  readonly unchanged?: number;
}

/** Reads a project-confined SSSOM/TSV file and replaces the store with it, or merges it in by mapping id. */
export async function importSssom(
  ctx: CallContext,
  tool: string,
  where: StoreLocation,
  expectedRevision: string,
  source: string,
  mode: 'replace' | 'merge',
): Promise<ImportOutcome> {
  const target = await resolveStore(ctx, tool, where, 'write');
  const file = await checkLocalPath(ctx, tool, callerPath(source, target.base, 'source'), 'read', target.resolution);
  const bytes = await readSnapshot(file);
  if (bytes === null) throw new DomainError(`source ${file} does not exist`, 'source_not_found', { source: file, committed: false });
  const parsed = parseSssom(bytes);
  if (!parsed.ok) {
    throw new DomainError(
      `source ${file} is not valid SSSOM/TSV (${parsed.findings.length} problem(s)); nothing was imported`,
      'sssom_invalid',
      {
        source: file,
        committed: false,
        error_count: parsed.findings.length,
        findings: [...parsed.findings].sort(compareFindings).slice(0, 20),
      },
    );
  }
  const incoming = parsed.document;
  let counts = {};
  const commit = await commitMappings(ctx, tool, target, expectedRevision, (current) => {
    if (mode === 'replace') return incoming;
    const merged = mergeDocuments(requireDocument(current), incoming);
    counts = { added: merged.added, updated: merged.updated, unchanged: merged.unchanged };
    return merged.document;
  });
  return { ...commit, mode, source: file, source_records: incoming.records.length, ...counts };
}

export interface ExportRequest {
  readonly expectedRevision: string;
  readonly destination: string;
  readonly overwrite: boolean;
  readonly expectedTargetDigest?: string | undefined;
  readonly spreadsheetSafe: boolean;
}

export interface ExportOutcome {
  readonly committed: true;
  readonly path: string;
  readonly mapping_revision: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly backup_path?: string;
  readonly spreadsheet_safe: boolean;
  readonly lossless: boolean;
}

const refused = (message: string, code: ErrorCode, context: Record<string, unknown> = {}) =>
  new DomainError(message, code, { committed: false, ...context });

/** Writes the store's canonical bytes (or a spreadsheet-safe rendering) to a destination whose parent exists. */
export async function exportSssom(ctx: CallContext, tool: string, where: StoreLocation, request: ExportRequest): Promise<ExportOutcome> {
  const target = await resolveStore(ctx, tool, where, 'read');
  const wanted = callerPath(request.destination, target.base, 'destination');
  await checkLocalPath(ctx, tool, wanted, 'read', target.resolution);
  const destination = await checkLocalPath(ctx, tool, wanted, 'write', target.resolution);
  if ((await realTarget(destination)) === (await realTarget(target.path))) {
    throw refused('destination is the mapping store itself; export writes a copy elsewhere', 'invalid_argument', {
      argument: 'destination',
    });
  }
  const state = await readState(target.path);
  if (state.revision !== request.expectedRevision) throw revisionConflict(target.path, request.expectedRevision, state.revision);
  if (!state.exists)
    throw refused(`the mapping store ${target.path} does not exist yet; nothing to export`, 'store_absent', { path: target.path });
  const document = requireDocument(state);
  const parent = path.dirname(destination);
  if (
    !(await stat(parent).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  ) {
    throw refused(`the destination's directory ${parent} does not exist (export never creates it)`, 'destination_parent_missing', {
      path: destination,
    });
  }
  const { text, altered } = serializeSssom(document, { spreadsheetSafe: request.spreadsheetSafe });
  const result = {
    committed: true as const,
    path: destination,
    mapping_revision: state.revision,
    sha256: sha256Digest(text),
    bytes: Buffer.byteLength(text, 'utf8'),
    spreadsheet_safe: request.spreadsheetSafe,
    lossless: altered === 0,
  };
  ctx.signal.throwIfAborted();
  const existing = await readSnapshot(destination);
  if (existing === null) {
    if (await publishNew(destination, text)) return result;
    throw refused(`${destination} appeared while exporting; pass overwrite with its expected_target_digest`, 'target_exists', {
      path: destination,
    });
  }
  const digest = sha256Digest(existing);
  if (!request.overwrite)
    throw refused(`${destination} exists; pass overwrite=true with expected_target_digest ${digest}`, 'target_exists', {
      path: destination,
      target_digest: digest,
    });
  if (request.expectedTargetDigest === undefined) {
    throw refused(
      'overwrite of an existing file needs expected_target_digest (the sha256 of the file you mean to replace)',
      'invalid_argument',
      { argument: 'expected_target_digest', target_digest: digest },
    );
  }
  if (request.expectedTargetDigest !== digest) {
    throw refused(`${destination} is not the file you meant to replace (its digest is ${digest})`, 'target_digest_mismatch', {
      path: destination,
      expected_target_digest: request.expectedTargetDigest,
      target_digest: digest,
    });
  }
  const backup = await checkLocalPath(ctx, tool, destination + '.bak', 'write', target.resolution);
  await verifiedBackup(backup, existing);
  await writeFileAtomic(destination, text);
  return { ...result, backup_path: backup };
}
