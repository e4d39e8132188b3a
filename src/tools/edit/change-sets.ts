// Change-set tools (TOOLS.md 3.4): preview_change_set caches a preflighted batch, commit_change_set applies
// it exactly once behind a full revision-envelope compare, discard_change_set drops it, rebase_change_set
// re-resolves it at the current revision into a new preview. The cache is the window's change-set store.

import * as v from 'valibot';
import type { Change } from '../../model/changes.js';
import type { Ontology } from '../../model/ontology.js';
import type { WindowState } from '../../window/state.js';
import { axiomLines } from '../../model/render/axiom-lines.js';
import { resolvePolicy } from '../../policy/resolve.js';
import { ChangeSetError, ChangeSetStore, checkEntrySize, TTL_SECONDS } from '../../qc/change-set-store.js';
import { baselineGateJson, PreflightInvalidated, reportJson, runPreflight, verifyLock, type Preflight } from '../../qc/preflight.js';
import { StageIdSchema } from '../../qc/gate.js';
import type { StageId } from '../../qc/finding.js';
import type { LockMode } from '../../imports/lock-mode.js';
import {
  counts,
  distinctNewEntities,
  MAX_OPERATIONS,
  OPERATION_JSON,
  operations,
  plan,
  previewRow,
  type PlannedRow,
} from './batch-plan.js';
import { renderAxiom } from '../../report/rows.js';
import { revisionEnvelope, sameRevision, type RevisionEnvelope } from '../../model/revision.js';
import { AnyList, AnyObject } from '../core/result-shapes.js';
import { always, defineTool, never, ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';
import type { ErrorCode } from '../../util/errors.js';
import { axiomTypeName } from '../../model/terms.js';

/** What a preview was asked for; rebase replays it. */
export interface PreviewRequest {
  readonly operations: readonly JsonObject[];
  readonly strict: boolean;
  readonly gates: readonly StageId[];
  readonly timeoutMs?: number | undefined;
  readonly includeImpact: 'asserted' | 'none';
  readonly lockMode: LockMode;
  readonly policyPath?: string | undefined;
  /** How many request items the size limit counts when they are not `operations` one to one (create_terms: terms). */
  readonly items?: number | undefined;
}

/** A cached preview: the exact delta it evaluated and what a commit must find unchanged. */
export interface CachedPreview {
  readonly request: PreviewRequest;
  readonly target: Ontology;
  readonly rows: readonly PlannedRow[];
  readonly delta: readonly Change[];
  readonly base: RevisionEnvelope;
  readonly committable: boolean;
  readonly reasons: readonly string[];
  readonly policyFile: string | null;
  readonly policyDigest: string | null;
  /** Digest of the import lockfile the preview verified (null: none was read). */
  readonly lockDigest: string | null;
  readonly normalized: readonly JsonObject[];
}

/** The window's change-set store (memory only), holding this layer's previews. */
export function changeSetStore(window: WindowState): ChangeSetStore<CachedPreview> {
  // the window state declares the store without the payload type, which belongs to this layer
  return window.changeSets as ChangeSetStore<CachedPreview>;
}

/** A store refusal with what the tool adds to it (TOOLS.md: the change set and what did not happen). */
function storeFailure(err: unknown, extra: JsonObject): unknown {
  return err instanceof ChangeSetError ? err.withContext(extra) : err;
}

const Ttl = v.optional(v.pipe(v.number(), v.integer(), v.minValue(TTL_SECONDS.min), v.maxValue(TTL_SECONDS.max)), TTL_SECONDS.default);

const ChangeSetId = v.pipe(v.string(), v.nonEmpty(), v.maxLength(200));

const PreviewInput = v.strictObject({
  operations,
  strict: v.optional(v.boolean(), false),
  policy_path: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096))),
  gates: v.optional(v.pipe(v.array(StageIdSchema), v.maxLength(16)), []),
  timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3_600_000))),
  include_impact: v.optional(v.picklist(['asserted', 'none']), 'asserted'),
  ttl_seconds: Ttl,
  lock_mode: v.optional(v.picklist(['ignore', 'verify', 'required']), 'ignore'),
});

const PREVIEW_LISTED: JsonObject = {
  type: 'object',
  properties: {
    operations: { type: 'array', items: OPERATION_JSON, minItems: 1, maxItems: MAX_OPERATIONS, description: 'add_axiom operands plus op.' },
    strict: { type: 'boolean', description: 'Refuse adds that would mint (row error).' },
    policy_path: { type: 'string' },
    gates: {
      type: 'array',
      items: { type: 'string', enum: [...StageIdSchema.options] },
      description: 'Without a policy default: reasoner, profile, governance, structural.',
    },
    timeout_ms: { type: 'integer', minimum: 1, maximum: 3_600_000, description: "Default: the policy's, else 120000." },
    include_impact: { type: 'string', enum: ['asserted', 'none'] },
    ttl_seconds: { type: 'integer', minimum: TTL_SECONDS.min, maximum: TTL_SECONDS.max, default: TTL_SECONDS.default },
    lock_mode: { type: 'string', enum: ['ignore', 'verify', 'required'] },
  },
  required: ['operations'],
  additionalProperties: false,
};

/** The delta as rows `{op, axiom_type, axiom}`, additions first, each by rendering (a total order). */
function normalizedRows(delta: readonly Change[], ctx: ToolContext): JsonObject[] {
  const rows: { op: string; axiom_type: string; axiom: string; line: string }[] = [];
  for (const c of delta) {
    if (c.kind !== 'AddAxiom' && c.kind !== 'RemoveAxiom') continue;
    rows.push({
      op: c.kind === 'AddAxiom' ? 'add' : 'remove',
      axiom_type: axiomTypeName(c.axiom),
      axiom: renderAxiom(c.axiom, ctx),
      line: axiomLines([c.axiom])[0]!, // one line per axiom
    });
  }
  const key = (r: (typeof rows)[number]) => (r.op === 'add' ? '0' : '1') + r.axiom + '\u0000' + r.line;
  rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return rows.map(({ op, axiom_type, axiom }) => ({ op, axiom_type, axiom }));
}

const utf8Bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** Row errors keep a preview from committing: a commit would silently drop the operations that failed. */
function rowReasons(rows: readonly PlannedRow[]): string[] {
  const failed = rows.filter((r) => r.axiom === undefined).map((r) => r.index);
  return failed.length === 0
    ? []
    : [
        `operations_failed: ${failed.length} operation${failed.length === 1 ? '' : 's'} did not build (index ${failed.slice(0, 20).join(', ')}${failed.length > 20 ? ', …' : ''})`,
      ];
}

/**
 * Plans `request` at the current revision, runs the preflight and caches the result. Size limits are
 * checked before any QC runs; a workspace change during the preflight caches nothing.
 */
export async function createPreview(
  ctx: ToolContext,
  request: PreviewRequest,
  ttlSeconds: number,
  invalidatedContext: JsonObject = {},
): Promise<JsonObject> {
  const requestBytes = utf8Bytes(request.operations);
  const items = request.items ?? request.operations.length;
  checkOrFail(() => checkEntrySize(items, 0, requestBytes));
  const policy = await resolvePolicy(ctx, request.policyPath);
  // Planned after the last await before the preflight, so the delta and the preflight's base are one state.
  const target = ctx.workspace.active;
  const planned = plan(request.operations, ctx, request.strict);
  const normalized = normalizedRows(planned.delta, ctx);
  const bytes = requestBytes + utf8Bytes(normalized);
  checkOrFail(() => checkEntrySize(items, planned.delta.length, bytes));
  const store = changeSetStore(ctx.window);
  const id = store.begin(ttlSeconds, bytes);
  let pf: Preflight;
  try {
    pf = await runPreflight(
      ctx,
      planned.delta,
      {
        gates: request.gates,
        timeoutMs: request.timeoutMs,
        policyPath: request.policyPath,
        lockMode: request.lockMode,
      },
      policy,
    );
  } catch (err) {
    store.abandon(id);
    if (err instanceof PreflightInvalidated) {
      throw new ToolFailure(err.message, 'revision_changed_during_preview', {
        preview_invalidated: true,
        base_revision: err.base,
        current_revision: err.current,
        ...invalidatedContext,
      });
    }
    throw err;
  }
  const reasons = [...rowReasons(planned.rows), ...pf.reasons];
  const committable = pf.committable && reasons.length === 0;
  const entry = store.ready(id, {
    request,
    target,
    rows: planned.rows,
    delta: planned.delta,
    base: pf.base,
    committable,
    reasons,
    policyFile: pf.policy.file,
    policyDigest: pf.policy.digest,
    lockDigest: pf.lock?.sha256 ?? null,
    normalized,
  });
  const c = counts(planned.rows);
  return {
    change_set_id: id,
    expires_at: new Date(entry.expiresAt).toISOString(),
    base_revision: pf.base,
    normalized_changes: normalized,
    ...(request.includeImpact === 'asserted' ? { operations: planned.rows.map((r) => previewRow(r, ctx)) } : {}),
    summary: {
      operations: planned.rows.length,
      adds: c.adds,
      removes: c.removes,
      no_ops: c.noOps,
      errors: c.errors,
      new_entities: distinctNewEntities(planned.rows).length,
      normalized_changes: normalized.length,
    },
    preflight: reportJson(pf),
    ...(pf.baseline !== null ? { baseline_gate: baselineGateJson(pf.baseline) } : {}),
    committable,
    committable_reasons: reasons,
    satisfiability_checked: pf.report.satisfiability_checked,
    ...(pf.report.satisfiability_note !== undefined ? { satisfiability_note: pf.report.satisfiability_note } : {}),
    include_impact: request.includeImpact,
    policy_loaded: pf.policy.loaded,
    policy_path: pf.policy.file,
    policy_digest: pf.policy.digest,
    preflight_contract_digest: pf.contractDigest,
    snapshot_consistent: true,
    live_mutated: false,
  };
}

/** Runs a size check; its refusal becomes the tool failure, with nothing evaluated or applied. */
export function checkOrFail(check: () => void): void {
  try {
    check();
  } catch (err) {
    throw storeFailure(err, { effects_prevented: true });
  }
}

export const previewChangeSet = defineTool({
  name: 'preview_change_set',
  description: 'Preview a batch with policy QC on a snapshot; cached for commit_change_set.',
  input: PreviewInput,
  listedSchema: PREVIEW_LISTED,
  capabilities: ['ontology:curate'],
  mutating: never,
  handler: (args, ctx) =>
    createPreview(
      ctx,
      {
        operations: args.operations,
        strict: args.strict,
        gates: args.gates,
        timeoutMs: args.timeout_ms,
        includeImpact: args.include_impact,
        lockMode: args.lock_mode,
        policyPath: args.policy_path,
      },
      args.ttl_seconds,
    ),
});

const RevisionInput = v.strictObject({
  workspace_id: v.string(),
  session_revision: v.pipe(v.number(), v.integer(), v.minValue(0)),
  semantic_fingerprint: v.string(),
  document_fingerprint: v.string(),
});

/** A commit refusal: the failure TOOLS.md lists, always with `committed:false`. */
function refused(message: string, code: ErrorCode, context: JsonObject = {}): ToolFailure {
  return new ToolFailure(message, code, { committed: false, ...context });
}

export const commitChangeSet = defineTool({
  name: 'commit_change_set',
  description: 'Commit a preview once, if the revision and policy are unchanged.',
  input: v.strictObject({
    change_set_id: ChangeSetId,
    expected_revision: v.pipe(RevisionInput, v.description("The preview's base_revision.")),
    confirm_policy_digest: v.optional(v.string()),
  }),
  output: v.object({
    change_set_id: v.string(),
    committed: v.boolean(),
    new_revision: AnyObject,
    normalized_changes: AnyList,
    effective_changes: v.number(),
    single_broadcast: v.boolean(),
    undo_logged: v.boolean(),
    undo_depth_before: v.number(),
    undo_depth_after: v.number(),
  }),
  capabilities: ['ontology:curate'],
  mutating: always,
  rehearse: true,
  destructive: true,
  summary: (args) => `commit change set ${args.change_set_id}`,
  // TOOLS.md: every refusal, the gate's included, answers committed:false
  refusalContext: { committed: false },
  handler: async (args, ctx) => {
    const id = args.change_set_id;
    const store = changeSetStore(ctx.window);
    let cached: CachedPreview;
    try {
      cached = store.claim(id).payload!;
    } catch (err) {
      throw storeFailure(err, { change_set_id: id, committed: false });
    }
    let done = false;
    try {
      if (!cached.committable) {
        throw refused(`Change set ${id} is not committable: ${cached.reasons.join('; ')}`, 'change_set_not_committable', {
          change_set_id: id,
          reasons: cached.reasons,
        });
      }
      const policy = await resolvePolicy(ctx, cached.request.policyPath);
      const lock =
        policy.file === cached.policyFile && policy.digest === cached.policyDigest
          ? await verifyLock(ctx, policy, cached.request.lockMode)
          : null;
      // From here to the apply nothing awaits: the checks and the commit are one turn of the actor.
      if (ctx.signal.aborted)
        throw refused('commit_change_set was cancelled by the client; nothing was applied', 'cancelled', {
          change_set_id: id,
          effects_prevented: true,
        });
      if (ctx.settings.read_only)
        throw refused(`commit_change_set is refused: the server is in read-only mode`, 'read_only', {
          change_set_id: id,
          effects_prevented: true,
        });
      const current = revisionEnvelope(ctx.workspace);
      if (
        !sameRevision(args.expected_revision, cached.base) ||
        !sameRevision(cached.base, current) ||
        ctx.workspace.active !== cached.target
      ) {
        throw refused(
          `Change set ${id} was previewed at another revision than the workspace is at now (or than expected_revision names); rebase it or preview again`,
          'revision_conflict',
          { change_set_id: id, base_revision: cached.base, current_revision: current },
        );
      }
      if (policy.file !== cached.policyFile) {
        throw refused(
          `The project policy that governs this workspace changed since the preview (${cached.policyFile ?? 'none'} → ${policy.file ?? 'none'})`,
          'policy_conflict',
          { change_set_id: id, pinned_policy_path: cached.policyFile, effective_policy_path: policy.file },
        );
      }
      if (
        policy.digest !== cached.policyDigest ||
        (args.confirm_policy_digest !== undefined && args.confirm_policy_digest !== policy.digest)
      ) {
        throw refused(
          `The project policy's digest is not the one ${policy.digest !== cached.policyDigest ? 'the preview evaluated' : 'confirm_policy_digest pins'}`,
          'policy_digest_conflict',
          { change_set_id: id, preview_policy_digest: cached.policyDigest, current_policy_digest: policy.digest },
        );
      }
      if (lock !== null && ((lock.sha256 ?? null) !== cached.lockDigest || lock.blocking)) {
        throw refused(`The import lockfile ${lock.path ?? ''} changed since the preview verified it`, 'policy_digest_conflict', {
          change_set_id: id,
          import_lock_changed: true,
          preview_lock_digest: cached.lockDigest,
          current_lock_digest: lock.sha256 ?? null,
        });
      }
      const depthBefore = ctx.workspace.undoDepth;
      const result = ctx.workspace.apply(cached.delta);
      store.complete(id);
      done = true;
      const depthAfter = ctx.workspace.undoDepth;
      return {
        change_set_id: id,
        committed: true,
        new_revision: revisionEnvelope(ctx.workspace),
        normalized_changes: cached.normalized,
        effective_changes: result.results.filter((r) => r.effective).length,
        single_broadcast: result.effective,
        undo_logged: depthAfter > depthBefore,
        undo_depth_before: depthBefore,
        undo_depth_after: depthAfter,
        ...(depthAfter - depthBefore > 1
          ? { undo_log_warning: `${depthAfter - depthBefore} undo entries were logged for one commit` }
          : {}),
      };
    } catch (err) {
      if (err instanceof ToolFailure && err.context.committed === undefined) throw err.withContext({ committed: false });
      throw err;
    } finally {
      if (!done) store.release(id);
    }
  },
});

export const discardChangeSet = defineTool({
  name: 'discard_change_set',
  description: 'Drop an uncommitted change-set preview.',
  input: v.strictObject({ change_set_id: ChangeSetId }),
  output: v.object({ change_set_id: v.string(), discarded: v.boolean() }),
  capabilities: ['ontology:curate'],
  mutating: never,
  changesServerState: true,
  destructive: true,
  handler: (args, ctx) => {
    try {
      changeSetStore(ctx.window).discard(args.change_set_id);
    } catch (err) {
      throw storeFailure(err, { change_set_id: args.change_set_id, discarded: false });
    }
    return { change_set_id: args.change_set_id, discarded: true };
  },
});

/** At most this many conflicts are listed (the total is always given). */
const CONFLICT_CAP = 25;

/** One planned row as rebase compares it: the operation and its axiom with full IRIs, or its error. */
function resolvedForm(r: PlannedRow): string {
  return r.axiom === undefined ? `${r.op} error: ${r.error}` : `${r.op} ${axiomLines([r.axiom])[0]}`;
}

export const rebaseChangeSet = defineTool({
  name: 'rebase_change_set',
  description: 'Re-resolve a cached preview at the current revision, or list conflicts.',
  input: v.strictObject({ change_set_id: ChangeSetId, ttl_seconds: Ttl }),
  capabilities: ['ontology:curate'],
  mutating: never,
  handler: async (args, ctx) => {
    const id = args.change_set_id;
    let cached: CachedPreview;
    try {
      cached = changeSetStore(ctx.window).get(id).payload!;
    } catch (err) {
      throw storeFailure(err, { change_set_id: id, rebased: false });
    }
    const active = ctx.workspace.active;
    if (active !== cached.target) {
      throw new ToolFailure(
        `Change set ${id} targets another ontology than the active one; switch back or preview again`,
        'rebase_failed',
        { change_set_id: id, rebased: false, reason: 'the active ontology changed since the preview' },
      );
    }
    const replanned = plan(cached.request.operations, ctx, cached.request.strict);
    const conflicts: JsonObject[] = [];
    cached.rows.forEach((was, i) => {
      const now = replanned.rows[i]!; // the same operations plan to as many rows
      if (was.axiom !== now.axiom || was.error !== now.error)
        conflicts.push({ position: i, was: resolvedForm(was), now: resolvedForm(now) });
    });
    if (conflicts.length > 0) {
      throw new ToolFailure(
        `${conflicts.length} operation${conflicts.length === 1 ? '' : 's'} of change set ${id} resolve differently at the current revision`,
        'rebase_conflict',
        {
          change_set_id: id,
          rebased: false,
          conflicts: conflicts.slice(0, CONFLICT_CAP),
          total_conflicts: conflicts.length,
          conflicts_truncated: conflicts.length > CONFLICT_CAP,
          active_ontology: { iri: active.id.iri, version_iri: active.id.versionIri },
          base_revision: cached.base,
          current_revision: revisionEnvelope(ctx.workspace),
        },
      );
    }
    const preview = await createPreview(ctx, cached.request, args.ttl_seconds, { rebased_from: id, resolution_verified: true });
    return { ...preview, rebased_from: id, resolution_verified: true };
  },
});
