// What a valid project policy configures in the QC gate (TOOLS.md 1.9, 1.10, run_project_qc): the profile the
// `profile` stage enforces, the governance conventions (IRI policy, required annotations, labels, definitions,
// lifecycle), the formats the `interoperability` stage round-trips, the reasoner the policy requires and its
// time bound, and the waivers. Policy terms (CURIEs) are expanded here, once, against the policy's prefixes.

import type { EffectivePolicy } from '../policy/schema.js';
import { expandTerm } from '../policy/curie.js';
import { resolveReasoner, sortedReasoners, type ReasonerInfo } from '../reasoner/registry.js';
import type { Waiver } from './finding.js';
import type { StageOptions } from './gate.js';
import type { GovernanceOptions } from './stages/governance.js';
import { policyShaclSource } from './stages/shacl.js';
import { policyAssetOptions } from './stages/policy-assets.js';

export interface PolicyGateConfig {
  readonly options: StageOptions;
  readonly waivers: readonly Waiver[];
}

/** The full IRI of a policy term (a valid policy's terms all expand; anything else is kept as written). */
function expand(policy: EffectivePolicy, term: string): string {
  return expandTerm(term, policy.prefixes) ?? term;
}

/** Status values as written, plus the IRI a CURIE-shaped one stands for (a status may be a literal or an IRI). */
function statusForms(policy: EffectivePolicy, statuses: readonly string[]): string[] {
  const out = new Set<string>();
  for (const s of statuses) {
    out.add(s);
    const iri = expandTerm(s, policy.prefixes);
    if (iri !== null) out.add(iri);
  }
  return [...out];
}

export function policyGovernance(policy: EffectivePolicy): GovernanceOptions {
  const { annotations, iri_policy: iris, lifecycle } = policy;
  return {
    required_namespaces: iris.required_namespaces,
    ...(iris.pattern === undefined ? {} : { iri_pattern: iris.pattern }),
    // `<iri>` pins the property: a policy term never falls back to matching display names.
    required_annotations: annotations.required.map((t) => `<${expand(policy, t)}>`),
    check_ownership: true,
    include_imports: false,
    label_rules: {
      property: expand(policy, annotations.label.property),
      required: annotations.label.required,
      languages: annotations.label.languages,
      max_per_language: annotations.label.max_per_language,
    },
    definition_rules: {
      property: expand(policy, annotations.definition.property),
      required: annotations.definition.required,
      languages: annotations.definition.languages,
      datatype: annotations.definition.datatype === undefined ? null : expand(policy, annotations.definition.datatype),
      placeholders: annotations.definition.placeholders,
    },
    lifecycle_rules: {
      status_property: lifecycle.status_property === undefined ? null : expand(policy, lifecycle.status_property),
      allowed_statuses: statusForms(policy, lifecycle.allowed_statuses),
      replacement_property: expand(policy, lifecycle.replacement_property),
      deprecated_requires_replacement: lifecycle.deprecated_requires_replacement,
    },
  };
}

/** The policy's waivers with their focus IRIs expanded, so they compare with findings' full IRIs. */
export function policyWaivers(policy: EffectivePolicy): Waiver[] {
  return policy.validation.waivers.map((w) => ({
    rule_id: w.rule_id,
    focus_iri: w.focus_iri === null ? null : expand(policy, w.focus_iri),
    reason: w.reason,
    expires: w.expires,
  }));
}

/** Stage options and waivers of a valid policy; its SHACL, invariant and CQ assets resolve against `projectRoot`. */
export function policyGateConfig(policy: EffectivePolicy, projectRoot: string | null): PolicyGateConfig {
  return {
    options: {
      shacl: policyShaclSource(policy, projectRoot),
      ...policyAssetOptions(policy, projectRoot),
      owlProfile: policy.interoperability.owl_profile,
      governance: policyGovernance(policy),
      includeImports: false,
      interoperability: { format: policy.interoperability.format, roundTripFormats: policy.interoperability.round_trip_formats },
      ...(policy.reasoning.reasoner === undefined ? {} : { policyReasoner: policy.reasoning.reasoner }),
      reasonerTimeoutMs: policy.reasoning.timeout_ms,
    },
    waivers: policyWaivers(policy),
  };
}

const label = (r: ReasonerInfo) => `${r.name} [${r.id}]`;

/**
 * Why the window's captured reasoner selection cannot stand for the one the policy names (TOOLS.md 1.10
 * reference rule), naming both; null when it matches.
 */
export function policyReasonerProblem(reference: string, selected: ReasonerInfo): string | null {
  const window = `the window's selected reasoner is ${label(selected)}`;
  const found = resolveReasoner(reference);
  if (found.kind === 'none') {
    return `the policy's reasoning.reasoner "${reference}" names no installed reasoner (installed: ${sortedReasoners().map(label).join(', ')}); ${window}`;
  }
  if (found.kind === 'ambiguous') {
    return `the policy's reasoning.reasoner "${reference}" matches several reasoners (${found.candidates.map(label).join(', ')}); ${window}`;
  }
  if (selected.id === found.reasoner.id) return null;
  return `the policy requires ${label(found.reasoner)} but ${window}`;
}
