// bench/auth: the OAuth authority's costs, each against a baseline measured in the same run.
//  - actor: refresh and revoke throughput through the revocation actor (16 concurrent callers, real files),
//    beside the bare durable writes each one needs (an atomic clients.json write; a journal append+fsync).
//  - validation: per-request cost of `principalFor` (OAuth access token) vs `StaticTokenVerifier.verify`.
// Sections run in order; a new figure (e.g. HTTP-level) is one more entry in SECTIONS.
// Usage: npm run build && node dist/bench/auth.js [seconds-per-phase]

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startRevocationActor, type RevocationActor } from '../src/auth/revocation/actor.js';
import { RevocationJournal } from '../src/auth/revocation/journal.js';
import { StaticTokenVerifier } from '../src/auth/static-token.js';
import { writeFileAtomic } from '../src/util/atomic-file.js';
import { clientsPath } from '../src/auth/oauth/store.js';
import { authorize, registerClient, tokensOf } from '../test/auth/support.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer } from '../src/http/server.js';

const CALLERS = 16;
const GRANTS = 50;
const REVOKE_POOL = 300;

interface Context {
  readonly seconds: number;
  readonly home: string;
}

interface Section {
  readonly name: string;
  run(ctx: Context): Promise<void>;
}

function line(label: string, value: string): void {
  console.log(`  ${label.padEnd(44)} ${value}`);
}

function rate(ops: number, ms: number): number {
  return (ops * 1000) / ms;
}

/**
 * Runs `body` in `callers` concurrent loops until `ms` have passed or `done()`; returns operations, elapsed ms, and
 * the CPU per operation in µs of this whole process (the actor's thread included), a figure a busy machine disturbs
 * far less than the throughput.
 */
async function drive(
  callers: number,
  ms: number,
  body: (caller: number) => Promise<number>,
  done = () => false,
): Promise<{ ops: number; elapsed: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const end = start + ms;
  let ops = 0;
  await Promise.all(
    Array.from({ length: callers }, async (_, caller) => {
      while (performance.now() < end && !done()) {
        const done = await body(caller);
        ops += done;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { ops, elapsed: performance.now() - start, cpu: (used.user + used.system) / ops };
}

async function grants(actor: RevocationActor, count: number): Promise<{ clientId: string; refresh: string; access: string }[]> {
  const out: { clientId: string; refresh: string; access: string }[] = [];
  const clientId = await registerClient(actor, 'bench');
  for (let i = 0; i < count; i++) {
    const t = await authorize(actor, clientId);
    out.push({ clientId, refresh: t.refresh_token, access: t.access_token });
  }
  return out;
}

const actorThroughput: Section = {
  name: `revocation actor (${CALLERS} concurrent callers, ${GRANTS} grants)`,
  async run({ seconds, home }) {
    const actor = await startRevocationActor({ home });
    try {
      const held = await grants(actor, GRANTS);
      const refreshed = await drive(CALLERS, seconds * 1000, async (caller) => {
        let done = 0;
        for (const h of held.filter((_, g) => g % CALLERS === caller)) {
          const t = tokensOf(await actor.refresh({ client_id: h.clientId, refresh_token: h.refresh }));
          h.refresh = t.refresh_token;
          done++;
        }
        return done;
      });
      // baseline: the same durable write a refresh makes, of the registry as it is now
      const registry = await readFile(clientsPath(home));
      const saves = await drive(1, seconds * 1000, async () => {
        await writeFileAtomic(path.join(home, 'baseline.json'), registry, { mode: 0o600 });
        return 1;
      });
      // revocation: the callers revoke a pool of grants authorized beforehand (RFC 7009, by refresh token)
      const pool = await grants(actor, REVOKE_POOL);
      const revoked = await drive(
        CALLERS,
        seconds * 1000,
        async () => {
          const g = pool.pop();
          if (g === undefined) return 0;
          const r = await actor.revokeToken(g.refresh);
          if (!r.ok || r.grant_ids.length !== 1) throw new Error(`revoke failed: ${JSON.stringify(r)}`);
          return 1;
        },
        () => pool.length === 0,
      );
      const journal = await RevocationJournal.open(path.join(home, 'baseline.journal'));
      const appends = await drive(1, seconds * 1000, async () => {
        if (journal.entries > 1000) await journal.compact();
        await journal.append({ kind: 'revoke-grant', time: Date.now(), client_id: 'bench', grant_ids: ['g'] });
        return 1;
      });
      await journal.close();
      const refreshRate = rate(refreshed.ops, refreshed.elapsed);
      const saveRate = rate(saves.ops, saves.elapsed);
      const appendRate = rate(appends.ops, appends.elapsed);
      line('refresh through the actor', `${refreshRate.toFixed(0)} ops/s, ${refreshed.cpu.toFixed(0)} µs CPU/op`);
      line(`baseline: atomic save of clients.json (${(registry.length / 1024).toFixed(1)} KiB)`, `${saveRate.toFixed(0)} ops/s`);
      line('refresh / baseline save', `${(refreshRate / saveRate).toFixed(2)}x`);
      const revokeRate = rate(revoked.ops, revoked.elapsed);
      line(`revoke through the actor (${revoked.ops} grants)`, `${revokeRate.toFixed(0)} ops/s, ${revoked.cpu.toFixed(0)} µs CPU/op`);
      line('baseline: journal append + fsync', `${appendRate.toFixed(0)} ops/s`);
      line('revoke / baseline append', `${(revokeRate / appendRate).toFixed(2)}x`);
    } finally {
      await actor.close();
    }
  },
};

const validationCost: Section = {
  name: 'per-request token validation',
  async run({ seconds, home }) {
    const actor = await startRevocationActor({ home });
    const verifier = await StaticTokenVerifier.open(home);
    try {
      const held = await grants(actor, GRANTS);
      const staticToken = (await readFile(path.join(home, 'token'), 'utf8')).trim();
      const batch = 10_000;
      const measure = (check: (i: number) => boolean): number => {
        let calls = 0;
        const start = performance.now();
        const end = start + (seconds * 1000) / 2;
        while (performance.now() < end) {
          for (let i = 0; i < batch; i++) if (!check(i)) throw new Error('a valid token was refused');
          calls += batch;
        }
        return ((performance.now() - start) * 1e6) / calls;
      };
      // warm both paths, then alternate them so drift affects both alike
      const access = held.map((h) => h.access);
      const oauth = (i: number) => actor.principalFor(access[i % access.length]!) !== null; // an index modulo the length
      measure(oauth);
      measure(() => verifier.verify(staticToken));
      const oauthNs: number[] = [];
      const staticNs: number[] = [];
      for (let round = 0; round < 3; round++) {
        oauthNs.push(measure(oauth));
        staticNs.push(measure(() => verifier.verify(staticToken)));
      }
      const best = (xs: number[]) => Math.min(...xs);
      line('OAuth access token (principalFor)', `${best(oauthNs).toFixed(0)} ns/request`);
      line('static token (StaticTokenVerifier.verify)', `${best(staticNs).toFixed(0)} ns/request`);
      line('OAuth / static', `${(best(oauthNs) / best(staticNs)).toFixed(2)}x`);
    } finally {
      await actor.close();
    }
  },
};

/** An SDK client on `url` presenting `token`. */
async function mcpClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'bench-auth', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

const httpCost: Section = {
  name: `tools/call over HTTP (${CALLERS} concurrent callers, demo ontology)`,
  async run({ seconds, home }) {
    const server = await startServer({ home, flags: { port: '0' }, env: {} });
    try {
      const oauth = await authorize(server.authority, await registerClient(server.authority, 'bench-http'));
      const staticToken = (await readFile(server.tokenFile, 'utf8')).trim();
      const clients = { oauth: await mcpClient(server.url, oauth.access_token), static: await mcpClient(server.url, staticToken) };
      const phase = async (client: Client, ms: number) => {
        const r = await drive(CALLERS, ms, async () => {
          const result = await client.callTool({ name: 'get_active_ontology', arguments: {} });
          if (result.isError === true) throw new Error('the call failed');
          return 1;
        });
        return rate(r.ops, r.elapsed);
      };
      // warm both, then alternate so drift affects both alike
      await phase(clients.oauth, 300);
      await phase(clients.static, 300);
      const oauthRates: number[] = [];
      const staticRates: number[] = [];
      for (let round = 0; round < 3; round++) {
        oauthRates.push(await phase(clients.oauth, (seconds * 1000) / 6));
        staticRates.push(await phase(clients.static, (seconds * 1000) / 6));
      }
      const best = (xs: number[]) => Math.max(...xs);
      line('OAuth access token', `${best(oauthRates).toFixed(0)} calls/s`);
      line('static token (baseline)', `${best(staticRates).toFixed(0)} calls/s`);
      line('OAuth / static throughput', `${(best(oauthRates) / best(staticRates)).toFixed(2)}x`);
      await clients.oauth.close();
      await clients.static.close();
    } finally {
      await server.close(1000);
    }
  },
};

const SECTIONS: readonly Section[] = [actorThroughput, validationCost, httpCost];

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 3);
  for (const section of SECTIONS) {
    const home = await mkdtemp(path.join(os.tmpdir(), 'athene-bench-auth-'));
    console.log(`${section.name}:`);
    try {
      await section.run({ seconds, home });
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }
}

await main();
