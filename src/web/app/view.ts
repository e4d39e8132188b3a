// The server view page: one section per topic, each refetched when the live event stream names it (and all
// of them when the stream (re)connects). The token is fetched only when the owner copies a connect command
// or asks to see it; it is never part of the page otherwise.

import { api, csrf, duration, empty, h, replace, when, whenSignedOut, ApiError } from './dom.js';
import { VIEW_SECTIONS_TITLES, type SectionId } from './sections.js';
import { OntologyBrowser } from './ontology.js';

type Json = Record<string, unknown>;

const body = (id: SectionId): HTMLElement => document.querySelector(`#${id} .body`) as HTMLElement;
const banner = document.getElementById('banner') as HTMLElement;

function showError(err: unknown): void {
  banner.hidden = false;
  banner.textContent = err instanceof Error ? err.message : String(err);
}

/** Runs an action of the owner; its failure is shown, never swallowed. */
function act(run: () => Promise<unknown>): () => void {
  return () => {
    banner.hidden = true;
    run().catch(showError);
  };
}

function badge(id: SectionId, count: number): void {
  const el = document.querySelector(`[data-badge="${id}"]`);
  if (el !== null) el.textContent = count > 0 ? String(count) : '';
}

// ------------------------------------------------------------------ overview

type ClientKind = 'claude' | 'vscode' | 'cursor';
const CONNECT: readonly [ClientKind, string][] = [
  ['claude', 'Claude Code'],
  ['vscode', 'VS Code (.vscode/mcp.json)'],
  ['cursor', 'Cursor (~/.cursor/mcp.json)'],
];
const HIDDEN_TOKEN = '<token>';

function connectText(kind: ClientKind, url: string, token: string): string {
  const auth = `Bearer ${token}`;
  if (kind === 'claude') return `claude mcp add --transport http athene ${url} --header "Authorization: ${auth}"`;
  if (kind === 'vscode') return JSON.stringify({ servers: { athene: { type: 'http', url, headers: { Authorization: auth } } } }, null, 2);
  return JSON.stringify({ mcpServers: { athene: { url, headers: { Authorization: auth } } } }, null, 2);
}

/** Copies to the clipboard; where the page is not a secure context (a plain-HTTP non-loopback bind), selects the text for a manual copy. */
async function copy(text: string, fallback: HTMLElement): Promise<boolean> {
  if (navigator.clipboard !== undefined && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return true;
  }
  const area = h('textarea', { readonly: true, rows: 4, class: 'grow' }, text);
  fallback.replaceChildren(area);
  area.select();
  return false;
}

async function renderOverview(): Promise<void> {
  const o = await api<Json>('/admin/view/overview');
  const url = String(o.url);
  const tokenSlot = h('span', { class: 'muted' }, 'hidden');
  const commands = CONNECT.map(([kind, title]) => {
    const status = h('span', { class: 'muted' });
    const manual = h('div');
    return h(
      'div',
      { class: 'card', 'data-test': 'connect-command', 'data-client': kind },
      h(
        'div',
        { class: 'row' },
        h('strong', { class: 'grow' }, title),
        h(
          'button',
          {
            'data-test': 'copy',
            onclick: act(async () => {
              const { token } = await api<{ token: string }>('/admin/view/token', {});
              status.textContent = (await copy(connectText(kind, url, token), manual)) ? 'copied, with the token' : 'select and copy';
            }),
          },
          'Copy',
        ),
        status,
      ),
      h('pre', {}, connectText(kind, url, HIDDEN_TOKEN)),
      manual,
    );
  });
  const toggle = (name: 'read_only' | 'confirm_each_write', label: string, test: string) =>
    h(
      'label',
      { class: 'toggle' },
      h('input', {
        type: 'checkbox',
        'data-test': test,
        checked: o[name] === true,
        onchange: (e: Event) => {
          const box = e.target as HTMLInputElement;
          act(async () => {
            try {
              await api('/admin/view/write-modes', { [name]: box.checked });
            } finally {
              await renderOverview();
            }
          })();
        },
      }),
      label,
    );
  replace(
    body('overview'),
    h(
      'div',
      { 'data-test': 'overview' },
      h(
        'div',
        { class: 'card' },
        h(
          'dl',
          { class: 'facts' },
          h('dt', {}, 'Endpoint'),
          h('dd', { 'data-test': 'url' }, h('code', {}, url)),
          h('dt', {}, 'Transport'),
          h('dd', {}, String(o.transport)),
          h('dt', {}, 'Version'),
          h('dd', {}, String(o.version)),
          h('dt', {}, 'Uptime'),
          h('dd', {}, duration(Number(o.uptime_s))),
          h('dt', {}, 'Windows / sessions'),
          h('dd', {}, `${String(o.windows)} / ${String(o.sessions)}`),
        ),
      ),
      h(
        'div',
        { class: 'card' },
        toggle('read_only', 'Read-only mode: refuse every mutating tool', 'read-only'),
        toggle('confirm_each_write', 'Confirm each write: hold every edit until approved here', 'confirm-each-write'),
      ),
      h(
        'div',
        { class: 'card' },
        h(
          'div',
          { class: 'row' },
          h('strong', {}, 'Bearer token'),
          h('code', { 'data-test': 'token', class: 'grow' }, tokenSlot),
          h(
            'button',
            {
              'data-test': 'show-token',
              onclick: act(async () => {
                const { token } = await api<{ token: string }>('/admin/view/token', {});
                replace(document.querySelector('[data-test="token"]')!, token);
              }),
            },
            'Show token',
          ),
          h(
            'button',
            {
              class: 'danger',
              'data-test': 'regenerate',
              onclick: act(async () => {
                if (
                  !window.confirm(
                    'Regenerate the bearer token? Every client using the current token stops working until it is given the new one.',
                  )
                )
                  return;
                const res = await fetch('/admin/api/token/regenerate', {
                  method: 'POST',
                  headers: { 'x-athene-csrf': csrf },
                  credentials: 'same-origin',
                });
                const data = (await res.json()) as Json;
                if (!res.ok) throw new ApiError(String(data.error), res.status, undefined);
                replace(document.querySelector('[data-test="token"]')!, String(data.token));
              }),
            },
            'Regenerate…',
          ),
        ),
      ),
      h('h3', {}, 'Connect a client'),
      h(
        'p',
        { class: 'muted' },
        'Copy puts the command on the clipboard with the current token filled in; the page never shows it unless you ask.',
      ),
      commands,
    ),
  );
}

// ------------------------------------------------------------------ pending writes

function changeList(changes: unknown): HTMLElement | null {
  if (!Array.isArray(changes) || changes.length === 0) return null;
  return h(
    'ul',
    { class: 'changes' },
    (changes as Json[]).map((c) => {
      const op = String(c.op);
      const sign = op.startsWith('add') ? '+' : op.startsWith('remove') ? '−' : '•';
      return h(
        'li',
        { class: op.startsWith('add') ? 'op-add' : op.startsWith('remove') ? 'op-remove' : '' },
        `${sign} `,
        h('code', {}, String(c.manchester ?? c.functional ?? op)),
      );
    }),
  );
}

async function renderPending(): Promise<void> {
  const { pending } = await api<{ pending: Json[] }>('/admin/view/pending');
  badge('pending', pending.length);
  const decide = (id: string, verb: 'approve' | 'deny') =>
    act(async () => {
      const res = await fetch(`/admin/api/pending/${encodeURIComponent(id)}/${verb}`, {
        method: 'POST',
        headers: { 'x-athene-csrf': csrf },
        credentials: 'same-origin',
      });
      if (!res.ok) throw new Error(String(((await res.json()) as Json).error));
      await renderPending();
    });
  replace(
    body('pending'),
    pending.length === 0
      ? empty('No write is waiting. With "confirm each write" on, every edit an agent makes waits here.')
      : pending.map((p) => {
          const id = String(p.approval_id);
          return h(
            'div',
            { class: 'card', 'data-test': 'pending-item', 'data-pending-id': id },
            h(
              'div',
              { class: 'row' },
              h('strong', { class: 'grow' }, String(p.tool)),
              h('span', { class: 'muted' }, `by ${String(p.client)}`),
            ),
            h(
              'div',
              { class: 'muted' },
              `held ${when(String(p.created_at))}, denied automatically at ${when(String(p.expires_at))} unless decided`,
            ),
            changeList(p.changes) ?? h('pre', {}, String(p.summary)),
            h(
              'div',
              { class: 'row' },
              h('button', { class: 'approve', 'data-test': 'approve', onclick: decide(id, 'approve') }, 'Approve'),
              h('button', { class: 'danger', 'data-test': 'deny', onclick: decide(id, 'deny') }, 'Deny'),
            ),
          );
        }),
  );
}

// ------------------------------------------------------------------ consent

async function renderConsent(): Promise<void> {
  const { consents } = await api<{ consents: Json[] }>('/admin/view/consents');
  badge('consent', consents.length);
  const decide = (id: string, verb: 'approve' | 'deny') =>
    act(async () => {
      await api(`/admin/view/consents/${encodeURIComponent(id)}/${verb}`, {});
      await renderConsent();
    });
  replace(
    body('consent'),
    consents.length === 0
      ? empty('No client is asking for access.')
      : consents.map((c) => {
          const id = String(c.id);
          return h(
            'div',
            { class: 'card', 'data-test': 'consent-item', 'data-consent-id': id },
            h(
              'div',
              { class: 'row' },
              h('strong', { class: 'grow', 'data-test': 'client-name' }, String(c.client_name ?? c.client_id)),
              h('span', { class: 'muted' }, `request ${id}`),
            ),
            h('div', {}, 'Sends you back to ', h('code', { 'data-test': 'redirect-uri' }, String(c.redirect_uri))),
            h('div', {}, 'Asks for the scope ', h('code', {}, String(c.scope)), ', which allows it to:'),
            h(
              'ul',
              {},
              (c.capabilities as Json[]).map((k) =>
                h('li', {}, String(k.words), ' ', h('span', { class: 'muted' }, `(${String(k.capability)})`)),
              ),
            ),
            h(
              'div',
              { class: 'row' },
              h('button', { class: 'approve', 'data-test': 'approve', onclick: decide(id, 'approve') }, 'Approve'),
              h('button', { class: 'danger', 'data-test': 'deny', onclick: decide(id, 'deny') }, 'Deny'),
            ),
          );
        }),
  );
}

// ------------------------------------------------------------------ clients and sessions

async function renderClients(): Promise<void> {
  const { clients, sessions } = await api<{ clients: Json[]; sessions: Json[] }>('/admin/view/clients');
  const clientCards =
    clients.length === 0
      ? empty('No OAuth client has registered.')
      : clients.map((c) => {
          const id = String(c.client_id);
          const grants = c.grants as Json[];
          return h(
            'div',
            { class: 'card', 'data-test': 'client-item', 'data-client-id': id },
            h('div', { class: 'row' }, h('strong', { class: 'grow' }, String(c.client_name)), h('span', { class: 'muted' }, id)),
            h(
              'div',
              {},
              grants.length === 0
                ? h('span', { class: 'muted' }, 'no live grant')
                : `scopes: ${grants.map((g) => String(g.scope)).join('; ')}`,
            ),
            h(
              'div',
              { class: 'muted' },
              `registered ${when(String(c.registered_at))}, last seen ${when(c.last_seen_at as string | null)}, ${String(c.sessions)} session(s)`,
            ),
            h(
              'div',
              { class: 'row' },
              h(
                'button',
                {
                  class: 'danger',
                  'data-test': 'revoke',
                  onclick: act(async () => {
                    if (
                      !window.confirm(`Revoke ${String(c.client_name)}? Its sessions end, its calls are cut and its tokens stop working.`)
                    )
                      return;
                    await api(`/admin/view/clients/${encodeURIComponent(id)}/revoke`, {});
                    await renderClients();
                  }),
                },
                'Revoke',
              ),
            ),
          );
        });
  const sessionCards =
    sessions.length === 0
      ? empty('No MCP session is open.')
      : sessions.map((s) =>
          h(
            'div',
            { class: 'card', 'data-test': 'session-item', 'data-session-id': String(s.session_id) },
            h('div', { class: 'row' }, h('strong', { class: 'grow' }, String(s.name)), h('code', { class: 'muted' }, String(s.session_id))),
            h(
              'div',
              { class: 'muted' },
              `connected ${when(String(s.connected_at))}, last call ${when(String(s.last_call_at))}, window ${String(s.window_id).slice(0, 8)}`,
            ),
            h('div', { class: 'muted' }, `capabilities: ${(s.capabilities as string[]).join(', ')}`),
            h(
              'div',
              { class: 'row' },
              h(
                'button',
                {
                  class: 'danger',
                  'data-test': 'terminate',
                  onclick: act(async () => {
                    await api(`/admin/view/sessions/${encodeURIComponent(String(s.session_id))}/terminate`, {});
                    await renderClients();
                  }),
                },
                'Terminate',
              ),
            ),
          ),
        );
  replace(body('clients'), h('h3', {}, 'OAuth clients'), clientCards, h('h3', {}, 'Sessions'), sessionCards);
}

// ------------------------------------------------------------------ windows

let windows: Json[] = [];
/** The window the change feed and the ontology browser show: at first the one the shell names. */
let selected: string | null = document.querySelector('meta[name="athene-window"]')?.getAttribute('content') || null;
const windowListeners: (() => void)[] = [];

/** Windows the feed and the ontology browser can show: this process's and other processes' that answer. */
const browsable = (): Json[] => windows.filter((w) => w.pulse !== null);

function windowPicker(): HTMLElement | null {
  const open = browsable();
  if (open.length < 2) return null;
  return h(
    'select',
    {
      'data-test': 'window-picker',
      onchange: (e: Event) => {
        selected = (e.target as HTMLSelectElement).value;
        for (const l of windowListeners) l();
      },
    },
    open.map((w) =>
      h(
        'option',
        { value: String(w.id), selected: w.id === selected },
        `${String(w.label)}${w.local === true ? '' : ` (process ${String(w.pid)})`}`,
      ),
    ),
  );
}

/** A window's own read-only and confirm-each-write switches (another process's window is switched through the broker). */
function windowModes(w: Json, pulse: Json): HTMLElement {
  const id = String(w.id);
  const modes = { read_only: pulse.read_only === true, confirm_each_write: pulse.confirm_each_write === true };
  const toggle = (name: 'read_only' | 'confirm_each_write', label: string) =>
    h(
      'label',
      { class: 'toggle' },
      h('input', {
        type: 'checkbox',
        'data-test': `window-${name.replaceAll('_', '-')}`,
        checked: modes[name],
        onchange: (e: Event) => {
          const box = e.target as HTMLInputElement;
          act(async () => {
            try {
              await api(`/admin/view/windows/${encodeURIComponent(id)}/write-modes`, { ...modes, [name]: box.checked });
            } finally {
              await loadWindows();
            }
          })();
        },
      }),
      label,
    );
  return h('div', { class: 'row' }, toggle('read_only', 'read-only'), toggle('confirm_each_write', 'confirm each write'));
}

async function loadWindows(): Promise<void> {
  windows = (await api<{ windows: Json[] }>('/admin/view/windows')).windows;
  const open = browsable();
  const before = selected;
  if (selected === null || !open.some((w) => w.id === selected))
    selected =
      ((open.find((w) => w.local === true && w.newest === true) ?? open.find((w) => w.local === true) ?? open[0])?.id as string) ?? null;
  if (selected !== before) for (const l of windowListeners) l();
  replace(
    body('windows'),
    windows.length === 0
      ? empty('No window is open.')
      : windows.map((w) => {
          const pulse = w.pulse as Json | null;
          const journal = w.journal as Json | null;
          return h(
            'div',
            {
              class: 'card',
              'data-test': 'window-item',
              'data-window-id': String(w.id),
              'data-state': String(w.state),
              'data-local': String(w.local === true),
            },
            h(
              'div',
              { class: 'row' },
              h('strong', { class: 'grow' }, String(w.label)),
              h('span', {}, String(w.state)),
              w.newest === true ? h('span', { class: 'muted' }, 'takes new sessions') : null,
            ),
            h('div', { class: 'muted' }, w.local === true ? 'this process' : `process ${String(w.pid)} (behind the broker)`),
            h(
              'ul',
              {},
              (w.documents as string[]).map((d) => h('li', {}, h('code', {}, d))),
            ),
            h(
              'div',
              { 'data-test': 'window-dirty' },
              pulse === null
                ? h('span', { class: 'muted' }, 'no live state')
                : `${String(pulse.dirty)} ontolog${pulse.dirty === 1 ? 'y' : 'ies'} with unsaved changes`,
              w.unsaved === null || w.unsaved === undefined
                ? null
                : h(
                    'span',
                    { 'data-test': 'window-unsaved', 'data-count': String(w.unsaved) },
                    `; ${String(w.unsaved)} journaled change(s) not saved`,
                  ),
            ),
            journal === null
              ? null
              : h(
                  'div',
                  { class: 'muted', 'data-test': 'window-recovery' },
                  `recovery: ${String(journal.recovered)} replayed at start, ${String(journal.pending_recovery)} waiting`,
                ),
            pulse === null ? null : windowModes(w, pulse),
            w.reason === null ? null : h('div', { class: 'muted' }, `last failure: ${String(w.reason)}`),
            h(
              'div',
              { class: 'muted', 'data-test': 'window-sessions' },
              `sessions: ${(w.session_list as Json[]).map((s) => String(s.name)).join(', ') || 'none'}`,
            ),
          );
        }),
  );
}

// ------------------------------------------------------------------ live changes

const feedFilter = { client: '', entity: '' };

async function renderChanges(): Promise<void> {
  const container = body('changes');
  if (container.childElementCount === 0) {
    const input = (name: 'client' | 'entity', placeholder: string) =>
      h('input', {
        type: 'search',
        placeholder,
        'data-test': `filter-${name}`,
        onchange: (e: Event) => {
          feedFilter[name] = (e.target as HTMLInputElement).value.trim();
          act(renderChanges)();
        },
      });
    replace(
      container,
      h(
        'div',
        { class: 'filters' },
        h('span', { 'data-slot': 'picker' }),
        input('client', 'client (name, id or session)'),
        input('entity', 'entity (IRI or name)'),
      ),
      h('div', { 'data-slot': 'feed' }),
    );
  }
  replace(container.querySelector('[data-slot="picker"]')!, windowPicker());
  const feed = container.querySelector('[data-slot="feed"]')!;
  if (selected === null) return replace(feed, empty('No window is open.'));
  const q = new URLSearchParams();
  if (feedFilter.client !== '') q.set('client', feedFilter.client);
  if (feedFilter.entity !== '') q.set('entity', feedFilter.entity);
  const data = await api<Json>(`/admin/view/windows/${encodeURIComponent(selected)}/changes?${q}`);
  if (data.journal === false) return replace(feed, empty('The change journal is off (setting journal_enabled), so there is no feed.'));
  const entries = data.entries as Json[];
  replace(
    feed,
    entries.length === 0
      ? empty('No change matches.')
      : entries.map((e) => {
          const principal = (e.principal ?? {}) as Json;
          const client = (e.client ?? null) as Json | null;
          const window = selected as string;
          return h(
            'div',
            {
              class: 'card',
              'data-test': 'change-item',
              'data-client-id': String(principal.client_id ?? ''),
              'data-tool': String(e.tool ?? ''),
              'data-seq': String(e.seq),
            },
            h(
              'div',
              { class: 'row' },
              h('strong', { class: 'grow' }, String(e.tool ?? e.cause)),
              h(
                'span',
                {},
                client === null ? String(principal.name ?? 'unknown') : `${String(client.name)} (${String(principal.name ?? '')})`,
              ),
              h('span', { class: 'muted' }, when(String(e.time))),
            ),
            h(
              'div',
              { class: 'muted' },
              `#${String(e.seq)} ${e.cause === 'apply' ? '' : String(e.cause)}${e.saved === true ? ' saved' : ' not saved'}`,
            ),
            changeList(e.changes),
            h(
              'div',
              { class: 'row' },
              h(
                'button',
                {
                  'data-test': 'revert',
                  onclick: act(async () => {
                    const r = await api<Json>(`/admin/view/windows/${encodeURIComponent(window)}/revert`, {
                      seq: Number(e.seq),
                      document: String(e.document),
                    });
                    if (Array.isArray(r.conflicts) && r.conflicts.length > 0)
                      showError(`Reverted what still applied; ${r.conflicts.length} change(s) no longer apply.`);
                    await renderChanges();
                  }),
                },
                'Revert',
              ),
            ),
          );
        }),
  );
}

// ------------------------------------------------------------------ wiring

const ontology = new OntologyBrowser(body('ontology'), () => selected, windowPicker, act);
windowListeners.push(
  () => act(renderChanges)(),
  () => act(() => ontology.reset())(),
);

const RENDER: Record<string, () => Promise<void>> = {
  overview: renderOverview,
  pending: renderPending,
  consent: renderConsent,
  clients: renderClients,
  windows: async () => {
    await loadWindows();
    await renderOverview();
  },
  changes: async () => {
    await renderChanges();
    await ontology.refresh();
  },
};

/** Refetches the named topics, one at a time per topic (a newer event waits for the running fetch). */
const running = new Map<string, Promise<void>>();
function refresh(topics: readonly string[]): void {
  for (const t of topics) {
    const run = RENDER[t];
    if (run === undefined) continue;
    const next = (running.get(t) ?? Promise.resolve()).then(run).catch(showError);
    running.set(t, next);
  }
}

/** Everything, as at the start; the section in view first, so a large class tree does not wait behind the rest. */
async function refreshAll(): Promise<void> {
  const tree = ontology.refresh().catch(showError);
  const listed = loadWindows().catch(showError);
  if (visibleSection() === 'ontology') await tree;
  await listed;
  refresh(['overview', 'pending', 'consent', 'clients']);
  await Promise.all([renderChanges().catch(showError), tree]);
}

function visibleSection(): string | undefined {
  return document.querySelector<HTMLElement>('[data-section]:not([hidden])')?.dataset.section;
}

function showSection(id: string): void {
  const known = VIEW_SECTIONS_TITLES.some(([s]) => s === id) ? id : 'overview';
  for (const s of document.querySelectorAll<HTMLElement>('[data-section]')) s.hidden = s.dataset.section !== known;
  for (const a of document.querySelectorAll<HTMLAnchorElement>('[data-tab]')) {
    if (a.dataset.tab === known) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

for (const a of document.querySelectorAll<HTMLAnchorElement>('[data-tab]')) {
  a.addEventListener('click', (e) => {
    e.preventDefault();
    history.pushState(null, '', a.href);
    showSection(a.dataset.tab ?? 'overview');
  });
}
window.addEventListener('popstate', () => showSection(location.pathname.replace(/^\/admin\/?/, '')));
showSection(location.pathname.replace(/^\/admin\/?/, ''));

const live = document.getElementById('live') as HTMLElement;
let signedOut = false;

function connect(): void {
  const events = new EventSource('/admin/view/events');
  // every `hello` (the first, and each after a reconnect) loads everything: what changed before the stream
  // (re)started is in those answers, and every change after it is announced on the stream
  events.addEventListener('hello', () => {
    live.textContent = 'live';
    live.classList.add('on');
    void refreshAll();
  });
  events.addEventListener('changed', (e) => refresh((JSON.parse((e as MessageEvent<string>).data) as { topics: string[] }).topics));
  events.addEventListener('signed-out', () => {
    events.close();
    signOut();
  });
  events.addEventListener('error', () => {
    live.textContent = 'reconnecting…';
    live.classList.remove('on');
    // a closed stream (the server restarted, or said no) is reopened; the browser retries an interrupted one by itself
    if (events.readyState !== EventSource.CLOSED) return;
    // a refused stream may mean the session ended: one API call tells (a 401 signs the page out)
    const retry = () => {
      if (!signedOut) setTimeout(connect, 2000);
    };
    api('/admin/view/overview').then(retry, retry);
  });
}

function signOut(): void {
  signedOut = true;
  live.textContent = 'signed out';
  banner.hidden = false;
  banner.textContent = 'The owner session ended. Run `athene open` for a new login link.';
}

whenSignedOut(signOut);
// a page opened on the ontology draws its tree without waiting for the event stream (whose `hello` reloads it)
if (visibleSection() === 'ontology') void ontology.reset().catch(showError);
connect();
