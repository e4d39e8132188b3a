// This package's root folder and version, found from the running module (source or dist/).

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding package.json, found by walking up from this module. */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find the package root');
    dir = up;
  }
  return dir;
}

/** This package's version, from its package.json. */
export async function packageVersion(): Promise<string> {
  return (JSON.parse(await readFile(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
