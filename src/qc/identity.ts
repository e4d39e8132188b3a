// Stable identities of QC findings (TOOLS.md 1.11): a finding's id depends only on what it is about (stage,
// rule, focus, axiom text), so the same problem in the same content gets the same id in every session; the
// identity digest of a finding set depends only on the set, not on the order its stage found it in.

import { createHash } from 'node:crypto';
import type { Finding, StageId } from './finding.js';

/** Field separator that no IRI, rule id or functional-syntax text contains. */
const SEP = '\u0000';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * `sha256:` + hex over source, rule, focus IRI and axiom text (full-IRI functional syntax). `discriminator`
 * tells apart findings of one rule on the same focus and axiom (e.g. which required annotation is missing).
 */
export function findingId(
  source: StageId | 'release',
  ruleId: string,
  focusIri: string | null,
  axiom: string | null,
  discriminator?: string,
): string {
  const parts = [source, ruleId, focusIri ?? '', axiom ?? ''];
  if (discriminator !== undefined) parts.push(discriminator);
  return 'sha256:' + sha256(parts.join(SEP));
}

/**
 * `sha256:` digest over a complete finding set: the sorted ids with each finding's severity and waiver state,
 * so a changed severity or a newly waived finding changes the digest while reordering does not.
 */
export function identityDigest(findings: readonly Pick<Finding, 'id' | 'severity' | 'waiver'>[]): string {
  const lines = findings.map(
    (f) => f.id + SEP + f.severity + SEP + (f.waiver === null ? '' : f.waiver.rule_id + SEP + (f.waiver.focus_iri ?? '')),
  );
  lines.sort();
  return 'sha256:' + sha256(lines.join('\n'));
}
