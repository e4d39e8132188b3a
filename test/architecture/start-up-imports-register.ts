// Preloaded (--import) in the process start-up-imports.test starts, and so in each of its threads (they inherit
// the flag): records the thread's loaded modules in `$ATHENE_TEST_IMPORTS_DIR/thread-<id>.txt`, and the
// CommonJS modules it has required (which pass no module hook) in `cjs-<id>.txt`.

import { renameSync, writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import path from 'node:path';
import { threadId } from 'node:worker_threads';

const dir = process.env.ATHENE_TEST_IMPORTS_DIR;
if (dir === undefined) throw new Error('ATHENE_TEST_IMPORTS_DIR is not set');
register('./start-up-imports-hooks.js', import.meta.url, { data: { out: path.join(dir, `thread-${threadId}.txt`) } });

// the thread's require cache holds every CommonJS module it has loaded: rewritten whole every 50 ms, the time
// of the snapshot on its first line, so the test can wait for one taken after the server was ready
const cache = createRequire(import.meta.url).cache;
const cjs = path.join(dir, `cjs-${threadId}.txt`);
setInterval(() => {
  writeFileSync(cjs + '.tmp', [String(Date.now()), ...Object.keys(cache)].join('\n'));
  renameSync(cjs + '.tmp', cjs);
}, 50).unref();
