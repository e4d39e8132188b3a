// The revocation actor: a Worker that owns the OAuth state, its store and the revocation journal, and
// handles requests strictly one at a time, so refresh, code exchange and revocation are linearizable.
// A revocation is journaled durably before it is applied and acknowledged; every other change is
// persisted before it is acknowledged, and a failed write leaves the state as it was.

import { parentPort, workerData } from 'node:worker_threads';
import {
  applyRevocation, exchangeCode, issueCode, mintGrant, mintToken, mintTokens, refresh, register, revokeClient, revokeToken, sweep, touch,
  type OAuthState, type Transition,
} from '../oauth/state.js';
import { LowdbOAuthStore, clientsPath, type OAuthStore, type StoreFaults } from '../oauth/store.js';
import { JournalFullError, RevocationJournal, journalPath, type JournalFaults } from './journal.js';
import { EMPTY_DELTA, deltaOf, fullView, removedGrants, type ActorInit, type ActorRequest, type ActorResult, type FromActor, type ToActor, type ViewDelta } from './protocol.js';
import type { Revoked } from '../oauth/authority.js';

/** Entries that trigger a save and compaction; well under the journal's bound. */
const COMPACT_AT = 256;
/** Quiet time after which revocations (durable in the journal) are saved to clients.json. */
const SAVE_DELAY_MS = 100;

const port = parentPort!;
const init = workerData as ActorInit;
const storeFaults: StoreFaults = {};
const journalFaults: JournalFaults = {};

interface Reply {
  readonly result: ActorResult;
  readonly delta: ViewDelta;
  readonly revoked: readonly Revoked[];
}

function post(m: FromActor): void {
  port.postMessage(m);
}

function setFaults(f: ActorInit['faults']): void {
  storeFaults.failSave = f.failPersist === true;
  journalFaults.failAppend = f.failJournalAppend === true;
}

class Actor {
  /** Set while a quarantined endpoint may still hold revoked work: its revocations stay in the journal. */
  private compactionHeld = init.holdCompaction;

  /**
   * @param dirty whether the state holds changes clients.json does not: journaled revocations (the
   * journal keeps them durable meanwhile) or last-seen times
   */
  constructor(private state: OAuthState, private readonly store: OAuthStore, private readonly journal: RevocationJournal, private dirty: boolean) {}

  get current(): OAuthState {
    return this.state;
  }

  async handle(request: ActorRequest, now: number): Promise<Reply> {
    switch (request.op) {
      case 'register':
        return this.persisted(register(this.state, request.metadata, now, mintToken()));
      case 'issueCode': {
        const code = mintToken();
        const t = issueCode(this.state, request.request, now, code);
        return this.persisted({ ...t, outcome: t.outcome === true ? code : t.outcome });
      }
      case 'exchangeCode':
        return this.tokenOperation(exchangeCode(this.state, request.input, now, mintGrant()));
      case 'refresh':
        return this.tokenOperation(refresh(this.state, request.input, now, mintTokens()));
      case 'revokeToken':
        return this.revocation(revokeToken(this.state, request.token, request.client_id, now));
      case 'revokeClient':
        return this.revocation(revokeClient(this.state, request.client_id, now));
      case 'sweep':
        return this.persisted(sweep(this.state, now));
      case 'touch': {
        // last-seen is advisory: kept in memory and saved with the next write
        const t = touch(this.state, new Map(request.seen));
        if (t.state !== this.state) this.dirty = true;
        this.adopt(t);
        return { result: { ok: true, value: null }, delta: deltaOf(t.state, t.changes), revoked: [] };
      }
      case 'faults':
        setFaults(request.faults);
        return { result: { ok: true, value: null }, delta: EMPTY_DELTA, revoked: [] };
      case 'holdCompaction':
        this.compactionHeld = request.hold;
        return { result: { ok: true, value: null }, delta: EMPTY_DELTA, revoked: [] };
      case 'shutdown':
        await this.settle(true);
        await this.journal.close();
        return { result: { ok: true, value: null }, delta: EMPTY_DELTA, revoked: [] };
    }
  }

  /**
   * Saves the state if a save is owed, then compacts the journal: always when `all`, else once it has
   * grown to COMPACT_AT entries. A failure keeps both as they are, for the next attempt.
   */
  async settle(all: boolean): Promise<void> {
    if (this.dirty) {
      try {
        await this.store.save(this.state);
        this.dirty = false;
      } catch {
        return;
      }
    }
    if (!this.compactionHeld && this.journal.entries >= (all ? 1 : COMPACT_AT)) await this.journal.compact().catch(() => undefined);
  }

  /** Whether a save is owed (the idle loop calls `settle` then). */
  get owesSave(): boolean {
    return this.dirty;
  }

  private adopt(t: Transition<unknown>): Revoked[] {
    const revoked = removedGrants(this.state, t.state, t.changes);
    this.state = t.state;
    return revoked;
  }

  /** A change acknowledged only once saved; a revocation it carries (code or token reuse) is journaled first. */
  private async persisted(t: Transition<unknown>): Promise<Reply> {
    if (t.state === this.state) return { result: { ok: true, value: t.outcome }, delta: EMPTY_DELTA, revoked: [] };
    if (t.revocation !== undefined) {
      const failed = await this.journalFailure(t);
      if (failed !== null) return { result: { ok: false, message: failed }, delta: EMPTY_DELTA, revoked: [] };
    }
    let saved = true;
    try {
      await this.store.save(t.state);
    } catch (err) {
      if (t.revocation === undefined) return { result: { ok: false, message: `The client registry could not be saved: ${(err as Error).message}` }, delta: EMPTY_DELTA, revoked: [] };
      // the journal holds the revocation: adopt it and save later
      saved = false;
    }
    const revoked = this.adopt(t);
    this.dirty = !saved;
    if (saved) await this.settle(false);
    return { result: { ok: true, value: t.outcome }, delta: deltaOf(t.state, t.changes), revoked };
  }

  /** Token endpoint operations answer a failed write as the OAuth error `temporarily_unavailable`. */
  private async tokenOperation(t: Transition<unknown>): Promise<Reply> {
    const reply = await this.persisted(t);
    if (reply.result.ok) return reply;
    return { ...reply, result: { ok: true, value: { error: 'temporarily_unavailable', error_description: reply.result.message } } };
  }

  /** Journal (durably), then apply; the save follows when the actor is idle. */
  private async revocation(t: Transition<unknown>): Promise<Reply> {
    if (t.revocation === undefined) return { result: { ok: true, value: t.outcome }, delta: EMPTY_DELTA, revoked: [] };
    const failed = await this.journalFailure(t);
    if (failed !== null) return { result: { ok: false, message: failed }, delta: EMPTY_DELTA, revoked: [] };
    this.dirty = true;
    const revoked = this.adopt(t);
    if (this.journal.entries >= COMPACT_AT) await this.settle(false);
    // an admin "revoke client" is announced even when the client held no grant
    const announced = revoked.length === 0 && t.revocation.kind === 'revoke-client' && t.revocation.client_id !== null ? [{ client_id: t.revocation.client_id, grant_ids: [] }] : revoked;
    return { result: { ok: true, value: t.outcome }, delta: deltaOf(t.state, t.changes), revoked: announced };
  }

  /** Appends the transition's revocation; the reason it could not, or null once it is durable. */
  private async journalFailure(t: Transition<unknown>): Promise<string | null> {
    try {
      try {
        await this.journal.append(t.revocation!);
      } catch (err) {
        if (!(err instanceof JournalFullError)) throw err;
        // a full journal is emptied by a successful save; if the save fails, the append fails again
        await this.settle(true);
        await this.journal.append(t.revocation!);
      }
      return null;
    } catch (err) {
      if (err instanceof JournalFullError) return err.message;
      return `The revocation could not be journaled; nothing was revoked: ${(err as Error).message}`;
    }
  }
}

async function start(): Promise<Actor> {
  setFaults(init.faults);
  const store = new LowdbOAuthStore(clientsPath(init.home), storeFaults);
  let state = await store.load();
  const journal = await RevocationJournal.open(journalPath(init.home), journalFaults);
  for (const entry of journal.replay) state = applyRevocation(state, entry).state;
  // replayed revocations are in memory only; the journal keeps them until clients.json holds them too
  const actor = new Actor(state, store, journal, journal.entries > 0);
  await actor.settle(true);
  return actor;
}

async function main(): Promise<void> {
  let actor: Actor;
  try {
    actor = await start();
  } catch (err) {
    post({ type: 'start-failed', message: (err as Error).message });
    return;
  }
  // requests, and the deferred save of what revocations changed: handled strictly one at a time
  const queue: (ToActor | 'settle')[] = [];
  let running = false;
  let saveTimer: NodeJS.Timeout | null = null;
  const enqueue = (task: ToActor | 'settle'): void => {
    queue.push(task);
    if (!running) void drain();
  };
  const drain = async (): Promise<void> => {
    running = true;
    while (queue.length > 0) {
      const m = queue.shift()!;
      if (m === 'settle') {
        await actor.settle(false);
        continue;
      }
      let reply: Reply;
      try {
        reply = await actor.handle(m.request, m.now);
      } catch (err) {
        reply = { result: { ok: false, message: (err as Error).message }, delta: EMPTY_DELTA, revoked: [] };
      }
      post({ type: 'reply', id: m.id, ...reply });
      if (m.request.op === 'shutdown') {
        if (saveTimer !== null) clearTimeout(saveTimer);
        port.close();
        return;
      }
    }
    running = false;
    // the journal keeps revocations durable meanwhile, so the save waits for a pause and covers many
    if (actor.owesSave && saveTimer === null) {
      saveTimer = setTimeout(() => {
        saveTimer = null;
        enqueue('settle');
      }, SAVE_DELAY_MS);
    }
  };
  port.on('message', (m: ToActor) => enqueue(m));
  post({ type: 'ready', view: fullView(actor.current) });
}

void main();
