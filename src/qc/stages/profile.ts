// The `profile` QC stage (TOOLS.md run_qc_suite): checks the snapshot's imports closure against an OWL 2
// profile and gates on the violations of the snapshot's own axioms and header; violations that come from
// imported ontologies are reported as context (`details.imported_violations`) and do not gate.

import { checkProfile, ProfileCheckTimeout } from '../../model/profiles/check.js';
import { OWL_PROFILES, type OwlProfile, type ProfileReport, type ProfileViolation } from '../../model/profiles/report.js';
import type { Finding, QcSnapshot, StageOutcome } from '../finding.js';
import { findingId } from '../identity.js';

/** `owl_profile` values that skip the stage (TOOLS.md: `none` / `Full`). */
export const SKIPPING_PROFILES: readonly string[] = ['none', 'Full'];

/** Imported violations listed in the stage details (their count is always complete). */
const IMPORTED_SAMPLE = 25;

export function profileRuleId(kind: string): string {
  return 'owl_profile.' + kind;
}

/** One owned violation as a finding: every profile violation is an error (the ontology is outside the profile). */
export function profileFinding(v: ProfileViolation, profile: OwlProfile): Finding {
  const ruleId = profileRuleId(v.kind);
  const focus = v.entity ?? null;
  const axiom = v.axiom ?? null;
  return {
    id: findingId('profile', ruleId, focus, axiom),
    source: 'profile',
    severity: 'error',
    message: v.message,
    focus_iri: focus,
    axiom,
    path: null,
    rule_id: ruleId,
    waiver: null,
    details: { profile, kind: v.kind, ontology: v.ontology },
  };
}

/** The stage's view of a report: owned violations as findings, imported ones as context. */
export function profileOutcome(report: ProfileReport): StageOutcome {
  const owned = report.violations.filter((v) => v.owned);
  const imported = report.violations.filter((v) => !v.owned);
  const findings = owned.map((v) => profileFinding(v, report.profile));
  return {
    stage: 'profile',
    status: 'completed',
    verdict: findings.length > 0 ? 'fail' : 'pass',
    findings,
    details: {
      profile: report.profile,
      in_profile: report.inProfile,
      owned_in_profile: owned.length === 0,
      imported_violations: {
        count: imported.length,
        items: imported.slice(0, IMPORTED_SAMPLE),
        ...(imported.length > IMPORTED_SAMPLE ? { truncated: imported.length - IMPORTED_SAMPLE } : {}),
      },
    },
  };
}

/** Runs the stage; `deadline` (ms since the epoch) bounds the check, past it the stage errors. */
export function profileStage(snapshot: QcSnapshot, profile = 'DL', deadline = Infinity): StageOutcome {
  if (SKIPPING_PROFILES.includes(profile)) {
    return { stage: 'profile', status: 'skipped', reason: `owl_profile ${profile} skips the profile check`, findings: [] };
  }
  if (!OWL_PROFILES.includes(profile as OwlProfile)) {
    return {
      stage: 'profile',
      status: 'error',
      reason: `unknown OWL profile "${profile}" (expected DL, EL, QL, RL, none or Full)`,
      findings: [],
    };
  }
  try {
    return profileOutcome(checkProfile(snapshot.closure, profile as OwlProfile, snapshot.ontology, deadline));
  } catch (e) {
    if (e instanceof ProfileCheckTimeout)
      return { stage: 'profile', status: 'error', reason: 'the profile check ran out of time', findings: [] };
    throw e;
  }
}
