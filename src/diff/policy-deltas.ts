// The policy-driven parts of `semantic_diff`'s inferred modes (TOOLS.md 3.2): which module owns each term
// on either side (`module_ownership`), and which findings of the policy's required cqs, invariants, shacl
// and governance stages enter or leave between the sides (`stage_deltas`), each stage run once per side on
// that side's private snapshot, compared by stable finding id.

import type { Entity, IRI } from '../model/terms.js';
import { ontologyIds, type Ontology } from '../model/ontology.js';
import type { EffectivePolicy } from '../policy/schema.js';
import type { ReasonerInfo } from '../reasoner/registry.js';
import type { Finding, QcSnapshot, StageId } from '../qc/finding.js';
import { runGate } from '../qc/gate.js';
import { policyStages } from '../qc/preflight.js';
import type { JsonObject } from '../util/json-object.js';

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

// ---------------------------------------------------------------- module ownership

export interface ModuleDeclaration {
  readonly id: string;
  /** Namespaces whose terms the module owns. */
  readonly namespaces: readonly string[];
  /** The module's ontology IRI: the terms that ontology declares are the module's. */
  readonly iri?: string | undefined;
}

/** Owner of each term on one side: modules (ids sorted, comma-joined) by namespace or by the module ontology declaring it. */
function owners(iris: readonly IRI[], closure: readonly Ontology[], modules: readonly ModuleDeclaration[]): Map<IRI, string | null> {
  const declaredBy = new Map<string, Set<IRI>>();
  for (const m of modules) {
    if (m.iri === undefined) continue;
    const declared = new Set<IRI>();
    for (const o of closure) if (ontologyIds(o).includes(m.iri)) for (const d of o.axiomsOfKind('Declaration')) declared.add(d.entity.iri);
    declaredBy.set(m.id, declared);
  }
  const out = new Map<IRI, string | null>();
  for (const iri of iris) {
    const ids = modules
      .filter((m) => m.namespaces.some((ns) => iri.startsWith(ns)) || declaredBy.get(m.id)?.has(iri) === true)
      .map((m) => m.id)
      .sort(cmp);
    out.set(iri, ids.length === 0 ? null : ids.join(','));
  }
  return out;
}

export interface OwnershipChange {
  readonly iri: IRI;
  readonly was_module: string | null;
  readonly now_module: string | null;
}

/**
 * Terms named on both sides whose owning module differs (a term only one side names is an entity change,
 * reported under `entities`). Sorted by IRI.
 */
export function ownershipChanges(
  left: ReadonlySet<Entity>,
  right: ReadonlySet<Entity>,
  leftClosure: readonly Ontology[],
  rightClosure: readonly Ontology[],
  modules: readonly ModuleDeclaration[],
): OwnershipChange[] {
  const rightIris = new Set([...right].map((e) => e.iri));
  const shared = [...new Set([...left].map((e) => e.iri))].filter((iri) => rightIris.has(iri)).sort(cmp);
  const was = owners(shared, leftClosure, modules);
  const now = owners(shared, rightClosure, modules);
  return shared
    .filter((iri) => was.get(iri) !== now.get(iri))
    .map((iri) => ({ iri, was_module: was.get(iri)!, now_module: now.get(iri)! }));
}

// ---------------------------------------------------------------- stage deltas

/** The stages whose findings are compared, in this order. */
export const DELTA_STAGES: readonly StageId[] = ['cqs', 'invariants', 'shacl', 'governance'];

export interface StageDeltaInput {
  readonly policy: EffectivePolicy;
  /** Where the policy's SHACL, invariant and CQ assets resolve. */
  readonly projectRoot: string | null;
  readonly left: QcSnapshot;
  readonly right: QcSnapshot;
  readonly reasoner: ReasonerInfo;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly limit: number;
}

const byId = (a: Finding, b: Finding) => cmp(a.id, b.id);

/** Every finding of one required stage over one side, or why the stage did not complete. */
async function stageFindings(stage: StageId, snapshot: QcSnapshot, input: StageDeltaInput): Promise<Finding[] | { error: string }> {
  const contract = policyStages(input.policy, input.projectRoot);
  const report = await runGate({
    snapshot,
    stages: [stage],
    required: [stage],
    reasoner: input.reasoner,
    timeoutMs: input.timeoutMs,
    signal: input.signal,
    limit: Number.MAX_SAFE_INTEGER,
    failOn: contract.failOn,
    options: contract.options,
    waivers: contract.waivers,
  });
  const row = report.stages.find((s) => s.stage === stage);
  if (row === undefined || row.status !== 'completed') {
    return { error: `the ${stage} stage did not complete: ${row?.reason ?? 'unknown reason'}` };
  }
  return [...report.findings];
}

/** Findings of `a` whose id `b` lacks, as a capped list sorted by id. */
function entered(a: readonly Finding[], b: readonly Finding[], limit: number): JsonObject {
  const ids = new Set(b.map((f) => f.id));
  const only = a.filter((f) => !ids.has(f.id)).sort(byId);
  return { count: only.length, items: only.slice(0, limit), ...(only.length > limit ? { truncated: only.length - limit } : {}) };
}

/**
 * `{stage: {entered, left} | {error}}` for each of DELTA_STAGES the policy requires; governance is judged by
 * the policy's own rules only (`scope: "policy_rules_only"`). `errored` names the stages with an error.
 */
export async function stageDeltas(input: StageDeltaInput): Promise<{ json: JsonObject; errored: StageId[] }> {
  const required = new Set(policyStages(input.policy, input.projectRoot).required);
  const json: JsonObject = {};
  const errored: StageId[] = [];
  for (const stage of DELTA_STAGES) {
    if (!required.has(stage)) continue;
    const scope = stage === 'governance' ? { scope: 'policy_rules_only' } : {};
    if (input.timeoutMs <= 0) {
      json[stage] = { ...scope, error: `the ${stage} stage was not run: the time bound of the inferred work expired` };
      errored.push(stage);
      continue;
    }
    const left = await stageFindings(stage, input.left, input);
    const right = Array.isArray(left) ? await stageFindings(stage, input.right, input) : left;
    if (!Array.isArray(left) || !Array.isArray(right)) {
      json[stage] = { ...scope, error: (Array.isArray(left) ? (right as { error: string }) : left).error };
      errored.push(stage);
      continue;
    }
    json[stage] = { ...scope, entered: entered(right, left, input.limit), left: entered(left, right, input.limit) };
  }
  return { json, errored };
}
