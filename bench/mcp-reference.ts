// The reference server of bench/mcp: the SDK's McpServer with its node:http Streamable HTTP transport,
// one per session, serving the same get_entity, add_axiom and remove_axiom tool logic over a workspace on
// the demo ontology, with the same bearer check. Prints its URL on stdout once listening.

import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Workspace } from '../src/model/workspace.js';
import { WorkspaceResolver } from '../src/model/resolver.js';
import { loadOntologyFile } from '../src/model/io.js';
import { staticPrincipal } from '../src/auth/principal.js';
import { WindowState } from '../src/window/state.js';
import { runTool } from '../src/tools/core/tool-gate.js';
import { getEntity } from '../src/tools/explore/lookup.js';
import { addAxiom, removeAxiom } from '../src/tools/edit/axiom-edits.js';
import type { ToolContext } from '../src/tools/core/tool.js';

const [file, token] = process.argv.slice(2);
if (file === undefined || token === undefined) throw new Error('usage: mcp-reference FILE TOKEN');
const workspace = new Workspace();
workspace.load(await loadOntologyFile(file));
const window = new WindowState({ workspace, resolver: new WorkspaceResolver(workspace), windowId: 'reference' });
const ctx: ToolContext = {
  workspace,
  resolver: window.resolver,
  window,
  settings: { read_only: false, confirm_each_write: false, approval_timeout_s: 300, label_language: 'en' },
  principal: staticPrincipal(),
  sessionId: null,
  windowId: 'reference',
  signal: new AbortController().signal,
};
const approvals = window.approvals;
const sessions = new Map<string, StreamableHTTPServerTransport>();

function session(): McpServer {
  const server = new McpServer({ name: 'reference', version: '1.0.0' });
  server.registerTool('get_entity', { description: getEntity.description, inputSchema: { entity: z.string() } }, async (args) =>
    runTool(getEntity, args, ctx, approvals),
  );
  const operands = { axiom_type: z.string(), sub: z.string(), super: z.string() };
  server.registerTool('add_axiom', { description: addAxiom.description, inputSchema: operands }, async (args) =>
    runTool(addAxiom, args, ctx, approvals),
  );
  server.registerTool('remove_axiom', { description: removeAxiom.description, inputSchema: operands }, async (args) =>
    runTool(removeAxiom, args, ctx, approvals),
  );
  return server;
}

async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const httpServer = http.createServer((req, res) => {
  void (async () => {
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      return;
    }
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    const sid = req.headers['mcp-session-id'];
    let transport = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (transport === undefined) {
      if (typeof sid === 'string') {
        res.writeHead(404).end();
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        enableJsonResponse: true,
        onsessioninitialized: (id) => {
          sessions.set(id, created);
        },
      });
      created.onclose = () => {
        if (created.sessionId !== undefined) sessions.delete(created.sessionId);
      };
      await session().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, body);
  })().catch((err: Error) => {
    if (!res.headersSent) res.writeHead(500).end(err.message);
  });
});

httpServer.listen(0, '127.0.0.1', () => {
  const address = httpServer.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  process.stdout.write(`http://127.0.0.1:${address.port}/mcp\n`);
});
