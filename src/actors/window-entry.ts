// Which file a window's Worker runs: the tool layer's window-thread entry (src/tools/window-thread.ts), which
// hands the tool layer to the window actor. `npm run build` bundles it (scripts/bundle.mjs): one file
// per chunk instead of ~460 modules makes each window start cheaper. The bundle runs only when it was made
// from the current build of dist/ (its stamp holds dist/.tsbuildinfo's mtime); after a bare `tsc -b` the
// window runs the compiled entry instead, and says so once, so a stale bundle never runs and development
// without the bundle step still works.

import { readFileSync, statSync } from 'node:fs';
import { log } from '../util/log.js';

export interface WindowEntry {
  readonly url: URL;
  /** Why the compiled entry runs instead of the bundle; null when the bundle runs. */
  readonly unbundled: 'no bundle' | 'stale bundle' | null;
}

/** The entry for the compiled actors folder `actors` (dist/src/actors/, ending in '/'). */
export function windowEntry(actors: URL): WindowEntry {
  const compiled = new URL('../tools/window-thread.js', actors);
  let stamp: { tsbuildinfo?: unknown };
  try {
    stamp = JSON.parse(readFileSync(new URL('window-bundle/stamp.json', actors), 'utf8')) as { tsbuildinfo?: unknown };
  } catch {
    return { url: compiled, unbundled: 'no bundle' };
  }
  let built: number;
  try {
    built = statSync(new URL('../../.tsbuildinfo', actors)).mtimeMs;
  } catch {
    return { url: compiled, unbundled: 'stale bundle' };
  }
  if (stamp.tsbuildinfo !== built) return { url: compiled, unbundled: 'stale bundle' };
  return { url: new URL('window-bundle/window-thread.js', actors), unbundled: null };
}

let said = false;

/** This build's window entry, checked at each start (a rebuild may happen while the server runs). */
export function currentWindowEntry(): URL {
  const entry = windowEntry(new URL('./', import.meta.url));
  if (entry.unbundled === 'stale bundle' && !said) {
    said = true;
    log.warn(
      { entry: entry.url.pathname },
      'the window bundle is older than the compiled sources: windows run unbundled until `npm run build`',
    );
  }
  return entry.url;
}
