// Facts about a whole imports closure that the profile rules consult: declared entities, the entity kinds
// each IRI is used with, the object property hierarchy, defined datatypes. Built from the indexes (by kind,
// by referenced entity), never by re-reading every axiom.

import type { Entity, EntityKind, IRI } from '../terms.js';
import type { Ontology } from '../ontology.js';
import { PropertyHierarchy } from './property-hierarchy.js';
import {
  BUILT_IN_ANNOTATION_PROPERTIES,
  BUILT_IN_DATATYPES,
  OWL,
  OWL_BOTTOM_DATA_PROPERTY,
  OWL_BOTTOM_OBJECT_PROPERTY,
  OWL_NOTHING,
  OWL_THING,
  OWL_TOP_DATA_PROPERTY,
  OWL_TOP_OBJECT_PROPERTY,
  RDF,
  RDFS,
  XSD,
} from '../vocab.js';

export interface ClosureFacts {
  readonly declared: ReadonlySet<Entity>;
  readonly kindsByIri: ReadonlyMap<IRI, ReadonlySet<EntityKind>>;
  readonly hierarchy: PropertyHierarchy;
  /** Datatypes defined by a DatatypeDefinition somewhere in the closure. */
  readonly definedDatatypes: ReadonlySet<IRI>;
}

export function closureFacts(closure: readonly Ontology[]): ClosureFacts {
  const declared = new Set<Entity>();
  const kindsByIri = new Map<IRI, Set<EntityKind>>();
  const definedDatatypes = new Set<IRI>();
  for (const o of closure) {
    for (const d of o.axiomsOfKind('Declaration')) declared.add(d.entity);
    for (const d of o.axiomsOfKind('DatatypeDefinition')) definedDatatypes.add(d.datatype.iri);
    for (const k of o.index.referencing.keys()) {
      if (k.kind === 'AnonymousIndividual') continue;
      let s = kindsByIri.get(k.iri);
      if (s === undefined) kindsByIri.set(k.iri, (s = new Set()));
      s.add(k.kind);
    }
  }
  return { declared, kindsByIri, hierarchy: PropertyHierarchy.of(closure), definedDatatypes };
}

/** The reserved vocabulary of OWL 2 (Structural Specification §2.4): IRIs in these namespaces. */
const RESERVED_NAMESPACES: readonly string[] = [OWL, RDF, RDFS, XSD];

export const isReserved = (iri: IRI): boolean => RESERVED_NAMESPACES.some((ns) => iri.startsWith(ns));

/** Reserved IRIs an entity of each kind may still use (§5.1–5.6). */
const RESERVED_ALLOWED: Readonly<Record<EntityKind, ReadonlySet<IRI>>> = {
  Class: new Set([OWL_THING, OWL_NOTHING]),
  ObjectProperty: new Set([OWL_TOP_OBJECT_PROPERTY, OWL_BOTTOM_OBJECT_PROPERTY]),
  DataProperty: new Set([OWL_TOP_DATA_PROPERTY, OWL_BOTTOM_DATA_PROPERTY]),
  AnnotationProperty: BUILT_IN_ANNOTATION_PROPERTIES,
  Datatype: BUILT_IN_DATATYPES,
  NamedIndividual: new Set(),
};

/** Built-in entities: they need no declaration. */
export const isBuiltIn = (e: Entity): boolean => RESERVED_ALLOWED[e.kind].has(e.iri);

/** A reserved IRI used as an entity of a kind that may not use it. */
export const misusesReservedVocabulary = (e: Entity): boolean => isReserved(e.iri) && !RESERVED_ALLOWED[e.kind].has(e.iri);

/** Whether an IRI starts with a scheme (RFC 3987: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"), i.e. is absolute for the DL checks. */
export const hasScheme = (iri: IRI): boolean => /^[A-Za-z][A-Za-z0-9+.-]*:/.test(iri);
