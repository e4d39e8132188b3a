// A process that found a live broker: registers its windows (served by its Backend), heartbeats, and
// deregisters when it stops. An eviction (the broker marked it stale) is answered by registering again
// under fresh window secrets: the old endpoints stay quarantined at the broker until this process exits.

import http from 'node:http';
import { DIRECTORY_SECRET_HEADER } from '../auth/directory-secret.js';
import { readBrokerRecord, type BrokerRecord } from './broker-file.js';
import type { Backend } from './backend.js';
import { BROKER_PROTOCOL, HEARTBEAT_MS, loopbackFor } from './wire.js';
import type { Release } from './version.js';
import type { InstanceEntry } from './instances.js';
import { log } from '../util/log.js';

const REQUEST_TIMEOUT_MS = 3000;
/** Heartbeats in a row the broker may miss before this process counts it as gone. */
const LOST_AFTER_FAILURES = 3;

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** Why the broker refused: its own refusals say `message`, the route table's 403/405 `error_description`. */
function refusalText(answer: Answer): string {
  const { message, error_description: description, error } = answer.body;
  return String(message ?? description ?? error ?? `it answered ${answer.status}`);
}

export class BrokerRefused extends Error {
  override name = 'BrokerRefused';
}

/** The broker recorded in `home` if it answers a probe with the directory secret; else null. */
export async function findBroker(home: string, bind: string, directorySecret: string): Promise<BrokerRecord | null> {
  const record = await readBrokerRecord(home);
  if (record === null) return null;
  const answer = await call(baseOf(bind, record.port), 'GET', '/internal/broker', directorySecret, null).catch(() => null);
  if (answer === null || answer.status !== 200 || answer.body.pid !== record.pid) return null;
  return { ...record, protocol: typeof answer.body.protocol === 'number' ? answer.body.protocol : record.protocol };
}

export type TakeoverAnswer = { readonly granted: true } | { readonly granted: false; readonly reason: string };

/** Asks the live broker `record` to hand over its port to this (newer) release. */
export async function requestTakeover(
  record: BrokerRecord,
  bind: string,
  directorySecret: string,
  release: Release,
): Promise<TakeoverAnswer> {
  const answer = await call(baseOf(bind, record.port), 'POST', '/internal/takeover', directorySecret, {
    pid: process.pid,
    ...release,
  }).catch((err: Error): Answer => ({ status: 0, body: { message: `it could not be reached (${err.message})` } }));
  if (answer.status === 202) return { granted: true };
  return { granted: false, reason: refusalText(answer) };
}

function baseOf(bind: string, port: number): string {
  return `http://${loopbackFor(bind)}:${port}`;
}

function parseAnswer(status: number, text: string): Answer {
  let parsed: unknown = {};
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { message: text };
  }
  return { status, body: (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown> };
}

/**
 * One request to the broker on a connection of its own (no pooling): after a version takeover the next
 * heartbeat reaches whichever process owns the port now, and no idle connection keeps the old broker
 * answering, or running.
 */
function call(base: string, method: string, path: string, directorySecret: string, body: unknown): Promise<Answer> {
  const text = body === null ? '' : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      base + path,
      {
        method,
        agent: false,
        timeout: REQUEST_TIMEOUT_MS,
        headers: {
          [DIRECTORY_SECRET_HEADER]: directorySecret,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(text)),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(parseAnswer(res.statusCode ?? 502, Buffer.concat(chunks).toString('utf8'))));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(text);
  });
}

export class BrokerLink {
  private processId: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private beating = false;
  private failures = 0;
  private readonly base: string;
  /** Broker instance id of each window (window id → instance id), from the last answer. */
  instances: Record<string, string> = {};
  /** Told once when the broker stopped answering: heartbeats have stopped and the process must find a new home. */
  onLost: (() => void) | null = null;

  constructor(
    readonly broker: BrokerRecord,
    bind: string,
    private readonly directorySecret: string,
    private readonly backend: Backend,
  ) {
    this.base = baseOf(bind, broker.port);
  }

  get url(): string {
    return `${this.base}/mcp`;
  }

  /** Every window the broker routes to, as its `/instances` lists them; null when the broker does not answer. */
  async listInstances(): Promise<InstanceEntry[] | null> {
    const answer = await call(this.base, 'GET', '/internal/instances', this.directorySecret, null).catch(() => null);
    return answer !== null && answer.status === 200 && Array.isArray(answer.body.instances)
      ? (answer.body.instances as InstanceEntry[])
      : null;
  }

  /** Registers every window; throws BrokerRefused with the broker's reason (limits, sealed, …). */
  async register(): Promise<void> {
    const answer = await call(this.base, 'POST', '/internal/register', this.directorySecret, {
      pid: process.pid,
      port: this.backend.port,
      protocol: BROKER_PROTOCOL,
      windows: this.backend.specs(),
    });
    if (answer.status !== 201) throw new BrokerRefused(`the broker refused registration (${answer.status}): ${refusalText(answer)}`);
    this.accept(answer);
    if (this.timer === null) this.timer = setInterval(() => void this.heartbeat(), HEARTBEAT_MS);
  }

  /** Sends the current window list now (also after a window opened). */
  async heartbeat(): Promise<void> {
    if (this.beating || this.processId === null) return;
    this.beating = true;
    try {
      const answer = await call(this.base, 'POST', '/internal/heartbeat', this.directorySecret, {
        process_id: this.processId,
        windows: this.backend.specs(),
      });
      this.failures = 0;
      if (answer.status === 200) this.accept(answer);
      else if (answer.status === 410) {
        log.warn('the broker no longer knows this process; registering again under fresh window secrets');
        this.backend.rotate();
        await this.register();
      } else log.warn(`the broker refused a heartbeat (${answer.status}): ${refusalText(answer)}`);
    } catch (err) {
      if (++this.failures === LOST_AFTER_FAILURES) {
        log.warn(`the broker at ${this.base} is gone (${(err as Error).message})`);
        this.stopBeating();
        this.onLost?.();
      }
    } finally {
      this.beating = false;
    }
  }

  /** Stops heartbeating and tells the broker this process is leaving. */
  async close(): Promise<void> {
    this.stopBeating();
    if (this.processId === null) return;
    await call(this.base, 'POST', '/internal/deregister', this.directorySecret, { process_id: this.processId }).catch(() => undefined);
    this.processId = null;
  }

  private stopBeating(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private accept(answer: Answer): void {
    this.processId = String(answer.body.process_id);
    if (typeof answer.body.instances === 'object' && answer.body.instances !== null)
      this.instances = answer.body.instances as Record<string, string>;
  }
}
