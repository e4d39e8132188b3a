// `npm test` after the build: every compiled test file (dist/test/**/*.test.js; the helper modules beside them
// are not tests) on the default transport, then dist/test/server again on node:http. Files are independent
// (own temporary directories, ephemeral ports), so they run CONCURRENCY at a time; most of their time is spent
// waiting on child processes, sockets and timers rather than on a core.
// Usage: node scripts/test.mjs   (exits non-zero when a test fails)

import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const CONCURRENCY = 3;

function testFiles(dir) {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.js'))
    .map((e) => path.relative(root, path.join(e.parentPath ?? e.path, e.name)));
}

function pass(files, env) {
  const args = ['--test', `--test-concurrency=${CONCURRENCY}`, '--test-reporter=spec', ...files];
  return new Promise((resolve) => {
    spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).once('exit', (code) =>
      resolve(code ?? 1),
    );
  });
}

const code = (await pass(testFiles('dist/test'), {})) || (await pass(testFiles('dist/test/server'), { ATHENE_HTTP_SERVER: 'node' }));
process.exitCode = code;
