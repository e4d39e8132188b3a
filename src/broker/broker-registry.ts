// The broker's record of other athene processes and their windows' endpoints (explicit state, no I/O):
// registration with limits, heartbeats that add, keep, replace or remove endpoints, staleness, and the
// revocation-only quarantine. An endpoint removed or replaced by a heartbeat, and every endpoint of a stale
// or unregistered process, is quarantined: never routed to, still fenced, until its process's PID is gone;
// then it is retired (remembered so it cannot come back).

import { randomUUID } from 'node:crypto';
import { secretDigest } from './endpoint-secret.js';
import { RetiredEndpoints } from './retired-endpoints.js';
import type { HeartbeatBody, RegisterBody, WindowSpec } from './registration.js';

export type EndpointState = 'live' | 'quarantined';

/** One window of another process, as the broker reaches it. */
export interface Endpoint {
  /** The instance id clients see (`/instances/{id}/mcp`); a replaced endpoint gets a new one. */
  readonly id: string;
  readonly processId: string;
  readonly pid: number;
  /** The window's id inside its process (the backend route). */
  readonly windowId: string;
  readonly port: number;
  readonly secret: string;
  readonly digest: string;
  label: string;
  documents: readonly string[];
  legacyRequests: number;
  /** Monotonic (performance.now) time of registration: the newest live endpoint takes new sessions. */
  readonly connectedAt: number;
  state: EndpointState;
}

export type ProcessState = 'live' | 'stale' | 'unregistered';

export interface RegisteredProcess {
  readonly id: string;
  readonly pid: number;
  readonly port: number;
  readonly protocol: number;
  /** Epoch ms of the last registration or heartbeat. */
  lastHeartbeat: number;
  state: ProcessState;
  /** Live endpoints by window id. */
  readonly live: Map<string, Endpoint>;
  readonly quarantined: Endpoint[];
}

export interface RegistryLimits {
  readonly maxProcesses: number;
  readonly maxWindowsPerProcess: number;
  readonly retiredCapacity: number;
  /** A live process without a heartbeat for longer than this is stale. */
  readonly staleAfterMs: number;
}

export const DEFAULT_LIMITS: RegistryLimits = { maxProcesses: 32, maxWindowsPerProcess: 128, retiredCapacity: 4096, staleAfterMs: 5000 };

export interface Refusal {
  readonly status: number;
  readonly error: 'registration_limit' | 'registration_sealed' | 'endpoint_retired' | 'retired_endpoints_full' | 'unknown_process';
  readonly message: string;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

const refuse = <T>(status: number, error: Refusal['error'], message: string): Outcome<T> => ({
  ok: false,
  refusal: { status, error, message },
});

export class BrokerRegistry {
  private readonly processes = new Map<string, RegisteredProcess>();
  private readonly retired: RetiredEndpoints;
  private sealed = false;

  constructor(
    readonly limits: RegistryLimits = DEFAULT_LIMITS,
    private readonly clock: () => number = Date.now,
    private readonly monotonic: () => number = () => performance.now(),
  ) {
    this.retired = new RetiredEndpoints(limits.retiredCapacity);
  }

  register(body: RegisterBody): Outcome<RegisteredProcess> {
    if (this.sealed) return refuse(503, 'registration_sealed', 'Registration is sealed: the broker is shutting down');
    if (this.retired.full) {
      return refuse(
        503,
        'retired_endpoints_full',
        `The broker remembers ${this.retired.capacity} retired endpoints and can remember no more; it refuses registrations until it restarts`,
      );
    }
    if (this.processes.size >= this.limits.maxProcesses) {
      return refuse(
        429,
        'registration_limit',
        `At most ${this.limits.maxProcesses} processes can register with the broker; ${this.processes.size} are registered (quarantined ones count until their PID exits)`,
      );
    }
    const tooMany = this.windowLimit(body.windows.length);
    if (tooMany !== null) return tooMany;
    const clash = this.clash(body.windows, null);
    if (clash !== null) return clash;
    const p: RegisteredProcess = {
      id: randomUUID(),
      pid: body.pid,
      port: body.port,
      protocol: body.protocol,
      lastHeartbeat: this.clock(),
      state: 'live',
      live: new Map(),
      quarantined: [],
    };
    for (const spec of body.windows) p.live.set(spec.window_id, this.endpoint(p, spec));
    this.processes.set(p.id, p);
    return { ok: true, value: p };
  }

  /** Brings a live process's window list up to date; endpoints it drops or replaces are quarantined. */
  heartbeat(body: HeartbeatBody): Outcome<RegisteredProcess> {
    const p = this.processes.get(body.process_id);
    if (p === undefined || p.state !== 'live') {
      return refuse(
        410,
        'unknown_process',
        `Process ${body.process_id} is not registered (unknown, stale or deregistered); register again`,
      );
    }
    const tooMany = this.windowLimit(body.windows.length);
    if (tooMany !== null) return tooMany;
    const clash = this.clash(body.windows, p);
    if (clash !== null) return clash;
    if (this.sealed && body.windows.some((w) => p.live.get(w.window_id)?.digest !== digestHex(w.secret))) {
      return refuse(503, 'registration_sealed', 'Registration is sealed: the broker is shutting down');
    }
    const listed = new Set(body.windows.map((w) => w.window_id));
    for (const [windowId, e] of p.live) if (!listed.has(windowId)) this.quarantine(p, e);
    for (const spec of body.windows) {
      const current = p.live.get(spec.window_id);
      if (current !== undefined && current.digest === digestHex(spec.secret)) {
        current.label = spec.label;
        current.documents = spec.documents;
        current.legacyRequests = spec.legacy_requests;
        continue;
      }
      if (current !== undefined) this.quarantine(p, current);
      p.live.set(spec.window_id, this.endpoint(p, spec));
    }
    p.lastHeartbeat = this.clock();
    return { ok: true, value: p };
  }

  /** A process leaving: its endpoints stay quarantined until its PID exits. */
  deregister(processId: string): Outcome<RegisteredProcess> {
    const p = this.processes.get(processId);
    if (p === undefined) return refuse(410, 'unknown_process', `Process ${processId} is not registered`);
    p.state = 'unregistered';
    for (const e of [...p.live.values()]) this.quarantine(p, e);
    return { ok: true, value: p };
  }

  /**
   * Marks processes without a recent heartbeat stale (quarantining their endpoints) and retires the
   * quarantined endpoints of processes whose PID is gone. True when anything changed.
   */
  sweep(isAlive: (pid: number) => boolean): boolean {
    let changed = false;
    const now = this.clock();
    for (const p of [...this.processes.values()]) {
      if (p.state === 'live' && now - p.lastHeartbeat > this.limits.staleAfterMs) {
        p.state = 'stale';
        for (const e of [...p.live.values()]) this.quarantine(p, e);
        changed = true;
      }
      if (p.quarantined.length === 0 && p.state === 'live') continue;
      if (isAlive(p.pid)) continue;
      for (let first = p.quarantined[0]; first !== undefined && this.retired.add(first.digest); first = p.quarantined[0]) {
        p.quarantined.shift();
        changed = true;
      }
      if (p.state !== 'live' && p.quarantined.length === 0) {
        this.processes.delete(p.id);
        changed = true;
      }
    }
    return changed;
  }

  /** Every endpoint the broker still reaches: live ones (routable) and quarantined ones (fenced only). */
  *endpoints(): Iterable<Endpoint> {
    for (const p of this.processes.values()) {
      yield* p.live.values();
      yield* p.quarantined;
    }
  }

  process(id: string): RegisteredProcess | undefined {
    return this.processes.get(id);
  }

  get processCount(): number {
    return this.processes.size;
  }

  /** Whether any endpoint is quarantined: journal compaction and a version takeover must wait. */
  hasQuarantine(): boolean {
    for (const p of this.processes.values()) if (p.quarantined.length > 0) return true;
    return false;
  }

  /** No process is registered, live or quarantined. */
  get empty(): boolean {
    return this.processes.size === 0;
  }

  seal(): void {
    this.sealed = true;
  }

  get isSealed(): boolean {
    return this.sealed;
  }

  get retiredCount(): number {
    return this.retired.size;
  }

  private windowLimit(count: number): Outcome<never> | null {
    if (count <= this.limits.maxWindowsPerProcess) return null;
    return refuse(
      429,
      'registration_limit',
      `At most ${this.limits.maxWindowsPerProcess} windows per process can register with the broker; ${count} were offered`,
    );
  }

  /** A secret already retired, or held by an endpoint other than the same window of `owner`, is refused. */
  private clash(windows: readonly WindowSpec[], owner: RegisteredProcess | null): Outcome<never> | null {
    const seen = new Set<string>();
    for (const w of windows) {
      const d = digestHex(w.secret);
      if (seen.has(d) || seen.has('w:' + w.window_id))
        return refuse(400, 'endpoint_retired', `Window ${w.window_id} is listed twice or shares another window's secret`);
      seen.add(d);
      seen.add('w:' + w.window_id);
      if (this.retired.has(d))
        return refuse(
          409,
          'endpoint_retired',
          `The endpoint of window ${w.window_id} was retired and cannot register again; use a fresh secret`,
        );
      for (const e of this.endpoints()) {
        if (e.digest !== d) continue;
        const same = owner !== null && e.processId === owner.id && e.windowId === w.window_id && e.state === 'live';
        if (!same)
          return refuse(409, 'endpoint_retired', `The secret of window ${w.window_id} belongs to another endpoint; use a fresh secret`);
      }
    }
    return null;
  }

  private endpoint(p: RegisteredProcess, spec: WindowSpec): Endpoint {
    return {
      id: randomUUID(),
      processId: p.id,
      pid: p.pid,
      windowId: spec.window_id,
      port: p.port,
      secret: spec.secret,
      digest: digestHex(spec.secret),
      label: spec.label,
      documents: spec.documents,
      legacyRequests: spec.legacy_requests,
      connectedAt: this.monotonic(),
      state: 'live',
    };
  }

  private quarantine(p: RegisteredProcess, e: Endpoint): void {
    p.live.delete(e.windowId);
    e.state = 'quarantined';
    p.quarantined.push(e);
  }
}

function digestHex(secret: string): string {
  return secretDigest(secret).toString('hex');
}
