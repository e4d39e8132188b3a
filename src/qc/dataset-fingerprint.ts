// The RDF dataset fingerprint of run_project_qc (TOOLS.md 3.3): the root ontology's RDF (its OWL 2 → RDF
// mapping, written as N-Quads in the default graph) canonicalized with RDFC-1.0 (W3C RDF Dataset
// Canonicalization, the `rdf-canonize` implementation) and hashed with SHA-256. Blank nodes get canonical
// labels, so the digest depends only on the graph, not on serialization, load order or session node ids.

import type { Ontology } from '../model/ontology.js';
import { writeNQuads } from '../model/formats/rdf-writers.js';
import { sha256Digest } from '../util/digest.js';
import { lazyRequire } from '../util/lazy.js';

interface Canonizer {
  canonize(
    input: string,
    options: {
      algorithm: 'RDFC-1.0';
      inputFormat: 'application/n-quads';
      format: 'application/n-quads';
      maxWorkFactor: number;
      signal?: AbortSignal;
    },
  ): Promise<string>;
}

// rdf-canonize is CommonJS without type declarations; this is the one call used. It loads with the first
// fingerprint, not with every window.
const rdfCanonize = lazyRequire<Canonizer>('rdf-canonize');
const canonizeVersion = lazyRequire<{ version: string }>('rdf-canonize/package.json');

/**
 * Bound on the blank-node disambiguation work (rdf-canonize `maxWorkFactor`: N-degree hashing may run
 * O(n^factor) times); 2 allows the symmetric blank-node structures OWL lists and restrictions produce while
 * refusing adversarial ("poison") graphs instead of hanging.
 */
const MAX_WORK_FACTOR = 2;

/** Where the fingerprint sits in a release's RO-Crate and how it was computed. */
export interface RdfDatasetIdentity {
  readonly ontology_iri: string | null;
  readonly version_iri: string | null;
  readonly scope: 'root_ontology_asserted';
  readonly quad_count: number;
  readonly canonicalization: {
    readonly algorithm: 'RDFC-1.0';
    readonly hash_algorithm: 'SHA-256';
    readonly specification: string;
    readonly implementation: string;
    readonly input_format: 'application/n-quads';
  };
  readonly ro_crate: {
    readonly conformsTo: string;
    readonly encodingFormat: 'application/n-quads';
    readonly identifier_property: 'sha256';
  };
  /** The OWL 2 profile the content is governed by (the policy's `interoperability.owl_profile`). */
  readonly profile: string | null;
}

export type DatasetFingerprint =
  | { readonly ok: true; readonly fingerprint: string; readonly identity: RdfDatasetIdentity }
  | { readonly ok: false; readonly reason: string };

/** Canonical N-Quads are one quad per line, each ending in a newline. */
const quadCount = (canonical: string) => {
  let n = 0;
  for (let i = canonical.indexOf('\n'); i !== -1; i = canonical.indexOf('\n', i + 1)) n++;
  return n;
};

/** The RDFC-1.0 + SHA-256 fingerprint of `o`'s RDF; `ok:false` with the reason when canonicalization cannot finish. */
export async function rdfDatasetFingerprint(o: Ontology, profile: string | null, signal?: AbortSignal): Promise<DatasetFingerprint> {
  let canonical: string;
  try {
    canonical = await rdfCanonize().canonize(writeNQuads(o), {
      algorithm: 'RDFC-1.0',
      inputFormat: 'application/n-quads',
      format: 'application/n-quads',
      maxWorkFactor: MAX_WORK_FACTOR,
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (err) {
    return { ok: false, reason: `RDFC-1.0 canonicalization did not complete: ${(err as Error).message}` };
  }
  return {
    ok: true,
    fingerprint: sha256Digest(canonical),
    identity: {
      ontology_iri: o.id.iri,
      version_iri: o.id.versionIri,
      scope: 'root_ontology_asserted',
      quad_count: quadCount(canonical),
      canonicalization: {
        algorithm: 'RDFC-1.0',
        hash_algorithm: 'SHA-256',
        specification: 'https://www.w3.org/TR/rdf-canon/',
        implementation: `rdf-canonize@${canonizeVersion().version}`,
        input_format: 'application/n-quads',
      },
      ro_crate: { conformsTo: 'https://w3id.org/ro/crate/1.1', encodingFormat: 'application/n-quads', identifier_property: 'sha256' },
      profile,
    },
  };
}
