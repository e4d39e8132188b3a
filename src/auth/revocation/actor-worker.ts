// The revocation actor: a Worker that owns the OAuth state, its store and the revocation journal, and
// handles requests strictly one at a time, so refresh, code exchange and revocation are linearizable.
// A revocation is journaled durably before it is applied and acknowledged; every other change is
// persisted before it is acknowledged, and a failed write leaves the state as it was.

import { workerData } from 'node:worker_threads';
import {
  applyRevocation,
  exchangeCode,
  issueCode,
  mintGrant,
  mintIdentifier,
  mintToken,
  mintTokens,
  refresh,
  register,
  revokeClient,
  revokeToken,
  sweep,
  touch,
  type OAuthState,
  type Transition,
} from '../oauth/state.js';
import { LowdbOAuthStore, clientsPath, type OAuthStore, type StoreFaults } from '../oauth/store.js';
import { JournalFullError, RevocationJournal, journalPath, type JournalFaults } from './journal.js';
import {
  EMPTY_DELTA,
  deltaOf,
  fullView,
  removedGrants,
  type ActorApi,
  type ActorInit,
  type ActorReply,
  type ActorRequest,
  type ViewDelta,
} from './protocol.js';
import { AuthorityUnavailableError, type Revoked } from '../oauth/authority.js';
import { exposeToParent } from '../../util/thread-link.js';
import { unreachable } from '../../util/unreachable.js';

/** Entries that trigger a save and compaction; well under the journal's bound. */
const COMPACT_AT = 256;
/** Quiet time after which revocations (durable in the journal) are saved to clients.json. */
const SAVE_DELAY_MS = 100;

const init = workerData as ActorInit;
const storeFaults: StoreFaults = {};
const journalFaults: JournalFaults = {};

/** An answer that changed nothing. */
function unchanged(value: unknown): ActorReply {
  return { value, delta: EMPTY_DELTA, revoked: [] };
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
  constructor(
    private state: OAuthState,
    private readonly store: OAuthStore,
    private readonly journal: RevocationJournal,
    private dirty: boolean,
  ) {}

  get current(): OAuthState {
    return this.state;
  }

  async handle(request: ActorRequest, now: number): Promise<ActorReply> {
    switch (request.op) {
      case 'register':
        return this.persisted(register(this.state, request.metadata, now, mintIdentifier()));
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
        return { value: null, delta: deltaOf(t.state, t.changes), revoked: [] };
      }
      case 'faults':
        setFaults(request.faults);
        return unchanged(null);
      case 'holdCompaction':
        this.compactionHeld = request.hold;
        return unchanged(null);
      case 'shutdown':
        await this.settle(true);
        await this.journal.close();
        return unchanged(null);
      default:
        return unreachable(request);
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
  private async persisted(t: Transition<unknown>): Promise<ActorReply> {
    if (t.state === this.state) return unchanged(t.outcome);
    if (t.revocation !== undefined) {
      const failed = await this.journalFailure(t);
      if (failed !== null) throw new AuthorityUnavailableError(failed);
    }
    let saved = true;
    try {
      await this.store.save(t.state);
    } catch (err) {
      if (t.revocation === undefined)
        throw new AuthorityUnavailableError(`The client registry could not be saved: ${(err as Error).message}`);
      // the journal holds the revocation: adopt it and save later
      saved = false;
    }
    const revoked = this.adopt(t);
    this.dirty = !saved;
    if (saved) await this.settle(false);
    return { value: t.outcome, delta: deltaOf(t.state, t.changes), revoked };
  }

  /** Token endpoint operations answer a failed write as the OAuth error `temporarily_unavailable`. */
  private async tokenOperation(t: Transition<unknown>): Promise<ActorReply> {
    try {
      return await this.persisted(t);
    } catch (err) {
      if (!(err instanceof AuthorityUnavailableError)) throw err;
      return unchanged({ error: 'temporarily_unavailable', error_description: err.message });
    }
  }

  /** Journal (durably), then apply; the save follows when the actor is idle. */
  private async revocation(t: Transition<unknown>): Promise<ActorReply> {
    if (t.revocation === undefined) return unchanged(t.outcome);
    const failed = await this.journalFailure(t);
    if (failed !== null) throw new AuthorityUnavailableError(failed);
    this.dirty = true;
    const revoked = this.adopt(t);
    if (this.journal.entries >= COMPACT_AT) await this.settle(false);
    // an admin "revoke client" is announced even when the client held no grant
    const announced =
      revoked.length === 0 && t.revocation.kind === 'revoke-client' && t.revocation.client_id !== null
        ? [{ client_id: t.revocation.client_id, grant_ids: [] }]
        : revoked;
    return { value: t.outcome, delta: deltaOf(t.state, t.changes), revoked: announced };
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

/** Runs tasks strictly one at a time, in the order they were given. */
class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private queued = 0;

  /** Tasks given and not finished yet. */
  get length(): number {
    return this.queued;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    this.queued++;
    const run = this.tail.then(task).finally(() => this.queued--);
    this.tail = run.catch(() => undefined);
    return run;
  }
}

/**
 * Serves the actor: requests, and the deferred save of what revocations changed, handled strictly one at
 * a time. A request that throws changed nothing; the caller hears AuthorityUnavailableError.
 */
function serve(started: Promise<Actor>): ActorApi {
  const queue = new SerialQueue();
  let saveTimer: NodeJS.Timeout | null = null;
  let stopped = false;
  // the journal keeps revocations durable meanwhile, so the save waits for a pause and covers many
  const saveWhenIdle = (actor: Actor): void => {
    if (stopped || queue.length > 0 || !actor.owesSave || saveTimer !== null) return;
    saveTimer = setTimeout(() => {
      saveTimer = null;
      void queue.run(() => actor.settle(false)).then(() => saveWhenIdle(actor));
    }, SAVE_DELAY_MS);
  };
  const answer = async (actor: Actor, now: number, request: ActorRequest): Promise<ActorReply> => {
    try {
      return await actor.handle(request, now);
    } catch (err) {
      if (err instanceof AuthorityUnavailableError) throw err;
      throw new AuthorityUnavailableError((err as Error).message);
    }
  };
  return {
    async ready(): Promise<ViewDelta> {
      return fullView((await started).current);
    },
    async handle(now: number, request: ActorRequest): Promise<ActorReply> {
      const actor = await started;
      const reply = queue.run(() => answer(actor, now, request));
      if (request.op === 'shutdown') {
        stopped = true;
        if (saveTimer !== null) clearTimeout(saveTimer);
      }
      void reply.catch(() => undefined).then(() => saveWhenIdle(actor));
      return reply;
    },
  };
}

const started = start();
// a start that failed is reported by `ready`
started.catch(() => undefined);
exposeToParent(serve(started));
