// The front door's handle on one window actor: starts its Worker, forwards requests and routes the
// streamed responses back, asks it the control plane's questions (through comlink), and restarts the
// Worker from its last saved documents when it crashes, backing off between attempts; a window that keeps
// failing is marked failed and no longer retried.

import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { ApprovalEntry } from '../window/approvals.js';
import type { WindowSettings } from '../window/call-context.js';
import type { ToolProfile } from '../settings/settings.js';
import {
  putMessage,
  putRequest,
  readFromWindow,
  type Batch,
  type ForwardedRequest,
  type FrontControl,
  type FrontReceiver,
  type FromWindow,
  type ToWindow,
  type WindowControl,
  type WindowInit,
} from './protocol.js';
import type { Principal } from '../auth/principal.js';
import { Outbox } from './outbox.js';
import type { Fence, FenceTarget } from './fences.js';
import type { ServerView } from '../broker/server-view.js';
import { log } from '../util/log.js';
import { artifactsDir, artifactsParent } from '../jobs/artifacts.js';
import { ThreadLink, exposeOn } from '../util/thread-link.js';
import type { ViewQuery, ViewTopic } from './window-view.js';
import { unreachable } from '../util/unreachable.js';
import { currentWindowEntry } from './window-entry.js';

/** Where a forwarded request's response goes. */
export interface ResponseSink {
  /** A whole response at once. */
  complete(status: number, headers: [string, string][], body: string): void;
  /** A window's direct answer to an in-session POST: a JSON body for the request's session, or none. */
  reply(status: number, body: string | null): void;
  head(status: number, headers: [string, string][]): void;
  chunk(data: Uint8Array): void;
  end(): void;
  /** The window failed before or while answering (crash, shutdown). */
  fail(status: number, message: string): void;
}

export interface WindowEvents {
  /** The window's worker died; its sessions are gone. */
  crashed(window: WindowHandle, error: Error): void;
  sessionClosed(window: WindowHandle, sessionId: string): void;
  /** The worker is serving (first start or a restart after a crash); it holds every fence given at start. */
  started?(window: WindowHandle): void;
  /** What the server view shows of the window moved (commit, save, held write, documents, write modes). */
  viewChanged?(window: WindowHandle, topics: readonly ViewTopic[]): void;
  /** How the endpoint is served, for the window's question (FrontControl); null when nothing can say. */
  describeServer?(window: WindowHandle): Promise<ServerView | null>;
}

/** A window's real state, for routing, `/instances` and `/health`. */
export interface WindowHealth {
  readonly state: 'live' | 'restarting' | 'failed';
  /** Why it last crashed or failed to start; null when it never did. */
  readonly reason: string | null;
  /** Restart attempts so far. */
  readonly restarts: number;
}

/** The first restart waits this long; each failed attempt in a row doubles it, up to RESTART_MAX_MS. */
const RESTART_BASE_MS = 250;
const RESTART_MAX_MS = 5000;
/** Failed starts (or crashes within STABLE_MS of a start) in a row after which the window is marked failed. */
const MAX_FAILURES_IN_A_ROW = 4;
const STABLE_MS = 30_000;

/** Each principal's JSON text, made once per principal object (requests carry it as one string). */
const principalTexts = new WeakMap<Principal, string>();

function principalJson(p: Principal): string {
  let text = principalTexts.get(p);
  if (text === undefined) {
    text = JSON.stringify(p);
    principalTexts.set(p, text);
  }
  return text;
}

export class WindowHandle implements FenceTarget {
  private worker: Worker | null = null;
  /** The running worker's control plane. */
  private control: ThreadLink<WindowControl> | null = null;
  private nextId = 1;
  private readonly inFlight = new Map<number, ResponseSink>();
  private readonly outbox = new Outbox((batch) => this.worker?.postMessage(batch));
  private readonly receiver: FrontReceiver = {
    message: (m) => this.receive(m),
    reply: (id, status, body) => this.reply(id, status, body),
  };
  private files: string[];
  private stopping = false;
  private state: WindowHealth['state'] = 'live';
  private reason: string | null = null;
  private restarts = 0;
  /** Failed starts and early crashes in a row. */
  private failures = 0;
  private startedAt = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  label = '';
  /** The change journal's counts as the worker last reported them. */
  journal = { recovered: 0, pending_recovery: 0 };
  /** When the window (re)connected; the newest window takes new sessions. */
  connectedAt = 0;

  /** `fences` gives the commit fences a (re)started worker must hold before it serves. */
  constructor(
    readonly id: string,
    files: readonly string[],
    private settings: WindowSettings,
    private readonly events: WindowEvents,
    private readonly fences: () => readonly Fence[] = () => [],
  ) {
    this.files = [...files];
  }

  get documents(): readonly string[] {
    return this.files;
  }

  get pending(): number {
    return this.inFlight.size;
  }

  get health(): WindowHealth {
    return { state: this.state, reason: this.reason, restarts: this.restarts };
  }

  /** Why the window takes no requests now; null while it is live. */
  unavailable(): string | null {
    if (this.worker !== null) return null;
    if (this.state === 'failed') {
      return `Window ${this.id} failed: it could not be restarted after ${this.restarts} attempt(s) (${this.reason ?? 'unknown reason'}); it takes no requests`;
    }
    return `Window ${this.id} is restarting after a crash (${this.reason ?? 'unknown reason'}); retry shortly`;
  }

  /** Starts the worker and resolves once its documents are loaded. */
  start(): Promise<void> {
    const control = new MessageChannel();
    const front = new MessageChannel();
    const artifactsId = randomUUID();
    const init: WindowInit = {
      windowId: this.id,
      artifactsId,
      files: this.files,
      settings: this.settings,
      fences: this.fences(),
      control: control.port2,
      front: front.port2,
    };
    const worker = new Worker(currentWindowEntry(), { workerData: init, transferList: [control.port2, front.port2] });
    const link = new ThreadLink<WindowControl>(control.port1);
    this.serveFront(front.port1);
    this.worker = worker;
    this.control = link;
    let ready = false;
    worker.on('message', (batch: Batch) => readFromWindow(batch, this.receiver));
    worker.once('exit', () => {
      link.fail(new Error(`window ${this.id}: the worker is gone`));
      control.port1.close();
      front.port1.close();
      // a worker that closed disposed of its state; one that died left its private artifacts behind
      const dir = artifactsDir(artifactsParent(this.settings.audit_home ?? null), artifactsId);
      rm(dir, { recursive: true, force: true }).catch((err: Error) =>
        log.warn({ window: this.id, err: err.message }, 'cannot remove the job artifacts of an ended window'),
      );
    });
    return new Promise<void>((resolve, reject) => {
      const failStart = (err: Error) => {
        if (this.worker === worker) {
          this.worker = null;
          this.control = null;
        }
        reject(err);
      };
      link.call('ready').then(
        (label) => {
          ready = true;
          this.label = label;
          this.state = 'live';
          this.startedAt = performance.now();
          // a restart keeps its place in the routing order
          if (this.connectedAt === 0) this.connectedAt = performance.now();
          resolve();
          this.events.started?.(this);
        },
        (err: Error) => {
          void worker.terminate();
          failStart(new Error(`window ${this.id}: ${err.message}`));
        },
      );
      worker.once('error', (err) => (ready ? this.crash(worker, err) : failStart(err)));
      worker.once('exit', (code) =>
        ready
          ? this.crash(worker, new Error(`window worker exited with code ${code}`))
          : failStart(new Error(`window ${this.id}: worker exited with code ${code} while starting`)),
      );
    });
  }

  /** Answers the window's own questions on `port`. Always answers: one left unanswered would hang its get_session_info call. */
  private serveFront(port: MessagePort): void {
    const api: FrontControl = {
      describeServer: async () => {
        const ask = this.events.describeServer;
        return ask === undefined ? null : ask(this).catch(() => null);
      },
    };
    exposeOn(port, api);
  }

  forward(request: ForwardedRequest, sink: ResponseSink): () => void {
    const id = this.nextId++;
    const unavailable = this.unavailable();
    if (unavailable !== null) {
      sink.fail(503, unavailable);
      return () => undefined;
    }
    this.inFlight.set(id, sink);
    putRequest(this.outbox.open(), id, request, principalJson(request.principal));
    return () => {
      if (this.inFlight.delete(id)) this.send({ type: 'abort', id });
    };
  }

  listApprovals(): Promise<ApprovalEntry[]> {
    return this.ask(
      (w) => w.call('listApprovals'),
      () => [],
    );
  }

  /** Audit events this window's thread lost. */
  auditLost(): Promise<number> {
    return this.ask(
      (w) => w.call('auditLost'),
      () => 0,
    );
  }

  decide(approvalId: string, approve: boolean): Promise<boolean> {
    return this.ask(
      (w) => w.call('decide', approvalId, approve),
      () => false,
    );
  }

  /**
   * Asks the window a question of the owner's server view; an error object when the window is not running.
   * Switched write modes are kept here too, so a restarted worker starts with them.
   */
  view(query: ViewQuery): Promise<unknown> {
    if (query.kind === 'write-modes')
      this.settings = { ...this.settings, read_only: query.read_only, confirm_each_write: query.confirm_each_write };
    return this.ask(
      (w) => w.call('view', query),
      () => ({ error: this.unavailable() ?? 'The window is not running', error_code: 'window_unavailable' }),
    );
  }

  /** Resolves true once the worker holds the fence; false when the window is not running or crashed first. */
  fence(fence: Fence): Promise<boolean> {
    return this.ask(
      (w) => w.call('fence', fence).then(() => true),
      () => false,
    );
  }

  closeSession(sessionId: string): void {
    this.send({ type: 'close-session', sessionId });
  }

  /** The owner picked another tool profile: the worker tells its sessions; a restarted worker starts with it. */
  setToolProfile(profile: ToolProfile): void {
    this.settings = { ...this.settings, tool_profile: profile };
    this.send({ type: 'tool-profile', profile });
  }

  /** Asks the worker to close its sessions and exit; terminates it after `graceMs`. */
  async stop(graceMs = 2000): Promise<void> {
    this.stopping = true;
    if (this.restartTimer !== null) clearTimeout(this.restartTimer);
    const worker = this.worker;
    if (worker === null) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    this.send({ type: 'shutdown' });
    const timer = setTimeout(() => void worker.terminate(), graceMs);
    await exited;
    clearTimeout(timer);
  }

  /** The window's answer; `otherwise` when the window is not running, or stops before it answers. */
  private ask<T>(question: (w: ThreadLink<WindowControl>) => Promise<T>, otherwise: () => T): Promise<T> {
    if (this.worker === null || this.control === null) return Promise.resolve(otherwise());
    return question(this.control).catch(() => otherwise());
  }

  private send(m: ToWindow): void {
    if (this.worker !== null) putMessage(this.outbox.open(), m);
  }

  private reply(id: number, status: number, body: string | null): void {
    const sink = this.inFlight.get(id);
    this.inFlight.delete(id);
    sink?.reply(status, body);
  }

  private receive(m: FromWindow): void {
    switch (m.type) {
      case 'head':
        this.inFlight.get(m.id)?.head(m.status, m.headers);
        break;
      case 'response': {
        const sink = this.inFlight.get(m.id);
        this.inFlight.delete(m.id);
        sink?.complete(m.status, m.headers, m.body);
        break;
      }
      case 'chunk':
        this.inFlight.get(m.id)?.chunk(m.data);
        break;
      case 'end': {
        const sink = this.inFlight.get(m.id);
        this.inFlight.delete(m.id);
        sink?.end();
        break;
      }
      case 'session-closed':
        this.events.sessionClosed(this, m.sessionId);
        break;
      case 'documents':
        if (m.files.length > 0) this.files = m.files;
        this.events.viewChanged?.(this, ['windows']);
        break;
      case 'unsaved':
        if (m.ontologies > 0)
          log.warn({ window: this.id, unsaved_ontologies: m.ontologies, documents: this.files }, 'window stops with unsaved changes');
        break;
      case 'journal':
        this.journal = { recovered: m.recovered, pending_recovery: m.pending };
        break;
      case 'view-changed':
        this.events.viewChanged?.(this, m.topics);
        break;
      default:
        return unreachable(m);
    }
  }

  /** Fails everything in flight, tells the owner, and restarts from the last saved documents. */
  private crash(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.control = null;
    this.outbox.clear();
    for (const sink of this.inFlight.values()) sink.fail(500, `The window crashed (${error.message}); its sessions ended`);
    this.inFlight.clear();
    if (this.stopping) return;
    this.events.crashed(this, error);
    this.failures = performance.now() - this.startedAt < STABLE_MS ? this.failures + 1 : 0;
    this.scheduleRestart(error.message);
  }

  /** Restarts after a backoff, or gives up once starts keep failing. */
  private scheduleRestart(reason: string): void {
    this.reason = reason;
    if (this.failures >= MAX_FAILURES_IN_A_ROW) {
      this.state = 'failed';
      log.error(
        { window: this.id, failures: this.failures, restarts: this.restarts, reason },
        'window failed repeatedly and is not restarted again',
      );
      return;
    }
    this.state = 'restarting';
    const delay = Math.min(RESTART_BASE_MS * 2 ** this.failures, RESTART_MAX_MS);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.stopping) return;
      this.restarts++;
      this.start().catch((err: Error) => {
        log.warn({ window: this.id, restarts: this.restarts, reason: err.message }, 'window could not restart');
        this.failures++;
        this.scheduleRestart(err.message);
      });
    }, delay);
    this.restartTimer.unref();
  }
}
