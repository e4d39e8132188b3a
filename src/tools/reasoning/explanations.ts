// Explanation tools (TOOLS.md 3.8): explain_entailment, get_explanations, explain_inconsistency. The
// work runs on an explanation thread over a revision-tagged snapshot of the active imports closure
// (src/reasoner/explain/pool.ts), with the selected reasoner; justifications come back as
// functional-syntax lines and are rendered here with display names.

import * as v from 'valibot';
import type { Axiom } from '../../model/terms.js';
import { axiomTypeName, axiomWithoutAnnotations, isLogicalAxiom } from '../../model/terms.js';
import { signature } from '../../model/walk.js';
import { displayName } from '../../model/display.js';
import { buildAxiom } from '../../model/operands/builder.js';
import { ManchesterRenderer } from '../../model/formats/manchester/render.js';
import { FunctionalRenderer } from '../../model/formats/functional/renderer.js';
import type { ReasonerInfo } from '../../reasoner/registry.js';
import { asserts, JUSTIFIED_KINDS } from '../../reasoner/explain/entailment.js';
import { runExplanation, type ExplainOutcome } from '../../reasoner/explain/pool.js';
import { axiomRows, justificationRows, type Renderers } from '../../reasoner/explain/render.js';
import { defineTool, never, ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';
import { renderAxiom } from '../../report/rows.js';
import { AnyList, AnyObject } from '../core/result-shapes.js';
import { flatSchema, withFields } from '../edit/axiom-edits.js';
import { unreachable } from '../../util/unreachable.js';

const DEFAULT_TIMEOUT_MS = 60_000;
const INCONSISTENCY_CAP = 100;
const RELATED_CAP = 50;
const METHOD =
  'black-box over the reasoner: syntactic ⊥-locality module, expand then divide-and-conquer shrink (QuickXplain), ' +
  'Reiter hitting-set tree with justification reuse and early path termination';

const timeoutField = v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3_600_000)), DEFAULT_TIMEOUT_MS);
const maxField = v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.description('0: all.')), 3);

const EXTRA_JSON = {
  max: { type: 'integer', minimum: 0, default: 3, description: '0: all.' },
  timeout_ms: { type: 'integer', minimum: 1, maximum: 3_600_000, default: DEFAULT_TIMEOUT_MS },
};

const selected = (ctx: ToolContext): ReasonerInfo => ctx.window.reasoning.selected;

function renderers(ctx: ToolContext): Renderers {
  const closure = ctx.resolver.closure;
  const lang = ctx.settings.label_language;
  return { manchester: new ManchesterRenderer((e) => displayName(e, closure, lang)), functional: new FunctionalRenderer() };
}

/** The goal axiom of an operand set (extra tool arguments removed); a name the closure lacks is `not_found`. */
function goalOf(args: JsonObject, ctx: ToolContext): Axiom {
  const { max: _max, timeout_ms: _timeout, ...operands } = args;
  const built = buildAxiom(operands, ctx.resolver);
  if (built.newEntities.length > 0) {
    const unknown = built.newEntities.map((e) => e.iri);
    throw new ToolFailure(
      `The axiom names entities the active ontology and its imports do not have: ${unknown.map((iri) => '<' + iri + '>').join(', ')} (search_entities finds existing names).`,
      'not_found',
      { unknown },
    );
  }
  return built.axiom;
}

/** Fails on the outcomes every explanation tool treats alike; returns the data otherwise. */
function settle<K extends ExplainOutcome['kind']>(
  out: ExplainOutcome,
  reasoner: ReasonerInfo,
  want: K,
  timeoutMs: number,
): Extract<ExplainOutcome, { kind: K }> {
  if (out.kind === want) return out as Extract<ExplainOutcome, { kind: K }>;
  switch (out.kind) {
    case 'timeout':
      throw new ToolFailure(`The explanation did not finish within ${timeoutMs} ms.`, 'timeout', { timeout_ms: timeoutMs });
    case 'cancelled':
      throw new ToolFailure('The explanation was cancelled.', 'cancelled');
    case 'inconsistent_ontology':
      throw new ToolFailure(
        'The ontology is inconsistent: every entailment holds. Call explain_inconsistency to find the axioms responsible.',
        'inconsistent_ontology',
        { see: 'explain_inconsistency' },
      );
    case 'error':
      throw new ToolFailure(`${reasoner.name} cannot evaluate the ontology: ${out.message}`, 'reasoner_error');
    case 'entailment':
    case 'justifications':
    case 'inconsistency':
      throw new ToolFailure(`Unexpected explanation outcome '${out.kind}'.`, 'internal_error');
    default:
      return unreachable(out);
  }
}

function configuration(reasoner: ReasonerInfo, calls: number, extra: JsonObject = {}): JsonObject {
  return {
    reasoner: reasoner.name,
    reasoner_id: reasoner.id,
    method: METHOD,
    reasoner_calls: calls,
    snapshot: 'private copy of the imports closure at the current revision',
    ...extra,
  };
}

/**
 * The entailment answer; for an axiom type the reasoner cannot decide it is an asserted copy anywhere in
 * the imports closure (the snapshot leaves annotation axioms out, so this looks at the ontologies).
 */
function entailedAnswer(out: { entailed: boolean; decided: boolean }, goal: Axiom, ctx: ToolContext): boolean {
  if (out.decided) return out.entailed;
  const plain = axiomWithoutAnnotations(goal);
  return ctx.resolver.closure.some((o) => asserts(o.axioms(), plain));
}

const axiomRow = (a: Axiom, ctx: ToolContext) => ({ axiom_type: axiomTypeName(a), rendering: renderAxiom(a, ctx) });

/** Asserted logical axioms of the imports closure that mention the goal's entities (capped, by rendering). */
function relatedAxioms(goal: Axiom, ctx: ToolContext): JsonObject {
  const found = new Set<Axiom>();
  for (const e of signature(goal)) {
    for (const o of ctx.resolver.closure) for (const a of o.index.referencing.get(e) ?? []) if (isLogicalAxiom(a)) found.add(a);
  }
  const rows = [...found].map((a) => axiomRow(a, ctx)).sort((x, y) => (x.rendering < y.rendering ? -1 : x.rendering > y.rendering ? 1 : 0));
  return {
    count: rows.length,
    items: rows.slice(0, RELATED_CAP),
    ...(rows.length > RELATED_CAP ? { truncated: rows.length - RELATED_CAP } : {}),
  };
}

export const explainEntailment = defineTool({
  name: 'explain_entailment',
  description: "Whether the ontology entails an axiom given as add_axiom's operands.",
  input: withFields({}),
  listedSchema: flatSchema({}),
  output: v.object({ entailed: v.boolean(), axiom: AnyObject, note: v.optional(v.string()) }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: async (args, ctx) => {
    const reasoner = selected(ctx);
    const goal = goalOf(args as JsonObject, ctx);
    const out = settle(
      await runExplanation(ctx.window.reasoning.snapshot(), reasoner, { type: 'entail', goal }, DEFAULT_TIMEOUT_MS, ctx.signal),
      reasoner,
      'entailment',
      DEFAULT_TIMEOUT_MS,
    );
    return {
      entailed: entailedAnswer(out, goal, ctx),
      axiom: axiomRow(goal, ctx),
      ...(out.decided ? {} : { note: `${reasoner.name} cannot decide ${goal.kind} axioms: only an asserted copy counts as entailed.` }),
    };
  },
});

export const getExplanations = defineTool({
  name: 'get_explanations',
  description: 'Justifications of an entailed axiom; unsatisfiable C: subclass_of C owl:Nothing.',
  input: withFields({ max: maxField, timeout_ms: timeoutField }),
  listedSchema: flatSchema(EXTRA_JSON),
  output: v.object({
    axiom: AnyObject,
    entailed: v.boolean(),
    justification_count: v.optional(v.number()),
    justifications: v.optional(AnyList),
    reasoner_configuration: v.optional(AnyObject),
    justification_available: v.optional(v.boolean()),
    note: v.optional(v.string()),
    related_axioms: v.optional(AnyObject),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: async (args, ctx) => {
    const a = args as JsonObject & { max: number; timeout_ms: number };
    const reasoner = selected(ctx);
    const goal = goalOf(a, ctx);
    const row = axiomRow(goal, ctx);
    if (!JUSTIFIED_KINDS.has(goal.kind)) {
      const out = settle(
        await runExplanation(ctx.window.reasoning.snapshot(), reasoner, { type: 'entail', goal }, a.timeout_ms, ctx.signal),
        reasoner,
        'entailment',
        a.timeout_ms,
      );
      const entailed = entailedAnswer(out, goal, ctx);
      return {
        axiom: row,
        entailed,
        justification_available: false,
        note:
          `Justifications are computed for class, assertion, domain and range axioms; for ${goal.kind} this reports the entailment check` +
          (entailed ? ' and the asserted axioms about its entities.' : '.'),
        ...(entailed ? { related_axioms: relatedAxioms(goal, ctx) } : {}),
      };
    }
    const out = settle(
      await runExplanation(ctx.window.reasoning.snapshot(), reasoner, { type: 'justify', goal, max: a.max }, a.timeout_ms, ctx.signal),
      reasoner,
      'justifications',
      a.timeout_ms,
    );
    const justifications = out.justifications;
    return {
      axiom: row,
      entailed: out.entailed,
      justification_count: justifications.length,
      justifications: justificationRows(justifications, renderers(ctx)),
      reasoner_configuration: configuration(reasoner, out.calls, {
        module_axioms: out.moduleSize,
        all_found: out.complete,
        ...(out.decided ? {} : { note: `${reasoner.name} cannot decide ${goal.kind} axioms: an asserted copy is the only justification.` }),
      }),
    };
  },
});

export const explainInconsistency = defineTool({
  name: 'explain_inconsistency',
  description: 'An inconsistent set of asserted axioms, minimal unless time runs out.',
  input: v.strictObject({
    timeout_ms: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3_600_000), v.description('On expiry the set found so far.')),
      DEFAULT_TIMEOUT_MS,
    ),
  }),
  output: v.object({
    inconsistent: v.boolean(),
    reasoner: v.string(),
    note: v.string(),
    minimal: v.optional(v.boolean()),
    consistency_checks: v.optional(v.number()),
    axiom_count: v.optional(v.number()),
    justification: v.optional(AnyObject),
    reasoner_configuration: v.optional(AnyObject),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: async (args, ctx) => {
    const reasoner = selected(ctx);
    const timeoutMs = args.timeout_ms;
    const out = settle(
      await runExplanation(ctx.window.reasoning.snapshot(), reasoner, { type: 'inconsistency' }, timeoutMs, ctx.signal),
      reasoner,
      'inconsistency',
      timeoutMs,
    );
    if (!out.inconsistent) {
      return {
        inconsistent: false,
        reasoner: reasoner.name,
        note: `${reasoner.name} finds the active ontology and its imports consistent.`,
      };
    }
    const rows = axiomRows(out.axioms, renderers(ctx));
    return {
      inconsistent: true,
      reasoner: reasoner.name,
      minimal: out.minimal,
      consistency_checks: out.calls,
      axiom_count: rows.length,
      justification: {
        count: rows.length,
        items: rows.slice(0, INCONSISTENCY_CAP),
        ...(rows.length > INCONSISTENCY_CAP ? { truncated: rows.length - INCONSISTENCY_CAP } : {}),
      },
      note: out.minimal
        ? 'These axioms are jointly inconsistent and minimal: removing any one of them restores consistency of this set.'
        : 'The time bound stopped the contraction: these axioms are jointly inconsistent but may not be minimal (raise timeout_ms).',
      reasoner_configuration: configuration(reasoner, out.calls),
    };
  },
});
