// The OAuth 2.1 endpoints of the front door, answered before bearer authentication: discovery metadata,
// dynamic registration, the authorization endpoint with its consent page, the token endpoint and RFC 7009
// revocation. State transitions go to the Authority; this module only validates and renders.

import type { Authority, IssuedTokens, OAuthError } from '../auth/oauth/authority.js';
import type { ConsentEntry, ConsentRequests } from '../auth/oauth/consent-requests.js';
import type { OwnerSessions } from '../auth/owner-session.js';
import { isS256Challenge } from '../auth/oauth/pkce.js';
import { MCP_RESOURCE_METADATA_PATH, OAUTH_PATHS, authorizationServerMetadata, protectedResourceMetadata } from '../auth/oauth/metadata.js';
import { REGISTRATION_BODY_LIMIT, isRegistrationError, redirectMatches, validateClientMetadata } from '../auth/oauth/registration.js';
import { isScopeError, resolveScope } from '../auth/oauth/scopes.js';
import { RegistrationLimiter } from '../auth/oauth/registration-limits.js';
import { consentPage, errorPage, pageHeaders, waitingPage } from '../web/consent-page.js';
import { isLocalPeer, peerAddress } from './peer.js';
import { sendJson, statusLine, type Exchange } from './respond.js';

/** Form bodies of the token, revocation and consent endpoints are small; anything bigger is refused. */
const FORM_BODY_LIMIT = 16 * 1024;
const NO_STORE: readonly (readonly [string, string])[] = [
  ['cache-control', 'no-store'],
  ['pragma', 'no-cache'],
];

export interface OAuthRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: ReadonlyMap<string, string>;
}

/** Reads a whole request body of at most `limit` bytes (the front door's reader, which answers 413 itself). */
export type BodyReader = (x: Exchange, limit: number, then: (body: string) => void) => void;

/**
 * The Origin the DNS-rebinding guard judges. The consent page's `no-referrer` policy makes a browser send
 * `Origin: null` when the page's own form posts back; that post, and only it, is let through when the
 * browser marks it same-origin (Sec-Fetch-Site). Its single-use CSRF token is what authenticates it.
 */
export function guardedOrigin(method: string, path: string, origin: string, fetchSite: string): string {
  const ownConsentPost = method === 'POST' && path === OAUTH_PATHS.authorize && origin === 'null' && fetchSite === 'same-origin';
  return ownConsentPost ? '' : origin;
}

/** The body a remote peer gets instead of a consent page. */
export const REMOTE_CONSENT_MESSAGE =
  'OAuth consent can only be given from the machine this server runs on. ' +
  'From elsewhere, connect with the static bearer token: run `athene token` on the server machine and send it as `Authorization: Bearer <token>`.';

/** Whether a peer may see or answer the consent page: only the local machine, whatever the bind address. */
export function consentRefusal(peer: string): string | null {
  return isLocalPeer(peer) ? null : REMOTE_CONSENT_MESSAGE;
}

/** An HTML page; `formTarget` is the redirect URI the page's form may lead to (the consent page only). */
function sendPage(x: Exchange, status: number, html: string, formTarget: string | null = null): void {
  if (x.aborted || x.done) return;
  x.done = true;
  x.res.cork(() => {
    x.res.writeStatus(statusLine(status));
    for (const [k, v] of pageHeaders(formTarget)) x.res.writeHeader(k, v);
    x.res.end(html);
  });
}

function redirect(x: Exchange, location: string): void {
  if (x.aborted || x.done) return;
  x.done = true;
  x.res.cork(() => {
    x.res.writeStatus(statusLine(302)).writeHeader('location', location);
    for (const [k, v] of NO_STORE) x.res.writeHeader(k, v);
    x.res.end();
  });
}

/** `redirect_uri` with the response parameters added to its query (RFC 6749 §4.1.2). */
export function redirectWith(redirectUri: string, params: Readonly<Record<string, string | null>>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return url.href;
}

function oauthError(
  x: Exchange,
  error: string,
  description: string,
  status = 400,
  headers: readonly (readonly [string, string])[] = [],
): void {
  sendJson(x, status, { error, error_description: description }, [...NO_STORE, ...headers]);
}

/** HTTP status of a token-endpoint error (RFC 6749 §5.2; a service failure is 503). */
function tokenErrorStatus(error: OAuthError['error']): number {
  if (error === 'invalid_client') return 401;
  if (error === 'temporarily_unavailable') return 503;
  return 400;
}

/** Parameters of a query or form body, or the name of one that is repeated (RFC 6749 §3.1 forbids it). */
export function singleParams(text: string): { params: Map<string, string> } | { repeated: string } {
  const params = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(text)) {
    if (params.has(k)) return { repeated: k };
    params.set(k, v);
  }
  return { params };
}

function isOAuthError(value: IssuedTokens | OAuthError): value is OAuthError {
  return 'error' in value;
}

/** Where a waiting consent page polls for the owner's answer. */
export const CONSENT_WAIT_PATH = '/oauth/authorize/wait';

/** The registration limits of the settings table. */
export interface RegistrationSettings {
  readonly oauth_registrations_per_minute: number;
  readonly oauth_max_unfinished_clients: number;
}

export class OAuthRoutes {
  private readonly limiter: RegistrationLimiter;
  /** Registrations admitted but not yet in the authority's view: the cap counts them too. */
  private registering = 0;

  constructor(
    private readonly authority: Authority,
    private readonly readBody: BodyReader,
    private readonly consents: ConsentRequests,
    private readonly owner: OwnerSessions,
    private readonly limits: RegistrationSettings,
  ) {
    this.limiter = new RegistrationLimiter(limits.oauth_registrations_per_minute);
  }

  /** `GET` of a discovery document: the server's or the MCP endpoint's protected resource, or the authorization server. */
  metadata(x: Exchange, r: OAuthRequest, base: string): void {
    if (r.path === OAUTH_PATHS.authorizationServer) return sendJson(x, 200, authorizationServerMetadata(base));
    sendJson(x, 200, protectedResourceMetadata(base, r.path === MCP_RESOURCE_METADATA_PATH ? '/mcp' : ''));
  }

  /** The consent page (`GET`) and its form's answer (`POST`), to the local machine only. */
  consent(x: Exchange, r: OAuthRequest): void {
    if (this.remoteRefused(x)) return;
    if (r.method === 'GET') return this.authorize(x, r);
    this.withForm(x, r, (form) => void this.decide(x, r, form));
  }

  /** Where a waiting consent page polls, to the local machine only. */
  consentWait(x: Exchange, r: OAuthRequest): void {
    if (!this.remoteRefused(x)) void this.wait(x, r);
  }

  tokenEndpoint(x: Exchange, r: OAuthRequest): void {
    this.withForm(x, r, (form) => void this.token(x, form));
  }

  revocationEndpoint(x: Exchange, r: OAuthRequest): void {
    this.withForm(x, r, (form) => void this.revoke(x, form));
  }

  /** Any other path under `/.well-known/` or `/oauth/`. */
  notFound(x: Exchange, r: OAuthRequest): void {
    sendJson(x, 404, { error: 'not_found', error_description: `No OAuth endpoint at ${r.path}` });
  }

  private remoteRefused(x: Exchange): boolean {
    const refusal = consentRefusal(peerAddress(x.res));
    if (refusal !== null) sendPage(x, 403, errorPage('Consent is local only', refusal));
    return refusal !== null;
  }

  private tooLarge(x: Exchange, r: OAuthRequest, limit: number): boolean {
    if (Number(r.headers.get('content-length') ?? '0') <= limit) return false;
    oauthError(x, 'invalid_request', `The request body exceeds ${limit} bytes`, 413);
    return true;
  }

  register(x: Exchange, r: OAuthRequest): void {
    if (this.tooLarge(x, r, REGISTRATION_BODY_LIMIT)) return;
    this.readBody(x, REGISTRATION_BODY_LIMIT, (body) => {
      const metadata = validateClientMetadata(body);
      if (isRegistrationError(metadata)) return oauthError(x, metadata.error, metadata.error_description);
      const max = this.limits.oauth_max_unfinished_clients;
      if (this.authority.unfinishedRegistrations() + this.registering >= max) {
        return oauthError(
          x,
          'temporarily_unavailable',
          `${max} registered clients are still waiting to authorize (the oauth_max_unfinished_clients limit); ` +
            'an unfinished registration expires an hour after it was made',
          429,
        );
      }
      const retryAfter = this.limiter.admit(peerAddress(x.res), Date.now());
      if (retryAfter !== null) {
        return oauthError(
          x,
          'temporarily_unavailable',
          `Too many registrations from this address: at most ${this.limits.oauth_registrations_per_minute} a minute ` +
            '(the oauth_registrations_per_minute limit)',
          429,
          [['retry-after', String(retryAfter)]],
        );
      }
      this.registering++;
      this.authority
        .register(metadata)
        .then(
          (registration) => sendJson(x, 201, registration, NO_STORE),
          (err: unknown) =>
            oauthError(x, 'temporarily_unavailable', `The registration could not be stored: ${(err as Error).message}`, 503),
        )
        .finally(() => this.registering--);
    });
  }

  /** Reads an `application/x-www-form-urlencoded` body with every parameter at most once. */
  private withForm(x: Exchange, r: OAuthRequest, then: (form: Map<string, string>) => void): void {
    const type = (r.headers.get('content-type') ?? '').toLowerCase();
    if (!type.startsWith('application/x-www-form-urlencoded')) {
      return oauthError(x, 'invalid_request', 'The body must be application/x-www-form-urlencoded');
    }
    if (this.tooLarge(x, r, FORM_BODY_LIMIT)) return;
    this.readBody(x, FORM_BODY_LIMIT, (body) => {
      const parsed = singleParams(body);
      if ('repeated' in parsed) return oauthError(x, 'invalid_request', `Parameter '${parsed.repeated}' is repeated`);
      then(parsed.params);
    });
  }

  private authorize(x: Exchange, r: OAuthRequest): void {
    const parsed = singleParams(r.query);
    if ('repeated' in parsed)
      return sendPage(x, 400, errorPage('Invalid authorization request', `Parameter '${parsed.repeated}' is repeated.`));
    const q = parsed.params;
    const clientId = q.get('client_id') ?? '';
    const client = clientId === '' ? undefined : this.authority.client(clientId);
    if (client === undefined) {
      return sendPage(
        x,
        400,
        errorPage('Unknown client', clientId === '' ? 'The request names no client_id.' : `No client is registered as '${clientId}'.`),
      );
    }
    const redirectUri = q.get('redirect_uri') ?? '';
    if (!redirectMatches(client.redirect_uris, redirectUri)) {
      return sendPage(
        x,
        400,
        errorPage(
          'Invalid redirect URI',
          redirectUri === '' ? 'The request names no redirect_uri.' : `The redirect URI '${redirectUri}' is not one the client registered.`,
        ),
      );
    }
    // From here on the redirect URI is trusted: errors go back to the client, with its state.
    const state = q.get('state') ?? null;
    const fail = (error: string, description: string) =>
      redirect(x, redirectWith(redirectUri, { error, error_description: description, state }));
    if (q.get('response_type') !== 'code') return fail('unsupported_response_type', "response_type must be 'code'");
    const challenge = q.get('code_challenge');
    if (challenge === undefined) return fail('invalid_request', 'code_challenge is required (PKCE with S256)');
    if (q.get('code_challenge_method') !== 'S256') return fail('invalid_request', "code_challenge_method must be 'S256'");
    if (!isS256Challenge(challenge)) return fail('invalid_request', 'code_challenge must be 43 base64url characters (S256)');
    const granted = resolveScope(q.get('scope'));
    if (isScopeError(granted)) return fail(granted.error, granted.error_description);
    const opened = this.consents.open({
      client_id: client.client_id,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      scope: granted.scope,
      capabilities: granted.capabilities,
      state,
    });
    this.showPending(x, r, this.consents.get(opened.id)!, opened.wait);
  }

  /** The owner's consent form (owner session), else the self-refreshing page that says how the owner approves. */
  private showPending(x: Exchange, r: OAuthRequest, entry: ConsentEntry, wait: string): void {
    const req = entry.request;
    const client = this.authority.client(req.client_id);
    const clientName = client?.client_name ?? req.client_id;
    const session = this.owner.session(r.headers.get('cookie') ?? '');
    if (session === null) {
      const refresh = `${CONSENT_WAIT_PATH}?${new URLSearchParams({ id: entry.id, w: wait }).toString()}`;
      return sendPage(
        x,
        200,
        waitingPage({
          clientName,
          clientId: req.client_id,
          scope: req.scope,
          capabilities: req.capabilities,
          consentId: entry.id,
          refresh,
        }),
      );
    }
    sendPage(
      x,
      200,
      consentPage({
        clientName,
        clientId: req.client_id,
        redirectUri: req.redirect_uri,
        scope: req.scope,
        capabilities: req.capabilities,
        action: OAUTH_PATHS.authorize,
        csrf: session.csrf,
        consentId: entry.id,
        wait,
      }),
      req.redirect_uri,
    );
  }

  /** The waiting browser's poll: the redirect once the owner answered, else the pending page again. */
  private async wait(x: Exchange, r: OAuthRequest): Promise<void> {
    const q = new URLSearchParams(r.query);
    const wait = q.get('w') ?? '';
    const entry = this.consents.poll(q.get('id') ?? '', wait);
    if (entry === null) {
      return sendPage(
        x,
        400,
        errorPage(
          'Consent expired',
          'This consent request expired or was already answered. Start the authorization again from the client.',
        ),
      );
    }
    if (entry.status === 'pending') return this.showPending(x, r, entry, wait);
    await this.deliver(x, entry);
  }

  /** Redirects to the client with a code (approved) or access_denied. */
  private async deliver(x: Exchange, entry: ConsentEntry): Promise<void> {
    const { client_id, redirect_uri, code_challenge, scope, capabilities, state } = entry.request;
    if (entry.status === 'denied') {
      return redirect(x, redirectWith(redirect_uri, { error: 'access_denied', error_description: 'The owner denied the request', state }));
    }
    try {
      const code = await this.authority.issueCode({ client_id, redirect_uri, code_challenge, scope, capabilities });
      redirect(x, redirectWith(redirect_uri, { code, state }));
    } catch (err) {
      redirect(
        x,
        redirectWith(redirect_uri, {
          error: 'temporarily_unavailable',
          error_description: `No code could be issued: ${(err as Error).message}`,
          state,
        }),
      );
    }
  }

  /** The owner's answer from the consent form: needs the owner session and its CSRF token. */
  private async decide(x: Exchange, r: OAuthRequest, form: Map<string, string>): Promise<void> {
    const decision = form.get('decision');
    if (decision !== 'allow' && decision !== 'deny') {
      return sendPage(x, 400, errorPage('Invalid consent', "The form must answer 'allow' or 'deny'."));
    }
    if (this.owner.authorize(r.headers.get('cookie') ?? '', form.get('csrf') ?? '') === null) {
      return sendPage(
        x,
        403,
        errorPage(
          'Only the owner can approve',
          'Approving needs the owner session (run `athene open` and follow the login link) or `athene consent approve ID` on the command line.',
        ),
      );
    }
    const id = form.get('consent') ?? '';
    if (!this.consents.decide(id, decision === 'allow')) {
      return sendPage(
        x,
        400,
        errorPage(
          'Consent expired',
          'This consent request expired or was already answered. Start the authorization again from the client.',
        ),
      );
    }
    const entry = this.consents.poll(id, form.get('wait') ?? '');
    if (entry === null)
      return sendPage(
        x,
        200,
        errorPage(
          'Answered',
          `Request ${id} was ${decision === 'allow' ? 'approved' : 'denied'}; the browser that asked continues by itself.`,
        ),
      );
    await this.deliver(x, entry);
  }

  private async token(x: Exchange, form: Map<string, string>): Promise<void> {
    const grant = form.get('grant_type');
    const clientId = form.get('client_id');
    let result: IssuedTokens | OAuthError;
    if (grant === 'authorization_code') {
      const code = form.get('code');
      const redirectUri = form.get('redirect_uri');
      const verifier = form.get('code_verifier');
      const missing = [
        ['client_id', clientId],
        ['code', code],
        ['redirect_uri', redirectUri],
        ['code_verifier', verifier],
      ]
        .filter(([, v]) => v === undefined || v === '')
        .map(([k]) => k);
      if (missing.length > 0) return oauthError(x, 'invalid_request', `Missing parameters: ${missing.join(', ')}`);
      result = await this.settle(
        this.authority.exchangeCode({ client_id: clientId!, code: code!, redirect_uri: redirectUri!, code_verifier: verifier! }),
      );
    } else if (grant === 'refresh_token') {
      const refreshToken = form.get('refresh_token');
      const missing = [
        ['client_id', clientId],
        ['refresh_token', refreshToken],
      ]
        .filter(([, v]) => v === undefined || v === '')
        .map(([k]) => k);
      if (missing.length > 0) return oauthError(x, 'invalid_request', `Missing parameters: ${missing.join(', ')}`);
      const scope = form.get('scope');
      if (scope !== undefined) {
        const granted = resolveScope(scope);
        if (isScopeError(granted)) return oauthError(x, granted.error, granted.error_description);
      }
      result = await this.settle(
        this.authority.refresh({ client_id: clientId!, refresh_token: refreshToken!, ...(scope !== undefined ? { scope } : {}) }),
      );
    } else {
      return oauthError(
        x,
        grant === undefined ? 'invalid_request' : 'unsupported_grant_type',
        grant === undefined ? 'grant_type is required' : `grant_type '${grant}' is not supported; use authorization_code or refresh_token`,
      );
    }
    if (isOAuthError(result)) return oauthError(x, result.error, result.error_description, tokenErrorStatus(result.error));
    sendJson(x, 200, result, NO_STORE);
  }

  /** A rejected authority call is a service failure of the token endpoint, never an unhandled rejection. */
  private settle(p: Promise<IssuedTokens | OAuthError>): Promise<IssuedTokens | OAuthError> {
    return p.catch((err: unknown): OAuthError => ({ error: 'temporarily_unavailable', error_description: (err as Error).message }));
  }

  private async revoke(x: Exchange, form: Map<string, string>): Promise<void> {
    const token = form.get('token');
    if (token === undefined || token === '') return oauthError(x, 'invalid_request', 'token is required');
    let result;
    try {
      result = await this.authority.revokeToken(token, form.get('client_id'));
    } catch (err) {
      return oauthError(x, 'temporarily_unavailable', `The revocation could not be recorded: ${(err as Error).message}`, 503);
    }
    if (!result.ok) return oauthError(x, result.error, result.message, 503);
    sendJson(x, 200, {}, NO_STORE);
  }
}
