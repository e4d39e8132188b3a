// The start-to-finish smoke test `.ci/run` runs on each Node line: start `athene serve` with the Node
// running this script, then initialize, tools/list, a tool call, an edit, an SSE GET and a DELETE.
// Usage: node scripts/smoke.mjs   (after a build; exits non-zero on the first failure)

import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-smoke-'));
const doc = path.join(dir, 'demo.ttl');
await copyFile(path.join(root, 'examples/demo.ttl'), doc);
const child = spawn(process.execPath, [path.join(root, 'dist/src/cli/main.js'), 'serve', doc, '--port', '0', '--home', path.join(dir, 'home')],
  { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  let banner = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      banner += d;
      const m = /listening on (\S+)/.exec(banner);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`athene serve exited (${code}):\n${banner}`)));
  });
  const transport = /HTTP transport: (.*)/.exec(banner)?.[1];
  const token = (await readFile(path.join(dir, 'home', 'token'), 'utf8')).trim();
  const auth = { authorization: `Bearer ${token}` };
  const client = new Client({ name: 'smoke', version: '1' });
  const http = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: auth } });
  await client.connect(http);
  const { tools } = await client.listTools();
  assert.ok(tools.some((t) => t.name === 'add_axiom'), 'tools/list names add_axiom');
  const read = await client.callTool({ name: 'get_entity', arguments: { entity: 'person' } });
  assert.equal(read.isError ?? false, false, JSON.stringify(read));
  const edit = await client.callTool({ name: 'add_axiom', arguments: { axiom_type: 'subclass_of', sub: 'SmokeClass', super: 'Work' } });
  assert.equal(edit.isError ?? false, false, JSON.stringify(edit));
  await client.close();
  // a raw session of its own for the event stream (the SDK client holds its session's one GET stream)
  const post = (headers, body) => fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body) });
  const init = await post(auth, { jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'smoke-raw', version: '1' } } });
  assert.equal(init.status, 200);
  await init.text();
  const session = { ...auth, 'mcp-session-id': init.headers.get('mcp-session-id'), 'mcp-protocol-version': '2025-06-18' };
  assert.equal((await post(session, { jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
  const sse = new AbortController();
  const stream = await fetch(url, { headers: { ...session, accept: 'text/event-stream' }, signal: sse.signal });
  assert.equal(stream.status, 200);
  assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
  sse.abort();
  const del = await fetch(url, { method: 'DELETE', headers: session });
  assert.ok(del.status === 200 || del.status === 204, `DELETE answered ${del.status}`);
  const after = await post(session, { jsonrpc: '2.0', id: 9, method: 'tools/list' });
  assert.equal(after.status, 404, 'a deleted session is gone');
  process.stdout.write(`smoke ok on Node ${process.versions.node} (${transport})\n`);
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  await rm(dir, { recursive: true, force: true });
}
