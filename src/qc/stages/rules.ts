// The `rules` QC stage (TOOLS.md run_project_qc): an empty SWRL corpus passes; rules the selected reasoner
// cannot execute are inference degradation, so a non-empty corpus is a stage error with every installed
// reasoner (their reviewed profiles mark each SWRL rule atom unsupported: rules are ignored).

import type { ReasonerInfo } from '../../reasoner/registry.js';
import type { QcSnapshot, StageOutcome } from '../finding.js';

/** SWRL rules in the snapshot's closure, each counted once. */
export function ruleCount(s: QcSnapshot): number {
  const rules = new Set<unknown>();
  for (const o of s.closure) for (const r of o.axiomsOfKind('DLSafeRule')) rules.add(r);
  return rules.size;
}

export function rulesStage(s: QcSnapshot, reasoner: ReasonerInfo): StageOutcome {
  const n = ruleCount(s);
  if (n === 0) return { stage: 'rules', status: 'completed', verdict: 'pass', findings: [], details: { rule_count: 0 } };
  const who = `${reasoner.name} does not execute SWRL rules (its reviewed profile marks every rule atom unsupported)`;
  return {
    stage: 'rules',
    status: 'error',
    reason: `${n} SWRL rule(s) cannot be evaluated: ${who}`,
    findings: [],
    details: { rule_count: n },
  };
}
