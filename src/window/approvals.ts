// The pending-write approval queue of one window (TOOLS.md 1.2 step 4): a mutating call under "confirm each
// write" waits here until approved, declined, or timed out (which declines).

import { randomUUID } from 'node:crypto';

export interface ApprovalEntry {
  readonly approval_id: string;
  readonly instance_id: string;
  readonly session_id: string | null;
  readonly tool: string;
  readonly client: string;
  readonly summary: string;
  /** What the write would change, when its tool is rehearsed (ToolDefinition.rehearse); absent: the summary says. */
  readonly changes?: readonly { readonly op: string; readonly manchester: string }[];
  readonly created_at: string;
  readonly expires_at: string;
}

interface Pending {
  readonly entry: ApprovalEntry;
  readonly settle: (approved: boolean) => void;
  readonly timer: NodeJS.Timeout;
}

export class ApprovalQueue {
  private readonly pending = new Map<string, Pending>();

  /** `changed` hears of every entry held or settled (the server view shows held writes the moment they wait). */
  constructor(
    private readonly instanceId: string,
    private readonly changed: () => void = () => undefined,
  ) {}

  /**
   * Resolves true when approved, false when declined or after `timeoutMs`. An abort of `signal` (the call
   * was cancelled) withdraws the entry and resolves false, so a later approval finds nothing to approve.
   */
  request(
    req: {
      session_id: string | null;
      tool: string;
      client: string;
      summary: string;
      changes?: readonly { op: string; manchester: string }[];
    },
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<boolean> {
    const now = Date.now();
    const entry: ApprovalEntry = {
      approval_id: randomUUID(),
      instance_id: this.instanceId,
      ...req,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + timeoutMs).toISOString(),
    };
    return new Promise<boolean>((resolve) => {
      const settle = (approved: boolean) => {
        const p = this.pending.get(entry.approval_id);
        if (p === undefined) return;
        clearTimeout(p.timer);
        this.pending.delete(entry.approval_id);
        this.changed();
        resolve(approved);
      };
      if (signal?.aborted) {
        resolve(false);
        return;
      }
      const timer = setTimeout(() => settle(false), timeoutMs);
      this.pending.set(entry.approval_id, { entry, settle, timer });
      this.changed();
      signal?.addEventListener('abort', () => settle(false), { once: true });
    });
  }

  /** Entries ordered by creation time, then id. */
  list(): ApprovalEntry[] {
    return [...this.pending.values()]
      .map((p) => p.entry)
      .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.approval_id < b.approval_id ? -1 : 1));
  }

  /** Decides one entry; false when no such entry is pending. */
  decide(approvalId: string, approve: boolean): boolean {
    const p = this.pending.get(approvalId);
    if (p === undefined) return false;
    p.settle(approve);
    return true;
  }

  /** Declines everything (window shutting down). */
  declineAll(): void {
    for (const p of [...this.pending.values()]) p.settle(false);
  }
}
