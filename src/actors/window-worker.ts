// A window actor: a Worker that owns one workspace (its ontologies, active ontology and undo stack) and
// serves MCP sessions on it. Each session is an SDK `Server` on a web-standard Streamable HTTP transport;
// the front door forwards HTTP requests here over the port and receives the responses as a stream.

import { parentPort, workerData } from 'node:worker_threads';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { Workspace, ontologyLabel } from '../model/workspace.js';
import { WorkspaceResolver } from '../model/resolver.js';
import { loadOntologyFile } from '../model/io.js';
import { asPrincipal } from '../auth/principal.js';
import { ApprovalQueue } from '../tools/approvals.js';
import { UndoJournal } from '../tools/journal.js';
import { TOOLS, TOOLS_BY_NAME } from '../tools/catalog.js';
import { failure, listTool, runTool } from '../tools/gate.js';
import type { ToolContext } from '../tools/tool.js';
import type { ForwardedRequest, FromWindow, ToWindow, WindowInit } from './protocol.js';

const port = parentPort;
if (port === null) throw new Error('window-worker must run in a worker thread');
const init = workerData as WindowInit;

const SERVER_INFO = { name: 'athene', version: '0.1.0' };
const LISTED_TOOLS = TOOLS.map(listTool);
/** Tools whose success changes which documents a restart should reopen. */
const DOCUMENT_TOOLS: ReadonlySet<string> = new Set(['save_ontology', 'load_ontology']);

const post = (m: FromWindow, transfer?: ArrayBuffer[]) => port.postMessage(m, transfer);

interface WindowState {
  readonly workspace: Workspace;
  readonly resolver: WorkspaceResolver;
  readonly journal: UndoJournal;
  readonly approvals: ApprovalQueue;
}

async function openWindow(): Promise<WindowState> {
  const workspace = new Workspace();
  for (const file of init.files) workspace.load(await loadOntologyFile(file), workspace.ontologies.length === 0);
  return {
    workspace,
    resolver: new WorkspaceResolver(workspace),
    journal: new UndoJournal(workspace),
    approvals: new ApprovalQueue(init.windowId),
  };
}

function localDocuments(ws: Workspace): string[] {
  const ordered = ws.hasActive ? [ws.active, ...ws.ontologies.filter((o) => o !== ws.active)] : [...ws.ontologies];
  return ordered.map((o) => o.documentIri).filter((d): d is string => d !== null && path.isAbsolute(d));
}

function sessionServer(state: WindowState): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: LISTED_TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = TOOLS_BY_NAME.get(request.params.name);
    if (tool === undefined) return failure(`Unknown tool '${request.params.name}'`, 'unknown_tool');
    const principal = asPrincipal(extra.authInfo?.extra?.principal);
    if (principal === null) return failure('No verified principal came with this request', 'authorization_denied', { effects_prevented: true });
    const ctx: ToolContext = {
      workspace: state.workspace,
      resolver: state.resolver,
      journal: state.journal,
      settings: init.settings,
      principal,
      sessionId: extra.sessionId ?? null,
      windowId: init.windowId,
    };
    const result = await runTool(tool, request.params.arguments, ctx, state.approvals);
    if (!result.isError && DOCUMENT_TOOLS.has(tool.name)) post({ type: 'documents', files: localDocuments(state.workspace) });
    return result;
  });
  return server;
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: { 'content-type': 'application/json' } });
}

class WindowActor {
  private readonly sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  private readonly readers = new Map<number, ReadableStreamDefaultReader<Uint8Array>>();
  private readonly aborted = new Set<number>();

  constructor(private readonly state: WindowState) {}

  async handle(id: number, fwd: ForwardedRequest): Promise<void> {
    let response: Response;
    try {
      response = await this.respond(fwd);
    } catch (err) {
      response = jsonRpcError(500, -32603, `Internal error: ${(err as Error).message}`);
    }
    if (this.aborted.delete(id)) {
      await response.body?.cancel();
      return;
    }
    const headers = [...response.headers];
    if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      const body = new Uint8Array(await response.arrayBuffer());
      post({ type: 'response', id, status: response.status, headers, body }, [body.buffer]);
      return;
    }
    post({ type: 'head', id, status: response.status, headers });
    await this.stream(id, response);
  }

  private async respond(fwd: ForwardedRequest): Promise<Response> {
    const headers = new Headers(fwd.headers as [string, string][]);
    const request = new Request('http://window.invalid' + fwd.url, { method: fwd.method, headers, body: fwd.body });
    const authInfo: AuthInfo = { token: '', clientId: fwd.principal.client_id, scopes: [...fwd.principal.capabilities], extra: { principal: fwd.principal } };
    const sessionId = headers.get('mcp-session-id');
    if (sessionId !== null) {
      const transport = this.sessions.get(sessionId);
      if (transport === undefined) return jsonRpcError(404, -32001, 'Session not found');
      return transport.handleRequest(request, { authInfo });
    }
    return this.newSession(request, authInfo);
  }

  /** A request without a session id must be an initialize; the SDK transport enforces that. */
  private async newSession(request: Request, authInfo: AuthInfo): Promise<Response> {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      enableJsonResponse: true,
      onsessioninitialized: (sid) => {
        this.sessions.set(sid, transport);
      },
      onsessionclosed: (sid) => this.forget(sid),
    });
    const server = sessionServer(this.state);
    await server.connect(transport);
    const response = await transport.handleRequest(request, { authInfo });
    if (transport.sessionId === undefined || !this.sessions.has(transport.sessionId)) await server.close();
    return response;
  }

  private forget(sessionId: string): void {
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
        const copy = value.slice();
        post({ type: 'chunk', id, data: copy }, [copy.buffer]);
      }
    } catch {
      // the client went away and the stream was cancelled
    } finally {
      this.readers.delete(id);
      post({ type: 'end', id });
    }
  }

  abort(id: number): void {
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
    this.state.approvals.declineAll();
    await Promise.all([...this.sessions.keys()].map((sid) => this.closeSession(sid)));
  }

  dispatch(m: ToWindow): void {
    switch (m.type) {
      case 'request': void this.handle(m.id, m.request); break;
      case 'abort': this.abort(m.id); break;
      case 'list-approvals': post({ type: 'approvals', id: m.id, entries: this.state.approvals.list() }); break;
      case 'decide': post({ type: 'decided', id: m.id, found: this.state.approvals.decide(m.approvalId, m.approve) }); break;
      case 'close-session': void this.closeSession(m.sessionId); break;
      // process.exit in a worker ends only this thread, without waiting for idle transports' timers
      case 'shutdown': void this.shutdown().then(() => process.exit(0)); break;
    }
  }
}

openWindow().then(
  (state) => {
    const actor = new WindowActor(state);
    port.on('message', (m: ToWindow) => actor.dispatch(m));
    post({ type: 'ready', label: state.workspace.hasActive ? ontologyLabel(state.workspace.active) : '(no ontology)' });
  },
  (err: Error) => post({ type: 'start-failed', message: err.message }),
);
