// create_term(s) / create_property(ies) items as operand sets (TOOLS.md 2): each item becomes the
// operations that declare, label, define and relate one entity, so the shared batch planner applies them
// and a preview of them is an ordinary change set that commit_change_set and rebase_change_set handle.
// The created entity is always referred to by its full IRI, so a replay resolves to the same axioms.

import * as v from 'valibot';
import { entity as makeEntity, type Entity } from '../../model/terms.js';
import { NameError } from '../../model/names.js';
import { IAO_DEFINITION } from '../../model/formats/obo/vocab.js';
import { AnnotationSchema, type AnnotationInput } from '../../model/operands/schema.js';
import { IDENTITY, LangTag, targetIri, Text, type IdentityArgs } from './authoring.js';
import { ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';

const TextList = v.array(Text);

const DEFINITION = {
  definition: v.optional(Text),
  definition_property: v.optional(v.pipe(Text, v.description('Default obo:IAO_0000115.'))),
  definition_lang: v.optional(LangTag),
  annotations: v.optional(v.array(AnnotationSchema)),
};

export const TERM_FIELDS = {
  ...IDENTITY,
  ...DEFINITION,
  parents: v.optional(TextList),
  equivalent_to: v.optional(TextList),
};

export const OBJECT_CHARACTERISTICS = [
  'functional',
  'inverse_functional',
  'transitive',
  'symmetric',
  'asymmetric',
  'reflexive',
  'irreflexive',
] as const;

export const PROPERTY_FIELDS = {
  ...IDENTITY,
  ...DEFINITION,
  property_type: v.optional(v.picklist(['object', 'data'])),
  domain: v.optional(Text),
  range: v.optional(v.pipe(Text, v.description('Class expression, or datatype / data range.'))),
  super_properties: v.optional(TextList),
  characteristics: v.optional(v.pipe(v.array(v.picklist(OBJECT_CHARACTERISTICS)), v.description('Data properties: functional only.'))),
  inverse_of: v.optional(Text),
};

export interface DefinitionArgs {
  definition?: string | undefined;
  definition_property?: string | undefined;
  definition_lang?: string | undefined;
  annotations?: AnnotationInput[] | undefined;
}

export interface TermArgs extends IdentityArgs, DefinitionArgs {
  parents?: string[] | undefined;
  equivalent_to?: string[] | undefined;
}

export interface PropertyArgs extends IdentityArgs, DefinitionArgs {
  property_type?: 'object' | 'data' | undefined;
  domain?: string | undefined;
  range?: string | undefined;
  super_properties?: string[] | undefined;
  characteristics?: (typeof OBJECT_CHARACTERISTICS)[number][] | undefined;
  inverse_of?: string | undefined;
}

/** Batch-level defaults for items lacking their own. */
export interface ItemDefaults {
  readonly namespace?: string | undefined;
  readonly definition_property?: string | undefined;
  readonly property_type?: 'object' | 'data' | undefined;
}

/** One operation of an item and the argument it came from, to name it in errors. */
export interface ItemOperation {
  readonly operation: JsonObject;
  readonly field: string;
}

export interface ExpandedItem {
  readonly entity: Entity;
  /** The entity was in the imports closure before the call. */
  readonly existed: boolean;
  readonly operations: readonly ItemOperation[];
}

/** A failure of one item; `field` names its argument. */
export class ItemError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'ItemError';
  }
}

const ENTITY_TYPE_OF: Readonly<Record<Entity['kind'], string>> = {
  Class: 'class',
  ObjectProperty: 'object_property',
  DataProperty: 'data_property',
  AnnotationProperty: 'annotation_property',
  NamedIndividual: 'individual',
  Datatype: 'datatype',
};

/** Declaration, label and definition of the entity named by `args`, plus its annotations. */
function identityOperations(e: Entity, args: IdentityArgs & DefinitionArgs, defaults: ItemDefaults): ItemOperation[] {
  const self = `<${e.iri}>`;
  const out: ItemOperation[] = [
    { field: 'name', operation: { axiom_type: 'declaration', entity: self, entity_type: ENTITY_TYPE_OF[e.kind] } },
  ];
  const label = args.no_label ? undefined : (args.label ?? args.name);
  if (label !== undefined) {
    out.push({
      field: 'label',
      operation: {
        axiom_type: 'annotation_assertion',
        subject: self,
        value: label,
        ...(args.label_lang === undefined ? {} : { lang: args.label_lang }),
      },
    });
  }
  if (args.definition !== undefined) {
    out.push({
      field: 'definition',
      operation: {
        axiom_type: 'annotation_assertion',
        subject: self,
        property: args.definition_property ?? defaults.definition_property ?? `<${IAO_DEFINITION}>`,
        value: args.definition,
        ...(args.definition_lang === undefined ? {} : { lang: args.definition_lang }),
      },
    });
  }
  (args.annotations ?? []).forEach((a, i) => {
    const { annotations, ...value } = a;
    out.push({
      field: `annotations[${i}]`,
      operation: { axiom_type: 'annotation_assertion', subject: self, ...value, ...(annotations === undefined ? {} : { annotations }) },
    });
  });
  return out;
}

function resolveIdentity(args: IdentityArgs, ctx: ToolContext, defaults: ItemDefaults): string {
  try {
    return targetIri({ ...args, namespace: args.namespace ?? defaults.namespace }, ctx);
  } catch (err) {
    if (err instanceof ToolFailure) throw new ItemError(err.message, (err.context.operand as string | undefined) ?? 'name');
    if (err instanceof NameError) throw new ItemError(err.message, 'name');
    throw err;
  }
}

export function expandTerm(args: TermArgs, ctx: ToolContext, defaults: ItemDefaults): ExpandedItem {
  const e = makeEntity('Class', resolveIdentity(args, ctx, defaults));
  const self = `<${e.iri}>`;
  const operations = identityOperations(e, args, defaults);
  (args.parents ?? []).forEach((p, i) =>
    operations.push({ field: `parents[${i}]`, operation: { axiom_type: 'subclass_of', sub: self, super: p } }),
  );
  (args.equivalent_to ?? []).forEach((q, i) =>
    operations.push({ field: `equivalent_to[${i}]`, operation: { axiom_type: 'equivalent_classes', classes: [self, q] } }),
  );
  return { entity: e, existed: ctx.resolver.knows(e), operations };
}

export function expandProperty(args: PropertyArgs, ctx: ToolContext, defaults: ItemDefaults): ExpandedItem {
  const data = (args.property_type ?? defaults.property_type ?? 'object') === 'data';
  if (data && args.inverse_of !== undefined)
    throw new ItemError('inverse_of applies to object properties only; a data property has no inverse', 'inverse_of');
  const wrong = data ? (args.characteristics ?? []).findIndex((c) => c !== 'functional') : -1;
  if (wrong >= 0)
    throw new ItemError(
      `'${args.characteristics![wrong]}' is not a data-property characteristic: a data property can only be functional`,
      `characteristics[${wrong}]`,
    );
  const e = makeEntity(data ? 'DataProperty' : 'ObjectProperty', resolveIdentity(args, ctx, defaults));
  const self = `<${e.iri}>`;
  const kind = data ? 'data' : 'object';
  const operations = identityOperations(e, args, defaults);
  if (args.domain !== undefined)
    operations.push({ field: 'domain', operation: { axiom_type: `${kind}_property_domain`, property: self, domain: args.domain } });
  if (args.range !== undefined)
    operations.push({ field: 'range', operation: { axiom_type: `${kind}_property_range`, property: self, range: args.range } });
  (args.super_properties ?? []).forEach((p, i) =>
    operations.push({
      field: `super_properties[${i}]`,
      operation: { axiom_type: `sub_${kind}_property_of`, property: self, super_property: p },
    }),
  );
  [...new Set(args.characteristics ?? [])].forEach((c) =>
    operations.push({
      field: `characteristics[${args.characteristics!.indexOf(c)}]`,
      operation: { axiom_type: `${c}_${kind}_property`, property: self },
    }),
  );
  if (args.inverse_of !== undefined)
    operations.push({
      field: 'inverse_of',
      operation: { axiom_type: 'inverse_object_properties', property: self, inverse_property: args.inverse_of },
    });
  return { entity: e, existed: ctx.resolver.knows(e), operations };
}
