// An MCP session opened with raw HTTP (initialize, then initialized), for checks on the session id itself.

import assert from 'node:assert/strict';
import { raw, INIT_BODY, MCP_HEADERS, type TestServer } from './support.js';

/** Opens a session with `token`; returns its id. */
export async function openSession(t: TestServer, token: string): Promise<string> {
  const init = await raw(t, { method: 'POST', headers: { ...MCP_HEADERS, authorization: `Bearer ${token}` }, body: INIT_BODY });
  assert.equal(init.status, 200);
  const sid = init.headers.get('mcp-session-id');
  assert.ok(sid !== null);
  await init.text();
  const done = await raw(t, {
    method: 'POST',
    headers: { ...MCP_HEADERS, authorization: `Bearer ${token}`, 'mcp-session-id': sid },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  assert.equal(done.status, 202);
  return sid;
}
