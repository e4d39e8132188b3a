// The server view's live updates: one Server-Sent Events stream per open page. Nothing is polled: windows
// announce what moved (a commit, a save, a held write, their sessions) through the registry, windows of
// other processes over a stream from their backend (through the broker), and the front door announces its
// own state (consent requests, clients, write modes); each announcement goes out as `changed` naming the
// topics, and the page refetches those. A reconnecting page gets `hello` and refetches everything, so
// nothing is missed while it was away. A stream whose owner session ended is closed.

import type { OwnerSessions } from '../auth/owner-session.js';
import type { RoutedWindow, WindowRegistry } from '../actors/registry.js';
import type { ViewTopic } from '../actors/window-view.js';
import { statusLine, type Exchange } from './respond.js';

/** Announcements within this long go out as one event: a burst of commits is one refetch. */
const GATHER_MS = 30;
/** A comment line this often keeps idle connections (and proxies) from timing the stream out, and finds ended sessions. */
const KEEPALIVE_MS = 15_000;
/** A remote window's announcement stream that ended while the window is still listed is reopened after this long. */
const REWATCH_MS = 1000;

interface Listener {
  readonly x: Exchange;
  readonly cookie: string;
}

export class ViewEvents {
  private readonly listeners = new Set<Listener>();
  private readonly gathered = new Set<ViewTopic>();
  private flushTimer: NodeJS.Timeout | null = null;
  private keepalive: NodeJS.Timeout | null = null;
  private unwatch: (() => void) | null = null;
  /** The announcement streams of other processes' windows, open while a page listens. */
  private readonly remote = new Map<RoutedWindow, () => void>();

  constructor(
    private readonly sessions: OwnerSessions,
    private readonly registry: WindowRegistry,
    private readonly streams: Set<Exchange>,
  ) {}

  open(x: Exchange, cookie: string): void {
    if (x.aborted || x.done) return;
    const listener = { x, cookie };
    x.res.onAborted(() => {
      x.aborted = true;
      this.drop(listener);
    });
    x.res.cork(() => {
      x.res
        .writeStatus(statusLine(200))
        .writeHeader('content-type', 'text/event-stream')
        .writeHeader('cache-control', 'no-store')
        .writeHeader('x-content-type-options', 'nosniff');
      x.res.write('retry: 1000\n\nevent: hello\ndata: {}\n\n');
    });
    this.listeners.add(listener);
    this.streams.add(x);
    if (this.unwatch === null) this.start();
  }

  /** Something the front door owns changed (a consent request, a client, the write modes): tell the pages. */
  announce(...topics: ViewTopic[]): void {
    if (this.listeners.size === 0) return;
    for (const t of topics) this.gathered.add(t);
    if (this.flushTimer === null) this.flushTimer = setTimeout(() => this.flush(), GATHER_MS);
  }

  private start(): void {
    this.unwatch = this.registry.watchView((_windowId, topics) => {
      if (topics.includes('windows')) this.watchRemote();
      this.announce(...topics);
    });
    this.keepalive = setInterval(() => this.send(': keepalive\n\n'), KEEPALIVE_MS);
    this.keepalive.unref();
    this.watchRemote();
  }

  private stop(): void {
    this.unwatch?.();
    this.unwatch = null;
    if (this.keepalive !== null) clearInterval(this.keepalive);
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.keepalive = this.flushTimer = null;
    this.gathered.clear();
    for (const stopWatching of this.remote.values()) stopWatching();
    this.remote.clear();
  }

  /** Opens an announcement stream to each listed window of another process, and closes those of windows gone. */
  private watchRemote(): void {
    const listed = new Set(this.registry.all);
    for (const [w, stopWatching] of this.remote) {
      if (listed.has(w) && w.quarantined !== true) continue;
      stopWatching();
      this.remote.delete(w);
    }
    for (const w of listed) {
      if (w.watch === undefined || w.quarantined === true || this.remote.has(w)) continue;
      this.remote.set(
        w,
        w.watch(
          (topics) => this.announce(...topics),
          () => this.rewatch(w),
        ),
      );
    }
  }

  /** A remote window's stream ended: while it is still listed and a page listens, reopen it and refetch what it shows. */
  private rewatch(w: RoutedWindow): void {
    if (!this.remote.has(w)) return;
    this.remote.delete(w);
    setTimeout(() => {
      if (this.unwatch === null) return;
      this.watchRemote();
      this.announce('windows', 'changes', 'pending');
    }, REWATCH_MS).unref();
  }

  private drop(listener: Listener): void {
    this.listeners.delete(listener);
    this.streams.delete(listener.x);
    if (this.listeners.size === 0) this.stop();
  }

  private flush(): void {
    this.flushTimer = null;
    if (this.gathered.size === 0) return;
    const topics = [...this.gathered];
    this.gathered.clear();
    this.send(`event: changed\ndata: ${JSON.stringify({ topics })}\n\n`);
  }

  /** Writes to every open page; a page whose owner session ended is told so and closed. */
  private send(message: string): void {
    for (const l of [...this.listeners]) {
      if (l.x.aborted || l.x.done) {
        this.drop(l);
        continue;
      }
      if (this.sessions.session(l.cookie) === null) {
        l.x.done = true;
        l.x.res.cork(() => l.x.res.end('event: signed-out\ndata: {}\n\n'));
        this.drop(l);
        continue;
      }
      l.x.res.cork(() => l.x.res.write(message));
    }
  }
}
