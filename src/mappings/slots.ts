// The SSSOM 1.0 vocabulary the store reads and writes: the mapping and mapping-set slots in the
// specification's order (which is also the canonical column and header order), which of them are
// multivalued (`|` in TSV cells, lists in the header), which hold entity references or non-relative URIs,
// the enumerations, the built-in prefixes and the mapping justifications of SEMAPV.

/** Mapping slots (TSV columns) in SSSOM 1.0 order. */
export const MAPPING_SLOTS = [
  'subject_id',
  'subject_label',
  'subject_category',
  'predicate_id',
  'predicate_label',
  'predicate_modifier',
  'object_id',
  'object_label',
  'object_category',
  'mapping_justification',
  'author_id',
  'author_label',
  'reviewer_id',
  'reviewer_label',
  'creator_id',
  'creator_label',
  'license',
  'subject_type',
  'subject_source',
  'subject_source_version',
  'object_type',
  'object_source',
  'object_source_version',
  'mapping_provider',
  'mapping_source',
  'mapping_cardinality',
  'mapping_tool',
  'mapping_tool_version',
  'mapping_date',
  'publication_date',
  'confidence',
  'curation_rule',
  'curation_rule_text',
  'subject_match_field',
  'object_match_field',
  'match_string',
  'subject_preprocessing',
  'object_preprocessing',
  'similarity_score',
  'similarity_measure',
  'see_also',
  'issue_tracker_item',
  'other',
  'comment',
] as const;

/** Mapping-set slots (YAML header keys) in SSSOM 1.0 order; `mappings` is the table itself. */
export const SET_SLOTS = [
  'curie_map',
  'mapping_set_id',
  'mapping_set_version',
  'mapping_set_source',
  'mapping_set_title',
  'mapping_set_description',
  'creator_id',
  'creator_label',
  'license',
  'subject_type',
  'subject_source',
  'subject_source_version',
  'object_type',
  'object_source',
  'object_source_version',
  'mapping_provider',
  'mapping_tool',
  'mapping_tool_version',
  'mapping_date',
  'publication_date',
  'subject_match_field',
  'object_match_field',
  'subject_preprocessing',
  'object_preprocessing',
  'see_also',
  'issue_tracker',
  'other',
  'comment',
  'extension_definitions',
] as const;

export const MAPPING_SLOT_SET: ReadonlySet<string> = new Set(MAPPING_SLOTS);
export const SET_SLOT_SET: ReadonlySet<string> = new Set(SET_SLOTS);

/** Athene's mapping identity column, written as a declared extension slot so SSSOM tools keep it. */
export const MAPPING_ID = 'mapping_id';
export const MAPPING_ID_DEFINITION = {
  slot_name: MAPPING_ID,
  property: 'http://purl.org/dc/terms/identifier',
  type_hint: 'http://www.w3.org/2001/XMLSchema#string',
} as const;

export const MULTIVALUED: ReadonlySet<string> = new Set([
  'author_id',
  'author_label',
  'reviewer_id',
  'reviewer_label',
  'creator_id',
  'creator_label',
  'curation_rule',
  'curation_rule_text',
  'subject_match_field',
  'object_match_field',
  'match_string',
  'subject_preprocessing',
  'object_preprocessing',
  'see_also',
  'mapping_set_source',
]);

/** Slots whose values are CURIEs or IRIs that must expand through the prefix map. */
export const ENTITY_REFERENCES: ReadonlySet<string> = new Set([
  'subject_id',
  'predicate_id',
  'object_id',
  'mapping_justification',
  'author_id',
  'reviewer_id',
  'creator_id',
  'subject_source',
  'object_source',
  'mapping_source',
  'curation_rule',
  'subject_match_field',
  'object_match_field',
  'subject_preprocessing',
  'object_preprocessing',
  'issue_tracker_item',
]);

/** Slots whose values must be non-relative URIs (never CURIEs). */
export const URI_SLOTS: ReadonlySet<string> = new Set([
  'license',
  'mapping_provider',
  'see_also',
  'mapping_set_id',
  'mapping_set_source',
  'issue_tracker',
]);

export const SCORE_SLOTS: ReadonlySet<string> = new Set(['confidence', 'similarity_score']);
export const DATE_SLOTS: ReadonlySet<string> = new Set(['mapping_date', 'publication_date']);

export const ENTITY_TYPES: ReadonlySet<string> = new Set([
  'owl class',
  'owl object property',
  'owl data property',
  'owl annotation property',
  'owl named individual',
  'skos concept',
  'rdfs resource',
  'rdfs class',
  'rdfs literal',
  'rdfs datatype',
  'rdf property',
]);
export const PREDICATE_MODIFIERS: ReadonlySet<string> = new Set(['Not']);
export const CARDINALITIES: ReadonlySet<string> = new Set(['1:1', '1:n', 'n:1', 'n:n', '1:0', '0:1', '0:0']);

export const ENUMS: Readonly<Record<string, ReadonlySet<string>>> = {
  subject_type: ENTITY_TYPES,
  object_type: ENTITY_TYPES,
  predicate_modifier: PREDICATE_MODIFIERS,
  mapping_cardinality: CARDINALITIES,
};

/** Prefixes every SSSOM file may use without declaring; a curie_map may not rebind them. */
export const BUILT_IN_PREFIXES: Readonly<Record<string, string>> = Object.freeze({
  owl: 'http://www.w3.org/2002/07/owl#',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  semapv: 'https://w3id.org/semapv/vocab/',
  skos: 'http://www.w3.org/2004/02/skos/core#',
  sssom: 'https://w3id.org/sssom/',
});

const SEMAPV = BUILT_IN_PREFIXES.semapv;
export const JUSTIFICATIONS: ReadonlySet<string> = new Set(
  [
    'MappingReview',
    'ManualMappingCuration',
    'LogicalReasoning',
    'LexicalMatching',
    'CompositeMatching',
    'UnspecifiedMatching',
    'SemanticSimilarityThresholdMatching',
    'LexicalSimilarityThresholdMatching',
    'MappingChaining',
    'MappingInversion',
    'StructuralMatching',
    'InstanceBasedMatching',
    'BackgroundKnowledgeBasedMatching',
  ].map((j) => SEMAPV + j),
);

const SKOS = BUILT_IN_PREFIXES.skos;
const OWL = BUILT_IN_PREFIXES.owl;
const RDFS = BUILT_IN_PREFIXES.rdfs;

/** Predicates that assert the endpoints are interchangeable. */
export const EXACT_PREDICATES: ReadonlySet<string> = new Set([
  SKOS + 'exactMatch',
  OWL + 'equivalentClass',
  OWL + 'equivalentProperty',
  OWL + 'sameAs',
]);
/** Predicates meaning "subject is narrower than object" (edges of the direction graph). */
export const NARROWER_PREDICATES: ReadonlySet<string> = new Set([SKOS + 'broadMatch', RDFS + 'subClassOf', RDFS + 'subPropertyOf']);
/** Predicates meaning "subject is broader than object" (reversed edges). */
export const BROADER_PREDICATES: ReadonlySet<string> = new Set([SKOS + 'narrowMatch']);

/** The predicates the SSSOM specification names; others are allowed with a warning. */
export const STANDARD_PREDICATES: ReadonlySet<string> = new Set([
  ...EXACT_PREDICATES,
  ...NARROWER_PREDICATES,
  ...BROADER_PREDICATES,
  SKOS + 'closeMatch',
  SKOS + 'relatedMatch',
  RDFS + 'seeAlso',
  'http://www.geneontology.org/formats/oboInOwl#hasDbXref',
]);

export const NO_TERM_FOUND = BUILT_IN_PREFIXES.sssom + 'NoTermFound';

/** `subject_type`/`object_type` values and the OWL entity kind each names. */
export const ENTITY_TYPE_KINDS: Readonly<Record<string, string>> = {
  'owl class': 'Class',
  'owl object property': 'ObjectProperty',
  'owl data property': 'DataProperty',
  'owl annotation property': 'AnnotationProperty',
  'owl named individual': 'NamedIndividual',
  'rdfs datatype': 'Datatype',
};
