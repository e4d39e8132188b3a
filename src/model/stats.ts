// Summary figures of an ontology: axiom counts per type, signature sizes, header.

import type { Ontology } from './ontology.js';
import { isLogicalAxiom, ENTITY_KINDS, type AxiomKind, type EntityKind } from './terms.js';

export interface OntologyStats {
  format: string;
  ontologyIri: string | null;
  versionIri: string | null;
  axioms: number;
  logicalAxioms: number;
  declarations: number;
  annotationAssertions: number;
  axiomTypes: Partial<Record<AxiomKind, number>>;
  signature: Record<EntityKind, number> & { AnonymousIndividual: number };
  imports: string[];
  ontologyAnnotations: number;
  prefixes: Record<string, string>;
  unmapped: number;
}

export function ontologyStats(o: Ontology): OntologyStats {
  const axiomTypes: Partial<Record<AxiomKind, number>> = {};
  let logical = 0;
  for (const a of o.axioms()) {
    axiomTypes[a.kind] = (axiomTypes[a.kind] ?? 0) + 1;
    if (isLogicalAxiom(a)) logical++;
  }
  const sortedTypes = Object.fromEntries(Object.entries(axiomTypes).sort(([a], [b]) => (a < b ? -1 : 1)));
  const signature = { AnonymousIndividual: 0 } as OntologyStats['signature'];
  for (const kind of ENTITY_KINDS) signature[kind] = o.entities(kind).length;
  for (const k of o.index.referencing.keys()) if (k.kind === 'AnonymousIndividual') signature.AnonymousIndividual++;
  return {
    format: o.format,
    ontologyIri: o.id.iri,
    versionIri: o.id.versionIri,
    axioms: o.axiomCount,
    logicalAxioms: logical,
    declarations: axiomTypes.Declaration ?? 0,
    annotationAssertions: axiomTypes.AnnotationAssertion ?? 0,
    axiomTypes: sortedTypes,
    signature,
    imports: [...o.imports].sort(),
    ontologyAnnotations: o.annotations.size,
    prefixes: Object.fromEntries([...o.prefixes].sort(([a], [b]) => (a < b ? -1 : 1))),
    unmapped: o.unmapped.length,
  };
}
