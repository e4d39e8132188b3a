// `athene serve` and `athene token` as processes: the start banner, port fallback, SIGTERM exit, token rotation.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startTestServer, fixture } from './support.js';

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/cli/main.js');
const run = promisify(execFile);

test('serve prints the URL, token file and connect commands (never the token), and exits 0 on SIGTERM', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-cli-'));
  try {
    const child = spawn(process.execPath, [MAIN, 'serve', fixture('zoo.ttl'), '--port', '0', '--home', home], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('claude mcp add')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`serve exited early (${code}): ${out}`)));
    });
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out)?.[1];
    assert.ok(url, out);
    assert.ok(out.includes(path.join(home, 'token')));
    const { stdout: token } = await run(process.execPath, [MAIN, 'token', '--home', home]);
    assert.ok(!out.includes(token.trim()), 'the static token is never printed');
    assert.ok(
      out.includes(`claude mcp add --transport http athene ${url} --header "Authorization: Bearer $(npx athene token --home ${home})"`),
      out,
    );
    assert.match(out, /\.vscode\/mcp\.json: .*"Bearer \$\{input:athene-token\}"/);
    assert.match(out, /Cursor, .*"Bearer \$\{env:ATHENE_TOKEN\}"/);
    assert.match(out, /OAuth, no header: {2}claude mcp add --transport http athene \S+ {3}/);
    assert.match(out, /HTTP transport: (uWebSockets\.js|node:http)/);
    const health = await fetch(new URL('/health', url), { headers: { authorization: `Bearer ${token.trim()}` } });
    assert.equal(health.status, 200);
    const code = await new Promise<number | null>((resolve) => {
      child.removeAllListeners('exit');
      child.once('exit', (c) => resolve(c));
      child.kill('SIGTERM');
    });
    assert.equal(code, 0);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test('token --regenerate prints a new token', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-cli-'));
  try {
    const first = (await run(process.execPath, [MAIN, 'token', '--home', home])).stdout.trim();
    const again = (await run(process.execPath, [MAIN, 'token', '--home', home])).stdout.trim();
    const fresh = (await run(process.execPath, [MAIN, 'token', '--regenerate', '--home', home])).stdout.trim();
    assert.equal(again, first);
    assert.notEqual(fresh, first);
    assert.match(fresh, /^[A-Za-z0-9_-]{43}$/);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test('a taken port falls back to an ephemeral one', async () => {
  const a = await startTestServer([fixture('zoo.ttl')]);
  const b = await startTestServer([fixture('zoo.ttl')], { port: String(a.server.port) });
  try {
    assert.equal(a.server.fellBack, false);
    assert.equal(b.server.fellBack, true);
    assert.notEqual(b.server.port, a.server.port);
    const res = await fetch(new URL('/health', b.server.url), { headers: { authorization: `Bearer ${b.token}` } });
    assert.equal(res.status, 200);
  } finally {
    await b.stop();
    await a.stop();
  }
});
