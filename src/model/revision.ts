// The revision envelope of TOOLS.md 1.3: which workspace, its change counter, and digests of the active
// ontology's asserted content and of its live document. Compare-and-swap commits compare all four fields.

import type { Workspace } from './workspace.js';
import { documentFingerprint, semanticFingerprint } from './fingerprint.js';

export interface RevisionEnvelope {
  readonly workspace_id: string;
  readonly session_revision: number;
  readonly semantic_fingerprint: string;
  readonly document_fingerprint: string;
}

export function revisionEnvelope(ws: Workspace): RevisionEnvelope {
  const o = ws.active;
  return {
    workspace_id: ws.id,
    session_revision: ws.revision,
    semantic_fingerprint: semanticFingerprint(o),
    document_fingerprint: documentFingerprint(o),
  };
}

/** Whether `expected` names exactly the state `current` describes (every field, nothing else). */
export function sameRevision(expected: object, current: RevisionEnvelope): boolean {
  const e = expected as Readonly<Record<string, unknown>>;
  return (
    Object.keys(e).length === 4 &&
    e.workspace_id === current.workspace_id &&
    e.session_revision === current.session_revision &&
    e.semantic_fingerprint === current.semantic_fingerprint &&
    e.document_fingerprint === current.document_fingerprint
  );
}
