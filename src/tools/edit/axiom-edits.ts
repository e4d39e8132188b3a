// Axiom editing tools (TOOLS.md 3.4): add_axiom and remove_axiom, both through the shared operand builder,
// so adding and removing the same operand set are symmetric. One call = one undo unit.

import * as v from 'valibot';
import {
  AxiomOperandsSchema,
  AXIOM_TYPES,
  ENTITY_TYPES,
  FIELD_DESCRIPTIONS,
  LIST_FIELDS,
  STRING_FIELDS,
  type OperandField,
} from '../../model/operands/schema.js';
import { buildAxiom } from '../../model/operands/builder.js';
import type { Change } from '../../model/changes.js';
import { defineTool, always, ToolFailure, type JsonObject } from '../core/tool.js';
import { AxiomWriteOutput } from '../core/result-shapes.js';
import { newEntityRow, renderAxiom } from '../../report/rows.js';

/** The operand-set variant with extra top-level fields merged into every member (still closed). */
export function withFields(extra: Record<string, v.GenericSchema>) {
  const options = AxiomOperandsSchema.options.map((o) => v.strictObject({ ...o.entries, ...extra }));
  return v.variant('axiom_type', options);
}

/** One annotation object; nested annotations are listed without a recursive reference, which would dangle here. */
const ANNOTATION_JSON: JsonObject = {
  type: 'object',
  properties: {
    property: { type: 'string', description: 'Default rdfs:label.' },
    value: { type: 'string' },
    value_iri: { type: 'string', description: 'Wins over value.' },
    lang: { type: 'string' },
    datatype: { type: 'string' },
    annotations: { type: 'array', items: { type: 'object' }, description: 'Same shape.' },
  },
  additionalProperties: false,
};

/** An operand's listed schema, with its description where it has one. */
function described(schema: JsonObject, field: OperandField): JsonObject {
  const text = FIELD_DESCRIPTIONS[field];
  return text === undefined ? schema : { ...schema, description: text };
}

/**
 * The operand set as one flat closed object for `tools/list`: clients such as the Claude API refuse a
 * top-level oneOf. Which operands each axiom_type takes is still enforced by `input` (and named in errors).
 */
export function flatSchema(extra: JsonObject): JsonObject {
  const properties: JsonObject = {
    axiom_type: { type: 'string', enum: [...AXIOM_TYPES], description: 'Decides which operands are required.' },
  };
  for (const f of STRING_FIELDS) properties[f] = described({ type: 'string' }, f);
  properties.entity_type = { type: 'string', enum: [...ENTITY_TYPES] };
  for (const f of LIST_FIELDS) properties[f] = described({ type: 'array', items: { type: 'string' } }, f);
  properties.annotations = { type: 'array', items: ANNOTATION_JSON };
  return { type: 'object', properties: { ...properties, ...extra }, required: ['axiom_type'], additionalProperties: false };
}

const AddInput = withFields({ strict: v.optional(v.pipe(v.boolean(), v.description('Refuse to mint new entities.'))) });
const RemoveInput = withFields({});

function operandsOf(args: JsonObject): JsonObject {
  const { strict: _strict, ...operands } = args;
  return operands;
}

export const addAxiom = defineTool({
  name: 'add_axiom',
  description: 'Add one axiom: axiom_type plus the operands it needs.',
  input: AddInput,
  listedSchema: flatSchema({ strict: { type: 'boolean', description: 'Refuse to mint new entities.' } }),
  output: AxiomWriteOutput,
  capabilities: ['ontology:curate'],
  mutating: always,
  idempotent: true,
  rehearse: true,
  handler: (args, ctx) => {
    const ws = ctx.workspace;
    const active = ws.active;
    const built = buildAxiom(operandsOf(args as JsonObject), ctx.resolver, { strict: (args as JsonObject).strict === true });
    const present = active.has(built.axiom);
    const changes: Change[] = [...built.declarations, ...built.labels]
      .filter((d) => !active.has(d))
      .map((d) => ({ kind: 'AddAxiom', ontology: active, axiom: d }));
    if (!present) changes.push({ kind: 'AddAxiom', ontology: active, axiom: built.axiom });
    if (changes.length > 0) ws.apply(changes);
    // as add_subclass_of and the other authoring tools (TOOLS.md 3.4): applied = the axiom is now present
    return {
      applied: active.has(built.axiom),
      axiom: renderAxiom(built.axiom, ctx),
      ...(built.newEntities.length > 0 ? { new_entities: built.newEntities.map((e) => newEntityRow(e, ctx)) } : {}),
      ...(present ? { note: 'The axiom was already present; nothing changed.' } : {}),
    };
  },
});

export const removeAxiom = defineTool({
  name: 'remove_axiom',
  description: "Remove one asserted axiom given as add_axiom's operands.",
  input: RemoveInput,
  listedSchema: flatSchema({}),
  output: v.object({ removed: v.boolean(), axiom: v.string() }),
  capabilities: ['ontology:curate'],
  mutating: always,
  destructive: true,
  idempotent: true,
  rehearse: true,
  handler: (args, ctx) => {
    const active = ctx.workspace.active;
    const { axiom } = buildAxiom(args, ctx.resolver);
    const rendering = renderAxiom(axiom, ctx);
    if (!active.has(axiom))
      throw new ToolFailure(`Axiom not asserted in the active ontology: ${rendering}`, 'not_found', { axiom: rendering });
    ctx.workspace.apply([{ kind: 'RemoveAxiom', ontology: active, axiom }]);
    return { removed: true, axiom: rendering };
  },
});
