// Windows and session pins: a new session goes to the most recently connected window and stays pinned to
// it for its lifetime; sessions of a crashed window are answered with an error once, then forgotten.

import { randomUUID } from 'node:crypto';
import type { WindowSettings } from '../tools/tool.js';
import { WindowHandle } from './window.js';

export type Pin = { kind: 'live'; window: WindowHandle } | { kind: 'crashed'; message: string };

export class WindowRegistry {
  private readonly windows: WindowHandle[] = [];
  private readonly pins = new Map<string, Pin>();

  constructor(private readonly settings: WindowSettings) {}

  /** Opens a window on `files` and makes it the target of new sessions. */
  async open(files: readonly string[]): Promise<WindowHandle> {
    const w = new WindowHandle(randomUUID(), files, this.settings, {
      crashed: (win, err) => this.crashed(win, err),
      sessionClosed: (_win, sid) => this.pins.delete(sid),
    });
    await w.start();
    this.windows.push(w);
    return w;
  }

  get all(): readonly WindowHandle[] {
    return this.windows;
  }

  byId(id: string): WindowHandle | undefined {
    return this.windows.find((w) => w.id === id);
  }

  /** The window new sessions go to: the most recently connected one. */
  newest(): WindowHandle | undefined {
    let best: WindowHandle | undefined;
    for (const w of this.windows) if (best === undefined || w.connectedAt >= best.connectedAt) best = w;
    return best;
  }

  pin(sessionId: string, window: WindowHandle): void {
    this.pins.set(sessionId, { kind: 'live', window });
  }

  pinOf(sessionId: string): Pin | undefined {
    return this.pins.get(sessionId);
  }

  /** Drops a pin (session ended, or a crash was reported to it). */
  unpin(sessionId: string): void {
    this.pins.delete(sessionId);
  }

  get sessionCount(): number {
    let n = 0;
    for (const p of this.pins.values()) if (p.kind === 'live') n++;
    return n;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.windows.map((w) => w.stop()));
  }

  private crashed(window: WindowHandle, err: Error): void {
    process.stderr.write(`athene: window ${window.id} crashed (${err.message}); restarting from ${window.documents.join(', ') || 'nothing'}\n`);
    for (const [sid, pin] of this.pins) {
      if (pin.kind === 'live' && pin.window === window) this.pins.set(sid, { kind: 'crashed', message: `The window of this session crashed (${err.message}) and was restarted; start a new session` });
    }
  }
}
