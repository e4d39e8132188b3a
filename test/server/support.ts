// Test support: a real server on port 0 with real window workers, in a private temporary home, and SDK
// clients connected to it over Streamable HTTP.

import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { after } from 'node:test';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import type { RawSettings } from '../../src/settings/settings.js';
import { PRINCIPAL_VERSION, type Principal } from '../../src/auth/principal.js';
import { at } from '../support/at.js';

/** test/fixtures/server, resolved from the compiled file in dist/test/server. */
export function fixture(name: string): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (path.basename(dir) !== 'dist') dir = path.dirname(dir);
  return path.join(path.dirname(dir), 'test', 'fixtures', 'server', name);
}

export interface TestServer {
  server: RunningServer;
  token: string;
  home: string;
  stop(): Promise<void>;
}

/**
 * The HTTP transport the server tests run through: `ATHENE_HTTP_SERVER` (auto, uws, node), so `npm test` runs
 * this suite once per transport; spawned `athene` processes read the same variable.
 */
export const TEST_TRANSPORT = process.env.ATHENE_HTTP_SERVER ?? 'auto';

export async function startTestServer(files: string[], flags: RawSettings = {}, home?: string): Promise<TestServer> {
  const dir = home ?? (await mkdtemp(path.join(os.tmpdir(), 'athene-test-')));
  const server = await startServer({
    home: dir,
    files,
    // JSON log lines: the pretty printer would cost each test process about 60 ms of CPU to load
    flags: { port: '0', http_server: TEST_TRANSPORT, check_output_shapes: true, log_format: 'json', ...flags },
    env: {},
  });
  const token = (await readFile(server.tokenFile, 'utf8')).trim();
  return {
    server,
    token,
    home: dir,
    stop: async () => {
      await server.close(1000);
      if (home === undefined) await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Compiles a listed outputSchema when a call first needs it: the SDK client compiles every listed schema
 * as it lists the tools (about 100 ms of CPU a listing), and a test calls a few of them.
 */
class LazySchemaValidator implements jsonSchemaValidator {
  private readonly ajv = new AjvJsonSchemaValidator();

  getValidator<T>(schema: Parameters<jsonSchemaValidator['getValidator']>[0]): JsonSchemaValidator<T> {
    let compiled: JsonSchemaValidator<T> | undefined;
    return (input) => (compiled ??= this.ajv.getValidator<T>(schema))(input);
  }
}

const schemaValidator = new LazySchemaValidator();

export async function connect(t: TestServer, token = t.token, endpoint = '/mcp'): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(endpoint, t.server.url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'athene-test', version: '1.0.0' }, { jsonSchemaValidator: schemaValidator });
  await client.connect(transport);
  return client;
}

/** A started server with one client connected; `close` disconnects and stops it. */
export interface ServedClient {
  t: TestServer;
  c: Client;
  close(): Promise<void>;
}

export async function serveAndConnect(files: string[], flags: RawSettings = {}): Promise<ServedClient> {
  const t = await startTestServer(files, flags);
  const c = await connect(t).catch(async (err: unknown) => {
    await t.stop();
    throw err;
  });
  return {
    t,
    c,
    close: async () => {
      await c.close();
      await t.stop();
    },
  };
}

/**
 * One served client for the tests of a file that leave its server as they found it (reads, refused
 * arguments, their own sessions): started by the first test that asks, closed after the file's tests.
 * Call at the top level of a test file.
 */
export function sharedServer(files: string[], flags: RawSettings = {}): () => Promise<ServedClient> {
  let served: Promise<ServedClient> | undefined;
  after(async () => {
    // a start that failed has already failed the test that asked for it
    await served?.then(
      (s) => s.close(),
      () => undefined,
    );
  });
  return () => (served ??= serveAndConnect(files, flags));
}

/** A served ontology written to `dir/fileName` in a fresh temp dir; `close` also removes the dir. */
export interface ServedTempOntology extends ServedClient {
  dir: string;
  file: string;
}

export async function serveTempOntology(
  prefix: string,
  fileName: string,
  text: string,
  flags: RawSettings = {},
): Promise<ServedTempOntology> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  const file = path.join(dir, fileName);
  const served = await writeFile(file, text)
    .then(() => serveAndConnect([file], flags))
    .catch(async (err: unknown) => {
      await rm(dir, { recursive: true, force: true });
      throw err;
    });
  return {
    ...served,
    dir,
    file,
    close: async () => {
      await served.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `body` with `dir/.athene/project.yaml` holding `yaml`; the policy directory is removed afterwards. */
export async function withProjectPolicy(dir: string, yaml: string, body: () => Promise<void>): Promise<void> {
  const policyDir = path.join(dir, '.athene');
  await mkdir(policyDir, { recursive: true });
  await writeFile(path.join(policyDir, 'project.yaml'), yaml);
  try {
    await body();
  } finally {
    await rm(policyDir, { recursive: true, force: true });
  }
}

/** A local HTTP origin for remote sources; `hits` counts every request it receives. */
export interface TestOrigin {
  base: string;
  readonly hits: number;
  close(): Promise<void>;
}

/**
 * Answers each path of `pages` with its Turtle text, never answers a path of `silent` (to make a client's
 * connection timeout fire), and 404 to anything else.
 */
export async function startOrigin(pages: Record<string, string>, silent: readonly string[] = []): Promise<TestOrigin> {
  let hits = 0;
  const web = createServer((req, res) => {
    hits++;
    const url = req.url ?? '';
    if (silent.includes(url)) return;
    const page = pages[url];
    if (page !== undefined) res.writeHead(200, { 'content-type': 'text/turtle' }).end(page);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(web.address() as AddressInfo).port}`,
    get hits() {
      return hits;
    },
    close: async () => {
      // a silent path holds its connection open, and close waits for every connection to end
      web.closeAllConnections();
      await new Promise((resolve) => web.close(resolve));
    },
  };
}

export interface CallOutcome {
  isError: boolean;
  body: Record<string, unknown>;
}

/**
 * Clients that have listed the tools: the SDK client then checks each structuredContent against the
 * outputSchema it listed, and the server's gate (settings `check_output_shapes`, on in tests) checks each
 * success against the tool's declared shape, whichever test makes the call: the tests reach every mode.
 */
const listed = new WeakSet<Client>();

/** Calls a tool and checks that the text block mirrors the structured content (and, see `listed`, that it fits its shape). */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallOutcome> {
  if (!listed.has(client)) {
    await client.listTools();
    listed.add(client);
  }
  const result = await client.callTool({ name, arguments: args });
  const body = result.structuredContent as Record<string, unknown>;
  const content = result.content as { type: string; text: string }[];
  if (content.length !== 1 || JSON.stringify(JSON.parse(at(content, 0).text)) !== JSON.stringify(body)) {
    throw new Error(`text block does not mirror structuredContent for ${name}`);
  }
  return { isError: result.isError === true, body };
}

/** A tool result object, read field by field. */
export type Row = Record<string, unknown>;

/** Calls a tool that must succeed and returns its result object. */
export async function callOk(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const r = await call(client, name, args);
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The active ontology's axiom count. */
export async function axiomCount(client: Client): Promise<number> {
  return (await callOk(client, 'get_active_ontology')).axioms as number;
}

/** How many changes undo_change could undo. */
export async function undoDepth(client: Client): Promise<number> {
  return (await callOk(client, 'undo_change', { peek: true })).undo_depth as number;
}

/** A raw HTTP request to the server, for the checks the SDK client cannot make. */
export function raw(t: TestServer, init: RequestInit & { path?: string } = {}): Promise<Response> {
  const url = new URL(init.path ?? '/mcp', t.server.url);
  return fetch(url, init);
}

export const INIT_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A principal holding exactly `capabilities`, for gate checks the static token (all ten) cannot make. */
export function principalWith(capabilities: readonly string[]): Principal {
  return {
    version: PRINCIPAL_VERSION,
    type: 'oauth',
    client_id: 'limited',
    display_name: 'limited client',
    grant_id: 'g-limited',
    capabilities: [...capabilities],
  };
}

/** An entry of a window's pending-write approval queue, as the admin API lists it. */
export interface PendingWrite {
  approval_id: string;
  tool: string;
  summary: string;
}

/** The held writes the admin API lists. */
export async function pendingWrites(t: TestServer): Promise<PendingWrite[]> {
  const res = await raw(t, { path: '/admin/api/pending', headers: { authorization: `Bearer ${t.token}` } });
  if (res.status !== 200) throw new Error(`GET /admin/api/pending answered ${res.status}`);
  return ((await res.json()) as { pending: PendingWrite[] }).pending;
}

/** A browser signed in as the owner: its session cookie and the session's CSRF token. */
export interface OwnerBrowser {
  readonly cookie: string;
  readonly csrf: string;
}

const owners = new WeakMap<TestServer, Promise<OwnerBrowser>>();

/** Signs in as the owner with a fresh single-use login URL (once per server; later calls reuse the session). */
export function ownerLogin(t: TestServer): Promise<OwnerBrowser> {
  let browser = owners.get(t);
  if (browser === undefined) {
    browser = (async () => {
      const url = t.server.ownerLoginUrl();
      const login = await fetch(url, { redirect: 'manual' });
      if (login.status !== 303) throw new Error(`owner login answered ${login.status}`);
      const cookie = at(login.headers.get('set-cookie')!.split(';'), 0);
      // the cookie is host-only: the browser follows the redirect on the login URL's host
      const home = await fetch(new URL(login.headers.get('location')!, url), { headers: { cookie } });
      const csrf = /name="athene-csrf" content="([^"]+)"/.exec(await home.text())?.[1];
      if (csrf === undefined) throw new Error('the owner page carries no CSRF token');
      return { cookie, csrf };
    })();
    owners.set(t, browser);
  }
  return browser;
}

/** The hidden fields of an owner's consent form, or null when the page is not one. */
export function consentFields(html: string): { csrf: string; consent: string; wait: string } | null {
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1];
  const [csrf, consent, wait] = [field('csrf'), field('consent'), field('wait')];
  return csrf === undefined || consent === undefined || wait === undefined ? null : { csrf, consent, wait };
}

/** Approves or denies a held write as the owner (session cookie and CSRF token; a bearer token is refused). */
export async function decideWrite(t: TestServer, id: string, verb: 'approve' | 'deny'): Promise<Response> {
  const owner = await ownerLogin(t);
  return raw(t, {
    method: 'POST',
    path: `/admin/api/pending/${id}/${verb}`,
    headers: { cookie: owner.cookie, 'x-athene-csrf': owner.csrf },
  });
}

/** Polls `ready` (a server round trip each time) until it holds; fails after `attempts` tries. */
export async function eventually(what: string, ready: () => Promise<boolean>, attempts = 200): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await ready()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`never happened: ${what}`);
}
