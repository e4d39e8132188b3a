// `npm test` after the build: every compiled test file (dist/test/**/*.test.js; the helper modules beside them
// are not tests) on the default transport, then dist/test/server again on node:http. test/server holds the files
// whose outcome can depend on the transport: HTTP parsing, limits, headers, origins, CORS, sessions, auth and
// OAuth, SSE and streaming, progress, notifications and subscriptions, cancellation, the web view,
// resumability, large bodies, the admin API, crashes and process-level behaviour. A file that only exercises
// tools through ordinary tool calls goes through the same transport code as hundreds of others and runs once,
// from test/tools-mcp; tests that never reach the transport live in test/actors, test/tools and the like.
// Files are independent (own temporary directories, ephemeral ports), so they run CONCURRENCY at a time.
// A hung test must not stall CI: each test gets TEST_TIMEOUT_MS; a file still running after
// ATHENE_TEST_FILE_MINUTES (default 15) is killed and fails, and the pass goes on; a pass still running after
// ATHENE_TEST_PASS_MINUTES (default 60) is killed, naming the files that were still running.
// Each pass ends with its files' wall times, slowest first (scripts/test-file-times.mjs), and the pass's wall and
// CPU time, so the log shows where the time goes.
// Usage: node scripts/test.mjs   (exits non-zero when a test fails, a file or a pass is killed)

import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const CONCURRENCY = 3;
// generous: on a quiet 2-core machine the slowest test takes about 35 s and the slowest file about 70 s, and
// a machine loaded by other work makes them several times slower
const TEST_TIMEOUT_MS = 10 * 60_000;
const FILE_LIMIT_S = Number(process.env.ATHENE_TEST_FILE_MINUTES ?? 15) * 60;
const PASS_LIMIT_MS = Number(process.env.ATHENE_TEST_PASS_MINUTES ?? 60) * 60_000;
const WATCH_MS = 10_000;

function testFiles(dir) {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.js'))
    .map((e) => path.relative(root, path.join(e.parentPath ?? e.path, e.name)));
}

/** Every process as [pid, parent pid, age in seconds, command line], from procps `ps` (none without it). */
function processTable() {
  let listing = '';
  try {
    listing = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,etimes=,args='], { encoding: 'utf8' });
  } catch {
    // no procps ps: nothing to name or kill beyond the runner itself
  }
  return listing
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [pid, ppid, seconds, ...args] = line.trim().split(/\s+/);
      return { pid: Number(pid), ppid: Number(ppid), seconds: Number(seconds), args };
    });
}

/** The test files the runner `pid` is running, each in a child process named by its path, with its age. */
function runningFiles(table, pid) {
  return table.flatMap(({ pid: child, ppid, seconds, args }) => {
    const file = ppid === pid ? args.find((arg) => arg.endsWith('.test.js')) : undefined;
    return file === undefined ? [] : [{ pid: child, seconds, file: path.relative(root, path.resolve(root, file)) }];
  });
}

/** Kills `pid` and every process below it: a test's servers may run detached in groups of their own. */
function killTree(table, pid) {
  const doomed = [pid];
  for (let i = 0; i < doomed.length; i++) for (const p of table) if (p.ppid === doomed[i]) doomed.push(p.pid);
  for (const p of doomed) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // it ended meanwhile
    }
  }
}

/** Kills the runner's file processes older than the file bound; the runner reports each as failed. */
function killHungFiles(pid) {
  const table = processTable();
  for (const { pid: filePid, seconds, file } of runningFiles(table, pid)) {
    if (seconds <= FILE_LIMIT_S) continue;
    process.stderr.write(`\n${file}: still running after ${FILE_LIMIT_S / 60} min, killed\n`);
    killTree(table, filePid);
  }
}

/** CPU seconds used by the runner's finished children and their descendants (Linux /proc; 0 elsewhere). */
function childrenCpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
    // fields 16 and 17 of stat(5), counted from the state field as 3
    return (Number(fields[13]) + Number(fields[14])) / ticks;
  } catch {
    return 0;
  }
}

let current = null;

function pass(name, files, env) {
  const reporters = ['spec', './scripts/test-file-times.mjs'].flatMap((r) => [
    `--test-reporter=${r}`,
    '--test-reporter-destination=stdout',
  ]);
  const args = ['--test', `--test-concurrency=${CONCURRENCY}`, `--test-timeout=${TEST_TIMEOUT_MS}`, ...reporters, ...files];
  const started = { wall: Date.now(), cpu: childrenCpuSeconds() };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    current = child;
    const watch = setInterval(() => killHungFiles(child.pid), WATCH_MS);
    const limit = setTimeout(() => {
      const table = processTable();
      process.stderr.write(`\n${name}: still running after ${PASS_LIMIT_MS / 60_000} min, killed; running files:\n`);
      for (const { file } of runningFiles(table, child.pid)) process.stderr.write(`  ${file}\n`);
      killTree(table, child.pid);
    }, PASS_LIMIT_MS);
    child.once('exit', (code) => {
      clearInterval(watch);
      clearTimeout(limit);
      current = null;
      const wall = (Date.now() - started.wall) / 1000;
      const cpu = childrenCpuSeconds() - started.cpu;
      process.stdout.write(`\n${name}: ${files.length} files, ${wall.toFixed(0)} s wall, ${cpu.toFixed(0)} s CPU\n\n`);
      resolve(code ?? 1);
    });
  });
}

// a CI cancel (or Ctrl-C) takes the whole run down, servers the tests started detached included
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    if (current !== null) killTree(processTable(), current.pid);
    process.exitCode = 1;
  });
}

const code =
  (await pass('default transport', testFiles('dist/test'), {})) ||
  (await pass('node:http', testFiles('dist/test/server'), { ATHENE_HTTP_SERVER: 'node' }));
process.exitCode = code;
