// An MCP session driven through a window actor's own request path (WindowHandle.forward) with a chosen
// principal: what the front door does, without it, for checks about what the window itself enforces.

import assert from 'node:assert/strict';
import type { ResponseSink, WindowHandle } from '../../src/actors/window.js';
import { PRINCIPAL_VERSION, staticPrincipal, type Principal } from '../../src/auth/principal.js';

/** An OAuth principal of `client` and `grant` with every capability. */
export function oauthPrincipal(client: string, grant: string): Principal {
  return {
    version: PRINCIPAL_VERSION,
    type: 'oauth',
    client_id: client,
    display_name: client,
    grant_id: grant,
    capabilities: staticPrincipal().capabilities,
  };
}

interface Answer {
  status: number;
  headers: [string, string][];
  body: string;
}

/** A ResponseSink that collects one whole answer. */
function collector(): { sink: ResponseSink; answer: Promise<Answer> } {
  let resolve!: (a: Answer) => void;
  const answer = new Promise<Answer>((r) => (resolve = r));
  const sink: ResponseSink = {
    complete: (status, headers, body) => resolve({ status, headers, body }),
    reply: (status, body) => resolve({ status, headers: [], body: body ?? '' }),
    head: () => undefined,
    chunk: () => undefined,
    end: () => undefined,
    fail: (status, message) => resolve({ status, headers: [], body: JSON.stringify({ error: message }) }),
  };
  return { sink, answer };
}

/** An MCP session on one window, driven through the window's own request path with a given principal. */
export class DirectSession {
  private nextId = 1;

  private constructor(
    private readonly window: WindowHandle,
    private readonly principal: Principal,
    private readonly sessionId: string,
  ) {}

  static async open(window: WindowHandle, principal: Principal): Promise<DirectSession> {
    const init = await post(window, principal, null, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'direct', version: '1' } },
    });
    const sid = init.headers.find(([k]) => k === 'mcp-session-id')?.[1];
    assert.ok(sid !== undefined, `initialize answered ${init.status}: ${init.body}`);
    await post(window, principal, sid, { jsonrpc: '2.0', method: 'notifications/initialized' });
    return new DirectSession(window, principal, sid);
  }

  /** A tools/call; resolves with the tool result's structured content and error flag. */
  async call(name: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean; body: Record<string, unknown> }> {
    const a = await post(this.window, this.principal, this.sessionId, {
      jsonrpc: '2.0',
      id: this.nextId++,
      method: 'tools/call',
      params: { name, arguments: args },
    });
    assert.equal(a.status, 200, a.body);
    const result = (JSON.parse(a.body) as { result: { isError?: boolean; structuredContent: Record<string, unknown> } }).result;
    return { isError: result.isError === true, body: result.structuredContent };
  }
}

function post(window: WindowHandle, principal: Principal, sessionId: string | null, message: unknown): Promise<Answer> {
  const headers = [
    'content-type',
    'application/json',
    'accept',
    'application/json, text/event-stream',
    'mcp-protocol-version',
    '2025-06-18',
  ];
  if (sessionId !== null) headers.push('mcp-session-id', sessionId);
  const { sink, answer } = collector();
  window.forward({ method: 'POST', url: '/mcp', headers, body: JSON.stringify(message), principal }, sink);
  return answer;
}
