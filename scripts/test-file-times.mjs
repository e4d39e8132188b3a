// A node:test reporter that prints, once the run ends, each test file's wall time and each test process's wall
// time (a group of files, see scripts/test.mjs), slowest first, so a slow file is named in every CI log.
// `scripts/test.mjs` runs it beside the spec reporter.

import path from 'node:path';

function table(title, times) {
  const rows = [...times].sort((a, b) => b[1] - a[1]);
  const lines = rows.map(([file, s]) => `${s.toFixed(1).padStart(7)}  ${path.relative(process.cwd(), file)}\n`);
  return `\n${title}, slowest first:\n${lines.join('')}`;
}

export default async function* fileTimes(source) {
  const files = new Map();
  const processes = new Map();
  for await (const { type, data } of source) {
    if (type !== 'test:complete' || data.nesting !== 0) continue;
    const seconds = data.details.duration_ms / 1000;
    // node:test wraps each process's results in a test named by the file it ran; in it, each test file's
    // tests are a suite named by that file
    if (data.name === data.file) processes.set(data.file, seconds);
    else if (data.name.endsWith('.test.js')) files.set(data.name, seconds);
  }
  if (files.size > 0) yield table('file wall times (s)', files);
  if (processes.size > 0) yield table('process wall times (s)', processes);
}
