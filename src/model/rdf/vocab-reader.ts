// The RDF vocabulary of the OWL 2 RDF mapping, as the reader needs it: IRIs and the sets it dispatches on.

import { RDF, RDFS, OWL, SWRL, BUILT_IN_ANNOTATION_PROPERTIES, BUILT_IN_DATATYPES, XSD } from '../vocab.js';

export const RDF_TYPE = RDF + 'type';
export const RDF_FIRST = RDF + 'first';
export const RDF_REST = RDF + 'rest';
export const RDF_NIL = RDF + 'nil';
export const RDF_LIST = RDF + 'List';
export const RDF_PROPERTY = RDF + 'Property';

export const RDFS_SUBCLASS_OF = RDFS + 'subClassOf';
export const RDFS_SUBPROPERTY_OF = RDFS + 'subPropertyOf';
export const RDFS_DOMAIN = RDFS + 'domain';
export const RDFS_RANGE = RDFS + 'range';
export const RDFS_DATATYPE = RDFS + 'Datatype';
export const RDFS_CLASS = RDFS + 'Class';

export const O = {
  Ontology: OWL + 'Ontology',
  imports: OWL + 'imports',
  versionIRI: OWL + 'versionIRI',
  Class: OWL + 'Class',
  ObjectProperty: OWL + 'ObjectProperty',
  DatatypeProperty: OWL + 'DatatypeProperty',
  AnnotationProperty: OWL + 'AnnotationProperty',
  NamedIndividual: OWL + 'NamedIndividual',
  Restriction: OWL + 'Restriction',
  DataRange: OWL + 'DataRange',
  Axiom: OWL + 'Axiom',
  Annotation: OWL + 'Annotation',
  annotatedSource: OWL + 'annotatedSource',
  annotatedProperty: OWL + 'annotatedProperty',
  annotatedTarget: OWL + 'annotatedTarget',
  AllDisjointClasses: OWL + 'AllDisjointClasses',
  AllDisjointProperties: OWL + 'AllDisjointProperties',
  AllDifferent: OWL + 'AllDifferent',
  members: OWL + 'members',
  distinctMembers: OWL + 'distinctMembers',
  NegativePropertyAssertion: OWL + 'NegativePropertyAssertion',
  sourceIndividual: OWL + 'sourceIndividual',
  assertionProperty: OWL + 'assertionProperty',
  targetIndividual: OWL + 'targetIndividual',
  targetValue: OWL + 'targetValue',
  FunctionalProperty: OWL + 'FunctionalProperty',
  equivalentClass: OWL + 'equivalentClass',
  disjointWith: OWL + 'disjointWith',
  disjointUnionOf: OWL + 'disjointUnionOf',
  hasKey: OWL + 'hasKey',
  equivalentProperty: OWL + 'equivalentProperty',
  propertyDisjointWith: OWL + 'propertyDisjointWith',
  inverseOf: OWL + 'inverseOf',
  propertyChainAxiom: OWL + 'propertyChainAxiom',
  sameAs: OWL + 'sameAs',
  differentFrom: OWL + 'differentFrom',
  intersectionOf: OWL + 'intersectionOf',
  unionOf: OWL + 'unionOf',
  complementOf: OWL + 'complementOf',
  oneOf: OWL + 'oneOf',
  onProperty: OWL + 'onProperty',
  someValuesFrom: OWL + 'someValuesFrom',
  allValuesFrom: OWL + 'allValuesFrom',
  hasValue: OWL + 'hasValue',
  hasSelf: OWL + 'hasSelf',
  minCardinality: OWL + 'minCardinality',
  maxCardinality: OWL + 'maxCardinality',
  cardinality: OWL + 'cardinality',
  minQualifiedCardinality: OWL + 'minQualifiedCardinality',
  maxQualifiedCardinality: OWL + 'maxQualifiedCardinality',
  qualifiedCardinality: OWL + 'qualifiedCardinality',
  onClass: OWL + 'onClass',
  onDataRange: OWL + 'onDataRange',
  onDatatype: OWL + 'onDatatype',
  withRestrictions: OWL + 'withRestrictions',
  datatypeComplementOf: OWL + 'datatypeComplementOf',
  DeprecatedClass: OWL + 'DeprecatedClass',
  DeprecatedProperty: OWL + 'DeprecatedProperty',
} as const;

export const S = {
  Imp: SWRL + 'Imp',
  Variable: SWRL + 'Variable',
  body: SWRL + 'body',
  head: SWRL + 'head',
  ClassAtom: SWRL + 'ClassAtom',
  DataRangeAtom: SWRL + 'DataRangeAtom',
  IndividualPropertyAtom: SWRL + 'IndividualPropertyAtom',
  DatavaluedPropertyAtom: SWRL + 'DatavaluedPropertyAtom',
  BuiltinAtom: SWRL + 'BuiltinAtom',
  SameIndividualAtom: SWRL + 'SameIndividualAtom',
  DifferentIndividualsAtom: SWRL + 'DifferentIndividualsAtom',
  AtomList: SWRL + 'AtomList',
  classPredicate: SWRL + 'classPredicate',
  propertyPredicate: SWRL + 'propertyPredicate',
  dataRange: SWRL + 'dataRange',
  builtin: SWRL + 'builtin',
  arguments: SWRL + 'arguments',
  argument1: SWRL + 'argument1',
  argument2: SWRL + 'argument2',
} as const;

/** Entity kinds as bits, so an IRI's (possibly punned) kinds fit in one small integer. */
export const K_CLASS = 1, K_OP = 2, K_DP = 4, K_AP = 8, K_IND = 16, K_DT = 32;

/** rdf:type objects that declare an entity, with the kind bit each declares. */
export const DECLARING_TYPES: ReadonlyMap<string, number> = new Map([
  [O.Class, K_CLASS], [O.ObjectProperty, K_OP], [O.DatatypeProperty, K_DP], [O.AnnotationProperty, K_AP],
  [O.NamedIndividual, K_IND], [RDFS_DATATYPE, K_DT],
]);

/** Object property characteristics: rdf:type object → axiom kind. */
export const CHARACTERISTICS = new Map([
  [OWL + 'InverseFunctionalProperty', 'InverseFunctionalObjectProperty'],
  [OWL + 'TransitiveProperty', 'TransitiveObjectProperty'],
  [OWL + 'SymmetricProperty', 'SymmetricObjectProperty'],
  [OWL + 'AsymmetricProperty', 'AsymmetricObjectProperty'],
  // The OWL 1.1 name of owl:AsymmetricProperty, still found in older files.
  [OWL + 'AntisymmetricProperty', 'AsymmetricObjectProperty'],
  [OWL + 'ReflexiveProperty', 'ReflexiveObjectProperty'],
  [OWL + 'IrreflexiveProperty', 'IrreflexiveObjectProperty'],
] as const);

const RESERVED_NAMESPACES = [RDF, RDFS, OWL, SWRL];

/** True for IRIs of the RDF/RDFS/OWL/SWRL vocabularies other than the built-in annotation properties. */
export function isReserved(iri: string): boolean {
  if (BUILT_IN_ANNOTATION_PROPERTIES.has(iri)) return false;
  for (const ns of RESERVED_NAMESPACES) if (iri.startsWith(ns)) return true;
  return false;
}

/** Datatypes known without declaration: the OWL 2 datatype map and anything in the XSD namespace. */
export function isBuiltInDatatype(iri: string): boolean {
  return BUILT_IN_DATATYPES.has(iri) || iri.startsWith(XSD);
}
