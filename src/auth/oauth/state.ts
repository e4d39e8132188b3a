// The OAuth state machine: client registrations, grants, token hashes and authorization codes, with every
// transition a pure function of (state, input, now[, freshly minted secrets]) that returns the new state,
// the outcome and the ids it touched. Secrets are never stored: tokens and codes are kept as SHA-256 hex
// digests. The revocation actor is the only caller that adopts a transition's state, after journaling the
// revocation a transition asks for and persisting the rest.

import { createHash, randomBytes } from 'node:crypto';
import type { ClientMetadata, ClientRegistration, CodeRequest, IssuedTokens, OAuthError } from './authority.js';
import { isS256Challenge, verifyS256 } from './pkce.js';
import { isScopeError, resolveScope } from './scopes.js';
import { redirectMatches } from './registration.js';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export const ACCESS_TOKEN_TTL_MS = 30 * DAY_MS;
export const CODE_TTL_MS = 10 * MINUTE_MS;
export const UNFINISHED_REGISTRATION_TTL_MS = 60 * MINUTE_MS;
export const SILENT_CLIENT_TTL_MS = 60 * DAY_MS;
/** Rotated refresh tokens remembered per grant to detect reuse; older ones are simply unknown. */
export const MAX_ROTATED_PER_GRANT = 32;

/**
 * A registration that never finished authorizing and is past its hour: gone from that moment, for every
 * lookup, even before the next sweep removes it.
 */
export function registrationExpired(client: Pick<ClientRecord, 'authorized_at' | 'registered_at'>, now: number): boolean {
  return client.authorized_at === null && client.registered_at + UNFINISHED_REGISTRATION_TTL_MS <= now;
}

/** An opaque 256-bit secret (tokens, codes). */
export function mintToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * An opaque 256-bit identifier (clients, grants). The owner types these after CLI verbs (`athene clients revoke
 * ID`), where a leading '-' would read as an option, so an identifier never starts with one.
 */
export function mintIdentifier(): string {
  for (;;) {
    const id = mintToken();
    if (!id.startsWith('-')) return id;
  }
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export interface ClientRecord extends ClientRegistration {
  /** Epoch milliseconds. */
  readonly registered_at: number;
  /** When the client first exchanged a code; null while it never finished authorizing. */
  readonly authorized_at: number | null;
  readonly last_seen: number | null;
}

export interface GrantRecord {
  readonly grant_id: string;
  readonly client_id: string;
  readonly scope: string;
  readonly capabilities: readonly string[];
  readonly created_at: number;
  readonly access_hash: string;
  readonly access_expires_at: number;
  readonly refresh_hash: string;
  /** Hashes of refresh tokens already rotated away, oldest first. */
  readonly rotated: readonly string[];
}

export interface CodeRecord {
  readonly client_id: string;
  readonly redirect_uri: string;
  readonly code_challenge: string;
  readonly scope: string;
  readonly capabilities: readonly string[];
  readonly issued_at: number;
  readonly expires_at: number;
  /** The grant the code was exchanged for; a used code is kept until it expires to detect its reuse. */
  readonly grant_id: string | null;
}

export interface OAuthState {
  readonly clients: ReadonlyMap<string, ClientRecord>;
  readonly grants: ReadonlyMap<string, GrantRecord>;
  /** By code hash. */
  readonly codes: ReadonlyMap<string, CodeRecord>;
  /** Access token hash → grant id. */
  readonly accessIndex: ReadonlyMap<string, string>;
  /** Refresh token hash (current or rotated) → grant id. */
  readonly refreshIndex: ReadonlyMap<string, string>;
}

export type RevocationKind = 'revoke-grant' | 'revoke-client' | 'grant-reuse';

/** A revocation as the journal records it (without its sequence number). */
export interface Revocation {
  readonly kind: RevocationKind;
  readonly time: number;
  readonly client_id: string | null;
  readonly grant_ids: readonly string[];
}

export interface Changes {
  /** Ids of clients and grants put or removed: the read view refreshes exactly these. */
  readonly clients: ReadonlySet<string>;
  readonly grants: ReadonlySet<string>;
}

export interface Transition<T> {
  readonly state: OAuthState;
  readonly outcome: T;
  readonly changes: Changes;
  /** Present when the transition revokes: it must be journaled durably before the state is adopted. */
  readonly revocation?: Revocation;
}

export interface RevocationOutcome {
  readonly client_id: string | null;
  readonly grant_ids: readonly string[];
}

export function emptyState(): OAuthState {
  return { clients: new Map(), grants: new Map(), codes: new Map(), accessIndex: new Map(), refreshIndex: new Map() };
}

/** Builds a state (and its token indexes) from stored records. */
export function stateOf(clients: Iterable<ClientRecord>, grants: Iterable<GrantRecord>, codes: Iterable<[string, CodeRecord]>): OAuthState {
  const draft = new Draft(emptyState());
  for (const c of clients) draft.putClient(c);
  for (const g of grants) if (draft.client(g.client_id) !== undefined) draft.putGrant(g);
  for (const [hash, code] of codes) draft.putCode(hash, code);
  return draft.finish(null).state;
}

/** Copy-on-write edits of one state, recording which ids changed; the base state is never mutated. */
class Draft {
  private clients: Map<string, ClientRecord> | null = null;
  private grants: Map<string, GrantRecord> | null = null;
  private codes: Map<string, CodeRecord> | null = null;
  private accessIndex: Map<string, string> | null = null;
  private refreshIndex: Map<string, string> | null = null;
  private readonly touchedClients = new Set<string>();
  private readonly touchedGrants = new Set<string>();

  constructor(private readonly base: OAuthState) {}

  client(id: string): ClientRecord | undefined {
    return (this.clients ?? this.base.clients).get(id);
  }

  grant(id: string): GrantRecord | undefined {
    return (this.grants ?? this.base.grants).get(id);
  }

  code(hash: string): CodeRecord | undefined {
    return (this.codes ?? this.base.codes).get(hash);
  }

  allClients(): Iterable<ClientRecord> {
    return (this.clients ?? this.base.clients).values();
  }

  allGrants(): Iterable<GrantRecord> {
    return (this.grants ?? this.base.grants).values();
  }

  allCodes(): Iterable<[string, CodeRecord]> {
    return (this.codes ?? this.base.codes).entries();
  }

  putClient(c: ClientRecord): void {
    this.writableClients().set(c.client_id, c);
    this.touchedClients.add(c.client_id);
  }

  /** Removes a client with its grants and codes. */
  removeClient(id: string): void {
    if (this.client(id) === undefined) return;
    for (const g of [...this.allGrants()]) if (g.client_id === id) this.removeGrant(g.grant_id);
    for (const [hash, code] of [...this.allCodes()]) if (code.client_id === id) this.removeCode(hash);
    this.writableClients().delete(id);
    this.touchedClients.add(id);
  }

  putGrant(g: GrantRecord): void {
    const old = this.grant(g.grant_id);
    const access = this.writableAccess();
    const refresh = this.writableRefresh();
    if (old !== undefined) {
      access.delete(old.access_hash);
      for (const hash of [old.refresh_hash, ...old.rotated]) refresh.delete(hash);
    }
    access.set(g.access_hash, g.grant_id);
    for (const hash of [g.refresh_hash, ...g.rotated]) refresh.set(hash, g.grant_id);
    this.writableGrants().set(g.grant_id, g);
    this.touchedGrants.add(g.grant_id);
    this.touchedClients.add(g.client_id);
  }

  removeGrant(id: string): void {
    const old = this.grant(id);
    if (old === undefined) return;
    this.writableAccess().delete(old.access_hash);
    const refresh = this.writableRefresh();
    for (const hash of [old.refresh_hash, ...old.rotated]) refresh.delete(hash);
    this.writableGrants().delete(id);
    this.touchedGrants.add(id);
    this.touchedClients.add(old.client_id);
  }

  putCode(hash: string, code: CodeRecord): void {
    this.writableCodes().set(hash, code);
  }

  removeCode(hash: string): void {
    if (this.code(hash) !== undefined) this.writableCodes().delete(hash);
  }

  finish<T>(outcome: T, revocation?: Revocation): Transition<T> {
    const b = this.base;
    const untouched =
      this.clients === null && this.grants === null && this.codes === null && this.accessIndex === null && this.refreshIndex === null;
    const state: OAuthState = untouched
      ? b
      : {
          clients: this.clients ?? b.clients,
          grants: this.grants ?? b.grants,
          codes: this.codes ?? b.codes,
          accessIndex: this.accessIndex ?? b.accessIndex,
          refreshIndex: this.refreshIndex ?? b.refreshIndex,
        };
    const changes = { clients: this.touchedClients, grants: this.touchedGrants };
    return revocation === undefined ? { state, outcome, changes } : { state, outcome, changes, revocation };
  }

  private writableClients(): Map<string, ClientRecord> {
    return (this.clients ??= new Map(this.base.clients));
  }

  private writableGrants(): Map<string, GrantRecord> {
    return (this.grants ??= new Map(this.base.grants));
  }

  private writableCodes(): Map<string, CodeRecord> {
    return (this.codes ??= new Map(this.base.codes));
  }

  private writableAccess(): Map<string, string> {
    return (this.accessIndex ??= new Map(this.base.accessIndex));
  }

  private writableRefresh(): Map<string, string> {
    return (this.refreshIndex ??= new Map(this.base.refreshIndex));
  }
}

const NO_CHANGES: Changes = { clients: new Set(), grants: new Set() };

/** A transition that changes nothing returns the very state it was given. */
function unchanged<T>(state: OAuthState, outcome: T): Transition<T> {
  return { state, outcome, changes: NO_CHANGES };
}

function oauthError(error: OAuthError['error'], error_description: string): OAuthError {
  return { error, error_description };
}

export function isOAuthError(value: unknown): value is OAuthError {
  return typeof value === 'object' && value !== null && 'error' in value && 'error_description' in value;
}

/** A new public client; `clientId` is minted by the caller. */
export function register(state: OAuthState, metadata: ClientMetadata, now: number, clientId: string): Transition<ClientRegistration> {
  const registration: ClientRegistration = {
    client_id: clientId,
    client_id_issued_at: Math.floor(now / 1000),
    client_name: metadata.client_name,
    redirect_uris: [...metadata.redirect_uris],
    grant_types: [...metadata.grant_types],
    response_types: [...metadata.response_types],
    token_endpoint_auth_method: 'none',
    ...(metadata.scope === undefined ? {} : { scope: metadata.scope }),
  };
  const draft = new Draft(state);
  draft.putClient({ ...registration, registered_at: now, authorized_at: null, last_seen: null });
  return draft.finish(registration);
}

/** Records an approved consent under the hash of `code` (minted by the caller). */
export function issueCode(state: OAuthState, request: CodeRequest, now: number, code: string): Transition<true | OAuthError> {
  const client = state.clients.get(request.client_id);
  if (client === undefined || registrationExpired(client, now))
    return unchanged(state, oauthError('invalid_client', `Unknown client '${request.client_id}'`));
  if (!redirectMatches(client.redirect_uris, request.redirect_uri)) {
    return unchanged(state, oauthError('invalid_request', 'The redirect_uri is not one the client registered'));
  }
  if (!isS256Challenge(request.code_challenge)) {
    return unchanged(state, oauthError('invalid_request', 'The code_challenge is not an S256 challenge (43 base64url characters)'));
  }
  const draft = new Draft(state);
  draft.putCode(hashToken(code), {
    client_id: request.client_id,
    redirect_uri: request.redirect_uri,
    code_challenge: request.code_challenge,
    scope: request.scope,
    capabilities: [...request.capabilities],
    issued_at: now,
    expires_at: now + CODE_TTL_MS,
    grant_id: null,
  });
  return draft.finish(true as const);
}

export interface MintedGrant {
  readonly grant_id: string;
  readonly access_token: string;
  readonly refresh_token: string;
}

export interface MintedTokens {
  readonly access_token: string;
  readonly refresh_token: string;
}

export function mintGrant(): MintedGrant {
  return { grant_id: mintIdentifier(), access_token: mintToken(), refresh_token: mintToken() };
}

export function mintTokens(): MintedTokens {
  return { access_token: mintToken(), refresh_token: mintToken() };
}

function issued(tokens: MintedTokens, scope: string): IssuedTokens {
  return {
    access_token: tokens.access_token,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_MS / 1000,
    refresh_token: tokens.refresh_token,
    scope,
  };
}

export interface ExchangeInput {
  readonly client_id: string;
  readonly code: string;
  readonly redirect_uri: string;
  readonly code_verifier: string;
}

/**
 * Exchanges a code for a new grant. The code is single use: presenting it again revokes the grant it
 * produced (OAuth 2.1 §4.1.3). A client's first exchange drops its older registrations under the same name.
 */
export function exchangeCode(
  state: OAuthState,
  input: ExchangeInput,
  now: number,
  minted: MintedGrant,
): Transition<IssuedTokens | OAuthError> {
  const codeHash = hashToken(input.code);
  const code = state.codes.get(codeHash);
  if (code === undefined || code.expires_at <= now)
    return unchanged(state, oauthError('invalid_grant', 'The authorization code is unknown or expired'));
  if (code.client_id !== input.client_id)
    return unchanged(state, oauthError('invalid_grant', 'The authorization code was issued to another client'));
  if (code.grant_id !== null) {
    const reused = oauthError('invalid_grant', 'The authorization code was already used; the grant it produced is revoked');
    if (!state.grants.has(code.grant_id)) return unchanged(state, reused);
    return revoke(state, { kind: 'grant-reuse', time: now, client_id: code.client_id, grant_ids: [code.grant_id] }, reused);
  }
  if (code.redirect_uri !== input.redirect_uri)
    return unchanged(state, oauthError('invalid_grant', 'The redirect_uri does not match the one of the authorization request'));
  if (!verifyS256(input.code_verifier, code.code_challenge))
    return unchanged(state, oauthError('invalid_grant', 'PKCE verification failed: the code_verifier does not match the code_challenge'));
  const client = state.clients.get(code.client_id);
  if (client === undefined) return unchanged(state, oauthError('invalid_client', `Unknown client '${input.client_id}'`));

  const draft = new Draft(state);
  draft.putCode(codeHash, { ...code, grant_id: minted.grant_id });
  draft.putGrant({
    grant_id: minted.grant_id,
    client_id: client.client_id,
    scope: code.scope,
    capabilities: code.capabilities,
    created_at: now,
    access_hash: hashToken(minted.access_token),
    access_expires_at: now + ACCESS_TOKEN_TTL_MS,
    refresh_hash: hashToken(minted.refresh_token),
    rotated: [],
  });
  draft.putClient({ ...client, authorized_at: client.authorized_at ?? now, last_seen: now });
  dropOlderRegistrations(draft, client);
  return draft.finish(issued(minted, code.scope));
}

/** Re-registration cleanup: the same name registered earlier is a stale copy of this client. */
function dropOlderRegistrations(draft: Draft, client: ClientRecord): void {
  const older = [...draft.allClients()].filter(
    (c) => c.client_name === client.client_name && c.client_id !== client.client_id && c.registered_at <= client.registered_at,
  );
  for (const c of older) draft.removeClient(c.client_id);
}

export interface RefreshInput {
  readonly client_id: string;
  readonly refresh_token: string;
  readonly scope?: string;
}

function sameCapabilities(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((c) => set.has(c));
}

/** Rotates a refresh token. A rotated token presented again revokes the whole grant. */
export function refresh(state: OAuthState, input: RefreshInput, now: number, minted: MintedTokens): Transition<IssuedTokens | OAuthError> {
  const presented = hashToken(input.refresh_token);
  const grantId = state.refreshIndex.get(presented);
  const grant = grantId === undefined ? undefined : state.grants.get(grantId);
  if (grant === undefined) return unchanged(state, oauthError('invalid_grant', 'The refresh token is unknown or revoked'));
  if (grant.client_id !== input.client_id)
    return unchanged(state, oauthError('invalid_grant', 'The refresh token was issued to another client'));
  if (grant.refresh_hash !== presented) {
    const reused = oauthError('invalid_grant', 'The refresh token was already used; the grant is revoked');
    return revoke(state, { kind: 'grant-reuse', time: now, client_id: grant.client_id, grant_ids: [grant.grant_id] }, reused);
  }
  if (input.scope !== undefined && input.scope !== '') {
    const requested = resolveScope(input.scope);
    if (isScopeError(requested)) return unchanged(state, oauthError('invalid_scope', requested.error_description));
    if (!sameCapabilities(requested.capabilities, grant.capabilities)) {
      return unchanged(state, oauthError('invalid_scope', `A refresh keeps the grant's scope '${grant.scope}'; omit scope or repeat it`));
    }
  }
  const client = state.clients.get(grant.client_id);
  const draft = new Draft(state);
  draft.putGrant({
    ...grant,
    access_hash: hashToken(minted.access_token),
    access_expires_at: now + ACCESS_TOKEN_TTL_MS,
    refresh_hash: hashToken(minted.refresh_token),
    rotated: [...grant.rotated, grant.refresh_hash].slice(-MAX_ROTATED_PER_GRANT),
  });
  if (client !== undefined) draft.putClient({ ...client, last_seen: now });
  return draft.finish(issued(minted, grant.scope));
}

/** RFC 7009: the grant of an access or refresh token (current or rotated). Unknown tokens revoke nothing. */
export function revokeToken(state: OAuthState, token: string, clientId: string | undefined, now: number): Transition<RevocationOutcome> {
  const hash = hashToken(token);
  const grantId = state.accessIndex.get(hash) ?? state.refreshIndex.get(hash);
  const grant = grantId === undefined ? undefined : state.grants.get(grantId);
  // a client may revoke only its own tokens; another's token is treated as unknown
  if (grant === undefined || (clientId !== undefined && grant.client_id !== clientId))
    return unchanged(state, { client_id: null, grant_ids: [] });
  const revocation: Revocation = { kind: 'revoke-grant', time: now, client_id: grant.client_id, grant_ids: [grant.grant_id] };
  return revoke(state, revocation, revoked(revocation));
}

/** Every grant and pending code of a client; the registration stays, so the client can authorize again. */
export function revokeClient(state: OAuthState, clientId: string, now: number): Transition<RevocationOutcome> {
  if (!state.clients.has(clientId)) return unchanged(state, { client_id: clientId, grant_ids: [] });
  const grantIds = [...state.grants.values()].filter((g) => g.client_id === clientId).map((g) => g.grant_id);
  const revocation: Revocation = { kind: 'revoke-client', time: now, client_id: clientId, grant_ids: grantIds };
  return revoke(state, revocation, revoked(revocation));
}

function revoke<T>(state: OAuthState, revocation: Revocation, outcome: T): Transition<T> {
  return { ...applyRevocation(state, revocation), outcome, revocation };
}

function revoked(revocation: Revocation): RevocationOutcome {
  return { client_id: revocation.client_id, grant_ids: revocation.grant_ids };
}

/**
 * Applies a journaled revocation: removes the listed grants and, for a revoked client, the codes it was
 * issued up to then. Idempotent, so replaying a journal over a state that already holds it changes nothing.
 */
export function applyRevocation(state: OAuthState, revocation: Revocation): Transition<RevocationOutcome> {
  const draft = new Draft(state);
  for (const id of revocation.grant_ids) draft.removeGrant(id);
  if (revocation.kind === 'revoke-client' && revocation.client_id !== null) {
    for (const [hash, code] of [...draft.allCodes()]) {
      if (code.client_id === revocation.client_id && code.issued_at <= revocation.time) draft.removeCode(hash);
    }
  }
  return draft.finish(revoked(revocation));
}

/** Records when clients were last seen (batched by the front door); times never move backwards. */
export function touch(state: OAuthState, seen: ReadonlyMap<string, number>): Transition<void> {
  const draft = new Draft(state);
  for (const [clientId, time] of seen) {
    const client = draft.client(clientId);
    if (client !== undefined && (client.last_seen === null || client.last_seen < time)) draft.putClient({ ...client, last_seen: time });
  }
  return draft.finish(undefined);
}

export interface SweepOutcome {
  readonly removed_clients: readonly string[];
  readonly removed_grants: readonly string[];
}

/**
 * The cleanup rules of INTERFACE.md 5.2 besides re-registration: expired codes go; a registration that
 * never finished authorizing goes after an hour; a client silent for 60 days goes with its tokens.
 */
export function sweep(state: OAuthState, now: number): Transition<SweepOutcome> {
  const draft = new Draft(state);
  for (const [hash, code] of state.codes) if (code.expires_at <= now) draft.removeCode(hash);
  const removedClients: string[] = [];
  const removedGrants: string[] = [];
  for (const client of state.clients.values()) {
    const unfinished = registrationExpired(client, now);
    const lastActive = client.last_seen ?? client.authorized_at ?? client.registered_at;
    const silent = lastActive + SILENT_CLIENT_TTL_MS <= now;
    if (!unfinished && !silent) continue;
    for (const g of state.grants.values()) if (g.client_id === client.client_id) removedGrants.push(g.grant_id);
    removedClients.push(client.client_id);
    draft.removeClient(client.client_id);
  }
  return draft.finish({ removed_clients: removedClients, removed_grants: removedGrants });
}
