// The commented starter policy of write_project_policy_template (TOOLS.md 3.3): identity and
// interoperability from the active ontology, safe defaults (no external paths, no network, unlocked
// imports, a named reasoner, base QC stages), and every asset-referencing block commented out, since the
// files they would name do not exist yet. The root artifact it names does not exist either: creating it
// with `save_ontology policy_bootstrap=true` is the first step.

import type { PolicyFormat } from './schema.js';

export type TemplateProfile = 'general' | 'obo';

export interface TemplateInput {
  readonly projectId: string;
  readonly rootOntology: string;
  readonly rootArtifact: string;
  readonly format: PolicyFormat;
  readonly profile: TemplateProfile;
  readonly version: 1 | 2;
  /** The installed reasoner the profile calls for (its display name). */
  readonly reasoner: string;
}

/** A YAML double-quoted scalar (JSON string syntax is valid YAML). */
const q = (s: string) => JSON.stringify(s);

const V2_BLOCKS = `
# Version 2 blocks. Endpoints and credentials never live here: a provider names an origin alias and a
# credential id bound in the owner's private directory (~/.athene/providers/config.json).
external_terms:
  providers: []
#   - id: ols
#     profile: ols4
#     enabled: false
#     origin_alias: ebi-ols
#     ontologies: [go, uberon]
#     languages: [en]
#     ttl_seconds: 3600
#     freshness: cache_ok
#     max_results: 20

# mappings:
#   path: mappings/project.sssom.tsv
#   allowed_predicates: [skos:exactMatch, skos:closeMatch]

jobs:
  enabled: true

materialization:
  max_axioms: 500
  allow_source_write: false   # true lets commit_materialization write inferred axioms into the active ontology
`;

/** The template text; `version`, `project_id`, `root_ontology` and `interoperability` are filled in. */
export function policyTemplate(t: TemplateInput): string {
  const obo = t.profile === 'obo';
  return `# Athene project policy (schema version ${t.version}). Unknown fields are errors; every block is optional
# unless marked required. Relative paths resolve against the project root.
version: ${t.version}
project_id: ${q(t.projectId)}            # required
root_ontology: ${q(t.rootOntology)}      # required: the ontology IRI of the root artifact
root_artifact: ${q(t.rootArtifact)}      # create it first: save_ontology path=<this> policy_bootstrap=true
project_root: "."

interoperability:
  format: ${t.format}
  owl_profile: ${obo ? 'EL' : 'DL'}
  round_trip_formats: []

filesystem:
  allow_external_paths: false

network:
  default: deny
#  allowed_hosts: [purl.obolibrary.org]

imports:
  mode: unlocked
  network: deny
#  lockfile: imports.lock.json

reasoning:
  reasoner: ${q(t.reasoner)}
  required: false
  timeout_ms: 120000

validation:
  required_stages: [profile, structural, governance]
  fail_on: error

entity_search:
  preferred_properties: [rdfs:label, skos:prefLabel]
  synonym_properties: [skos:altLabel, oboInOwl:hasExactSynonym, oboInOwl:hasRelatedSynonym]
  preferred_languages: [en]
  fallback_languages: [und]

# prefixes:
#   ex: http://example.org/

# modules:
#   - id: core
#     path: modules/core.ttl
#     namespaces: [http://example.org/core#]

# annotations:
#   required: [rdfs:label]
#   label: {property: rdfs:label, languages: [en], max_per_language: 1}
#   definition: {property: obo:IAO_0000115, required: true, languages: [en]}

# iri_policy:
#   required_namespaces: [http://example.org/]
#   pattern: "^http://example[.]org/[A-Z][A-Za-z0-9]*$"

# lifecycle:
#   replacement_property: obo:IAO_0100001
#   deprecated_requires_replacement: true

# invariants:
#   paths: [qc/invariants.json]
# shacl:
#   paths: [qc/shapes.ttl]
# cqs:
#   paths: [qc/competency-questions.json]

# release:
#   output_dir: release
#   require_version_iri: true
#   require_clean_round_trip: true
#   format: ${t.format}
${t.version === 2 ? V2_BLOCKS : ''}`;
}
