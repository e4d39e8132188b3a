// Entity refactoring tools (TOOLS.md 3.4): rename_entity, delete_entity, deprecate_entity and move_class.
// Each call is one atomic workspace batch on the active ontology, so one undo entry; imports are never
// touched. The preview forms of rename and delete read only, so read-only mode still runs them.

import * as v from 'valibot';
import {
  annotationAssertion,
  annotationProperty,
  axiomTypeName,
  axiomWithoutAnnotations,
  cls,
  entity as makeEntity,
  iriNode,
  literal,
  type Axiom,
  type Class,
  type ClassExpression,
  type Entity,
  type IRI,
} from '../../model/terms.js';
import type { Ontology } from '../../model/ontology.js';
import type { Change } from '../../model/changes.js';
import { NameError } from '../../model/names.js';
import { isBuiltIn } from '../../model/resolver.js';
import { displayName } from '../../model/display.js';
import { axiomsMentioning, mentionsIri, renameIri } from '../../model/rewrite.js';
import { buildAxiom, OperandError, type BuiltAxiom } from '../../model/operands/builder.js';
import { AnnotationSchema, ENTITY_TYPES, type AnnotationInput } from '../../model/operands/schema.js';
import { ManchesterRenderer } from '../../model/formats/manchester/render.js';
import { OWL_DEPRECATED, XSD_BOOLEAN } from '../../model/vocab.js';
import { expandTerm } from '../../policy/curie.js';
import { defineTool, always, ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';
import { AnyList, ENTITY_TYPE_INPUT, EntityRowOutput } from '../core/result-shapes.js';
import { entityRow, KIND_ORDER, newEntityRow, renderAxiom } from '../../report/rows.js';
import { cmp } from '../explore/ontology-context.js';

const SAMPLE = 20;
/** "term replaced by" (IAO), the default replacement pointer. */
const TERM_REPLACED_BY = 'obo:IAO_0100001';
/** An absolute IRI: a scheme, then no character RFC 3987 forbids. */
const ABSOLUTE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|^`\\]+$/;

const Text = v.pipe(v.string(), v.nonEmpty());
const EntityRef = Text;
const Preview = v.optional(v.boolean(), false);

// ---------------------------------------------------------------- shared helpers

/** The IRI a reference names; an unknown prefix names nothing (an ambiguous name stays a NameError). */
function iriOf(ref: string, ctx: ToolContext): IRI {
  try {
    return ctx.resolver.resolve(ref).iri;
  } catch (err) {
    if (err instanceof NameError && err.candidates.length === 0) throw notFound(ref);
    throw err;
  }
}

const notFound = (ref: string) =>
  new ToolFailure(`No entity found for '${ref}'. Use search_entities to find it by a name fragment.`, 'not_found');

/** The IRI's entities (one per punned kind) in the imports closure, in KIND_ORDER. */
function sensesOf(iri: IRI, ctx: ToolContext): Entity[] {
  const kinds = ctx.resolver.kindsOf(iri);
  return KIND_ORDER.filter((k) => kinds.has(k)).map((k) => makeEntity(k, iri));
}

/** The OWL 2 vocabulary (owl:Thing, xsd:string, rdfs:label, ...) is not the ontology's to refactor. */
function refuseBuiltIn(senses: readonly Entity[], tool: string): void {
  const builtIn = senses.find(isBuiltIn);
  if (builtIn !== undefined) {
    throw new ToolFailure(
      `${tool} refuses <${builtIn.iri}>: it is part of the OWL 2 vocabulary, not an entity of the ontology.`,
      'invalid_argument',
      { operand: 'entity' },
    );
  }
}

const notReferenced = (iri: IRI) =>
  new ToolFailure(
    `<${iri}> is not referenced in the active ontology (it may live in an import, which is never changed).`,
    'not_referenced',
    { iri },
  );

/** Axiom rows `{axiom_type, rendering}`, ordered by rendering then type. */
function axiomRows(axioms: Iterable<Axiom>, ctx: ToolContext): { axiom_type: string; rendering: string }[] {
  return [...axioms]
    .map((a) => ({ axiom_type: axiomTypeName(a), rendering: renderAxiom(a, ctx) }))
    .sort((x, y) => cmp(x.rendering, y.rendering) || cmp(x.axiom_type, y.axiom_type));
}

function renderClass(c: ClassExpression, ctx: ToolContext): string {
  const closure = ctx.resolver.closure;
  return new ManchesterRenderer((e) =>
    typeof e === 'string' ? displayName(e, closure, ctx.settings.label_language) : entityRow(e, ctx).display,
  ).classExpression(c);
}

const remove = (ontology: Ontology, axiom: Axiom): Change => ({ kind: 'RemoveAxiom', ontology, axiom });
const add = (ontology: Ontology, axiom: Axiom): Change => ({ kind: 'AddAxiom', ontology, axiom });

/** Adds for a built axiom with its declarations and labels, skipping what the ontology (or the batch) has. */
function addsFor(built: BuiltAxiom, o: Ontology, planned: Set<Axiom>): Change[] {
  const out: Change[] = [];
  for (const a of [...built.declarations, ...built.labels, built.axiom]) {
    if (o.has(a) || planned.has(a)) continue;
    planned.add(a);
    out.push(add(o, a));
  }
  return out;
}

function newEntitiesField(built: readonly BuiltAxiom[], ctx: ToolContext): JsonObject {
  const rows = [...new Set(built.flatMap((b) => b.newEntities))].map((e) => newEntityRow(e, ctx));
  return rows.length === 0 ? {} : { new_entities: rows };
}

/** Runs the operand builder with `prefix` put before the operand names its errors mention. */
function buildNamed(prefix: string, build: () => BuiltAxiom): BuiltAxiom {
  try {
    return build();
  } catch (err) {
    throw err instanceof NameError || err instanceof OperandError ? err.at(prefix) : err;
  }
}

// ---------------------------------------------------------------- rename_entity

/** The changes renaming `from` to `to` in one ontology, and the rewritten axioms (after the rename). */
interface RenamePlan {
  readonly changes: readonly Change[];
  readonly rewritten: readonly Axiom[];
}

function planRename(o: Ontology, from: IRI, to: IRI): RenamePlan {
  const removes: Change[] = [];
  const added = new Set<Axiom>();
  for (const a of axiomsMentioning(o, from)) {
    removes.push(remove(o, a));
    added.add(renameIri(a, from, to));
  }
  const changes: Change[] = [...removes];
  // an axiom the rename produces that the ontology already has is the merge: nothing to add
  for (const a of added) if (!o.has(a)) changes.push(add(o, a));
  const header = [...o.annotations].filter((a) => mentionsIri(a, from));
  for (const annotation of header) changes.push({ kind: 'RemoveOntologyAnnotation', ontology: o, annotation });
  for (const annotation of new Set(header.map((a) => renameIri(a, from, to)))) {
    if (!o.annotations.has(annotation)) changes.push({ kind: 'AddOntologyAnnotation', ontology: o, annotation });
  }
  return { changes, rewritten: [...added] };
}

/** `new_iri` as a full IRI: `<…>` unwrapped or a CURIE of a known prefix expanded, else it must be absolute. */
function absoluteIri(token: string, ctx: ToolContext): IRI {
  const iri = ctx.resolver.asIri(token);
  if (iri === null || !ABSOLUTE_IRI.test(iri)) {
    throw new ToolFailure(`'new_iri' must be an absolute IRI (got ${JSON.stringify(token)})`, 'invalid_argument', { operand: 'new_iri' });
  }
  return iri;
}

export const renameEntity = defineTool({
  name: 'rename_entity',
  description: 'Rename an IRI everywhere in the active ontology; renaming onto an existing IRI merges.',
  input: v.strictObject({
    entity: EntityRef,
    new_iri: Text,
    preview: Preview,
  }),
  output: v.object({
    preview: v.optional(v.boolean()),
    renamed: v.optional(v.boolean()),
    old_iri: v.string(),
    new_iri: v.string(),
    changes: v.number(),
    new_iri_already_in_signature: v.optional(v.boolean()),
    rewritten_axioms_sample: v.optional(AnyList),
    note: v.optional(v.string()),
  }),
  capabilities: ['ontology:curate'],
  mutating: (a) => a.preview !== true,
  rehearse: true,
  destructive: true,
  summary: (a) => `rename_entity ${a.entity} -> ${a.new_iri}`,
  handler: (args, ctx) => {
    const active = ctx.workspace.active;
    const oldIri = iriOf(args.entity, ctx);
    const newIri = absoluteIri(args.new_iri, ctx);
    const senses = sensesOf(oldIri, ctx);
    refuseBuiltIn(senses, 'rename_entity');
    if (newIri === oldIri)
      throw new ToolFailure(`new_iri is already the IRI of '${args.entity}'; nothing to rename.`, 'invalid_argument', {
        operand: 'new_iri',
      });
    const plan = planRename(active, oldIri, newIri);
    // an IRI that is no entity but is mentioned (e.g. only annotated) can still be renamed
    if (plan.changes.length === 0) throw senses.length === 0 ? notFound(args.entity) : notReferenced(oldIri);
    const merges = ctx.resolver.kindsOf(newIri).size > 0;
    if (args.preview) {
      return {
        preview: true,
        old_iri: oldIri,
        new_iri: newIri,
        changes: plan.changes.length,
        new_iri_already_in_signature: merges,
        rewritten_axioms_sample: axiomRows(plan.rewritten, ctx).slice(0, SAMPLE),
        note:
          `Nothing was changed. Applying rewrites ${plan.rewritten.length} axiom(s) of the active ontology as one undo entry` +
          (merges ? '; the new IRI is already in use, so the two entities merge.' : '.'),
      };
    }
    ctx.workspace.apply(plan.changes);
    return {
      renamed: true,
      old_iri: oldIri,
      new_iri: newIri,
      changes: plan.changes.length,
      ...(merges ? { note: 'The new IRI was already in use: the two entities are merged.' } : {}),
    };
  },
});

// ---------------------------------------------------------------- delete_entity

/** What deleting some senses of an IRI removes from one ontology. */
interface DeletePlan {
  readonly deleted: readonly Entity[];
  readonly removed: ReadonlySet<Axiom>;
  /** Axioms that keep mentioning the IRI as a plain IRI (annotation values) once no sense of it is left. */
  readonly dangling: number;
}

function planDelete(o: Ontology, senses: readonly Entity[]): DeletePlan {
  const index = o.index;
  const deleted = senses.filter((e) => index.referencing.has(e));
  const removed = new Set<Axiom>();
  for (const e of deleted) for (const a of index.referencing.get(e) ?? []) removed.add(a);
  const [first] = deleted;
  if (first === undefined) return { deleted, removed, dangling: 0 };
  const iri = first.iri;
  // the IRI's own annotations go with its last sense: a punned sense that stays keeps them
  const staysReferenced = KIND_ORDER.some((k) => [...(index.referencing.get(makeEntity(k, iri)) ?? [])].some((a) => !removed.has(a)));
  if (staysReferenced) return { deleted, removed, dangling: 0 };
  for (const a of index.annotationsBySubject.get(iri) ?? []) removed.add(a);
  const dangling = axiomsMentioning(o, iri).filter((a) => !removed.has(a)).length;
  return { deleted, removed, dangling };
}

const danglingNote = (n: number, iri: IRI) =>
  `${n} remaining axiom(s) still use <${iri}> as an annotation value (a plain IRI, not an entity); they are kept.`;

export const deleteEntity = defineTool({
  name: 'delete_entity',
  description: 'Delete an entity and every axiom referencing it.',
  input: v.strictObject({
    entity: EntityRef,
    entity_type: v.optional(v.pipe(v.picklist(ENTITY_TYPES), v.description('Only this sense of a punned IRI.'))),
    preview: Preview,
  }),
  output: v.object({
    preview: v.optional(v.boolean()),
    would_delete: v.optional(AnyList),
    deleted: v.optional(AnyList),
    removed_axioms: v.number(),
    removed_axioms_sample: v.optional(AnyList),
    note: v.optional(v.string()),
  }),
  capabilities: ['ontology:curate'],
  mutating: (a) => a.preview !== true,
  rehearse: true,
  destructive: true,
  summary: (a) => `delete_entity ${a.entity}${a.entity_type === undefined ? '' : ' (' + a.entity_type + ')'}`,
  handler: (args, ctx) => {
    const active = ctx.workspace.active;
    const iri = iriOf(args.entity, ctx);
    const all = sensesOf(iri, ctx);
    if (all.length === 0) throw notFound(args.entity);
    const wanted = args.entity_type === undefined ? all : all.filter((e) => e.kind === ENTITY_TYPE_INPUT[args.entity_type!]);
    if (wanted.length === 0) {
      throw new ToolFailure(
        `'${args.entity}' (<${iri}>) is no ${args.entity_type}; it is a ${all.map((e) => e.kind).join(' and a ')}.`,
        'not_found',
        { iri },
      );
    }
    refuseBuiltIn(wanted, 'delete_entity');
    const plan = planDelete(active, wanted);
    if (plan.deleted.length === 0) throw notReferenced(iri);
    const rows = plan.deleted.map((e) => entityRow(e, ctx));
    const dangling = plan.dangling > 0 ? danglingNote(plan.dangling, iri) : '';
    if (args.preview) {
      return {
        preview: true,
        would_delete: rows,
        removed_axioms: plan.removed.size,
        removed_axioms_sample: axiomRows(plan.removed, ctx).slice(0, SAMPLE),
        note: `Nothing was changed. Applying removes ${plan.removed.size} axiom(s) of the active ontology as one undo entry.${dangling === '' ? '' : ' ' + dangling}`,
      };
    }
    ctx.workspace.apply([...plan.removed].map((a) => remove(active, a)));
    return { deleted: rows, removed_axioms: plan.removed.size, ...(dangling === '' ? {} : { note: dangling }) };
  },
});

// ---------------------------------------------------------------- deprecate_entity

const isTrue = (a: Axiom) => a.kind === 'AnnotationAssertion' && a.value.kind === 'Literal' && ['true', '1'].includes(a.value.lex.trim());

/** A property argument as the builder reads it; a CURIE of a well-known prefix (obo:, skos:, ...) works without a prefix map entry. */
function propertyToken(token: string, ctx: ToolContext): string {
  if (ctx.resolver.asIri(token) !== null) return token;
  const expanded = expandTerm(token.trim(), {});
  return expanded === null ? token : `<${expanded}>`;
}

/** The replacement: an entity of the imports closure, or any IRI written as one; never the entity itself. */
function replacementIri(ref: string, self: IRI, ctx: ToolContext): IRI {
  let iri: IRI;
  try {
    iri = ctx.resolver.resolve(ref).iri;
  } catch (err) {
    if (err instanceof NameError && err.candidates.length === 0)
      throw new ToolFailure(`replaced_by: ${err.message}`, 'not_found', { operand: 'replaced_by' });
    throw err;
  }
  if (ctx.resolver.kindsOf(iri).size === 0 && ctx.resolver.asIri(ref) === null) {
    throw new ToolFailure(`replaced_by: no entity found for '${ref}'. Give an existing entity or an absolute IRI.`, 'not_found', {
      operand: 'replaced_by',
    });
  }
  if (iri === self)
    throw new ToolFailure('replaced_by names the deprecated entity itself.', 'invalid_argument', { operand: 'replaced_by' });
  return iri;
}

/** True when the ontology already asserts the annotation on the subject (whatever annotations the assertion carries). */
function hasAnnotation(o: Ontology, wanted: Axiom): boolean {
  if (wanted.kind !== 'AnnotationAssertion' || wanted.subject.kind !== 'IRI') return o.has(wanted);
  const core = axiomWithoutAnnotations(wanted);
  for (const a of o.index.annotationsBySubject.get(wanted.subject.iri) ?? []) if (axiomWithoutAnnotations(a) === core) return true;
  return false;
}

export const deprecateEntity = defineTool({
  name: 'deprecate_entity',
  description: 'Mark an entity owl:deprecated, with an optional replacement; usages stay.',
  input: v.strictObject({
    entity: EntityRef,
    replaced_by: v.optional(Text),
    replaced_by_property: v.optional(Text, TERM_REPLACED_BY),
    annotations: v.optional(v.array(AnnotationSchema)),
  }),
  output: v.object({
    deprecated: EntityRowOutput,
    replaced_by: v.optional(v.string()),
    applied: v.number(),
    new_entities: v.optional(AnyList),
    note: v.optional(v.string()),
  }),
  capabilities: ['ontology:curate'],
  mutating: always,
  rehearse: true,
  idempotent: true,
  summary: (a) => `deprecate_entity ${a.entity}${a.replaced_by === undefined ? '' : ' replaced by ' + a.replaced_by}`,
  handler: (args, ctx) => {
    const active = ctx.workspace.active;
    const iri = iriOf(args.entity, ctx);
    const senses = sensesOf(iri, ctx);
    const [sense] = senses;
    if (sense === undefined) throw notFound(args.entity);
    refuseBuiltIn(senses, 'deprecate_entity');
    const subject = `<${iri}>`;
    const built: BuiltAxiom[] = [];
    const deprecation = annotationAssertion(annotationProperty(OWL_DEPRECATED), iriNode(iri), literal('true', XSD_BOOLEAN));
    const alreadyDeprecated = [...(active.index.annotationsBySubject.get(iri) ?? [])].some(
      (a) => a.property.iri === OWL_DEPRECATED && isTrue(a),
    );
    let replacedBy: IRI | undefined;
    if (args.replaced_by !== undefined) {
      replacedBy = replacementIri(args.replaced_by, iri, ctx);
      const property = propertyToken(args.replaced_by_property, ctx);
      const target = replacedBy;
      built.push(
        buildNamed('replaced_by_property', () =>
          buildAxiom({ axiom_type: 'annotation_assertion', property, subject, value_iri: `<${target}>` }, ctx.resolver),
        ),
      );
    }
    (args.annotations ?? []).forEach((a: AnnotationInput, i) => {
      const fields = { ...a, ...(a.property === undefined ? {} : { property: propertyToken(a.property, ctx) }) };
      built.push(
        buildNamed(`annotations[${i}]`, () => buildAxiom({ axiom_type: 'annotation_assertion', subject, ...fields }, ctx.resolver)),
      );
    });
    const planned = new Set<Axiom>();
    const changes: Change[] = alreadyDeprecated ? [] : [add(active, deprecation)];
    for (const b of built) if (!hasAnnotation(active, b.axiom)) changes.push(...addsFor(b, active, planned));
    if (changes.length > 0) ctx.workspace.apply(changes);
    return {
      deprecated: entityRow(sense, ctx),
      ...(replacedBy === undefined ? {} : { replaced_by: replacedBy }),
      applied: changes.length,
      ...newEntitiesField(built, ctx),
      ...(changes.length === 0 ? { note: 'The entity was already deprecated as requested; nothing changed.' } : {}),
    };
  },
});

// ---------------------------------------------------------------- move_class

/** The named classes below `c` in the told hierarchy of the imports closure. */
function namedDescendants(c: Class, closure: readonly Ontology[]): Set<Class> {
  const seen = new Set<Class>();
  const todo: Class[] = [c];
  while (todo.length > 0) {
    const next = todo.pop()!;
    for (const o of closure) {
      for (const sub of o.index.subClasses(next)) {
        if (sub.kind === 'Class' && sub !== c && !seen.has(sub)) {
          seen.add(sub);
          todo.push(sub);
        }
      }
    }
  }
  return seen;
}

export const moveClass = defineTool({
  name: 'move_class',
  description: "Replace a class's asserted named parents with new_parent (omitted: a root).",
  input: v.pipe(
    v.strictObject({
      entity: Text,
      new_parent: v.optional(v.pipe(Text, v.description('Omitted: a root.'))),
      keep_other_parents: v.optional(v.boolean(), false),
    }),
    v.check((a) => !a.keep_other_parents || a.new_parent !== undefined, 'keep_other_parents=true needs new_parent'),
  ),
  output: v.object({
    moved: EntityRowOutput,
    new_parent: v.optional(v.string()),
    removed_parents: AnyList,
    applied: v.number(),
    new_entities: v.optional(AnyList),
    note: v.optional(v.string()),
  }),
  capabilities: ['ontology:curate'],
  mutating: always,
  rehearse: true,
  destructive: true,
  summary: (a) => `move_class ${a.entity} under ${a.new_parent ?? '(root)'}`,
  handler: (args, ctx) => {
    const active = ctx.workspace.active;
    const iri = iriOf(args.entity, ctx);
    const senses = sensesOf(iri, ctx);
    if (senses.length === 0) throw notFound(args.entity);
    if (!senses.some((e) => e.kind === 'Class')) {
      throw new ToolFailure(`'${args.entity}' (<${iri}>) is not a class.`, 'not_found', { iri });
    }
    const c = cls(iri);
    refuseBuiltIn([c], 'move_class');
    let built: BuiltAxiom | undefined;
    let parent: ClassExpression | undefined;
    if (args.new_parent !== undefined) {
      const token = args.new_parent;
      built = buildNamed('new_parent', () => buildAxiom({ axiom_type: 'subclass_of', sub: `<${iri}>`, super: token }, ctx.resolver));
      parent = (built.axiom as Extract<Axiom, { kind: 'SubClassOf' }>).sup;
      // a class under itself or under one of its own subclasses would collapse that part of the tree into equivalences
      if (parent === c || (parent.kind === 'Class' && namedDescendants(c, ctx.resolver.closure).has(parent))) {
        throw new ToolFailure(
          `new_parent ${renderClass(parent, ctx)} is the class itself or one of its subclasses; moving there would make a cycle.`,
          'invalid_argument',
          { operand: 'new_parent' },
        );
      }
    }
    const removed = args.keep_other_parents
      ? []
      : [...(active.index.subClassAxiomsBySub.get(c) ?? [])].filter(
          (a): a is Extract<Axiom, { kind: 'SubClassOf' }> => a.kind === 'SubClassOf' && a.sup.kind === 'Class' && a.sup !== parent,
        );
    const changes: Change[] = removed.map((a) => remove(active, a));
    const keptParent = parent !== undefined && active.index.superClasses(c).includes(parent);
    if (built !== undefined) {
      const adds = addsFor(built, active, new Set());
      changes.push(...(keptParent ? adds.filter((ch) => ch.kind !== 'AddAxiom' || ch.axiom !== built!.axiom) : adds));
    }
    if (changes.length > 0) ctx.workspace.apply(changes);
    const removedParents = [...new Set(removed.map((a) => renderClass(a.sup, ctx)))].sort(cmp);
    return {
      moved: entityRow(c, ctx),
      ...(parent === undefined ? {} : { new_parent: renderClass(parent, ctx) }),
      removed_parents: removedParents,
      applied: changes.length,
      ...(built === undefined ? {} : newEntitiesField([built], ctx)),
      ...(changes.length === 0 ? { note: 'The class already had exactly this placement; nothing changed.' } : {}),
    };
  },
});
