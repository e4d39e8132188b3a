// The server view's live updates: one Server-Sent Events stream per open page. While any page listens, a
// short tick compares a fingerprint of each topic (held writes, consent requests, clients and sessions,
// windows and their revisions, write modes) with the last one and sends `changed` naming the topics that
// moved; the page refetches those. A reconnecting page gets `hello` and refetches everything, so nothing is
// missed while it was away. A stream whose owner session ended is closed.

import type { OwnerSessions } from '../auth/owner-session.js';
import type { Authority } from '../auth/oauth/authority.js';
import type { ConsentRequests } from '../auth/oauth/consent-requests.js';
import type { WindowRegistry } from '../actors/registry.js';
import type { Pulse } from '../actors/window-view.js';
import { statusLine, type Exchange } from './respond.js';

export type Topic = 'overview' | 'pending' | 'consent' | 'clients' | 'windows' | 'changes';

const TICK_MS = 250;
/** A comment line this often keeps idle connections (and proxies) from timing the stream out. */
const KEEPALIVE_TICKS = 60;

interface Listener {
  readonly x: Exchange;
  readonly cookie: string;
}

export class ViewEvents {
  private readonly listeners = new Set<Listener>();
  private readonly last = new Map<Topic, string>();
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<void> | null = null;
  private again = false;
  private ticks = 0;

  constructor(private readonly sessions: OwnerSessions, private readonly registry: WindowRegistry, private readonly consents: ConsentRequests,
    private readonly authority: Authority, private readonly streams: Set<Exchange>) {}

  open(x: Exchange, cookie: string): void {
    if (x.aborted || x.done) return;
    const listener = { x, cookie };
    this.listeners.add(listener);
    this.streams.add(x);
    x.res.onAborted(() => {
      x.aborted = true;
      this.drop(listener);
    });
    x.res.cork(() => {
      x.res.writeStatus(statusLine(200)).writeHeader('content-type', 'text/event-stream').writeHeader('cache-control', 'no-store')
        .writeHeader('x-content-type-options', 'nosniff');
      x.res.write('retry: 1000\n\n');
    });
    if (this.timer === null) {
      this.timer = setInterval(() => void this.tick(), TICK_MS);
      this.timer.unref();
    }
    // `hello` leaves once the fingerprints it is compared against are taken: a change right after it is announced
    void this.tick().then(() => {
      if (!x.aborted && !x.done) x.res.cork(() => x.res.write('event: hello\ndata: {}\n\n'));
    });
  }

  /** Something changed by the page's own action: look now rather than at the next tick. */
  poke(): void {
    if (this.listeners.size > 0) void this.tick();
  }

  private drop(listener: Listener): void {
    this.listeners.delete(listener);
    this.streams.delete(listener.x);
    if (this.listeners.size === 0 && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
      this.last.clear();
    }
  }

  /** Compares now; resolves when a comparison that started after this call has finished. */
  private tick(): Promise<void> {
    if (this.current !== null) {
      this.again = true;
      return this.current;
    }
    this.current = (async () => {
      try {
        do {
          this.again = false;
          await this.compare();
        } while (this.again);
      } finally {
        this.current = null;
      }
    })();
    return this.current;
  }

  private async compare(): Promise<void> {
    const prints = await this.fingerprints();
    const moved: Topic[] = [];
    for (const [topic, print] of prints) {
      if (this.last.has(topic) && this.last.get(topic) !== print) moved.push(topic);
      this.last.set(topic, print);
    }
    const keepalive = ++this.ticks % KEEPALIVE_TICKS === 0;
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
      const message = moved.length > 0 ? `event: changed\ndata: ${JSON.stringify({ topics: moved })}\n\n` : keepalive ? ': keepalive\n\n' : null;
      if (message !== null) l.x.res.cork(() => l.x.res.write(message));
    }
  }

  private async fingerprints(): Promise<Map<Topic, string>> {
    const windows = this.registry.all;
    const [approvals, pulses] = await Promise.all([
      Promise.all(windows.map((w) => w.listApprovals().catch(() => []))),
      Promise.all(this.registry.local.map((w) => (w.unavailable() === null ? w.view({ kind: 'pulse' }) : Promise.resolve(null)))),
    ]);
    const revisions = this.registry.local.map((w, i) => {
      const p = pulses[i] as Pulse | null;
      return `${w.id}:${p?.revision ?? '-'}:${p?.dirty ?? '-'}`;
    });
    const sessions = this.registry.liveSessions().map((s) => s.session_id).sort();
    const modes = this.registry.writeModes;
    return new Map<Topic, string>([
      ['overview', `${modes.read_only}:${modes.confirm_each_write}:${sessions.length}:${windows.length}`],
      ['pending', approvals.flat().map((a) => a.approval_id).join(',')],
      ['consent', this.consents.pending().map((c) => c.id).join(',')],
      ['clients', JSON.stringify([this.authority.listClients().map((c) => [c.client_id, c.grants.length, c.last_seen_at]), sessions])],
      ['windows', JSON.stringify([windows.map((w) => [w.id, w.health?.state ?? 'live', w.label, w.documents.length]), revisions, sessions.length])],
      ['changes', revisions.join(',')],
    ]);
  }
}
