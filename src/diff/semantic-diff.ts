// `semantic_diff` (TOOLS.md 3.2): a release-oriented classification of the difference between a loaded
// ontology (default: the active one) and another loaded ontology or a privately read document. The
// asserted part (header, entities, rename candidates, annotation changes, axiom groups) always runs; the
// inferred modes classify flattened isolated copies of both sides, one after the other, with one recorded
// reasoner, and add the policy's module ownership and QC stage deltas. The jobs subsystem runs the same
// function for its `semantic_diff` job type.

import * as v from 'valibot';
import type { Axiom, Entity, IRI } from '../model/terms.js';
import { annotation } from '../model/terms.js';
import type { Ontology, OntologyId } from '../model/ontology.js';
import { diffAxiomSets, scopeAxioms, type AxiomSetDiff } from '../model/diff.js';
import { OWL_NOTHING, OWL_THING, RDFS_LABEL } from '../model/vocab.js';
import { implementationDigest, type ReasonerInfo } from '../reasoner/registry.js';
import type { PolicyResolution } from '../policy/resolution.js';
import type { QcSnapshot } from '../qc/finding.js';
import { captureSnapshot } from '../qc/snapshot.js';
import { annotationRow } from '../report/rows.js';
import {
  impactPolicy,
  PairArgs,
  pairFields,
  Renderings,
  requireOneRightForm,
  resolvePair,
  type DocumentReader,
  type Side,
} from './pair.js';
import { DomainError } from '../util/errors.js';
import type { JsonObject } from '../util/json-object.js';
import { withSignal, type CallContext } from '../window/call-context.js';
import {
  anonymousChurn,
  axiomGroups,
  byKind,
  classifyCompatibility,
  countLogical,
  entityChanges,
  importsChange,
  ontologyAnnotationsChange,
  ontologyIdChange,
  renameCandidates,
  scopeEntities,
  annotationChanges,
  type EntityChanges,
} from './asserted-changes.js';
import {
  DISJOINTNESS_CANDIDATE_CAP,
  disjointnessCandidates,
  ENTAILMENT_SET,
  inferredDiff,
  type DisjointnessScope,
  type SideOutcome,
} from './inferred-changes.js';
import { classifySide, isPairClass } from './side-reasoning.js';
import { ownershipChanges, stageDeltas } from './policy-deltas.js';
import { referencedReasoner } from '../reasoner/reference.js';

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const DEFAULT_SEMANTIC_DIFF_TIMEOUT_MS = 120_000;

/** The tool's closed arguments (TOOLS.md `semantic_diff`). */
export const SemanticDiffArgs = v.strictObject({
  ...PairArgs,
  mode: v.optional(v.pipe(v.picklist(['asserted', 'inferred', 'both']), v.description('inferred/both classify both sides.')), 'asserted'),
  reasoner: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(256))),
  timeout_ms: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.maxValue(3_600_000),
      v.transform((n) => (n <= 0 ? DEFAULT_SEMANTIC_DIFF_TIMEOUT_MS : n)),
    ),
    DEFAULT_SEMANTIC_DIFF_TIMEOUT_MS,
  ),
  policy_path: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096))),
});

export type SemanticDiffRequest = v.InferOutput<typeof SemanticDiffArgs>;

// ---------------------------------------------------------------- reasoner

/** The reasoner of the inferred modes: the argument by the §1.10 reference rule, else the window's selection. */
function diffReasoner(
  ctx: CallContext,
  reference: string | undefined,
): { reasoner: ReasonerInfo; selection: 'argument' | 'window_selection' } {
  if (reference === undefined) {
    return { reasoner: ctx.window.reasoning.selected, selection: 'window_selection' };
  }
  return { reasoner: referencedReasoner(reference), selection: 'argument' };
}

// ---------------------------------------------------------------- asserted part

const idRow = (id: OntologyId) => ({ ontology_iri: id.iri, version_iri: id.versionIri });

const capped = <T>(all: readonly T[], limit: number) => ({
  count: all.length,
  items: all.slice(0, limit),
  ...(all.length > limit ? { truncated: all.length - limit } : {}),
});

function entityGroups(entities: readonly Entity[], r: Renderings, limit: number): JsonObject {
  return {
    count: entities.length,
    groups: byKind(entities).map((g) => ({
      entity_type: g.kind,
      ...capped(
        g.entities.map((e) => ({ iri: e.iri, display: r.display(e), type: e.kind })),
        limit,
      ),
    })),
  };
}

/** `{count, groups, truncated}`: per axiom type a sample of ≤limit rows; `truncated` = rows omitted over all groups. */
function axiomGroupReport(axioms: readonly Axiom[], r: Renderings, limit: number): JsonObject {
  let omitted = 0;
  const groups = axiomGroups(axioms).map((g) => {
    omitted += Math.max(0, g.axioms.length - limit);
    return { axiom_type: g.axiomType, ...capped(r.sortedRows(g.axioms), limit) };
  });
  return { count: axioms.length, groups, truncated: omitted };
}

/** Annotation rows in a total order (property IRI, then the row's JSON). */
function annotationRows(rows: JsonObject[]): JsonObject[] {
  return rows
    .map((row) => ({ row, key: JSON.stringify(row) }))
    .sort((a, b) => cmp(String(a.row.property_iri), String(b.row.property_iri)) || cmp(a.key, b.key))
    .map((x) => x.row);
}

/** A list capped at `limit` under `name`, with `<name>_count` and `<name>_truncated` beside it (TOOLS.md shows a bare list). */
function listField(name: string, rows: readonly JsonObject[], limit: number): JsonObject {
  return {
    [name]: rows.slice(0, limit),
    [name + '_count']: rows.length,
    ...(rows.length > limit ? { [name + '_truncated']: rows.length - limit } : {}),
  };
}

interface AssertedPart {
  readonly json: JsonObject;
  readonly diff: AxiomSetDiff;
  readonly entities: EntityChanges;
  readonly headerChanged: boolean;
}

function assertedPart(ctx: CallContext, left: Side, right: Side, limit: number): AssertedPart {
  const lang = ctx.settings.label_language;
  const lr = new Renderings(left.closure, lang);
  const rr = new Renderings(right.closure, lang);
  const diff = diffAxiomSets(scopeAxioms(left.scope, false), scopeAxioms(right.scope, false));
  const id = ontologyIdChange(left.root.id, right.root.id);
  const imports = importsChange(left.root, right.root);
  const annotations = ontologyAnnotationsChange(left.root, right.root);
  const entities = entityChanges(scopeEntities(left.scope), scopeEntities(right.scope));
  const renames = renameCandidates(entities, left.closure, right.closure).map((c) => ({
    from: c.from.iri,
    to: c.to.iri,
    entity_type: c.from.kind,
    evidence: {
      kind: 'exact_label',
      property_iri: RDFS_LABEL,
      labels: c.labels.map((l) => (l.lang === '' ? { label: l.label } : { label: l.label, lang: l.lang })),
    },
  }));
  const annotationRowOf = (a: Extract<Axiom, { kind: 'AnnotationAssertion' }>) =>
    annotationRow(annotation(a.property, a.value, a.annotations), ctx);
  const changes = annotationChanges(diff).map((c) => ({
    focus_iri: c.focus,
    added: annotationRows(c.added.map(annotationRowOf)),
    removed: annotationRows(c.removed.map(annotationRowOf)),
    categories: c.categories,
  }));
  const headerChanged = id.changed || imports.changed;
  return {
    json: {
      identical: !headerChanged && !annotations.changed && diff.onlyInLeft.length === 0 && diff.onlyInRight.length === 0,
      ontology_id: { changed: id.changed, left: idRow(id.left), right: idRow(id.right) },
      imports: { changed: imports.changed, left: imports.left, right: imports.right },
      ontology_annotations: {
        changed: annotations.changed,
        left: annotationRows(annotations.left.map((a) => annotationRow(a, ctx))),
        right: annotationRows(annotations.right.map((a) => annotationRow(a, ctx))),
      },
      entities: { added: entityGroups(entities.added, rr, limit), removed: entityGroups(entities.removed, lr, limit) },
      ...listField('rename_candidates', renames, limit),
      ...listField('annotation_changes', changes, limit),
      asserted_axioms: { added: axiomGroupReport(diff.onlyInRight, rr, limit), removed: axiomGroupReport(diff.onlyInLeft, lr, limit) },
    },
    diff,
    entities,
    headerChanged,
  };
}

// ---------------------------------------------------------------- inferred part

/** Named classes and individuals of a closure's signature. */
function namedSignature(closure: readonly Ontology[]): { classes: IRI[]; individuals: IRI[] } {
  const classes = new Set<IRI>();
  const individuals = new Set<IRI>();
  for (const o of closure) {
    for (const k of o.index.referencing.keys()) {
      if (k.kind === 'Class') classes.add(k.iri);
      else if (k.kind === 'NamedIndividual') individuals.add(k.iri);
    }
  }
  classes.delete(OWL_THING);
  classes.delete(OWL_NOTHING);
  return { classes: [...classes].sort(cmp), individuals: [...individuals].sort(cmp) };
}

/** The overall time bound of the inferred work passed. */
class Expired extends Error {}

/** What the reasoner metadata reports of one side. */
interface SideFacts {
  readonly complete: boolean | null;
  readonly unsupported: number | null;
  readonly rules: number;
  /** Imports of the side's closure nothing satisfied: the classified closure lacks them. */
  readonly unresolvedImports: number;
}

/** Classifies one side (deciding its candidate disjointness in the same run) within the overall deadline. */
async function reasonSide(
  side: Side,
  label: string,
  reasoner: ReasonerInfo,
  toldOnly: boolean,
  pairs: readonly [IRI, IRI][],
  deadline: number,
  signal: AbortSignal,
): Promise<{ outcome: SideOutcome } & SideFacts> {
  const timeoutMs = deadline - Date.now();
  if (timeoutMs <= 0) throw new Expired();
  // an inconsistent side suppresses disjointness anyway; the told-only reasoner cannot decide it
  const out = await classifySide({ closure: side.closure, reasoner, label, pairs: toldOnly ? [] : pairs, timeoutMs, signal });
  if (out.kind === 'timeout') throw new Expired();
  if (out.kind === 'cancelled') throw new DomainError('semantic_diff was cancelled', 'cancelled');
  const unresolvedImports = side.missing.length;
  if (out.kind === 'error') return { outcome: { error: out.message }, complete: null, unsupported: null, rules: 0, unresolvedImports };
  const { classification: c, disjoint } = out.value;
  return {
    outcome: { classification: c, auxiliary: isPairClass, ...namedSignature(side.closure), disjoint },
    complete: c.data.complete,
    unsupported: c.data.unsupported.count,
    rules: c.ruleCount,
    unresolvedImports,
  };
}

/** Configuration-parity metadata: both sides ran with exactly this reasoner and configuration. */
function reasonerReport(reasoner: ReasonerInfo, selection: string, toldOnly: boolean, sides: readonly SideFacts[]): JsonObject {
  const [l, r] = sides;
  const sideRow = (f: SideFacts) => ({ complete: f.complete, unsupported_axioms: f.unsupported, unresolved_imports: f.unresolvedImports });
  const rules = (l?.rules ?? 0) + (r?.rules ?? 0);
  return {
    id: reasoner.id,
    name: reasoner.name,
    version: reasoner.version,
    implementation_digest: implementationDigest(reasoner),
    selection,
    configuration_parity: true,
    input: 'flattened imports closure of each side, classified in isolation one after the other',
    told_only: toldOnly,
    ...(toldOnly
      ? {
          told_only_note:
            'The structural reasoner reads only the asserted named hierarchy and types: consistency, satisfiability and disjointness are not decided, and entailments through class expressions are missing.',
        }
      : {}),
    ...(l === undefined ? {} : { left: sideRow(l) }),
    ...(r === undefined ? {} : { right: sideRow(r) }),
    ...(rules > 0 && reasoner.id === 'el'
      ? { warning: 'A side has SWRL rules; this reasoner ignores them, so rule inferences are missing.' }
      : {}),
  };
}

// ---------------------------------------------------------------- policy parts

type PolicyState =
  { kind: 'valid'; resolution: PolicyResolution } | { kind: 'unavailable'; reason: string } | { kind: 'error'; message: string };

function policyState(p: PolicyResolution | Error): PolicyState {
  if (p instanceof Error) return { kind: 'error', message: p.message };
  if (!p.loaded) return { kind: 'unavailable', reason: 'no project policy governs this ontology' };
  if (!p.valid || p.policy === null)
    return { kind: 'error', message: `the project policy ${p.file} is invalid (get_project_policy lists its errors)` };
  return { kind: 'valid', resolution: p };
}

function moduleOwnership(state: PolicyState, left: Side, right: Side, limit: number): JsonObject {
  if (state.kind === 'error') return { error: state.message };
  if (state.kind === 'unavailable') return { available: false, reason: state.reason };
  const modules = state.resolution.policy!.modules;
  if (modules.length === 0) return { available: false, reason: 'the project policy declares no modules' };
  const changes = ownershipChanges(scopeEntities(left.closure), scopeEntities(right.closure), left.closure, right.closure, modules);
  return {
    available: true,
    count: changes.length,
    changes: changes.slice(0, limit),
    ...(changes.length > limit ? { truncated: changes.length - limit } : {}),
  };
}

/** A QC snapshot of one side: the active ontology is captured privately; any other side is read as it is. */
function sideSnapshot(ctx: CallContext, side: Side): QcSnapshot {
  const ws = ctx.workspace;
  if (side.root === ws.active) return captureSnapshot(ctx.window, [], ctx.settings.label_language);
  return { ontology: side.root, closure: side.closure, revision: ws.revision, labelLanguage: ctx.settings.label_language };
}

// ---------------------------------------------------------------- the whole diff

const ASSERTED_CAVEAT =
  'A structural judgement: removed or added logical axioms may be harmless refactorings; mode=inferred compares entailments.';
const INFERRED_CAVEAT =
  'Asserted changes and the inferred-diff-v1 entailments (named classes and individuals; property entailments excluded) of one reasoner: what it leaves out or cannot handle is not compared.';

/**
 * Runs `semantic_diff` with parsed arguments. `signal` bounds the call (the tool passes the request's, a
 * job its own cancellation). Failures are DomainErrors with TOOLS.md's conditions.
 */
export async function semanticDiff(
  ctx: CallContext,
  request: SemanticDiffRequest,
  signal: AbortSignal,
  reader: DocumentReader,
): Promise<JsonObject> {
  const c: CallContext = signal === ctx.signal ? ctx : withSignal(ctx, signal);
  const inferredMode = request.mode !== 'asserted';
  if (!inferredMode && request.policy_path !== undefined) {
    throw new DomainError(
      'policy_path drives module_ownership and stage_deltas, which only the inferred modes compute: pass mode=inferred or mode=both, or leave policy_path out',
      'invalid_argument',
      { argument: 'policy_path' },
    );
  }
  requireOneRightForm(request);
  // refused before anything is read; a named reasoner is checked even where asserted mode would not use it
  const chosen = inferredMode || request.reasoner !== undefined ? diffReasoner(c, request.reasoner) : null;
  const policy = inferredMode ? policyState(await impactPolicy(c, request.policy_path)) : null;
  const { left, right } = await resolvePair(c, 'semantic_diff', request, reader);
  const asserted = assertedPart(c, left, right, request.limit);
  const out: JsonObject = {
    mode: request.mode,
    include_imports: request.include_imports,
    identical: asserted.json.identical,
    ...pairFields(left, right, request.include_imports),
    ...asserted.json,
  };
  const inferredReasons: string[] = [];
  if (inferredMode && chosen !== null && policy !== null) {
    const deadline = Date.now() + request.timeout_ms;
    // the structural reasoner reads only the told named hierarchy and types (registry.ts)
    const toldOnly = chosen.reasoner.id === 'structural';
    const all = disjointnessCandidates([...left.closure, ...right.closure]);
    const scope: DisjointnessScope = { candidates: all.length, checked: all.slice(0, DISJOINTNESS_CANDIDATE_CAP) };
    const sides: SideFacts[] = [];
    try {
      const l = await reasonSide(left, 'left', chosen.reasoner, toldOnly, scope.checked, deadline, signal);
      sides.push(l);
      const r = await reasonSide(right, 'right', chosen.reasoner, toldOnly, scope.checked, deadline, signal);
      sides.push(r);
      const d = inferredDiff(l.outcome, r.outcome, toldOnly, scope, request.limit);
      out.inferred = d.json;
      if (d.consistencyTransition) inferredReasons.push('consistency changed between the sides');
      if (d.newlyUnsatisfiable > 0)
        inferredReasons.push(`${d.newlyUnsatisfiable} class${d.newlyUnsatisfiable === 1 ? ' became' : 'es became'} unsatisfiable`);
      if (d.errored.length > 0) inferredReasons.push(`inferred categories errored: ${d.errored.join(', ')}`);
      if (d.suppressed.length > 0)
        inferredReasons.push(`inferred categories suppressed by an inconsistent side: ${d.suppressed.join(', ')}`);
    } catch (err) {
      if (!(err instanceof Expired)) throw err;
      out.inferred = { entailment_set: ENTAILMENT_SET, error: `the inferred work did not finish within timeout_ms=${request.timeout_ms}` };
      inferredReasons.push('the inferred comparison did not finish in time');
    }
    out.reasoner = reasonerReport(chosen.reasoner, chosen.selection, toldOnly, sides);
    out.module_ownership = moduleOwnership(policy, left, right, request.limit);
    if (policy.kind === 'valid') {
      const remaining = deadline - Date.now();
      const deltas = await stageDeltas({
        policy: policy.resolution.policy!,
        projectRoot: policy.resolution.projectRoot,
        left: sideSnapshot(c, left),
        right: sideSnapshot(c, right),
        reasoner: chosen.reasoner,
        timeoutMs: remaining,
        signal: AbortSignal.any([signal, AbortSignal.timeout(Math.max(1, remaining))]),
        limit: request.limit,
      });
      out.stage_deltas = deltas.json;
      if (deltas.errored.length > 0) inferredReasons.push(`stage deltas errored: ${deltas.errored.join(', ')}`);
    } else {
      out.stage_deltas = policy.kind === 'error' ? { error: policy.message } : { available: false, reason: policy.reason };
    }
  }
  const { diff } = asserted;
  const churn = anonymousChurn(diff);
  const verdict = classifyCompatibility({
    headerChanged: asserted.headerChanged,
    entitiesAdded: asserted.entities.added.length,
    entitiesRemoved: asserted.entities.removed.length,
    logicalAdded: countLogical(diff.onlyInRight),
    logicalRemoved: countLogical(diff.onlyInLeft),
    rightClosureTruncated: request.include_imports && right.missing.length > 0,
    inferredReasons,
  });
  out.compatibility = {
    classification: verdict.classification,
    policy_driven: policy?.kind === 'valid',
    anonymous_individual_churn: churn,
    caveat:
      (inferredMode ? INFERRED_CAVEAT : ASSERTED_CAVEAT) +
      (churn > 0
        ? ` ${churn} one-sided axiom${churn === 1 ? '' : 's'} mention anonymous individuals, compared by content: a re-described blank node shows as removed and added.`
        : ''),
    reasons: verdict.reasons,
  };
  return out;
}
