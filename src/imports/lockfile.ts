// The version-1 import lock (TOOLS.md 3.6 write_import_lock / verify_import_lock): one entry per resolved
// local import of a closure, with its coordinates, its document's path relative to the lock's directory and
// the SHA-256 of that document. Entries are sorted and serialized canonically, so the same closure always
// gives the same bytes (and the same digest); parsing is strict so a hand-edited lock cannot hide anything.

import * as v from 'valibot';
import { ABSOLUTE_IRI } from '../model/iri.js';
import { yamlModule } from '../policy/yaml.js';

export const LOCKFILE_NAME = 'imports.lock.json';

/** Locks are small (one line per import); anything larger is refused before it is parsed. */
export const MAX_LOCK_BYTES = 1024 * 1024;

export interface LockEntry {
  readonly ontology_iri: string;
  readonly version_iri: string | null;
  /** The document, relative to the lock's directory, '/'-separated, never leaving that directory. */
  readonly path: string;
  /** `sha256:` + 64 lowercase hex of the document's bytes. */
  readonly sha256: string;
  /** Imported by the root itself (false: only transitively). */
  readonly direct: boolean;
}

export interface ImportLock {
  readonly version: 1;
  readonly imports: readonly LockEntry[];
}

export class LockParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LockParseError';
  }
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** A lock-relative path: '/'-separated, relative, no empty, '.' or '..' segments, no backslashes or NULs. */
export function isLockRelativePath(p: string): boolean {
  if (p === '' || p.startsWith('/') || /[\\\0]/.test(p) || /^[A-Za-z]:/.test(p)) return false;
  return p.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

const Iri = v.pipe(v.string(), v.regex(ABSOLUTE_IRI, 'must be an absolute IRI'));

const EntrySchema = v.strictObject({
  ontology_iri: Iri,
  version_iri: v.nullable(Iri),
  path: v.pipe(v.string(), v.check(isLockRelativePath, 'must be a relative "/"-separated path below the lock directory')),
  sha256: v.pipe(v.string(), v.regex(DIGEST, 'must be "sha256:" followed by 64 lowercase hex digits')),
  direct: v.boolean(),
});

const LockSchema = v.strictObject({
  version: v.literal(1, 'must be 1 (the only lock version)'),
  imports: v.array(EntrySchema),
});

/** Total order of entries: ontology IRI, then version IRI (none first), then path. */
export function compareEntries(a: LockEntry, b: LockEntry): number {
  return cmp(a.ontology_iri, b.ontology_iri) || cmp(a.version_iri ?? '', b.version_iri ?? '') || cmp(a.path, b.path);
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A lock holding `entries` in canonical order. */
export function makeLock(entries: readonly LockEntry[]): ImportLock {
  return { version: 1, imports: [...entries].sort(compareEntries) };
}

/** The canonical bytes: fixed key order, two-space indentation, one final newline. */
export function serializeLock(lock: ImportLock): string {
  const canonical = {
    version: 1,
    imports: [...lock.imports].sort(compareEntries).map((e) => ({
      ontology_iri: e.ontology_iri,
      version_iri: e.version_iri,
      path: e.path,
      sha256: e.sha256,
      direct: e.direct,
    })),
  };
  return JSON.stringify(canonical, null, 2) + '\n';
}

/**
 * Parses lock bytes strictly: UTF-8 JSON of at most MAX_LOCK_BYTES, no duplicate keys, closed objects, valid
 * coordinates, and one entry per ontology IRI. Entry order is not checked (a reordered lock means the same).
 */
export function parseLock(bytes: Uint8Array): ImportLock {
  if (bytes.byteLength > MAX_LOCK_BYTES)
    throw new LockParseError(`lock is ${bytes.byteLength} bytes, over the ${MAX_LOCK_BYTES}-byte limit`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new LockParseError('lock is not valid UTF-8');
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new LockParseError(`lock is not valid JSON: ${(err as Error).message}`);
  }
  // JSON.parse keeps the last of duplicate keys silently; YAML (a JSON superset) reports them
  const duplicate = yamlModule()
    .parseDocument(text, { uniqueKeys: true })
    .errors.find((e) => e.code === 'DUPLICATE_KEY');
  if (duplicate !== undefined) throw new LockParseError(`lock has a duplicate key: ${duplicate.message.split('\n')[0]}`);
  const parsed = v.safeParse(LockSchema, data);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = v.getDotPath(issue);
    throw new LockParseError(`lock does not match version 1: ${where === null ? '' : where + ': '}${issue.message}`);
  }
  const seen = new Set<string>();
  for (const e of parsed.output.imports) {
    if (seen.has(e.ontology_iri)) throw new LockParseError(`lock lists ${e.ontology_iri} more than once`);
    seen.add(e.ontology_iri);
  }
  return { version: 1, imports: parsed.output.imports };
}
