// The admin API for OAuth clients. Every `/admin/` route here needs a principal with `server:admin` (the
// front door checks that before dispatching here); replacing the static token needs the owner
// (owner-routes.ts), never a bearer token.

import type { Authority } from '../auth/oauth/authority.js';
import type { Principal } from '../auth/principal.js';
import { regenerateToken, type StaticTokenVerifier } from '../auth/static-token.js';
import { sendJson, type Exchange } from './respond.js';
import { TOOL_PROFILES, type ToolProfile } from '../settings/settings.js';

export const CLIENTS_ROUTE = '/admin/api/clients';
export const REVOKE_CLIENT_ROUTE = /^\/admin\/api\/clients\/([^/]+)\/revoke$/;
export const TOOL_PROFILE_ROUTE = '/admin/api/tool-profile';
/** A tool-profile body is one short JSON object. */
const TOOL_PROFILE_BODY_LIMIT = 1024;

/** Where the owner's tool profile lives: the window registry. */
export interface ToolProfileHolder {
  readonly toolProfile: ToolProfile;
  setToolProfile(profile: ToolProfile): void;
}

/** Why a principal may not use the admin API, or null when it may. */
export function adminRefusal(principal: Principal): string | null {
  return principal.capabilities.includes('server:admin') ? null : 'The admin API requires the server:admin capability';
}

export class AdminRoutes {
  constructor(
    private readonly authority: Authority,
    private readonly home: string,
    private readonly verifier: StaticTokenVerifier,
    private readonly profiles: ToolProfileHolder,
    private readonly readBody: (x: Exchange, limit: number, then: (body: string) => void) => void,
  ) {}

  /** `GET /admin/api/clients`. */
  clients(x: Exchange): void {
    sendJson(x, 200, { clients: this.authority.listClients() }, [['cache-control', 'no-store']]);
  }

  /** `GET` or `PUT /admin/api/tool-profile`. */
  toolProfile(x: Exchange, method: string): void {
    if (method === 'GET') sendJson(x, 200, { tool_profile: this.profiles.toolProfile });
    else this.readBody(x, TOOL_PROFILE_BODY_LIMIT, (body) => this.setToolProfile(x, body));
  }

  /** `POST /admin/api/clients/{id}/revoke`. */
  async revokeClient(x: Exchange, clientId: string): Promise<void> {
    if (this.authority.client(clientId) === undefined) return sendJson(x, 404, { error: `No OAuth client ${clientId}` });
    try {
      const result = await this.authority.revokeClient(clientId);
      if (!result.ok) return sendJson(x, 503, { error: result.message, error_code: result.error, revoked: false });
      sendJson(x, 200, { revoked: true, client_id: clientId, grant_ids: result.grant_ids });
    } catch (err) {
      sendJson(x, 503, {
        error: `The revocation could not be recorded: ${(err as Error).message}`,
        error_code: 'temporarily_unavailable',
        revoked: false,
      });
    }
  }

  /** `{"tool_profile": "core"}`: every session of this process's windows is told its tool list changed. */
  private setToolProfile(x: Exchange, body: string): void {
    let requested: unknown;
    try {
      requested = (JSON.parse(body) as { tool_profile?: unknown } | null)?.tool_profile;
    } catch {
      requested = undefined;
    }
    const profile = TOOL_PROFILES.find((p) => p === requested);
    if (profile === undefined)
      return sendJson(x, 400, { error: `tool_profile must be one of ${TOOL_PROFILES.join(', ')}`, error_code: 'invalid_argument' });
    this.profiles.setToolProfile(profile);
    sendJson(x, 200, { tool_profile: profile });
  }

  /** Replaces the static token; the running verifier accepts only the new one from now on. */
  async regenerateToken(): Promise<string> {
    const token = await regenerateToken(this.home);
    this.verifier.adopt(token);
    return token;
  }
}
