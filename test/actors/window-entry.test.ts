// Which file a window's Worker runs: the bundle only when it was made from the current build of dist/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { windowEntry } from '../../src/actors/window-entry.js';

/** A dist/ folder with a build info file and, when `stamp` is given, a bundle stamped with it. */
async function dist(stamp: 'current' | 'none'): Promise<{ dir: string; actors: URL }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-window-entry-'));
  await mkdir(path.join(dir, 'src/actors/window-bundle'), { recursive: true });
  await writeFile(path.join(dir, '.tsbuildinfo'), '{}');
  if (stamp === 'current') {
    const tsbuildinfo = statSync(path.join(dir, '.tsbuildinfo')).mtimeMs;
    await writeFile(path.join(dir, 'src/actors/window-bundle/stamp.json'), JSON.stringify({ tsbuildinfo, files: [] }));
  }
  return { dir, actors: pathToFileURL(path.join(dir, 'src/actors/')) };
}

test('the window runs the bundle made from the current build', async () => {
  const { dir, actors } = await dist('current');
  try {
    const entry = windowEntry(actors);
    assert.equal(entry.url.href, new URL('window-bundle/window-thread.js', actors).href);
    assert.equal(entry.unbundled, null);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('after a rebuild without the bundle step, the window runs the compiled entry, not the stale bundle', async () => {
  const { dir, actors } = await dist('current');
  try {
    const later = new Date(Date.now() + 60_000);
    await utimes(path.join(dir, '.tsbuildinfo'), later, later);
    const entry = windowEntry(actors);
    assert.equal(entry.url.href, new URL('../tools/window-thread.js', actors).href);
    assert.equal(entry.unbundled, 'stale bundle');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('without a bundle the window runs the compiled entry', async () => {
  const { dir, actors } = await dist('none');
  try {
    assert.deepEqual(windowEntry(actors), { url: new URL('../tools/window-thread.js', actors), unbundled: 'no bundle' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
