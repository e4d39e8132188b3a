// Starting and stopping a whole server: private directory, settings, token, one window per document
// (or the bundled demo ontology), and the front door.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultHome, ensureHome, loadSettings, type RawSettings, type Settings } from '../settings/settings.js';
import { StaticTokenVerifier, tokenPath } from '../auth/static-token.js';
import { WindowRegistry } from '../actors/registry.js';
import { FrontDoor } from './front-door.js';

export interface ServerOptions {
  /** Private directory; default `$ATHENE_HOME` or `~/.athene`. */
  home?: string;
  /** One window per document; none opens the demo ontology. */
  files?: readonly string[];
  /** Command-line settings (highest precedence). */
  flags?: RawSettings;
  env?: NodeJS.ProcessEnv;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly fellBack: boolean;
  readonly home: string;
  readonly tokenFile: string;
  readonly settings: Settings;
  readonly registry: WindowRegistry;
  /** Opens another window; it becomes the target of new sessions. */
  openWindow(files: readonly string[]): Promise<void>;
  /** Stops accepting, drains in-flight calls (bounded), stops the windows. */
  close(graceMs?: number): Promise<void>;
}

/** The folder holding package.json, found by walking up from this module. */
function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find the package root');
    dir = up;
  }
  return dir;
}

export function demoOntologyPath(): string {
  return path.join(packageRoot(), 'examples', 'demo.ttl');
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const home = options.home ?? defaultHome(env);
  await ensureHome(home);
  const settings = await loadSettings(home, options.flags, env);
  const verifier = await StaticTokenVerifier.open(home);
  const registry = new WindowRegistry(settings);
  const files = options.files !== undefined && options.files.length > 0 ? options.files.map((f) => path.resolve(f)) : [demoOntologyPath()];
  try {
    for (const file of files) await registry.open([file]);
  } catch (err) {
    await registry.stopAll();
    throw err;
  }
  const door = new FrontDoor(settings, registry, verifier);
  let listening;
  try {
    listening = await door.listen();
  } catch (err) {
    await registry.stopAll();
    throw err;
  }
  verifier.watch();
  return {
    ...listening,
    home,
    tokenFile: tokenPath(home),
    settings,
    registry,
    openWindow: async (more) => {
      await registry.open(more.map((f) => path.resolve(f)));
    },
    close: async (graceMs = 5000) => {
      verifier.stop();
      await door.close(graceMs);
      await registry.stopAll();
    },
  };
}
