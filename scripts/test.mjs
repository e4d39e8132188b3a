// `npm test` after the build: every compiled test file (dist/test/**/*.test.js; the helper modules beside them
// are not tests) on the default transport, then dist/test/server again on node:http (so tests that never reach
// the HTTP transport live outside test/server: test/actors, test/tools). Files are independent
// (own temporary directories, ephemeral ports), so they run CONCURRENCY at a time; most of their time is spent
// waiting on child processes, sockets and timers rather than on a core.
// A hung test must not stall CI: each test gets TEST_TIMEOUT_MS, and a pass still running after
// ATHENE_TEST_PASS_MINUTES (default 30) is killed, naming the files that were still running.
// Usage: node scripts/test.mjs   (exits non-zero when a test fails or a pass is killed)

import { execFileSync, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const CONCURRENCY = 3;
// generous: the slowest test takes about 35 s on a quiet 2-core machine
const TEST_TIMEOUT_MS = 10 * 60_000;
const PASS_LIMIT_MS = Number(process.env.ATHENE_TEST_PASS_MINUTES ?? 30) * 60_000;

function testFiles(dir) {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.js'))
    .map((e) => path.relative(root, path.join(e.parentPath ?? e.path, e.name)));
}

/** The test files the runner `pid` is running now: each runs in a child process named by its path. */
function runningFiles(pid) {
  try {
    return execFileSync('ps', ['-o', 'args=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .flatMap((args) => args.split(' ').filter((arg) => arg.endsWith('.test.js')))
      .map((file) => path.relative(root, path.resolve(root, file)));
  } catch {
    return ['(ps could not list them)'];
  }
}

let current = null;

function pass(name, files, env) {
  const args = ['--test', `--test-concurrency=${CONCURRENCY}`, `--test-timeout=${TEST_TIMEOUT_MS}`, '--test-reporter=spec', ...files];
  return new Promise((resolve) => {
    // its own process group, so a kill reaches the runner's file processes and the servers they started
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', detached: true, env: { ...process.env, ...env } });
    current = child;
    const limit = setTimeout(() => {
      const running = runningFiles(child.pid);
      process.stderr.write(`\n${name}: still running after ${PASS_LIMIT_MS / 60_000} min, killed; running files:\n`);
      for (const file of running) process.stderr.write(`  ${file}\n`);
      killGroup(child, 'SIGKILL');
    }, PASS_LIMIT_MS);
    child.once('exit', (code) => {
      clearTimeout(limit);
      current = null;
      resolve(code ?? 1);
    });
  });
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is already gone
  }
}

// the runner is in its own group, so a Ctrl-C or a CI cancel must be passed on
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    if (current !== null) killGroup(current, signal);
    process.exitCode = 1;
  });
}

const code =
  (await pass('default transport', testFiles('dist/test'), {})) ||
  (await pass('node:http', testFiles('dist/test/server'), { ATHENE_HTTP_SERVER: 'node' }));
process.exitCode = code;
