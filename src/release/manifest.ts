// `manifest.json` of a release (TOOLS.md prepare_release): what was released, from which policy and gate,
// with the fingerprints of the content and every other artifact's path, size and sha256. It is written in one
// canonical form (2-space JSON, keys in the order below, a final newline), so a manifest read back as a
// baseline is accepted only when it re-serializes to exactly its own bytes: a duplicate key, trailing
// content or a hand edit is refused. Deterministic except `created_at`.

import * as v from 'valibot';
import type { FormatId } from '../model/ontology.js';
import type { ResolvedImport } from './provenance.js';
import type { ReleaseGateResult } from './result.js';

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_VERSION = 1;

export type ArtifactRole = 'ontology' | 'qc_json' | 'qc_markdown' | 'qc_junit' | 'qc_sarif' | 'diff' | 'ro_crate';

export interface ManifestArtifact {
  /** Relative to the manifest's directory, `/`-separated. */
  readonly path: string;
  readonly role: ArtifactRole;
  readonly media_type: string;
  readonly sha256: string;
  readonly bytes: number;
}

export interface ManifestBaseline {
  readonly manifest_sha256: string;
  readonly version_iri: string | null;
  readonly semantic_fingerprint: string;
  readonly axioms_added: number;
  readonly axioms_removed: number;
}

export interface Manifest {
  readonly manifest_version: typeof MANIFEST_VERSION;
  readonly generator: { readonly name: string; readonly version: string | null };
  readonly project_id: string;
  readonly policy_digest: string;
  readonly created_at: string;
  readonly gate: 'pass';
  readonly ontology: { readonly iri: string | null; readonly version_iri: string | null; readonly format: FormatId; readonly path: string };
  readonly fingerprints: {
    readonly semantic: string;
    readonly rdf_dataset: string;
    readonly closure: string | null;
    readonly qc_identity: string;
  };
  readonly imports: readonly ResolvedImport[];
  readonly baseline: ManifestBaseline | null;
  readonly artifacts: readonly ManifestArtifact[];
}

/** The manifest of a passed gate whose artifacts are `artifacts` (every file but the manifest itself). */
export function buildManifest(g: ReleaseGateResult, createdAt: string, artifacts: readonly ManifestArtifact[]): Manifest {
  if (
    g.manifest_blocker !== null ||
    g.serialization === null ||
    g.policy_digest === null ||
    g.project_id === null ||
    g.fingerprints.rdf_dataset === null ||
    g.fingerprints.qc_identity === null
  ) {
    throw new Error(`no manifest for this gate result: ${g.manifest_blocker ?? 'incomplete gate result'}`);
  }
  const b = g.baseline;
  return {
    manifest_version: MANIFEST_VERSION,
    generator: g.generator,
    project_id: g.project_id,
    policy_digest: g.policy_digest,
    created_at: createdAt,
    gate: 'pass',
    ontology: { iri: g.ontology.iri, version_iri: g.ontology.version_iri, format: g.serialization.format, path: g.serialization.path },
    fingerprints: {
      semantic: g.fingerprints.semantic,
      rdf_dataset: g.fingerprints.rdf_dataset,
      closure: g.fingerprints.closure,
      qc_identity: g.fingerprints.qc_identity,
    },
    imports: g.resolved_imports,
    baseline:
      b.status !== 'compared'
        ? null
        : {
            manifest_sha256: b.manifest_sha256,
            version_iri: b.baseline_version_iri,
            semantic_fingerprint: b.baseline_semantic_fingerprint,
            axioms_added: b.axioms_added,
            axioms_removed: b.axioms_removed,
          },
    artifacts,
  };
}

/** The one byte form a manifest is written in. */
export function serializeManifest(m: Manifest): string {
  return JSON.stringify(m, null, 2) + '\n';
}

const Digest = v.pipe(v.string(), v.regex(/^sha256:[0-9a-f]{64}$/, 'a sha256: digest'));
const NullableString = v.nullable(v.string());

const ManifestSchema = v.strictObject({
  manifest_version: v.literal(MANIFEST_VERSION),
  generator: v.strictObject({ name: v.string(), version: NullableString }),
  project_id: v.string(),
  policy_digest: Digest,
  created_at: v.string(),
  gate: v.literal('pass'),
  ontology: v.strictObject({
    iri: NullableString,
    version_iri: NullableString,
    format: v.picklist([
      'turtle',
      'ntriples',
      'nquads',
      'trig',
      'rdfxml',
      'jsonld',
      'owlxml',
      'ofn',
      'manchester',
      'obo',
    ] as const satisfies readonly FormatId[]),
    path: v.string(),
  }),
  fingerprints: v.strictObject({ semantic: Digest, rdf_dataset: Digest, closure: v.nullable(Digest), qc_identity: Digest }),
  imports: v.array(
    v.strictObject({
      ontology_iri: NullableString,
      version_iri: NullableString,
      document: NullableString,
      source_type: v.nullable(v.picklist(['local', 'remote', 'memory'])),
      backed_by: v.picklist(['local_file', 'remote', 'memory', 'unauthorized_local_file', 'missing_local_file', 'unresolved']),
    }),
  ),
  baseline: v.nullable(
    v.strictObject({
      manifest_sha256: Digest,
      version_iri: NullableString,
      semantic_fingerprint: Digest,
      axioms_added: v.pipe(v.number(), v.integer(), v.minValue(0)),
      axioms_removed: v.pipe(v.number(), v.integer(), v.minValue(0)),
    }),
  ),
  artifacts: v.pipe(
    v.array(
      v.strictObject({
        path: v.string(),
        role: v.picklist(['ontology', 'qc_json', 'qc_markdown', 'qc_junit', 'qc_sarif', 'diff', 'ro_crate']),
        media_type: v.string(),
        sha256: Digest,
        bytes: v.pipe(v.number(), v.integer(), v.minValue(0)),
      }),
    ),
    v.maxLength(64),
  ),
});

export type ManifestParse = { readonly ok: true; readonly manifest: Manifest } | { readonly ok: false; readonly reason: string };

/** Parses a manifest strictly: valid JSON, the closed schema above, and byte-identical to its canonical form. */
export function parseManifest(text: string): ManifestParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, reason: `it is not JSON (${(e as Error).message})` };
  }
  const checked = v.safeParse(ManifestSchema, value);
  if (!checked.success) {
    const issue = checked.issues[0];
    const where = v.getDotPath(issue);
    return { ok: false, reason: `it is not a release manifest (${where === null ? '' : where + ': '}${issue.message})` };
  }
  const manifest = checked.output as Manifest;
  if (serializeManifest(manifest) !== text) {
    return {
      ok: false,
      reason: 'it is not in the canonical form prepare_release writes (a duplicate key, trailing content, reordered keys or a hand edit)',
    };
  }
  return { ok: true, manifest };
}
