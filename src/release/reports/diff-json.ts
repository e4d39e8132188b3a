// `reports/diff.json` (prepare_release with a baseline): the asserted axiom diff of the released root
// ontology against the verified baseline serialization, every added and removed axiom as one canonical
// functional-syntax line (full IRIs), sorted. Deterministic except `created_at`.

import type { ReleaseGateResult } from '../result.js';

export function diffJson(g: ReleaseGateResult, createdAt: string): Record<string, unknown> | null {
  const b = g.baseline;
  if (b.status !== 'compared') return null;
  return {
    diff_version: 1,
    generator: g.generator,
    created_at: createdAt,
    scope: 'root_ontology_asserted_axioms',
    baseline: {
      manifest: b.manifest,
      manifest_sha256: b.manifest_sha256,
      created_at: b.baseline_created_at,
      version_iri: b.baseline_version_iri,
      semantic_fingerprint: b.baseline_semantic_fingerprint,
      unresolved_imports: b.unresolved_imports,
    },
    current: { iri: g.ontology.iri, version_iri: g.ontology.version_iri, semantic_fingerprint: g.fingerprints.semantic },
    axioms_added: b.axioms_added,
    axioms_removed: b.axioms_removed,
    axioms_common: b.axioms_common,
    added: b.diff.added,
    removed: b.diff.removed,
  };
}

export function diffJsonText(g: ReleaseGateResult, createdAt: string): string | null {
  const d = diffJson(g, createdAt);
  return d === null ? null : JSON.stringify(d, null, 2) + '\n';
}
