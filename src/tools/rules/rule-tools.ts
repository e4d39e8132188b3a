// SWRL rule tools (TOOLS.md 3.7): list_rules, add_rule, remove_rule. Rules are listed in the order of their
// rendering, with variables as `?<absolute IRI>` and predicates by IRI, so a listed rule replays through
// add_rule (and remove_rule) unchanged. Validation against a reasoner lives in rule-validation.ts.

import * as v from 'valibot';
import type { Annotation, Axiom, DLSafeRule } from '../../model/terms.js';
import * as t from '../../model/terms.js';
import type { Ontology } from '../../model/ontology.js';
import type { Change } from '../../model/changes.js';
import { buildAxiom } from '../../model/operands/builder.js';
import type { AnnotationInput } from '../../model/operands/schema.js';
import { ManchesterRenderer } from '../../model/formats/manchester/render.js';
import { OWL_THING, RDFS_LABEL } from '../../model/vocab.js';
import { defineTool, always, never, ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';
import { newEntityRow } from '../../report/rows.js';
import { View } from '../explore/ontology-context.js';
import { AtomReader, AtomSchema, atomOut, variablesOf, type AtomInput } from './rule-atoms.js';
import { AnyList, AnyObject } from '../core/result-shapes.js';

export const DEFAULT_VARIABLE_NAMESPACE = 'urn:swrl:var#';
const EMPTY_HEAD = 'A SWRL rule needs at least one head atom (body may be empty).';

/** A rule annotation as add_rule takes it; `property_iri` (as list_rules prints it) wins over `property`. */
interface RuleAnnotationInput extends AnnotationInput {
  property_iri?: string | undefined;
  annotations?: RuleAnnotationInput[] | undefined;
}

const RuleAnnotationSchema: v.GenericSchema<RuleAnnotationInput> = v.strictObject({
  property: v.optional(v.pipe(v.string(), v.description('Default rdfs:label.'))),
  property_iri: v.optional(v.string()),
  value: v.optional(v.pipe(v.string(), v.description('Literal text; or value_iri.'))),
  value_iri: v.optional(v.pipe(v.string(), v.description('Wins over value.'))),
  lang: v.optional(v.string()),
  datatype: v.optional(v.string()),
  annotations: v.optional(v.array(v.lazy(() => RuleAnnotationSchema))),
});

const ruleFields = {
  body: v.optional(v.array(AtomSchema)),
  variable_namespace: v.optional(v.pipe(v.string(), v.minLength(1), v.description(`Default ${DEFAULT_VARIABLE_NAMESPACE}`))),
  annotations: v.optional(v.array(RuleAnnotationSchema)),
};

interface RuleArgs {
  head?: AtomInput[] | undefined;
  body?: AtomInput[] | undefined;
  variable_namespace?: string | undefined;
  annotations?: RuleAnnotationInput[] | undefined;
}

/** The annotation list the shared operand builder takes. */
function annotationInputs(list: readonly RuleAnnotationInput[]): AnnotationInput[] {
  return list.map(({ property_iri, annotations, ...rest }) => ({
    ...rest,
    ...(property_iri !== undefined ? { property: property_iri } : {}),
    ...(annotations !== undefined ? { annotations: annotationInputs(annotations) } : {}),
  }));
}

interface BuiltRule {
  readonly rule: DLSafeRule;
  /** Declarations a write adds: introduced entities and undeclared annotation properties. */
  readonly declarations: readonly Axiom[];
  readonly minted: readonly t.Entity[];
}

/** Builds the rule of add_rule / remove_rule arguments. */
function buildRule(args: RuleArgs, ctx: ToolContext): BuiltRule {
  if (args.head === undefined || args.head.length === 0) throw new ToolFailure(EMPTY_HEAD, 'invalid_argument');
  const reader = new AtomReader(ctx.resolver, args.variable_namespace ?? DEFAULT_VARIABLE_NAMESPACE);
  const body = reader.atoms(args.body ?? [], 'body');
  const head = reader.atoms(args.head, 'head');
  // The operand builder's annotation handling (names, nested annotations, declarations of new annotation
  // properties) applies to any axiom; a throwaway declaration carries the annotations through it.
  let annotations: readonly Annotation[] = [];
  let annotationDeclarations: readonly Axiom[] = [];
  if (args.annotations !== undefined && args.annotations.length > 0) {
    const carrier = buildAxiom(
      { axiom_type: 'declaration', entity: OWL_THING, entity_type: 'class', annotations: annotationInputs(args.annotations) },
      ctx.resolver,
    );
    annotations = carrier.axiom.annotations;
    annotationDeclarations = carrier.declarations;
  }
  const rule = t.dlSafeRule(body, head, annotations);
  const minted = [...reader.minted];
  return { rule, minted, declarations: [...minted.map((e) => t.declaration(e)), ...annotationDeclarations] };
}

/** A renderer naming every entity by IRI: ties between equal display renderings break on it. */
const IRI_RENDERER = new ManchesterRenderer((e) => '<' + (typeof e === 'string' ? e : e.iri) + '>');

export interface ListedRule {
  readonly rule: DLSafeRule;
  readonly rendering: string;
  /** The ontologies (of the scope) asserting it, in scope order. */
  readonly sources: readonly Ontology[];
}

/** The distinct rules of the ontologies, ordered by rendering (then by the IRI rendering). */
export function orderedRules(scope: readonly Ontology[], view: View): ListedRule[] {
  const sources = new Map<DLSafeRule, Ontology[]>();
  for (const o of scope) {
    for (const r of o.axiomsOfKind('DLSafeRule')) {
      const list = sources.get(r);
      if (list === undefined) sources.set(r, [o]);
      else list.push(o);
    }
  }
  const rows = [...sources].map(([rule, from]) => ({
    rule,
    rendering: view.renderer.axiom(rule),
    key: IRI_RENDERER.axiom(rule),
    sources: from,
  }));
  rows.sort((a, b) => cmp(a.rendering, b.rendering) || cmp(a.key, b.key));
  return rows.map(({ rule, rendering, sources: from }) => ({ rule, rendering, sources: from }));
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The structured rule (TOOLS.md 3.7), without `index`. */
export function ruleOut(rule: DLSafeRule, rendering: string, view: View): JsonObject {
  const display = (iri: string) => view.display(iri);
  const out: JsonObject = {
    body: rule.body.map((a) => atomOut(a, display, view.renderer)),
    head: rule.head.map((a) => atomOut(a, display, view.renderer)),
    variables: variablesOf([...rule.body, ...rule.head]),
  };
  if (rule.annotations.length > 0)
    out.annotations = view.annotationRows(rule.annotations.map((a) => [a.property, a.value, a.annotations] as const));
  out.rendering = rendering;
  return out;
}

function scopeOf(ctx: ToolContext, includeImports: boolean): readonly Ontology[] {
  return includeImports ? ctx.resolver.closure : [ctx.workspace.active];
}

export const listRules = defineTool({
  name: 'list_rules',
  description: 'The SWRL rules, in the form add_rule takes.',
  input: v.strictObject({
    include_imports: v.optional(v.boolean()),
  }),
  output: v.object({ count: v.number(), rules: AnyList }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (args, ctx) => {
    const view = new View(ctx);
    const rules = orderedRules(scopeOf(ctx, args.include_imports === true), view).map((r, index) => ({
      index,
      ...ruleOut(r.rule, r.rendering, view),
    }));
    return { count: rules.length, rules };
  },
});

export const addRule = defineTool({
  name: 'add_rule',
  description: 'Add one SWRL rule from head and body atoms.',
  input: v.strictObject({
    head: v.array(AtomSchema),
    ...ruleFields,
  }),
  output: v.object({ added: v.boolean(), already_present: v.boolean(), rule: AnyObject, new_entities: v.optional(AnyList) }),
  capabilities: ['ontology:curate'],
  mutating: always,
  rehearse: true,
  summary: (args) => `add a SWRL rule (${args.body?.length ?? 0} body, ${args.head.length} head atoms)`,
  handler: (args, ctx) => {
    const built = buildRule(args, ctx);
    const active = ctx.workspace.active;
    const present = active.has(built.rule);
    const changes: Change[] = built.declarations
      .filter((d) => !active.has(d))
      .map((axiom) => ({ kind: 'AddAxiom', ontology: active, axiom }));
    if (!present) changes.push({ kind: 'AddAxiom', ontology: active, axiom: built.rule });
    if (changes.length > 0) ctx.workspace.apply(changes);
    const view = new View(ctx);
    return {
      added: !present,
      already_present: present,
      rule: ruleOut(built.rule, view.renderer.axiom(built.rule), view),
      ...(built.minted.length > 0 ? { new_entities: built.minted.map((e) => newEntityRow(e, ctx)) } : {}),
    };
  },
});

/** Whether an rdfs:label annotation of the rule has this text (any language or datatype). */
function hasLabel(rule: DLSafeRule, label: string): boolean {
  return rule.annotations.some((a) => a.property.iri === RDFS_LABEL && a.value.kind === 'Literal' && a.value.lex === label);
}

export const removeRule = defineTool({
  name: 'remove_rule',
  description: 'Remove SWRL rules by structure, list_rules index or label.',
  input: v.strictObject({
    head: v.optional(v.array(AtomSchema)),
    ...ruleFields,
    index: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.description('list_rules index (no imports).'))),
    label: v.optional(v.string()),
  }),
  output: v.object({ removed: v.number(), rule: v.optional(AnyObject), rules: v.optional(AnyList) }),
  capabilities: ['ontology:curate'],
  mutating: always,
  rehearse: true,
  destructive: true,
  summary: (args) =>
    args.head !== undefined
      ? 'remove a SWRL rule by structure'
      : `remove SWRL rules by ${[args.index !== undefined ? `index ${args.index}` : '', args.label !== undefined ? `label ${JSON.stringify(args.label)}` : ''].filter(Boolean).join(' and ')}`,
  handler: (args, ctx) => {
    const active = ctx.workspace.active;
    const view = new View(ctx);
    if (args.head !== undefined) {
      if (args.index !== undefined || args.label !== undefined)
        throw new ToolFailure('Identify the rule either by exact structure (head) or by index/label, not both.', 'invalid_argument');
      // Exact structure: annotations are part of the rule, so an annotated rule is matched only with them.
      const { rule } = buildRule(args, ctx);
      const rendering = view.renderer.axiom(rule);
      if (!active.has(rule)) throw new ToolFailure(`No such rule in the active ontology: ${rendering}`, 'not_found', { rule: rendering });
      ctx.workspace.apply([{ kind: 'RemoveAxiom', ontology: active, axiom: rule }]);
      return { removed: 1, rule: ruleOut(rule, rendering, view) };
    }
    if (args.body !== undefined || args.variable_namespace !== undefined || args.annotations !== undefined) {
      throw new ToolFailure('body, variable_namespace and annotations identify a rule only together with head.', 'invalid_argument');
    }
    if (args.index === undefined && args.label === undefined) {
      throw new ToolFailure(
        'Identify the rule: give its exact structure (head, body, …), an index (list_rules order) or a label.',
        'invalid_argument',
      );
    }
    const listed = orderedRules([active], view);
    let chosen = listed;
    if (args.index !== undefined) {
      const rule = listed[args.index];
      if (rule === undefined) {
        throw new ToolFailure(
          `Rule index ${args.index} is out of range: the active ontology has ${listed.length} rule${listed.length === 1 ? '' : 's'}.`,
          'not_found',
          { count: listed.length },
        );
      }
      chosen = [rule];
    }
    if (args.label !== undefined) {
      const label = args.label;
      chosen = chosen.filter((r) => hasLabel(r.rule, label));
      if (chosen.length === 0) {
        const where = args.index === undefined ? '' : ` at index ${args.index}`;
        throw new ToolFailure(`No rule${where} has the rdfs:label ${JSON.stringify(label)}.`, 'not_found');
      }
    }
    ctx.workspace.apply(chosen.map((r) => ({ kind: 'RemoveAxiom', ontology: active, axiom: r.rule })));
    return { removed: chosen.length, rules: chosen.map((r) => ruleOut(r.rule, r.rendering, view)) };
  },
});
