// The release gate result (TOOLS.md run_release_gate) as plain data: what every release report, the
// RO-Crate and the manifest are pure functions of. Paths in it are project-relative, so the same content
// under the same policy gives the same bytes wherever the project is checked out.

import type { FormatId } from '../model/ontology.js';
import type { Gate } from '../qc/finding.js';
import type { RdfDatasetIdentity } from '../qc/dataset-fingerprint.js';
import type { ReportFinding, ReportStage } from './finding.js';
import type { NetworkCaveat, NetworkMode, ResolvedImport } from './provenance.js';
import type { RoundTripResult } from './serialization.js';
import type { BaselineOutcome } from './baseline.js';
import type { LockMode } from '../imports/lock-mode.js';

/** An ISO-8601 UTC instant: what `created_at` holds on a commit (a preview reads PREVIEW instead). */
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

/** An ontology's license as RO-Crate states it: an IRI (`{"@id"}`) or a literal text. */
export type License = { readonly '@id': string } | string;

export interface ReleaseSerialization {
  /** File name inside the output directory. */
  readonly path: string;
  readonly format: FormatId;
  readonly media_type: string;
  /** The exact text the round trip verified (when required) and prepare_release writes. */
  readonly text: string;
}

export interface ReleaseGateResult {
  readonly gate: Gate;
  /** Validation started (a valid policy governs); otherwise only `gate: error` and the reason are meaningful. */
  readonly started: boolean;
  readonly generator: { readonly name: string; readonly version: string | null };
  readonly project_id: string | null;
  readonly policy_digest: string | null;
  readonly ontology: {
    readonly iri: string | null;
    readonly version_iri: string | null;
    readonly title: string | null;
    readonly description: string | null;
    readonly license: License | null;
  };
  readonly fingerprints: {
    readonly semantic: string;
    readonly rdf_dataset: string | null;
    readonly closure: string | null;
    /** The QC identity digest over every finding of every QC stage. */
    readonly qc_identity: string | null;
  };
  readonly rdf_dataset_identity: RdfDatasetIdentity | null;
  readonly fail_on: string | null;
  readonly required_stages: readonly string[];
  readonly stages: readonly ReportStage[];
  /** Sampled findings (at most `limit` per stage), QC stages first, then the release stage. */
  readonly findings: readonly ReportFinding[];
  readonly finding_count: number;
  readonly network: NetworkMode;
  readonly lock_mode: LockMode;
  readonly resolved_imports: readonly ResolvedImport[];
  readonly network_caveat: NetworkCaveat | null;
  readonly round_trip: RoundTripResult | null;
  readonly serialization: ReleaseSerialization | null;
  readonly baseline: BaselineOutcome;
  /** Why no manifest can be built (session-only fingerprints, a changed snapshot, a gate that did not pass), or null. */
  readonly manifest_blocker: string | null;
}
