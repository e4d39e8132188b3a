// The OAuth authority as the front door sees it: registrations, grants and tokens, owned by the revocation
// actor (src/auth/revocation). Every state transition that must be linearizable (code exchange, refresh,
// RFC 7009 revocation, revoke-client) is a message to that actor; `principalFor` is a synchronous read of
// the main thread's view of live access tokens, kept current by the actor before it acknowledges anything.

import type { Principal } from '../principal.js';

/** Client metadata already validated by the registration endpoint (RFC 7591, public clients only). */
export interface ClientMetadata {
  readonly client_name: string;
  readonly redirect_uris: readonly string[];
  readonly grant_types: readonly string[];
  readonly response_types: readonly string[];
  /** Always `none`: Athene registers public clients (PKCE protects the code). */
  readonly token_endpoint_auth_method: 'none';
  /** The scope the client registered with, if any (space-separated). */
  readonly scope?: string;
}

export interface ClientRegistration extends ClientMetadata {
  readonly client_id: string;
  /** Epoch seconds, as RFC 7591's `client_id_issued_at`. */
  readonly client_id_issued_at: number;
}

/** One row of the admin list of clients: never a token or a token hash. */
export interface ClientSummary {
  readonly client_id: string;
  readonly client_name: string;
  readonly redirect_uris: readonly string[];
  readonly registered_at: string;
  /** ISO time of the last accepted request or token operation; null when the client never authorized. */
  readonly last_seen_at: string | null;
  readonly authorized: boolean;
  /** Live grants: their ids, scopes and capabilities. */
  readonly grants: readonly {
    readonly grant_id: string;
    readonly scope: string;
    readonly capabilities: readonly string[];
    readonly created_at: string;
  }[];
}

/** What an approved consent records: the code is bound to all of it. */
export interface CodeRequest {
  readonly client_id: string;
  readonly redirect_uri: string;
  /** PKCE S256 challenge (base64url of SHA-256 of the verifier). */
  readonly code_challenge: string;
  /** The scope as granted (normalized), and the capabilities it composes to. */
  readonly scope: string;
  readonly capabilities: readonly string[];
}

export interface IssuedTokens {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  /** Seconds until the access token expires (30 days at issue). */
  readonly expires_in: number;
  readonly refresh_token: string;
  readonly scope: string;
}

/** An RFC 6749 §5.2 error, as the token endpoint reports it. */
export interface OAuthError {
  readonly error:
    | 'invalid_request'
    | 'invalid_grant'
    | 'invalid_client'
    | 'unauthorized_client'
    | 'unsupported_grant_type'
    | 'invalid_scope'
    | 'temporarily_unavailable';
  readonly error_description: string;
}

/** The outcome of a revocation: acknowledged only once journaled durably and applied to the read view. */
export type RevocationResult =
  | { readonly ok: true; readonly client_id: string | null; readonly grant_ids: readonly string[] }
  /** Journal full or a persistence failure: nothing was revoked; the caller answers 503. */
  | { readonly ok: false; readonly error: 'temporarily_unavailable'; readonly message: string };

/** Published after a revocation took effect, before it is acknowledged: sessions, in-flight work, fences. */
export interface Revoked {
  readonly client_id: string | null;
  readonly grant_ids: readonly string[];
}

export interface Authority {
  register(metadata: ClientMetadata): Promise<ClientRegistration>;
  /** A registration by id, from the main thread's view (for the authorization endpoint and consent page). */
  client(clientId: string): ClientRegistration | undefined;
  /** Registrations that have not finished authorizing yet and have not expired (the cap on registration counts them). */
  unfinishedRegistrations(): number;
  /** Records an approved consent; returns a single-use authorization code (valid 10 minutes). */
  issueCode(request: CodeRequest): Promise<string>;
  /** Exchanges a code (PKCE S256 verified, redirect URI and client matched exactly, single use). */
  exchangeCode(input: { client_id: string; code: string; redirect_uri: string; code_verifier: string }): Promise<IssuedTokens | OAuthError>;
  /** Rotates a refresh token; reuse of a rotated one revokes the whole grant and fails. */
  refresh(input: { client_id: string; refresh_token: string; scope?: string }): Promise<IssuedTokens | OAuthError>;
  /** RFC 7009: revokes the grant of an access or refresh token (an unknown token is still `ok`). */
  revokeToken(token: string, clientId?: string): Promise<RevocationResult>;
  /** Admin "revoke client": every grant and token of the client. */
  revokeClient(clientId: string): Promise<RevocationResult>;
  listClients(): readonly ClientSummary[];
  /** The principal of a live, unexpired access token, or null. Synchronous and cheap: called per request. */
  principalFor(accessToken: string): Principal | null;
  /** Called after a revocation took effect and before it is acknowledged to its caller. */
  onRevoked(listener: (revoked: Revoked) => void | Promise<void>): void;
  close(): Promise<void>;
}

/** A write the operation needed (registry save, journal append) failed; nothing changed. Answer 503. */
export class AuthorityUnavailableError extends Error {
  readonly error = 'temporarily_unavailable';
  constructor(message: string) {
    super(message);
    this.name = 'AuthorityUnavailableError';
  }
}
