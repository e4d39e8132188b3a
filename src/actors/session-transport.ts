// One MCP session's transport in a window actor. The SDK's web-standard Streamable HTTP transport handles
// everything (initialize, GET streams, DELETE, batches, every error), but builds a Request, a Response and
// a stream per call and re-validates each message several times. The plain case, a single JSON-RPC request
// or notification POSTed in an initialized session with well-formed headers, goes straight to the SDK
// `Server` instead, and its response comes back as the one JSON text the HTTP answer carries. Anything
// this fast path does not recognise is left to the SDK transport, so its answers stay the SDK's.

import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type MessageExtraInfo, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';

/** What the fast path needs of a POST: the few headers the SDK would check, and the raw body. */
export interface PlainPost {
  readonly accept: string | undefined;
  readonly contentType: string | undefined;
  readonly protocolVersion: string | undefined;
  readonly body: string;
}

/** A fast-path answer: the response's JSON text (200), nothing for a notification (202), or an error. */
export interface FastReply {
  readonly status: number;
  readonly body: string | null;
}

/** A fast-path call in flight: its reply, and how to cancel it when its HTTP request goes away. */
export interface FastCall {
  readonly reply: Promise<FastReply>;
  /** Absent for a notification, which has nothing to cancel. */
  readonly cancel?: () => void;
}

const ACCEPTED: FastReply = { status: 202, body: null };
const GONE: FastReply = { status: 404, body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }) };

const REQUEST_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The message if it is a request or notification the SDK's schemas certainly accept (they are strict
 * about keys); null for anything else, including params carrying `_meta`, which only the schemas check.
 */
export function plainMessage(raw: unknown): JSONRPCMessage | null {
  if (!isPlainObject(raw) || raw.jsonrpc !== '2.0' || typeof raw.method !== 'string') return null;
  for (const k in raw) if (!REQUEST_KEYS.has(k)) return null;
  const id = raw.id;
  if (id !== undefined && typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) return null;
  const params = raw.params;
  if (params !== undefined && (!isPlainObject(params) || params._meta !== undefined)) return null;
  return raw as JSONRPCMessage;
}

function headersAcceptable(post: PlainPost): boolean {
  const accept = post.accept;
  if (accept === undefined || !accept.includes('application/json') || !accept.includes('text/event-stream')) return false;
  if (post.contentType !== 'application/json') return false;
  return post.protocolVersion === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(post.protocolVersion);
}

/** Cancelled requests whose late response would still be dropped. */
const MAX_WITHDRAWN = 1024;

export class SessionTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Fast-path requests awaiting the server's response, by JSON-RPC id. */
  private readonly waiting = new Map<RequestId, (reply: FastReply) => void>();
  /**
   * Cancelled fast-path requests, already answered 202: the server sends nothing for a cancelled request,
   * unless its handler finished just before the cancellation reached it; that late response is dropped.
   */
  private readonly withdrawn = new Set<RequestId>();

  constructor(readonly inner: WebStandardStreamableHTTPServerTransport) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    this.inner.onmessage = (m, extra) => this.deliver(m, extra);
    this.inner.onclose = () => this.closed();
    this.inner.onerror = (e) => this.onerror?.(e);
    await this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ('id' in message && message.id !== undefined && ('result' in message || 'error' in message)) {
      const reply = this.waiting.get(message.id);
      if (reply !== undefined) {
        this.waiting.delete(message.id);
        reply({ status: 200, body: JSON.stringify(message) });
        return;
      }
      if (this.withdrawn.delete(message.id)) return;
    } else if (options?.relatedRequestId !== undefined && this.waiting.has(options.relatedRequestId)) {
      // A JSON response has no room for notifications about its request; the SDK transport drops them too.
      return;
    }
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /**
   * Serves `post` directly if it is the plain case; undefined when it is not (the caller then hands the
   * whole request to the SDK transport). A request whose id is already awaited is not plain either.
   */
  tryFast(post: PlainPost, authInfo: AuthInfo, headers: Record<string, string>): FastCall | undefined {
    if (!headersAcceptable(post)) return undefined;
    let raw: unknown;
    try {
      raw = JSON.parse(post.body);
    } catch {
      return undefined;
    }
    const message = plainMessage(raw);
    if (message === null || !('method' in message) || message.method === 'initialize') return undefined;
    const extra: MessageExtraInfo = { authInfo, requestInfo: { headers } };
    if (!('id' in message)) {
      this.deliver(message, extra);
      return { reply: Promise.resolve(ACCEPTED) };
    }
    const id = message.id;
    if (this.waiting.has(id)) return undefined;
    this.withdrawn.delete(id);
    const reply = new Promise<FastReply>((resolve) => {
      this.waiting.set(id, resolve);
      this.deliver(message, extra);
    });
    return { reply, cancel: () => this.cancel(id, 'The HTTP request was aborted') };
  }

  /** Cancels a request being served, as the client's `notifications/cancelled` would: its handler's signal aborts. */
  cancel(requestId: RequestId, reason: string): void {
    this.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason } });
  }

  /**
   * Hands a message to the server. A cancellation of a fast-path request also answers its HTTP request
   * (202, no body), which would otherwise wait for a response the server never sends.
   */
  private deliver(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message)) {
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      const reply = typeof requestId === 'string' || typeof requestId === 'number' ? this.waiting.get(requestId) : undefined;
      if (reply !== undefined) {
        this.waiting.delete(requestId as RequestId);
        this.withdrawn.add(requestId as RequestId);
        // most cancelled handlers never answer: remember only the latest, oldest forgotten first
        if (this.withdrawn.size > MAX_WITHDRAWN) this.withdrawn.delete(this.withdrawn.values().next().value as RequestId);
        reply(ACCEPTED);
      }
    }
    this.onmessage?.(message, extra);
  }

  /** The session ended: answers what is still waiting as the SDK would a request on a gone session. */
  private closed(): void {
    for (const reply of this.waiting.values()) reply(GONE);
    this.waiting.clear();
    this.onclose?.();
  }
}
