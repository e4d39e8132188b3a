// The change journal's tools (issue 16; product additions to TOOLS.md §3.14): get_change_history (who
// changed what, when, with which tool), revert_changes (a past entry or range taken back as a new change)
// and recover_unsaved_changes (unsaved changes that could not be replayed because the document changed on
// disk). `lastChangesField` adds "last changed when and by whom" to get_entity and get_entity_context.

import * as v from 'valibot';
import type { Ontology } from '../../model/ontology.js';
import { NameError } from '../../model/names.js';
import { inverseOf, parseAnnotation, type ChangeEntry, type StoredChange } from '../../journal/records.js';
import { parseAxiom } from '../../journal/blank-nodes.js';
import { planChanges, type Conflict, type PlannedChange } from '../../journal/plan.js';
import { asideEntries, type JournalState } from '../../journal/store.js';
import { journalDocument, type ChangeRecorder } from '../../journal/recorder.js';
import { ManchesterRenderer } from '../../model/formats/manchester/render.js';
import { displayName } from '../../model/display.js';
import { defineTool, never, ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';
import { renderAxiom } from '../../report/rows.js';
import { revisionEnvelope } from '../../model/revision.js';
import { AnyList, AnyObject } from '../core/result-shapes.js';
import { unreachable } from '../../util/unreachable.js';

const MAX_PAGE = 200;
const CHANGES_PER_ENTRY = 50;

function recorderOf(ctx: ToolContext): ChangeRecorder {
  if (ctx.changes === undefined)
    throw new ToolFailure('The change journal is off in this server (setting journal_enabled)', 'journal_disabled');
  return ctx.changes;
}

/** The documents a call names: one path, or (absent) the active ontology's document. */
function documentArg(ctx: ToolContext, document: string | undefined): { document: string; ontology: Ontology | null } {
  if (document !== undefined) {
    const loaded = ctx.workspace.ontologies.find((o) => journalDocument(o) === document) ?? null;
    return { document, ontology: loaded };
  }
  const active = ctx.workspace.hasActive ? ctx.workspace.active : null;
  const d = active === null ? null : journalDocument(active);
  if (d === null)
    throw new ToolFailure('The active ontology has no local document, so it has no change journal; name a document', 'invalid_argument');
  return { document: d, ontology: active };
}

function requireLoaded(found: { document: string; ontology: Ontology | null }): Ontology {
  if (found.ontology === null) throw new ToolFailure(`No loaded ontology has the document ${found.document}`, 'not_loaded');
  return found.ontology;
}

/** One stored change rendered: Manchester syntax with display names, functional syntax with IRIs. */
function renderChange(s: StoredChange, ctx: ToolContext): JsonObject {
  switch (s.op) {
    case 'add_axiom':
    case 'remove_axiom': {
      let manchester: string | null = null;
      try {
        manchester = renderAxiom(parseAxiom(s.axiom), ctx);
      } catch {
        manchester = null;
      }
      return { op: s.op, manchester, functional: s.axiom };
    }
    case 'add_ontology_annotation':
    case 'remove_ontology_annotation': {
      let manchester: string | null = null;
      try {
        const a = parseAnnotation(s.annotation);
        manchester = new ManchesterRenderer((e) => displayName(e, ctx.resolver.closure, ctx.settings.label_language)).annotation(a);
      } catch {
        manchester = null;
      }
      return { op: s.op, manchester, functional: s.annotation };
    }
    case 'add_import':
    case 'remove_import':
      return { op: s.op, functional: `Import(<${s.iri}>)` };
    case 'set_ontology_id':
      return {
        op: s.op,
        functional: `Ontology(${[s.iri, s.version_iri]
          .filter((x) => x !== null)
          .map((x) => `<${x}>`)
          .join(' ')})`,
        previous: s.previous,
      };
    case 'set_prefix':
      return { op: s.op, functional: `Prefix(${s.prefix}=<${s.namespace}>)`, previous: s.previous };
    case 'remove_prefix':
      return { op: s.op, functional: `Prefix(${s.prefix}=<${s.previous}>)` };
    default:
      return unreachable(s);
  }
}

function who(e: ChangeEntry): JsonObject {
  return {
    principal: e.principal,
    client: e.client,
    session_id: e.session_id,
  };
}

function entryRow(e: ChangeEntry, ctx: ToolContext, saved: boolean): JsonObject {
  return {
    seq: e.seq,
    time: e.time,
    document: e.document,
    ...who(e),
    tool: e.tool,
    cause: e.cause,
    ...(e.undoes === undefined ? {} : { undoes: e.undoes }),
    ...(e.redoes === undefined ? {} : { redoes: e.redoes }),
    ...(e.reverts === undefined ? {} : { reverts: e.reverts }),
    saved,
    revision_before: e.revision_before,
    revision_after: e.revision_after,
    fingerprint_before: e.fingerprint_before,
    fingerprint_after: e.fingerprint_after,
    changes_total: e.changes.length,
    changes: e.changes.slice(0, CHANGES_PER_ENTRY).map((s) => renderChange(s, ctx)),
    ...(e.changes.length > CHANGES_PER_ENTRY ? { changes_truncated: true } : {}),
  };
}

/** The IRI an entity argument names: the resolver's answer, or the argument itself when it is an absolute IRI of a removed entity. */
function entityIri(ref: string, ctx: ToolContext): string {
  try {
    return ctx.resolver.resolve(ref).iri;
  } catch (err) {
    if (!(err instanceof NameError)) throw err;
    if (err.candidates.length > 0) throw err;
    const iri = ref.startsWith('<') && ref.endsWith('>') ? ref.slice(1, -1) : ref;
    if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(iri)) return iri;
    throw err;
  }
}

const HistoryArgs = v.strictObject({
  document: v.optional(v.pipe(v.string(), v.nonEmpty(), v.description('Absolute path; default: the active one.'))),
  entity: v.optional(v.pipe(v.string(), v.nonEmpty())),
  client: v.optional(v.pipe(v.string(), v.nonEmpty(), v.description('Client name or id, principal or session id.'))),
  tool: v.optional(v.pipe(v.string(), v.nonEmpty())),
  from: v.optional(v.pipe(v.string(), v.isoTimestamp())),
  to: v.optional(v.pipe(v.string(), v.isoTimestamp())),
  since_revision: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.description('revision_after greater than this.'))),
  since_last_save: v.optional(v.boolean(), false),
  after_seq: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.description('next_cursor of the previous page.')), 0),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_PAGE)), 50),
});

function matchesClient(e: ChangeEntry, client: string): boolean {
  return e.client?.name === client || e.principal?.client_id === client || e.principal?.name === client || e.session_id === client;
}

export const getChangeHistory = defineTool({
  name: 'get_change_history',
  description: 'The change journal of a document: who changed what, when; filtered, paged.',
  input: HistoryArgs,
  output: v.object({
    document: v.string(),
    entity_iri: v.optional(v.string()),
    total_matched: v.number(),
    count: v.number(),
    entries: AnyList,
    next_cursor: v.nullable(v.number()),
    last_saved_seq: v.nullable(v.number()),
    last_seq: v.number(),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: async (args, ctx) => {
    const recorder = recorderOf(ctx);
    const { document } = documentArg(ctx, args.document);
    const iri = args.entity === undefined ? null : entityIri(args.entity, ctx);
    const state = await recorder.store.readSince(document, args.after_seq);
    const savedSeq = state.saved?.seq ?? 0;
    const aside = state.aside;
    const isSaved = (e: ChangeEntry) => e.seq <= savedSeq && !(aside !== null && e.seq > aside.from && e.seq <= aside.upto);
    const from = args.from === undefined ? -Infinity : Date.parse(args.from);
    const to = args.to === undefined ? Infinity : Date.parse(args.to);
    const matched = state.entries.filter(
      (e) =>
        (iri === null || e.entities.includes(iri)) &&
        (args.client === undefined || matchesClient(e, args.client)) &&
        (args.tool === undefined || e.tool === args.tool) &&
        Date.parse(e.time) >= from &&
        Date.parse(e.time) <= to &&
        (args.since_revision === undefined || e.revision_after > args.since_revision) &&
        (!args.since_last_save || !isSaved(e)),
    );
    const page = matched.slice(0, args.limit);
    return {
      document,
      ...(iri === null ? {} : { entity_iri: iri }),
      total_matched: matched.length,
      count: page.length,
      entries: page.map((e) => entryRow(e, ctx, isSaved(e))),
      next_cursor: matched.length > page.length ? page.at(-1)!.seq : null,
      last_saved_seq: state.saved === null ? null : state.saved.seq,
      last_seq: state.lastSeq,
    };
  },
});

function selectEntries(
  state: JournalState,
  args: { seqs?: number[] | undefined; from_seq?: number | undefined; to_seq?: number | undefined },
): ChangeEntry[] {
  if (args.seqs !== undefined) {
    const wanted = new Set(args.seqs);
    const found = state.entries.filter((e) => wanted.has(e.seq));
    const missing = args.seqs.filter((s) => !found.some((e) => e.seq === s));
    if (missing.length > 0)
      throw new ToolFailure(`No journal entry with seq ${missing.join(', ')} in ${state.document}`, 'not_found', { missing });
    return found;
  }
  if (args.from_seq === undefined) throw new ToolFailure('Name the entries to revert: seqs, or from_seq (and to_seq)', 'invalid_argument');
  const lo = args.from_seq,
    hi = args.to_seq ?? state.lastSeq;
  if (hi < lo) throw new ToolFailure(`to_seq ${hi} is before from_seq ${lo}`, 'invalid_argument');
  const found = state.entries.filter((e) => e.seq >= lo && e.seq <= hi);
  if (found.length === 0) throw new ToolFailure(`No journal entries in ${lo}..${hi} of ${state.document}`, 'not_found');
  return found;
}

function conflictRow(c: Conflict, ctx: ToolContext): JsonObject {
  return { seq: c.seq, ...renderChange(c.stored, ctx), reason: c.reason };
}

const RevertArgs = v.strictObject({
  document: v.optional(v.pipe(v.string(), v.nonEmpty())),
  seqs: v.optional(
    v.pipe(
      v.array(v.pipe(v.number(), v.integer(), v.minValue(1))),
      v.minLength(1),
      v.maxLength(1000),
      v.description('seq numbers from get_change_history.'),
    ),
  ),
  from_seq: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  to_seq: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  preview: v.optional(v.boolean(), false),
});

export const revertChanges = defineTool({
  name: 'revert_changes',
  description: 'Take back journal entries as a new change; what no longer applies is reported.',
  input: RevertArgs,
  output: v.object({
    preview: v.optional(v.boolean()),
    would_apply: v.optional(v.number()),
    document: v.string(),
    reverts: AnyList,
    changes: AnyList,
    conflicts: AnyList,
    reverted: v.optional(v.boolean()),
    applied: v.optional(v.number()),
    revision: v.optional(AnyObject),
  }),
  capabilities: ['ontology:curate'],
  mutating: (args) => args.preview !== true,
  rehearse: true,
  destructive: true,
  summary: (args) => `revert_changes ${args.seqs?.join(',') ?? `${args.from_seq}..${args.to_seq ?? ''}`}`,
  handler: async (args, ctx) => {
    const recorder = recorderOf(ctx);
    const target = documentArg(ctx, args.document);
    const o = requireLoaded(target);
    const state = await recorder.store.readSince(target.document, 0);
    const entries = selectEntries(state, args).sort((a, b) => b.seq - a.seq);
    const items: PlannedChange[] = entries.flatMap((e) => [...e.changes].reverse().map((s) => ({ seq: e.seq, stored: inverseOf(s) })));
    const plan = planChanges(items, () => o);
    const reverted = entries.map((e) => e.seq).sort((a, b) => a - b);
    const report = {
      document: target.document,
      reverts: reverted,
      changes: plan.applied.map((p) => ({ seq: p.seq, ...renderChange(p.stored, ctx) })),
      conflicts: plan.conflicts.map((c) => conflictRow(c, ctx)),
    };
    if (args.preview) return { preview: true, would_apply: plan.changes.length, ...report };
    if (plan.changes.length === 0)
      return { reverted: false, applied: 0, ...report, message: 'Nothing to revert: no change of these entries still applies.' };
    const call = recorder.currentCall();
    if (call !== undefined) call.reverts = reverted;
    ctx.workspace.apply(plan.changes);
    return { reverted: true, applied: plan.changes.length, ...report, revision: revisionEnvelope(ctx.workspace) };
  },
});

const RecoverArgs = v.strictObject({
  action: v.picklist(['inspect', 'apply', 'discard']),
  document: v.optional(v.pipe(v.string(), v.nonEmpty(), v.description('Default: the only one with such changes.'))),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_PAGE)), 50),
});

export const recoverUnsavedChanges = defineTool({
  name: 'recover_unsaved_changes',
  description: 'Inspect, apply or discard journaled changes a crash left unreplayed.',
  input: RecoverArgs,
  capabilities: ['ontology:curate'],
  mutating: (args) => args.action !== 'inspect',
  // discarding resolves the journal only; applying changes the ontology
  rehearse: (args) => args.action === 'apply',
  // discarding drops journal entries that undo_change cannot bring back
  destructive: true,
  summary: (args) => `recover_unsaved_changes ${args.action}`,
  handler: async (args, ctx) => {
    const recorder = recorderOf(ctx);
    const notices = recorder.recoveryNotices;
    let document = args.document;
    if (document === undefined) {
      const [only] = notices;
      if (only === undefined) return { pending: [], message: 'No unsaved changes are waiting for recovery.' };
      if (notices.length > 1)
        throw new ToolFailure('Several documents have set-aside changes; name one', 'invalid_argument', {
          documents: notices.map((n) => n.document),
        });
      document = only.document;
    }
    const state = await recorder.store.readSince(document, 0);
    const entries = asideEntries(state);
    if (entries.length === 0) return { document, pending: [], message: 'No unsaved changes of this document are waiting for recovery.' };
    if (args.action === 'inspect') {
      return {
        document,
        count: entries.length,
        message: recorder.notice(document)?.message ?? null,
        entries: entries.slice(0, args.limit).map((e) => entryRow(e, ctx, false)),
      };
    }
    if (args.action === 'discard') {
      await recorder.resolve(document, state, 'discarded');
      return { document, discarded: entries.length };
    }
    const o = requireLoaded({ document, ontology: ctx.workspace.ontologies.find((x) => journalDocument(x) === document) ?? null });
    const plan = planChanges(
      entries.flatMap((e) => e.changes.map((s) => ({ seq: e.seq, stored: s }))),
      () => o,
    );
    if (plan.changes.length > 0) ctx.workspace.apply(plan.changes);
    await recorder.resolve(document, state, 'applied');
    return {
      document,
      entries: entries.length,
      applied: plan.changes.length,
      conflicts: plan.conflicts.map((c) => conflictRow(c, ctx)),
      ...(plan.changes.length > 0 ? { revision: revisionEnvelope(ctx.workspace) } : {}),
    };
  },
});

/**
 * `last_changes`: for each IRI the journal saw changed, when and by whom it last was (one row per IRI);
 * absent when it saw none of them changed, or is off.
 */
export function lastChangesField(iris: readonly string[], ctx: ToolContext): JsonObject {
  const rows: JsonObject[] = [];
  for (const iri of new Set(iris)) {
    const last = ctx.changes?.lastChange(iri) ?? null;
    if (last === null) continue;
    rows.push({
      iri,
      time: last.time,
      seq: last.seq,
      document: last.document,
      tool: last.tool,
      principal: last.principal,
      client: last.client,
      session_id: last.session_id,
    });
  }
  return rows.length === 0 ? {} : { last_changes: rows };
}

/** The `journal` field's shape, for tools that declare their result. */
export const JournalSummaryOutput = v.object({
  enabled: v.boolean(),
  recovered: v.optional(v.number()),
  pending_recovery: v.optional(v.number()),
  notices: v.optional(v.array(v.object({ document: v.string(), count: v.number(), from: v.string(), message: v.string() }))),
});

/** `journal`: entries recovered at the window's start and those waiting for recover_unsaved_changes, with their notices. */
export function journalSummary(ctx: ToolContext): { journal: v.InferOutput<typeof JournalSummaryOutput> } {
  if (ctx.changes === undefined) return { journal: { enabled: false } };
  const notices = ctx.changes.recoveryNotices;
  return {
    journal: {
      enabled: true,
      recovered: ctx.changes.recovered,
      pending_recovery: notices.reduce((n, x) => n + x.count, 0),
      ...(notices.length > 0
        ? { notices: notices.map((n) => ({ document: n.document, count: n.count, from: n.from, message: n.message })) }
        : {}),
    },
  };
}
