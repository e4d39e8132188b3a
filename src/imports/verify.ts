// Offline verification of a version-1 import lock against a loaded closure (verify_import_lock, lock_mode):
// strict parse, every locked document confined below the lock's directory, checksums recomputed from the
// files, and the full coordinate set compared: what the closure has and the lock lacks (missing), what the
// lock has and the closure lacks (extra), and what differs field by field (mismatched).

import { realpath } from 'node:fs/promises';
import { openRegularFile } from '../util/file-read.js';
import path from 'node:path';
import { importedNodes, missingEdges, type ClosureNode, type ImportGraph } from './closure.js';
import { isBelow, lockRelative, readLockedDocument } from './lock-documents.js';
import { LockParseError, MAX_LOCK_BYTES, compareEntries, parseLock, type ImportLock, type LockEntry } from './lockfile.js';
import { sha256Digest } from '../util/digest.js';

export interface MissingEntry {
  readonly ontology_iri: string;
  readonly version_iri: string | null;
  /** Lock-relative path of the loaded document, or its real path when it is not below the lock directory. */
  readonly path: string | null;
  readonly direct: boolean;
}

export type LockField = 'version_iri' | 'path' | 'direct' | 'sha256';

export interface MismatchedEntry {
  readonly ontology_iri: string;
  readonly field: LockField;
  /** What the lock says. */
  readonly locked: string | boolean | null;
  /** What the closure or the file on disk has (null: the document could not be read). */
  readonly actual: string | boolean | null;
}

export interface LockVerification {
  readonly valid: boolean;
  readonly path: string;
  /** Entries of the lock, or 0 when it could not be parsed. */
  readonly entry_count: number;
  /** Digest of the lock file's bytes, or null when it could not be read. */
  readonly sha256: string | null;
  readonly errors: readonly string[];
  readonly missing_entries: readonly MissingEntry[];
  readonly extra_entries: readonly LockEntry[];
  readonly mismatched_entries: readonly MismatchedEntry[];
}

const FIELD_ORDER: readonly LockField[] = ['version_iri', 'path', 'direct', 'sha256'];

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Reads at most MAX_LOCK_BYTES + 1 bytes, so an oversized file is refused without reading it whole. */
async function readBounded(file: string): Promise<Uint8Array> {
  const { handle } = await openRegularFile(file, 'catalog');
  try {
    const buffer = Buffer.alloc(MAX_LOCK_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === buffer.length) break;
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

function failed(file: string, error: string, entryCount = 0, sha256: string | null = null): LockVerification {
  return {
    valid: false,
    path: file,
    entry_count: entryCount,
    sha256,
    errors: [error],
    missing_entries: [],
    extra_entries: [],
    mismatched_entries: [],
  };
}

/** The real path of a closure member's document, or null when it has no local file or it cannot be resolved. */
async function realDocument(n: ClosureNode): Promise<string | null> {
  if (n.file === null) return null;
  return realpath(n.file).catch(() => null);
}

/** Verifies the lock file `file` (absolute) against the imports of `graph`. */
export async function verifyLock(file: string, graph: ImportGraph): Promise<LockVerification> {
  let bytes: Uint8Array;
  try {
    bytes = await readBounded(file);
  } catch (err) {
    return failed(file, `cannot read the lockfile ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const digest = bytes.byteLength > MAX_LOCK_BYTES ? null : sha256Digest(bytes);
  let lock: ImportLock;
  try {
    lock = parseLock(bytes);
  } catch (err) {
    if (err instanceof LockParseError) return failed(file, err.message, 0, digest);
    throw err;
  }
  const lockDir = await realpath(path.dirname(file));
  return compareLock(file, lockDir, lock, digest, graph);
}

/** Compares a parsed lock with the closure; `lockDir` is the real lock directory. */
async function compareLock(
  file: string,
  lockDir: string,
  lock: ImportLock,
  digest: string | null,
  graph: ImportGraph,
): Promise<LockVerification> {
  const errors: string[] = [];
  const missing: MissingEntry[] = [];
  const extra: LockEntry[] = [];
  const mismatched: MismatchedEntry[] = [];
  for (const e of missingEdges(graph))
    errors.push(`import ${e.import_iri} declared by ${e.source.ref} is not resolved in the loaded closure`);
  const members = new Map<string, ClosureNode>();
  for (const n of importedNodes(graph)) {
    if (n.ontology_iri === null) errors.push(`${n.ref} has no ontology IRI and cannot be locked`);
    else if (n.file === null)
      errors.push(`${n.ref} is not loaded from a local document (${n.source_type}); a lock covers only local documents`);
    else members.set(n.ontology_iri, n);
  }
  const locked = new Set<string>();
  for (const entry of [...lock.imports].sort(compareEntries)) {
    locked.add(entry.ontology_iri);
    const doc = await readLockedDocument(lockDir, path.join(lockDir, ...entry.path.split('/')));
    const actualSha = doc.ok ? doc.sha256 : null;
    if (!doc.ok)
      errors.push(
        `entry ${entry.ontology_iri}: ${doc.problem === 'outside_lock_directory' ? `${entry.path} resolves outside the lock directory (${doc.detail})` : `document ${entry.path} ${doc.problem} (${doc.detail})`}`,
      );
    const member = members.get(entry.ontology_iri);
    if (member === undefined) {
      extra.push(entry);
      continue;
    }
    const real = await realDocument(member);
    const actualPath = real === null ? null : isBelow(lockDir, real) ? lockRelative(lockDir, real) : real;
    const samePath = real !== null && doc.real === real;
    const differences: [LockField, string | boolean | null, string | boolean | null, boolean][] = [
      ['version_iri', entry.version_iri, member.version_iri, entry.version_iri === member.version_iri],
      ['path', entry.path, actualPath, samePath],
      ['direct', entry.direct, member.role === 'direct', entry.direct === (member.role === 'direct')],
      ['sha256', entry.sha256, actualSha, entry.sha256 === actualSha],
    ];
    for (const [field, lockedValue, actual, same] of differences) {
      if (!same) mismatched.push({ ontology_iri: entry.ontology_iri, field, locked: lockedValue, actual });
    }
  }
  for (const [iri, n] of members) {
    if (locked.has(iri)) continue;
    const real = await realDocument(n);
    missing.push({
      ontology_iri: iri,
      version_iri: n.version_iri,
      path: real === null ? null : isBelow(lockDir, real) ? lockRelative(lockDir, real) : real,
      direct: n.role === 'direct',
    });
  }
  missing.sort((a, b) => cmp(a.ontology_iri, b.ontology_iri));
  mismatched.sort((a, b) => cmp(a.ontology_iri, b.ontology_iri) || FIELD_ORDER.indexOf(a.field) - FIELD_ORDER.indexOf(b.field));
  const valid = errors.length === 0 && missing.length === 0 && extra.length === 0 && mismatched.length === 0;
  return {
    valid,
    path: file,
    entry_count: lock.imports.length,
    sha256: digest,
    errors,
    missing_entries: missing,
    extra_entries: extra,
    mismatched_entries: mismatched,
  };
}
