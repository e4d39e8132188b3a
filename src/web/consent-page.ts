// The OAuth consent page and the error pages of the authorization endpoint: server-rendered HTML with
// every interpolated value escaped, no script, and headers that forbid framing, caching and referrers.

import type { Capability } from '../auth/principal.js';

/**
 * Headers of every page the authorization endpoint serves. Browsers apply `form-action` to the redirect
 * that answers a form post too, so the consent page also allows the origin (or private-use scheme) of the
 * redirect URI its form leads to; error pages allow only 'self'.
 */
export function pageHeaders(redirectUri: string | null = null): readonly (readonly [string, string])[] {
  const formAction = redirectUri === null ? "'self'" : `'self' ${redirectSource(redirectUri)}`;
  return [
    ['content-type', 'text/html; charset=utf-8'],
    ['content-security-policy', `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'`],
    ['x-frame-options', 'DENY'],
    ['cache-control', 'no-store'],
    ['referrer-policy', 'no-referrer'],
    ['x-content-type-options', 'nosniff'],
  ];
}

/** A CSP source for a validated redirect URI: its origin, or its private-use scheme (`com.example.app:`). */
export function redirectSource(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}

/** What each capability lets a client do, in words a user approving it can judge. */
export const CAPABILITY_WORDS: Readonly<Record<Capability, string>> = {
  'ontology:read': 'Read and query the open ontologies',
  'ontology:curate': 'Edit the ontologies: add and remove axioms, apply change sets, undo and redo',
  'ontology:admin': 'Administer the workspace: ontology identity, imports, loading, reasoner settings',
  'ontology:release': 'Run release gates and prepare releases',
  'filesystem:project:read': 'Read files inside the project',
  'filesystem:project:write': 'Write files inside the project',
  'filesystem:external': 'Reach files outside the project, where the project policy allows it',
  'external-terms:read': 'Look up terms in external ontology services the project allows',
  'network:access': 'Make network requests, where the request and the project policy allow it',
  'server:admin': 'Administer this server: its clients, its token and held writes',
};

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.3rem}ul{padding-left:1.2rem}.muted{color:#666;font-size:.9rem}
form{display:flex;gap:1rem;margin-top:1.5rem}button{font:inherit;padding:.5rem 1.5rem;cursor:pointer}`;

function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`
  );
}

/** The part of a redirect URI a user recognizes: its host (and port), or the app's private-use scheme. */
export function redirectHost(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : url.protocol.slice(0, -1);
}

export interface ConsentView {
  readonly clientName: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly scope: string;
  readonly capabilities: readonly Capability[];
  /** Where the form posts (the authorization endpoint's path). */
  readonly action: string;
  /** The owner session's CSRF token. */
  readonly csrf: string;
  /** The consent request's id, and the requesting browser's wait key (so the answer can redirect it). */
  readonly consentId: string;
  readonly wait: string;
}

export interface WaitingView {
  readonly clientName: string;
  readonly clientId: string;
  readonly scope: string;
  readonly capabilities: readonly Capability[];
  readonly consentId: string;
  /** Where the page refreshes to (the poll URL). */
  readonly refresh: string;
}

/** Seconds between refreshes of the waiting page. */
export const WAIT_REFRESH_S = 3;

/**
 * The page a consent request gets without an owner session: what is asked and how the owner approves it.
 * It refreshes itself and turns into the redirect once the owner has answered; it never approves anything.
 */
export function waitingPage(view: WaitingView): string {
  const lines = view.capabilities
    .map((c) => `<li>${escapeHtml(CAPABILITY_WORDS[c])} <span class="muted">(${escapeHtml(c)})</span></li>`)
    .join('');
  return page(
    'Waiting for the owner',
    `<meta http-equiv="refresh" content="${WAIT_REFRESH_S};url=${escapeHtml(view.refresh)}">
<h1><strong id="client-name">${escapeHtml(view.clientName)}</strong> asks to use Athene</h1>
<p>It asks for the scope <code id="scope">${escapeHtml(view.scope)}</code>, which allows it to:</p>
<ul id="capabilities">${lines}</ul>
<p>Only the owner of this server (the OS user who can read its private directory) can approve it, in one of two ways:</p>
<ul><li>on the command line: <code id="approve-command">athene consent approve ${escapeHtml(view.consentId)}</code> (or <code>athene consent deny ${escapeHtml(view.consentId)}</code>);</li>
<li>in this browser: run <code>athene open</code>, follow the single-use login link it prints, and come back to this page.</li></ul>
<p class="muted">Request <span id="consent-id">${escapeHtml(view.consentId)}</span> of client ${escapeHtml(view.clientId)}. This page refreshes every ${WAIT_REFRESH_S} seconds and continues by itself once the owner has answered.</p>`,
  );
}

export function consentPage(view: ConsentView): string {
  const lines = view.capabilities
    .map((c) => `<li>${escapeHtml(CAPABILITY_WORDS[c])} <span class="muted">(${escapeHtml(c)})</span></li>`)
    .join('');
  return page(
    'Authorize ' + view.clientName,
    `<h1>Allow <strong id="client-name">${escapeHtml(view.clientName)}</strong> to use Athene?</h1>
<p>It will be sent back to <strong id="redirect-host">${escapeHtml(redirectHost(view.redirectUri))}</strong>.</p>
<p>It asks for the scope <code id="scope">${escapeHtml(view.scope)}</code>, which allows it to:</p>
<ul id="capabilities">${lines}</ul>
<p class="muted">Client id ${escapeHtml(view.clientId)}. You can revoke access later in the server view (Clients &amp; sessions) or with <code>athene clients revoke</code>.</p>
<form method="post" action="${escapeHtml(view.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<input type="hidden" name="consent" value="${escapeHtml(view.consentId)}">
<input type="hidden" name="wait" value="${escapeHtml(view.wait)}">
<button type="submit" name="decision" value="allow" id="allow">Allow</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button>
</form>`,
  );
}

/** A page explaining why the request cannot proceed (never redirected: the redirect URI is not trusted). */
export function errorPage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p id="message">${escapeHtml(message)}</p>`);
}
