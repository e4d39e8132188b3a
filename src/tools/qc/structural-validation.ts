// validate_ontology (TOOLS.md 3.2): the structural audit of src/qc/stages/structural.ts over the live active
// ontology (read synchronously on the actor, so nothing changes under it), optionally with the current
// reasoner verdict folded in without classifying.

import * as v from 'valibot';
import type { Entity } from '../../model/terms.js';
import { cls } from '../../model/terms.js';
import { auditStructure, AuditTimeout, STRUCTURAL_CHECKS, type CheckReport } from '../../qc/stages/structural.js';
import { defineTool, never, ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';
import { AnyList, AnyObject } from '../core/result-shapes.js';
import { auditTimeout, checkSampleLimit } from './audit-arguments.js';
import { entityRow, renderAxiom, type EntityRow } from '../../report/rows.js';

/** The samples of one check: distinct focus entities and rendered details, each capped at `limit`. */
function checkRow(report: CheckReport, limit: number, ctx: ToolContext): JsonObject {
  const examples: EntityRow[] = [];
  const seen = new Set<Entity>();
  for (const issue of report.issues) {
    for (const e of issue.entities) {
      if (examples.length >= limit) break;
      if (seen.has(e)) continue;
      seen.add(e);
      examples.push(entityRow(e, ctx));
    }
    if (examples.length >= limit) break;
  }
  const details: string[] = [];
  for (const issue of report.issues) {
    if (details.length >= limit) break;
    if (issue.detail !== undefined) details.push(issue.detail);
    else if (issue.axiom !== null) details.push(renderAxiom(issue.axiom, ctx));
  }
  const count = report.issues.length;
  return {
    id: report.id,
    severity: report.severity,
    title: report.title,
    count,
    suggestion: report.suggestion,
    examples,
    ...(details.length > 0 ? { details } : {}),
    ...(count > limit ? { truncated: count - limit } : {}),
  };
}

/** The current reasoner verdict as the window holds it; nothing is classified. */
function reasonerVerdict(ctx: ToolContext, limit: number): JsonObject {
  const session = ctx.window.reasoning;
  const status = session.status();
  const failure = session.failure;
  const res = session.result;
  if (res === null) {
    return {
      status,
      results_available: false,
      note: 'The selected reasoner has no results: call run_reasoner.',
      ...(failure !== null ? { error: failure } : {}),
    };
  }
  const stale =
    res.revision !== ctx.workspace.revision
      ? {
          note: `Results were computed at revision ${res.revision}; the model is now at revision ${ctx.workspace.revision}. Call run_reasoner to refresh them.`,
        }
      : {};
  if (!res.consistent)
    return { status, results_available: true, consistent: false, ...stale, ...(failure !== null ? { error: failure } : {}) };
  const rows = res.data.unsatisfiable
    .map((iri) => entityRow(cls(iri), ctx))
    .sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : 0));
  return {
    status,
    results_available: true,
    consistent: true,
    unsatisfiable_count: rows.length,
    unsatisfiable_classes: rows.slice(0, limit),
    ...stale,
    ...(failure !== null ? { error: failure } : {}),
  };
}

const NOT_A_PROOF = 'These checks read asserted axioms only; they are a modelling-quality audit, not a consistency proof.';

export const validateOntology = defineTool({
  name: 'validate_ontology',
  description: 'Modelling-quality checks (labels, definitions, cycles, ...); not a consistency proof.',
  input: v.strictObject({
    include_imports: v.optional(v.boolean(), false),
    checks: v.optional(v.pipe(v.array(v.picklist(STRUCTURAL_CHECKS)), v.minLength(1), v.description('Default: all.'))),
    with_reasoner: v.optional(v.boolean(), false),
    limit: checkSampleLimit,
    timeout_ms: auditTimeout,
  }),
  output: v.object({
    scope: v.string(),
    total_issues: v.number(),
    checks: AnyList,
    reasoner: v.optional(AnyObject),
    reasoner_note: v.string(),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (args, ctx) => {
    const ws = ctx.workspace;
    const view = { ontology: ws.active, closure: ws.importsClosure(ws.active), labelLanguage: ctx.settings.label_language };
    let reports: CheckReport[];
    try {
      reports = auditStructure(view, { checks: args.checks, includeImports: args.include_imports, deadline: Date.now() + args.timeout_ms });
    } catch (err) {
      if (err instanceof AuditTimeout)
        throw new ToolFailure(`validate_ontology did not finish within ${args.timeout_ms} ms`, 'timeout', { timeout_ms: args.timeout_ms });
      throw err;
    }
    const checks = reports.map((r) => checkRow(r, args.limit, ctx));
    return {
      scope: args.include_imports ? 'imports_closure' : 'active_ontology',
      total_issues: reports.reduce((n, r) => n + r.issues.length, 0),
      checks,
      ...(args.with_reasoner ? { reasoner: reasonerVerdict(ctx, args.limit) } : {}),
      reasoner_note: args.with_reasoner
        ? NOT_A_PROOF + ' The reasoner field reports the last classification as it stands; nothing was classified for this call.'
        : NOT_A_PROOF + ' Pass with_reasoner=true to include the current reasoner verdict (consistency, unsatisfiable classes).',
    };
  },
});
