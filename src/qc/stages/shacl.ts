// The QC stage `shacl` (TOOLS.md 1.11, run_qc_suite, run_project_qc): the snapshot's imports-closure RDF
// against a shapes graph, either the caller's (run_qc_suite `shacl_shapes` / `shacl_shapes_path`) or a
// project policy's `shacl.paths` assets. One finding per validation result, severity from the SHACL result
// severity (Violation → error, Warning → warn, Info → info). A shapes file that is missing, escapes the
// project root or does not parse is a stage error (a malformed asset), never a silent pass.

import path from 'node:path';
import type { EffectivePolicy } from '../../policy/schema.js';
import { isInside, realTarget } from '../../policy/paths.js';
import { ShaclFailure, shaclEngine } from '../../shacl/engine.js';
import { snapshotDataGraph } from '../../shacl/data-graph.js';
import { severityRank, sortResults } from '../../shacl/report.js';
import { readShapesFile } from '../../shacl/shapes.js';
import type { ShaclResult, ShapesDocument } from '../../shacl/protocol.js';
import type { Finding, QcSnapshot, Severity, StageOutcome, Verdict } from '../finding.js';
import { findingId } from '../identity.js';

/** Where the stage's shapes come from. */
export type ShaclShapesSource =
  | { readonly kind: 'documents'; readonly documents: readonly ShapesDocument[] }
  /** A policy's asset paths, relative to its project root (read when the stage runs). */
  | { readonly kind: 'policy'; readonly projectRoot: string; readonly paths: readonly string[] };

/** The stage source a valid policy configures (none without `shacl.paths`). */
export function policyShaclSource(policy: EffectivePolicy, projectRoot: string | null): ShaclShapesSource | undefined {
  const paths = policy.shacl?.paths ?? [];
  return projectRoot === null || paths.length === 0 ? undefined : { kind: 'policy', projectRoot, paths };
}

const SEVERITY: readonly [Severity, Severity, Severity] = ['info', 'warn', 'error'];

const localName = (iri: string): string => iri.slice(Math.max(iri.lastIndexOf('#'), iri.lastIndexOf('/')) + 1);

/** `shacl.<constraint component local name>`, e.g. `shacl.MinCountConstraintComponent` (what waivers name). */
export function shaclRuleId(component: string): string {
  return 'shacl.' + localName(component);
}

export function shaclFinding(r: ShaclResult): Finding {
  const ruleId = shaclRuleId(r.constraint_component);
  const focus = r.focus_node.startsWith('_:') || r.focus_node.startsWith('"') ? null : r.focus_node;
  // What the result is about besides rule and focus: the path, the value and the shape that was violated.
  const discriminator = JSON.stringify([r.focus_node, r.result_path, r.value, r.source_shape]);
  return {
    id: findingId('shacl', ruleId, focus, null, discriminator),
    source: 'shacl',
    severity: SEVERITY[severityRank(r.severity)],
    message: r.message,
    focus_iri: focus,
    axiom: null,
    path: r.result_path,
    rule_id: ruleId,
    waiver: null,
    details: { ...r },
  };
}

function verdictOf(findings: readonly Finding[]): Verdict {
  if (findings.some((f) => f.severity === 'error')) return 'fail';
  if (findings.some((f) => f.severity === 'warn')) return 'warn';
  return findings.length > 0 ? 'info' : 'pass';
}

/** Reads a policy's shapes files, each confined to the project root with symlinks resolved. */
async function policyDocuments(root: string, paths: readonly string[]): Promise<ShapesDocument[]> {
  const out: ShapesDocument[] = [];
  for (const p of paths) {
    const real = await realTarget(path.resolve(root, p));
    if (!isInside(root, real)) throw new Error(`the policy's SHACL shapes file ${p} resolves outside the project root ${root}`);
    out.push(await readShapesFile(real));
  }
  return out;
}

function failed(reason: string): StageOutcome {
  return { stage: 'shacl', status: 'error', reason, findings: [] };
}

export async function shaclStage(
  snapshot: QcSnapshot,
  source: ShaclShapesSource | undefined,
  deadline: number,
  signal: AbortSignal,
): Promise<StageOutcome> {
  if (source === undefined) return { stage: 'shacl', status: 'skipped', reason: 'no SHACL shapes given', findings: [] };
  let documents: readonly ShapesDocument[];
  try {
    documents = source.kind === 'documents' ? source.documents : await policyDocuments(source.projectRoot, source.paths);
  } catch (e) {
    return failed(`SHACL shapes unavailable: ${(e as Error).message}`);
  }
  let results: readonly ShaclResult[];
  try {
    results = await shaclEngine().validate({
      shapes: documents,
      data: snapshotDataGraph(snapshot.closure),
      language: snapshot.labelLanguage,
      timeoutMs: Math.max(1, deadline - Date.now()),
      signal,
    });
  } catch (e) {
    if (e instanceof ShaclFailure) return failed(e.message);
    throw e;
  }
  const findings = sortResults(results).map(shaclFinding);
  return {
    stage: 'shacl',
    status: 'completed',
    verdict: verdictOf(findings),
    findings,
    details: { shapes: documents.map((d) => d.origin), total_results: results.length, conforms: results.length === 0 },
  };
}
