// Start-up loads only what serving the first request needs: a real server, started in a child process whose
// threads record every module they load, serving a Turtle document. Neither the front door nor the revocation
// actor loads the OWL model or the MCP SDK; no thread loads a parser, engine, canonicalizer or thread pool
// that a Turtle window has not been asked to use yet (they load on first use, covered by the tests of each
// feature): ES modules and CommonJS packages alike. The window runs its bundle (scripts/bundle.mjs) when
// the build made one: the bundle inlines none of those libraries (they stay lazy and load once per thread), nor
// any package one of them depends on, and the window thread loads none of its compiled modules besides it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { at } from '../support/at.js';
import { windowEntry } from '../../src/actors/window-entry.js';
import { startRevocationActor } from '../../src/auth/revocation/actor.js';
import { registerClient } from '../auth/support.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const HEAVY = ['jsonld', 'rdfxml-streaming-parser', 'oxigraph', 'shacl-engine', 'rdf-canonize', 'yaml', 'saxes', 'piscina'];

/** The modules each thread of a freshly started server loaded, by thread file name. */
async function loadedAtStart(dir: string): Promise<Map<string, string[]>> {
  const home = path.join(dir, 'home');
  const records = path.join(dir, 'records');
  await Promise.all([mkdir(home), mkdir(records)]);
  // a registered client: the revocation actor starts with the server (on an empty registry it waits for OAuth)
  const authority = await startRevocationActor({ home });
  await registerClient(authority);
  await authority.close();
  const child = spawn(
    process.execPath,
    ['--import', path.join(here, 'start-up-imports-register.js'), path.join(here, 'start-up-imports-child.js'), home],
    {
      env: { ...process.env, ATHENE_TEST_IMPORTS_DIR: records },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    let ready = false;
    for await (const line of readline.createInterface({ input: child.stdout })) {
      if (line === 'ready') {
        ready = true;
        break;
      }
    }
    assert.ok(ready, 'the server started');
    const readyAt = Date.now();
    const threads = new Map<string, string[]>();
    for (const name of (await readdir(records)).filter((n) => n.startsWith('thread-'))) {
      const esm = (await readFile(path.join(records, name), 'utf8')).split('\n').filter((l) => l !== '');
      threads.set(name, [...esm, ...(await requiredSince(path.join(records, name.replace('thread-', 'cjs-')), readyAt))]);
    }
    return threads;
  } finally {
    child.stdin.end();
    await exited;
  }
}

/** The CommonJS modules of a thread's first require-cache snapshot taken at `since` or later. */
async function requiredSince(file: string, since: number): Promise<string[]> {
  const end = Date.now() + 60_000;
  for (;;) {
    const [taken, ...modules] = await readFile(file, 'utf8').then(
      (text) => text.split('\n'),
      () => [],
    );
    if (taken !== undefined && Number(taken) >= since) return modules;
    if (Date.now() > end) throw new Error(`no snapshot of the require cache since the server was ready: ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The one thread whose modules include `marker` (a module only that thread runs). */
function threadRunning(threads: Map<string, string[]>, marker: string | RegExp): string[] {
  const runs = (m: string): boolean => (typeof marker === 'string' ? m.endsWith(marker) : marker.test(m));
  const found = [...threads.values()].filter((mods) => mods.some(runs));
  assert.equal(found.length, 1, `one thread runs ${marker}`);
  return at(found, 0);
}

const packages = (mods: string[]): string[] => mods.filter((m) => HEAVY.some((p) => m.includes(`/node_modules/${p}/`)));
const model = (mods: string[]): string[] => mods.filter((m) => m.includes('/dist/src/model/') || m.includes('/@modelcontextprotocol/sdk/'));

test('a started server has loaded no heavy library a Turtle window does not use yet, its front door and revocation actor no model', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-start-up-imports-'));
  try {
    const threads = await loadedAtStart(dir);
    const main = threads.get('thread-0.txt') ?? [];
    assert.ok(
      main.some((m) => m.endsWith('/dist/src/http/server.js')),
      'the main thread was recorded',
    );
    const entry = windowEntry(new URL('../../src/actors/', import.meta.url));
    const window = threadRunning(threads, entry.url.href);
    assert.ok(
      window.some((m) => /\/dist\/src\/(model\/formats|actors\/window-bundle)\/turtle-reader(-\w+)?\.js$/.test(m)),
      'the window read its Turtle document',
    );
    if (entry.unbundled === null) {
      assert.deepEqual(
        window.filter((m) => m.includes('/dist/src/') && !m.includes('/dist/src/actors/window-bundle/')),
        [],
        'the bundled window loads no compiled module a second time',
      );
    }
    const revocation = threadRunning(threads, '/dist/src/auth/revocation/actor-worker.js');
    for (const [name, mods] of threads) assert.deepEqual(packages(mods), [], `${name} loaded no heavy library`);
    assert.deepEqual(model(main), [], 'the front door loads neither the OWL model nor the MCP SDK');
    assert.deepEqual(model(revocation), [], 'the revocation actor loads neither the OWL model nor the MCP SDK');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a test that needs only a served client does not load the tool catalog (its window has it)', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-start-up-imports-'));
  try {
    const support = path.join(here, '..', 'server', 'support.js');
    const child = spawn(
      process.execPath,
      [
        '--import',
        path.join(here, 'start-up-imports-register.js'),
        '--input-type=module',
        '-e',
        `await import(${JSON.stringify(support)});`,
      ],
      { env: { ...process.env, ATHENE_TEST_IMPORTS_DIR: dir }, stdio: ['ignore', 'inherit', 'inherit'] },
    );
    assert.equal(await new Promise<number | null>((resolve) => child.once('exit', resolve)), 0);
    const loaded = (await readFile(path.join(dir, 'thread-0.txt'), 'utf8')).split('\n');
    assert.ok(
      loaded.some((m) => m.endsWith('/dist/src/http/server.js')),
      'the test process was recorded',
    );
    assert.deepEqual(
      loaded.filter((m) => m.includes('/dist/src/tools/')),
      [],
      'test/server/support.js loads no tool module',
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/** The packages a source map's sources come from. */
const packagesOf = (sources: string[]): string[] => sources.flatMap((s) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(s)?.[1] ?? []);

/** `name` and every package it depends on, from their package.json files. */
async function dependencyClosure(root: string, name: string, into = new Set<string>()): Promise<Set<string>> {
  if (into.has(name)) return into;
  into.add(name);
  const manifest = await readFile(path.join(root, 'node_modules', name, 'package.json'), 'utf8').catch(() => null);
  if (manifest === null) return into;
  const { dependencies = {} } = JSON.parse(manifest) as { dependencies?: Record<string, string> };
  for (const dependency of Object.keys(dependencies)) await dependencyClosure(root, dependency, into);
  return into;
}

test('the window bundle inlines no heavy library nor any package one of them depends on', async (t) => {
  const root = path.resolve(here, '../../..');
  const bundle = path.join(root, 'dist/src/actors/window-bundle');
  const stamp = await readFile(path.join(bundle, 'stamp.json'), 'utf8').catch(() => null);
  if (stamp === null) return t.skip('no bundle: `npm run build` makes it');
  const inlined = new Set<string>();
  for (const map of (JSON.parse(stamp) as { files: string[] }).files.filter((f) => f.endsWith('.map'))) {
    const { sources } = JSON.parse(await readFile(path.join(bundle, map), 'utf8')) as { sources: string[] };
    for (const p of packagesOf(sources)) inlined.add(p);
  }
  assert.ok(inlined.has('@modelcontextprotocol/sdk'), 'the bundle inlines the MCP SDK');
  for (const heavy of HEAVY) {
    const twice = [...(await dependencyClosure(root, heavy))].filter((p) => inlined.has(p));
    assert.deepEqual(twice, [], `the bundle inlines neither ${heavy} nor a package it loads`);
  }
});
