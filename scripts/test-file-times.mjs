// A node:test reporter that prints, once a pass ends, each test file's wall time (its process, start to end),
// slowest first, so a slow file is named in every CI log. `scripts/test.mjs` runs it beside the spec reporter.

import path from 'node:path';

/** The file-level test node:test wraps each file's process in: named by the file itself. */
function fileResult(data) {
  return data.nesting === 0 && typeof data.file === 'string' && data.name === data.file;
}

export default async function* fileTimes(source) {
  const times = new Map();
  for await (const { type, data } of source) {
    if (type === 'test:complete' && fileResult(data)) times.set(data.file, data.details.duration_ms / 1000);
  }
  if (times.size === 0) return;
  yield `\nfile wall times (s), slowest first:\n`;
  for (const [file, seconds] of [...times].sort((a, b) => b[1] - a[1])) {
    yield `${seconds.toFixed(1).padStart(7)}  ${path.relative(process.cwd(), file)}\n`;
  }
}
