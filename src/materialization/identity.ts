// What a materialization was computed from, captured at preview and compared field by field at commit: the
// revision envelope of the active ontology, its imports closure (each member's semantic fingerprint and the
// imports that did not resolve), the exact reasoner configuration, the governing policy and the revision of
// its mapping set.

import path from 'node:path';
import type { WindowState } from '../window/state.js';
import { ontologyLabel } from '../model/workspace.js';
import { semanticFingerprint } from '../model/fingerprint.js';
import { implementationDigest, type ReasonerInfo } from '../reasoner/registry.js';
import type { PolicyResolution } from '../policy/resolution.js';
import { revisionEnvelope, type RevisionEnvelope } from '../model/revision.js';
import { sha256Digest } from '../util/digest.js';
import { PROVENANCE_PREFIX, PROVENANCE_PROPERTY } from './provenance.js';
import { readRegularFile } from '../util/file-read.js';

export interface ReasonerIdentity {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly implementation_digest: string;
  /** Digest of every setting the preview reasoner ran with. */
  readonly configuration_digest: string;
}

/** The revision of the policy's SSSOM mapping set: the digest of its file, `absent`, or null without one. */
async function mappingRevision(policy: PolicyResolution): Promise<string | null> {
  const p = policy.policy;
  if (p === null || p.version !== 2 || p.mappings === undefined || policy.projectRoot === null) return null;
  try {
    return sha256Digest(await readRegularFile(path.resolve(policy.projectRoot, p.mappings.path), 'document'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    throw err;
  }
}

export interface InputIdentity {
  readonly revision: RevisionEnvelope;
  readonly source: string;
  readonly closure: readonly { readonly ontology: string; readonly semantic_fingerprint: string }[];
  readonly missing_imports: readonly string[];
  readonly closure_digest: string;
  /**
   * Digest of the closure's reasoning input without the axioms an earlier materialization published: the
   * basis of provenance IRIs, so that re-materializing the same asserted knowledge yields the same IRIs.
   */
  readonly provenance_basis: string;
  readonly reasoner: ReasonerIdentity;
  readonly policy_path: string | null;
  readonly policy_digest: string | null;
  readonly path_mode: string;
  readonly mapping_revision: string | null;
}

/** Marks a snapshot line of an axiom published by a materialization (its provenance annotation, full IRIs). */
const PUBLISHED = `Annotation(<${PROVENANCE_PROPERTY}> <${PROVENANCE_PREFIX}`;

function provenanceBasis(snapshotText: string): string {
  const lines = snapshotText
    .split('\n')
    .filter((l) => !l.includes(PUBLISHED))
    .sort();
  return sha256Digest(lines.join('\n'));
}

export function reasonerIdentity(r: ReasonerInfo): ReasonerIdentity {
  // the preview reasoner always runs fresh on its own thread over the functional-syntax snapshot, rules ignored
  const configuration = {
    reasoner: r.id,
    version: r.version,
    execution: 'disposable-worker',
    snapshot: 'functional-syntax',
    rules: 'ignored',
    incremental: false,
  };
  return {
    id: r.id,
    name: r.name,
    version: r.version,
    implementation_digest: implementationDigest(r),
    configuration_digest: sha256Digest(JSON.stringify(configuration)),
  };
}

export async function inputIdentity(window: WindowState, r: ReasonerInfo, policy: PolicyResolution): Promise<InputIdentity> {
  const ws = window.workspace;
  const closure = ws.importsClosure(ws.active).map((o) => ({ ontology: ontologyLabel(o), semantic_fingerprint: semanticFingerprint(o) }));
  const missing = [...ws.missingImports(ws.active)].sort();
  return {
    revision: revisionEnvelope(ws),
    source: ontologyLabel(ws.active),
    closure,
    missing_imports: missing,
    closure_digest: sha256Digest(JSON.stringify({ closure, missing })),
    provenance_basis: provenanceBasis(window.reasoning.snapshot().text),
    reasoner: reasonerIdentity(r),
    policy_path: policy.file,
    policy_digest: policy.digest,
    path_mode: policy.pathMode,
    mapping_revision: await mappingRevision(policy),
  };
}

/** Names of the identity fields that differ (the revision envelope counts as one field). */
export function changedFields(before: InputIdentity, now: InputIdentity): string[] {
  const out: string[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (!same(before.revision, now.revision)) out.push('source_revision');
  if (before.source !== now.source) out.push('source');
  if (before.closure_digest !== now.closure_digest) out.push('imports_closure');
  if (!same(before.reasoner, now.reasoner)) out.push('reasoner_configuration');
  if (before.policy_path !== now.policy_path || before.policy_digest !== now.policy_digest || before.path_mode !== now.path_mode)
    out.push('policy');
  if (before.mapping_revision !== now.mapping_revision) out.push('mapping_revision');
  return out;
}
