// Policy waivers (TOOLS.md run_project_qc, `validation.waivers`): a live waiver suppresses exactly the
// findings with its rule_id and focus_iri; they stay in the report with `waiver` set and no longer count
// toward their stage's verdict. An expired waiver suppresses nothing and is itself a governance finding.

import type { Finding, Severity, StageOutcome, Verdict, Waiver } from './finding.js';
import { findingId } from './identity.js';

export const WAIVER_EXPIRED_RULE = 'validation.waiver_expired';

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The instant (ms since the epoch) from which a waiver no longer holds, or null when it never expires.
 * A date without a time holds through that whole UTC day, as a reviewer writing "until 2026-12-31" means.
 */
export function expiryInstant(expires: string | null): number | null {
  if (expires === null) return null;
  const at = Date.parse(expires);
  return DATE_ONLY.test(expires) ? at + DAY_MS : at;
}

export function isLive(w: Waiver, now: number): boolean {
  const end = expiryInstant(w.expires);
  return end === null || now < end;
}

/** Whether `w` covers `f`: the same rule and the same focus (a waiver without focus covers findings without one). */
export function covers(w: Waiver, f: Finding): boolean {
  return w.rule_id === f.rule_id && w.focus_iri === f.focus_iri;
}

const SEVERITY_RANK: Readonly<Record<Severity, number>> = { info: 0, warn: 1, error: 2 };
const PLAIN_VERDICT: Readonly<Record<Severity, Verdict>> = { info: 'info', warn: 'warn', error: 'fail' };

function worst(findings: readonly Finding[]): Severity | null {
  let w: Severity | null = null;
  for (const f of findings) if (w === null || SEVERITY_RANK[f.severity] > SEVERITY_RANK[w]) w = f.severity;
  return w;
}

/**
 * The verdict of a stage once waived findings no longer count: unchanged while the worst remaining severity
 * is the one the stage judged, `pass` with nothing left, else that severity's plain meaning.
 */
export function verdictWithout(verdict: Verdict, all: readonly Finding[], counted: readonly Finding[]): Verdict {
  const before = worst(all);
  const after = worst(counted);
  if (after === null) return 'pass';
  return after === before ? verdict : PLAIN_VERDICT[after];
}

/** Marks the findings live waivers cover and re-judges the stage; other outcomes pass through unchanged. */
export function waiveOutcome(outcome: StageOutcome, waivers: readonly Waiver[], now: number): StageOutcome {
  if (outcome.status !== 'completed' || waivers.length === 0) return outcome;
  const live = waivers.filter((w) => isLive(w, now));
  let waived = 0;
  const findings = outcome.findings.map((f) => {
    const w = live.find((x) => covers(x, f));
    if (w === undefined) return f;
    waived++;
    return { ...f, waiver: w };
  });
  if (waived === 0) return outcome;
  const counted = findings.filter((f) => f.waiver === null);
  return {
    ...outcome,
    findings,
    verdict: verdictWithout(outcome.verdict ?? 'pass', outcome.findings, counted),
    details: { ...outcome.details, waived_count: waived },
  };
}

/** One `validation.waiver_expired` finding per waiver past its expiry, in policy order. */
export function expiredWaiverFindings(waivers: readonly Waiver[], now: number): Finding[] {
  return waivers
    .filter((w) => !isLive(w, now))
    .map((w) => ({
      id: findingId('governance', WAIVER_EXPIRED_RULE, w.focus_iri, null, `${w.rule_id}\u0000${w.expires}`),
      source: 'governance',
      severity: 'error',
      message: `The waiver of ${w.rule_id}${w.focus_iri === null ? '' : ` for <${w.focus_iri}>`} expired on ${w.expires}; it suppresses nothing (renew or remove it). Reason given: ${w.reason}`,
      focus_iri: w.focus_iri,
      axiom: null,
      path: null,
      rule_id: WAIVER_EXPIRED_RULE,
      waiver: null,
      details: { waived_rule_id: w.rule_id, expires: w.expires, reason: w.reason },
    }));
}

/** The governance stage with the expired waivers added as findings (its verdict fails when there are any). */
export function withExpiredWaivers(outcome: StageOutcome, waivers: readonly Waiver[], now: number): StageOutcome {
  if (outcome.status !== 'completed') return outcome;
  const expired = expiredWaiverFindings(waivers, now);
  if (expired.length === 0) return outcome;
  return {
    ...outcome,
    findings: [...outcome.findings, ...expired],
    verdict: 'fail',
    details: { ...outcome.details, expired_waivers: expired.length },
  };
}
