// The API the revocation actor (its own Worker) exposes to the main thread's Authority handle, through
// comlink. Every request carries the caller's clock, so one injected clock drives both sides. Every reply
// carries the change to the main thread's read view, which the handle applies before it resolves the call;
// a write that failed, changing nothing, throws AuthorityUnavailableError instead.

import type { ClientMetadata, CodeRequest, Revoked } from '../oauth/authority.js';
import type { ClientRecord, ExchangeInput, GrantRecord, OAuthState, RefreshInput, Changes } from '../oauth/state.js';

/** Fault injection for tests (not a mock: the real journal and store, told to fail their writes). */
export interface ActorFaults {
  /** The journal append fails before writing. */
  failJournalAppend?: boolean;
  /** Saving clients.json fails. */
  failPersist?: boolean;
}

export interface ActorInit {
  readonly home: string;
  readonly faults: ActorFaults;
  /** Whether compaction is held from the start (a restart while a quarantine lasts). */
  readonly holdCompaction: boolean;
}

export type ActorRequest =
  | { readonly op: 'register'; readonly metadata: ClientMetadata }
  | { readonly op: 'issueCode'; readonly request: CodeRequest }
  | { readonly op: 'exchangeCode'; readonly input: ExchangeInput }
  | { readonly op: 'refresh'; readonly input: RefreshInput }
  | { readonly op: 'revokeToken'; readonly token: string; readonly client_id?: string }
  | { readonly op: 'revokeClient'; readonly client_id: string }
  | { readonly op: 'sweep' }
  | { readonly op: 'touch'; readonly seen: readonly (readonly [string, number])[] }
  | { readonly op: 'faults'; readonly faults: ActorFaults }
  | { readonly op: 'holdCompaction'; readonly hold: boolean }
  | { readonly op: 'shutdown' };

/** What the main thread keeps of a grant: no refresh token hashes. */
export type GrantView = Omit<GrantRecord, 'refresh_hash' | 'rotated'>;

export interface ViewDelta {
  readonly clients: readonly ClientRecord[];
  readonly removedClients: readonly string[];
  readonly grants: readonly GrantView[];
  readonly removedGrants: readonly string[];
}

/** An operation's answer, the view change it made, and the grants it removed. */
export interface ActorReply {
  readonly value: unknown;
  readonly delta: ViewDelta;
  readonly revoked: readonly Revoked[];
}

export interface ActorApi {
  /** The whole read view once the state is loaded; rejects when the actor could not start. */
  ready(): Promise<ViewDelta>;
  /** Handles `request` after every request before it, at the caller's clock `now` (epoch ms). */
  handle(now: number, request: ActorRequest): Promise<ActorReply>;
}

export function grantView(g: GrantRecord): GrantView {
  return {
    grant_id: g.grant_id,
    client_id: g.client_id,
    scope: g.scope,
    capabilities: g.capabilities,
    created_at: g.created_at,
    access_hash: g.access_hash,
    access_expires_at: g.access_expires_at,
  };
}

export function fullView(state: OAuthState): ViewDelta {
  return { clients: [...state.clients.values()], removedClients: [], grants: [...state.grants.values()].map(grantView), removedGrants: [] };
}

/** The view change between two states, limited to the ids a transition touched. */
export function deltaOf(after: OAuthState, changes: Changes): ViewDelta {
  const clients: ClientRecord[] = [];
  const removedClients: string[] = [];
  const grants: GrantView[] = [];
  const removedGrants: string[] = [];
  for (const id of changes.clients) {
    const c = after.clients.get(id);
    if (c === undefined) removedClients.push(id);
    else clients.push(c);
  }
  for (const id of changes.grants) {
    const g = after.grants.get(id);
    if (g === undefined) removedGrants.push(id);
    else grants.push(grantView(g));
  }
  return { clients, removedClients, grants, removedGrants };
}

/** Grants present before and gone after, grouped by client: what `onRevoked` listeners hear. */
export function removedGrants(before: OAuthState, after: OAuthState, changes: Changes): Revoked[] {
  const byClient = new Map<string, string[]>();
  for (const id of changes.grants) {
    const old = before.grants.get(id);
    if (old === undefined || after.grants.has(id)) continue;
    const list = byClient.get(old.client_id) ?? [];
    list.push(id);
    byClient.set(old.client_id, list);
  }
  return [...byClient].map(([client_id, grant_ids]) => ({ client_id, grant_ids }));
}

export const EMPTY_DELTA: ViewDelta = { clients: [], removedClients: [], grants: [], removedGrants: [] };
