// The project's SSSOM mapping store (TOOLS.md 3.11): where it is, what it holds, and the one write protocol
// every mapping change goes through. Path: policy v2 `mappings.path` (an explicit path may only repeat it);
// policy v1, or v2 without a mappings block: an explicit path; no policy: an explicit path below the active
// document's directory, legacy mode only. Every path is authorized by the policy rules. A commit holds the
// store's lock (in-process queue plus the project lock file), compares `expected_mapping_revision` with the
// revision on disk, validates the resulting set, keeps a verified backup of what it replaces, and publishes
// atomically (a new store without ever overwriting one that appeared meanwhile).

import { constants } from 'node:fs';
import { link, mkdir, open, readFile, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { AuditMergeError, withProjectLock } from '../audit/merge.js';
import { expandTerm } from '../policy/curie.js';
import { denied } from '../policy/denial.js';
import { checkLocalPath } from '../policy/path-rules.js';
import { activeDocumentDir, isInside, realTarget, urlScheme } from '../policy/paths.js';
import type { PolicyResolution } from '../policy/resolution.js';
import { resolvePolicy } from '../policy/resolve.js';
import { DomainError } from '../util/errors.js';
import type { CallContext } from '../window/call-context.js';
import { syncDirectory, writeFileAtomic } from '../util/atomic-file.js';
import { sha256Digest } from '../util/digest.js';
import { EMPTY_DOCUMENT, type MappingDocument } from './document.js';
import { report, type FindingReport, type MappingFinding } from './finding.js';
import { MAX_STORE_BYTES, canonicalText, parseSssom } from './tsv.js';
import { validateDocument, type MappingPolicyRules, type ValidationContext } from './validate.js';

/** The revision of a store that does not exist yet: a valid empty state, distinct from an empty file. */
export const ABSENT_REVISION = sha256Digest('athene:sssom-mapping-store:absent');

export interface StoreLocation {
  /** The caller's `path`, if any. */
  readonly path?: string | undefined;
  readonly policyPath?: string | undefined;
}

export interface StoreTarget {
  /** Absolute path of the store (symlinks resolved under a policy). */
  readonly path: string;
  readonly resolution: PolicyResolution;
  /** Where relative caller paths (import sources, export destinations) resolve: the project root or the document's directory. */
  readonly base: string;
  readonly rules: MappingPolicyRules | undefined;
}

export interface StoreState {
  readonly path: string;
  readonly exists: boolean;
  /** The set; null when the file is not valid SSSOM/TSV (its problems are in `parseFindings`). */
  readonly document: MappingDocument | null;
  readonly parseFindings: readonly MappingFinding[];
  /** Digest of the canonical bytes (of the raw bytes when the file cannot be read as SSSOM). */
  readonly revision: string;
  readonly canonicalBytes: number;
  /** SHA-256 of the bytes on disk, to detect a writer outside the lock. */
  readonly rawDigest: string | null;
}

/** Policy rules with CURIEs expanded through the policy's own prefixes. */
function rulesOf(res: PolicyResolution): MappingPolicyRules | undefined {
  const policy = res.valid ? res.policy : null;
  if (policy === null || policy.version !== 2 || policy.mappings === undefined) return undefined;
  const expand = (values: readonly string[]) => values.map((v) => expandTerm(v, policy.prefixes) ?? v);
  return { allowedPredicates: expand(policy.mappings.allowed_predicates), allowedLicenses: [...policy.mappings.allowed_licenses] };
}

/** A caller path made absolute: relative paths resolve against `base` (the project root, or the document's directory). */
export function callerPath(value: string, base: string, argument: string): string {
  if (urlScheme(value) !== null)
    throw new DomainError(`${argument} must be a local file path (URL schemes are not accepted)`, 'invalid_argument', { argument });
  if (value.includes('\0')) throw new DomainError(`${argument} contains a NUL character`, 'invalid_argument', { argument });
  return path.resolve(base, value);
}

/** Finds and authorizes the store for reading (and writing) under the governing policy. */
export async function resolveStore(ctx: CallContext, tool: string, where: StoreLocation, mode: 'read' | 'write'): Promise<StoreTarget> {
  const res = await resolvePolicy(ctx, where.policyPath);
  if (res.loaded && !res.valid) {
    throw new DomainError(
      `${tool}: the project policy ${res.file} is invalid, so its mapping store cannot be used (get_project_policy lists its errors)`,
      'policy_invalid',
      { policy_path: res.file, policy_error_count: res.errors.length },
    );
  }
  const policy = res.valid ? res.policy : null;
  const docDir = activeDocumentDir(ctx);
  const base = res.projectRoot ?? docDir ?? process.cwd();
  let file: string;
  if (policy !== null && policy.version === 2 && policy.mappings !== undefined) {
    file = path.resolve(res.projectRoot!, policy.mappings.path);
    if (where.path !== undefined && (await realTarget(callerPath(where.path, base, 'path'))) !== (await realTarget(file))) {
      throw new DomainError(
        `path differs from the project policy's mappings.path ${file}; pass that path or omit path`,
        'policy_conflict',
        { path: callerPath(where.path, base, 'path'), policy_mappings_path: file, policy_path: res.file },
      );
    }
  } else {
    if (where.path === undefined) {
      const why =
        policy === null
          ? 'no project policy governs this workspace'
          : policy.version === 1
            ? 'the project policy is version 1'
            : 'the project policy declares no mappings.path';
      throw new DomainError(`${tool}: path is required (${why})`, 'invalid_argument', { argument: 'path' });
    }
    file = callerPath(where.path, base, 'path');
  }
  let authorized = await checkLocalPath(ctx, tool, file, 'read', res);
  if (mode === 'write') authorized = await checkLocalPath(ctx, tool, file, 'write', res);
  if (!res.loaded) {
    // without a policy the store must sit below the active document's directory (TOOLS.md 3.11)
    const dir = docDir === null ? null : await realTarget(docDir);
    if (dir === null || !isInside(dir, await realTarget(authorized))) {
      throw denied(
        `${tool}: without a project policy the mapping store must lie below the active document's directory${dir === null ? ' (the active ontology has no local document)' : ` ${dir}`}`,
        [],
        { path: authorized, path_mode: res.pathMode, denied_by: 'no policy: store outside the document directory' },
      );
    }
  }
  return { path: authorized, resolution: res, base, rules: rulesOf(res) };
}

/**
 * Reads a file as one bounded, stable snapshot: a regular file no larger than `max`, whose size and
 * modification time did not change while it was read. Null when it does not exist.
 */
export async function readSnapshot(file: string, max = MAX_STORE_BYTES): Promise<Uint8Array | null> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') throw new DomainError(`${file} is a symbolic link; pass the file it names`, 'invalid_argument', { path: file });
    throw new DomainError(`${file} cannot be read (${code ?? 'error'})`, 'io_error', { path: file });
  }
  try {
    const before = await handle.stat();
    if (!before.isFile()) throw new DomainError(`${file} is not a regular file`, 'invalid_argument', { path: file });
    if (before.size > max)
      throw new DomainError(`${file} is larger than ${max} bytes`, 'file_too_large', { path: file, bytes: before.size, max_bytes: max });
    const bytes = await handle.readFile();
    const after = await handle.stat();
    if (after.size !== before.size || after.mtimeMs !== before.mtimeMs || bytes.byteLength !== before.size) {
      throw new DomainError(`${file} changed while it was read; try again`, 'source_unstable', { path: file, retryable: true });
    }
    return bytes;
  } finally {
    await handle.close();
  }
}

/** The state of a store file (absent, malformed, or a set with its canonical revision). */
export function stateOf(file: string, bytes: Uint8Array | null): StoreState {
  if (bytes === null) {
    return {
      path: file,
      exists: false,
      document: EMPTY_DOCUMENT,
      parseFindings: [],
      revision: ABSENT_REVISION,
      canonicalBytes: 0,
      rawDigest: null,
    };
  }
  const rawDigest = sha256Digest(bytes);
  const parsed = parseSssom(bytes);
  if (!parsed.ok) {
    return {
      path: file,
      exists: true,
      document: null,
      parseFindings: parsed.findings,
      revision: rawDigest,
      canonicalBytes: bytes.byteLength,
      rawDigest,
    };
  }
  const text = canonicalText(parsed.document);
  return {
    path: file,
    exists: true,
    document: parsed.document,
    parseFindings: [],
    revision: sha256Digest(text),
    canonicalBytes: Buffer.byteLength(text, 'utf8'),
    rawDigest,
  };
}

/** Recently read stores by path: paging re-reads the file but parses it again only when its bytes changed. */
const recent = new Map<string, StoreState>();
const RECENT_STORES = 8;

export async function readState(file: string): Promise<StoreState> {
  const bytes = await readSnapshot(file);
  const hit = recent.get(file);
  if (bytes !== null && hit !== undefined && hit.rawDigest === sha256Digest(bytes)) return hit;
  const state = stateOf(file, bytes);
  recent.delete(file);
  if (bytes !== null) recent.set(file, state);
  if (recent.size > RECENT_STORES) recent.delete(recent.keys().next().value!);
  return state;
}

/** What the validator may consult: the loaded imports closure and the policy's rules. */
export function validationContext(ctx: CallContext, target: StoreTarget): ValidationContext {
  return {
    ...(ctx.workspace.hasActive ? { kindsOf: (iri: string) => ctx.resolver.kindsOf(iri) } : {}),
    ...(target.rules === undefined ? {} : { policy: target.rules }),
  };
}

const reports = new WeakMap<StoreState, { key: string; report: FindingReport }>();

/** The findings of a store: its structural problems, else the set's validation (an absent store has none). */
export function validateState(ctx: CallContext, target: StoreTarget, state: StoreState): FindingReport {
  if (state.document === null) return report(state.parseFindings);
  if (!state.exists) return report([]);
  // the findings depend on the set, the loaded closure (its members and the model revision) and the policy
  const key = JSON.stringify([
    ctx.workspace.id,
    ctx.workspace.revision,
    ctx.workspace.hasActive ? ctx.resolver.closure.map((o) => [o.id.iri, o.id.versionIri, o.documentIri]) : [],
    target.resolution.digest,
  ]);
  const cached = reports.get(state);
  if (cached?.key === key) return cached.report;
  const fresh = report(validateDocument(state.document, validationContext(ctx, target)));
  reports.set(state, { key, report: fresh });
  return fresh;
}

/** What `list_mappings` and `validate_mappings` report about the store itself. */
export function storeIdentity(state: StoreState, findings: FindingReport) {
  return {
    path: state.path,
    exists: state.exists,
    mapping_revision: state.revision,
    canonical_bytes: state.canonicalBytes,
    record_count: state.document?.records.length ?? 0,
    valid: findings.valid,
    error_count: findings.error_count,
    warning_count: findings.warning_count,
    findings_truncated: findings.findings_truncated,
  };
}

/** Reads the store a caller names, with its findings: the API other tools build on. */
export async function readStore(
  ctx: CallContext,
  tool: string,
  where: StoreLocation,
): Promise<{ target: StoreTarget; state: StoreState; findings: FindingReport }> {
  const target = await resolveStore(ctx, tool, where, 'read');
  const state = await readState(target.path);
  return { target, state, findings: validateState(ctx, target, state) };
}

// ---------------------------------------------------------------- writing

const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `body` alone for this store: queued behind this process's other writers in the same directory (the
 * lock file's scope), then under the project lock file, which keeps other processes out.
 */
async function withStoreLock<T>(file: string, body: () => Promise<T>): Promise<T> {
  const dir = path.dirname(file);
  const previous = queues.get(dir) ?? Promise.resolve();
  const run = previous
    .catch(() => undefined)
    .then(async () => {
      await mkdir(dir, { recursive: true });
      try {
        return await withProjectLock(dir, body);
      } catch (err) {
        if (err instanceof AuditMergeError && err.code === 'project_locked') {
          throw new DomainError(`another process is writing the mapping store ${file}; try again`, 'project_locked', {
            retryable: true,
            committed: false,
          });
        }
        throw err;
      }
    });
  queues.set(dir, run);
  try {
    return await run;
  } finally {
    if (queues.get(dir) === run) queues.delete(dir);
  }
}

/** Publishes a new file without ever replacing one: a synced temporary file hard-linked into place. */
export async function publishNew(target: string, data: string | Uint8Array): Promise<boolean> {
  const dir = path.dirname(target);
  const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(tmp, 'wx', 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(tmp, target);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await unlink(tmp).catch(() => undefined);
    await syncDirectory(dir);
  }
}

/** Writes `bytes` to `backup` atomically and reads them back: the backup is kept only when it verifies. */
export async function verifiedBackup(backup: string, bytes: Uint8Array): Promise<void> {
  await writeFileAtomic(backup, bytes);
  const again = await readFile(backup);
  if (sha256Digest(again) !== sha256Digest(bytes)) {
    throw new DomainError(`the backup ${backup} did not verify; nothing was replaced`, 'backup_failed', {
      backup_path: backup,
      committed: false,
    });
  }
}

/** The "mapping commit" result (TOOLS.md 3.11). */
export interface MappingCommit {
  readonly committed: boolean;
  readonly path: string;
  readonly previous_mapping_revision: string;
  readonly mapping_revision: string;
  readonly record_count: number;
  readonly bytes: number;
  readonly backup_path?: string;
  readonly valid: boolean;
  readonly error_count: number;
  readonly warning_count: number;
  readonly findings_truncated: boolean;
}

export function revisionConflict(path: string, expected: string, actual: string): DomainError {
  return new DomainError(
    `the mapping store changed: expected_mapping_revision ${expected} is not the current ${actual}; nothing was written`,
    'mapping_revision_conflict',
    { path, expected_mapping_revision: expected, mapping_revision: actual, committed: false },
  );
}

/** A commit's change: the new set from the current state (throw a DomainError to refuse). */
export type MappingChange = (current: StoreState) => MappingDocument;

/** The set a change builds on; a malformed store can only be replaced whole. */
export function requireDocument(state: StoreState): MappingDocument {
  if (state.document !== null) return state.document;
  throw new DomainError(
    `the mapping store ${state.path} is not valid SSSOM/TSV (validate_mappings lists why); replace it with import_sssom mode=replace`,
    'store_invalid',
    { path: state.path, error_count: state.parseFindings.length, committed: false },
  );
}

const BACKUP_SUFFIX = '.bak';

/**
 * The write protocol: lock, compare revisions, change, validate, back up, publish. A resulting set with
 * validation errors is refused (`mappings_invalid`, nothing written) with its first findings.
 */
export async function commitMappings(
  ctx: CallContext,
  tool: string,
  target: StoreTarget,
  expectedRevision: string,
  change: MappingChange,
): Promise<MappingCommit> {
  const backup = target.path + BACKUP_SUFFIX;
  return withStoreLock(target.path, async () => {
    const current = await readState(target.path);
    if (current.revision !== expectedRevision) throw revisionConflict(target.path, expectedRevision, current.revision);
    const next = change(current);
    const findings = report(validateDocument(next, validationContext(ctx, target)));
    if (!findings.valid) {
      throw new DomainError(
        `the resulting mapping set has ${findings.error_count} validation error(s); nothing was written`,
        'mappings_invalid',
        {
          path: target.path,
          committed: false,
          error_count: findings.error_count,
          warning_count: findings.warning_count,
          findings: findings.findings.filter((f) => f.severity === 'error').slice(0, 20),
        },
      );
    }
    const text = canonicalText(next);
    const revision = sha256Digest(text);
    const result = {
      path: target.path,
      previous_mapping_revision: current.revision,
      mapping_revision: revision,
      record_count: next.records.length,
      bytes: Buffer.byteLength(text, 'utf8'),
      valid: true,
      error_count: 0,
      warning_count: findings.warning_count,
      findings_truncated: findings.findings_truncated,
    };
    if (current.rawDigest === sha256Digest(text)) return { committed: true, ...result };
    ctx.signal.throwIfAborted();
    if (!current.exists) {
      if (!(await publishNew(target.path, text)))
        throw revisionConflict(target.path, expectedRevision, (await readState(target.path)).revision);
      return { committed: true, ...result };
    }
    await checkLocalPath(ctx, tool, backup, 'write', target.resolution);
    const bytes = await readSnapshot(target.path);
    if (bytes === null || sha256Digest(bytes) !== current.rawDigest) {
      throw revisionConflict(target.path, expectedRevision, (await readState(target.path)).revision);
    }
    await verifiedBackup(backup, bytes);
    await writeFileAtomic(target.path, text);
    return { committed: true, ...result, backup_path: backup };
  });
}
