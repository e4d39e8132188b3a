// The revocation actor in its real Worker, on real files: the token flow as the front door sees it,
// persistence across restarts, linearizable refresh/revoke under 1,000 concurrent calls, write faults
// answered as temporarily_unavailable with the token still live, a revocation surviving SIGKILL, and the
// actor's worker restarted after it dies.
// test-process: own (it counts its process's worker threads, which other files' pools would add to)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { access, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRevocationActor, type RestartPolicy, type RevocationActor } from '../../src/auth/revocation/actor.js';
import { JOURNAL_MAX_ENTRIES, entryLine, journalPath, parseJournal } from '../../src/auth/revocation/journal.js';
import { registryLockPath } from '../../src/auth/revocation/registry-lock.js';
import { clientsPath } from '../../src/auth/oauth/store.js';
import { PRINCIPAL_VERSION } from '../../src/auth/principal.js';
import type { IssuedTokens, Revoked } from '../../src/auth/oauth/authority.js';
import { authorize, authorizeClient, isTokens, registerClient, removeHome, tempHome, tokensOf } from './support.js';
import { at } from '../support/at.js';

const DAY_MS = 24 * 3600_000;
const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'revoke-and-wait.js');

async function withActor(
  run: (actor: RevocationActor, home: string) => Promise<void>,
  clock?: () => number,
  restart?: RestartPolicy,
): Promise<void> {
  const home = await tempHome();
  const actor = await startRevocationActor({
    home,
    ...(clock === undefined ? {} : { now: clock }),
    ...(restart === undefined ? {} : { restart }),
  });
  try {
    await run(actor, home);
  } finally {
    await actor.close();
    await removeHome(home);
  }
}

async function journalGrants(home: string): Promise<Set<string>> {
  const entries = parseJournal(await readFile(journalPath(home), 'utf8')).entries;
  return new Set(entries.flatMap((e) => e.grant_ids));
}

/** Polls until `ready` holds, a bounded number of times: the restart's timing is not part of the assertion. */
async function eventually(ready: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (ready()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`never: ${what}`);
}

/** Worker threads alive in this process (the report lists each running one). */
function liveWorkers(): number {
  return (process.report.getReport() as { workers: unknown[] }).workers.length;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

async function storedGrants(home: string): Promise<string[]> {
  const stored = JSON.parse(await readFile(clientsPath(home), 'utf8')) as { grants: { grant_id: string }[] };
  return stored.grants.map((g) => g.grant_id).sort();
}

test('register, consent, exchange, principal, refresh, revoke: the revoked token is refused at once', async () => {
  await withActor(async (actor) => {
    const clientId = await registerClient(actor, 'Claude Code');
    assert.equal(actor.client(clientId)?.client_name, 'Claude Code');
    const first = await authorize(actor, clientId, 'read', ['ontology:read']);
    const principal = actor.principalFor(first.access_token);
    assert.ok(principal !== null);
    assert.deepEqual(
      { ...principal, grant_id: typeof principal.grant_id },
      {
        version: PRINCIPAL_VERSION,
        type: 'oauth',
        client_id: clientId,
        display_name: 'Claude Code',
        grant_id: 'string',
        capabilities: ['ontology:read'],
        scope: 'read',
      },
    );
    assert.equal(actor.principalFor(first.access_token + 'x'), null);

    const second = tokensOf(await actor.refresh({ client_id: clientId, refresh_token: first.refresh_token }));
    assert.equal(actor.principalFor(first.access_token), null, 'the rotated-away access token is retired');
    assert.equal(actor.principalFor(second.access_token)?.grant_id, principal.grant_id);

    const heard: { revoked: Revoked; liveDuringListener: boolean }[] = [];
    actor.onRevoked(async (revoked) => {
      heard.push({ revoked, liveDuringListener: actor.principalFor(second.access_token) !== null });
    });
    const result = await actor.revokeToken(second.refresh_token, clientId);
    assert.deepEqual(result, { ok: true, client_id: clientId, grant_ids: [principal.grant_id] });
    assert.deepEqual(heard, [{ revoked: { client_id: clientId, grant_ids: [principal.grant_id] }, liveDuringListener: false }]);
    assert.equal(actor.principalFor(second.access_token), null);
    const again = await actor.refresh({ client_id: clientId, refresh_token: second.refresh_token });
    assert.ok(!isTokens(again) && again.error === 'invalid_grant');
    assert.deepEqual(await actor.revokeToken('not-a-token'), { ok: true, client_id: null, grant_ids: [] });
  });
});

test('the admin list shows clients and grants, never a token or a hash', async () => {
  await withActor(async (actor) => {
    const { clientId, tokens } = await authorizeClient(actor, 'Agent');
    assert.ok(actor.principalFor(tokens.access_token) !== null);
    const list = actor.listClients();
    assert.equal(list.length, 1);
    assert.equal(at(list, 0).client_id, clientId);
    assert.equal(at(list, 0).authorized, true);
    assert.equal(at(list, 0).grants.length, 1);
    assert.equal(at(at(list, 0).grants, 0).scope, 'mcp');
    assert.ok(at(list, 0).last_seen_at !== null);
    const text = JSON.stringify(list);
    assert.ok(!text.includes(tokens.access_token) && !text.includes(tokens.refresh_token) && !/[0-9a-f]{64}/.test(text));
  });
});

test('revoking a client invalidates every one of its grants before the call resolves; its registration stays', async () => {
  await withActor(async (actor) => {
    const { clientId, tokens } = await authorizeClient(actor);
    const more = await authorize(actor, clientId);
    const other = await authorizeClient(actor, 'Other');
    const result = await actor.revokeClient(clientId);
    assert.ok(result.ok && result.grant_ids.length === 2);
    assert.equal(actor.principalFor(tokens.access_token), null);
    assert.equal(actor.principalFor(more.access_token), null);
    assert.ok(actor.principalFor(other.tokens.access_token) !== null);
    assert.ok(actor.client(clientId) !== undefined);
    assert.deepEqual(actor.listClients().find((c) => c.client_id === clientId)?.grants, []);
    // the client may authorize again
    assert.ok(actor.principalFor((await authorize(actor, clientId)).access_token) !== null);
  });
});

test('registrations, grants and revocations persist across a restart, in a 0600 file holding no token', async () => {
  const home = await tempHome();
  try {
    const actor = await startRevocationActor({ home });
    const kept = await authorizeClient(actor, 'Kept');
    const refreshed = tokensOf(await actor.refresh({ client_id: kept.clientId, refresh_token: kept.tokens.refresh_token }));
    const gone = await authorizeClient(actor, 'Gone');
    assert.ok((await actor.revokeToken(gone.tokens.access_token)).ok);
    await actor.close();

    const text = await readFile(clientsPath(home), 'utf8');
    for (const t of [kept.tokens, refreshed, gone.tokens]) assert.ok(!text.includes(t.access_token) && !text.includes(t.refresh_token));
    assert.equal((await stat(clientsPath(home))).mode & 0o777, 0o600);
    assert.equal((await stat(journalPath(home))).mode & 0o777, 0o600);

    const restarted = await startRevocationActor({ home });
    try {
      assert.equal(restarted.principalFor(kept.tokens.access_token), null);
      assert.equal(restarted.principalFor(refreshed.access_token)?.display_name, 'Kept');
      assert.equal(restarted.principalFor(gone.tokens.access_token), null);
      assert.ok(isTokens(await restarted.refresh({ client_id: kept.clientId, refresh_token: refreshed.refresh_token })));
      assert.deepEqual(
        restarted
          .listClients()
          .map((c) => c.client_name)
          .sort(),
        ['Gone', 'Kept'],
      );
    } finally {
      await restarted.close();
    }
  } finally {
    await removeHome(home);
  }
});

test('with an injected clock: access tokens expire after 30 days, and the sweep applies the cleanup rules', async () => {
  let now = Date.UTC(2026, 0, 1);
  await withActor(
    async (actor) => {
      const { clientId, tokens } = await authorizeClient(actor);
      const unfinished = await registerClient(actor, 'Never finished');
      now += 30 * DAY_MS - 1;
      assert.ok(actor.principalFor(tokens.access_token) !== null);
      now += 1;
      assert.equal(actor.principalFor(tokens.access_token), null, 'expired after 30 days');
      await actor.sweep();
      assert.equal(actor.client(unfinished), undefined, 'an unfinished registration is gone after an hour');
      const renewed = tokensOf(await actor.refresh({ client_id: clientId, refresh_token: tokens.refresh_token }));
      assert.ok(actor.principalFor(renewed.access_token) !== null);
      await actor.flushLastSeen();
      now += 60 * DAY_MS - 1;
      await actor.sweep();
      assert.ok(actor.client(clientId) !== undefined);
      now += 1;
      const heard: Revoked[] = [];
      actor.onRevoked((r) => void heard.push(r));
      await actor.sweep();
      assert.equal(actor.client(clientId), undefined, 'silent for 60 days: removed with its tokens');
      assert.equal(heard.length, 1);
      assert.equal(actor.principalFor(renewed.access_token), null);
    },
    () => now,
  );
});

test('re-registration under the same name: completing authorization drops the older registration and its tokens', async () => {
  await withActor(async (actor) => {
    const old = await authorizeClient(actor, 'Claude');
    const fresh = await registerClient(actor, 'Claude');
    assert.equal(actor.listClients().length, 2);
    await authorize(actor, fresh);
    assert.deepEqual(
      actor.listClients().map((c) => c.client_id),
      [fresh],
    );
    assert.equal(actor.principalFor(old.tokens.access_token), null);
  });
});

test('race: 1,000 interleaved refresh and revoke calls over 50 grants leave no revoked grant usable', async (t) => {
  await withActor(async (actor, home) => {
    interface Tracked {
      clientId: string;
      grantId: string;
      access: string[];
      refresh: string[];
    }
    const grants: Tracked[] = [];
    for (let c = 0; c < 10; c++) {
      const clientId = await registerClient(actor, `client-${c}`);
      for (let g = 0; g < 5; g++) {
        const t = await authorize(actor, clientId);
        grants.push({
          clientId,
          grantId: actor.principalFor(t.access_token)!.grant_id!,
          access: [t.access_token],
          refresh: [t.refresh_token],
        });
      }
    }
    const announced = new Set<string>();
    actor.onRevoked((r) => {
      for (const id of r.grant_ids) announced.add(id);
    });
    const acknowledged = new Set<string>();
    let unavailable = 0;
    // a fixed pseudo-random sequence, so a failure can be replayed
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    // each grant's holder refreshes it serially (a second refresh racing with the same token would revoke
    // it, as a separate test shows); a few holders replay their previous token; revocations come from anywhere
    const refreshing = new Set<Tracked>();
    let next = 0;
    const loop = async (): Promise<void> => {
      while (next < 1000) {
        const g = at(grants, Math.floor(random() * grants.length));
        const roll = random();
        if (roll < 0.955) {
          if (refreshing.has(g)) continue;
          next++;
          refreshing.add(g);
          const stale = roll > 0.94 && g.refresh.length > 1;
          const r = await actor.refresh({ client_id: g.clientId, refresh_token: g.refresh.at(stale ? -2 : -1)! });
          refreshing.delete(g);
          if (isTokens(r)) {
            g.access.push(r.access_token);
            g.refresh.push(r.refresh_token);
          } else if (r.error === 'temporarily_unavailable') unavailable++;
        } else if (roll < 0.997) {
          next++;
          const pool = [...g.access, ...g.refresh];
          const r = await actor.revokeToken(at(pool, Math.floor(random() * pool.length)));
          if (r.ok) r.grant_ids.forEach((id) => acknowledged.add(id));
          else unavailable++;
        } else {
          next++;
          const r = await actor.revokeClient(g.clientId);
          if (r.ok) r.grant_ids.forEach((id) => acknowledged.add(id));
          else unavailable++;
        }
      }
    };
    await Promise.all(Array.from({ length: 25 }, loop));
    assert.equal(unavailable, 0);
    for (const id of acknowledged) assert.ok(announced.has(id), 'every acknowledged revocation was announced');

    const journaled = await journalGrants(home);
    const revoked = grants.filter((g) => announced.has(g.grantId));
    t.diagnostic(
      `${revoked.length} grants revoked (${acknowledged.size} by revocation calls, the rest by refresh-token reuse); ${grants.reduce((n, g) => n + g.refresh.length - 1, 0)} refreshes succeeded`,
    );
    assert.ok(revoked.length > 0 && revoked.length < grants.length, `${revoked.length} of 50 grants revoked`);
    for (const g of revoked) {
      assert.ok(journaled.has(g.grantId), `revoked grant ${g.grantId} is in the journal`);
      for (const access of g.access) assert.equal(actor.principalFor(access), null);
      for (const refresh of g.refresh) {
        const r = await actor.refresh({ client_id: g.clientId, refresh_token: refresh });
        assert.ok(!isTokens(r) && r.error === 'invalid_grant');
      }
    }
    for (const g of grants.filter((x) => !announced.has(x.grantId))) {
      assert.ok(!journaled.has(g.grantId));
      assert.equal(actor.principalFor(g.access.at(-1)!)?.grant_id, g.grantId, 'a grant never revoked still works');
    }

    // after a clean shutdown the journal is compacted into clients.json, which has exactly the live grants
    await actor.close();
    assert.equal(await readFile(journalPath(home), 'utf8'), '');
    assert.deepEqual(
      await storedGrants(home),
      grants
        .filter((g) => !announced.has(g.grantId))
        .map((g) => g.grantId)
        .sort(),
    );
  });
});

test('a failing journal write: revoke answers temporarily_unavailable and the token keeps working', async () => {
  const home = await tempHome();
  try {
    const setup = await startRevocationActor({ home });
    const { clientId, tokens } = await authorizeClient(setup);
    await setup.close();
    const actor = await startRevocationActor({ home, faults: { failJournalAppend: true } });
    try {
      const heard: Revoked[] = [];
      actor.onRevoked((r) => void heard.push(r));
      const result = await actor.revokeToken(tokens.access_token);
      assert.equal(result.ok, false);
      assert.ok(!result.ok && result.error === 'temporarily_unavailable' && /could not be journaled/.test(result.message));
      assert.equal((await actor.revokeClient(clientId)).ok, false);
      assert.equal(actor.principalFor(tokens.access_token)?.client_id, clientId);
      assert.deepEqual(heard, []);
      // a reused refresh token cannot be revoked either: the caller is told so, not "invalid_grant"
      const rotated = tokensOf(await actor.refresh({ client_id: clientId, refresh_token: tokens.refresh_token }));
      const reuse = await actor.refresh({ client_id: clientId, refresh_token: tokens.refresh_token });
      assert.ok(!isTokens(reuse) && reuse.error === 'temporarily_unavailable');
      assert.ok(actor.principalFor(rotated.access_token) !== null);
      await actor.injectFaults({});
      assert.ok((await actor.revokeToken(rotated.access_token)).ok);
      assert.equal(actor.principalFor(rotated.access_token), null);
    } finally {
      await actor.close();
    }
  } finally {
    await removeHome(home);
  }
});

test('a failing registry save: registration and token issue fail as temporarily_unavailable and change nothing', async () => {
  await withActor(async (actor) => {
    const { clientId, tokens } = await authorizeClient(actor);
    await actor.injectFaults({ failPersist: true });
    await assert.rejects(registerClient(actor, 'Late'), { name: 'AuthorityUnavailableError' });
    const r = await actor.refresh({ client_id: clientId, refresh_token: tokens.refresh_token });
    assert.ok(!isTokens(r) && r.error === 'temporarily_unavailable');
    assert.ok(actor.principalFor(tokens.access_token) !== null, 'the failed refresh retired nothing');
    await actor.injectFaults({});
    assert.ok(
      isTokens(await actor.refresh({ client_id: clientId, refresh_token: tokens.refresh_token })),
      'the same refresh token still works',
    );
    assert.equal(actor.listClients().length, 1);
  });
});

test('the journal is compacted only after the state holding its revocations is persisted', async () => {
  const home = await tempHome();
  try {
    const actor = await startRevocationActor({ home });
    const { tokens } = await authorizeClient(actor);
    const grantId = actor.principalFor(tokens.access_token)!.grant_id!;
    await actor.injectFaults({ failPersist: true });
    assert.ok((await actor.revokeToken(tokens.access_token)).ok, 'journaled, hence acknowledged');
    await actor.close();
    assert.ok((await journalGrants(home)).has(grantId), 'the registry could not be saved, so the journal keeps the entry');
    assert.deepEqual(await storedGrants(home), [grantId], 'clients.json still lists the grant');

    const restarted = await startRevocationActor({ home });
    try {
      assert.equal(restarted.principalFor(tokens.access_token), null, 'replayed before serving');
      assert.equal(await readFile(journalPath(home), 'utf8'), '', 'compacted once the replayed state was saved');
      assert.deepEqual(await storedGrants(home), []);
    } finally {
      await restarted.close();
    }
  } finally {
    await removeHome(home);
  }
});

test(`a full journal (${JOURNAL_MAX_ENTRIES} entries not yet persisted) refuses a revocation with temporarily_unavailable`, async () => {
  const home = await tempHome();
  try {
    const setup = await startRevocationActor({ home });
    const { tokens } = await authorizeClient(setup);
    await setup.close();
    const filler = Array.from({ length: JOURNAL_MAX_ENTRIES }, (_, i) =>
      entryLine({ seq: i + 1, time: 1, kind: 'revoke-grant', client_id: null, grant_ids: [`gone-${i}`] }),
    );
    await writeFile(journalPath(home), filler.join(''));
    const actor = await startRevocationActor({ home, faults: { failPersist: true } });
    try {
      const result = await actor.revokeToken(tokens.access_token);
      assert.ok(!result.ok && result.error === 'temporarily_unavailable' && /journal is full/.test(result.message));
      assert.ok(actor.principalFor(tokens.access_token) !== null, 'not silently dropped: the token is still live');
      assert.equal(parseJournal(await readFile(journalPath(home), 'utf8')).entries.length, JOURNAL_MAX_ENTRIES);
      // once the registry can be saved again, the journal is compacted and revocation works
      await actor.injectFaults({});
      assert.ok((await actor.revokeToken(tokens.access_token)).ok);
      assert.equal(actor.principalFor(tokens.access_token), null);
    } finally {
      await actor.close();
    }
  } finally {
    await removeHome(home);
  }
});

test('SIGKILL right after a revocation is acknowledged: after restart the revocation holds', async () => {
  const home = await tempHome();
  try {
    const setup = await startRevocationActor({ home });
    const { clientId, tokens } = await authorizeClient(setup);
    const grantId = setup.principalFor(tokens.access_token)!.grant_id!;
    await setup.close();

    const child = spawn(process.execPath, [CHILD, home, tokens.refresh_token], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    const said = await new Promise<string>((resolve) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) {
          child.kill('SIGKILL');
          resolve(out.trim());
        }
      });
    });
    assert.equal(said, 'acked');
    assert.equal(await exited, 'SIGKILL');
    assert.ok((await journalGrants(home)).has(grantId), 'the acknowledged revocation is in the journal');
    assert.deepEqual(await storedGrants(home), [grantId], 'and only there: the child could not save clients.json');

    const restarted = await startRevocationActor({ home });
    try {
      assert.equal(restarted.principalFor(tokens.access_token), null);
      const r = await restarted.refresh({ client_id: clientId, refresh_token: tokens.refresh_token });
      assert.ok(!isTokens(r) && r.error === 'invalid_grant');
    } finally {
      await restarted.close();
    }
  } finally {
    await removeHome(home);
  }
});

test('a second refresh with the same token, racing the first, revokes the grant for both', async () => {
  await withActor(async (actor) => {
    const { clientId, tokens } = await authorizeClient(actor);
    const [a, b] = await Promise.all([
      actor.refresh({ client_id: clientId, refresh_token: tokens.refresh_token }),
      actor.refresh({ client_id: clientId, refresh_token: tokens.refresh_token }),
    ]);
    const winner = [a, b].filter(isTokens) as IssuedTokens[];
    assert.equal(winner.length, 1);
    assert.equal(actor.principalFor(at(winner, 0).access_token), null);
  });
});

test('on a home with no OAuth state the actor starts on first need; a home holding state starts it at once', async () => {
  const home = await tempHome();
  try {
    const empty = await startRevocationActor({ home });
    assert.equal(liveWorkers(), 0, 'no worker before an OAuth operation');
    assert.equal(empty.standbyFor, null, 'the registry is owned from the start');
    assert.equal(await exists(registryLockPath(home)), true);
    assert.equal(empty.principalFor('no-such-token'), null);
    assert.deepEqual(empty.listClients(), []);
    assert.equal(empty.unfinishedRegistrations(), 0);
    const heard: Revoked[] = [];
    empty.onRevoked((r) => void heard.push(r));
    const { clientId, tokens } = await authorizeClient(empty);
    assert.equal(liveWorkers(), 1, 'the first registration started the worker');
    const grant = empty.principalFor(tokens.access_token)!.grant_id!;
    assert.deepEqual(await empty.revokeToken(tokens.access_token), { ok: true, client_id: clientId, grant_ids: [grant] });
    assert.deepEqual(heard, [{ client_id: clientId, grant_ids: [grant] }], 'a listener added before the start hears');
    const kept = await authorizeClient(empty, 'Kept');
    await empty.close();
    assert.equal(liveWorkers(), 0);

    const restarted = await startRevocationActor({ home });
    try {
      assert.equal(liveWorkers(), 1, 'a home holding state starts the worker with the authority');
      assert.ok(restarted.principalFor(kept.tokens.access_token) !== null, 'its tokens work from the first request');
      assert.equal(restarted.principalFor(tokens.access_token), null, 'and its revocations hold');
    } finally {
      await restarted.close();
    }

    const fresh = await tempHome();
    try {
      const closedFirst = await startRevocationActor({ home: fresh });
      await closedFirst.close();
      await assert.rejects(registerClient(closedFirst), { name: 'AuthorityUnavailableError' });
      assert.equal(liveWorkers(), 0, 'a closed authority starts no actor');
      assert.equal(await exists(journalPath(fresh)), false, 'nor touches the home');
    } finally {
      await removeHome(fresh);
    }
  } finally {
    await removeHome(home);
  }
});

test('one registry per home: a second authority on it is a standby that refuses OAuth until the owner exits', async () => {
  const home = await tempHome();
  try {
    const owner = await startRevocationActor({ home });
    const { tokens } = await authorizeClient(owner);
    const standby = await startRevocationActor({ home });
    try {
      assert.equal(owner.standbyFor, null);
      assert.equal(standby.standbyFor, process.pid);
      assert.equal(standby.principalFor(tokens.access_token), null, 'fails closed: no token accepted');
      await assert.rejects(registerClient(standby, 'Elsewhere'), { name: 'AuthorityUnavailableError' });
      const revoke = await standby.revokeToken(tokens.access_token);
      assert.ok(!revoke.ok && revoke.error === 'temporarily_unavailable', 'never claims a revocation it could not make');
      assert.ok(owner.principalFor(tokens.access_token) !== null);
      assert.equal(await standby.promote(), false, 'the owner still runs');
      await owner.close();
      assert.equal(await standby.promote(), true);
      assert.equal(standby.standbyFor, null);
      assert.ok(standby.principalFor(tokens.access_token) !== null, 'the promoted authority serves the saved grants');
    } finally {
      await owner.close();
      await standby.close();
    }
  } finally {
    await removeHome(home);
  }
});

test('while compaction is held (a quarantined endpoint), revocations stay in the journal, even through a shutdown save', async () => {
  const home = await tempHome();
  try {
    const actor = await startRevocationActor({ home });
    const { tokens } = await authorizeClient(actor);
    const grantId = actor.principalFor(tokens.access_token)!.grant_id!;
    await actor.holdCompaction(true);
    assert.ok((await actor.revokeToken(tokens.access_token)).ok);
    await actor.close();
    assert.ok((await journalGrants(home)).has(grantId), 'held: the shutdown saved the state but kept the journal');
    assert.deepEqual(await storedGrants(home), [], 'the saved state already holds the revocation');
    const restarted = await startRevocationActor({ home });
    await restarted.close();
    assert.equal(await readFile(journalPath(home), 'utf8'), '', 'not held: compacted');
  } finally {
    await removeHome(home);
  }
});

test('a crashed actor worker is restarted: failing closed meanwhile, revocations hold, listeners and the hold carry over', async () => {
  await withActor(async (actor, home) => {
    const kept = await authorizeClient(actor, 'Kept');
    const gone = await authorizeClient(actor, 'Gone');
    const racing = await authorizeClient(actor, 'Racing');
    const whileHeld = await authorizeClient(actor, 'WhileHeld');
    const heldGrant = actor.principalFor(whileHeld.tokens.access_token)!.grant_id!;
    const heardBefore: Revoked[] = [];
    actor.onRevoked((r) => void heardBefore.push(r));
    assert.ok((await actor.revokeToken(gone.tokens.access_token)).ok);
    await actor.holdCompaction(true);
    assert.ok((await actor.revokeToken(whileHeld.tokens.access_token)).ok);

    // a revocation in flight when the thread dies: either acknowledged (and then it holds) or unavailable
    const inFlight = actor.revokeToken(racing.tokens.access_token);
    await actor.crashForTest();
    const raced = await inFlight;
    assert.ok(raced.ok || raced.error === 'temporarily_unavailable');

    assert.equal(actor.principalFor(kept.tokens.access_token), null, 'fails closed while restarting');
    const during = await actor.revokeToken(kept.tokens.access_token);
    assert.ok(!during.ok && during.error === 'temporarily_unavailable' && /restarting/.test(during.message), 'never a false success');
    const refreshDuring = await actor.refresh({ client_id: kept.clientId, refresh_token: kept.tokens.refresh_token });
    assert.ok(!isTokens(refreshDuring) && refreshDuring.error === 'temporarily_unavailable');
    await assert.rejects(registerClient(actor, 'Late'), { name: 'AuthorityUnavailableError' });
    const heardAfter: Revoked[] = [];
    actor.onRevoked((r) => void heardAfter.push(r));

    await eventually(() => actor.principalFor(kept.tokens.access_token) !== null, 'the restarted actor serves the live token');
    assert.equal(actor.standbyFor, null);
    assert.equal(actor.principalFor(gone.tokens.access_token), null, 'revoked before the crash: still revoked');
    const reuse = await actor.refresh({ client_id: gone.clientId, refresh_token: gone.tokens.refresh_token });
    assert.ok(!isTokens(reuse) && reuse.error === 'invalid_grant');
    if (raced.ok) assert.equal(actor.principalFor(racing.tokens.access_token), null, 'an acknowledged revocation holds');

    const grantId = actor.principalFor(kept.tokens.access_token)!.grant_id!;
    const after = await actor.revokeToken(kept.tokens.access_token);
    assert.deepEqual(after, { ok: true, client_id: kept.clientId, grant_ids: [grantId] });
    assert.equal(actor.principalFor(kept.tokens.access_token), null);
    const expected = [{ client_id: kept.clientId, grant_ids: [grantId] }];
    assert.deepEqual(heardBefore.slice(-1), expected, 'a listener from before the crash hears the new revocation');
    assert.deepEqual(heardAfter, expected, 'so does one added while restarting');

    await actor.close();
    const journaled = await journalGrants(home);
    assert.ok(journaled.has(grantId), 'the compaction hold was carried over to the new actor');
    assert.ok(journaled.has(heldGrant), 'the restarted worker did not compact what was journaled under the hold');
  });
});

test('close() during a restart leaves no worker running and releases the registry lock', async () => {
  const home = await tempHome();
  try {
    for (const wait of [false, true]) {
      const actor = await startRevocationActor({ home, restart: { firstDelayMs: 1, maxDelayMs: 1, perMinute: 10 } });
      const { tokens } = await authorizeClient(actor);
      await actor.crashForTest();
      assert.equal(liveWorkers(), 0);
      // at once (the restart is waiting), or once its new worker thread exists (it is starting or serving)
      if (wait) await eventually(() => liveWorkers() > 0, 'a new worker starts');
      await actor.close();
      assert.equal(liveWorkers(), 0, 'no worker left running');
      assert.equal(await exists(registryLockPath(home)), false, 'the registry lock is released');
      assert.equal(actor.principalFor(tokens.access_token), null);
      const next = await startRevocationActor({ home });
      assert.equal(next.standbyFor, null, 'the next authority owns the registry');
      assert.ok(next.principalFor(tokens.access_token) !== null);
      await next.close();
    }
  } finally {
    await removeHome(home);
  }
});

test('past the restart cap the authority stays down, failing closed, and keeps the registry', async () => {
  await withActor(
    async (actor) => {
      const { tokens } = await authorizeClient(actor);
      await actor.crashForTest();
      await eventually(() => actor.principalFor(tokens.access_token) !== null, 'the first restart');
      await actor.crashForTest();
      const revoke = await actor.revokeToken(tokens.access_token);
      assert.ok(!revoke.ok && revoke.error === 'temporarily_unavailable' && /stays unavailable/.test(revoke.message));
      assert.equal(actor.principalFor(tokens.access_token), null);
      assert.equal(await actor.promote(), true, 'this process still owns the registry');
      assert.equal(liveWorkers(), 0, 'no restart is attempted');
    },
    undefined,
    { firstDelayMs: 1, maxDelayMs: 1, perMinute: 1 },
  );
});
