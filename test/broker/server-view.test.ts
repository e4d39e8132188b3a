// The owner's server view of a window of another process behind the broker: its live state (dirty,
// journaled changes, recovery, sessions, write modes), its change feed and revert, its class tree, entity
// card and search, its own write-mode switches and its held writes, all asked of the owning process
// through the broker, with the owner session and CSRF token checked at the broker. Its changes reach the
// page's event stream pushed from that process. The broker runs in this process; the other is a real
// `athene serve`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brokerFixture, connectTo, eventually, freePort, spawnAthene, stopAthene } from './support.js';
import { startTestServer, call, ownerLogin, type OwnerBrowser, type TestServer } from '../server/support.js';
import { at } from '../support/at.js';

type Json = Record<string, unknown>;

async function get(t: TestServer, owner: OwnerBrowser | null, path: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(new URL(path, t.server.url), { headers: owner === null ? {} : { cookie: owner.cookie } });
  return { status: res.status, body: (await res.json()) as Json };
}

async function post(
  t: TestServer,
  owner: OwnerBrowser,
  path: string,
  body: unknown,
  csrf = owner.csrf,
): Promise<{ status: number; body: Json }> {
  const res = await fetch(new URL(path, t.server.url), {
    method: 'POST',
    headers: { cookie: owner.cookie, 'x-athene-csrf': csrf, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** The page's event stream, read as it arrives: `next` resolves with the first `changed` event naming `topic` after the call. */
class Events {
  private text = '';
  private readonly abort = new AbortController();
  private seen = 0;

  static async open(t: TestServer, owner: OwnerBrowser): Promise<Events> {
    const e = new Events();
    const res = await fetch(new URL('/admin/view/events', t.server.url), { headers: { cookie: owner.cookie }, signal: e.abort.signal });
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done) return;
        e.text += decoder.decode(value, { stream: true });
      }
    })();
    await eventually(async () => (e.text.includes('event: hello') ? true : undefined), 'hello');
    e.seen = e.text.length;
    return e;
  }

  /** Forgets what came so far. */
  mark(): void {
    this.seen = this.text.length;
  }

  async next(topic: string): Promise<void> {
    await eventually(async () => {
      const fresh = this.text.slice(this.seen);
      return fresh.split('\n\n').some((ev) => ev.startsWith('event: changed') && ev.includes(`"${topic}"`)) ? true : undefined;
    }, `a changed event naming ${topic}`);
  }

  close(): void {
    this.abort.abort();
  }
}

test('a window of another process is first-class on the server view: state, feed, revert, tree, card, search, write modes and held writes, pushed live', async () => {
  const port = await freePort();
  const t = await startTestServer([brokerFixture('alpha.ttl')], { port: String(port), broker_idle_linger_s: '0' });
  const b = await spawnAthene(t.home, port, brokerFixture('beta.ttl'), [], {}, 60_000);
  const owner = await ownerLogin(t);
  const events = await Events.open(t, owner);
  const agent = await (async () => {
    const listed = await eventually(async () => {
      const { body } = await get(t, owner, '/admin/view/windows');
      return (body.windows as Json[]).find((w) => w.pid === b.pid && w.pulse !== null);
    }, "the other process's window with its live state");
    return {
      id: String(listed.id),
      client: await connectTo(t.server.url, t.token, `/instances/${encodeURIComponent(String(listed.id))}/mcp`),
    };
  })();
  const remote = `/admin/view/windows/${encodeURIComponent(agent.id)}`;
  try {
    const windowOf = async () => ((await get(t, owner, '/admin/view/windows')).body.windows as Json[]).find((w) => w.id === agent.id)!;
    let w = await windowOf();
    assert.equal(w.local, false);
    assert.equal((w.pulse as Json).dirty, 0);
    assert.deepEqual(w.journal, { recovered: 0, pending_recovery: 0 }, 'its recovery state, from its own journal');
    assert.equal(w.unsaved, 0);
    await eventually(
      async () => (((await windowOf()).session_list as Json[]).length === 1 ? true : undefined),
      "the agent's session on the remote window",
    );

    // an agent's edit there is pushed to the page and shows in the window's state and feed
    events.mark();
    const added = await call(agent.client, 'add_axiom', { axiom_type: 'subclass_of', sub: 'ThingBeta', super: 'Gadget' });
    assert.equal(added.isError, false, JSON.stringify(added.body));
    await events.next('changes');
    w = await windowOf();
    assert.equal((w.pulse as Json).dirty, 1);
    assert.equal(w.unsaved, 1, 'one journal entry not saved yet');
    const feed = await get(t, owner, `${remote}/changes`);
    assert.equal(feed.status, 200);
    const entry = at(feed.body.entries as Json[], 0);
    assert.equal(entry.tool, 'add_axiom');
    assert.ok(
      (entry.changes as Json[]).some((c) => c.manchester === "'beta thing' SubClassOf Gadget"),
      JSON.stringify(entry.changes),
    );

    // the ontology browser reads the remote window
    const roots = await get(t, owner, `${remote}/classes`);
    assert.equal(roots.status, 200);
    assert.deepEqual(
      (roots.body.items as Json[]).map((r) => r.display),
      ['Gadget'],
    );
    const card = await get(t, owner, `${remote}/entity?iri=${encodeURIComponent('http://example.org/beta#ThingBeta')}`);
    assert.equal(card.status, 200);
    assert.match(JSON.stringify(card.body.axioms), /SubClassOf Gadget/);
    const found = await get(t, owner, `${remote}/search?q=beta`);
    assert.match(JSON.stringify(found.body), /ThingBeta/);

    // revert from the feed, through the broker: refused without the CSRF token, applied with it
    assert.equal((await post(t, owner, `${remote}/revert`, { seq: entry.seq, document: entry.document }, 'wrong')).status, 403);
    assert.equal((await get(t, null, `${remote}/classes`)).status, 401, 'no owner session, no tree');
    events.mark();
    const reverted = await post(t, owner, `${remote}/revert`, { seq: entry.seq, document: entry.document });
    assert.equal(reverted.status, 200, JSON.stringify(reverted.body));
    await events.next('changes');
    assert.doesNotMatch(
      JSON.stringify((await get(t, owner, `${remote}/entity?iri=${encodeURIComponent('http://example.org/beta#ThingBeta')}`)).body.axioms),
      /SubClassOf Gadget/,
    );

    // the window's own confirm-each-write switch; its held write is announced, shown with its changes, approved from the broker
    assert.equal((await post(t, owner, `${remote}/write-modes`, { read_only: false, confirm_each_write: 'yes' })).status, 400);
    const modes = await post(t, owner, `${remote}/write-modes`, { read_only: false, confirm_each_write: true });
    assert.equal(modes.status, 200, JSON.stringify(modes.body));
    assert.equal(((await windowOf()).pulse as Json).confirm_each_write, true);
    const local = (await get(t, owner, '/admin/view/windows')).body.windows as Json[];
    assert.equal((local.find((x) => x.local === true)!.pulse as Json).confirm_each_write, false, 'only that window was switched');
    events.mark();
    const heldCall = call(agent.client, 'set_label', { entity: 'ThingBeta', value: 'gizmo' });
    await events.next('pending');
    const pending = at((await get(t, owner, '/admin/view/pending')).body.pending as Json[], 0);
    assert.equal(pending.tool, 'set_label');
    assert.ok(
      (pending.changes as Json[]).some((c) => c.op === 'add_axiom' && String(c.manchester).includes('"gizmo"')),
      JSON.stringify(pending.changes),
    );
    const approve = await fetch(new URL(`/admin/api/pending/${String(pending.approval_id)}/approve`, t.server.url), {
      method: 'POST',
      headers: { cookie: owner.cookie, 'x-athene-csrf': owner.csrf },
    });
    assert.equal(approve.status, 200);
    const labelled = await heldCall;
    assert.equal(labelled.isError, false, JSON.stringify(labelled.body));
    await post(t, owner, `${remote}/write-modes`, { read_only: false, confirm_each_write: false });
  } finally {
    events.close();
    await agent.client.close();
    await stopAthene(b);
    await t.stop();
  }
});
