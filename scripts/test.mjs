// `npm test` after the build: every compiled test file (dist/test/**/*.test.js; the helper modules beside them
// are not tests) on the default transport, and dist/test/server again on node:http. test/server holds the files
// whose outcome can depend on the transport: HTTP parsing, limits, headers, origins, CORS, sessions, auth and
// OAuth, SSE and streaming, progress, notifications and subscriptions, cancellation, the web view,
// resumability, large bodies, the admin API, and what clients see of crashes and shutdowns. A file that only
// exercises tools through ordinary tool calls goes through the same transport code as hundreds of others and
// runs once, from test/tools-mcp; so do process-level tests whose outcome no transport changes, from the folder
// of what they test (the journal's crash recovery, Konclude's processes, a dead window's job files); tests that
// never reach the transport live in test/actors, test/tools and the like.
// Files are independent (own temporary directories, ephemeral ports). Starting a process, loading the SDK client
// and warming the server's code up cost a file about 1.5 s of CPU, more than most files' tests, so the files run
// in groups, one process per group (`dist/test-groups`, written afresh each run), CONCURRENCY groups at a time
// in one node:test run; within a group the files' tests run one after another. A file whose source says
// `// test-process: own` (it counts its process's threads or memory, or mostly waits for long) runs alone, first.
// A hung test must not stall CI: each test gets TEST_TIMEOUT_MS; a group still running after
// ATHENE_TEST_FILE_MINUTES (default 15) is killed and fails, and the run goes on; a run still going after
// ATHENE_TEST_PASS_MINUTES (default 60) is killed, naming the groups that were still running.
// The run ends with each file's time and each group's wall time, slowest first (scripts/test-file-times.mjs),
// and the run's wall and CPU time, so the log shows where the time goes.
// Usage: node scripts/test.mjs   (exits non-zero when a test fails, a group or the run is killed)

import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const CONCURRENCY = 4;
// generous: on a quiet 2-core machine the slowest test takes about 35 s and the slowest group about 60 s, and
// a machine loaded by other work makes them several times slower
const TEST_TIMEOUT_MS = 10 * 60_000;
const GROUP_LIMIT_S = Number(process.env.ATHENE_TEST_FILE_MINUTES ?? 15) * 60;
const RUN_LIMIT_MS = Number(process.env.ATHENE_TEST_PASS_MINUTES ?? 60) * 60_000;
const WATCH_MS = 10_000;
const GROUPS_DIR = 'dist/test-groups';
// a group's size in weights: a file that starts servers through test/server/support weighs SERVER_WEIGHT, others 1
const GROUP_WEIGHT = 12;
const SERVER_WEIGHT = 3;

function testFiles(dir) {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.js'))
    .map((e) => path.relative(root, path.join(e.parentPath ?? e.path, e.name)));
}

const SERVER_SUPPORT = path.join(root, 'dist/test/server/support.js');

/** Whether a helper module imports test/server/support, by path: each helper is read once, however many files import it. */
const helperStartsServers = new Map();

/** Whether the module at `file` starts servers through test/server/support: it imports it, or a module that does. */
function startsServers(file, source, depth = 0) {
  for (const [, spec] of source.matchAll(/^import [^;]*?from '(\.\.?\/[^']+)';/gms)) {
    const imported = path.resolve(path.dirname(file), spec);
    if (imported === SERVER_SUPPORT) return true;
    if (depth > 0) continue;
    if (!helperStartsServers.has(imported)) {
      helperStartsServers.set(imported, startsServers(imported, readFileSync(imported, 'utf8'), 1));
    }
    if (helperStartsServers.get(imported)) return true;
  }
  return false;
}

/** A file's place in the schedule: files that run alone first, then groups of server files, then the rest. */
function weighed(file) {
  const source = readFileSync(path.join(root, file), 'utf8');
  if (/^\/\/ test-process: own\b/m.test(source)) return { file, weight: Infinity };
  return { file, weight: startsServers(path.join(root, file), source) ? SERVER_WEIGHT : 1 };
}

/** Orders by weight, heaviest first, keeping the order of equals (Infinity - Infinity is NaN). */
const heaviestFirst = (a, b) => b.weight - a.weight || 0;

/**
 * The runs' files as groups, each written as a test file of `GROUPS_DIR` that imports its members (after a
 * module setting the run's environment, if it has one); numbered so that node:test, which starts files in
 * name order, starts the heaviest first.
 */
function writeGroups(runs) {
  const groups = [];
  mkdirSync(path.join(root, GROUPS_DIR), { recursive: true });
  for (const run of runs) {
    // imported first by the run's groups, so the environment is set before the test files' modules are evaluated
    if (run.env !== undefined) {
      const preamble = `Object.assign(process.env, ${JSON.stringify(run.env)});\n`;
      writeFileSync(path.join(root, GROUPS_DIR, `${run.name}.js`), preamble);
    }
    let open = null;
    for (const { file, weight } of run.files.map(weighed).sort(heaviestFirst)) {
      if (open === null || open.weight + weight > GROUP_WEIGHT) groups.push((open = { run, files: [], weight: 0 }));
      open.files.push(file);
      open.weight += weight;
    }
  }
  groups.sort(heaviestFirst);
  return groups.map(({ run, files }, i) => {
    const lines = ['// written by scripts/test.mjs', "import { describe } from 'node:test';"];
    if (run.env !== undefined) lines.push(`import './${run.name}.js';`);
    // imported inside a suite named by the file, a file's tests and top-level hooks are that suite's: its
    // before/after hooks run around its own tests, as they would in a process of its own
    const label = run.env === undefined ? '' : `${run.name}: `;
    for (const f of files) lines.push(`describe('${label}${f}', () => import('${path.relative(GROUPS_DIR, f)}'));`);
    const name = `${String(i).padStart(2, '0')}-${run.name}-${path.basename(files[0], '.test.js')}.test.js`;
    writeFileSync(path.join(root, GROUPS_DIR, name), lines.join('\n') + '\n');
    return path.join(GROUPS_DIR, name);
  });
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

/** The group files the runner `pid` is running, each in a child process named by its path, with its age. */
function runningGroups(table, pid) {
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

/** Kills the runner's group processes older than the bound; the runner reports each as failed. */
function killHungGroups(pid) {
  const table = processTable();
  for (const { pid: groupPid, seconds, file } of runningGroups(table, pid)) {
    if (seconds <= GROUP_LIMIT_S) continue;
    process.stderr.write(`\n${file}: still running after ${GROUP_LIMIT_S / 60} min, killed\n`);
    killTree(table, groupPid);
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

function runAll(name, runs) {
  const files = runs.reduce((n, run) => n + run.files.length, 0);
  const groups = writeGroups(runs);
  const reporters = ['spec', './scripts/test-file-times.mjs'].flatMap((r) => [
    `--test-reporter=${r}`,
    '--test-reporter-destination=stdout',
  ]);
  const limits = [`--test-concurrency=${CONCURRENCY}`, `--test-timeout=${TEST_TIMEOUT_MS}`];
  const args = ['--test', ...limits, ...reporters, ...groups];
  const started = { wall: Date.now(), cpu: childrenCpuSeconds() };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
    current = child;
    const watch = setInterval(() => killHungGroups(child.pid), WATCH_MS);
    const limit = setTimeout(() => {
      const table = processTable();
      process.stderr.write(`\n${name}: still running after ${RUN_LIMIT_MS / 60_000} min, killed; running groups:\n`);
      for (const { file } of runningGroups(table, child.pid)) process.stderr.write(`  ${file}\n`);
      killTree(table, child.pid);
    }, RUN_LIMIT_MS);
    child.once('exit', (code) => {
      clearInterval(watch);
      clearTimeout(limit);
      current = null;
      const wall = (Date.now() - started.wall) / 1000;
      const cpu = childrenCpuSeconds() - started.cpu;
      const took = `${wall.toFixed(0)} s wall, ${cpu.toFixed(0)} s CPU`;
      process.stdout.write(`\n${name}: ${files} files in ${groups.length} processes, ${took}\n\n`);
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

rmSync(path.join(root, GROUPS_DIR), { recursive: true, force: true });
process.exitCode = await runAll('npm test', [
  { name: 'default', files: testFiles('dist/test') },
  // spawned `athene` processes inherit the variable too
  { name: 'node-http', files: testFiles('dist/test/server'), env: { ATHENE_HTTP_SERVER: 'node' } },
]);
