// A window actor: a Worker that owns one workspace (its ontologies, active ontology and undo stack) and
// serves MCP sessions on it. Each session is an SDK `Server` on a web-standard Streamable HTTP transport
// (wrapped by SessionTransport, which serves plain calls without the transport's per-request machinery);
// the front door forwards HTTP requests here over the port and receives the responses, whole or streamed.

import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type ReadResourceResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { Workspace, ontologyLabel } from '../model/workspace.js';
import { WorkspaceResolver } from '../model/resolver.js';
import { loadOntologyFile } from '../model/io.js';
import { asPrincipal, missingCapabilities } from '../auth/principal.js';
import { WindowState } from '../window/state.js';
import type { ListedTool, SessionFacts, ToolContext, ToolHost, ToolResult } from '../window/tool-host.js';
import type { ToolProfile } from '../settings/settings.js';
import type { Ontology } from '../model/ontology.js';
import {
  ENTITY_TEMPLATE,
  FORMAT_TEMPLATE,
  INSTRUCTIONS,
  OntologyKeys,
  ProgressBeat,
  RESOURCE_TEMPLATES,
  SessionNotices,
  completeTemplateVariable,
  recoveryNotice,
  documentContents,
  listResources,
  resourceTarget,
  resultNotices,
  unmappedNotice,
} from './session-features.js';
import { PROMPTS, PROMPTS_BY_NAME } from '../prompts/catalog.js';
import { expandPrompt, listPrompt } from '../prompts/prompt.js';
import type { ServerView } from '../broker/server-view.js';
import {
  putMessage,
  putReply,
  readToWindow,
  type Batch,
  type ForwardedRequest,
  type FromWindow,
  type FrontControl,
  type ToWindow,
  type WindowControl,
  type WindowInit,
  type WindowReceiver,
} from './protocol.js';
import type { Principal } from '../auth/principal.js';
import { Outbox } from './outbox.js';
import { configureFileReads, readLimitsFrom } from '../util/file-read.js';
import { auditEventsLost } from '../audit/stream.js';
import { AuthorizationRevoked, FenceSet, REVOKED_MESSAGE, type Fence } from './fences.js';
import { SessionTransport, type FastCall, type FastReply, type PlainPost, type ToolCallScope } from './session-transport.js';
import { configureKonclude } from '../reasoner/registry.js';
import { FileChangeStore } from '../journal/file-store.js';
import { ChangeRecorder, type CallRecord } from '../journal/recorder.js';
import { answerView, warmView, type ViewTopic, type ViewWindow } from './window-view.js';
import type { ProgressMeasure, WindowSettings } from '../window/call-context.js';
import type { ApprovalEntry } from '../window/approvals.js';
import { ThreadLink, exposeOn } from '../util/thread-link.js';
import { requestIds } from '../util/json-rpc-ids.js';
import { CallSlot } from '../util/call-slot.js';
import { unreachable } from '../util/unreachable.js';

if (parentPort === null) throw new Error('window-worker must run in a worker thread');
const port: MessagePort = parentPort;
const init = workerData as WindowInit;
configureKonclude(init.settings);
configureFileReads({
  protected: init.settings.private_home === undefined ? [] : [init.settings.private_home],
  limits: readLimitsFrom(init.settings),
});

const SERVER_INFO = { name: 'athene', version: '0.1.0' };
/** The tool layer, handed over by the thread's entry (serveWindow) before anything is served. */
let host: ToolHost;
/** The window's settings; the owner may switch read-only and confirm-each-write while it runs. */
let settings: WindowSettings = init.settings;
/** The tool profile sessions are offered now, and each profile's listing, made when first asked for. */
let toolProfile: ToolProfile = init.settings.tool_profile ?? 'full';
const listings = new Map<ToolProfile, { tools: ListedTool[]; names: ReadonlySet<string> }>();

function listing(profile: ToolProfile): { tools: ListedTool[]; names: ReadonlySet<string> } {
  let l = listings.get(profile);
  if (l === undefined) {
    const tools = host.listing(profile);
    l = { tools, names: new Set(tools.map((t) => t.name)) };
    listings.set(profile, l);
  }
  return l;
}

/** Each initialized session's out-of-request notifications, by session id. */
const audience = new Map<string, SessionNotices>();
/** Resource keys of the window's ontologies. */
const ontologyKeys = new OntologyKeys();
const LISTED_PROMPTS = PROMPTS.map(listPrompt);
/** One validator for every session's Server: each would otherwise build its own Ajv instance. */
const SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();
/** Tools whose success changes which documents a restart should reopen. */
const DOCUMENT_TOOLS: ReadonlySet<string> = new Set([
  'save_ontology',
  'load_ontology',
  'add_import',
  'create_ontology',
  'merge_ontology_document',
]);

const outbox = new Outbox((batch) => port.postMessage(batch));
const post = (m: FromWindow) => putMessage(outbox.open(), m);

/** Topics announced to the server view, gathered for one turn: a batch of commits is one announcement. */
const announced = new Set<ViewTopic>();
/** The window's change journal, once open: announcements wait for what it is writing. */
let journal: ChangeRecorder | null = null;

function announce(...topics: ViewTopic[]): void {
  if (announced.size === 0) setImmediate(announceWhenDurable);
  for (const t of topics) announced.add(t);
}

/**
 * With the journal on, a turn's commits are answered in the later turn their fsync ends in: the announcement
 * waits for it too and leaves in the answers' postMessage, not in one of its own (a thread wake-up per turn).
 */
function announceWhenDurable(): void {
  if (journal === null) return sendAnnounced();
  journal.durable().then(sendAnnounced, sendAnnounced);
}

function sendAnnounced(): void {
  post({ type: 'view-changed', topics: [...announced] });
  announced.clear();
}

/** The commit fence: revoked grant ids, all held before the first request is served. */
const fences = new FenceSet();
for (const f of init.fences) fences.add(f);

/** The principal of the running tool call, for the commit-time check: a slot of the thread's one call context. */
const callPrincipal = new CallSlot<Principal>('principal');

/**
 * Runs a tool call with its principal in `callPrincipal` when a fence could ever cover it: the static
 * token cannot be revoked, so its calls do not pay for the async context.
 */
function runAs<T>(principal: Principal, call: () => Promise<T>): Promise<T> {
  return principal.type === 'oauth' ? callPrincipal.run(principal, call) : call();
}

function revokedRefusal(principal: Principal): string | null {
  return fences.blocks(principal) ? REVOKED_MESSAGE : null;
}

/**
 * Refuses a workspace change made by a fenced call, whenever it commits: a handler that awaited (parse
 * pool, reasoner) after its gate check cannot commit once the fence arrived.
 */
function fenceCommit(): void {
  const principal = callPrincipal.get();
  if (principal !== undefined && fences.blocks(principal)) throw new AuthorizationRevoked();
}

/** The front door's answers to this window's questions. */
const front = new ThreadLink<FrontControl>(init.front);

/** How the endpoint is served, as the front door says. */
function askServerView(): Promise<ServerView | null> {
  return front.call('describeServer');
}

/** Principals by the JSON text requests carry; a few distinct ones at most, so a small cache. */
const principals = new Map<string, Principal>();

function principalOf(json: string): Principal {
  let p = principals.get(json);
  if (p === undefined) {
    if (principals.size >= 64) principals.clear();
    p = JSON.parse(json) as Principal;
    principals.set(json, p);
  }
  return p;
}

/** The change journal of this window when it is on: unsaved entries are replayed (or set aside) before anything is served. */
async function openChangeJournal(workspace: Workspace): Promise<ChangeRecorder | null> {
  const home = init.settings.audit_home;
  if (init.settings.journal_enabled !== true || home === undefined) return null;
  const store = new FileChangeStore(home, {
    maxAgeDays: init.settings.journal_retention_days ?? 90,
    maxBytes: (init.settings.journal_retention_mib ?? 256) * 1024 * 1024,
  });
  const recorder = new ChangeRecorder(workspace, store);
  await recorder.open();
  for (const n of recorder.recoveryNotices) process.stderr.write(`athene: ${n.document}: ${n.message}\n`);
  return recorder;
}

function postJournalCounts(recorder: ChangeRecorder | null): void {
  if (recorder === null) return;
  post({ type: 'journal', recovered: recorder.recovered, pending: recorder.recoveryNotices.reduce((n, r) => n + r.count, 0) });
}

/** The result of a call whose changes were applied but not journaled: it was not made durable. */
function notJournaled(call: CallRecord, err: Error): ToolResult {
  return host.failure(`${call.tool} was applied, but the change journal could not be written: ${err.message}`, 'journal_write_failed', {
    committed: true,
    journaled: false,
  });
}

async function openWindow(): Promise<WindowState> {
  const workspace = new Workspace();
  for (const file of init.files) workspace.load(await loadOntologyFile(file), workspace.ontologies.length === 0);
  workspace.beforeCommit = fenceCommit;
  // subscribers hear of every commit, whoever made it; recording it is all the writer pays
  workspace.onChange((event) => {
    const uris = new Set(event.changes.map((r) => ontologyKeys.uri(r.change.ontology)));
    for (const notices of audience.values()) for (const uri of uris) notices.ontologyChanged(uri);
    announce('changes', 'windows');
  });
  workspace.onSaved(() => announce('windows', 'changes'));
  const changes = await openChangeJournal(workspace);
  journal = changes;
  if (changes !== null) {
    workspace.beforeCommit = () => {
      fenceCommit();
      changes.prepare();
    };
  }
  const resolver = new WorkspaceResolver(workspace, {
    newEntityNamespace: init.settings.new_entity_namespace ?? undefined,
    newEntityIds: init.settings.new_entity_ids,
  });
  // the indexes and name tables are built before the window serves: the first call (or the owner's class tree) does not pay for them
  for (const o of workspace.ontologies) void o.index;
  if (workspace.hasActive) void resolver.closure;
  return new WindowState({
    workspace,
    resolver,
    changes,
    windowId: init.windowId,
    onApprovalsChanged: () => announce('pending'),
    home: init.settings.audit_home ?? null,
    artifactsId: init.artifactsId,
  });
}

function localDocuments(ws: Workspace): string[] {
  const ordered = ws.hasActive ? [ws.active, ...ws.ontologies.filter((o) => o !== ws.active)] : [...ws.ontologies];
  return ordered.map((o) => o.documentIri).filter((d): d is string => d !== null && path.isAbsolute(d));
}

/** Each protocol version's session facts, made once: every call's context carries them. */
const factsByVersion = new Map<string, SessionFacts>();

/** What get_session_info reads beyond the workspace; `protocolVersion` is the header every post-initialize request carries. */
function sessionFacts(state: WindowState, protocolVersion: string | undefined): SessionFacts {
  // a request without the header is from a client of the protocol version that predates it
  const version = protocolVersion ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
  let facts = factsByVersion.get(version);
  if (facts === undefined) {
    facts = {
      serverInfo: SERVER_INFO,
      protocolVersion: version,
      // read when asked: the owner may switch the tool profile while the window runs
      get toolCount() {
        return listing(toolProfile).tools.length;
      },
      promptCount: LISTED_PROMPTS.length,
      approvals: () => state.approvals.list(),
      server: askServerView,
    };
    if (factsByVersion.size < SUPPORTED_PROTOCOL_VERSIONS.length) factsByVersion.set(version, facts);
  }
  return facts;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What a tool call needs of its request, whether the SDK `Server` or the session's fast path serves it. */
interface CallScope extends ToolCallScope {
  /** Sends a notification about this request (progress); absent on the fast path, which serves no progress token. */
  readonly notify?: (notification: ServerNotification) => Promise<void>;
}

function scopeOf(extra: Extra): CallScope {
  const version = extra.requestInfo?.headers['mcp-protocol-version'];
  const signal = extra.signal;
  return {
    sessionId: extra.sessionId,
    authInfo: extra.authInfo ?? { token: '', clientId: '', scopes: [] },
    cancellation: {
      get aborted() {
        return signal.aborted;
      },
      signal,
    },
    protocolVersion: typeof version === 'string' ? version : undefined,
    notify: extra.sendNotification,
  };
}

/** What a tools/call adds to the context: progress beats and the journal's attribution. */
type CallExtras = Pick<ToolContext, 'progress' | 'attribute'>;

/**
 * A call's context, made in one piece: spreading it would read `signal`, which a session's call makes
 * only when something asks for it.
 */
function toolContext(state: WindowState, principal: Principal, scope: CallScope, extras: CallExtras = {}): ToolContext {
  const cancellation = scope.cancellation;
  return {
    workspace: state.workspace,
    resolver: state.resolver,
    window: state,
    changes: state.changes ?? undefined,
    settings,
    principal,
    sessionId: scope.sessionId ?? null,
    windowId: init.windowId,
    cancellation,
    get signal() {
      return cancellation.signal;
    },
    session: sessionFacts(state, scope.protocolVersion),
    progress: extras.progress,
    attribute: extras.attribute,
  };
}

/** The request's verified principal, which must hold ontology:read to see resources and completions. */
function reader(extra: Extra): Principal {
  const principal = asPrincipal(extra.authInfo?.extra?.principal);
  if (principal === null) throw new McpError(ErrorCode.InvalidRequest, 'No verified principal came with this request');
  const missing = missingCapabilities(principal, ['ontology:read']);
  if (missing.length > 0)
    throw new McpError(ErrorCode.InvalidRequest, `Reading resources requires capabilities the caller lacks: ${missing.join(', ')}`);
  return principal;
}

/** The ontologies the window had when its sessions last heard of the list. */
let announcedOntologies: readonly Ontology[] = [];

/**
 * After a call: a changed ontology list is announced to every session, and an ontology that arrived with
 * unmapped content is reported to the session whose call loaded it.
 */
function announceOntologies(ws: Workspace, caller: SessionNotices | undefined): void {
  const now = ws.ontologies;
  if (now.length === announcedOntologies.length && now.every((o, i) => o === announcedOntologies[i])) return;
  const before = new Set(announcedOntologies);
  announcedOntologies = [...now];
  for (const notices of audience.values()) notices.resourceListChanged();
  for (const o of now) {
    const notice = before.has(o) ? null : unmappedNotice(o);
    if (notice !== null) caller?.log(notice);
  }
}

/** Ranked entity names for a completion, found as search_entities finds them (at most 100). */
async function completeEntity(
  state: WindowState,
  value: string,
  type: 'class' | 'all',
  field: 'display' | 'iri',
  extra: Extra,
): Promise<{ values: string[]; total: number; hasMore: boolean }> {
  const ctx = toolContext(state, reader(extra), scopeOf(extra));
  const result = await host.run('search_entities', { query: value, type, limit: 100 }, ctx, state.approvals, revokedRefusal);
  if (result.isError) return { values: [], total: 0, hasMore: false };
  const body = result.structuredContent as { count: number; items: { iri: string; display: string }[] };
  const values = [...new Set(body.items.map((i) => i[field]))];
  return { values, total: body.count, hasMore: body.count > body.items.length };
}

async function readResource(state: WindowState, uri: string, extra: Extra): Promise<ReadResourceResult> {
  const principal = reader(extra);
  const target = resourceTarget(uri, state.workspace, ontologyKeys);
  if (target === null) throw new McpError(-32002, `Resource not found: ${uri}`);
  if (target.kind === 'document') return { contents: [documentContents(uri, target.ontology, target.format)] };
  const result = await host.run(
    'get_entity',
    { entity: target.iri },
    toolContext(state, principal, scopeOf(extra)),
    state.approvals,
    revokedRefusal,
  );
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(result.structuredContent) }] };
}

/** A session's client as its journal entries name it: one object per session, so the journal serializes it once. */
const clientRecords = new WeakMap<object, { readonly name: string; readonly version: string }>();

function clientRecord(server: Server): CallRecord['client'] {
  const client = server.getClientVersion();
  if (client === undefined) return null;
  let record = clientRecords.get(client);
  if (record === undefined) clientRecords.set(client, (record = { name: client.name, version: client.version }));
  return record;
}

/** One tools/call in a session: the gate, the journal's durability, and what the call tells the window and sessions. */
async function callTool(
  state: WindowState,
  server: Server,
  name: string,
  args: Record<string, unknown> | undefined,
  token: string | number | undefined,
  scope: CallScope,
): Promise<ToolResult> {
  if (!listing(toolProfile).names.has(name))
    return host.failure(
      host.declares(name) ? `${name} is not offered in the '${toolProfile}' tool profile` : `Unknown tool '${name}'`,
      'unknown_tool',
    );
  const principal = asPrincipal(scope.authInfo.extra?.principal);
  if (principal === null)
    return host.failure('No verified principal came with this request', 'authorization_denied', { effects_prevented: true });
  const notify = scope.notify;
  const beat =
    token === undefined || notify === undefined
      ? undefined
      : new ProgressBeat(
          (value, message) => notify({ method: 'notifications/progress', params: { progressToken: token, ...value, message } }),
          `${name}: running`,
        );
  const changes = state.changes;
  const call: CallRecord | null =
    changes === null ? null : { principal, sessionId: scope.sessionId ?? null, tool: name, client: clientRecord(server) };
  const ctx = toolContext(state, principal, scope, {
    progress: beat === undefined ? undefined : (m: string, measure?: ProgressMeasure) => beat.phase(m, measure),
    attribute: changes === null || call === null ? undefined : <T>(handler: () => T) => changes.attribute(call, handler),
  });
  let result: ToolResult;
  try {
    result = await runAs(principal, () => host.run(name, args, ctx, state.approvals, revokedRefusal));
    if (call?.durable !== undefined) {
      try {
        await call.durable;
      } catch (err) {
        result = notJournaled(call, err as Error);
      }
    }
  } finally {
    beat?.stop();
  }
  if (!result.isError && DOCUMENT_TOOLS.has(name)) post({ type: 'documents', files: localDocuments(state.workspace) });
  if (name === 'recover_unsaved_changes') postJournalCounts(state.changes);
  const caller = audience.get(scope.sessionId ?? '');
  announceOntologies(state.workspace, caller);
  if (!result.isError) for (const notice of resultNotices(name, result.structuredContent)) caller?.log(notice);
  return result;
}

function sessionServer(state: WindowState): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: {
      tools: { listChanged: true },
      prompts: { listChanged: false },
      resources: { subscribe: true, listChanged: true },
      logging: {},
      completions: {},
    },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: SCHEMA_VALIDATOR,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing(toolProfile).tools }));
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: LISTED_PROMPTS }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const prompt = PROMPTS_BY_NAME.get(request.params.name);
    if (prompt === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt '${request.params.name}'`);
    return expandPrompt(prompt, request.params.arguments);
  });
  server.setRequestHandler(ListResourcesRequestSchema, (_request, extra) => {
    reader(extra);
    return { resources: listResources(state.workspace, ontologyKeys) };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (_request, extra) => {
    reader(extra);
    return { resourceTemplates: [...RESOURCE_TEMPLATES] };
  });
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) => readResource(state, request.params.uri, extra));
  server.setRequestHandler(SubscribeRequestSchema, (request, extra) => {
    reader(extra);
    if (resourceTarget(request.params.uri, state.workspace, ontologyKeys) === null)
      throw new McpError(-32002, `Resource not found: ${request.params.uri}`);
    audience.get(extra.sessionId ?? '')?.subscribe(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request, extra) => {
    audience.get(extra.sessionId ?? '')?.unsubscribe(request.params.uri);
    return {};
  });
  server.setRequestHandler(CompleteRequestSchema, async (request, extra) => {
    const { ref, argument } = request.params;
    const none = { completion: { values: [] as string[] } };
    if (ref.type === 'ref/prompt') {
      const names = PROMPTS_BY_NAME.get(ref.name)?.arguments.find((a) => a.name === argument.name)?.names;
      if (names === undefined) return none;
      return { completion: await completeEntity(state, argument.value, names === 'class' ? 'class' : 'all', 'display', extra) };
    }
    if (ref.uri !== ENTITY_TEMPLATE && ref.uri !== FORMAT_TEMPLATE) return none;
    if (argument.name === 'iri' && ref.uri === ENTITY_TEMPLATE)
      return { completion: await completeEntity(state, argument.value, 'all', 'iri', extra) };
    reader(extra);
    return { completion: { values: completeTemplateVariable(argument.name, argument.value, state.workspace, ontologyKeys) } };
  });
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callTool(state, server, request.params.name, request.params.arguments, request.params._meta?.progressToken, scopeOf(extra)),
  );
  return server;
}

/** Tells every session the tool list changed when the owner picks another profile. */
function setToolProfile(profile: ToolProfile): void {
  if (profile === toolProfile) return;
  toolProfile = profile;
  for (const notices of audience.values()) notices.toolListChanged();
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** The value of `name` in a flat name/value header list. */
function header(headers: readonly string[], name: string): string | undefined {
  for (let i = 0; i < headers.length; i += 2) if (headers[i] === name) return headers[i + 1];
  return undefined;
}

function headerPairs(headers: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  // raw headers alternate name, value
  for (let i = 0; i + 1 < headers.length; i += 2) pairs.push([headers[i]!, headers[i + 1]!]);
  return pairs;
}

/** Each principal's AuthInfo, made once: principalOf hands out the same principal object for a text. */
const authInfos = new WeakMap<Principal, AuthInfo>();

function authInfoOf(principal: Principal): AuthInfo {
  let info = authInfos.get(principal);
  if (info === undefined) {
    info = { token: '', clientId: principal.client_id, scopes: [...principal.capabilities], extra: { principal } };
    authInfos.set(principal, info);
  }
  return info;
}

class WindowActor {
  private readonly sessions = new Map<string, SessionTransport>();
  private readonly readers = new Map<number, ReadableStreamDefaultReader<Uint8Array>>();
  private readonly aborted = new Set<number>();
  /** How to cancel the MCP requests of each forwarded request still being served (its HTTP request may abort). */
  private readonly cancels = new Map<number, () => void>();

  /** The window as the owner's server view sees it. */
  private readonly view: ViewWindow;

  constructor(private readonly state: WindowState) {
    this.view = {
      host,
      workspace: state.workspace,
      approvals: state.approvals,
      changes: state.changes,
      context: (principal) => ({
        workspace: state.workspace,
        resolver: state.resolver,
        window: state,
        settings,
        principal,
        sessionId: null,
        windowId: init.windowId,
        signal: new AbortController().signal,
        ...(state.changes === null ? {} : { changes: state.changes }),
      }),
      setWriteModes: (modes) => {
        settings = { ...settings, ...modes };
        announce('windows');
      },
    };
    warmView(this.view);
  }

  handle(id: number, fwd: ForwardedRequest): void {
    const fast = this.fast(fwd);
    if (fast === undefined) {
      void this.handleBySdk(id, fwd);
      return;
    }
    if (fast.cancel !== undefined) this.cancels.set(id, fast.cancel);
    void fast.reply.then((reply) => this.replyFast(id, reply));
  }

  /** The plain in-session POST, served without the SDK transport; undefined when it is not that case. */
  private fast(fwd: ForwardedRequest): FastCall | undefined {
    if (fwd.method !== 'POST' || fwd.body === null) return undefined;
    const sessionId = header(fwd.headers, 'mcp-session-id');
    const transport = sessionId === undefined ? undefined : this.sessions.get(sessionId);
    if (transport === undefined) return undefined;
    const post: PlainPost = {
      accept: header(fwd.headers, 'accept'),
      contentType: header(fwd.headers, 'content-type'),
      protocolVersion: header(fwd.headers, 'mcp-protocol-version'),
      body: fwd.body,
    };
    return transport.tryFast(post, authInfoOf(fwd.principal), fwd.headers);
  }

  private replyFast(id: number, reply: FastReply): void {
    if (reply.stream !== undefined) {
      this.replyStreamed(id, reply.stream);
      return;
    }
    this.cancels.delete(id);
    if (this.aborted.delete(id)) return;
    putReply(outbox.open(), id, reply.status, reply.body);
  }

  /** A fast-path request that asked for progress: its SSE answer is streamed like the SDK transport's. */
  private replyStreamed(id: number, body: ReadableStream<Uint8Array>): void {
    if (this.aborted.delete(id)) {
      this.cancels.get(id)?.();
      this.cancels.delete(id);
      return;
    }
    this.cancels.delete(id);
    post({
      type: 'head',
      id,
      status: 200,
      headers: [
        ['content-type', 'text/event-stream'],
        ['cache-control', 'no-cache'],
      ],
    });
    void this.stream(id, new Response(body));
  }

  private async handleBySdk(id: number, fwd: ForwardedRequest): Promise<void> {
    const cancel = this.sdkCancel(fwd);
    if (cancel !== undefined) this.cancels.set(id, cancel);
    let response: Response;
    try {
      response = await this.respond(fwd);
    } catch (err) {
      response = jsonRpcError(500, -32603, `Internal error: ${(err as Error).message}`);
    } finally {
      this.cancels.delete(id);
    }
    if (this.aborted.delete(id)) {
      await response.body?.cancel();
      return;
    }
    const headers = [...response.headers];
    if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      post({ type: 'response', id, status: response.status, headers, body: await response.text() });
      return;
    }
    post({ type: 'head', id, status: response.status, headers });
    // a session's standalone GET stream carries its notifications: they wait while none is open
    const sessionId = fwd.method === 'GET' && response.status === 200 ? header(fwd.headers, 'mcp-session-id') : undefined;
    const notices = sessionId === undefined ? undefined : audience.get(sessionId);
    notices?.streamOpened();
    try {
      await this.stream(id, response);
    } finally {
      notices?.streamClosed();
    }
  }

  /** Cancels the requests an in-session POST carries (one message or a batch); undefined when it carries none. */
  private sdkCancel(fwd: ForwardedRequest): (() => void) | undefined {
    const sessionId = header(fwd.headers, 'mcp-session-id');
    const transport = sessionId === undefined ? undefined : this.sessions.get(sessionId);
    if (fwd.method !== 'POST' || fwd.body === null || transport === undefined) return undefined;
    const ids = requestIds(fwd.body);
    if (ids.length === 0) return undefined;
    return () => {
      for (const rid of ids) transport.cancel(rid, 'The HTTP request was aborted');
    };
  }

  private async respond(fwd: ForwardedRequest): Promise<Response> {
    const headers = new Headers(headerPairs(fwd.headers));
    const request = new Request('http://window.invalid' + fwd.url, { method: fwd.method, headers, body: fwd.body });
    const authInfo = authInfoOf(fwd.principal);
    const sessionId = headers.get('mcp-session-id');
    if (sessionId !== null) {
      const transport = this.sessions.get(sessionId);
      if (transport === undefined) return jsonRpcError(404, -32001, 'Session not found');
      return transport.inner.handleRequest(request, { authInfo });
    }
    return this.newSession(request, authInfo);
  }

  /** A request without a session id must be an initialize; the SDK transport enforces that. */
  private async newSession(request: Request, authInfo: AuthInfo): Promise<Response> {
    const server = sessionServer(this.state);
    const inner: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      enableJsonResponse: true,
      onsessioninitialized: (sid) => {
        this.sessions.set(sid, transport);
        const notices = new SessionNotices(server, sid);
        for (const n of this.state.changes?.recoveryNotices ?? []) notices.log(recoveryNotice(n));
        audience.set(sid, notices);
      },
      onsessionclosed: (sid) => this.forget(sid),
    });
    const transport = new SessionTransport(inner, (name, args, scope) =>
      callTool(this.state, server, name, args, undefined, scope).then((r) => host.resultJson(r)),
    );
    await server.connect(transport);
    const response = await inner.handleRequest(request, { authInfo });
    if (transport.sessionId === undefined || !this.sessions.has(transport.sessionId)) await server.close();
    return response;
  }

  private forget(sessionId: string): void {
    audience.delete(sessionId);
    if (this.sessions.delete(sessionId)) post({ type: 'session-closed', sessionId });
  }

  private async stream(id: number, response: Response): Promise<void> {
    if (response.body === null) {
      post({ type: 'end', id });
      return;
    }
    const reader = response.body.getReader();
    this.readers.set(id, reader);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        post({ type: 'chunk', id, data: value.slice() });
      }
    } catch {
      // the client went away and the stream was cancelled
    } finally {
      this.readers.delete(id);
      post({ type: 'end', id });
    }
  }

  abort(id: number): void {
    this.cancels.get(id)?.();
    this.cancels.delete(id);
    const reader = this.readers.get(id);
    if (reader === undefined) this.aborted.add(id);
    else void reader.cancel();
  }

  async closeSession(sessionId: string): Promise<void> {
    const transport = this.sessions.get(sessionId);
    if (transport === undefined) return;
    this.sessions.delete(sessionId);
    await transport.close();
  }

  async shutdown(): Promise<void> {
    post({ type: 'unsaved', ontologies: this.state.workspace.dirtyCount });
    // the window's parts go first (jobs and their private artifacts before anything else): the worker may
    // be terminated if closing takes too long
    const disposed = this.state.dispose();
    await Promise.all([...this.sessions.keys()].map((sid) => this.closeSession(sid)));
    await disposed;
  }

  dispatch(m: ToWindow): void {
    switch (m.type) {
      case 'abort':
        this.abort(m.id);
        break;
      case 'close-session':
        void this.closeSession(m.sessionId);
        break;
      case 'tool-profile':
        setToolProfile(m.profile);
        break;
      // process.exit in a worker ends only this thread, without waiting for idle transports' timers
      case 'shutdown':
        void this.shutdown().then(() => {
          outbox.flush();
          process.exit(0);
        });
        break;
      default:
        return unreachable(m);
    }
  }

  get label(): string {
    return this.state.workspace.hasActive ? ontologyLabel(this.state.workspace.active) : '(no ontology)';
  }

  listApprovals(): ApprovalEntry[] {
    return this.state.approvals.list();
  }

  decide(approvalId: string, approve: boolean): boolean {
    return this.state.approvals.decide(approvalId, approve);
  }

  holdFence(fence: Fence): void {
    fences.add(fence);
    // what the revoked grants made here goes too: their jobs stop, their cursors and proposals are erased
    this.state.revoke(new Set(fence.grant_ids));
  }

  answerView(query: Parameters<WindowControl['view']>[0]): Promise<unknown> {
    return answerView(this.view, query).catch((err: Error) => ({ error: err.message, error_code: 'internal_error' }));
  }
}

/** Serves the window with the tool layer `tools`: opens its workspace, then answers the front door. */
export function serveWindow(tools: ToolHost): void {
  host = tools;
  const opened = openWindow().then((state) => {
    announcedOntologies = [...state.workspace.ontologies];
    const actor = new WindowActor(state);
    const receiver: WindowReceiver = { message: (m) => actor.dispatch(m), request: (id, r) => actor.handle(id, r) };
    port.on('message', (batch: Batch) => readToWindow(batch, receiver, principalOf));
    postJournalCounts(state.changes);
    return actor;
  });
  // a window that could not open says why to `ready`
  opened.catch(() => undefined);

  /** The front door's questions: each waits until the window serves, and fails when it could not start. */
  const control: WindowControl = {
    ready: async () => (await opened).label,
    listApprovals: async () => (await opened).listApprovals(),
    auditLost: async () => auditEventsLost(),
    decide: async (approvalId, approve) => (await opened).decide(approvalId, approve),
    fence: async (fence) => (await opened).holdFence(fence),
    view: async (query) => (await opened).answerView(query),
  };
  exposeOn(init.control, control);
}
