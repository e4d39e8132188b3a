// One MCP session's transport in a window actor. The SDK's web-standard Streamable HTTP transport handles
// everything (initialize, GET streams, DELETE, batches, every error), but builds a Request, a Response and
// a stream per call and re-validates each message several times. The plain case, a single JSON-RPC request
// or notification POSTed in an initialized session with well-formed headers, goes straight to the SDK
// `Server` instead, and its response comes back as the one JSON text the HTTP answer carries; a request
// asking for progress (`_meta.progressToken`) is answered as an SSE stream carrying its notifications, then
// its response. A well-formed `tools/call` without `_meta` skips the SDK `Server` too: the window's tool
// function runs directly and hands back the result's JSON text, and the response is assembled around it
// (one serialization, none of Protocol's per-request schema checks, closures and promise chain); its
// cancellation, late-response and session-close rules are Protocol's. Anything this fast path does not
// recognise is left to the SDK transport, so its answers stay the SDK's. A plain `ping` is answered here
// with Protocol's empty result.

import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  ErrorCode,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Cancellation } from '../window/call-context.js';

/** What the fast path needs of a POST: the few headers the SDK would check, and the raw body. */
export interface PlainPost {
  readonly accept: string | undefined;
  readonly contentType: string | undefined;
  readonly protocolVersion: string | undefined;
  readonly body: string;
}

/**
 * A fast-path answer: the response's JSON text (200), nothing for a notification (202), an error, or an
 * SSE stream (200) of the request's notifications ending with its response.
 */
export interface FastReply {
  readonly status: number;
  readonly body: string | null;
  readonly stream?: ReadableStream<Uint8Array>;
}

/**
 * The cancellation of a directly served call. Most calls finish without anything asking for their signal,
 * and an AbortController with its signal (an EventTarget) is most of what such a call allocates; it is made
 * when first asked for, already aborted (with the same reason) if the call was cancelled before.
 */
export class LazyCancellation implements Cancellation {
  private controller: AbortController | null = null;
  private cancelled = false;
  private reason: unknown;

  get aborted(): boolean {
    return this.cancelled;
  }

  get signal(): AbortSignal {
    if (this.controller === null) {
      this.controller = new AbortController();
      if (this.cancelled) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  abort(reason?: unknown): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}

/** What a directly served tool call knows of its request. */
export interface ToolCallScope {
  readonly sessionId: string | undefined;
  readonly authInfo: AuthInfo;
  /** Aborts when the client cancels the call or the session ends. */
  readonly cancellation: Cancellation;
  /** The request's MCP-Protocol-Version header. */
  readonly protocolVersion: string | undefined;
}

/** Runs a tool and answers the JSON text of its `CallToolResult`. */
export type ToolCaller = (name: string, args: Record<string, unknown> | undefined, scope: ToolCallScope) => Promise<string>;

/** A fast-path call in flight: its reply, and how to cancel it when its HTTP request goes away. */
export interface FastCall {
  readonly reply: Promise<FastReply>;
  /** Absent for a notification, which has nothing to cancel. */
  readonly cancel?: () => void;
}

const ACCEPTED: FastReply = { status: 202, body: null };
const GONE: FastReply = {
  status: 404,
  body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }),
};

const REQUEST_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isRequestId(v: unknown): v is RequestId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));
}

/** A `_meta` the fast path understands: absent, or exactly a progress token. */
function plainMeta(meta: unknown): boolean {
  if (meta === undefined) return true;
  if (!isPlainObject(meta)) return false;
  const keys = Object.keys(meta);
  return keys.length === 1 && keys[0] === 'progressToken' && isRequestId(meta.progressToken);
}

/**
 * The message if it is a request or notification the SDK's schemas certainly accept (they are strict
 * about keys); null for anything else, including params carrying any `_meta` but a progress token.
 */
export function plainMessage(raw: unknown): JSONRPCMessage | null {
  if (!isPlainObject(raw) || raw.jsonrpc !== '2.0' || typeof raw.method !== 'string') return null;
  for (const k in raw) if (!REQUEST_KEYS.has(k)) return null;
  if (raw.id !== undefined && !isRequestId(raw.id)) return null;
  const params = raw.params;
  if (params !== undefined && (!isPlainObject(params) || !plainMeta(params._meta))) return null;
  return raw as JSONRPCMessage;
}

/** A `tools/call`'s name and arguments when its params hold nothing else and the SDK's schema accepts them; else null. */
function plainToolCall(message: JSONRPCMessage): { name: string; args: Record<string, unknown> | undefined } | null {
  if (!('method' in message) || message.method !== 'tools/call') return null;
  const params = message.params;
  if (params === undefined) return null;
  for (const k in params) if (k !== 'name' && k !== 'arguments') return null;
  const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string' || (args !== undefined && !isPlainObject(args))) return null;
  return { name, args };
}

/** A `ping` without params (or with empty ones): Protocol answers it with an empty result, whatever the session's state. */
function isPlainPing(message: JSONRPCMessage): boolean {
  if (!('method' in message) || message.method !== 'ping') return false;
  const params = message.params;
  return params === undefined || Object.keys(params).length === 0;
}

/** A handler's failure as Protocol answers it. */
function errorResponse(id: RequestId, error: unknown): string {
  const e = error as { code?: unknown; message?: unknown; data?: unknown };
  const code = typeof e.code === 'number' && Number.isSafeInteger(e.code) ? e.code : ErrorCode.InternalError;
  const message = typeof e.message === 'string' ? e.message : 'Internal error';
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code, message, ...(e.data === undefined ? {} : { data: e.data }) } });
}

function headerRecord(headers: readonly string[]): Record<string, string> {
  const record: Record<string, string> = {};
  // raw headers alternate name, value
  for (let i = 0; i + 1 < headers.length; i += 2) record[headers[i]!] = headers[i + 1]!;
  return record;
}

/** Whether a request asks for progress notifications, which a JSON answer has no room for. */
function wantsProgress(message: JSONRPCMessage): boolean {
  const params = (message as { params?: { _meta?: unknown } }).params;
  return params?._meta !== undefined;
}

const encoder = new TextEncoder();

function sseEvent(message: JSONRPCMessage): Uint8Array {
  return encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
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
  /** Fast-path requests answered as SSE streams, by JSON-RPC id: their notifications go there too. */
  private readonly streams = new Map<RequestId, ReadableStreamDefaultController<Uint8Array>>();
  /**
   * Cancelled fast-path requests, already answered 202: the server sends nothing for a cancelled request,
   * unless its handler finished just before the cancellation reached it; that late response is dropped.
   */
  private readonly withdrawn = new Set<RequestId>();
  /** Directly served tool calls still running, by JSON-RPC id: a cancellation or the session's end aborts them. */
  private readonly running = new Map<RequestId, LazyCancellation>();

  /** `tools` serves well-formed tool calls directly; without it every request goes to the SDK `Server`. */
  constructor(
    readonly inner: WebStandardStreamableHTTPServerTransport,
    private readonly tools?: ToolCaller,
  ) {}

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
    if (this.sendOnStream(message, options)) return;
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
    // The SDK's transport takes only the related request, and types it without an explicit undefined.
    const related = options?.relatedRequestId;
    return this.inner.send(message, related === undefined ? undefined : { relatedRequestId: related });
  }

  /** Writes to a streamed fast-path request's SSE answer what belongs there; false when nothing does. */
  private sendOnStream(message: JSONRPCMessage, options?: TransportSendOptions): boolean {
    const isResponse = 'id' in message && message.id !== undefined && ('result' in message || 'error' in message);
    const id = isResponse ? (message as { id: RequestId }).id : options?.relatedRequestId;
    const controller = id === undefined ? undefined : this.streams.get(id);
    if (controller === undefined || id === undefined) return false;
    try {
      controller.enqueue(sseEvent(message));
      if (isResponse) controller.close();
    } catch {
      // the client went away: the stream is already closed
    }
    if (isResponse) this.streams.delete(id);
    return true;
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /**
   * Serves `post` directly if it is the plain case; undefined when it is not (the caller then hands the
   * whole request to the SDK transport). A request whose id is already awaited is not plain either.
   */
  tryFast(post: PlainPost, authInfo: AuthInfo, headers: readonly string[]): FastCall | undefined {
    if (!headersAcceptable(post)) return undefined;
    let raw: unknown;
    try {
      raw = JSON.parse(post.body);
    } catch {
      return undefined;
    }
    const message = plainMessage(raw);
    if (message === null || !('method' in message) || message.method === 'initialize') return undefined;
    if (!('id' in message)) {
      const extra: MessageExtraInfo = { authInfo, requestInfo: { headers: headerRecord(headers) } };
      this.deliver(message, extra);
      return { reply: Promise.resolve(ACCEPTED) };
    }
    const id = message.id;
    if (this.waiting.has(id) || this.streams.has(id)) return undefined;
    this.withdrawn.delete(id);
    if (isPlainPing(message))
      return { reply: Promise.resolve({ status: 200, body: `{"result":{},"jsonrpc":"2.0","id":${JSON.stringify(id)}}` }) };
    const call = this.tools === undefined ? null : plainToolCall(message);
    if (call !== null) return this.callTool(id, call.name, call.args, authInfo, post.protocolVersion);
    const extra: MessageExtraInfo = { authInfo, requestInfo: { headers: headerRecord(headers) } };
    if (wantsProgress(message)) return this.streamed(id, message, extra);
    const reply = new Promise<FastReply>((resolve) => {
      this.waiting.set(id, resolve);
      this.deliver(message, extra);
    });
    return { reply, cancel: () => this.cancel(id, 'The HTTP request was aborted') };
  }

  /** Serves a tool call without the SDK `Server`; its response is the one JSON text the HTTP answer carries. */
  private callTool(
    id: RequestId,
    name: string,
    args: Record<string, unknown> | undefined,
    authInfo: AuthInfo,
    protocolVersion: string | undefined,
  ): FastCall {
    const cancellation = new LazyCancellation();
    this.running.set(id, cancellation);
    const reply = new Promise<FastReply>((resolve) => this.waiting.set(id, resolve));
    const answer = (body: string) => this.answerTool(id, cancellation, body);
    const tools = this.tools as ToolCaller;
    // started on a later microtask, as Protocol starts its handlers: the messages of one batch are all delivered first
    Promise.resolve()
      .then(() => tools(name, args, { sessionId: this.sessionId, authInfo, cancellation, protocolVersion }))
      .then(
        (result) => answer(`{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`),
        (err: unknown) => answer(errorResponse(id, err)),
      );
    return { reply, cancel: () => this.cancel(id, 'The HTTP request was aborted') };
  }

  /** As Protocol does: a cancelled call is not answered (its HTTP request already was, 202). */
  private answerTool(id: RequestId, cancellation: LazyCancellation, body: string): void {
    if (this.running.get(id) === cancellation) this.running.delete(id);
    if (cancellation.aborted) {
      this.withdrawn.delete(id);
      return;
    }
    const reply = this.waiting.get(id);
    if (reply === undefined) return;
    this.waiting.delete(id);
    reply({ status: 200, body });
  }

  /** Serves a request as an SSE stream: its progress and other notifications, then its response. */
  private streamed(id: RequestId, message: JSONRPCMessage, extra: MessageExtraInfo): FastCall {
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.streams.set(id, controller);
      },
      cancel: () => this.abandon(id),
    });
    this.deliver(message, extra);
    return { reply: Promise.resolve({ status: 200, body: null, stream }), cancel: () => this.abandon(id) };
  }

  /** A streamed request whose client went away is cancelled; its late response is dropped. */
  private abandon(id: RequestId): void {
    if (!this.streams.delete(id)) return;
    this.withdraw(id);
    this.cancel(id, 'The HTTP request was aborted');
  }

  private withdraw(id: RequestId): void {
    this.withdrawn.add(id);
    // most cancelled handlers never answer: remember only the latest, oldest forgotten first
    if (this.withdrawn.size > MAX_WITHDRAWN) this.withdrawn.delete(this.withdrawn.values().next().value as RequestId);
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
        this.withdraw(requestId as RequestId);
        reply(ACCEPTED);
      }
      const stream = typeof requestId === 'string' || typeof requestId === 'number' ? this.streams.get(requestId) : undefined;
      if (stream !== undefined) {
        // a cancelled request gets no response: its stream ends here
        this.streams.delete(requestId as RequestId);
        this.withdraw(requestId as RequestId);
        stream.close();
      }
      const running = typeof requestId === 'string' || typeof requestId === 'number' ? this.running.get(requestId) : undefined;
      if (running !== undefined) {
        this.running.delete(requestId as RequestId);
        running.abort((message.params as { reason?: unknown }).reason);
      }
    }
    this.onmessage?.(message, extra);
  }

  /** The session ended: answers what is still waiting as the SDK would a request on a gone session. */
  private closed(): void {
    // Protocol aborts its handlers when the connection closes
    for (const cancellation of this.running.values()) cancellation.abort();
    this.running.clear();
    for (const reply of this.waiting.values()) reply(GONE);
    this.waiting.clear();
    for (const controller of this.streams.values()) {
      try {
        controller.close();
      } catch {
        // already closed by its reader
      }
    }
    this.streams.clear();
    this.onclose?.();
  }
}
