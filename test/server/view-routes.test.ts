// The server view's routes over real HTTP (both transports): the owner session on every page, asset and
// API call, the CSRF token on every change, a foreign Origin refused, the strict CSP; the write-mode
// switches reaching the windows; session termination; the window questions (class tree pages, change feed,
// revert, entity card) and the live event stream announcing an agent's edit.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, fixture, connect, call, ownerLogin, raw, type OwnerBrowser, type TestServer } from './support.js';
import { at } from '../support/at.js';

let t: TestServer;
let owner: OwnerBrowser;
let windowId: string;

before(async () => {
  t = await startTestServer([fixture('zoo.ttl')]);
  owner = await ownerLogin(t);
  windowId = at(t.server.registry.local, 0).id;
});

after(async () => {
  await t.stop();
});

const get = (path: string, headers: Record<string, string> = {}) => raw(t, { path, headers: { cookie: owner.cookie, ...headers } });
const post = (path: string, body: unknown, headers: Record<string, string> = { cookie: owner.cookie, 'x-athene-csrf': owner.csrf }) =>
  raw(t, { method: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

test('every page, asset and API route needs the owner session; a bearer token is not one', async () => {
  for (const path of [
    '/',
    '/admin',
    '/admin/ontology',
    '/admin/assets/view.js',
    '/admin/assets/view.css',
    '/admin/view/overview',
    '/admin/view/windows',
    '/admin/view/events',
  ]) {
    const none = await raw(t, { path });
    assert.equal(none.status, 401, path);
    await none.text();
    const bearer = await raw(t, { path, headers: { authorization: `Bearer ${t.token}` } });
    assert.equal(bearer.status, 401, `${path} with a bearer token`);
    await bearer.text();
  }
  const page = await get('/');
  assert.equal(page.status, 200);
  const csp = page.headers.get('content-security-policy') ?? '';
  for (const directive of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"])
    assert.ok(csp.includes(directive), directive);
  assert.equal(page.headers.get('x-frame-options'), 'DENY');
  const html = await page.text();
  assert.ok(html.includes(`<meta name="athene-csrf" content="${owner.csrf}">`));
  assert.ok(!html.includes(t.token), 'the token is not in the page');
  assert.ok(!/<script(?![^>]*\bsrc=)/.test(html), 'no inline script');
  const script = await get('/admin/assets/view.js');
  assert.equal(script.status, 200);
  assert.match(script.headers.get('content-type') ?? '', /text\/javascript/);
  assert.match(await script.text(), /EventSource/);
  assert.equal((await get('/admin/assets/%2e%2e%2ftoken')).status, 404);
  assert.equal((await get('/admin/assets/nothing.js')).status, 404);
});

test('a state-changing call needs the CSRF token; a foreign Origin is refused before anything', async () => {
  assert.equal((await post('/admin/view/token', {}, { cookie: owner.cookie })).status, 403);
  assert.equal((await post('/admin/view/token', {}, { cookie: owner.cookie, 'x-athene-csrf': owner.csrf.slice(1) })).status, 403);
  assert.equal((await post('/admin/view/token', {}, { authorization: `Bearer ${t.token}` })).status, 401);
  assert.equal(
    (await post('/admin/view/token', {}, { cookie: owner.cookie, 'x-athene-csrf': owner.csrf, origin: 'http://evil.example' })).status,
    403,
  );
  assert.equal((await get('/admin/view/overview', { origin: 'http://evil.example' })).status, 403);
  const shown = await post('/admin/view/token', {});
  assert.equal(shown.status, 200);
  assert.equal(shown.headers.get('cache-control'), 'no-store');
  assert.equal((await json(shown)).token, t.token);
  const bad = await raw(t, {
    method: 'POST',
    path: '/admin/view/write-modes',
    headers: { cookie: owner.cookie, 'x-athene-csrf': owner.csrf },
    body: '[1',
  });
  assert.equal(bad.status, 400);
  assert.equal((await json(bad)).error_code, 'invalid_argument');
  assert.equal((await post('/admin/view/write-modes', { read_only: 'yes' })).status, 400);
  assert.equal((await post('/admin/view/nothing', {})).status, 404);
});

test("the overview reports the endpoint; read-only switched from the view refuses an agent's write and lifts again", async () => {
  const overview = await json(await get('/admin/view/overview'));
  assert.equal(overview.url, t.server.url);
  assert.equal(overview.read_only, false);
  assert.equal(typeof overview.version, 'string');
  const agent = await connect(t);
  try {
    assert.equal((await post('/admin/view/write-modes', { read_only: true })).status, 200);
    assert.equal((await json(await get('/admin/view/overview'))).read_only, true);
    const refused = await call(agent, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Fish', super: 'Animal' });
    assert.equal(refused.body.error_code, 'read_only');
    assert.equal((await post('/admin/view/write-modes', { read_only: false })).status, 200);
    assert.equal((await call(agent, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Fish', super: 'Animal' })).isError, false);
  } finally {
    await agent.close();
  }
});

test('a session terminated from the view is gone for its client', async () => {
  const agent = await connect(t, t.token);
  try {
    const { sessions } = (await json(await get('/admin/view/clients'))) as {
      sessions: { session_id: string; name: string; connected_at: string }[];
    };
    assert.ok(sessions.length >= 1);
    const sid = sessions.at(-1)!.session_id;
    assert.ok(!Number.isNaN(Date.parse(sessions.at(-1)!.connected_at)));
    assert.equal((await post(`/admin/view/sessions/${sid}/terminate`, {})).status, 200);
    assert.equal((await post(`/admin/view/sessions/${sid}/terminate`, {})).status, 404);
    const after = (await json(await get('/admin/view/clients'))) as { sessions: { session_id: string }[] };
    assert.ok(!after.sessions.some((s) => s.session_id === sid));
  } finally {
    await agent.close().catch(() => undefined);
  }
});

test('class tree pages, the change feed with its filters, revert through the journal, and the entity card', async () => {
  const agent = await connect(t);
  try {
    const roots = (await json(await get(`/admin/view/windows/${windowId}/classes`))) as {
      total: number;
      items: { iri: string; display: string; children: number }[];
    };
    const animal = roots.items.find((r) => r.iri === 'http://example.org/zoo#Animal');
    assert.ok(animal !== undefined && animal.children >= 2, JSON.stringify(roots));
    const children = (await json(await get(`/admin/view/windows/${windowId}/classes?parent=${encodeURIComponent(animal.iri)}`))) as {
      items: { display: string }[];
    };
    assert.ok(children.items.some((c) => c.display === 'mammal'));
    assert.equal((await get(`/admin/view/windows/${windowId}/classes?offset=-1`)).status, 400);
    assert.equal((await get('/admin/view/windows/no-such-window/classes')).status, 404);

    assert.equal((await call(agent, 'remove_axiom', { axiom_type: 'subclass_of', sub: 'Bird', super: 'Animal' })).isError, false);
    const feed = (await json(await get(`/admin/view/windows/${windowId}/changes?entity=Bird`))) as {
      entries: { seq: number; tool: string; document: string; changes: { manchester: string }[] }[];
      unsaved: number;
    };
    const removal = at(feed.entries, 0);
    assert.equal(removal.tool, 'remove_axiom');
    assert.equal(at(removal.changes, 0).manchester, 'bird SubClassOf animal');
    assert.ok(feed.unsaved >= 1);
    const other = (await json(await get(`/admin/view/windows/${windowId}/changes?client=nobody`))) as { entries: unknown[] };
    assert.equal(other.entries.length, 0, 'the client filter leaves out everyone else');

    assert.equal((await post(`/admin/view/windows/${windowId}/revert`, { seq: 'x' })).status, 400);
    assert.equal((await post(`/admin/view/windows/${windowId}/revert`, { seq: 99_999, document: removal.document })).status, 404);
    const reverted = await post(`/admin/view/windows/${windowId}/revert`, { seq: removal.seq, document: removal.document });
    assert.equal(reverted.status, 200, JSON.stringify(await reverted.clone().json()));
    const axioms = await call(agent, 'get_axioms_for_entity', { entity: 'Bird' });
    assert.ok((axioms.body.axioms as { items: { rendering: string }[] }).items.some((a) => a.rendering === 'bird SubClassOf animal'));
    const newest = (await json(await get(`/admin/view/windows/${windowId}/changes`))) as {
      entries: { tool: string; principal: { name: string } }[];
    };
    assert.equal(at(newest.entries, 0).tool, 'revert_changes');
    assert.equal(at(newest.entries, 0).principal.name, 'Owner (server view)', 'the journal names the owner as the reverter');

    const card = (await json(
      await get(`/admin/view/windows/${windowId}/entity?iri=${encodeURIComponent('http://example.org/zoo#Bird')}`),
    )) as { context: { entities: { display: string }[] }; axioms: { axioms: { items: unknown[] } }; history: { entries: unknown[] } };
    assert.equal(at(card.context.entities, 0).display, 'bird');
    assert.ok(card.axioms.axioms.items.length >= 2);
    assert.ok(card.history.entries.length >= 2, "the card carries the entity's history");
    const found = (await json(await get(`/admin/view/windows/${windowId}/search?q=mamm`))) as { items: { display: string }[] };
    assert.equal(at(found.items, 0).display, 'mammal');
  } finally {
    await agent.close();
  }
});

/** Reads server-sent events from a streaming response until `want` says enough. */
async function readEvents(
  res: Response,
  want: (events: { event: string; data: string }[]) => boolean,
): Promise<{ event: string; data: string }[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const events: { event: string; data: string }[] = [];
  let buffer = '';
  while (!want(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      if (event !== undefined) events.push({ event, data: /^data: (.*)$/m.exec(block)?.[1] ?? '' });
    }
  }
  await reader.cancel();
  return events;
}

test("the event stream says hello, then names the topics an agent's edit moved", async () => {
  const stream = await get('/admin/view/events', { accept: 'text/event-stream' });
  assert.equal(stream.status, 200);
  assert.equal(stream.headers.get('content-type'), 'text/event-stream');
  const agent = await connect(t);
  try {
    const seen = readEvents(stream, (events) => events.some((e) => e.event === 'changed' && e.data.includes('"changes"')));
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await call(agent, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Eagle', super: 'Bird' })).isError, false);
    const events = await seen;
    assert.equal(at(events, 0).event, 'hello');
    assert.ok(events.some((e) => e.event === 'changed' && (JSON.parse(e.data) as { topics: string[] }).topics.includes('changes')));
  } finally {
    await agent.close();
  }
});
