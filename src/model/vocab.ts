// Namespaces and well-known IRIs of RDF, RDFS, OWL 2, XSD and SWRL.

export const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
export const OWL = 'http://www.w3.org/2002/07/owl#';
export const XSD = 'http://www.w3.org/2001/XMLSchema#';
export const XML = 'http://www.w3.org/XML/1998/namespace';
export const SWRL = 'http://www.w3.org/2003/11/swrl#';
export const SWRLB = 'http://www.w3.org/2003/11/swrlb#';

export const OWL_THING = OWL + 'Thing';
export const OWL_NOTHING = OWL + 'Nothing';
export const OWL_TOP_OBJECT_PROPERTY = OWL + 'topObjectProperty';
export const OWL_BOTTOM_OBJECT_PROPERTY = OWL + 'bottomObjectProperty';
export const OWL_TOP_DATA_PROPERTY = OWL + 'topDataProperty';
export const OWL_BOTTOM_DATA_PROPERTY = OWL + 'bottomDataProperty';
export const RDFS_LITERAL = RDFS + 'Literal';
export const RDFS_LABEL = RDFS + 'label';
export const RDFS_COMMENT = RDFS + 'comment';
export const RDF_PLAIN_LITERAL = RDF + 'PlainLiteral';
export const RDF_LANG_STRING = RDF + 'langString';
export const XSD_STRING = XSD + 'string';
export const XSD_INTEGER = XSD + 'integer';
export const XSD_BOOLEAN = XSD + 'boolean';
export const OWL_DEPRECATED = OWL + 'deprecated';

/** The prefixes every OWL document format knows without declaring them. */
export const STANDARD_PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ['owl:', OWL],
  ['rdf:', RDF],
  ['rdfs:', RDFS],
  ['xml:', XML],
  ['xsd:', XSD],
];

/**
 * Well-known vocabularies by their customary prefix (without the colon): a CURIE with one of these prefixes
 * resolves even where the document's prefix map does not declare it (the map always wins).
 */
export const WELL_KNOWN_PREFIXES: Readonly<Record<string, string>> = Object.freeze({
  rdf: RDF,
  rdfs: RDFS,
  owl: OWL,
  xsd: XSD,
  skos: 'http://www.w3.org/2004/02/skos/core#',
  dc: 'http://purl.org/dc/elements/1.1/',
  dcterms: 'http://purl.org/dc/terms/',
  oboInOwl: 'http://www.geneontology.org/formats/oboInOwl#',
  obo: 'http://purl.obolibrary.org/obo/',
  prov: 'http://www.w3.org/ns/prov#',
  schema: 'http://schema.org/',
  foaf: 'http://xmlns.com/foaf/0.1/',
});

/** Datatypes of the OWL 2 datatype map (plus rdfs:Literal), which are built in and need no declaration. */
export const BUILT_IN_DATATYPES: ReadonlySet<string> = new Set([
  RDFS_LITERAL,
  RDF_PLAIN_LITERAL,
  RDF + 'XMLLiteral',
  RDF_LANG_STRING,
  OWL + 'real',
  OWL + 'rational',
  ...[
    'decimal',
    'integer',
    'nonNegativeInteger',
    'nonPositiveInteger',
    'positiveInteger',
    'negativeInteger',
    'long',
    'int',
    'short',
    'byte',
    'unsignedLong',
    'unsignedInt',
    'unsignedShort',
    'unsignedByte',
    'double',
    'float',
    'string',
    'normalizedString',
    'token',
    'language',
    'Name',
    'NCName',
    'NMTOKEN',
    'boolean',
    'hexBinary',
    'base64Binary',
    'anyURI',
    'dateTime',
    'dateTimeStamp',
  ].map((n) => XSD + n),
]);

/** Annotation properties OWL 2 treats as built in (no declaration needed). */
export const BUILT_IN_ANNOTATION_PROPERTIES: ReadonlySet<string> = new Set([
  RDFS_LABEL,
  RDFS_COMMENT,
  RDFS + 'seeAlso',
  RDFS + 'isDefinedBy',
  OWL_DEPRECATED,
  OWL + 'versionInfo',
  OWL + 'priorVersion',
  OWL + 'backwardCompatibleWith',
  OWL + 'incompatibleWith',
]);

/** Facets allowed in datatype restrictions. */
export const FACETS: ReadonlySet<string> = new Set(
  [
    'length',
    'minLength',
    'maxLength',
    'pattern',
    'enumeration',
    'whiteSpace',
    'maxInclusive',
    'maxExclusive',
    'minInclusive',
    'minExclusive',
    'totalDigits',
    'fractionDigits',
    'langRange',
  ].map((f) => (f === 'langRange' ? RDF + f : XSD + f)),
);
