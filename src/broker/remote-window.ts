// A window of another athene process, as the broker's front door sees it: requests go over loopback HTTP
// to that process's backend port with the window's broker secret, the principal and the protocol version;
// answers come back whole, or streamed for event streams. Fences, held-write decisions and session ends
// travel the same way.

import http from 'node:http';
import type { ForwardedRequest } from '../actors/protocol.js';
import type { ResponseSink } from '../actors/window.js';
import type { RoutedWindow } from '../actors/registry.js';
import type { Fence } from '../actors/fences.js';
import type { ApprovalEntry } from '../window/approvals.js';
import type { Principal } from '../auth/principal.js';
import type { ViewQuery, ViewTopic } from '../actors/window-view.js';
import type { Endpoint } from './broker-registry.js';
import { BROKER_PROTOCOL, PRINCIPAL_HEADER, PROTOCOL_HEADER, SECRET_HEADER, encodePrincipal } from './wire.js';
import { isHopByHop } from '../http/hop-by-hop.js';

/** How long a fence, decision or listing may take before the window counts as unavailable. */
const CONTROL_TIMEOUT_MS = 5000;

/** Response headers not passed on (the front door computes its own framing). */
/** Response headers the front door's transport writes itself. */
const FRAMING: ReadonlySet<string> = new Set(['content-length', 'date']);

const encoded = new WeakMap<Principal, string>();

function principalHeader(p: Principal): string {
  let text = encoded.get(p);
  if (text === undefined) {
    text = encodePrincipal(p);
    encoded.set(p, text);
  }
  return text;
}

function responseHeaders(raw: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase(); // raw headers alternate name, value
    if (!FRAMING.has(name) && !isHopByHop(name)) out.push([name, raw[i + 1]!]);
  }
  return out;
}

/** The topics of one announcement event (`data: {"topics": [...]}`); null for a comment or a malformed event. */
function announcedTopics(event: string): ViewTopic[] | null {
  const data = event.split('\n').find((line) => line.startsWith('data: '));
  if (data === undefined) return null;
  try {
    const topics = (JSON.parse(data.slice(6)) as { topics?: unknown }).topics;
    return Array.isArray(topics) && topics.every((t) => typeof t === 'string') ? (topics as ViewTopic[]) : null;
  } catch {
    return null;
  }
}

export interface RemoteWindowEvents {
  /** A DELETE ended a session at the window. */
  sessionClosed(window: RemoteWindow, sessionId: string): void;
}

export class RemoteWindow implements RoutedWindow {
  constructor(
    readonly endpoint: Endpoint,
    private readonly agent: http.Agent,
    private readonly events: RemoteWindowEvents,
  ) {}

  get id(): string {
    return this.endpoint.id;
  }

  get label(): string {
    return this.endpoint.label;
  }

  get documents(): readonly string[] {
    return this.endpoint.documents;
  }

  get connectedAt(): number {
    return this.endpoint.connectedAt;
  }

  get quarantined(): boolean {
    return this.endpoint.state === 'quarantined';
  }

  forward(request: ForwardedRequest, sink: ResponseSink): () => void {
    const q = request.url.indexOf('?');
    const headers: Record<string, string> = {};
    for (let i = 0; i + 1 < request.headers.length; i += 2) {
      const name = request.headers[i]!; // raw headers alternate name, value
      if (!isHopByHop(name)) headers[name] = request.headers[i + 1]!;
    }
    headers[SECRET_HEADER] = this.endpoint.secret;
    headers[PRINCIPAL_HEADER] = principalHeader(request.principal);
    headers[PROTOCOL_HEADER] = String(BROKER_PROTOCOL);
    if (request.body !== null) headers['content-length'] = String(Buffer.byteLength(request.body));
    let over = false;
    const req = http.request({
      host: '127.0.0.1',
      port: this.endpoint.port,
      method: request.method,
      agent: this.agent,
      headers,
      path: this.path('mcp') + (q < 0 ? '' : request.url.slice(q)),
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 502;
      const head = responseHeaders(res.rawHeaders);
      if ((res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
        sink.head(status, head);
        res.on('data', (chunk: Buffer) => sink.chunk(chunk));
        res.on('end', () => {
          over = true;
          sink.end();
        });
        res.on('error', () => undefined);
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        over = true;
        const sessionId = headers['mcp-session-id'];
        if (request.method === 'DELETE' && status < 300 && sessionId !== undefined) this.events.sessionClosed(this, sessionId);
        sink.complete(status, head, Buffer.concat(chunks).toString('utf8'));
      });
      res.on('error', () => undefined);
    });
    req.on('error', (err) => {
      if (over) return;
      over = true;
      sink.fail(502, `The window's process could not be reached (${err.message})`);
    });
    req.end(request.body ?? undefined);
    return () => {
      if (over) return;
      over = true;
      req.destroy();
    };
  }

  async fence(fence: Fence): Promise<boolean> {
    const answer = await this.control('POST', this.path('fence'), fence);
    return answer !== null && answer.status === 200 && (answer.body as { fenced?: unknown }).fenced === fence.fence_id;
  }

  async listApprovals(): Promise<ApprovalEntry[]> {
    if (this.quarantined) return [];
    const answer = await this.control('GET', this.path('approvals'), null);
    const entries = answer?.status === 200 ? (answer.body as { pending?: unknown }).pending : undefined;
    return Array.isArray(entries) ? (entries as ApprovalEntry[]) : [];
  }

  async decide(approvalId: string, approve: boolean): Promise<boolean> {
    if (this.quarantined) return false;
    const answer = await this.control(
      'POST',
      `${this.path('approvals')}/${encodeURIComponent(approvalId)}/${approve ? 'approve' : 'deny'}`,
      null,
    );
    return answer?.status === 200;
  }

  async view(query: ViewQuery): Promise<unknown> {
    if (this.quarantined) return { error: "The window's process was replaced; it takes no questions", error_code: 'window_unavailable' };
    const answer = await this.control('POST', this.path('view'), query);
    return answer === null ? { error: "The window's process could not be reached", error_code: 'window_unavailable' } : answer.body;
  }

  /**
   * Listens to the window's announcements to the server view: `heard` gets each batch of topics, `ended`
   * is called once when the stream ends (the process went away or restarted its backend). Returns the stop.
   */
  watch(heard: (topics: readonly ViewTopic[]) => void, ended: () => void): () => void {
    let over = false;
    const finish = () => {
      if (over) return;
      over = true;
      ended();
    };
    const req = http.request(
      {
        host: '127.0.0.1',
        port: this.endpoint.port,
        method: 'GET',
        path: this.path('events'),
        agent: this.agent,
        headers: { [SECRET_HEADER]: this.endpoint.secret, [PROTOCOL_HEADER]: String(BROKER_PROTOCOL) },
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return finish();
        }
        let buffered = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffered += chunk;
          let cut: number;
          while ((cut = buffered.indexOf('\n\n')) >= 0) {
            const event = buffered.slice(0, cut);
            buffered = buffered.slice(cut + 2);
            const topics = announcedTopics(event);
            if (topics !== null) heard(topics);
          }
        });
        res.on('end', finish);
        res.on('error', finish);
      },
    );
    req.on('error', finish);
    req.end();
    return () => {
      over = true;
      req.destroy();
    };
  }

  closeSession(sessionId: string): void {
    void this.control('POST', `${this.path('sessions')}/${encodeURIComponent(sessionId)}/close`, null);
  }

  private path(action: string): string {
    return `/w/${encodeURIComponent(this.endpoint.windowId)}/${action}`;
  }

  /** A small JSON exchange with the backend; null when it could not be reached in time. */
  private control(method: string, path: string, body: unknown): Promise<{ status: number; body: unknown } | null> {
    const text = body === null ? '' : JSON.stringify(body);
    return new Promise((resolve) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: this.endpoint.port,
          method,
          path,
          agent: this.agent,
          timeout: CONTROL_TIMEOUT_MS,
          headers: {
            [SECRET_HEADER]: this.endpoint.secret,
            [PROTOCOL_HEADER]: String(BROKER_PROTOCOL),
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(text)),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            let parsed: unknown = null;
            try {
              parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            } catch {
              parsed = null;
            }
            resolve({ status: res.statusCode ?? 502, body: parsed ?? {} });
          });
          res.on('error', () => resolve(null));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', () => resolve(null));
      req.end(text);
    });
  }
}
