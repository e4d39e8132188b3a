// validate_rules (TOOLS.md 3.7): checks the SWRL corpus against the selected reasoner's declared capability
// profile, without executing a rule or creating a reasoner. The corpus is captured within fixed budgets,
// fingerprinted, and paged; a later page must name the fingerprint of the capture it continues.

import * as v from 'valibot';
import type { Atom, DLSafeRule } from '../../model/terms.js';
import type { Ontology } from '../../model/ontology.js';
import { ontologyLabel } from '../../model/workspace.js';
import { ManchesterRenderer } from '../../model/formats/manchester/render.js';
import { SWRLB } from '../../model/vocab.js';
import type { CapabilityStatus, ReasonerInfo } from '../../reasoner/registry.js';
import { defineTool, never, ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';
import { View } from '../explore/ontology-context.js';
import { atomArgs, atomOut } from './rule-atoms.js';
import { orderedRules, type ListedRule } from './rule-tools.js';
import { sha256Digest } from '../../util/digest.js';

/** Capture limits: exceeding any fails the whole call (rule_validation_budget_exceeded). */
export const RULE_BUDGET = {
  sources: 128,
  ontologyIriChars: 4096,
  ruleOccurrences: 2000,
  uniqueRules: 2000,
  atomsPerRule: 512,
  annotationsPerRule: 256,
  atoms: 20_000,
  arguments: 100_000,
  canonicalChars: 262_144,
  canonicalNodes: 4096,
  canonicalDepth: 128,
  canonicalBytes: 2_000_000,
  milliseconds: 10_000,
} as const;

const SAMPLE_ATOMS = 32;
const SAMPLE_ARGS = 8;
const SAMPLE_SOURCES = 8;

/** The SWRL core built-ins (W3C SWRL submission, section 8); any other built-in is unknown to every engine. */
const CORE_BUILTINS: ReadonlySet<string> = new Set(
  [
    'equal',
    'notEqual',
    'lessThan',
    'lessThanOrEqual',
    'greaterThan',
    'greaterThanOrEqual',
    'add',
    'subtract',
    'multiply',
    'divide',
    'integerDivide',
    'mod',
    'pow',
    'unaryPlus',
    'unaryMinus',
    'abs',
    'ceiling',
    'floor',
    'round',
    'roundHalfToEven',
    'sin',
    'cos',
    'tan',
    'booleanNot',
    'stringEqualIgnoreCase',
    'stringConcat',
    'substring',
    'stringLength',
    'normalizeSpace',
    'upperCase',
    'lowerCase',
    'translate',
    'contains',
    'containsIgnoreCase',
    'startsWith',
    'endsWith',
    'substringBefore',
    'substringAfter',
    'matches',
    'replace',
    'tokenize',
    'yearMonthDuration',
    'dayTimeDuration',
    'dateTime',
    'date',
    'time',
    'addYearMonthDurations',
    'subtractYearMonthDurations',
    'multiplyYearMonthDuration',
    'divideYearMonthDurations',
    'addDayTimeDurations',
    'subtractDayTimeDurations',
    'multiplyDayTimeDurations',
    'divideDayTimeDuration',
    'subtractDates',
    'subtractTimes',
    'addYearMonthDurationToDateTime',
    'addDayTimeDurationToDateTime',
    'subtractYearMonthDurationFromDateTime',
    'subtractDayTimeDurationFromDateTime',
    'addYearMonthDurationToDate',
    'addDayTimeDurationToDate',
    'subtractYearMonthDurationFromDate',
    'subtractDayTimeDurationFromDate',
    'addDayTimeDurationToTime',
    'subtractDayTimeDurationFromTime',
    'subtractDateTimesYieldingYearMonthDuration',
    'subtractDateTimesYieldingDayTimeDuration',
    'resolveURI',
    'anyURI',
    'listConcat',
    'listIntersection',
    'listSubtraction',
    'member',
    'length',
    'first',
    'rest',
    'sublist',
    'empty',
  ].map((n) => SWRLB + n),
);

const DIGEST = /^sha256:[0-9a-f]{64}$/;

export type SupportState = 'supported' | 'unsupported' | 'unknown';

interface Finding {
  code: string;
  message: string;
}

interface CapturedRule {
  readonly listed: ListedRule;
  readonly digest: string;
  readonly state: SupportState;
  readonly findings: readonly Finding[];
  readonly unboundVariables: readonly string[];
}

function budgetExceeded(what: string, limit: number, value: number): never {
  throw new ToolFailure(`The SWRL corpus exceeds the validation budget: ${what} ${value} > ${limit}.`, 'rule_validation_budget_exceeded', {
    limit_name: what,
    limit,
    value,
  });
}

const sha256 = (text: string): string => sha256Digest(text);

/** The canonical (IRI-only) JSON object of a rule, checked against the per-object limits. */
const CANONICAL = new ManchesterRenderer((e) => '<' + (typeof e === 'string' ? e : e.iri) + '>');

function canonicalObject(rule: DLSafeRule): JsonObject {
  const iri = (x: string) => x;
  return {
    body: rule.body.map((a) => atomOut(a, iri, CANONICAL)),
    head: rule.head.map((a) => atomOut(a, iri, CANONICAL)),
    annotations: rule.annotations.map((a) => CANONICAL.annotation(a)).sort(),
  };
}

/** JSON nodes and nesting depth of a value. */
function shape(x: unknown, depth = 1): { nodes: number; depth: number } {
  if (x === null || typeof x !== 'object') return { nodes: 1, depth };
  let nodes = 1;
  let deepest = depth;
  for (const child of Object.values(x)) {
    const s = shape(child, depth + 1);
    nodes += s.nodes;
    deepest = Math.max(deepest, s.depth);
  }
  return { nodes, depth: deepest };
}

/** The reasoner's declared status for SWRL rules; a profile that does not mention them leaves it unknown. */
function ruleCapability(r: ReasonerInfo): { status: CapabilityStatus; evidence: string } {
  const row = r.owl.find((c) => c.construct.startsWith('DLSafeRule'));
  return row === undefined
    ? { status: 'unknown', evidence: `${r.name} declares no capability for DLSafeRule` }
    : { status: row.status, evidence: row.evidence };
}

/** Variables that occur in the head or in built-ins but in no body class, property or identity atom. */
function unboundVariables(rule: DLSafeRule): string[] {
  const bound = new Set<string>();
  const used = new Set<string>();
  for (const a of rule.body) {
    for (const x of atomArgs(a)) {
      if (x.kind !== 'Variable') continue;
      if (a.kind === 'BuiltInAtom') used.add(x.iri);
      else bound.add(x.iri);
    }
  }
  for (const a of rule.head) for (const x of atomArgs(a)) if (x.kind === 'Variable') used.add(x.iri);
  return [...used].filter((x) => !bound.has(x)).sort();
}

function assess(rule: DLSafeRule, capability: ReturnType<typeof ruleCapability>): { state: SupportState; findings: Finding[] } {
  const findings: Finding[] = [];
  for (const a of [...rule.body, ...rule.head]) {
    if (a.kind === 'BuiltInAtom' && !CORE_BUILTINS.has(a.iri)) {
      findings.push({ code: 'unknown_builtin', message: `Unknown built-in <${a.iri}>: no engine supports it.` });
    }
  }
  if (capability.status === 'unsupported')
    findings.push({ code: 'rules_unsupported', message: `The reasoner does not execute SWRL rules (${capability.evidence}).` });
  else if (capability.status !== 'supported')
    findings.push({ code: 'capability_unknown', message: `Rule support is ${capability.status}: ${capability.evidence}.` });
  const unsupported = findings.some((f) => f.code === 'unknown_builtin' || f.code === 'rules_unsupported');
  const state: SupportState = unsupported ? 'unsupported' : capability.status === 'supported' ? 'supported' : 'unknown';
  return { state, findings };
}

/** Captures the corpus of the scope within the budgets, in list_rules order. */
function capture(scope: readonly Ontology[], view: View, capability: ReturnType<typeof ruleCapability>): CapturedRule[] {
  const deadline = Date.now() + RULE_BUDGET.milliseconds;
  const withRules = scope.filter((o) => o.axiomsOfKind('DLSafeRule').size > 0);
  if (withRules.length > RULE_BUDGET.sources) budgetExceeded('sources', RULE_BUDGET.sources, withRules.length);
  let occurrences = 0;
  for (const o of withRules) {
    for (const iri of [o.id.iri, o.id.versionIri]) {
      if (iri !== null && iri.length > RULE_BUDGET.ontologyIriChars)
        budgetExceeded('ontology IRI characters', RULE_BUDGET.ontologyIriChars, iri.length);
    }
    occurrences += o.axiomsOfKind('DLSafeRule').size;
  }
  if (occurrences > RULE_BUDGET.ruleOccurrences) budgetExceeded('rule occurrences', RULE_BUDGET.ruleOccurrences, occurrences);
  const listed = orderedRules(withRules, view);
  if (listed.length > RULE_BUDGET.uniqueRules) budgetExceeded('unique rules', RULE_BUDGET.uniqueRules, listed.length);
  let atoms = 0;
  let args = 0;
  let bytes = 0;
  return listed.map((l) => {
    if (Date.now() > deadline) budgetExceeded('milliseconds', RULE_BUDGET.milliseconds, Date.now() - deadline + RULE_BUDGET.milliseconds);
    const rule = l.rule;
    const ruleAtoms: readonly Atom[] = [...rule.body, ...rule.head];
    if (ruleAtoms.length > RULE_BUDGET.atomsPerRule) budgetExceeded('atoms per rule', RULE_BUDGET.atomsPerRule, ruleAtoms.length);
    if (rule.annotations.length > RULE_BUDGET.annotationsPerRule)
      budgetExceeded('rule annotations', RULE_BUDGET.annotationsPerRule, rule.annotations.length);
    atoms += ruleAtoms.length;
    if (atoms > RULE_BUDGET.atoms) budgetExceeded('atoms', RULE_BUDGET.atoms, atoms);
    for (const a of ruleAtoms) args += atomArgs(a).length;
    if (args > RULE_BUDGET.arguments) budgetExceeded('arguments', RULE_BUDGET.arguments, args);
    const object = canonicalObject(rule);
    const text = JSON.stringify(object);
    if (text.length > RULE_BUDGET.canonicalChars) budgetExceeded('canonical characters per rule', RULE_BUDGET.canonicalChars, text.length);
    const s = shape(object);
    if (s.nodes > RULE_BUDGET.canonicalNodes) budgetExceeded('canonical nodes per rule', RULE_BUDGET.canonicalNodes, s.nodes);
    if (s.depth > RULE_BUDGET.canonicalDepth) budgetExceeded('canonical levels per rule', RULE_BUDGET.canonicalDepth, s.depth);
    bytes += Buffer.byteLength(text);
    if (bytes > RULE_BUDGET.canonicalBytes) budgetExceeded('canonical bytes', RULE_BUDGET.canonicalBytes, bytes);
    const { state, findings } = assess(rule, capability);
    return { listed: l, digest: sha256(text), state, findings, unboundVariables: unboundVariables(rule) };
  });
}

/** Digest of what a page depends on: the reasoner profile and every rule with its sources. */
function snapshotFingerprint(rules: readonly CapturedRule[], reasoner: ReasonerInfo): string {
  return sha256(
    JSON.stringify({
      reasoner: { id: reasoner.id, name: reasoner.name },
      rules: rules.map((r) => [r.digest, r.listed.sources.map(ontologyLabel)]),
    }),
  );
}

function sampleAtoms(atoms: readonly Atom[], view: View): { atoms: JsonObject[]; truncated: boolean } {
  const display = (iri: string) => view.display(iri);
  const out = atoms.slice(0, SAMPLE_ATOMS).map((a) => {
    const row = atomOut(a, display, view.renderer);
    if (Array.isArray(row.args) && row.args.length > SAMPLE_ARGS)
      return { ...row, args: row.args.slice(0, SAMPLE_ARGS), args_truncated: row.args.length - SAMPLE_ARGS };
    return row;
  });
  return { atoms: out, truncated: atoms.length > SAMPLE_ATOMS };
}

function ruleRow(r: CapturedRule, index: number, view: View): JsonObject {
  const rule = r.listed.rule;
  const sources = r.listed.sources.map(ontologyLabel);
  const body = sampleAtoms(rule.body, view);
  const head = sampleAtoms(rule.head, view);
  return {
    index,
    digest: r.digest,
    rendering: r.listed.rendering,
    sources: {
      count: sources.length,
      items: sources.slice(0, SAMPLE_SOURCES),
      ...(sources.length > SAMPLE_SOURCES ? { truncated: sources.length - SAMPLE_SOURCES } : {}),
    },
    support_state: r.state,
    // No installed engine checks DL-safety, so there is no engine evidence either way.
    dl_safety_status: 'not_evaluated_by_engine',
    body_variable_safety: { safe: r.unboundVariables.length === 0, unbound_variables: r.unboundVariables },
    atom_counts: { body: rule.body.length, head: rule.head.length },
    finding_count: r.findings.length,
    findings: r.findings,
    body: body.atoms,
    head: head.atoms,
    body_truncated: body.truncated,
    head_truncated: head.truncated,
  };
}

function validate(
  args: {
    include_imports?: boolean | undefined;
    offset?: number | undefined;
    limit?: number | undefined;
    snapshot_fingerprint?: string | undefined;
  },
  ctx: ToolContext,
): JsonObject {
  const offset = args.offset ?? 0;
  const limit = args.limit ?? 10;
  if (offset > 0 && args.snapshot_fingerprint === undefined) {
    throw new ToolFailure('A page after the first needs the snapshot_fingerprint of the first page.', 'rule_validation_snapshot_required');
  }
  const view = new View(ctx);
  const reasoner = ctx.window.reasoning.selected;
  const capability = ruleCapability(reasoner);
  const scope = args.include_imports === false ? [ctx.workspace.active] : ctx.resolver.closure;
  const rules = capture(scope, view, capability);
  const fingerprint = snapshotFingerprint(rules, reasoner);
  if (args.snapshot_fingerprint !== undefined && args.snapshot_fingerprint !== fingerprint) {
    throw new ToolFailure(
      'The rules or the selected reasoner changed since that snapshot; start again at offset 0.',
      'rule_validation_snapshot_changed',
      { retryable: true, snapshot_fingerprint: fingerprint },
    );
  }
  const totals: Record<SupportState, number> = { supported: 0, unsupported: 0, unknown: 0 };
  for (const r of rules) totals[r.state]++;
  const warnings: string[] = [];
  if (capability.status === 'unsupported' && rules.length > 0)
    warnings.push(`${reasoner.name} ignores SWRL rules: their inferences are missing from every reasoning answer.`);
  const page = rules.slice(offset, offset + limit);
  const incompatible = rules.flatMap((r, index) =>
    r.state === 'supported'
      ? []
      : [{ index, digest: r.digest, support_state: r.state, finding_codes: [...new Set(r.findings.map((f) => f.code))] }],
  );
  return {
    executed_rules: false,
    parsed_every_atom: true,
    reasoner: { id: reasoner.id, name: reasoner.name },
    compatible: incompatible.length === 0,
    coverage_complete: capability.status === 'supported' || capability.status === 'unsupported',
    snapshot_fingerprint: fingerprint,
    fingerprint_stability: 'content: the same rules, sources and selected reasoner give the same fingerprint in any session',
    warnings,
    count: rules.length,
    totals,
    offset,
    returned: page.length,
    ...(offset + page.length < rules.length ? { next_offset: offset + page.length } : {}),
    incompatible_rule_summaries: incompatible,
    rules: page.map((r, i) => ruleRow(r, offset + i, view)),
  };
}

export const validateRules = defineTool({
  name: 'validate_rules',
  description: "Check SWRL rules against the selected reasoner's profile; paged.",
  input: v.strictObject({
    include_imports: v.optional(v.boolean()),
    offset: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(2000))),
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10))),
    snapshot_fingerprint: v.optional(v.pipe(v.string(), v.regex(DIGEST), v.description('From the first page; needed when offset > 0.'))),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (args, ctx) => validate(args, ctx),
});
