// validate_governance (TOOLS.md 3.2): the OWL 2 profile check and the governance checks (IRI policy,
// required annotations, import layering) over the live active ontology, read synchronously on the actor so
// nothing changes under them. One implementation with the `profile` and `governance` QC stages.

import * as v from 'valibot';
import { entity as makeEntity, type Entity } from '../../model/terms.js';
import { checkProfile, ProfileCheckTimeout } from '../../model/profiles/check.js';
import { OWL_PROFILES, type OwlProfile, type ProfileReport, type ProfileViolation } from '../../model/profiles/report.js';
import { profileFinding, SKIPPING_PROFILES } from '../../qc/stages/profile.js';
import {
  compileIriPattern,
  GOVERNANCE_CHECKS,
  GOVERNANCE_SEVERITY,
  runGovernance,
  type GovernanceCheckId,
  type GovernanceOptions,
} from '../../qc/stages/governance.js';
import { identityDigest } from '../../qc/identity.js';
import type { Finding, QcSnapshot } from '../../qc/finding.js';
import { defineTool, never, ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';
import { AnyList, StringList } from '../core/result-shapes.js';
import { auditTimeout, checkSampleLimit } from './audit-arguments.js';
import { entityRow } from '../../report/rows.js';
import { unreachable } from '../../util/unreachable.js';

const PROFILE_VALUES = [...OWL_PROFILES, ...SKIPPING_PROFILES] as [string, ...string[]];

const TITLES: Readonly<Record<GovernanceCheckId | 'owl_profile', string>> = {
  owl_profile: 'OWL 2 profile conformance',
  iri_policy: 'Owned IRIs outside the IRI policy',
  required_annotations: 'Owned classes and properties missing required annotations',
  import_layering: 'Logical axioms about imported terms',
};

const SUGGESTIONS: Readonly<Record<GovernanceCheckId, string>> = {
  iri_policy: 'Rename the terms into a required namespace (rename_entity) or adjust required_namespaces / iri_pattern.',
  required_annotations: 'Add the missing annotations (add_annotation, set_label), or drop the requirement.',
  import_layering:
    'Move axioms about imported terms into the ontology that owns them, or declare the term locally if it is meant to be owned here.',
};

function profileSuggestion(profile: OwlProfile): string {
  return profile === 'DL'
    ? 'Fix each violation (declare used entities, keep properties in cardinality and characteristic axioms simple, keep property chains regular, avoid reserved IRIs and illegal punning).'
    : `Rewrite or remove the axioms outside OWL 2 ${profile}, or check against a more expressive profile (owl_profile DL).`;
}

function violationRow(v: ProfileViolation): JsonObject {
  return {
    kind: v.kind,
    message: v.message,
    ...(v.axiom !== undefined ? { axiom: v.axiom } : {}),
    ...(v.entity !== undefined ? { entity: v.entity } : {}),
    ontology: v.ontology,
  };
}

function capped(items: readonly JsonObject[], limit: number): { items: JsonObject[]; truncated?: number } {
  return { items: items.slice(0, limit), ...(items.length > limit ? { truncated: items.length - limit } : {}) };
}

/** The profile row: owned violations gate; with include_imports every violation is owned. */
function profileRow(report: ProfileReport, includeImports: boolean, limit: number): { row: JsonObject; count: number } {
  const owned = report.violations.filter((x) => includeImports || x.owned).map((x) => (x.owned ? x : { ...x, owned: true }));
  const imported = report.violations.filter((x) => !includeImports && !x.owned);
  const findings = owned.map((x) => profileFinding(x, report.profile));
  const examples = capped(owned.map(violationRow), limit);
  return {
    count: owned.length,
    row: {
      id: 'owl_profile',
      severity: 'error',
      title: `${TITLES.owl_profile} (OWL 2 ${report.profile})`,
      in_profile: report.inProfile,
      owned_in_profile: owned.length === 0,
      count: owned.length,
      identity_digest: identityDigest(findings),
      suggestion: profileSuggestion(report.profile),
      examples: examples.items,
      ...(imported.length > 0 ? { imported_violations: { count: imported.length, ...capped(imported.map(violationRow), limit) } } : {}),
      ...(examples.truncated !== undefined ? { truncated: examples.truncated } : {}),
    },
  };
}

/** An entity row for a finding's focus (its first declared kind in the closure). */
function focusRow(iri: string, s: QcSnapshot, ctx: ToolContext): JsonObject {
  for (const kind of ['Class', 'ObjectProperty', 'DataProperty', 'AnnotationProperty', 'NamedIndividual', 'Datatype'] as const) {
    const e: Entity = makeEntity(kind, iri);
    if (s.closure.some((o) => o.index.referencing.has(e))) return { ...entityRow(e, ctx) };
  }
  return { iri, display: iri, type: 'IRI' };
}

function governanceRow(
  check: GovernanceCheckId,
  findings: readonly Finding[],
  options: GovernanceOptions,
  s: QcSnapshot,
  limit: number,
  ctx: ToolContext,
): JsonObject {
  const count = findings.length;
  const base = {
    id: check,
    severity: GOVERNANCE_SEVERITY[check],
    title: TITLES[check],
    count,
    identity_digest: identityDigest(findings),
    suggestion: SUGGESTIONS[check],
  };
  const truncated = count > limit ? { truncated: count - limit } : {};
  switch (check) {
    case 'iri_policy':
      return {
        ...base,
        examples: findings.slice(0, limit).map((f) => ({ ...focusRow(f.focus_iri!, s, ctx), message: f.message })),
        details: { required_namespaces: options.required_namespaces ?? [], iri_pattern: options.iri_pattern ?? null },
        ...truncated,
      };
    case 'required_annotations': {
      const missing: Record<string, number> = {};
      for (const f of findings) {
        const r = String((f.details as { required: string }).required);
        missing[r] = (missing[r] ?? 0) + 1;
      }
      return {
        ...base,
        examples: findings
          .slice(0, limit)
          .map((f) => ({ ...focusRow(f.focus_iri!, s, ctx), missing: (f.details as { required: string }).required })),
        details: { required_annotations: options.required_annotations ?? [], missing_by_annotation: missing },
        ...truncated,
      };
    }
    case 'import_layering':
      return {
        ...base,
        examples: [...new Set(findings.map((f) => f.focus_iri!))].slice(0, limit).map((iri) => focusRow(iri, s, ctx)),
        axioms: findings.slice(0, limit).map((f) => f.axiom!),
        ...truncated,
      };
    default:
      return unreachable(check);
  }
}

export const validateGovernance = defineTool({
  name: 'validate_governance',
  description: 'Governance audit: OWL 2 profile, IRI policy, required annotations, edits of imported terms.',
  input: v.strictObject({
    include_imports: v.optional(v.boolean(), false),
    owl_profile: v.optional(
      v.pipe(v.picklist(PROFILE_VALUES, `owl_profile must be one of ${PROFILE_VALUES.join(', ')}`), v.description('none or Full: skip.')),
      'DL',
    ),
    required_namespaces: v.optional(v.array(v.pipe(v.string(), v.nonEmpty()))),
    iri_pattern: v.optional(v.pipe(v.string(), v.description('ECMAScript regex every owned IRI must match.'))),
    required_annotations: v.optional(
      v.pipe(v.array(v.pipe(v.string(), v.nonEmpty())), v.description('Required on owned classes and properties.')),
    ),
    check_ownership: v.optional(v.pipe(v.boolean(), v.description('Flag axioms about imported terms.')), true),
    limit: checkSampleLimit,
    timeout_ms: auditTimeout,
  }),
  output: v.object({
    scope: v.string(),
    profile: v.string(),
    total_violations: v.number(),
    checks: AnyList,
    notes: StringList,
    note: v.string(),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (args, ctx) => {
    if (args.iri_pattern !== undefined) {
      try {
        compileIriPattern(args.iri_pattern);
      } catch (e) {
        throw new ToolFailure((e as Error).message, 'invalid_argument', { iri_pattern: args.iri_pattern });
      }
    }
    const deadline = Date.now() + args.timeout_ms;
    const ws = ctx.workspace;
    const snapshot: QcSnapshot = {
      ontology: ws.active,
      closure: ws.importsClosure(ws.active),
      revision: ws.revision,
      labelLanguage: ctx.settings.label_language,
    };
    const checks: JsonObject[] = [];
    let total = 0;
    const skipped = SKIPPING_PROFILES.includes(args.owl_profile);
    if (!skipped) {
      let report: ProfileReport;
      try {
        report = checkProfile(snapshot.closure, args.owl_profile as OwlProfile, snapshot.ontology, deadline);
      } catch (e) {
        if (e instanceof ProfileCheckTimeout)
          throw new ToolFailure(`validate_governance did not finish within ${args.timeout_ms} ms`, 'timeout', {
            timeout_ms: args.timeout_ms,
          });
        throw e;
      }
      const { row, count } = profileRow(report, args.include_imports, args.limit);
      checks.push(row);
      total += count;
    }
    const options: GovernanceOptions = {
      required_namespaces: args.required_namespaces,
      iri_pattern: args.iri_pattern,
      required_annotations: args.required_annotations,
      check_ownership: args.check_ownership,
      include_imports: args.include_imports,
    };
    const { findings, notes } = runGovernance(snapshot, options);
    if (Date.now() > deadline)
      throw new ToolFailure(`validate_governance did not finish within ${args.timeout_ms} ms`, 'timeout', { timeout_ms: args.timeout_ms });
    const configured: Readonly<Record<GovernanceCheckId, boolean>> = {
      iri_policy: (args.required_namespaces?.length ?? 0) > 0 || args.iri_pattern !== undefined,
      required_annotations: (args.required_annotations?.length ?? 0) > 0,
      import_layering: args.check_ownership,
    };
    for (const check of GOVERNANCE_CHECKS) {
      if (!configured[check]) continue;
      const own = findings.filter((f) => f.rule_id === check);
      checks.push(governanceRow(check, own, options, snapshot, args.limit, ctx));
      total += own.length;
    }
    const ran = checks.map((c) => c.id as string);
    return {
      scope: args.include_imports ? 'imports_closure' : 'active_ontology',
      profile: args.owl_profile,
      total_violations: total,
      checks,
      notes,
      note:
        (skipped ? `The profile check was skipped (owl_profile ${args.owl_profile}). ` : '') +
        (ran.length === 0 ? 'No check was configured. ' : `Checks run: ${ran.join(', ')}. `) +
        'Owned terms are those declared in the audited scope; profile violations from imported ontologies are context (imported_violations) and not counted.',
    };
  },
});
