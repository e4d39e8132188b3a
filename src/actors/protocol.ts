// Messages between the front door (main thread) and a window actor (Worker), over the Worker's port.

import type { Principal } from '../auth/principal.js';
import type { WindowSettings } from '../tools/tool.js';
import type { ApprovalEntry } from '../tools/approvals.js';

export interface WindowInit {
  readonly windowId: string;
  /** Documents to open; the first becomes active. */
  readonly files: readonly string[];
  readonly settings: WindowSettings;
}

export interface ForwardedRequest {
  readonly method: string;
  /** Path and query, e.g. `/mcp`. */
  readonly url: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string | null;
  readonly principal: Principal;
}

export type ToWindow =
  | { readonly type: 'request'; readonly id: number; readonly request: ForwardedRequest }
  | { readonly type: 'abort'; readonly id: number }
  | { readonly type: 'list-approvals'; readonly id: number }
  | { readonly type: 'decide'; readonly id: number; readonly approvalId: string; readonly approve: boolean }
  | { readonly type: 'close-session'; readonly sessionId: string }
  | { readonly type: 'shutdown' };

export type FromWindow =
  | { readonly type: 'ready'; readonly label: string }
  | { readonly type: 'start-failed'; readonly message: string }
  | { readonly type: 'head'; readonly id: number; readonly status: number; readonly headers: [string, string][] }
  /** A complete (non-streamed) response in one message: the common JSON case. */
  | { readonly type: 'response'; readonly id: number; readonly status: number; readonly headers: [string, string][]; readonly body: Uint8Array }
  | { readonly type: 'chunk'; readonly id: number; readonly data: Uint8Array }
  | { readonly type: 'end'; readonly id: number }
  | { readonly type: 'session-closed'; readonly sessionId: string }
  | { readonly type: 'approvals'; readonly id: number; readonly entries: ApprovalEntry[] }
  | { readonly type: 'decided'; readonly id: number; readonly found: boolean }
  /** The local documents a restart would reopen (active first), sent after loads and saves. */
  | { readonly type: 'documents'; readonly files: string[] };
