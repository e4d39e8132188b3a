// Windows and session pins: a new session goes to the most recently connected window and stays pinned to
// it for its lifetime, and only to the principal (client and grant) that created it; sessions of a crashed
// window are answered with an error once, then forgotten.

import { randomUUID } from 'node:crypto';
import type { WindowSettings } from '../window/call-context.js';
import type { ToolProfile } from '../settings/settings.js';
import type { Principal } from '../auth/principal.js';
import { WindowHandle, type ResponseSink, type WindowHealth } from './window.js';
import { covers, FenceLedger, type FenceTarget, type RevokedIds } from './fences.js';
import type { ForwardedRequest } from './protocol.js';
import type { ApprovalEntry } from '../window/approvals.js';
import type { ServerView } from '../broker/server-view.js';
import type { ViewQuery, ViewTopic } from './window-view.js';
import { log } from '../util/log.js';

/**
 * A window the front door routes to: an in-process WindowHandle, or a window of another athene process
 * reached through the broker (src/broker/remote-window.ts).
 */
export interface RoutedWindow extends FenceTarget {
  readonly id: string;
  readonly label: string;
  /** Its documents, the active one first. */
  readonly documents: readonly string[];
  /** Monotonic time it connected; the newest routable window takes new sessions. */
  readonly connectedAt: number;
  /** True for a quarantined remote window: never routed to, only fenced. */
  readonly quarantined?: boolean;
  /** A local window's state (live, restarting after a crash, failed); remote windows report none. */
  readonly health?: WindowHealth;
  /** Why the window takes no requests now (restarting, failed); null or absent while it is serving. */
  unavailable?(): string | null;
  /** Forwards one request; the returned function cancels it. */
  forward(request: ForwardedRequest, sink: ResponseSink): () => void;
  listApprovals(): Promise<ApprovalEntry[]>;
  decide(approvalId: string, approve: boolean): Promise<boolean>;
  closeSession(sessionId: string): void;
  /** Asks the window a question of the owner's server view (an error object when it cannot answer). */
  view(query: ViewQuery): Promise<unknown>;
  /**
   * A window of another process: listens to its announcements to the server view until the returned stop
   * is called or `ended` (its stream closed). A local window announces through the registry instead.
   */
  watch?(heard: (topics: readonly ViewTopic[]) => void, ended: () => void): () => void;
}

/** Hears what the server view shows moved: `windowId` names the window it moved in, null the front door's own state. */
export type ViewWatcher = (windowId: string | null, topics: readonly ViewTopic[]) => void;

/** Who created a session: a later request on it must come from the same kind of credential, client and grant. */
export interface PinOwner {
  readonly type: Principal['type'];
  readonly client_id: string;
  readonly grant_id: string | null;
}

/** A live pin's `lastUsed` (monotonic ms) and open event streams decide when it is idle. */
export type Pin =
  | { kind: 'live'; window: RoutedWindow; owner: PinOwner; lastUsed: number; streams: number; readonly about: SessionAbout }
  | { kind: 'crashed'; message: string; owner: PinOwner };

/** What the owner's server view shows of a session: who opened it, with which capabilities, since when (epoch ms). */
export interface SessionAbout {
  readonly name: string;
  readonly capabilities: readonly string[];
  readonly since: number;
}

/** One key per principal for the session caps: the static token is one principal, an OAuth grant another. */
export function ownerKey(o: PinOwner): string {
  return `${o.type} ${o.client_id} ${o.grant_id ?? ''}`;
}

export function pinOwner(p: Principal): PinOwner {
  return { type: p.type, client_id: p.client_id, grant_id: p.grant_id };
}

/** Null when `p` may use a session pinned to `owner`; else why not. */
export function pinRefusal(owner: PinOwner, p: Principal): string | null {
  if (owner.type !== p.type)
    return `this session was created with ${owner.type === 'oauth' ? 'an OAuth access token' : 'the static bearer token'}`;
  if (owner.client_id !== p.client_id) return 'this session belongs to another OAuth client';
  if (owner.grant_id !== p.grant_id) return 'this session belongs to another authorization grant of this client';
  return null;
}

export class WindowRegistry {
  private readonly windows: WindowHandle[] = [];
  /** Windows of other processes, attached by the broker (live and quarantined). */
  private readonly remote: RoutedWindow[] = [];
  private readonly pins = new Map<string, Pin>();
  /** Every commit fence of this process: windows get them all when they (re)start. */
  readonly fences = new FenceLedger();
  /** Told when a window starts or restarts, so fences it missed can be confirmed on it. */
  onWindowStarted: ((window: FenceTarget) => void) | null = null;
  /** Told when a window is gone for good (closed, or its process exited): it owes no fence any more. */
  onWindowGone: ((windowId: string) => void) | null = null;
  /** Answers a window's question how the endpoint is served (set by the server once its role is known). */
  describeServer: ((windowId: string) => Promise<ServerView>) | null = null;

  private readonly viewWatchers = new Set<ViewWatcher>();

  constructor(private settings: WindowSettings) {}

  /** Subscribes to the server view's announcements (windows, sessions); returns the unsubscribe. */
  watchView(watcher: ViewWatcher): () => void {
    this.viewWatchers.add(watcher);
    return () => {
      this.viewWatchers.delete(watcher);
    };
  }

  /** Tells the server view's watchers that `topics` moved (in window `windowId`, or in the front door's state when null). */
  announce(windowId: string | null, topics: readonly ViewTopic[]): void {
    for (const w of [...this.viewWatchers]) w(windowId, topics);
  }

  private sessionsMoved(windowId: string | null): void {
    this.announce(windowId, ['windows', 'clients', 'overview']);
  }

  get toolProfile(): ToolProfile {
    return this.settings.tool_profile ?? 'full';
  }

  /** The owner's choice of tool profile, for this process's windows now and for windows it opens later. */
  setToolProfile(profile: ToolProfile): void {
    this.settings = { ...this.settings, tool_profile: profile };
    for (const w of this.windows) w.setToolProfile(profile);
  }

  get writeModes(): { read_only: boolean; confirm_each_write: boolean } {
    return { read_only: this.settings.read_only, confirm_each_write: this.settings.confirm_each_write };
  }

  /** The owner switched read-only or confirm-each-write (server view): this process's windows now and later. */
  async setWriteModes(modes: { read_only: boolean; confirm_each_write: boolean }): Promise<void> {
    this.settings = { ...this.settings, ...modes };
    await Promise.all(this.all.map((w) => w.view({ kind: 'write-modes', ...modes })));
    this.announce(null, ['overview', 'windows']);
  }

  /** Opens a window on `files` and makes it the target of new sessions. */
  async open(files: readonly string[]): Promise<WindowHandle> {
    const w = new WindowHandle(
      randomUUID(),
      files,
      this.settings,
      {
        crashed: (win, err) => this.crashed(win, err),
        sessionClosed: (win, sid) => {
          if (this.pins.delete(sid)) this.sessionsMoved(win.id);
        },
        started: (win) => {
          this.onWindowStarted?.(win);
          this.announce(win.id, ['windows', 'changes', 'pending']);
        },
        viewChanged: (win, topics) => this.announce(win.id, topics),
        describeServer: (win) => this.describeServer?.(win.id) ?? Promise.resolve(null),
      },
      () => this.fences.all(),
    );
    await w.start();
    this.windows.push(w);
    return w;
  }

  /** Every window, this process's and other processes' (quarantined ones included). */
  get all(): readonly RoutedWindow[] {
    return this.remote.length === 0 ? this.windows : [...this.windows, ...this.remote];
  }

  /** This process's own windows. */
  get local(): readonly WindowHandle[] {
    return this.windows;
  }

  byId(id: string): RoutedWindow | undefined {
    return this.windows.find((w) => w.id === id) ?? this.remote.find((w) => w.id === id);
  }

  /** The window new sessions go to: the most recently connected one that is serving. */
  newest(): RoutedWindow | undefined {
    let best: RoutedWindow | undefined;
    for (const w of this.all) {
      if (w.quarantined === true || (w.unavailable?.() ?? null) !== null) continue;
      if (best === undefined || w.connectedAt >= best.connectedAt) best = w;
    }
    return best;
  }

  /** Adds another process's window (the broker registered it); fences it missed are confirmed on it. */
  attach(window: RoutedWindow): void {
    this.remote.push(window);
    this.onWindowStarted?.(window);
    this.announce(window.id, ['windows', 'overview']);
  }

  /** Removes another process's window and forgets the sessions pinned to it. */
  detach(window: RoutedWindow): void {
    const i = this.remote.indexOf(window);
    if (i >= 0) this.remote.splice(i, 1);
    for (const [sid, pin] of [...this.pins]) if (pin.kind === 'live' && pin.window === window) this.pins.delete(sid);
    this.onWindowGone?.(window.id);
    this.announce(window.id, ['windows', 'overview', 'clients', 'pending']);
  }

  /** Live sessions pinned to `window`. */
  sessionsOn(window: RoutedWindow): number {
    let n = 0;
    for (const p of this.pins.values()) if (p.kind === 'live' && p.window === window) n++;
    return n;
  }

  /** Every window a commit fence must reach, quarantined ones included. */
  fenceTargets(): readonly FenceTarget[] {
    return this.all;
  }

  /** Sessions ended for being idle since the start. */
  expired = 0;

  pin(sessionId: string, window: RoutedWindow, owner: PinOwner, about: SessionAbout): void {
    this.pins.set(sessionId, { kind: 'live', window, owner, lastUsed: performance.now(), streams: 0, about });
    this.sessionsMoved(window.id);
  }

  /** Every live session: id, window, owner, what the server view shows, and when it was last used (monotonic ms). */
  liveSessions(): { session_id: string; window_id: string; owner: PinOwner; about: SessionAbout; lastUsed: number }[] {
    const out: { session_id: string; window_id: string; owner: PinOwner; about: SessionAbout; lastUsed: number }[] = [];
    for (const [sid, p] of this.pins)
      if (p.kind === 'live') out.push({ session_id: sid, window_id: p.window.id, owner: p.owner, about: p.about, lastUsed: p.lastUsed });
    return out;
  }

  /** Live sessions of one principal (ownerKey). */
  sessionsOf(key: string): number {
    let n = 0;
    for (const p of this.pins.values()) if (p.kind === 'live' && ownerKey(p.owner) === key) n++;
    return n;
  }

  /** Ends sessions unused for `idleMs` with no open event stream; returns how many. */
  expireIdle(idleMs: number, now = performance.now()): number {
    let n = 0;
    for (const [sid, pin] of [...this.pins]) {
      if (pin.kind !== 'live' || pin.streams > 0 || now - pin.lastUsed < idleMs) continue;
      this.terminate(sid);
      n++;
    }
    this.expired += n;
    return n;
  }

  /** Ids of the live sessions an OAuth client created, for the internal client list. */
  sessionsOfClient(clientId: string): string[] {
    const out: string[] = [];
    for (const [sid, pin] of this.pins)
      if (pin.kind === 'live' && pin.owner.type === 'oauth' && pin.owner.client_id === clientId) out.push(sid);
    return out;
  }

  /** Ends one session at its window and forgets its pin; false when no such session is pinned. */
  terminate(sessionId: string): boolean {
    const pin = this.pins.get(sessionId);
    if (pin === undefined) return false;
    this.pins.delete(sessionId);
    if (pin.kind === 'live') {
      pin.window.closeSession(sessionId);
      this.sessionsMoved(pin.window.id);
    }
    return true;
  }

  /** Ends every session a revocation covers; returns how many. */
  dropSessions(revoked: RevokedIds): number {
    let n = 0;
    for (const [sid, pin] of [...this.pins]) {
      if (!covers(revoked, pin.owner)) continue;
      this.terminate(sid);
      n++;
    }
    return n;
  }

  pinOf(sessionId: string): Pin | undefined {
    return this.pins.get(sessionId);
  }

  /** Drops a pin (session ended, or a crash was reported to it). */
  unpin(sessionId: string): void {
    const pin = this.pins.get(sessionId);
    this.pins.delete(sessionId);
    if (pin?.kind === 'live') this.sessionsMoved(pin.window.id);
  }

  get sessionCount(): number {
    let n = 0;
    for (const p of this.pins.values()) if (p.kind === 'live') n++;
    return n;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.windows.map((w) => w.stop()));
  }

  /** Stops this process's windows and stops routing to them (a lingering broker serves other processes only). */
  async closeLocal(): Promise<void> {
    const closing = this.windows.splice(0, this.windows.length);
    const gone = new Set<RoutedWindow>(closing);
    for (const [sid, pin] of [...this.pins]) if (pin.kind === 'live' && gone.has(pin.window)) this.pins.delete(sid);
    await Promise.all(closing.map((w) => w.stop()));
    for (const w of closing) this.onWindowGone?.(w.id);
  }

  private crashed(window: WindowHandle, err: Error): void {
    log.warn(
      { window: window.id, reason: err.message, documents: window.documents },
      'window crashed; restarting from its saved documents',
    );
    for (const [sid, pin] of this.pins) {
      if (pin.kind === 'live' && pin.window === window)
        this.pins.set(sid, {
          kind: 'crashed',
          message: `The window of this session crashed (${err.message}) and was restarted; start a new session`,
          owner: pin.owner,
        });
    }
    this.sessionsMoved(window.id);
  }
}
