// The RDF vocabulary of the OWL 2 RDF mapping, as the reader needs it. Every vocabulary IRI is a small
// integer: its index in VOCABULARY, which every TripleTable registers first, so the mapping dispatches on
// term ids with integer compares instead of string compares.

import type { CharacteristicKind, EntityKind } from '../terms.js';
import { RDF, RDFS, OWL, SWRL, BUILT_IN_ANNOTATION_PROPERTIES, BUILT_IN_DATATYPES, FACETS, XSD } from '../vocab.js';

const iris: string[] = [];
const v = (iri: string): number => iris.push(iri) - 1;

export const RDF_TYPE = v(RDF + 'type');
export const RDF_FIRST = v(RDF + 'first');
export const RDF_REST = v(RDF + 'rest');
export const RDF_NIL = v(RDF + 'nil');
export const RDF_LIST = v(RDF + 'List');
export const RDF_PROPERTY = v(RDF + 'Property');

export const RDFS_SUBCLASS_OF = v(RDFS + 'subClassOf');
export const RDFS_SUBPROPERTY_OF = v(RDFS + 'subPropertyOf');
export const RDFS_DOMAIN = v(RDFS + 'domain');
export const RDFS_RANGE = v(RDFS + 'range');
export const RDFS_DATATYPE = v(RDFS + 'Datatype');
export const RDFS_CLASS = v(RDFS + 'Class');

export const O = {
  Ontology: v(OWL + 'Ontology'),
  imports: v(OWL + 'imports'),
  versionIRI: v(OWL + 'versionIRI'),
  Class: v(OWL + 'Class'),
  ObjectProperty: v(OWL + 'ObjectProperty'),
  DatatypeProperty: v(OWL + 'DatatypeProperty'),
  AnnotationProperty: v(OWL + 'AnnotationProperty'),
  NamedIndividual: v(OWL + 'NamedIndividual'),
  Restriction: v(OWL + 'Restriction'),
  DataRange: v(OWL + 'DataRange'),
  Axiom: v(OWL + 'Axiom'),
  Annotation: v(OWL + 'Annotation'),
  annotatedSource: v(OWL + 'annotatedSource'),
  annotatedProperty: v(OWL + 'annotatedProperty'),
  annotatedTarget: v(OWL + 'annotatedTarget'),
  AllDisjointClasses: v(OWL + 'AllDisjointClasses'),
  AllDisjointProperties: v(OWL + 'AllDisjointProperties'),
  AllDifferent: v(OWL + 'AllDifferent'),
  members: v(OWL + 'members'),
  distinctMembers: v(OWL + 'distinctMembers'),
  NegativePropertyAssertion: v(OWL + 'NegativePropertyAssertion'),
  sourceIndividual: v(OWL + 'sourceIndividual'),
  assertionProperty: v(OWL + 'assertionProperty'),
  targetIndividual: v(OWL + 'targetIndividual'),
  targetValue: v(OWL + 'targetValue'),
  FunctionalProperty: v(OWL + 'FunctionalProperty'),
  equivalentClass: v(OWL + 'equivalentClass'),
  disjointWith: v(OWL + 'disjointWith'),
  disjointUnionOf: v(OWL + 'disjointUnionOf'),
  hasKey: v(OWL + 'hasKey'),
  equivalentProperty: v(OWL + 'equivalentProperty'),
  propertyDisjointWith: v(OWL + 'propertyDisjointWith'),
  inverseOf: v(OWL + 'inverseOf'),
  propertyChainAxiom: v(OWL + 'propertyChainAxiom'),
  sameAs: v(OWL + 'sameAs'),
  differentFrom: v(OWL + 'differentFrom'),
  intersectionOf: v(OWL + 'intersectionOf'),
  unionOf: v(OWL + 'unionOf'),
  complementOf: v(OWL + 'complementOf'),
  oneOf: v(OWL + 'oneOf'),
  onProperty: v(OWL + 'onProperty'),
  someValuesFrom: v(OWL + 'someValuesFrom'),
  allValuesFrom: v(OWL + 'allValuesFrom'),
  hasValue: v(OWL + 'hasValue'),
  hasSelf: v(OWL + 'hasSelf'),
  minCardinality: v(OWL + 'minCardinality'),
  maxCardinality: v(OWL + 'maxCardinality'),
  cardinality: v(OWL + 'cardinality'),
  minQualifiedCardinality: v(OWL + 'minQualifiedCardinality'),
  maxQualifiedCardinality: v(OWL + 'maxQualifiedCardinality'),
  qualifiedCardinality: v(OWL + 'qualifiedCardinality'),
  onClass: v(OWL + 'onClass'),
  onDataRange: v(OWL + 'onDataRange'),
  onDatatype: v(OWL + 'onDatatype'),
  withRestrictions: v(OWL + 'withRestrictions'),
  datatypeComplementOf: v(OWL + 'datatypeComplementOf'),
  DeprecatedClass: v(OWL + 'DeprecatedClass'),
  DeprecatedProperty: v(OWL + 'DeprecatedProperty'),
  InverseFunctionalProperty: v(OWL + 'InverseFunctionalProperty'),
  TransitiveProperty: v(OWL + 'TransitiveProperty'),
  SymmetricProperty: v(OWL + 'SymmetricProperty'),
  AsymmetricProperty: v(OWL + 'AsymmetricProperty'),
  AntisymmetricProperty: v(OWL + 'AntisymmetricProperty'),
  ReflexiveProperty: v(OWL + 'ReflexiveProperty'),
  IrreflexiveProperty: v(OWL + 'IrreflexiveProperty'),
  SelfRestriction: v(OWL + 'SelfRestriction'),
  onProperties: v(OWL + 'onProperties'),
  propertyChain: v(OWL + 'propertyChain'),
  disjointObjectProperties: v(OWL + 'disjointObjectProperties'),
  Thing: v(OWL + 'Thing'),
};

export const S = {
  Imp: v(SWRL + 'Imp'),
  Variable: v(SWRL + 'Variable'),
  body: v(SWRL + 'body'),
  head: v(SWRL + 'head'),
  ClassAtom: v(SWRL + 'ClassAtom'),
  DataRangeAtom: v(SWRL + 'DataRangeAtom'),
  IndividualPropertyAtom: v(SWRL + 'IndividualPropertyAtom'),
  DatavaluedPropertyAtom: v(SWRL + 'DatavaluedPropertyAtom'),
  BuiltinAtom: v(SWRL + 'BuiltinAtom'),
  SameIndividualAtom: v(SWRL + 'SameIndividualAtom'),
  DifferentIndividualsAtom: v(SWRL + 'DifferentIndividualsAtom'),
  AtomList: v(SWRL + 'AtomList'),
  classPredicate: v(SWRL + 'classPredicate'),
  propertyPredicate: v(SWRL + 'propertyPredicate'),
  dataRange: v(SWRL + 'dataRange'),
  builtin: v(SWRL + 'builtin'),
  arguments: v(SWRL + 'arguments'),
  argument1: v(SWRL + 'argument1'),
  argument2: v(SWRL + 'argument2'),
};

/** Term ids below this are the reserved vocabulary; from it on, the built-in annotation properties. */
export const RESERVED_COUNT = iris.length;
for (const iri of BUILT_IN_ANNOTATION_PROPERTIES) v(iri);

/** The vocabulary IRIs, indexed by their term id: the reserved vocabulary, then the built-in annotation properties. */
export const VOCABULARY: readonly string[] = iris;

/** Entity kinds as bits, so an IRI's (possibly punned) kinds fit in one small integer. */
export const K_CLASS = 1,
  K_OP = 2,
  K_DP = 4,
  K_AP = 8,
  K_IND = 16,
  K_DT = 32;

/** The entity kind of each kind bit. */
export const KIND_OF_BIT: ReadonlyMap<number, EntityKind> = new Map([
  [K_CLASS, 'Class'],
  [K_OP, 'ObjectProperty'],
  [K_DP, 'DataProperty'],
  [K_AP, 'AnnotationProperty'],
  [K_IND, 'NamedIndividual'],
  [K_DT, 'Datatype'],
]);

/** rdf:type objects that declare an entity, with the kind bit each declares. */
export const DECLARING_TYPES: ReadonlyMap<number, number> = new Map([
  [O.Class, K_CLASS],
  [O.ObjectProperty, K_OP],
  [O.DatatypeProperty, K_DP],
  [O.AnnotationProperty, K_AP],
  [O.NamedIndividual, K_IND],
  [RDFS_DATATYPE, K_DT],
]);

/** Object property characteristics: rdf:type object → axiom kind. */
export const CHARACTERISTICS: ReadonlyMap<number, CharacteristicKind> = new Map<number, CharacteristicKind>([
  [O.InverseFunctionalProperty, 'InverseFunctionalObjectProperty'],
  [O.TransitiveProperty, 'TransitiveObjectProperty'],
  [O.SymmetricProperty, 'SymmetricObjectProperty'],
  [O.AsymmetricProperty, 'AsymmetricObjectProperty'],
  // The OWL 1.1 name of owl:AsymmetricProperty, still found in older files.
  [O.AntisymmetricProperty, 'AsymmetricObjectProperty'],
  [O.ReflexiveProperty, 'ReflexiveObjectProperty'],
  [O.IrreflexiveProperty, 'IrreflexiveObjectProperty'],
]);

const RESERVED_NAMESPACES = [RDF, RDFS, OWL, SWRL];

/**
 * True for IRIs of the RDF/RDFS/OWL/SWRL vocabularies other than the built-in annotation properties, and for
 * the constraining facets (xsd:pattern, xsd:minInclusive, …), which only restrict datatypes (Structural
 * Specification §2.4, reserved vocabulary; §7.5).
 */
export function isReserved(iri: string): boolean {
  if (BUILT_IN_ANNOTATION_PROPERTIES.has(iri)) return false;
  if (FACETS.has(iri)) return true;
  for (const ns of RESERVED_NAMESPACES) if (iri.startsWith(ns)) return true;
  return false;
}

/** Datatypes known without declaration: the OWL 2 datatype map and anything in the XSD namespace. */
export function isBuiltInDatatype(iri: string): boolean {
  return BUILT_IN_DATATYPES.has(iri) || iri.startsWith(XSD);
}
