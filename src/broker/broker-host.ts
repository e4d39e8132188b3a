// The broker role of the process that owns the configured port: the registration API under `/internal/`
// (the front door checks the directory secret; the paths are declared in src/http/front-door-routes.ts),
// the sweep that finds stale processes and retires endpoints whose PID is gone, the RemoteWindows it keeps
// attached to the window registry, and the idle linger before exit.

import http from 'node:http';
import type { WindowRegistry } from '../actors/registry.js';
import { sendJson, type Exchange } from '../http/respond.js';
import { BrokerRegistry, DEFAULT_LIMITS, type Outcome, type RegistryLimits } from './broker-registry.js';
import { removeBrokerRecord, writeBrokerRecord, type BrokerRecord } from './broker-file.js';
import { pidAlive } from '../util/pid-alive.js';
import { DeregisterSchema, HeartbeatSchema, RegisterSchema, TakeoverSchema, parseBody } from './registration.js';
import { RemoteWindow } from './remote-window.js';
import { describeInstances } from './instances.js';
import { BROKER_PROTOCOL, HEARTBEAT_MS } from './wire.js';
import { compareReleases, describeRelease, type Release } from './version.js';

/**
 * How long a registration or heartbeat answer waits for the broker's fences to be confirmed on the windows
 * it added (below the registering side's request timeout): a window that registers after a revocation
 * holds its fence before its process reports it is serving. Past this the fences stay pending and retried.
 */
const ADMISSION_WAIT_MS = 2000;

export interface BrokerHostOptions {
  readonly home: string;
  readonly port: number;
  readonly windows: WindowRegistry;
  /** This process's release, recorded in broker.json and compared by a takeover request. */
  readonly release: Release;
  /**
   * Sends every fence of this process to a window just attached; resolves true once it confirmed them all.
   * Called in the same turn as the attach, so no revocation falls between the two.
   */
  readonly admit: (window: RemoteWindow) => Promise<boolean>;
  readonly limits?: RegistryLimits | undefined;
  readonly isAlive?: (pid: number) => boolean;
}

export class BrokerHost {
  readonly registry: BrokerRegistry;
  readonly record: BrokerRecord;
  private readonly remotes = new Map<string, RemoteWindow>();
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  private readonly isAlive: (pid: number) => boolean;
  private timer: NodeJS.Timeout | null = null;
  /** Told when a newer athene was granted the port: the hosting process shuts down. */
  onTakeover: (() => void) | null = null;

  constructor(private readonly options: BrokerHostOptions) {
    this.registry = new BrokerRegistry(options.limits ?? { ...DEFAULT_LIMITS });
    this.isAlive = options.isAlive ?? pidAlive;
    this.record = {
      pid: process.pid,
      port: options.port,
      protocol: options.release.protocol,
      version: options.release.version,
      started_at: new Date().toISOString(),
    };
  }

  async start(): Promise<void> {
    await writeBrokerRecord(this.options.home, this.record);
    this.timer = setInterval(() => {
      if (this.registry.sweep(this.isAlive)) void this.sync();
    }, HEARTBEAT_MS);
  }

  /** Whether any endpoint is in revocation-only quarantine (journal compaction must wait). */
  hasQuarantine(): boolean {
    return this.registry.hasQuarantine();
  }

  /** `GET /internal/broker`: this broker's record and state. */
  describe(x: Exchange): void {
    sendJson(x, 200, {
      ...this.record,
      processes: this.registry.processCount,
      quarantine: this.registry.hasQuarantine(),
      sealed: this.registry.isSealed,
    });
  }

  /** `GET /internal/instances`: what `GET /instances` lists, for a registered process's get_session_info. */
  instances(x: Exchange): void {
    sendJson(x, 200, { instances: describeInstances(this.options.windows, this.registry) });
  }

  /** `POST /internal/takeover`. */
  takeoverRequest(x: Exchange, text: string): void {
    const body = parseBody(TakeoverSchema, text);
    if (!body.ok) return sendJson(x, 400, { error: 'invalid_request', message: body.message });
    this.takeover(x, body.value);
  }

  /** `POST /internal/register`. */
  register(x: Exchange, text: string): void {
    const body = parseBody(RegisterSchema, text);
    if (!body.ok) return sendJson(x, 400, { error: 'invalid_request', message: body.message });
    void this.answer(x, this.registry.register(body.value), 201);
  }

  /** `POST /internal/heartbeat`. */
  heartbeat(x: Exchange, text: string): void {
    const body = parseBody(HeartbeatSchema, text);
    if (!body.ok) return sendJson(x, 400, { error: 'invalid_request', message: body.message });
    void this.answer(x, this.registry.heartbeat(body.value), 200);
  }

  /** `POST /internal/deregister`. */
  deregister(x: Exchange, text: string): void {
    const body = parseBody(DeregisterSchema, text);
    if (!body.ok) return sendJson(x, 400, { error: 'invalid_request', message: body.message });
    void this.answer(x, this.registry.deregister(body.value.process_id), 200);
  }

  private async answer(
    x: Exchange,
    outcome: Outcome<{ id: string; live: Map<string, { id: string; windowId: string }> }>,
    status: number,
  ): Promise<void> {
    if (!outcome.ok) return sendJson(x, outcome.refusal.status, { error: outcome.refusal.error, message: outcome.refusal.message });
    await this.sync();
    const instances = Object.fromEntries([...outcome.value.live.values()].map((e) => [e.windowId, e.id]));
    sendJson(x, status, {
      process_id: outcome.value.id,
      instances,
      protocol: BROKER_PROTOCOL,
      heartbeat_ms: HEARTBEAT_MS,
      stale_after_ms: this.registry.limits.staleAfterMs,
    });
  }

  /** A newer athene asks for the port: refused to a release that is not newer, and while any endpoint is quarantined. */
  private takeover(x: Exchange, asking: Release): void {
    if (compareReleases(asking, this.options.release) <= 0) {
      return sendJson(x, 409, {
        error: 'not_newer',
        message: `Only a newer release takes the port over: this broker runs ${describeRelease(this.options.release)}, the request came from ${describeRelease(asking)}`,
      });
    }
    if (this.registry.hasQuarantine()) {
      return sendJson(x, 409, {
        error: 'quarantine',
        message: 'A quarantined endpoint remains (its process has not exited); the broker keeps the port until it does',
      });
    }
    this.registry.seal();
    sendJson(x, 202, { accepted: true, pid: process.pid });
    setImmediate(() => this.onTakeover?.());
  }

  /**
   * Keeps one RemoteWindow attached per endpoint the registry still reaches (live or quarantined); resolves
   * once the windows it attached confirmed every fence, or after ADMISSION_WAIT_MS.
   */
  private async sync(): Promise<void> {
    const present = new Set<string>();
    const admissions: Promise<boolean>[] = [];
    for (const e of this.registry.endpoints()) {
      present.add(e.id);
      if (this.remotes.has(e.id)) continue;
      const w = new RemoteWindow(e, this.agent, { sessionClosed: (_w, sid) => this.options.windows.unpin(sid) });
      this.remotes.set(e.id, w);
      this.options.windows.attach(w);
      admissions.push(this.options.admit(w));
    }
    for (const [id, w] of this.remotes) {
      if (present.has(id)) continue;
      this.remotes.delete(id);
      this.options.windows.detach(w);
    }
    if (admissions.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const bounded = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ADMISSION_WAIT_MS);
    });
    await Promise.race([Promise.all(admissions), bounded]);
    clearTimeout(timer);
  }

  /** Resolves once no process has been registered (live or quarantined) for `ms`; then registration is sealed. */
  async idleFor(ms: number): Promise<void> {
    let emptySince: number | null = null;
    for (;;) {
      const now = Date.now();
      if (!this.registry.empty) emptySince = null;
      else if (emptySince === null) emptySince = now;
      if (emptySince !== null && now - emptySince >= ms) break;
      await new Promise((r) => setTimeout(r, Math.min(250, Math.max(10, ms))));
    }
    this.registry.seal();
  }

  async close(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.registry.seal();
    this.agent.destroy();
    await removeBrokerRecord(this.options.home, process.pid);
  }
}
