// The reasoner QC stage: a private classification of the snapshot with the selected reasoner, run on the
// reasoning pool (off the actor thread, bounded and cancellable). It judges the result state: an
// inconsistent ontology or any unsatisfiable named class fails the stage. The window's own reasoner results
// are neither read nor replaced.

import { runTask } from '../../reasoner/pool.js';
import type { ClassificationData } from '../../reasoner/pool-worker.js';
import { implementationDigest, type ReasonerInfo } from '../../reasoner/registry.js';
import { closureInput, shipAll } from '../../reasoner/snapshot.js';
import { displayName } from '../../model/display.js';
import type { Finding, QcSnapshot, StageOutcome } from '../finding.js';
import { findingId } from '../identity.js';
import { snapshotWorkspaceId } from '../snapshot.js';
import { unreachable } from '../../util/unreachable.js';

export interface ReasonerStageContext {
  readonly reasoner: ReasonerInfo;
  /** Absolute time (ms since the epoch) by which the classification must finish. */
  readonly deadline: number;
  readonly signal: AbortSignal;
}

export const RULES_IGNORED_WARNING =
  'The ontology has SWRL rules; the selected reasoner ignores them, so rule inferences are missing from this verdict.';

let runs = 0;

/**
 * The pool key of a private run. A snapshot of a workspace shares that workspace's key prefix, so the
 * pool thread brings its kept incremental EL reasoner to the snapshot by the delta only; any other
 * snapshot gets a key of its own.
 */
function taskKey(s: QcSnapshot): string {
  return (snapshotWorkspaceId(s) ?? 'qc-private') + '@qc-' + s.revision + '-' + ++runs;
}

export function reasonerConfiguration(r: ReasonerInfo, timeoutMs: number): Record<string, unknown> {
  return {
    id: r.id,
    name: r.name,
    version: r.version,
    implementation_digest: implementationDigest(r),
    timeout_ms: timeoutMs,
    rules: 'ignored',
    execution: 'private snapshot on the reasoning pool',
  };
}

function finding(ruleId: string, message: string, focus: string | null): Finding {
  return {
    id: findingId('reasoner', ruleId, focus, null),
    source: 'reasoner',
    severity: 'error',
    message,
    focus_iri: focus,
    axiom: null,
    path: null,
    rule_id: ruleId,
    waiver: null,
  };
}

/** The findings of a finished classification: the inconsistency alone, or one per unsatisfiable class. */
export function classificationFindings(data: Pick<ClassificationData, 'consistent' | 'unsatisfiable'>, s: QcSnapshot): Finding[] {
  if (!data.consistent)
    return [finding('inconsistent_ontology', 'The ontology is inconsistent: it has no model, so every class is unsatisfiable.', null)];
  return [...data.unsatisfiable]
    .sort()
    .map((iri) =>
      finding('unsatisfiable_class', `${displayName(iri, s.closure, s.labelLanguage)} is unsatisfiable (equivalent to owl:Nothing).`, iri),
    );
}

export async function reasonerStage(s: QcSnapshot, ctx: ReasonerStageContext): Promise<StageOutcome> {
  const r = ctx.reasoner;
  const timeoutMs = Math.max(1, ctx.deadline - Date.now());
  const input = closureInput(s.closure);
  const configuration = reasonerConfiguration(r, timeoutMs);
  const warning = input.ruleCount > 0 ? { warning: RULES_IGNORED_WARNING } : {};
  const out = await runTask<ClassificationData>(
    { type: 'classify', key: taskKey(s), model: shipAll(input), reasoner: r.id, timeLimitMs: timeoutMs },
    timeoutMs,
    ctx.signal,
  );
  switch (out.kind) {
    case 'timeout':
      return {
        stage: 'reasoner',
        status: 'error',
        reason: `classification did not finish within ${timeoutMs} ms`,
        findings: [],
        details: { reasoner_configuration: configuration, ...warning },
      };
    case 'cancelled':
      return {
        stage: 'reasoner',
        status: 'error',
        reason: 'classification was cancelled',
        findings: [],
        details: { reasoner_configuration: configuration, ...warning },
      };
    case 'error':
      return {
        stage: 'reasoner',
        status: 'error',
        reason: `the reasoner failed: ${out.message}`,
        findings: [],
        details: { reasoner_configuration: configuration, ...warning },
      };
    case 'done': {
      const data = out.value;
      const findings = classificationFindings(data, s);
      return {
        stage: 'reasoner',
        status: 'completed',
        verdict: findings.length > 0 ? 'fail' : 'pass',
        findings,
        details: {
          reasoner_configuration: configuration,
          consistent: data.consistent,
          unsatisfiable_count: data.consistent ? data.unsatisfiable.length : null,
          // axioms outside the reasoner's constructs were left out: a pass is sound for what it read only
          complete: data.complete,
          unsupported_axiom_count: data.unsupported.count,
          elapsed_ms: data.elapsedMs,
          ...warning,
        },
      };
    }
    default:
      return unreachable(out);
  }
}
