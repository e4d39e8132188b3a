// Reasoning tools (TOOLS.md 3.8): list_reasoners, set_reasoner, run_reasoner, get_unsatisfiable_classes,
// get_inferred_superclasses, execute_dl_query, get_reasoner_capabilities. Classification runs on the pool
// over a snapshot (src/reasoner/pool.ts); every answer says whether it is complete, which axioms the
// reasoner could not handle, and from which revision it was computed.

import * as v from 'valibot';
import type { Axiom, ClassExpression, IRI } from '../../model/terms.js';
import { axiomTypeName, cls, namedIndividual } from '../../model/terms.js';
import { signature } from '../../model/walk.js';
import { ManchesterParseError, ExpressionNestingError } from '../../model/formats/manchester/expression.js';
import { REASONER_STATUSES, type Classification, type ReasoningSession } from '../../reasoner/pool.js';
import { implementationDigest, reasonerById, reasoners, sortedReasoners, type CapabilityRow } from '../../reasoner/registry.js';
import { decodeAxioms } from '../../model/transfer.js';
import { parseDlQuery, runDlQuery, type DlRelation } from '../../reasoner/dl-query.js';
import type { UnsupportedData } from '../../reasoner/pool-worker.js';
import { always, defineTool, never, stepMeasure, ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';
import { entityRow, renderAxiom, type EntityRow } from '../../report/rows.js';
import { AnyList, AnyObject, EntityRowOutput } from '../core/result-shapes.js';
import { sha256Digest } from '../../util/digest.js';
import { referencedReasoner } from '../../reasoner/reference.js';
import { unreachable } from '../../util/unreachable.js';

const NoArgs = v.strictObject({});
const ITEM_CAP = 1000;
const DEFAULT_TIMEOUT_MS = 60_000;
const TimeoutMs = v.optional(
  v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3_600_000), v.description('The run is cancelled then.')),
  DEFAULT_TIMEOUT_MS,
);

const RULE_WARNING = 'The ontology has SWRL rules; this reasoner ignores them, so rule inferences are missing.';

const INCONSISTENT =
  'The ontology is inconsistent: every class is unsatisfiable and every entailment holds. Call explain_inconsistency to find the axioms responsible.';

/** The selected reasoner's last results (§1.10: fails with none, and over an inconsistent ontology). */
function requireResults(session: ReasoningSession): Classification {
  const r = session.selected;
  const res = session.result;
  if (res === null) {
    throw new ToolFailure(`${r.name} has no results (status ${session.status()}): call run_reasoner first.`, 'no_reasoner_results', {
      status: session.status(),
    });
  }
  if (!res.consistent)
    throw new ToolFailure(INCONSISTENT, 'inconsistent_ontology', { status: session.status(), see: 'explain_inconsistency' });
  return res;
}

/** The unsupported-axiom sample as axiom rows (cached per result: the sample is immutable). */
const sampleRows = new WeakMap<UnsupportedData, { axiom_type: string; rendering: string }[]>();

function unsupportedReport(u: UnsupportedData, ctx: ToolContext): { count: number; sample: readonly unknown[]; truncated?: number } {
  let rows = sampleRows.get(u);
  if (rows === undefined) {
    rows = decodeAxioms(u.sample).map((a: Axiom) => ({ axiom_type: axiomTypeName(a), rendering: renderAxiom(a, ctx) }));
    rows.sort((a, b) => (a.rendering < b.rendering ? -1 : a.rendering > b.rendering ? 1 : 0));
    sampleRows.set(u, rows);
  }
  return { count: u.count, sample: rows, ...(u.count > rows.length ? { truncated: u.count - rows.length } : {}) };
}

/** Which reasoner answered: the selected one, or the engine `auto` chose (and why it may be incomplete). */
function answeredBy(res: Classification): { reasoner: string; selected_reasoner?: string; completeness_note?: string } {
  const by = res.answeredBy;
  return {
    reasoner: by.name,
    ...(by !== res.reasoner ? { selected_reasoner: res.reasoner.name } : {}),
    ...(res.data.note !== undefined ? { completeness_note: res.data.note } : {}),
  };
}

/**
 * The unsupported axioms as an inference read reports them: the count, and where the sample is. The sample
 * belongs to the reasoner run (run_reasoner returns it), so reads of the same result do not repeat it.
 */
function unsupportedReference(u: UnsupportedData, revision: number): JsonObject {
  return u.count === 0
    ? { count: 0 }
    : { count: u.count, sample_in: `the run_reasoner result of revision ${revision} (run_reasoner again to see it)` };
}

/** The honesty fields every inference answer carries: completeness, unsupported axioms, freshness. */
/** The fields `provenance` adds to an answer from the last classification. */
const ProvenanceOutput = {
  reasoner: v.string(),
  selected_reasoner: v.optional(v.string()),
  completeness_note: v.optional(v.string()),
  status: v.string(),
  complete: v.boolean(),
  unsupported_axioms: AnyObject,
  result_revision: v.number(),
  note: v.optional(v.string()),
  warning: v.optional(v.string()),
};

/** A capped list of entity rows, and the fields of `cappedRows`. */
const RowsFields = { count: v.number(), items: v.array(EntityRowOutput), truncated: v.optional(v.number()) };
const RowsOutput = v.object(RowsFields);

function provenance(
  session: ReasoningSession,
  res: Classification,
  ctx: ToolContext,
): v.InferOutput<v.ObjectSchema<typeof ProvenanceOutput, undefined>> {
  const status = session.status();
  return {
    ...answeredBy(res),
    status,
    complete: res.data.complete,
    unsupported_axioms: unsupportedReference(res.data.unsupported, res.revision),
    result_revision: res.revision,
    ...(status === 'out_of_sync' || status === 'classifying'
      ? {
          note: `These results were computed at revision ${res.revision}; the model is now at revision ${ctx.workspace.revision}. Call run_reasoner to refresh them.`,
        }
      : {}),
    ...(res.ruleCount > 0 ? { warning: RULE_WARNING } : {}),
  };
}

const byDisplay = (a: EntityRow, b: EntityRow) =>
  a.display < b.display ? -1 : a.display > b.display ? 1 : a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : 0;

function cappedRows(iris: readonly IRI[], ctx: ToolContext, individuals = false): v.InferOutput<typeof RowsOutput> {
  const rows = iris.map((iri) => entityRow(individuals ? namedIndividual(iri) : cls(iri), ctx)).sort(byDisplay);
  return { count: rows.length, items: rows.slice(0, ITEM_CAP), ...(rows.length > ITEM_CAP ? { truncated: rows.length - ITEM_CAP } : {}) };
}

export const listReasoners = defineTool({
  name: 'list_reasoners',
  description: 'Installed reasoners, the selected one and its status.',
  input: NoArgs,
  output: v.object({
    count: v.number(),
    reasoners: v.array(v.object({ name: v.string(), id: v.string(), current: v.boolean() })),
    current_id: v.optional(v.string()),
    status: v.picklist(REASONER_STATUSES),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (_args, ctx) => {
    const session = ctx.window.reasoning;
    const current = session.selected;
    const reasoners = sortedReasoners().map((r) => ({ name: r.name, id: r.id, current: r === current }));
    // `status` (TOOLS.md 1.10 vocabulary) is this server's addition: the one place a client can poll it
    return { count: reasoners.length, reasoners, current_id: current.id, status: session.status() };
  },
});

export const setReasoner = defineTool({
  name: 'set_reasoner',
  description: 'Select (not run) a reasoner.',
  input: v.strictObject({ reasoner: v.pipe(v.string(), v.nonEmpty()) }),
  output: v.object({ selected: v.object({ name: v.string(), id: v.string() }), message: v.string() }),
  capabilities: ['ontology:admin'],
  // M·N (TOOLS.md): the selection is window state every session shares, and selecting cancels another
  // reasoner's run, so it is gated like a write (refused in read-only mode, held for approval) though no undo restores it
  mutating: always,
  destructive: true,
  idempotent: true,
  handler: (args, ctx) => {
    const reasoner = referencedReasoner(args.reasoner);
    ctx.window.reasoning.select(reasoner);
    return {
      selected: { name: reasoner.name, id: reasoner.id },
      message: `${reasoner.name} is selected. Call run_reasoner to classify.`,
    };
  },
});

export const runReasoner = defineTool({
  name: 'run_reasoner',
  description: 'Classify the active ontology and its imports with the selected reasoner.',
  input: v.strictObject({ timeout_ms: TimeoutMs }),
  output: v.object({
    started: v.boolean(),
    completed: v.optional(v.boolean()),
    reasoner: v.optional(v.string()),
    selected_reasoner: v.optional(v.string()),
    completeness_note: v.optional(v.string()),
    status: v.optional(v.string()),
    inconsistent: v.optional(v.nullable(v.boolean())),
    unsatisfiable_count: v.optional(v.number()),
    complete: v.optional(v.boolean()),
    unsupported_axioms: v.optional(AnyObject),
    result_revision: v.optional(v.number()),
    cached: v.optional(v.boolean()),
    elapsed_ms: v.optional(v.number()),
    message: v.string(),
    warning: v.optional(v.string()),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: async (args, ctx) => {
    const session = ctx.window.reasoning;
    const reasoner = session.selected;
    // three phases: snapshot, classification, report
    ctx.progress?.('run_reasoner: taking a snapshot of the ontology', stepMeasure(0, 3));
    const out = await session.classify(args.timeout_ms, ctx.signal, (axioms) =>
      ctx.progress?.(`run_reasoner: classifying ${axioms.toLocaleString('en')} axioms with ${reasoner.name}`, stepMeasure(1, 3)),
    );
    ctx.progress?.('run_reasoner: reporting', stepMeasure(2, 3));
    if (!out.started)
      return {
        started: false,
        message: `${reasoner.name} is already classifying this revision; list_reasoners shows its status until it finishes.`,
      };
    if (!out.completed) {
      // consistency is unknown when the run did not finish
      return {
        started: true,
        completed: false,
        reasoner: reasoner.name,
        status: session.status(),
        inconsistent: null,
        message: out.message,
      };
    }
    const res = out.classification;
    const unsatisfiable = res.consistent ? res.data.unsatisfiable.length : undefined;
    return {
      started: true,
      completed: true,
      ...answeredBy(res),
      status: session.status(),
      inconsistent: !res.consistent,
      ...(unsatisfiable !== undefined ? { unsatisfiable_count: unsatisfiable } : {}),
      complete: res.data.complete,
      unsupported_axioms: unsupportedReport(res.data.unsupported, ctx),
      result_revision: res.revision,
      cached: out.cached,
      elapsed_ms: res.data.elapsedMs,
      message: res.consistent
        ? (out.cached ? 'Already classified at this revision' : `Classified in ${res.data.elapsedMs} ms`) +
          `: ${unsatisfiable} unsatisfiable class(es).` +
          (res.data.complete ? '' : ' Some axioms are outside what this reasoner handles: inferences may be missing.')
        : 'The ontology is inconsistent. Call explain_inconsistency to find the axioms responsible.',
      ...(res.ruleCount > 0 ? { warning: RULE_WARNING } : {}),
    };
  },
});

export const getUnsatisfiableClasses = defineTool({
  name: 'get_unsatisfiable_classes',
  description: 'Classes the last classification found unsatisfiable.',
  input: NoArgs,
  output: v.object({ ...RowsFields, coherent: v.boolean(), ...ProvenanceOutput }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (_args, ctx) => {
    const session = ctx.window.reasoning;
    const res = requireResults(session);
    return { ...cappedRows(res.data.unsatisfiable, ctx), coherent: res.data.unsatisfiable.length === 0, ...provenance(session, res, ctx) };
  },
});

const RELATIONS = ['superclasses', 'subclasses', 'equivalent', 'types', 'instances'] as const;

function inferred(res: Classification, iri: IRI, relation: (typeof RELATIONS)[number], direct: boolean): IRI[] {
  switch (relation) {
    case 'superclasses':
      return res.superclasses(iri, direct);
    case 'subclasses':
      return res.subclasses(iri, direct);
    case 'equivalent':
      return res.equivalents(iri);
    case 'types':
      return res.types(iri, direct);
    case 'instances':
      return res.instances(iri, direct);
    default:
      return unreachable(relation);
  }
}

export const getInferredSuperclasses = defineTool({
  name: 'get_inferred_superclasses',
  description: 'Inferred super/sub/equivalent classes, types or instances, from the last classification.',
  input: v.strictObject({
    entity: v.pipe(v.string(), v.nonEmpty(), v.description('An individual for relation=types.')),
    relation: v.optional(v.picklist(RELATIONS), 'superclasses'),
    direct: v.optional(v.boolean(), true),
  }),
  output: v.object({ ...RowsFields, relation: v.string(), entity: v.string(), direct: v.boolean(), ...ProvenanceOutput }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (args, ctx) => {
    const session = ctx.window.reasoning;
    const res = requireResults(session);
    const { iri } = ctx.resolver.resolve(args.entity);
    const individual = args.relation === 'types';
    const known = individual ? res.hasIndividual(iri) : res.hasClass(iri);
    if (!known) {
      const what = individual ? 'individual' : 'class';
      throw new ToolFailure(`No ${what} <${iri}> ('${args.entity}') in the classification at revision ${res.revision}.`, 'not_found', {
        iri,
      });
    }
    return {
      ...cappedRows(inferred(res, iri, args.relation, args.direct), ctx, args.relation === 'instances'),
      relation: args.relation,
      entity: args.entity,
      direct: args.direct,
      ...provenance(session, res, ctx),
    };
  },
});

/** Names in the query the imports closure does not know: a query over them would silently answer nothing. */
function unknownNames(expr: ClassExpression, ctx: ToolContext): string[] {
  return signature(expr)
    .filter((e) => !ctx.resolver.knows(e))
    .map((e) => e.iri)
    .sort();
}

export const executeDlQuery = defineTool({
  name: 'execute_dl_query',
  description: 'Equivalent, super and subclasses and instances of a class expression.',
  input: v.strictObject({
    query: v.pipe(v.string(), v.nonEmpty()),
    relation: v.optional(v.picklist(['all', 'equivalent', 'subclasses', 'superclasses', 'instances']), 'all'),
    direct: v.optional(v.boolean(), true),
    complete: v.optional(v.boolean(), false),
    timeout_ms: TimeoutMs,
  }),
  output: v.object({
    query: v.string(),
    direct: v.boolean(),
    completed: v.boolean(),
    equivalent: v.optional(RowsOutput),
    superclasses: v.optional(RowsOutput),
    subclasses: v.optional(RowsOutput),
    instances: v.optional(RowsOutput),
    reasoner: v.optional(v.string()),
    selected_reasoner: v.optional(v.string()),
    completeness_note: v.optional(v.string()),
    complete: v.optional(v.boolean()),
    unsupported_axioms: v.optional(AnyObject),
    result_revision: v.optional(v.number()),
    status: v.optional(v.string()),
    warning: v.optional(v.string()),
    note: v.optional(v.string()),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: async (args, ctx) => {
    const session = ctx.window.reasoning;
    const reasoner = session.selected;
    let expr: ClassExpression;
    try {
      expr = parseDlQuery(args.query, ctx.resolver);
    } catch (err) {
      if (err instanceof ExpressionNestingError)
        throw new ToolFailure(`The query is nested too deeply: ${err.message}`, 'invalid_argument');
      if (err instanceof ManchesterParseError) throw new ToolFailure(`Cannot parse the query: ${err.message}`, 'parse_error');
      throw err;
    }
    const unknown = unknownNames(expr, ctx);
    if (unknown.length > 0)
      throw new ToolFailure(`The query names entities the ontology does not have: ${unknown.join(', ')}`, 'not_found', { unknown });
    const out = await runDlQuery(session, expr, args.relation as DlRelation, args.direct, args.timeout_ms, ctx.signal);
    const ruleWarning = out.ruleCount > 0 ? [RULE_WARNING] : [];
    if (out.kind !== 'answered') {
      if (out.kind === 'error') throw new ToolFailure(out.message, 'reasoner_error');
      return {
        query: args.query,
        direct: args.direct,
        completed: false,
        note: out.message,
        ...(ruleWarning.length > 0 ? { warning: ruleWarning.join(' ') } : {}),
      };
    }
    if (!out.consistent) throw new ToolFailure(INCONSISTENT, 'inconsistent_ontology', { see: 'explain_inconsistency' });
    const warnings = [...ruleWarning];
    if (reasoner.id === 'el' && out.anonymous && !args.direct && !args.complete) {
      warnings.push(
        'EL++ classifier with an anonymous expression and direct=false: pass complete=true to also union each direct answer with its named ancestors/descendants.',
      );
    }
    const notes: string[] = [];
    if (out.queryUnsupported)
      notes.push(`The query uses constructs ${reasoner.name} does not handle: the answer is sound but may be incomplete.`);
    if (args.complete)
      notes.push(
        'complete=true: this server computes transitive answers from the full taxonomy, which already includes every named ancestor/descendant of the direct answers.',
      );
    const a = out.answer;
    return {
      query: args.query,
      direct: args.direct,
      ...(a.equivalent !== undefined ? { equivalent: cappedRows(a.equivalent, ctx) } : {}),
      ...(a.superclasses !== undefined ? { superclasses: cappedRows(a.superclasses, ctx) } : {}),
      ...(a.subclasses !== undefined ? { subclasses: cappedRows(a.subclasses, ctx) } : {}),
      ...(a.instances !== undefined ? { instances: cappedRows(a.instances, ctx, true) } : {}),
      completed: true,
      reasoner: reasonerById(out.engine)?.name ?? reasoner.name,
      ...(out.engine !== reasoner.id ? { selected_reasoner: reasoner.name } : {}),
      ...(out.note !== undefined ? { completeness_note: out.note } : {}),
      complete: out.complete,
      unsupported_axioms: unsupportedReport(out.unsupported, ctx),
      result_revision: out.revision,
      ...(out.revision !== ctx.workspace.revision ? { status: 'out_of_sync' } : {}),
      ...(warnings.length > 0 ? { warning: warnings.join(' ') } : {}),
      ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
    };
  },
});

const digest = (value: unknown) => sha256Digest(JSON.stringify(value));
const byConstruct = (a: CapabilityRow, b: CapabilityRow) => (a.construct < b.construct ? -1 : a.construct > b.construct ? 1 : 0);

const SWRL_ATOMS = [
  'BuiltInAtom',
  'ClassAtom',
  'DataPropertyAtom',
  'DataRangeAtom',
  'DifferentIndividualsAtom',
  'ObjectPropertyAtom',
  'SameIndividualAtom',
];
const SWRL_BUILTINS = [
  'swrlb:add',
  'swrlb:equal',
  'swrlb:greaterThan',
  'swrlb:greaterThanOrEqual',
  'swrlb:lessThan',
  'swrlb:lessThanOrEqual',
  'swrlb:multiply',
  'swrlb:notEqual',
  'swrlb:stringConcat',
  'swrlb:subtract',
];

export const getReasonerCapabilities = defineTool({
  name: 'get_reasoner_capabilities',
  description: 'What the selected reasoner handles, without running it.',
  input: NoArgs,
  output: v.object({
    identity: AnyObject,
    capability_digest: v.string(),
    profile_status: v.string(),
    exact_profile_match: v.boolean(),
    owl_capabilities: AnyList,
    rule_capabilities: AnyList,
    swrl_atom_capabilities: AnyList,
    swrl_builtin_capabilities: AnyList,
    known_incompatibilities: AnyList,
    unsupported_handling: v.string(),
    absence_means_supported: v.boolean(),
    installed: v.number(),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (_args, ctx) => {
    const r = ctx.window.reasoning.selected;
    const semantic = { reasoner: r.id, version: r.version, unsupported_constructs: 'abstracted-opaque', rules: 'ignored' };
    const configuration = { ...semantic, execution: 'task-pool', snapshot: 'binary-transfer', default_timeout_ms: DEFAULT_TIMEOUT_MS };
    const identity = {
      id: r.id,
      name: r.name,
      version: r.version,
      implementation_digest: implementationDigest(r),
      configuration_digest: digest(configuration),
      semantic_configuration_digest: digest(semantic),
      configuration_profile: 'recognized',
      // each run reads an immutable snapshot of one revision: changes are buffered until the next run
      buffering_mode: 'buffering',
      timeout_ms: -1,
      fresh_entity_policy: 'allow',
      individual_node_policy: 'named_individuals_only',
      profile_key: `${r.id}@${r.version}`,
    };
    const unsupported =
      (evidence: string) =>
      (construct: string): CapabilityRow => ({ construct, status: 'unsupported', evidence });
    const evidence = {
      owl_capabilities: [...r.owl].sort(byConstruct),
      rule_capabilities: [unsupported('SWRL rules are ignored by every installed reasoner')('DLSafeRule')],
      swrl_atom_capabilities: SWRL_ATOMS.map(unsupported('rules are ignored')),
      swrl_builtin_capabilities: SWRL_BUILTINS.map(
        unsupported('side-effect-free allowlist; rules are ignored, so no built-in is evaluated'),
      ),
      known_incompatibilities: [
        { id: 'swrl_rules_ignored', description: 'SWRL rules are ignored: rule inferences are missing (classifying tools warn).' },
        {
          id: 'datatype_reasoning',
          description: 'Data ranges and data property semantics are not reasoned with; such axioms are reported unsupported.',
        },
      ],
    };
    return {
      identity,
      capability_digest: digest({ identity, ...evidence, statuses: ['supported', 'unsupported', 'unknown', 'untested'] }),
      profile_status: 'reviewed',
      exact_profile_match: true,
      ...evidence,
      unsupported_handling: r.unsupportedHandling,
      absence_means_supported: false,
      installed: reasoners().length,
    };
  },
});
