// What a release says about the ontology beyond its id: title, description and license, read from the
// ontology annotations (Dublin Core terms and elements, RDFS, schema.org, Creative Commons). A release
// without a license is `release.license_unavailable` (RO-Crate 1.1: the root dataset SHOULD state one).

import type { Ontology } from '../model/ontology.js';
import { RDFS_COMMENT, RDFS_LABEL } from '../model/vocab.js';
import type { License } from './result.js';

const DCTERMS = 'http://purl.org/dc/terms/';
const DC = 'http://purl.org/dc/elements/1.1/';

const TITLE = [DCTERMS + 'title', DC + 'title', RDFS_LABEL];
const DESCRIPTION = [DCTERMS + 'description', DC + 'description', RDFS_COMMENT];
const LICENSE = [
  DCTERMS + 'license',
  'http://creativecommons.org/ns#license',
  'http://schema.org/license',
  'https://schema.org/license',
  DCTERMS + 'rights',
  DC + 'rights',
];

/** The ontology annotations on `property`, IRI values and literals, in a total order. */
function values(o: Ontology, property: string): License[] {
  const out: License[] = [];
  for (const a of o.annotations) {
    if (a.property.iri !== property) continue;
    if (a.value.kind === 'IRI') out.push({ '@id': a.value.iri });
    else if (a.value.kind === 'Literal') out.push(a.value.lex);
  }
  const key = (l: License) => (typeof l === 'string' ? '1' + l : '0' + l['@id']);
  return out.sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
}

/** The first value of the first property in `order` that has one (IRIs before literals). */
function first(o: Ontology, order: readonly string[]): License | null {
  for (const p of order) {
    const v = values(o, p);
    const [found] = v;
    if (found !== undefined) return found;
  }
  return null;
}

/** The first literal of the first property in `order` that has one. */
function firstText(o: Ontology, order: readonly string[]): string | null {
  for (const p of order) {
    const text = values(o, p).find((v): v is string => typeof v === 'string');
    if (text !== undefined) return text;
  }
  return null;
}

export interface OntologyMetadata {
  readonly title: string | null;
  readonly description: string | null;
  readonly license: License | null;
}

export function ontologyMetadata(o: Ontology): OntologyMetadata {
  return { title: firstText(o, TITLE), description: firstText(o, DESCRIPTION), license: first(o, LICENSE) };
}
