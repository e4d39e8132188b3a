// `ro-crate-metadata.json`: the release as an RO-Crate 1.1 (https://w3id.org/ro/crate/1.1): the metadata
// descriptor, the root Dataset (name, description, datePublished, license, the ontology's IRI and version)
// with every released file as a data entity (encoding format, size, sha256), and the RDFC-1.0 canonical
// N-Quads fingerprint of the root ontology as a contextual entity. The manifest is not described (it records
// this file's digest; describing it here would make each depend on the other).

import type { ReleaseGateResult } from '../result.js';

export const RO_CRATE_FILE = 'ro-crate-metadata.json';
export const RO_CRATE_CONTEXT = 'https://w3id.org/ro/crate/1.1/context';
export const RO_CRATE_PROFILE = 'https://w3id.org/ro/crate/1.1';

export interface CrateFile {
  readonly path: string;
  readonly name: string;
  readonly media_type: string;
  readonly sha256: string;
  readonly bytes: number;
}

const hex = (digest: string) => digest.replace(/^sha256:/, '');

const DATASET_ID = '#canonical-rdf-dataset';

export function roCrate(g: ReleaseGateResult, createdAt: string, files: readonly CrateFile[]): Record<string, unknown> {
  const ontologyPath = g.serialization?.path ?? null;
  const license = g.ontology.license;
  const dataset =
    g.fingerprints.rdf_dataset === null || g.rdf_dataset_identity === null
      ? null
      : {
          '@id': DATASET_ID,
          '@type': 'CreativeWork',
          name: 'RDFC-1.0 canonical N-Quads of the root ontology',
          encodingFormat: g.rdf_dataset_identity.ro_crate.encodingFormat,
          sha256: hex(g.fingerprints.rdf_dataset),
          conformsTo: { '@id': g.rdf_dataset_identity.canonicalization.specification },
          ...(ontologyPath === null ? {} : { isBasedOn: { '@id': ontologyPath } }),
        };
  const root = {
    '@id': './',
    '@type': 'Dataset',
    name: g.ontology.title ?? `${g.project_id ?? 'ontology'} release`,
    description: g.ontology.description ?? `Release of the ontology ${g.ontology.iri ?? '(anonymous)'} by ${g.generator.name}`,
    datePublished: createdAt,
    ...(license === null ? {} : { license: typeof license === 'string' ? license : { '@id': license['@id'] } }),
    ...(g.ontology.iri === null ? {} : { identifier: g.ontology.iri }),
    ...(g.ontology.version_iri === null ? {} : { version: g.ontology.version_iri }),
    hasPart: files.map((f) => ({ '@id': f.path })),
    ...(dataset === null ? {} : { mentions: [{ '@id': DATASET_ID }] }),
  };
  return {
    '@context': RO_CRATE_CONTEXT,
    '@graph': [
      { '@id': RO_CRATE_FILE, '@type': 'CreativeWork', conformsTo: { '@id': RO_CRATE_PROFILE }, about: { '@id': './' } },
      root,
      ...files.map((f) => ({
        '@id': f.path,
        '@type': 'File',
        name: f.name,
        encodingFormat: f.media_type,
        contentSize: String(f.bytes),
        sha256: hex(f.sha256),
        ...(f.path === ontologyPath && g.ontology.iri !== null ? { about: { '@id': g.ontology.iri } } : {}),
      })),
      ...(dataset === null ? [] : [dataset]),
      ...(license === null || typeof license === 'string'
        ? []
        : [{ '@id': license['@id'], '@type': 'CreativeWork', name: license['@id'] }]),
    ],
  };
}

export const roCrateText = (g: ReleaseGateResult, createdAt: string, files: readonly CrateFile[]): string =>
  JSON.stringify(roCrate(g, createdAt, files), null, 2) + '\n';
