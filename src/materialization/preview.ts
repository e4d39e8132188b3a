// `materialize_inferences` (TOOLS.md 3.8): preview inferred axioms with one disposable reasoner over an
// isolated snapshot, bounded per category, in total, in bytes and in time (a category that fails, overflows
// or is not reached in time is discarded whole), each generated axiom annotated with a stable provenance
// IRI, the whole set serialized canonically and digested, and kept as a private artifact of the calling
// session for `commit_materialization`. Nothing in the workspace changes.

import type { Axiom } from '../model/terms.js';
import { axiomTypeName } from '../model/terms.js';
import { koncludeConfig, type ReasonerInfo } from '../reasoner/registry.js';
import { resolvePolicy } from '../policy/resolve.js';
import type { PolicyResolution } from '../policy/resolution.js';
import { renderAxiom } from '../report/rows.js';
import { DomainError } from '../util/errors.js';
import type { JsonObject } from '../util/json-object.js';
import type { CallContext } from '../window/call-context.js';
import { sha256Digest } from '../util/digest.js';
import { canonicalOrder, categorySupport, CATEGORIES, type Category } from './categories.js';
import {
  materializationRules,
  ontologyDestination,
  projectFileTarget,
  requireSourceWrite,
  type MaterializationRules,
} from './destination.js';
import { inputIdentity, type InputIdentity } from './identity.js';
import { ONTOLOGY_DESTINATION_CAP, type MaterializationRequest } from './request.js';
import { MaterializationBusy, runDisposableReasoner, type CategoryTuples, type ReasonerRun } from './run-reasoner.js';
import { ArtifactStore, ArtifactStoreFull } from './store.js';
import { PROVENANCE_PREFIX, PROVENANCE_PROPERTY } from './provenance.js';
import { canonicalText, collisionCount, formsByLogicalAxiom, generate, type GeneratedAxiom } from './generate.js';
import { artifactDigestOf, fingerprintOf } from './artifact.js';
import { unreachable } from '../util/unreachable.js';

export const TOOL = 'materialize_inferences';

const SAMPLE_SIZE = 10;

export type SkipReason = 'overflow_per_category' | 'overflow_total' | 'overflow_bytes' | 'timeout' | 'cancelled' | 'enumeration_failed';

export interface CategoryOutcome {
  readonly category: Category;
  readonly produced: boolean;
  readonly axioms: readonly GeneratedAxiom[];
  readonly digest: string | null;
  readonly bytes: number;
  readonly collisions: number;
  readonly skip?: { readonly reason: SkipReason; readonly message: string };
}

/** What the store keeps for a commit. */
export interface MaterializationPayload {
  readonly request: MaterializationRequest;
  readonly identity: InputIdentity;
  readonly destinationPlan: JsonObject;
  readonly categories: readonly CategoryOutcome[];
  readonly canonicalText: string;
  readonly materializationDigest: string;
  readonly artifactDigest: string;
  readonly fingerprint: string;
}

function checkLimits(request: MaterializationRequest, rules: MaterializationRules): void {
  const { limits, destination } = request;
  const axiomLimits = [
    ['max_axioms_per_category', limits.max_axioms_per_category],
    ['max_axioms_total', limits.max_axioms_total],
  ] as const;
  if (destination.kind !== 'project_file') {
    for (const [name, value] of axiomLimits) {
      if (value > ONTOLOGY_DESTINATION_CAP) {
        throw new DomainError(
          `limits.${name} ${value} exceeds ${ONTOLOGY_DESTINATION_CAP}, the ceiling for ontology destinations (${destination.kind}); use a project_file destination for more`,
          'invalid_argument',
          { argument: `limits.${name}`, limit: ONTOLOGY_DESTINATION_CAP },
        );
      }
    }
  }
  if (rules.maxAxioms !== null) {
    for (const [name, value] of axiomLimits) {
      if (value > rules.maxAxioms) {
        throw new DomainError(
          `limits.${name} ${value} exceeds the project policy's materialization.max_axioms (${rules.maxAxioms})`,
          'limit_exceeds_policy',
          { argument: `limits.${name}`, policy_limit: rules.maxAxioms },
        );
      }
    }
  }
}

function refuseUnsupported(r: ReasonerInfo, categories: readonly Category[], rules: MaterializationRules, res: PolicyResolution): void {
  const notAllowed = categories.filter((c) => !rules.allowedCategories.includes(c));
  if (notAllowed.length > 0) {
    throw new DomainError(
      `The project policy ${res.file} does not allow materializing ${notAllowed.join(', ')} (materialization.allowed_categories)`,
      'category_not_allowed',
      { categories: notAllowed, allowed_categories: [...rules.allowedCategories] },
    );
  }
  const rows = categories.map((c) => categorySupport(r, c)).filter((s) => !s.supported);
  if (rows.length > 0) {
    throw new DomainError(
      `${r.name} cannot materialize ${rows.map((s) => s.category).join(', ')}: ${rows.map((s) => s.evidence).join('; ')}. Nothing was computed.`,
      'unsupported_category',
      {
        reasoner: { id: r.id, name: r.name },
        unsupported_categories: rows.map((s) => ({ category: s.category, evidence: s.evidence })),
        supported_categories: CATEGORIES.filter((c) => categorySupport(r, c).supported),
      },
    );
  }
}

function skipOf(run: ReasonerRun): { reason: SkipReason; message: string } {
  if (run.ending === 'timeout') return { reason: 'timeout', message: run.message ?? 'timed out' };
  if (run.ending === 'cancelled') return { reason: 'cancelled', message: run.message ?? 'cancelled' };
  return { reason: 'enumeration_failed', message: run.message ?? 'the enumeration failed' };
}

/** Applies the limits in canonical category order; a category that would break one is discarded whole. */
function outcomes(
  request: MaterializationRequest,
  identity: InputIdentity,
  run: ReasonerRun,
  forms: ReadonlyMap<Axiom, readonly Axiom[]>,
): CategoryOutcome[] {
  const { limits } = request;
  let total = 0;
  let bytes = 0;
  const out: CategoryOutcome[] = [];
  for (const category of canonicalOrder(request.categories)) {
    const got: CategoryTuples | undefined = run.categories.get(category);
    const skipped = (skip: NonNullable<CategoryOutcome['skip']>): CategoryOutcome => ({
      category,
      produced: false,
      axioms: [],
      digest: null,
      bytes: 0,
      collisions: 0,
      skip,
    });
    if (got === undefined) {
      out.push(skipped(skipOf(run)));
      continue;
    }
    if (got.failure !== undefined) {
      out.push(skipped({ reason: 'enumeration_failed', message: got.failure }));
      continue;
    }
    if (got.overflow || got.tuples.length > limits.max_axioms_per_category) {
      out.push(
        skipped({
          reason: 'overflow_per_category',
          message: `more than ${limits.max_axioms_per_category} axioms (limits.max_axioms_per_category)`,
        }),
      );
      continue;
    }
    const axioms = generate(identity, category, got.tuples);
    const text = axioms.map((a) => a.line + '\n').join('');
    const size = Buffer.byteLength(text, 'utf8');
    if (total + axioms.length > limits.max_axioms_total) {
      out.push(
        skipped({
          reason: 'overflow_total',
          message: `${axioms.length} axioms would bring the total past ${limits.max_axioms_total} (limits.max_axioms_total)`,
        }),
      );
      continue;
    }
    if (bytes + size > limits.max_bytes) {
      out.push(
        skipped({
          reason: 'overflow_bytes',
          message: `${size} canonical bytes would bring the total past ${limits.max_bytes} (limits.max_bytes)`,
        }),
      );
      continue;
    }
    total += axioms.length;
    bytes += size;
    out.push({ category, produced: true, axioms, digest: sha256Digest(text), bytes: size, collisions: collisionCount(axioms, forms) });
  }
  return out;
}

async function destinationPlan(
  ctx: CallContext,
  request: MaterializationRequest,
  rules: MaterializationRules,
  res: PolicyResolution,
): Promise<JsonObject> {
  const { kind, identifier } = request.destination;
  switch (kind) {
    case 'active_source': {
      requireSourceWrite(TOOL, rules, res);
      const iri = ontologyDestination(identifier);
      const active = ctx.workspace.active;
      if (active.id.iri !== iri && active.id.versionIri !== iri) {
        throw new DomainError(
          `destination.identifier ${iri} is not the active ontology (${active.id.iri ?? 'anonymous'}); active_source names the active ontology`,
          'invalid_argument',
          { argument: 'destination.identifier' },
        );
      }
      return { kind, identifier: iri, single_undo: true, requires: ['commit allow_source=true'] };
    }
    case 'new_ontology': {
      const iri = ontologyDestination(identifier);
      const taken = ctx.workspace.find(iri) !== undefined;
      return {
        kind,
        identifier: iri,
        single_undo: false,
        available: !taken,
        ...(taken ? { note: 'an ontology with this IRI is loaded: the commit will fail unless it is unloaded' } : {}),
      };
    }
    case 'project_file': {
      const { target, root } = await projectFileTarget(ctx, TOOL, identifier, rules, res, 'read');
      return {
        kind,
        identifier,
        path: target,
        project_root: root,
        format: 'ofn',
        single_undo: false,
        requires: ['filesystem:project:write at commit'],
      };
    }
    default:
      return unreachable(kind);
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * Previews the materialization `request` (the tool's parsed arguments) for the calling session of `ctx`.
 * Throws DomainError for refusals (unsupported category, limit above policy or destination ceiling,
 * destination not allowed, inconsistent ontology, `materialization_busy`).
 */
export async function previewMaterialization(ctx: CallContext, request: MaterializationRequest, signal: AbortSignal): Promise<JsonObject> {
  const ws = ctx.workspace;
  if (!ws.hasActive) throw new DomainError('No active ontology.', 'no_active_ontology');
  const res = await resolvePolicy(ctx, request.policy_path);
  const rules = materializationRules(TOOL, res);
  const categories = canonicalOrder(request.categories);
  const reasoner = ctx.window.reasoning.selected;
  refuseUnsupported(reasoner, categories, rules, res);
  checkLimits(request, rules);
  const plan = await destinationPlan(ctx, request, rules, res);
  // the snapshot, the asserted forms and the identity's revision are taken in one synchronous stretch
  const snap = ctx.window.reasoning.snapshot();
  const forms = formsByLogicalAxiom(ws.active.axioms());
  const identity = await inputIdentity(ctx.window, reasoner, res);
  let run: ReasonerRun;
  try {
    run = await runDisposableReasoner(
      {
        axioms: snap.encoding,
        reasoner: reasoner.id,
        konclude: koncludeConfig(),
        timeLimitMs: request.limits.timeout_ms,
        categories,
        cap: request.limits.max_axioms_per_category + 1,
      },
      request.limits.timeout_ms,
      signal,
      ctx.settings.audit_home,
    );
  } catch (err) {
    if (err instanceof MaterializationBusy) throw new DomainError(err.message, 'materialization_busy', { retryable: true });
    throw err;
  }
  if (run.classified !== null && !run.classified.consistent) {
    throw new DomainError(
      'The ontology is inconsistent: every class is unsatisfiable and every entailment holds, so nothing is materialized. Call explain_inconsistency to find the axioms responsible.',
      'inconsistent_ontology',
      { see: 'explain_inconsistency' },
    );
  }
  if (run.ending === 'cancelled') throw new DomainError('The preview was cancelled; nothing was kept.', 'cancelled');
  if (run.ending === 'error' && run.classified === null) {
    throw new DomainError(
      `${reasoner.name} could not classify the snapshot (${run.message ?? 'no reason given'}); nothing was kept.`,
      'reasoner_error',
      { retryable: true },
    );
  }
  const outs = outcomes(request, identity, run, forms);
  const text = canonicalText(outs);
  const materializationDigest = sha256Digest(text);
  const artifactDigest = artifactDigestOf(request, identity, plan, outs, materializationDigest);
  const store = ctx.window.materializations;
  const id = ArtifactStore.newId();
  const createdAt = Date.now();
  const fingerprint = fingerprintOf(id, artifactDigest, ctx.sessionId, createdAt);
  const bytes = Buffer.byteLength(text, 'utf8');
  let stored;
  try {
    stored = store.put(
      id,
      ctx.sessionId,
      bytes * 3 + 4096,
      {
        request,
        identity,
        destinationPlan: plan,
        categories: outs,
        canonicalText: text,
        materializationDigest,
        artifactDigest,
        fingerprint,
      },
      createdAt,
    );
  } catch (err) {
    if (err instanceof ArtifactStoreFull) throw new DomainError(err.message, 'materialization_store_full', { retryable: true });
    throw err;
  }
  return previewResult(ctx, request, reasoner, run, outs, identity, plan, {
    artifact_id: id,
    artifact_fingerprint: fingerprint,
    artifact_digest: artifactDigest,
    materialization_digest: materializationDigest,
    created_at: iso(stored.createdAt),
    expires_at: iso(stored.expiresAt),
    axiom_count: outs.reduce((n, c) => n + c.axioms.length, 0),
    canonical_bytes: bytes,
  });
}

function categoryRow(c: CategoryOutcome, ctx: CallContext): JsonObject {
  if (!c.produced) return { category: c.category, produced: false, count: 0, skipped: c.skip };
  const sample = c.axioms
    .slice(0, SAMPLE_SIZE)
    .map((g) => ({ axiom_type: axiomTypeName(g.plain), rendering: renderAxiom(g.plain, ctx), provenance_iri: g.provenance }));
  return {
    category: c.category,
    produced: true,
    count: c.axioms.length,
    digest: c.digest,
    canonical_bytes: c.bytes,
    collisions: c.collisions,
    provenance: { annotation_property: PROVENANCE_PROPERTY, iri_prefix: PROVENANCE_PREFIX },
    sample: {
      count: c.axioms.length,
      items: sample,
      ...(c.axioms.length > sample.length ? { truncated: c.axioms.length - sample.length } : {}),
    },
  };
}

function previewResult(
  ctx: CallContext,
  request: MaterializationRequest,
  reasoner: ReasonerInfo,
  run: ReasonerRun,
  outs: readonly CategoryOutcome[],
  identity: InputIdentity,
  plan: JsonObject,
  artifact: JsonObject,
): JsonObject {
  const produced = outs.filter((c) => c.produced).map((c) => c.category);
  const skipped = outs.filter((c) => !c.produced).map((c) => ({ category: c.category, ...c.skip }));
  const complete = skipped.length === 0;
  return {
    status: complete ? 'ready' : produced.length > 0 ? 'partial' : 'discarded',
    preview_only: true,
    complete,
    live_state_changed: false,
    requested_categories: canonicalOrder(request.categories),
    supported_categories: CATEGORIES.filter((c) => categorySupport(reasoner, c).supported),
    produced_categories: produced,
    skipped_categories: skipped,
    categories: outs.map((c) => categoryRow(c, ctx)),
    asserted_collision_count: outs.reduce((n, c) => n + c.collisions, 0),
    input_identity: identity,
    reasoner: {
      ...identity.reasoner,
      complete: run.classified?.complete ?? false,
      unsupported_axiom_count: run.classified?.unsupportedCount ?? null,
      elapsed_ms: run.elapsedMs,
    },
    provenance: { ...request.provenance, annotation_property: PROVENANCE_PROPERTY, iri_prefix: PROVENANCE_PREFIX },
    destination_plan: plan,
    limits: request.limits,
    artifact,
  };
}
