// Units of the server without HTTP: the tool gate's order, settings precedence, the static token file.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat, writeFile, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { runTool } from '../../src/tools/core/tool-gate.js';
import { ApprovalQueue } from '../../src/window/approvals.js';
import { defineTool, type ToolContext, type WindowSettings } from '../../src/tools/core/tool.js';
import { Ontology } from '../../src/model/ontology.js';
import { staticPrincipal, PRINCIPAL_VERSION, type Principal } from '../../src/auth/principal.js';
import { loadSettings, ensureHome, DEFAULT_SETTINGS, SettingsError } from '../../src/settings/settings.js';
import { StaticTokenVerifier, ensureToken, bearerToken } from '../../src/auth/static-token.js';
import { HostGuard } from '../../src/http/guard.js';
import { toolContext } from '../support/tool-context.js';
import { at } from '../support/at.js';

const reader: Principal = {
  version: PRINCIPAL_VERSION,
  type: 'oauth',
  client_id: 'c1',
  display_name: 'reader',
  grant_id: 'g1',
  capabilities: ['ontology:read'],
};

function context(settings: Partial<WindowSettings>, principal: Principal = staticPrincipal()): ToolContext {
  return toolContext([new Ontology()], principal, settings);
}

function probe() {
  const calls: unknown[] = [];
  const tool = defineTool({
    name: 'probe',
    description: 'records its calls',
    input: v.strictObject({ n: v.number() }),
    capabilities: ['ontology:curate'],
    mutating: () => true,
    handler: (args) => {
      calls.push(args);
      return { ok: true };
    },
  });
  return { tool, calls };
}

test('the gate checks capabilities, then arguments, then read-only, then confirmation', async () => {
  const { tool, calls } = probe();
  const q = new ApprovalQueue('w1');
  const deniedFirst = await runTool(tool, { n: 'x' }, context({ read_only: true }, reader), q);
  assert.equal(
    deniedFirst.structuredContent.error_code,
    'authorization_denied',
    'a caller without the capabilities learns nothing about its arguments',
  );
  const badArgs = await runTool(tool, { n: 'x' }, context({ read_only: true }), q);
  assert.equal(badArgs.structuredContent.error_code, 'invalid_argument');
  const denied = await runTool(tool, { n: 1 }, context({ read_only: true }, reader), q);
  assert.equal(denied.structuredContent.error_code, 'authorization_denied');
  assert.deepEqual(denied.structuredContent.missing_capabilities, ['ontology:curate']);
  assert.equal(denied.structuredContent.effects_prevented, true);
  const readOnly = await runTool(tool, { n: 1 }, context({ read_only: true, confirm_each_write: true }), q);
  assert.equal(readOnly.structuredContent.error_code, 'read_only');
  assert.equal(q.list().length, 0, 'a read-only refusal never reaches the approval queue');
  assert.deepEqual(calls, []);
  const ok = await runTool(tool, { n: 2 }, context({}), q);
  assert.equal(ok.isError, false);
  assert.deepEqual(ok.structuredContent, { ok: true });
  assert.equal(at(ok.content, 0).text, '{"ok":true}');
  assert.deepEqual(calls, [{ n: 2 }]);
});

test('a held call runs only after approval', async () => {
  const { tool, calls } = probe();
  const q = new ApprovalQueue('w1');
  const pending = runTool(tool, { n: 3 }, context({ confirm_each_write: true }), q);
  await new Promise((r) => setImmediate(r));
  const [entry] = q.list();
  assert.ok(entry);
  assert.equal(entry.tool, 'probe');
  assert.equal(entry.instance_id, 'w1');
  assert.equal(entry.session_id, 's-unit');
  assert.deepEqual(calls, []);
  assert.equal(q.decide(entry.approval_id, true), true);
  assert.equal((await pending).isError, false);
  assert.deepEqual(calls, [{ n: 3 }]);
  assert.equal(q.decide(entry.approval_id, true), false);
});

test('check_output_shapes: a success that does not fit the declared shape fails, naming the tool and the path', async () => {
  const tool = defineTool({
    name: 'misfit',
    description: 'answers a count that is not a number',
    input: v.strictObject({}),
    output: v.object({ count: v.number(), rows: v.array(v.object({ iri: v.string() })) }),
    capabilities: ['ontology:read'],
    mutating: () => false,
    handler: () => ({ count: 'two' as unknown as number, rows: [{ iri: 'a' }, { iri: 7 as unknown as string }] }),
  });
  const q = new ApprovalQueue('w1');
  const unchecked = await runTool(tool, {}, context({}), q);
  assert.equal(unchecked.isError, false, 'off by default: the result goes out as the handler made it');
  const checked = await runTool(tool, {}, context({ check_output_shapes: true }), q);
  assert.equal(checked.isError, true);
  assert.equal(checked.structuredContent.error_code, 'internal_error');
  const error = String(checked.structuredContent.error);
  assert.match(error, /^misfit: the result does not fit its declared shape: /);
  assert.match(error, /count: /);
  assert.match(error, /rows\.1\.iri: /);
  const fits = await runTool({ ...tool, handler: () => ({ count: 2, rows: [] }) }, {}, context({ check_output_shapes: true }), q);
  assert.deepEqual(fits.structuredContent, { count: 2, rows: [] });
});

test('settings: defaults < settings.json < environment < flags, with precise errors', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-settings-'));
  try {
    await ensureHome(home);
    assert.equal((await stat(home)).mode & 0o777, 0o700);
    assert.deepEqual(await loadSettings(home, {}, {}), DEFAULT_SETTINGS);
    await writeFile(path.join(home, 'settings.json'), JSON.stringify({ port: 9000, read_only: true, bind_address: '::1' }));
    const fromFile = await loadSettings(home, {}, {});
    assert.equal(fromFile.port, 9000);
    assert.equal(fromFile.read_only, true);
    const fromEnv = await loadSettings(home, {}, { ATHENE_PORT: '9001', ATHENE_READ_ONLY: 'false' });
    assert.equal(fromEnv.port, 9001);
    assert.equal(fromEnv.read_only, false);
    const fromFlags = await loadSettings(home, { port: '0', confirm_each_write: true }, { ATHENE_PORT: '9001' });
    assert.equal(fromFlags.port, 0);
    assert.equal(fromFlags.confirm_each_write, true);
    assert.equal(fromFlags.bind_address, '::1');
    await assert.rejects(loadSettings(home, { port: '70000' }, {}), (e: Error) => e instanceof SettingsError && /--port/.test(e.message));
    await writeFile(path.join(home, 'settings.json'), JSON.stringify({ prot: 1 }));
    await assert.rejects(loadSettings(home, {}, {}), SettingsError);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test('the static token is a private 256-bit URL-safe secret, compared by digest', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-token-'));
  try {
    const token = await ensureToken(home);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal((await stat(path.join(home, 'token'))).mode & 0o777, 0o600);
    assert.equal(await ensureToken(home), token, 'the token is stable');
    assert.equal((await readFile(path.join(home, 'token'), 'utf8')).trim(), token);
    const verifier = await StaticTokenVerifier.open(home);
    assert.equal(verifier.verify(token), true);
    assert.equal(verifier.verify(token + 'x'), false);
    assert.equal(verifier.verify(''), false);
    assert.equal(bearerToken('Bearer abc'), 'abc');
    assert.equal(bearerToken('bearer  abc '), 'abc');
    assert.equal(bearerToken('Basic abc'), null);
    assert.equal(bearerToken(undefined), null);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test('DNS-rebinding checks: names of this server (loopback with any port, bind address, allowed_hosts) and its own or allowed origins', () => {
  const loopback = new HostGuard('127.0.0.1', [], []);
  assert.equal(loopback.refusal('localhost:8123', ''), null);
  assert.equal(loopback.refusal('[::1]:8123', 'http://127.0.0.1:8123'), null);
  assert.equal(loopback.refusal('localhost:9999', ''), null, 'a loopback name with any port (port forwarding, tunnels)');
  assert.equal(loopback.refusal('127.0.0.2', ''), null);
  assert.notEqual(loopback.refusal('evil.example:8123', ''), null);
  assert.notEqual(loopback.refusal('localhost:8123', 'http://evil.example'), null);
  assert.notEqual(loopback.refusal('localhost.evil.example:8123', ''), null);
  assert.notEqual(loopback.refusal('', ''), null);
  const wide = new HostGuard('0.0.0.0', ['host.lan'], ['https://app.example']);
  assert.equal(wide.refusal('host.lan:8123', 'http://host.lan:8123'), null);
  assert.equal(wide.refusal('host.lan:8123', 'https://app.example'), null);
  assert.notEqual(wide.refusal('host.lan:8123', 'http://other.lan:8123'), null);
  assert.notEqual(wide.refusal('evil.example:8123', 'http://evil.example:8123'), null, 'a rebinding page on a wildcard bind');
  assert.equal(new HostGuard('127.0.0.2', [], []).refusal('127.0.0.2:8123', 'http://127.0.0.2:8123'), null);
});
