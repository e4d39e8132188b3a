// The server view's questions to a window actor (the owner's web page, issue 17): a cheap pulse the page's
// live updates compare, the change feed and its revert, and a read-only browser of the active ontology
// (asserted class tree paged, entity card, search). Reads run the window's own tools as the owner, so they
// render exactly as an agent sees them; the revert goes through the change journal's revert_changes.

import { staticPrincipal, type Principal } from '../auth/principal.js';
import { cls, type ClassExpression, type Entity } from '../model/terms.js';
import { OWL_NOTHING, OWL_THING } from '../model/vocab.js';
import { displayName } from '../model/display.js';
import { ontologyLabel, type Workspace } from '../model/workspace.js';
import type { ApprovalQueue } from '../window/approvals.js';
import type { ToolContext, ToolHost } from '../window/tool-host.js';
import type { WindowSettings } from '../window/call-context.js';
import type { JsonObject } from '../util/json-object.js';
import type { CallRecord, ChangeRecorder } from '../journal/recorder.js';
import { unreachable } from '../util/unreachable.js';

export type ViewQuery =
  | { readonly kind: 'pulse' }
  | { readonly kind: 'changes'; readonly client?: string; readonly entity?: string; readonly limit: number }
  | { readonly kind: 'revert'; readonly seq: number; readonly document: string }
  | { readonly kind: 'classes'; readonly parent: string | null; readonly offset: number; readonly limit: number }
  | { readonly kind: 'entity'; readonly iri: string }
  | { readonly kind: 'search'; readonly query: string }
  | { readonly kind: 'write-modes'; readonly read_only: boolean; readonly confirm_each_write: boolean };

/**
 * What the server view's pages refetch when it moves. A window announces its change feed and tree
 * (`changes`), its live state (`windows`) and its held writes (`pending`); the front door the rest.
 */
export type ViewTopic = 'overview' | 'pending' | 'consent' | 'clients' | 'windows' | 'changes';

export interface Pulse {
  readonly revision: number;
  readonly label: string;
  readonly dirty: number;
  readonly pending: readonly string[];
  readonly journal: boolean;
  /** The change journal's recovery: entries replayed at start, entries waiting for recover_unsaved_changes; null when the journal is off. */
  readonly recovery: { readonly recovered: number; readonly pending_recovery: number } | null;
  readonly read_only: boolean;
  readonly confirm_each_write: boolean;
}

/** The owner acting from the server view: every capability, named as itself in the journal and audit. */
const OWNER: Principal = { ...staticPrincipal(), client_id: 'owner', display_name: 'Owner (server view)' };
const VIEW_CLIENT = { name: 'athene server view', version: '0.1.0' };

/** What a view question needs of the window; `context` is a tool context for the owner. */
export interface ViewWindow {
  readonly host: ToolHost;
  readonly workspace: Workspace;
  readonly approvals: ApprovalQueue;
  readonly changes: ChangeRecorder | null;
  context(principal: Principal): ToolContext;
  setWriteModes(modes: Pick<WindowSettings, 'read_only' | 'confirm_each_write'>): void;
}

async function tool(w: ViewWindow, name: string, args: JsonObject, ctx = w.context(OWNER)): Promise<JsonObject> {
  return (await w.host.run(name, args, ctx, w.approvals, () => null)).structuredContent;
}

interface ClassRow {
  readonly iri: string;
  readonly display: string;
  readonly children: number;
}

/** The sorted root classes of one revision; a 100k-class tree is sorted once, not per page. */
let rootCache: { revision: number; rows: ClassRow[] } | null = null;

function childClasses(c: ClassExpression, closure: readonly { index: { subClasses(c: ClassExpression): ClassExpression[] } }[]): Entity[] {
  const out = new Set<Entity>();
  for (const o of closure) for (const s of o.index.subClasses(c)) if (s.kind === 'Class' && s !== c && s.iri !== OWL_NOTHING) out.add(s);
  return [...out];
}

/** One collator for every sort: a fresh localeCompare per comparison is far slower on a 100k-class level. */
const collator = new Intl.Collator();

function classRows(ctx: ToolContext, classes: Iterable<Entity>): ClassRow[] {
  const closure = ctx.resolver.closure;
  const rows: ClassRow[] = [];
  for (const c of classes) {
    rows.push({
      iri: c.iri,
      display: displayName(c.iri, closure, ctx.settings.label_language),
      children: childClasses(c as ClassExpression, closure).length,
    });
  }
  return rows.sort((a, b) => collator.compare(a.display, b.display) || (a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : 0));
}

/** Named classes of the active ontology without an asserted named superclass (other than owl:Thing). */
function roots(ctx: ToolContext): ClassRow[] {
  const ws = ctx.workspace;
  if (rootCache?.revision === ws.revision) return rootCache.rows;
  // one pass over the SubClassOf axioms, not a lookup per class: the scan of a 100k-class ontology stays well under a second
  const hasParent = new Set<ClassExpression>();
  for (const o of ctx.resolver.closure) {
    for (const a of o.axiomsOfKind('SubClassOf'))
      if (a.sup.kind === 'Class' && a.sup !== a.sub && a.sup.iri !== OWL_THING) hasParent.add(a.sub);
  }
  const found: Entity[] = [];
  for (const c of ws.active.entities('Class')) {
    if (c.iri !== OWL_THING && c.iri !== OWL_NOTHING && !hasParent.has(c as ClassExpression)) found.push(c);
  }
  rootCache = { revision: ws.revision, rows: classRows(ctx, found) };
  return rootCache.rows;
}

function classPage(w: ViewWindow, parent: string | null, offset: number, limit: number): JsonObject {
  if (!w.workspace.hasActive) return { error: 'No active ontology', error_code: 'not_loaded' };
  const ctx = w.context(OWNER);
  const rows = parent === null ? roots(ctx) : classRows(ctx, childClasses(cls(parent), ctx.resolver.closure));
  return { parent, total: rows.length, offset, items: rows.slice(offset, offset + limit), revision: w.workspace.revision };
}

async function entityCard(w: ViewWindow, iri: string): Promise<JsonObject> {
  const [context, axioms, history] = await Promise.all([
    tool(w, 'get_entity_context', { entity: iri }),
    tool(w, 'get_axioms_for_entity', { entity: iri, limit: 200 }),
    w.changes === null ? Promise.resolve(null) : tool(w, 'get_change_history', { entity: iri, limit: 50 }),
  ]);
  return { iri, context, axioms, history };
}

/** Reverts one journal entry as the owner; the owner is the one who approves writes, so it is not held. */
async function revert(w: ViewWindow, seq: number, document: string): Promise<JsonObject> {
  const changes = w.changes;
  if (changes === null)
    return { error: 'The change journal is off in this server (setting journal_enabled)', error_code: 'journal_disabled' };
  const base = w.context(OWNER);
  const call: CallRecord = { principal: OWNER, sessionId: null, tool: 'revert_changes', client: VIEW_CLIENT };
  const ctx: ToolContext = {
    ...base,
    settings: { ...base.settings, confirm_each_write: false },
    attribute: (handler) => changes.attribute(call, handler),
  };
  const result = await tool(w, 'revert_changes', { seqs: [seq], document }, ctx);
  if (call.durable !== undefined) await call.durable;
  return result;
}

/** Journal entries the feed looks through: the newest this many. */
const FEED_WINDOW = 200;

/**
 * The newest committed changes (newest first, at most `limit`) among the journal's last FEED_WINDOW entries,
 * filtered by client and entity, and how many entries are not saved yet.
 */
async function changeFeed(w: ViewWindow, client: string | undefined, entity: string | undefined, limit: number): Promise<JsonObject> {
  if (w.changes === null || !w.workspace.hasActive) return { entries: [], unsaved: null, journal: w.changes !== null };
  const head = await tool(w, 'get_change_history', { since_last_save: true, limit: 1 });
  if (typeof head.error === 'string') return { ...head, entries: [] };
  const lastSeq = typeof head.last_seq === 'number' ? head.last_seq : 0;
  const args: JsonObject = {
    after_seq: Math.max(0, lastSeq - FEED_WINDOW),
    limit: FEED_WINDOW,
    ...(client === undefined ? {} : { client }),
    ...(entity === undefined ? {} : { entity }),
  };
  const page = await tool(w, 'get_change_history', args);
  const entries = Array.isArray(page.entries) ? (page.entries as unknown[]).slice(-limit).reverse() : [];
  return {
    ...(typeof page.error === 'string' ? { error: page.error, error_code: page.error_code } : {}),
    entries,
    unsaved: head.total_matched ?? 0,
    journal: true,
  };
}

/** Sorts the root classes before the window serves, so the owner's first look at a large tree is quick. */
export function warmView(w: ViewWindow): void {
  if (w.workspace.hasActive) roots(w.context(OWNER));
}

export async function answerView(w: ViewWindow, q: ViewQuery): Promise<unknown> {
  switch (q.kind) {
    case 'pulse': {
      const ws = w.workspace;
      const { read_only, confirm_each_write } = w.context(OWNER).settings;
      const pulse: Pulse = {
        revision: ws.revision,
        label: ws.hasActive ? ontologyLabel(ws.active) : '(no ontology)',
        dirty: ws.dirtyCount,
        pending: w.approvals.list().map((a) => a.approval_id),
        journal: w.changes !== null,
        read_only,
        confirm_each_write,
        recovery:
          w.changes === null
            ? null
            : { recovered: w.changes.recovered, pending_recovery: w.changes.recoveryNotices.reduce((n, r) => n + r.count, 0) },
      };
      return pulse;
    }
    case 'changes':
      return changeFeed(w, q.client, q.entity, q.limit);
    case 'revert':
      return revert(w, q.seq, q.document);
    case 'classes':
      return classPage(w, q.parent, q.offset, q.limit);
    case 'entity':
      return entityCard(w, q.iri);
    case 'search':
      return tool(w, 'search_entities', { query: q.query, limit: 50 });
    case 'write-modes':
      w.setWriteModes({ read_only: q.read_only, confirm_each_write: q.confirm_each_write });
      return { read_only: q.read_only, confirm_each_write: q.confirm_each_write };
    default:
      return unreachable(q);
  }
}
