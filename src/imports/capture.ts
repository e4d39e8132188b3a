// Capturing a lock from a loaded closure (write_import_lock): every imported ontology must be resolved, read
// from a local document below the lock's directory, saved (its file is what is loaded) and free of identity
// conflicts; otherwise nothing is captured and every reason is listed.

import type { Ontology } from '../model/ontology.js';
import { importConflicts, importedNodes, missingEdges, type ImportGraph } from './closure.js';
import { lockRelative, readLockedDocument } from './lock-documents.js';
import { makeLock, type ImportLock, type LockEntry } from './lockfile.js';

export type LockCapture = { readonly ok: true; readonly lock: ImportLock } | { readonly ok: false; readonly errors: readonly string[] };

/**
 * The lock of `graph`'s imports with documents relative to `lockDir` (a real path). `dirty` says which
 * ontologies have unsaved edits: their files no longer hold what is loaded, so they cannot be locked.
 */
export async function captureLock(graph: ImportGraph, lockDir: string, dirty: (o: Ontology) => boolean): Promise<LockCapture> {
  const errors: string[] = [];
  for (const e of missingEdges(graph)) errors.push(`import ${e.import_iri} declared by ${e.source.ref} is not resolved (missing import)`);
  for (const c of importConflicts(graph)) errors.push(`conflict ${c.type}: ${c.field} ${c.value} is held by ${c.ontologies.join(', ')}`);
  const entries: LockEntry[] = [];
  for (const n of importedNodes(graph)) {
    if (n.ontology_iri === null) {
      errors.push(`${n.ref} has no ontology IRI and cannot be locked`);
      continue;
    }
    if (n.file === null) {
      errors.push(
        `${n.ref} is ${n.source_type === 'remote' ? `loaded from the remote document ${n.document_iri}` : 'held only in memory'}; a lock holds only local documents`,
      );
      continue;
    }
    if (dirty(n.ontology)) {
      errors.push(`${n.ref} has unsaved changes, so its document ${n.file} does not hold what is loaded; save it first`);
      continue;
    }
    const doc = await readLockedDocument(lockDir, n.file);
    if (!doc.ok) {
      errors.push(
        `${n.ref}: its document ${n.file} ${doc.problem === 'outside_lock_directory' ? 'is not below the lock directory ' + lockDir : `cannot be read (${doc.detail})`}`,
      );
      continue;
    }
    entries.push({
      ontology_iri: n.ontology_iri,
      version_iri: n.version_iri,
      path: lockRelative(lockDir, doc.real),
      sha256: doc.sha256,
      direct: n.role === 'direct',
    });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, lock: makeLock(entries) };
}
