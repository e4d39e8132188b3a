// The axiom operand set (INTERFACE.md 2.1–2.3, TOOLS.md §2): one table of axiom types and the operands
// each consumes, from which both the builder's checks and the valibot schema of the tools are derived.

import * as v from 'valibot';

export const AXIOM_TYPES = [
  'subclass_of',
  'equivalent_classes',
  'disjoint_classes',
  'disjoint_union',
  'class_assertion',
  'object_property_assertion',
  'data_property_assertion',
  'negative_object_property_assertion',
  'negative_data_property_assertion',
  'same_individual',
  'different_individuals',
  'sub_object_property_of',
  'sub_data_property_of',
  'sub_property_chain_of',
  'equivalent_object_properties',
  'disjoint_object_properties',
  'equivalent_data_properties',
  'disjoint_data_properties',
  'inverse_object_properties',
  'transitive_object_property',
  'functional_object_property',
  'inverse_functional_object_property',
  'symmetric_object_property',
  'asymmetric_object_property',
  'reflexive_object_property',
  'irreflexive_object_property',
  'functional_data_property',
  'has_key',
  'object_property_domain',
  'object_property_range',
  'data_property_domain',
  'data_property_range',
  'annotation_assertion',
  'sub_annotation_property_of',
  'annotation_property_domain',
  'annotation_property_range',
  'declaration',
  'datatype_definition',
] as const;

export type AxiomType = (typeof AXIOM_TYPES)[number];

export const ENTITY_TYPES = ['class', 'object_property', 'data_property', 'annotation_property', 'individual', 'datatype'] as const;
export type EntityTypeName = (typeof ENTITY_TYPES)[number];

/** String-valued operand fields. */
export const STRING_FIELDS = [
  'sub',
  'super',
  'class',
  'individual',
  'property',
  'super_property',
  'inverse_property',
  'subject',
  'object',
  'value',
  'value_iri',
  'lang',
  'datatype',
  'entity',
  'entity_type',
  'domain',
  'range',
] as const;
/** List-valued operand fields. */
export const LIST_FIELDS = ['classes', 'individuals', 'properties', 'chain'] as const;

export type StringField = (typeof STRING_FIELDS)[number];
export type ListField = (typeof LIST_FIELDS)[number];
export type OperandField = StringField | ListField;

export interface OperandSpec {
  readonly required: readonly OperandField[];
  readonly optional: readonly OperandField[];
  /** Minimum sizes of the list operands. */
  readonly min: Partial<Record<ListField, number>>;
}

const spec = (required: OperandField[], optional: OperandField[] = [], min: Partial<Record<ListField, number>> = {}): OperandSpec => ({
  required,
  optional,
  min,
});
const classList = spec(['classes'], [], { classes: 2 });
const individualList = spec(['individuals'], [], { individuals: 2 });
const propertyList = spec(['properties'], [], { properties: 2 });
const oneProperty = spec(['property']);
const objectAssertion = spec(['property', 'subject', 'object']);
const dataAssertion = spec(['property', 'subject', 'value'], ['datatype', 'lang']);

export const OPERAND_SPECS: Readonly<Record<AxiomType, OperandSpec>> = {
  subclass_of: spec(['sub', 'super']),
  equivalent_classes: classList,
  disjoint_classes: classList,
  disjoint_union: spec(['class', 'classes'], [], { classes: 2 }),
  class_assertion: spec(['class', 'individual']),
  object_property_assertion: objectAssertion,
  data_property_assertion: dataAssertion,
  negative_object_property_assertion: objectAssertion,
  negative_data_property_assertion: dataAssertion,
  same_individual: individualList,
  different_individuals: individualList,
  sub_object_property_of: spec(['property', 'super_property']),
  sub_data_property_of: spec(['property', 'super_property']),
  sub_property_chain_of: spec(['chain', 'super_property'], [], { chain: 2 }),
  equivalent_object_properties: propertyList,
  disjoint_object_properties: propertyList,
  equivalent_data_properties: propertyList,
  disjoint_data_properties: propertyList,
  inverse_object_properties: spec(['property', 'inverse_property']),
  transitive_object_property: oneProperty,
  functional_object_property: oneProperty,
  inverse_functional_object_property: oneProperty,
  symmetric_object_property: oneProperty,
  asymmetric_object_property: oneProperty,
  reflexive_object_property: oneProperty,
  irreflexive_object_property: oneProperty,
  functional_data_property: oneProperty,
  has_key: spec(['class', 'properties'], [], { properties: 1 }),
  object_property_domain: spec(['property', 'domain']),
  object_property_range: spec(['property', 'range']),
  data_property_domain: spec(['property', 'domain']),
  data_property_range: spec(['property', 'range']),
  // exactly one of value / value_iri is checked by the builder (value_iri wins when both are given)
  annotation_assertion: spec(['subject'], ['property', 'value', 'value_iri', 'datatype', 'lang']),
  sub_annotation_property_of: spec(['property', 'super_property']),
  annotation_property_domain: spec(['property', 'domain']),
  annotation_property_range: spec(['property', 'range']),
  declaration: spec(['entity', 'entity_type']),
  datatype_definition: spec(['datatype', 'range']),
};

export const FIELD_DESCRIPTIONS: Readonly<Partial<Record<OperandField, string>>> = {
  value_iri: 'Wins over value.',
  datatype: 'Of a typed literal; datatype_definition: the one defined.',
  domain: 'Annotation properties: an IRI.',
  range: 'Class expression, data range or IRI, by property kind.',
};

/** An element of `annotations` (INTERFACE.md 2.3), with optional nested annotations. */
export interface AnnotationInput {
  property?: string | undefined;
  value?: string | undefined;
  value_iri?: string | undefined;
  lang?: string | undefined;
  datatype?: string | undefined;
  annotations?: AnnotationInput[] | undefined;
}

export const AnnotationSchema: v.GenericSchema<AnnotationInput> = v.strictObject({
  property: v.optional(v.pipe(v.string(), v.description('Default rdfs:label.'))),
  value: v.optional(v.pipe(v.string(), v.description('Literal text; or value_iri.'))),
  value_iri: v.optional(v.string()),
  lang: v.optional(v.string()),
  datatype: v.optional(v.string()),
  annotations: v.optional(v.array(v.lazy(() => AnnotationSchema))),
});

function fieldSchema(field: OperandField, min: number | undefined): v.GenericSchema {
  const text = FIELD_DESCRIPTIONS[field];
  const schema =
    field === 'entity_type'
      ? v.picklist(ENTITY_TYPES)
      : (LIST_FIELDS as readonly string[]).includes(field)
        ? v.pipe(v.array(v.string()), v.minLength(min ?? 0))
        : v.string();
  return text === undefined ? schema : v.pipe(schema, v.description(text));
}

function typeSchema(type: AxiomType) {
  const s = OPERAND_SPECS[type];
  const entries: v.ObjectEntries = { axiom_type: v.literal(type) };
  for (const f of s.required) entries[f] = fieldSchema(f, s.min[f as ListField]);
  for (const f of s.optional) entries[f] = v.optional(fieldSchema(f, s.min[f as ListField]));
  entries.annotations = v.optional(v.array(AnnotationSchema));
  return v.strictObject(entries as { axiom_type: v.LiteralSchema<AxiomType, undefined> } & v.ObjectEntries);
}

/** The operand set: a closed object per axiom_type, discriminated by `axiom_type`. */
export const AxiomOperandsSchema = v.variant('axiom_type', AXIOM_TYPES.map(typeSchema));

/** The operand set as the builder receives it (validated by the builder itself). */
export type AxiomOperands = { axiom_type: AxiomType; annotations?: AnnotationInput[] } & Partial<Record<StringField, string>> &
  Partial<Record<ListField, string[]>>;
