// Entity authoring tools (TOOLS.md 3.4): create_class, create_entity, add_subclass_of, add_annotation and
// set_label. Each call is one atomic workspace batch, so one undo entry; entities a call introduces are
// declared with it (TOOLS.md 1.7) and reported as `new_entities`.

import * as v from 'valibot';
import {
  annotationAssertion,
  annotationProperty,
  cls,
  declaration,
  entity as makeEntity,
  iriNode,
  literal,
  type Axiom,
  type Entity,
  type IRI,
} from '../../model/terms.js';
import { NameError } from '../../model/names.js';
import { buildAxiom, type BuiltAxiom } from '../../model/operands/builder.js';
import { AnnotationSchema, ENTITY_TYPES } from '../../model/operands/schema.js';
import { RDFS_LABEL, STANDARD_PREFIXES } from '../../model/vocab.js';
import type { Change } from '../../model/changes.js';
import { defineTool, always, ToolFailure, type ToolContext } from '../core/tool.js';
import { AxiomWriteOutput, ENTITY_TYPE_INPUT, EntityRowOutput } from '../core/result-shapes.js';
import { entityRow, newEntityRow, renderAxiom, type EntityRow } from '../../report/rows.js';

const LANG_TAG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;
/** Characters RFC 3987 forbids in an IRI. */
const NOT_IN_IRI = /[\s<>"{}|^`\\]/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

export const Text = v.pipe(v.string(), v.nonEmpty());
export const LangTag = v.pipe(v.string(), v.regex(LANG_TAG, 'must be a language tag such as en or en-GB'));
export const Strict = v.optional(v.pipe(v.boolean(), v.description('Refuse to mint new entities.')), false);

/** The identity fields create_class and create_entity share. */
export const IDENTITY = {
  name: v.optional(v.pipe(Text, v.description('Local name of a new IRI; default label.'))),
  iri: v.optional(v.pipe(Text, v.description('Overrides namespace and name.'))),
  namespace: v.optional(v.pipe(Text, v.description('Default: the active ontology IRI + #.'))),
  label: v.optional(Text),
  label_lang: v.optional(LangTag),
  no_label: v.optional(v.boolean(), false),
};

export interface IdentityArgs {
  name?: string | undefined;
  iri?: string | undefined;
  namespace?: string | undefined;
  label?: string | undefined;
  label_lang?: string | undefined;
  no_label: boolean;
}

export const hasNameOrIri = <T extends { name?: string | undefined; iri?: string | undefined }>(a: T): boolean =>
  a.name !== undefined || a.iri !== undefined;
export const NAME_OR_IRI = 'give name or iri';

function prefixNamespace(ctx: ToolContext, prefix: string): string | undefined {
  return ctx.workspace.active.prefixes.get(prefix) ?? STANDARD_PREFIXES.find(([p]) => p === prefix)?.[1];
}

/** An `iri` argument as a full IRI: `<…>` unwrapped, a CURIE of a known prefix expanded, else it must be absolute. */
function fullIri(token: string, ctx: ToolContext, operand: string): IRI {
  let t = token.trim();
  if (t.startsWith('<') && t.endsWith('>')) t = t.slice(1, -1).trim();
  const colon = t.indexOf(':');
  const ns = colon < 0 || t.startsWith('//', colon + 1) ? undefined : prefixNamespace(ctx, t.slice(0, colon + 1));
  const iri = ns === undefined ? t : ns + t.slice(colon + 1);
  if (!SCHEME.test(iri) || NOT_IN_IRI.test(iri)) {
    throw new ToolFailure(
      `'${operand}' must be an absolute IRI or a CURIE of a known prefix (got ${JSON.stringify(token)})`,
      'invalid_argument',
      { operand },
    );
  }
  return iri;
}

/** The IRI of the entity to create: `iri`, else namespace + name (the new-entity namespace by default). */
export function targetIri(args: IdentityArgs, ctx: ToolContext): IRI {
  if (args.iri !== undefined) return fullIri(args.iri, ctx, 'iri');
  const name = args.name!;
  if (NOT_IN_IRI.test(name)) {
    throw new ToolFailure(
      `'name' cannot be the local part of an IRI (${JSON.stringify(name)}): give iri, or a name without spaces and use label`,
      'invalid_argument',
      { operand: 'name' },
    );
  }
  if (args.namespace !== undefined) return fullIri(args.namespace, ctx, 'namespace') + name;
  if (!ctx.resolver.generatesIds) return ctx.resolver.newEntityNamespace() + name;
  // With generated ids a name lives on only as a label, so a name that already labels an entity names it
  // (creating it again is a no-op, as namespace + name is in name mode); a new name mints a generated id.
  const iri = ctx.resolver.resolve(name).iri;
  if (args.no_label && ctx.resolver.generatedName(iri) !== undefined) {
    throw new ToolFailure(
      `no_label would lose the name '${name}': new entities get generated ids (settings new_entity_ids=generated), so the name is kept as the label; drop no_label, or give iri or namespace`,
      'invalid_argument',
      { operand: 'no_label' },
    );
  }
  return iri;
}

/** Declaration plus, unless no_label, the rdfs:label (default: the name). */
export function identityAxioms(e: Entity, args: IdentityArgs): Axiom[] {
  const axioms: Axiom[] = [declaration(e)];
  const label = args.no_label ? undefined : (args.label ?? args.name);
  if (label !== undefined)
    axioms.push(annotationAssertion(annotationProperty(RDFS_LABEL), iriNode(e.iri), literal(label, undefined, args.label_lang)));
  return axioms;
}

/** Adds the absent axioms to the active ontology as one undo entry; true when anything changed. */
function addAll(ctx: ToolContext, axioms: Iterable<Axiom>): boolean {
  const active = ctx.workspace.active;
  const changes: Change[] = [];
  for (const axiom of new Set(axioms)) if (!active.has(axiom)) changes.push({ kind: 'AddAxiom', ontology: active, axiom });
  if (changes.length === 0) return false;
  ctx.workspace.apply(changes);
  return true;
}

export function newEntitiesField(entities: Iterable<Entity>, ctx: ToolContext): { new_entities?: (EntityRow & { generated_id?: true })[] } {
  const rows = [...new Set(entities)].map((e) => newEntityRow(e, ctx));
  return rows.length === 0 ? {} : { new_entities: rows };
}

/**
 * The add_axiom pattern: declarations of what the axiom introduces, then the axiom itself, one undo entry.
 * `applied` says the axiom is now present (TOOLS.md 3.4); `note` says when the call changed nothing.
 */
function applyBuilt(built: BuiltAxiom, ctx: ToolContext): v.InferOutput<typeof AxiomWriteOutput> {
  const present = ctx.workspace.active.has(built.axiom);
  addAll(ctx, [...built.declarations, ...built.labels, built.axiom]);
  return {
    applied: ctx.workspace.active.has(built.axiom),
    axiom: renderAxiom(built.axiom, ctx),
    ...newEntitiesField(built.newEntities, ctx),
    ...(present ? { note: 'The axiom was already present; nothing changed.' } : {}),
  };
}

/**
 * The IRI an annotation subject names: an entity of the imports closure, or any IRI written as one
 * (absolute, CURIE or `<…>`). A bare name that names nothing is refused rather than minted.
 */
function subjectIri(ref: string, ctx: ToolContext): IRI {
  const t = ref.trim();
  const iriForm = t.startsWith('<') || t.includes(':');
  try {
    const { iri, kinds } = ctx.resolver.resolve(t);
    if (kinds.size > 0 || iriForm) return iri;
  } catch (err) {
    if (!(err instanceof NameError) || err.candidates.length > 0 || iriForm) throw err;
  }
  throw new ToolFailure(
    `No entity found for '${ref}'. Give an existing entity, or an absolute IRI to annotate something that is not an entity.`,
    'not_found',
  );
}

// ---------------------------------------------------------------- create_class, create_entity

export const createClass = defineTool({
  name: 'create_class',
  description: 'Create a class, labelled with its name, with an optional parent.',
  input: v.pipe(v.strictObject({ ...IDENTITY, parent: v.optional(Text) }), v.check(hasNameOrIri, NAME_OR_IRI)),
  output: v.object({
    created: EntityRowOutput,
    parent: v.optional(v.string()),
    present: v.boolean(),
    new_entities: v.optional(v.array(EntityRowOutput)),
    note: v.optional(v.string()),
  }),
  capabilities: ['ontology:curate'],
  mutating: always,
  rehearse: true,
  summary: (a) => `create_class ${a.iri ?? a.name}${a.parent === undefined ? '' : ' SubClassOf ' + a.parent}`,
  handler: (args, ctx) => {
    const c = cls(targetIri(args, ctx));
    const introduced: Entity[] = ctx.resolver.knows(c) ? [] : [c];
    const axioms = identityAxioms(c, args);
    if (args.parent !== undefined) {
      const parent = args.parent;
      const built = buildAxiom({ axiom_type: 'subclass_of', sub: `<${c.iri}>`, super: parent }, ctx.resolver, {
        labels: { super: 'parent' },
      });
      // the class's own label is identityAxioms', even when its IRI was generated
      const ownLabel = (a: Axiom) => a.kind === 'AnnotationAssertion' && a.subject.kind === 'IRI' && a.subject.iri === c.iri;
      axioms.push(...built.declarations, ...built.labels.filter((a) => !ownLabel(a)), built.axiom);
      introduced.push(...built.newEntities);
    }
    const changed = addAll(ctx, axioms);
    return {
      created: entityRow(c, ctx),
      ...(args.parent === undefined ? {} : { parent: args.parent }),
      present: ctx.workspace.active.index.referencing.has(c),
      ...newEntitiesField(introduced, ctx),
      ...(changed ? {} : { note: 'The class already existed as requested; nothing changed.' }),
    };
  },
});

export const createEntity = defineTool({
  name: 'create_entity',
  description: 'Create an entity of any type, labelled with its name.',
  input: v.pipe(v.strictObject({ entity_type: v.picklist(ENTITY_TYPES), ...IDENTITY }), v.check(hasNameOrIri, NAME_OR_IRI)),
  output: v.object({ created: EntityRowOutput, new_entities: v.optional(v.array(EntityRowOutput)), note: v.optional(v.string()) }),
  capabilities: ['ontology:curate'],
  mutating: always,
  rehearse: true,
  summary: (a) => `create_entity ${a.entity_type} ${a.iri ?? a.name}`,
  handler: (args, ctx) => {
    const e = makeEntity(ENTITY_TYPE_INPUT[args.entity_type], targetIri(args, ctx));
    const introduced = ctx.resolver.knows(e) ? [] : [e];
    const changed = addAll(ctx, identityAxioms(e, args));
    return {
      created: entityRow(e, ctx),
      ...newEntitiesField(introduced, ctx),
      ...(changed ? {} : { note: 'The entity already existed as requested; nothing changed.' }),
    };
  },
});

// ---------------------------------------------------------------- add_subclass_of

export const addSubclassOf = defineTool({
  name: 'add_subclass_of',
  description: 'Assert child SubClassOf parent.',
  input: v.strictObject({
    child: Text,
    parent: Text,
    strict: Strict,
  }),
  output: AxiomWriteOutput,
  capabilities: ['ontology:curate'],
  mutating: always,
  rehearse: true,
  idempotent: true,
  summary: (a) => `add_subclass_of ${a.child} SubClassOf ${a.parent}`,
  handler: (args, ctx) => {
    const built = buildAxiom({ axiom_type: 'subclass_of', sub: args.child, super: args.parent }, ctx.resolver, {
      strict: args.strict,
      labels: { sub: 'child', super: 'parent' },
    });
    return applyBuilt(built, ctx);
  },
});

// ---------------------------------------------------------------- add_annotation

export const addAnnotation = defineTool({
  name: 'add_annotation',
  description: 'Add an annotation (default rdfs:label) to an entity or IRI.',
  input: v.pipe(
    v.strictObject({
      entity: v.pipe(Text, v.description('An entity or any absolute IRI.')),
      property: v.optional(v.pipe(Text, v.description('Default rdfs:label.'))),
      value: v.optional(v.pipe(v.string(), v.description('Literal text; or value_iri.'))),
      value_iri: v.optional(v.pipe(Text, v.description('Wins over value.'))),
      lang: v.optional(LangTag),
      datatype: v.optional(Text),
      annotations: v.optional(v.array(AnnotationSchema)),
      strict: Strict,
    }),
    v.check((a) => a.value !== undefined || a.value_iri !== undefined, 'give value or value_iri'),
  ),
  output: AxiomWriteOutput,
  capabilities: ['ontology:curate'],
  mutating: always,
  rehearse: true,
  idempotent: true,
  summary: (a) => `add_annotation ${a.entity} ${a.property ?? 'rdfs:label'} ${a.value_iri ?? JSON.stringify(a.value)}`,
  handler: (args, ctx) => {
    const { entity, strict, ...rest } = args;
    const subject = subjectIri(entity, ctx);
    const built = buildAxiom({ axiom_type: 'annotation_assertion', subject: `<${subject}>`, ...rest }, ctx.resolver, { strict });
    return applyBuilt(built, ctx);
  },
});

// ---------------------------------------------------------------- set_label

export const setLabel = defineTool({
  name: 'set_label',
  description: "Replace an entity's rdfs:label in one language.",
  input: v.strictObject({
    entity: v.pipe(Text, v.description('An entity or any absolute IRI.')),
    value: Text,
    lang: v.optional(LangTag),
  }),
  output: v.object({ entity: v.string(), label: v.string(), lang: v.optional(v.string()), removed_previous: v.number() }),
  capabilities: ['ontology:curate'],
  mutating: always,
  rehearse: true,
  destructive: true,
  idempotent: true,
  summary: (a) => `set_label ${a.entity} ${JSON.stringify(a.value)}${a.lang === undefined ? '' : '@' + a.lang}`,
  handler: (args, ctx) => {
    const iri = subjectIri(args.entity, ctx);
    const active = ctx.workspace.active;
    const label = literal(args.value, undefined, args.lang);
    const wanted = annotationAssertion(annotationProperty(RDFS_LABEL), iriNode(iri), label);
    const previous = [...(active.index.annotationsBySubject.get(iri) ?? [])].filter(
      (a) => a !== wanted && a.property.iri === RDFS_LABEL && a.value.kind === 'Literal' && a.value.lang === label.lang,
    );
    const changes: Change[] = previous.map((axiom) => ({ kind: 'RemoveAxiom', ontology: active, axiom }));
    if (!active.has(wanted)) changes.push({ kind: 'AddAxiom', ontology: active, axiom: wanted });
    if (changes.length > 0) ctx.workspace.apply(changes);
    return {
      entity: iri,
      label: args.value,
      ...(label.lang === '' ? {} : { lang: label.lang }),
      removed_previous: previous.length,
    };
  },
});
