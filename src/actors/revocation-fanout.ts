// What a revocation does beyond the authority's own state, run as its `onRevoked` listener (after the
// revocation is durable, before it is acknowledged): cut the principal's in-flight requests, drop its
// pinned sessions, and confirm a commit fence on every window. A window that does not confirm in time
// leaves the fence pending: persisted, retried periodically and whenever that window (re)starts.

import { fenceFor, type Fence, type FenceLedger, type FenceTarget, type RevokedIds } from './fences.js';
import { loadPendingFences, savePendingFences, MAX_PENDING_FENCES, type PendingFence } from './pending-fences.js';
import { log } from '../util/log.js';

export interface FanoutResult {
  readonly fence_id: string;
  /** True when at least one in-flight request was cut. */
  readonly in_flight_termination: boolean;
  readonly terminated_in_flight_requests: number;
  readonly dropped_sessions: number;
  /** Windows that confirmed the fence. */
  readonly fenced_windows: readonly string[];
  /** Windows that did not confirm in time or were unavailable: the fence stays pending for them. */
  readonly pending_windows: readonly string[];
}

export interface FanoutOptions {
  /** The private directory holding `fences.json`. */
  readonly home: string;
  /** Fences every (re)starting window receives; pending fences loaded at start are added to it. */
  readonly ledger: FenceLedger;
  /** Every window a fence must reach, now. */
  readonly targets: () => readonly FenceTarget[];
  readonly cutInFlight: (revoked: RevokedIds) => number;
  readonly dropSessions: (revoked: RevokedIds) => number;
  /** How long a window has to confirm before its fence is left pending (default 5 s). */
  readonly ackTimeoutMs?: number;
  /** How often pending fences are retried (default 10 s). */
  readonly retryIntervalMs?: number;
}

/** Results of recent client revocations, for the caller that asked for one (internal API). */
const RECENT_RESULTS = 256;

export class RevocationFanout {
  private readonly pending = new Map<string, PendingFence>();
  private readonly recent = new Map<string, FanoutResult>();
  private saving: Promise<void> = Promise.resolve();
  private retrying: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  private constructor(private readonly options: FanoutOptions) {}

  /** Loads the pending fences of `options.home` and starts retrying them. */
  static async open(options: FanoutOptions): Promise<RevocationFanout> {
    const fanout = new RevocationFanout(options);
    for (const p of await loadPendingFences(options.home)) {
      fanout.pending.set(p.fence.fence_id, p);
      options.ledger.add(p.fence);
    }
    fanout.timer = setInterval(() => void fanout.retry(), options.retryIntervalMs ?? 10_000);
    fanout.timer.unref();
    return fanout;
  }

  /** The authority's `onRevoked` listener. */
  readonly listener = async (revoked: RevokedIds): Promise<void> => {
    await this.revoked(revoked);
  };

  async revoked(revoked: RevokedIds): Promise<FanoutResult> {
    const fence = fenceFor(revoked);
    // in the ledger first: a window starting while the fence goes out holds it from its first request
    this.options.ledger.add(fence);
    const cut = this.options.cutInFlight(revoked);
    const dropped = this.options.dropSessions(revoked);
    const targets = this.options.targets();
    const acks = await Promise.all(targets.map((t) => this.deliver(t, fence)));
    const fenced: string[] = [];
    const unconfirmed: string[] = [];
    targets.forEach((t, i) => (acks[i] ? fenced : unconfirmed).push(t.id));
    if (unconfirmed.length > 0) {
      this.addPending(fence, unconfirmed);
      await this.save();
    }
    const result: FanoutResult = {
      fence_id: fence.fence_id,
      in_flight_termination: cut > 0,
      terminated_in_flight_requests: cut,
      dropped_sessions: dropped,
      fenced_windows: fenced,
      pending_windows: unconfirmed,
    };
    if (revoked.client_id !== null) this.remember(revoked.client_id, result);
    return result;
  }

  /** The fan-out result of the latest revocation of `clientId` (once: it is forgotten when taken). */
  takeResult(clientId: string): FanoutResult | undefined {
    const result = this.recent.get(clientId);
    this.recent.delete(clientId);
    return result;
  }

  /** Fences still waiting for a window's confirmation. */
  pendingFences(): readonly { fence: Fence; windows: readonly string[] }[] {
    return [...this.pending.values()].map((p) => ({ fence: p.fence, windows: [...p.windows].sort() }));
  }

  /** A window (re)started: retries the pending fences it has not confirmed. */
  async started(target: FenceTarget): Promise<void> {
    const owed = [...this.pending.values()].filter((p) => p.windows.has(target.id));
    await Promise.all(owed.map((p) => this.deliver(target, p.fence)));
    await this.saving;
  }

  /**
   * A window joined that did not start with this process's fences (a window of another process registering
   * with the broker): sends it every fence, one at a time; from the first it does not confirm on, the rest
   * become pending for it (it is unavailable: the retries take over).
   */
  async admit(target: FenceTarget): Promise<boolean> {
    const fences = [...this.options.ledger.all()];
    let sent = 0;
    for (const fence of fences) {
      if (!(await this.deliver(target, fence))) break;
      sent++;
    }
    for (const f of fences.slice(sent)) this.addPending(f, [target.id]);
    await (sent < fences.length ? this.save() : this.saving);
    return sent === fences.length;
  }

  /**
   * Windows that are gone for good (stopped with their process, or a quarantined window whose process
   * exited) can commit nothing more: their pending fences are dropped.
   */
  async forget(windowIds: readonly string[]): Promise<void> {
    let changed = false;
    for (const [fenceId, p] of [...this.pending]) {
      for (const id of windowIds) changed = p.windows.delete(id) || changed;
      if (p.windows.size === 0) this.pending.delete(fenceId);
    }
    if (changed) await this.save();
  }

  /** Retries every pending fence on the windows that are registered now (one round at a time). */
  retry(): Promise<void> {
    if (this.retrying !== null) return this.retrying;
    this.retrying = this.retryRound().finally(() => {
      this.retrying = null;
    });
    return this.retrying;
  }

  async close(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.retrying;
    await this.saving;
  }

  private async retryRound(): Promise<void> {
    const byId = new Map(this.options.targets().map((t) => [t.id, t]));
    const sends: Promise<boolean>[] = [];
    for (const p of [...this.pending.values()]) {
      for (const id of p.windows) {
        const target = byId.get(id);
        if (target !== undefined) sends.push(this.deliver(target, p.fence));
      }
    }
    await Promise.all(sends);
    await this.saving;
  }

  /**
   * Sends one fence and waits for the confirmation at most the ack timeout. A confirmation arriving later
   * still clears the fence from the pending file.
   */
  private deliver(target: FenceTarget, fence: Fence): Promise<boolean> {
    const confirmed = target
      .fence(fence)
      .catch(() => false)
      .then((ok) => {
        if (ok) this.confirm(fence.fence_id, target.id);
        return ok;
      });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.options.ackTimeoutMs ?? 5_000);
    });
    return Promise.race([confirmed, late]).finally(() => clearTimeout(timer));
  }

  private confirm(fenceId: string, windowId: string): void {
    const p = this.pending.get(fenceId);
    if (p === undefined || !p.windows.delete(windowId)) return;
    if (p.windows.size === 0) this.pending.delete(fenceId);
    void this.save();
  }

  private addPending(fence: Fence, windowIds: readonly string[]): void {
    let p = this.pending.get(fence.fence_id);
    if (p === undefined) {
      p = { fence, windows: new Set() };
      this.pending.set(fence.fence_id, p);
    }
    for (const id of windowIds) p.windows.add(id);
    for (const [id, old] of this.pending) {
      if (this.pending.size <= MAX_PENDING_FENCES) break;
      this.pending.delete(id);
      log.warn(
        `more than ${MAX_PENDING_FENCES} unconfirmed commit fences; dropped the oldest (${old.fence.fence_id}, windows ${[...old.windows].join(', ')})`,
      );
    }
  }

  /** Writes the pending set; writes are serialized, each one of the state when it runs. */
  private save(): Promise<void> {
    this.saving = this.saving
      .then(() => savePendingFences(this.options.home, this.pending.values()))
      .catch((err: Error) => {
        log.warn(`cannot persist pending commit fences: ${err.message}`);
      });
    return this.saving;
  }

  private remember(clientId: string, result: FanoutResult): void {
    this.recent.delete(clientId);
    this.recent.set(clientId, result);
    for (const id of this.recent.keys()) {
      if (this.recent.size <= RECENT_RESULTS) break;
      this.recent.delete(id);
    }
  }
}
