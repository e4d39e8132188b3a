// The main thread's handle on the revocation actor, implementing Authority. It starts the actor's Worker,
// forwards every state transition to it, and keeps the read view the front door consults per request:
// live access tokens by SHA-256 digest, and the client registrations. Each reply's view change is applied
// before the call resolves, and revocation listeners run in between, so a revoked client's tokens stop
// working before anyone is told the revocation succeeded.

import { stat } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import {
  AuthorityUnavailableError,
  type Authority,
  type ClientMetadata,
  type ClientRegistration,
  type ClientSummary,
  type CodeRequest,
  type IssuedTokens,
  type OAuthError,
  type RevocationResult,
  type Revoked,
} from '../oauth/authority.js';
import { PRINCIPAL_VERSION, type Principal } from '../principal.js';
import { hashToken, registrationExpired, type ClientRecord, type RevocationOutcome } from '../oauth/state.js';
import { acquireRegistryLock, type RegistryLock } from './registry-lock.js';
import { journalPath } from './journal.js';
import { clientsPath } from '../oauth/store.js';
import type { ActorApi, ActorFaults, ActorInit, ActorReply, ActorRequest, GrantView, ViewDelta } from './protocol.js';
import { log } from '../../util/log.js';
import { ThreadLink, crossesThreads } from '../../util/thread-link.js';

crossesThreads(AuthorityUnavailableError);

const WORKER_URL = new URL('./actor-worker.js', import.meta.url);
const SWEEP_INTERVAL_MS = 10 * 60_000;
const TOUCH_INTERVAL_MS = 5_000;
const MINUTE_MS = 60_000;

/** How a crashed actor is restarted: a doubling wait between attempts, and a cap per minute. */
export interface RestartPolicy {
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
  /** Restart attempts allowed within a minute; past that the authority stays down. */
  readonly perMinute: number;
}

const DEFAULT_RESTART_POLICY: RestartPolicy = { firstDelayMs: 100, maxDelayMs: 5_000, perMinute: 10 };

/** The wait before the n-th restart attempt (1-based) of the last minute. */
function restartDelay(policy: RestartPolicy, attempt: number): number {
  return Math.min(policy.firstDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
}

export interface RevocationActorOptions {
  /** The private directory holding clients.json and revocations.journal. */
  readonly home: string;
  /** Clock (epoch ms) for expiry, last-seen and cleanup; injected by tests. */
  readonly now?: () => number;
  readonly sweepIntervalMs?: number;
  /** How often last-seen times are handed to the actor. */
  readonly touchIntervalMs?: number;
  /** Fault injection for tests. */
  readonly faults?: ActorFaults;
  /** How a crashed actor is restarted; DEFAULT_RESTART_POLICY unless given. */
  readonly restart?: RestartPolicy;
}

export interface RevocationActor extends Authority {
  /** Runs the cleanup rules now (they also run at start and every 10 minutes). */
  sweep(): Promise<void>;
  /** Hands the last-seen times recorded so far to the actor. */
  flushLastSeen(): Promise<void>;
  /** Test hook: makes the real journal append or registry save fail from now on (or stop failing). */
  injectFaults(faults: ActorFaults): Promise<void>;
  /** While held, the journal is never compacted (a quarantined endpoint may still hold revoked work). */
  holdCompaction(hold: boolean): Promise<void>;
  /** The PID of the process owning this home's registry when it is not this one (OAuth then fails closed). */
  readonly standbyFor: number | null;
  /** Takes the registry over once its owner has exited; true when this process now owns it. */
  promote(): Promise<boolean>;
  /** Test hook: terminates the actor's worker thread (a real thread death), as a crash would. */
  crashForTest(): Promise<void>;
}

interface LiveToken {
  readonly principal: Principal;
  readonly expiresAt: number;
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

function registrationOf(c: ClientRecord): ClientRegistration {
  return {
    client_id: c.client_id,
    client_id_issued_at: c.client_id_issued_at,
    client_name: c.client_name,
    redirect_uris: c.redirect_uris,
    grant_types: c.grant_types,
    response_types: c.response_types,
    token_endpoint_auth_method: 'none',
    ...(c.scope === undefined ? {} : { scope: c.scope }),
  };
}

/** The main thread's copy of what requests need: tokens by digest, registrations, grant summaries. */
class ReadView {
  readonly tokens = new Map<string, LiveToken>();
  readonly clients = new Map<string, ClientRecord>();
  readonly grants = new Map<string, GrantView>();

  apply(delta: ViewDelta): void {
    for (const c of delta.clients) this.clients.set(c.client_id, c);
    for (const g of delta.grants) this.putGrant(g);
    for (const id of delta.removedGrants) this.removeGrant(id);
    for (const id of delta.removedClients) this.clients.delete(id);
  }

  private putGrant(g: GrantView): void {
    this.removeGrant(g.grant_id);
    this.grants.set(g.grant_id, g);
    const principal: Principal = Object.freeze({
      version: PRINCIPAL_VERSION,
      type: 'oauth',
      client_id: g.client_id,
      display_name: this.clients.get(g.client_id)?.client_name ?? g.client_id,
      grant_id: g.grant_id,
      capabilities: Object.freeze([...g.capabilities]),
      scope: g.scope,
    });
    this.tokens.set(g.access_hash, { principal, expiresAt: g.access_expires_at });
  }

  private removeGrant(id: string): void {
    const old = this.grants.get(id);
    if (old === undefined) return;
    this.tokens.delete(old.access_hash);
    this.grants.delete(id);
  }
}

class RevocationActorHandle implements Omit<RevocationActor, 'standbyFor' | 'promote'> {
  private readonly view = new ReadView();
  private readonly listeners: ((revoked: Revoked) => void | Promise<void>)[] = [];
  /** Last-seen times recorded by principalFor, not yet handed to the actor. */
  private seen = new Map<string, number>();
  private readonly timers: NodeJS.Timeout[] = [];
  /** Set when the worker is gone: every call fails and no token is accepted (fail closed). */
  private down: string | null = null;
  /** Set by close(): the worker's exit is then expected, not a crash. */
  private closing = false;
  private onCrash: ((reason: string) => void) | null = null;

  private readonly link: ThreadLink<ActorApi>;

  private constructor(
    private readonly worker: Worker,
    private readonly now: () => number,
  ) {
    this.link = new ThreadLink<ActorApi>(worker);
  }

  static async start(options: RevocationActorOptions, holdCompaction = false): Promise<RevocationActorHandle> {
    const init: ActorInit = { home: options.home, faults: options.faults ?? {}, holdCompaction };
    const worker = new Worker(WORKER_URL, { workerData: init });
    const handle = new RevocationActorHandle(worker, options.now ?? Date.now);
    let died: Error | null = null;
    const onError = (err: Error) => handle.link.fail((died ??= err));
    const onExit = (code: number) => handle.link.fail((died ??= new Error(`The revocation actor exited with code ${code} while starting`)));
    worker.once('error', onError);
    worker.once('exit', onExit);
    let view: ViewDelta;
    try {
      view = await handle.link.call('ready').catch((err: Error) => {
        if (err === died) throw err;
        void worker.terminate();
        throw new Error(`The revocation actor could not start: ${err.message}`);
      });
    } finally {
      worker.off('error', onError);
      worker.off('exit', onExit);
    }
    handle.view.apply(view);
    handle.listen();
    await handle.sweep();
    handle.every(options.sweepIntervalMs ?? SWEEP_INTERVAL_MS, () => handle.sweep());
    handle.every(options.touchIntervalMs ?? TOUCH_INTERVAL_MS, () => handle.flushLastSeen());
    return handle;
  }

  async register(metadata: ClientMetadata): Promise<ClientRegistration> {
    return (await this.value({ op: 'register', metadata })) as ClientRegistration;
  }

  client(clientId: string): ClientRegistration | undefined {
    const c = this.view.clients.get(clientId);
    return c === undefined || registrationExpired(c, this.now()) ? undefined : registrationOf(c);
  }

  unfinishedRegistrations(): number {
    const now = this.now();
    let n = 0;
    for (const c of this.view.clients.values()) if (c.authorized_at === null && !registrationExpired(c, now)) n++;
    return n;
  }

  async issueCode(request: CodeRequest): Promise<string> {
    const value = (await this.value({ op: 'issueCode', request })) as string | OAuthError;
    if (typeof value !== 'string') throw new Error(value.error_description);
    return value;
  }

  async exchangeCode(input: {
    client_id: string;
    code: string;
    redirect_uri: string;
    code_verifier: string;
  }): Promise<IssuedTokens | OAuthError> {
    return this.tokenCall({ op: 'exchangeCode', input });
  }

  async refresh(input: { client_id: string; refresh_token: string; scope?: string }): Promise<IssuedTokens | OAuthError> {
    return this.tokenCall({ op: 'refresh', input });
  }

  revokeToken(token: string, clientId?: string): Promise<RevocationResult> {
    return this.revocation(clientId === undefined ? { op: 'revokeToken', token } : { op: 'revokeToken', token, client_id: clientId });
  }

  revokeClient(clientId: string): Promise<RevocationResult> {
    return this.revocation({ op: 'revokeClient', client_id: clientId });
  }

  listClients(): readonly ClientSummary[] {
    const grantsOf = new Map<string, GrantView[]>();
    for (const g of this.view.grants.values()) {
      const list = grantsOf.get(g.client_id) ?? [];
      list.push(g);
      grantsOf.set(g.client_id, list);
    }
    return [...this.view.clients.values()].map((c) => {
      const seen = Math.max(c.last_seen ?? -Infinity, this.seen.get(c.client_id) ?? -Infinity);
      return {
        client_id: c.client_id,
        client_name: c.client_name,
        redirect_uris: c.redirect_uris,
        registered_at: iso(c.registered_at)!,
        last_seen_at: Number.isFinite(seen) ? iso(seen) : null,
        authorized: c.authorized_at !== null,
        grants: (grantsOf.get(c.client_id) ?? []).map((g) => ({
          grant_id: g.grant_id,
          scope: g.scope,
          capabilities: g.capabilities,
          created_at: iso(g.created_at)!,
        })),
      };
    });
  }

  principalFor(accessToken: string): Principal | null {
    if (this.down !== null) return null;
    // looked up by digest: the lookup's timing depends on the hash, never on the secret's characters
    const live = this.view.tokens.get(hashToken(accessToken));
    if (live === undefined) return null;
    const now = this.now();
    if (live.expiresAt <= now) return null;
    this.seen.set(live.principal.client_id, now);
    return live.principal;
  }

  onRevoked(listener: (revoked: Revoked) => void | Promise<void>): void {
    this.listeners.push(listener);
  }

  async sweep(): Promise<void> {
    await this.call({ op: 'sweep' });
  }

  async flushLastSeen(): Promise<void> {
    if (this.seen.size === 0 || this.down !== null) return;
    const seen = [...this.seen];
    this.seen = new Map();
    await this.call({ op: 'touch', seen });
  }

  async injectFaults(faults: ActorFaults): Promise<void> {
    await this.call({ op: 'faults', faults });
  }

  async holdCompaction(hold: boolean): Promise<void> {
    await this.call({ op: 'holdCompaction', hold });
  }

  async crashForTest(): Promise<void> {
    await this.worker.terminate();
  }

  /** Tells `onCrash` once when the worker dies other than through close(), at once if it already has. */
  superviseBy(onCrash: (reason: string) => void): void {
    if (this.down !== null && !this.closing) onCrash(this.down);
    else this.onCrash = onCrash;
  }

  async close(): Promise<void> {
    this.closing = true;
    this.stopTimers();
    if (this.down !== null) return;
    await this.flushLastSeen().catch(() => undefined);
    await this.call({ op: 'shutdown' }).catch(() => undefined);
    this.down = 'The revocation actor is closed';
    await this.worker.terminate();
  }

  private every(ms: number, task: () => Promise<void>): void {
    const timer = setInterval(() => void task().catch(() => undefined), ms);
    timer.unref();
    this.timers.push(timer);
  }

  private stopTimers(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers.length = 0;
  }

  private listen(): void {
    const fail = (reason: string) => {
      this.down ??= reason;
      this.stopTimers();
      this.link.fail(new AuthorityUnavailableError(this.down));
    };
    this.worker.on('error', (err) => fail(`The revocation actor failed: ${err.message}`));
    // an 'error' is always followed by 'exit': the crash is reported once, with the first reason
    this.worker.on('exit', (code) => {
      fail(`The revocation actor exited with code ${code}`);
      if (!this.closing) this.onCrash?.(this.down!);
      this.onCrash = null;
    });
  }

  /** Runs every listener on every revoked group; a failing listener does not undo a durable revocation. */
  private async announce(revoked: readonly Revoked[]): Promise<void> {
    if (revoked.length === 0 || this.listeners.length === 0) return;
    await Promise.allSettled(revoked.flatMap((r) => this.listeners.map(async (l) => l(r))));
  }

  /**
   * The actor's answer to `request`, once its view change is applied and the revocation listeners have run
   * (the view changes in the order the actor answered: every answer takes the same steps to get here).
   * A failed write rejects with AuthorityUnavailableError, as does a call to an actor that is gone.
   */
  private async value(request: ActorRequest): Promise<unknown> {
    if (this.down !== null) throw new AuthorityUnavailableError(this.down);
    const now = this.now();
    const reply: ActorReply = await this.link.call('handle', now, request);
    this.view.apply(reply.delta);
    await this.announce(reply.revoked);
    return reply.value;
  }

  /** Runs a request whose answer the caller does not need; a failed write is not an error here. */
  private async call(request: ActorRequest): Promise<void> {
    try {
      await this.value(request);
    } catch (err) {
      if (this.down !== null) throw err;
    }
  }

  private async tokenCall(request: ActorRequest): Promise<IssuedTokens | OAuthError> {
    try {
      return (await this.value(request)) as IssuedTokens | OAuthError;
    } catch (err) {
      if (err instanceof AuthorityUnavailableError) return { error: 'temporarily_unavailable', error_description: err.message };
      throw err;
    }
  }

  private async revocation(request: ActorRequest): Promise<RevocationResult> {
    try {
      const outcome = (await this.value(request)) as RevocationOutcome;
      return { ok: true, client_id: outcome.client_id, grant_ids: outcome.grant_ids };
    } catch (err) {
      if (err instanceof AuthorityUnavailableError) return { ok: false, error: 'temporarily_unavailable', message: err.message };
      throw err;
    }
  }
}

/** A wait that close() can cut short. */
class Pause {
  private timer: NodeJS.Timeout | null = null;
  private done: (() => void) | null = null;

  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.done = resolve;
      this.timer = setTimeout(resolve, ms);
      this.timer.unref();
    });
  }

  cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.done?.();
    this.timer = null;
    this.done = null;
  }
}

/** Bytes in `file`, 0 when it does not exist. */
async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
}

/**
 * Whether the home holds no OAuth state at all: no clients.json and no journaled revocation. Then no token
 * exists to accept or to revoke, and only this process (holding the registry lock) could create one.
 */
async function registryEmpty(home: string): Promise<boolean> {
  return (await sizeOf(clientsPath(home))) === 0 && (await sizeOf(journalPath(home))) === 0;
}

/**
 * The authority of one process: the actor when this process owns the home's registry, else a standby that
 * fails closed (no OAuth token is accepted, every operation is unavailable) until `promote` takes over.
 * It supervises the actor: a worker that dies is replaced by a new one on the same home (which reloads
 * clients.json and replays the journal), failing closed meanwhile, with the registry lock kept.
 * On a home with no OAuth state the actor starts on the first operation that needs it (most servers never
 * see an OAuth client); until then the empty view answers, which is what the actor would answer.
 */
class RegistryAuthority implements RevocationActor {
  private actor: RevocationActorHandle | null = null;
  /** Set while this process owns an empty registry whose actor has not started yet. */
  private deferred = false;
  private starting: Promise<RevocationActorHandle> | null = null;
  private lock: RegistryLock | null = null;
  private readonly listeners: ((revoked: Revoked) => void | Promise<void>)[] = [];
  private held = false;
  private closed = false;
  /** Why OAuth is unavailable while this process owns the registry: the actor is restarting, or gave up. */
  private outage: string | null = null;
  /** Start times (epoch ms) of the restart attempts of the last minute. */
  private attempts: number[] = [];
  private restarting: Promise<void> | null = null;
  private readonly pause = new Pause();
  standbyFor: number | null = null;

  constructor(private readonly options: RevocationActorOptions) {}

  async promote(): Promise<boolean> {
    if (this.lock !== null) return true;
    if (this.closed) return false;
    const outcome = await acquireRegistryLock(this.options.home);
    if (!outcome.held) {
      this.standbyFor = outcome.owner;
      return false;
    }
    let actor: RevocationActorHandle | null = null;
    try {
      if (!(await registryEmpty(this.options.home))) actor = await RevocationActorHandle.start(this.options, this.held);
    } catch (err) {
      await outcome.lock.release();
      throw err;
    }
    this.lock = outcome.lock;
    this.standbyFor = null;
    if (actor === null) this.deferred = true;
    else await this.attach(actor);
    return true;
  }

  /**
   * The actor, started now when it was deferred; null on a standby or during an outage. A deferred start
   * that fails is an outage of this call only: the next one tries again.
   */
  private async started(): Promise<RevocationActorHandle | null> {
    if (this.actor !== null || !this.deferred) return this.actor;
    // after close() the lock is released: no actor may start on the home
    if (this.closed) throw new AuthorityUnavailableError('The revocation actor is closed');
    this.starting ??= RevocationActorHandle.start(this.options, this.held).then(
      async (actor) => {
        if (this.closed) {
          await actor.close();
          throw new AuthorityUnavailableError('The revocation actor is closed');
        }
        this.deferred = false;
        await this.attach(actor);
        return actor;
      },
      (err: Error) => {
        this.starting = null;
        throw new AuthorityUnavailableError(`The revocation actor could not start: ${err.message}`);
      },
    );
    return this.starting;
  }

  /** Hands a started actor the listeners and the compaction hold, serves from it, and watches it for a crash. */
  private async attach(actor: RevocationActorHandle): Promise<void> {
    for (const l of this.listeners) actor.onRevoked(l);
    // the hold fails only when the worker has died, which superviseBy below then reports as a crash
    const held = this.held;
    if (held) await actor.holdCompaction(true).catch(() => undefined);
    if (this.held !== held) await actor.holdCompaction(this.held).catch(() => undefined);
    this.actor = actor;
    this.outage = null;
    actor.superviseBy((reason) => this.crashed(actor, reason));
  }

  private crashed(actor: RevocationActorHandle, reason: string): void {
    if (this.actor !== actor || this.closed) return;
    // fail closed from here: no token is accepted and every operation is temporarily unavailable
    this.actor = null;
    this.outage = `${reason}; OAuth is restarting`;
    log.warn(`${reason}; restarting it`);
    const run = this.restart();
    this.restarting = run;
    void run.finally(() => {
      if (this.restarting === run) this.restarting = null;
    });
  }

  /** Starts a new actor on the same home, with a doubling wait, until one runs or the cap is reached. */
  private async restart(): Promise<void> {
    const policy = this.options.restart ?? DEFAULT_RESTART_POLICY;
    while (!this.closed) {
      const now = Date.now();
      this.attempts = this.attempts.filter((t) => now - t < MINUTE_MS);
      if (this.attempts.length >= policy.perMinute) {
        this.outage = `The revocation actor died again after ${policy.perMinute} restart attempts within a minute; OAuth stays unavailable until the server restarts (the static bearer token works)`;
        log.warn(`${this.outage}`);
        return;
      }
      this.attempts.push(now);
      await this.pause.wait(restartDelay(policy, this.attempts.length));
      if (this.closed) return;
      let actor: RevocationActorHandle;
      try {
        actor = await RevocationActorHandle.start(this.options, this.held);
      } catch (err) {
        log.warn(`the revocation actor could not restart: ${(err as Error).message}`);
        continue;
      }
      if (this.closed) {
        await actor.close();
        return;
      }
      log.warn('the revocation actor restarted');
      await this.attach(actor);
      return;
    }
  }

  private get unavailable(): string {
    return (
      this.outage ??
      `OAuth is served by the process that owns ${this.options.home} (pid ${this.standbyFor ?? '?'}); use the static bearer token here`
    );
  }

  /** `use` on the actor, or `unavailable` with the reason there is none (a standby, an outage, a failed start). */
  private async attempt<T>(use: (actor: RevocationActorHandle) => Promise<T>, unavailable: (message: string) => T): Promise<T> {
    let actor: RevocationActorHandle | null;
    try {
      actor = await this.started();
    } catch (err) {
      return unavailable((err as Error).message);
    }
    return actor === null ? unavailable(this.unavailable) : use(actor);
  }

  private async live(): Promise<RevocationActorHandle> {
    const actor = await this.started();
    if (actor === null) throw new AuthorityUnavailableError(this.unavailable);
    return actor;
  }

  async register(metadata: ClientMetadata): Promise<ClientRegistration> {
    return (await this.live()).register(metadata);
  }

  client(clientId: string): ClientRegistration | undefined {
    return this.actor?.client(clientId);
  }

  unfinishedRegistrations(): number {
    return this.actor?.unfinishedRegistrations() ?? 0;
  }

  async issueCode(request: CodeRequest): Promise<string> {
    return (await this.live()).issueCode(request);
  }

  async exchangeCode(input: {
    client_id: string;
    code: string;
    redirect_uri: string;
    code_verifier: string;
  }): Promise<IssuedTokens | OAuthError> {
    return this.attempt(
      (actor) => actor.exchangeCode(input),
      (message) => ({ error: 'temporarily_unavailable', error_description: message }),
    );
  }

  async refresh(input: { client_id: string; refresh_token: string; scope?: string }): Promise<IssuedTokens | OAuthError> {
    return this.attempt(
      (actor) => actor.refresh(input),
      (message) => ({ error: 'temporarily_unavailable', error_description: message }),
    );
  }

  async revokeToken(token: string, clientId?: string): Promise<RevocationResult> {
    return this.attempt(
      (actor) => actor.revokeToken(token, clientId),
      (message) => ({ ok: false, error: 'temporarily_unavailable', message }),
    );
  }

  async revokeClient(clientId: string): Promise<RevocationResult> {
    return this.attempt(
      (actor) => actor.revokeClient(clientId),
      (message) => ({ ok: false, error: 'temporarily_unavailable', message }),
    );
  }

  listClients(): readonly ClientSummary[] {
    return this.actor?.listClients() ?? [];
  }

  principalFor(accessToken: string): Principal | null {
    return this.actor?.principalFor(accessToken) ?? null;
  }

  onRevoked(listener: (revoked: Revoked) => void | Promise<void>): void {
    this.listeners.push(listener);
    this.actor?.onRevoked(listener);
  }

  async sweep(): Promise<void> {
    await this.actor?.sweep();
  }

  async flushLastSeen(): Promise<void> {
    await this.actor?.flushLastSeen();
  }

  async injectFaults(faults: ActorFaults): Promise<void> {
    await (await this.live()).injectFaults(faults);
  }

  async holdCompaction(hold: boolean): Promise<void> {
    this.held = hold;
    await this.actor?.holdCompaction(hold);
  }

  async crashForTest(): Promise<void> {
    await (await this.live()).crashForTest();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.pause.cancel();
    await this.restarting;
    await this.starting?.catch(() => undefined);
    await this.actor?.close();
    await this.lock?.release();
    this.actor = null;
    this.lock = null;
  }
}

/**
 * Starts the revocation actor on `home` (loads clients.json, replays the journal, sweeps, then serves), or
 * a standby when another live process owns that home's registry.
 */
export async function startRevocationActor(options: RevocationActorOptions): Promise<RevocationActor> {
  const authority = new RegistryAuthority(options);
  await authority.promote();
  return authority;
}
