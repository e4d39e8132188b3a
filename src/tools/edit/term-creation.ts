// create_term, create_terms, create_property, create_properties (TOOLS.md 3.4): an entity with its
// curation suite (label, definition, parents or domain/range/characteristics, annotations) in one undo
// entry. The batch forms are atomic: one bad item fails the call naming it and nothing is applied; they can
// instead cache a change-set preview, or apply with live verification by the selected reasoner.

import * as v from 'valibot';
import type { Entity } from '../../model/terms.js';
import type { Change } from '../../model/changes.js';
import { RDFS_LABEL } from '../../model/vocab.js';
import { StageIdSchema } from '../../qc/gate.js';
import { TTL_SECONDS } from '../../qc/change-set-store.js';
import type { StageId } from '../../qc/finding.js';
import { hasNameOrIri, NAME_OR_IRI, newEntitiesField, Strict, Text } from './authoring.js';
import { counts, distinctNewEntities, plan, type Plan } from './batch-plan.js';
import { createPreview } from './change-sets.js';
import { entityRow } from '../../report/rows.js';
import { applyAndVerify, prepareLiveVerify, type VerifyMode } from './live-verify.js';
import {
  expandProperty,
  expandTerm,
  ItemError,
  PROPERTY_FIELDS,
  TERM_FIELDS,
  type ExpandedItem,
  type ItemDefaults,
  type PropertyArgs,
  type TermArgs,
} from './term-operations.js';
import { defineTool, always, ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';
import { AnyList, EntityRowOutput } from '../core/result-shapes.js';

/** The change-set limit TOOLS.md sets on items in preview mode. */
const MAX_PREVIEW_ITEMS = 2000;
/** Direct batches are not capped by TOOLS.md; this bounds one call's work and undo entry. */
const MAX_ITEMS = 10000;
const DEFAULT_VERIFY_TIMEOUT_MS = 60000;

type Expand<A> = (args: A, ctx: ToolContext, defaults: ItemDefaults) => ExpandedItem;

/** A batch planned at the current revision: its items, the operations' origins and the plan. */
interface PlannedBatch {
  readonly items: readonly ExpandedItem[];
  readonly plan: Plan;
  /** The plan's delta without the name labels the builder gives created entities minted with generated ids. */
  readonly delta: readonly Change[];
  readonly operations: JsonObject[];
}

/**
 * A created entity is labelled by its item alone (label, label_lang, or no_label), as create_class does: a
 * generated id's untagged name label, which the builder adds to any entity it mints, is left out.
 */
function ownLabelsOnly(planned: Plan, created: ReadonlySet<string>): Change[] {
  const own = new Set(planned.rows.map((r) => r.axiom));
  return planned.delta.filter(
    (c) =>
      !(
        c.kind === 'AddAxiom' &&
        c.axiom.kind === 'AnnotationAssertion' &&
        c.axiom.property.iri === RDFS_LABEL &&
        c.axiom.subject.kind === 'IRI' &&
        created.has(c.axiom.subject.iri) &&
        !own.has(c.axiom)
      ),
  );
}

/**
 * Expands and plans the items, failing on the first bad item (`where(i)` names it): a malformed operand,
 * a duplicate IRI, or with `strict` an operand that would mint an entity the batch does not create.
 */
function planBatch<A>(
  list: readonly A[],
  expand: Expand<A>,
  defaults: ItemDefaults,
  strict: boolean,
  ctx: ToolContext,
  where: (i: number) => string,
): PlannedBatch {
  const fail = (i: number, field: string, message: string) =>
    new ToolFailure(`${where(i)}${field}: ${message}; nothing was applied`, 'invalid_argument', {
      ...(where(0) === '' ? {} : { index: i }),
      field,
      applied: false,
    });
  const items: ExpandedItem[] = [];
  const origin: { item: number; field: string }[] = [];
  const operations: JsonObject[] = [];
  const firstAt = new Map<string, number>();
  list.forEach((args, i) => {
    let item: ExpandedItem;
    try {
      item = expand(args, ctx, defaults);
    } catch (err) {
      if (err instanceof ItemError) throw fail(i, err.field, err.message);
      throw err;
    }
    const key = item.entity.kind + ' ' + item.entity.iri;
    const earlier = firstAt.get(key);
    if (earlier !== undefined) throw fail(i, 'iri', `<${item.entity.iri}> is already created by item ${earlier} of this batch`);
    firstAt.set(key, i);
    items.push(item);
    for (const o of item.operations) {
      origin.push({ item: i, field: o.field });
      operations.push(o.operation);
    }
  });
  const planned = plan(operations, ctx, false);
  const created = new Set<Entity>(items.map((it) => it.entity));
  for (const row of planned.rows) {
    const { item, field } = origin[row.index]!; // origin runs parallel to the planned operations
    if (row.error !== undefined) throw fail(item, field, row.error);
    const minted = strict ? row.newEntities.find((e) => !created.has(e)) : undefined;
    if (minted !== undefined)
      throw fail(item, field, `names no existing ${minted.kind} (<${minted.iri}>), and strict mode refuses to mint it`);
  }
  return { items, plan: planned, delta: ownLabelsOnly(planned, new Set(items.map((it) => it.entity.iri))), operations };
}

/** What create_term and create_property return. */
const CreatedOutput = v.object({
  created: EntityRowOutput,
  new_entities: v.optional(AnyList),
  applied: v.boolean(),
  note: v.optional(v.string()),
});

/** create_term / create_property: one item, applied as one undo entry. */
function createOne<A>(args: A & { strict: boolean }, expand: Expand<A>, ctx: ToolContext): v.InferOutput<typeof CreatedOutput> {
  const batch = planBatch([args], expand, {}, args.strict, ctx, () => '');
  const result = ctx.workspace.apply(batch.delta);
  return {
    created: entityRow(batch.items[0]!.entity, ctx), // one item per argument
    ...newEntitiesField(distinctNewEntities(batch.plan.rows), ctx),
    applied: result.effective,
    ...(result.effective ? {} : { note: 'Everything requested was already present; nothing changed.' }),
  };
}

/** The arguments create_terms and create_properties share beyond their items. */
interface BatchArgs {
  namespace?: string | undefined;
  definition_property?: string | undefined;
  strict: boolean;
  verify: 'none' | VerifyMode;
  timeout_ms?: number | undefined;
  preview: boolean;
  policy_path?: string | undefined;
  gates?: StageId[] | undefined;
  ttl_seconds?: number | undefined;
  include_impact?: 'asserted' | 'none' | undefined;
}

const PREVIEW_ONLY = ['policy_path', 'gates', 'ttl_seconds', 'include_impact'] as const;

const BATCH_FIELDS = {
  namespace: v.optional(v.pipe(Text, v.description('Default for every item.'))),
  definition_property: v.optional(Text),
  strict: v.optional(v.pipe(v.boolean(), v.description('Refuse the batch if it would mint an entity it does not create.')), false),
  verify: v.optional(
    v.pipe(v.picklist(['none', 'report', 'rollback']), v.description('Classify after applying; rollback undoes an unsatisfiable result.')),
    'none',
  ),
  timeout_ms: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(3_600_000),
      v.description("Default 60000; with preview the policy's, else 120000."),
    ),
  ),
  preview: v.optional(v.pipe(v.boolean(), v.description('Cache a change set instead of applying.')), false),
  policy_path: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096), v.description('Preview only.'))),
  gates: v.optional(v.pipe(v.array(StageIdSchema), v.maxLength(16))),
  ttl_seconds: v.optional(v.pipe(v.number(), v.integer(), v.minValue(TTL_SECONDS.min), v.maxValue(TTL_SECONDS.max))),
  include_impact: v.optional(v.picklist(['asserted', 'none'])),
};

const notPreviewAndVerify = <T extends BatchArgs>(a: T): boolean => !(a.preview && a.verify !== 'none');
// a preview-only argument without preview would silently do nothing
const previewOnlyWithPreview = <T extends BatchArgs>(a: T): boolean => a.preview || PREVIEW_ONLY.every((k) => a[k] === undefined);
const PREVIEW_ONLY_MESSAGE = `${PREVIEW_ONLY.join(', ')} apply only with preview=true`;

async function createMany<A>(
  list: readonly A[],
  args: BatchArgs,
  defaults: ItemDefaults,
  expand: Expand<A>,
  ctx: ToolContext,
  noun: string,
): Promise<JsonObject> {
  const where = (i: number) => `${noun}[${i}].`;
  if (args.preview) {
    if (list.length > MAX_PREVIEW_ITEMS) {
      throw new ToolFailure(
        `A preview takes at most ${MAX_PREVIEW_ITEMS} ${noun} (got ${list.length}); split the batch`,
        'change_set_too_large',
        { limit_kind: noun, limit: MAX_PREVIEW_ITEMS, actual: list.length, effects_prevented: true },
      );
    }
    const batch = planBatch(list, expand, defaults, args.strict, ctx, where);
    // A fresh mint scope: the created entities are named by full IRI, so none of them is a generated mint
    // there and none gets a name label besides its own (see ownLabelsOnly).
    return ctx.resolver.inCall(() =>
      createPreview(
        ctx,
        {
          operations: batch.operations,
          strict: false,
          gates: args.gates ?? [],
          timeoutMs: args.timeout_ms,
          includeImpact: args.include_impact ?? 'asserted',
          lockMode: 'ignore',
          policyPath: args.policy_path,
          items: list.length,
        },
        args.ttl_seconds ?? TTL_SECONDS.default,
      ),
    );
  }
  let verify: JsonObject | undefined;
  let batch = planBatch(list, expand, defaults, args.strict, ctx, where);
  let applied: boolean;
  if (args.verify === 'none') {
    applied = ctx.workspace.apply(batch.delta).effective;
  } else {
    const timeoutMs = args.timeout_ms ?? DEFAULT_VERIFY_TIMEOUT_MS;
    const { baseline, why } = await prepareLiveVerify(ctx, args.verify, timeoutMs);
    // planned again after the baseline's await, so the delta applies to the state it was planned on
    batch = planBatch(list, expand, defaults, args.strict, ctx, where);
    const out = await applyAndVerify(ctx, batch.delta, args.verify, timeoutMs, baseline, why);
    applied = out.applied;
    verify = out.verify;
  }
  const noOps = counts(batch.plan.rows).noOps;
  return {
    created: batch.items.map((it) => ({ ...entityRow(it.entity, ctx), ...(it.existed ? { already_existed: true } : {}) })),
    count: batch.items.length,
    applied,
    // operations whose axiom was already present
    ...(noOps > 0 ? { no_ops: noOps } : {}),
    ...newEntitiesField(distinctNewEntities(batch.plan.rows), ctx),
    ...(verify === undefined ? {} : { verify }),
  };
}

const itemSummary = (a: { iri?: string | undefined; name?: string | undefined }) => a.iri ?? a.name ?? '';

export const createTerm = defineTool({
  name: 'create_term',
  description: 'Create a class with label, definition, parents, equivalents and annotations.',
  input: v.pipe(v.strictObject({ ...TERM_FIELDS, strict: Strict }), v.check(hasNameOrIri, NAME_OR_IRI)),
  output: CreatedOutput,
  capabilities: ['ontology:curate'],
  mutating: always,
  rehearse: true,
  summary: (a) => `create_term ${itemSummary(a)}`,
  handler: (args, ctx) => createOne<TermArgs>(args, expandTerm, ctx),
});

export const createTerms = defineTool({
  name: 'create_terms',
  description: 'Create many create_term classes atomically; or preview them, or verify with the reasoner.',
  input: v.pipe(
    v.strictObject({
      terms: v.pipe(
        v.array(v.pipe(v.strictObject(TERM_FIELDS), v.check(hasNameOrIri, NAME_OR_IRI))),
        v.minLength(1),
        v.maxLength(MAX_ITEMS),
        v.description("create_term's arguments except strict."),
      ),
      ...BATCH_FIELDS,
    }),
    v.check(notPreviewAndVerify, 'preview cannot be combined with verify'),
    v.check(previewOnlyWithPreview, PREVIEW_ONLY_MESSAGE),
  ),
  capabilities: ['ontology:curate'],
  mutating: (a) => !a.preview,
  rehearse: true,
  summary: (a) => `create_terms ${a.terms.length}: ${a.terms.slice(0, 5).map(itemSummary).join(', ')}${a.terms.length > 5 ? ', …' : ''}`,
  handler: (args, ctx) =>
    createMany<TermArgs>(
      args.terms,
      args,
      { namespace: args.namespace, definition_property: args.definition_property },
      expandTerm,
      ctx,
      'terms',
    ),
});

export const createProperty = defineTool({
  name: 'create_property',
  description: 'Create an object or data property with label, definition and axioms.',
  input: v.pipe(v.strictObject({ ...PROPERTY_FIELDS, strict: Strict }), v.check(hasNameOrIri, NAME_OR_IRI)),
  output: CreatedOutput,
  capabilities: ['ontology:curate'],
  mutating: always,
  rehearse: true,
  summary: (a) => `create_property ${a.property_type ?? 'object'} ${itemSummary(a)}`,
  handler: (args, ctx) => createOne<PropertyArgs>(args, expandProperty, ctx),
});

export const createProperties = defineTool({
  name: 'create_properties',
  description: 'Create many create_property properties atomically; or preview, or verify with the reasoner.',
  input: v.pipe(
    v.strictObject({
      properties: v.pipe(
        v.array(v.pipe(v.strictObject(PROPERTY_FIELDS), v.check(hasNameOrIri, NAME_OR_IRI))),
        v.minLength(1),
        v.maxLength(MAX_ITEMS),
        v.description("create_property's arguments except strict."),
      ),
      property_type: v.optional(v.picklist(['object', 'data']), 'object'),
      ...BATCH_FIELDS,
    }),
    v.check(notPreviewAndVerify, 'preview cannot be combined with verify'),
    v.check(previewOnlyWithPreview, PREVIEW_ONLY_MESSAGE),
  ),
  capabilities: ['ontology:curate'],
  mutating: (a) => !a.preview,
  rehearse: true,
  summary: (a) =>
    `create_properties ${a.properties.length}: ${a.properties.slice(0, 5).map(itemSummary).join(', ')}${a.properties.length > 5 ? ', …' : ''}`,
  handler: (args, ctx) =>
    createMany<PropertyArgs>(
      args.properties,
      args,
      { namespace: args.namespace, definition_property: args.definition_property, property_type: args.property_type },
      expandProperty,
      ctx,
      'properties',
    ),
});
