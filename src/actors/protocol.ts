// What crosses between the front door (main thread) and a window actor (Worker).
// The MCP traffic and one-way notices go over the Worker's port in batches (see Outbox): each postMessage
// carries a flat array of records, each a tag then its fields. The two per-call records, a forwarded request
// and a whole JSON reply, are flat runs of strings and numbers, which cost the structured clone a fraction
// of what nested objects do; the rest travel as message objects.
// Questions with an answer (the control plane: start, approvals, fences, audit counts, the owner's view, and
// the window's own question how the endpoint is served) go through comlink, each way on a port of its own.

import type { Principal } from '../auth/principal.js';
import type { WindowSettings } from '../window/call-context.js';
import type { ApprovalEntry } from '../window/approvals.js';
import type { Fence } from './fences.js';
import type { ToolProfile } from '../settings/settings.js';
import type { ServerView } from '../broker/server-view.js';
import type { ViewQuery, ViewTopic } from './window-view.js';
import type { MessagePort } from 'node:worker_threads';

export interface WindowInit {
  readonly windowId: string;
  /** Documents to open; the first becomes active. */
  readonly files: readonly string[];
  readonly settings: WindowSettings;
  /**
   * Names the window's job-artifact directory: a worker that dies (killed, out of memory) cannot dispose of its
   * state, so its actor removes the directory.
   */
  readonly artifactsId: string;
  /** Every commit fence issued so far: held before the window serves anything. */
  readonly fences: readonly Fence[];
  /** Where the window serves WindowControl. */
  readonly control: MessagePort;
  /** Where the front door serves FrontControl. */
  readonly front: MessagePort;
}

/** What a window answers the front door. */
export interface WindowControl {
  /** The active ontology's label, once the documents are open and the window serves; rejects when it could not start. */
  ready(): Promise<string>;
  listApprovals(): Promise<ApprovalEntry[]>;
  /** Audit events the window's thread lost (each unwritable event is skipped alone and counted). */
  auditLost(): Promise<number>;
  /** Whether the approval was pending (and is now decided). */
  decide(approvalId: string, approve: boolean): Promise<boolean>;
  /** Resolves once the window holds the commit fence. */
  fence(fence: Fence): Promise<void>;
  /** A question of the owner's server view (window-view.ts); a failure is answered as an error object. */
  view(query: ViewQuery): Promise<unknown>;
}

/** What the front door answers a window. */
export interface FrontControl {
  /** How the endpoint is served (get_session_info); null when nothing can say. */
  describeServer(): Promise<ServerView | null>;
}

export interface ForwardedRequest {
  readonly method: string;
  /** Path and query, e.g. `/mcp`. */
  readonly url: string;
  /** Flat name/value list (lower-case names). */
  readonly headers: readonly string[];
  readonly body: string | null;
  readonly principal: Principal;
}

export type ToWindow =
  | { readonly type: 'abort'; readonly id: number }
  | { readonly type: 'close-session'; readonly sessionId: string }
  /** The owner changed the tool profile: sessions are told their tool list changed. */
  | { readonly type: 'tool-profile'; readonly profile: ToolProfile }
  | { readonly type: 'shutdown' };

export type FromWindow =
  | { readonly type: 'head'; readonly id: number; readonly status: number; readonly headers: [string, string][] }
  /** A complete (non-streamed) response in one message. */
  | { readonly type: 'response'; readonly id: number; readonly status: number; readonly headers: [string, string][]; readonly body: string }
  | { readonly type: 'chunk'; readonly id: number; readonly data: Uint8Array }
  | { readonly type: 'end'; readonly id: number }
  | { readonly type: 'session-closed'; readonly sessionId: string }
  /** The local documents a restart would reopen (active first), sent after loads and saves. */
  | { readonly type: 'documents'; readonly files: string[] }
  /** Sent as the window shuts down: how many ontologies hold changes not saved to their documents. */
  | { readonly type: 'unsaved'; readonly ontologies: number }
  /** The change journal's recovery counts: entries replayed at start, entries waiting for the recovery tool. */
  | { readonly type: 'journal'; readonly recovered: number; readonly pending: number }
  /** What the owner's server view shows of the window moved (a commit, a save, a held write): pages refetch these topics. */
  | { readonly type: 'view-changed'; readonly topics: readonly ViewTopic[] };

/** Record tags. A message record is [MESSAGE, object]; the others are described at their writers. */
const MESSAGE = 0;
const REQUEST = 1;
const REPLY = 2;

export type Batch = unknown[];

export function putMessage(batch: Batch, m: ToWindow | FromWindow): void {
  batch.push(MESSAGE, m);
}

/**
 * [REQUEST, id, method, url, body, principal JSON, header count, ...name/value]. The principal goes as the
 * JSON text the sender cached for it: one string instead of an object and its capability list.
 */
export function putRequest(batch: Batch, id: number, r: ForwardedRequest, principalJson: string): void {
  batch.push(REQUEST, id, r.method, r.url, r.body, principalJson, r.headers.length);
  for (let i = 0; i < r.headers.length; i++) batch.push(r.headers[i]);
}

/** [REPLY, id, status, body]: a whole JSON answer (body null: none, as for 202). */
export function putReply(batch: Batch, id: number, status: number, body: string | null): void {
  batch.push(REPLY, id, status, body);
}

export interface WindowReceiver {
  message(m: ToWindow): void;
  request(id: number, r: ForwardedRequest): void;
}

export interface FrontReceiver {
  message(m: FromWindow): void;
  reply(id: number, status: number, body: string | null): void;
}

/** Reads a batch sent to a window; `principal` turns the principal JSON back into a principal. */
export function readToWindow(batch: Batch, to: WindowReceiver, principal: (json: string) => Principal): void {
  let i = 0;
  while (i < batch.length) {
    if (batch[i] === MESSAGE) {
      to.message(batch[i + 1] as ToWindow);
      i += 2;
      continue;
    }
    const count = batch[i + 6] as number;
    const headers = batch.slice(i + 7, i + 7 + count) as string[];
    to.request(batch[i + 1] as number, {
      method: batch[i + 2] as string,
      url: batch[i + 3] as string,
      body: batch[i + 4] as string | null,
      principal: principal(batch[i + 5] as string),
      headers,
    });
    i += 7 + count;
  }
}

export function readFromWindow(batch: Batch, to: FrontReceiver): void {
  let i = 0;
  while (i < batch.length) {
    if (batch[i] === MESSAGE) {
      to.message(batch[i + 1] as FromWindow);
      i += 2;
    } else {
      to.reply(batch[i + 1] as number, batch[i + 2] as number, batch[i + 3] as string | null);
      i += 4;
    }
  }
}
