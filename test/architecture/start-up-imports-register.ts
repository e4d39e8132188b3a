// Preloaded (--import) in the process start-up-imports.test starts, and so in each of its threads (they inherit
// the flag): records the thread's loaded modules in `$ATHENE_TEST_IMPORTS_DIR/thread-<id>.txt`.

import { register } from 'node:module';
import path from 'node:path';
import { threadId } from 'node:worker_threads';

const dir = process.env.ATHENE_TEST_IMPORTS_DIR;
if (dir === undefined) throw new Error('ATHENE_TEST_IMPORTS_DIR is not set');
register('./start-up-imports-hooks.js', import.meta.url, { data: { out: path.join(dir, `thread-${threadId}.txt`) } });
