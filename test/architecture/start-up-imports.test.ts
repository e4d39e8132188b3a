// Start-up loads only what serving the first request needs: a real server, started in a child process whose
// threads record every module they load, serving a Turtle document. Neither the front door nor the revocation
// actor loads the OWL model or the MCP SDK; no thread loads a parser, engine, canonicalizer or thread pool
// that a Turtle window has not been asked to use yet (they load on first use, covered by the tests of each
// feature): ES modules and CommonJS packages alike.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { at } from '../support/at.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const HEAVY = ['jsonld', 'rdfxml-streaming-parser', 'oxigraph', 'shacl-engine', 'rdf-canonize', 'yaml', 'saxes', 'piscina'];

/** The modules each thread of a freshly started server loaded, by thread file name. */
async function loadedAtStart(dir: string): Promise<Map<string, string[]>> {
  const home = path.join(dir, 'home');
  const records = path.join(dir, 'records');
  await Promise.all([mkdir(home), mkdir(records)]);
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
function threadRunning(threads: Map<string, string[]>, marker: string): string[] {
  const found = [...threads.values()].filter((mods) => mods.some((m) => m.endsWith(marker)));
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
    const window = threadRunning(threads, '/dist/src/actors/window-worker.js');
    assert.ok(
      window.some((m) => m.endsWith('/dist/src/model/formats/turtle-reader.js')),
      'the window read its Turtle document',
    );
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
