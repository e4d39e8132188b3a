// Removes compiled test and bench files whose TypeScript source is gone, so `node --test dist/test/` never
// runs a deleted test. dist/src is left alone: a server may be running from it.

import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

function prune(dir) {
  if (!existsSync(path.join(root, 'dist', dir))) return;
  for (const entry of readdirSync(path.join(root, 'dist', dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) prune(rel);
    else if (/\.js(\.map)?$/.test(entry.name) && !existsSync(path.join(root, rel.replace(/\.js(\.map)?$/, '.ts')))) {
      rmSync(path.join(root, 'dist', rel));
    }
  }
}

for (const dir of ['test', 'test-corpus', 'test-browser', 'bench']) prune(dir);
