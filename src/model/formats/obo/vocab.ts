// IRIs of the OBO-to-OWL mapping (oboInOwl, IAO) shared by the OBO reader and writer.

import { RDFS_COMMENT, RDFS_LABEL } from '../../vocab.js';

export const OBO = 'http://purl.obolibrary.org/obo/';
export const OIO = 'http://www.geneontology.org/formats/oboInOwl#';

export const IAO_DEFINITION = OBO + 'IAO_0000115';
export const IAO_REPLACED_BY = OBO + 'IAO_0100001';
export const IAO_EXPAND_EXPRESSION_TO = OBO + 'IAO_0000424';
export const IAO_EXPAND_ASSERTION_TO = OBO + 'IAO_0000425';
/** The header tag whose value is a functional-syntax document of the axioms OBO has no tag for. */
export const OWL_AXIOMS_TAG = 'owl-axioms';
export const OIO_ID = OIO + 'id';
export const OIO_SHORTHAND = OIO + 'shorthand';
export const OIO_NAMESPACE = OIO + 'hasOBONamespace';
export const OIO_ALT_ID = OIO + 'hasAlternativeId';
export const OIO_XREF = OIO + 'hasDbXref';
export const OIO_IN_SUBSET = OIO + 'inSubset';
export const OIO_SYNONYM_TYPE = OIO + 'hasSynonymType';
export const OIO_CONSIDER = OIO + 'consider';
export const OIO_CREATED_BY = OIO + 'created_by';
export const OIO_CREATION_DATE = OIO + 'creation_date';
export const OIO_FORMAT_VERSION = OIO + 'hasOBOFormatVersion';
export const OIO_SUBSET_PROPERTY = OIO + 'SubsetProperty';
export const OIO_SYNONYM_TYPE_PROPERTY = OIO + 'SynonymTypeProperty';
export const OIO_SCOPE = OIO + 'hasScope';
export const OIO_REVERSIBLE_CHAIN = OIO + 'is_reversible_property_chain';

/** Synonym scope keyword → annotation property. */
export const SYNONYM_SCOPES: ReadonlyMap<string, string> = new Map([
  ['EXACT', OIO + 'hasExactSynonym'],
  ['NARROW', OIO + 'hasNarrowSynonym'],
  ['BROAD', OIO + 'hasBroadSynonym'],
  ['RELATED', OIO + 'hasRelatedSynonym'],
]);

/** Typedef boolean tags that become object property characteristic axioms. */
export const CHARACTERISTIC_TAGS: ReadonlyMap<string, string> = new Map([
  ['is_transitive', 'TransitiveObjectProperty'],
  ['is_symmetric', 'SymmetricObjectProperty'],
  ['is_reflexive', 'ReflexiveObjectProperty'],
  ['is_asymmetric', 'AsymmetricObjectProperty'],
  ['is_functional', 'FunctionalObjectProperty'],
  ['is_inverse_functional', 'InverseFunctionalObjectProperty'],
  ['is_irreflexive', 'IrreflexiveObjectProperty'],
]);

/** Tags whose value is a plain string annotation. */
export const STRING_TAGS: ReadonlyMap<string, string> = new Map([
  ['name', RDFS_LABEL],
  ['comment', RDFS_COMMENT],
  ['namespace', OIO_NAMESPACE],
  ['alt_id', OIO_ALT_ID],
  ['consider', OIO_CONSIDER],
  ['created_by', OIO_CREATED_BY],
  ['creation_date', OIO_CREATION_DATE],
]);

/** Typedef macro tags written like def: a quoted text, then a dbxref list. */
export const QUOTED_TEXT_TAGS: ReadonlyMap<string, string> = new Map([
  ['expand_expression_to', IAO_EXPAND_EXPRESSION_TO],
  ['expand_assertion_to', IAO_EXPAND_ASSERTION_TO],
]);
