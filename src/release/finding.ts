// The synthetic required `release` stage of run_release_gate (TOOLS.md 3.3): the release checks' findings,
// in the QC finding shape (TOOLS.md 1.11) with `source: "release"`, and the stage row they are judged in.
// Release findings are not waivable: they are the release contract of the policy's `release` block.

import type { Finding, Verdict } from '../qc/finding.js';
import type { FindingsSummary, GateStageReport } from '../qc/gate.js';
import { findingId, identityDigest } from '../qc/identity.js';

export type ReleaseCode =
  | 'imports.remote_backed'
  | 'release.version_iri_missing'
  | 'release.round_trip_failed'
  | 'release.fingerprint_unstable'
  | 'release.lossy_format'
  | 'release.snapshot_changed'
  | 'release.baseline_invalid'
  | 'release.license_unavailable';

/** A finding of the release stage; the QC stage vocabulary (StageId) has no `release` member. */
export interface ReleaseFinding extends Omit<Finding, 'source' | 'rule_id'> {
  readonly source: 'release';
  readonly rule_id: ReleaseCode;
}

/** Any finding a release report lists: a QC stage's or the release stage's. */
export type ReportFinding = Finding | ReleaseFinding;

/** A stage row of a release report: the QC stages' rows and the release stage's. */
export interface ReportStage extends Omit<GateStageReport, 'stage'> {
  readonly stage: GateStageReport['stage'] | 'release';
}

/**
 * A release finding; its id depends only on the code, the focus and `discriminator` (e.g. the import it is
 * about), as a QC finding's does (qc/identity.ts), so the same problem keeps its id across sessions.
 */
export function releaseFinding(
  code: ReleaseCode,
  severity: 'error' | 'warn',
  message: string,
  focus: string | null,
  discriminator: string,
  details?: Record<string, unknown>,
): ReleaseFinding {
  return {
    id: findingId('release', code, focus, null, discriminator),
    source: 'release',
    severity,
    message,
    focus_iri: focus,
    axiom: null,
    path: null,
    rule_id: code,
    waiver: null,
    ...(details === undefined ? {} : { details }),
  };
}

function summary(findings: readonly ReleaseFinding[]): FindingsSummary {
  const count = (s: string) => findings.filter((f) => f.severity === s).length;
  return { total: findings.length, error: count('error'), warn: count('warn'), info: count('info') };
}

/** The release stage row: always required and run once validation started; `fail` on any error finding. */
export function releaseStage(findings: readonly ReleaseFinding[]): ReportStage {
  const verdict: Verdict = findings.some((f) => f.severity === 'error') ? 'fail' : findings.length > 0 ? 'warn' : 'pass';
  return {
    stage: 'release',
    ran: true,
    required: true,
    status: 'completed',
    verdict,
    findings_summary: summary(findings),
    identity_digest: identityDigest(findings),
  };
}

/** The release stage when validation could not start (no valid policy): required, so the gate is `error`. */
export function skippedReleaseStage(reason: string): ReportStage {
  return {
    stage: 'release',
    ran: false,
    required: true,
    status: 'skipped',
    reason,
    findings_summary: summary([]),
    identity_digest: identityDigest([]),
  };
}
