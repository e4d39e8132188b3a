// Layers point one way (ARCHITECTURE.md, the developers' guide): the OWL model and the domain folders never
// import the tool layer, the HTTP front door or the actors; the model imports only itself and src/util; the
// neutral src/util imports only itself. Reads every import of every src/**/*.ts file, type imports included.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The folders above the domain: tool declarations, transports, threads and processes, the CLI, the browser app. */
const COMPOSITION = new Set(['tools', 'http', 'actors', 'broker', 'cli', 'web']);
/** What no domain folder may import. */
const ABOVE_DOMAIN = ['tools', 'http', 'actors'];

function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
}

interface Import {
  /** The importing file, relative to src/. */
  readonly file: string;
  readonly specifier: string;
  /** The imported file's folder directly under src/; null for a package or a file outside src/. */
  readonly folder: string | null;
}

/** The top folder under src/ of a path relative to src/ ('' for a file directly in src/). */
const topFolder = (relative: string): string => (relative.includes('/') ? relative.slice(0, relative.indexOf('/')) : '');

function imports(src: string): Import[] {
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.split(path.sep).join('/'));
  return files.flatMap((file) =>
    ts.preProcessFile(readFileSync(path.join(src, file), 'utf8'), true, true).importedFiles.map(({ fileName }) => {
      if (!fileName.startsWith('.')) return { file, specifier: fileName, folder: null };
      const target = path
        .relative(src, path.resolve(path.dirname(path.join(src, file)), fileName))
        .split(path.sep)
        .join('/');
      return { file, specifier: fileName, folder: target.startsWith('..') ? null : topFolder(target) };
    }),
  );
}

const all = imports(path.join(repoRoot(), 'src'));
const show = (bad: readonly Import[]): string => bad.map((i) => `src/${i.file} → ${i.specifier}`).join('\n');

test('the scan sees the model, the domain and the tool layer', () => {
  const folders = new Set(all.map((i) => topFolder(i.file)));
  for (const f of ['model', 'util', 'policy', 'qc', 'tools', 'actors']) assert.ok(folders.has(f), `no imports read in src/${f}`);
  assert.ok(all.filter((i) => i.folder === 'tools').length > 100, 'the tool layer imports its own files');
});

test('no domain folder imports src/tools, src/http or src/actors', () => {
  const bad = all.filter((i) => !COMPOSITION.has(topFolder(i.file)) && i.folder !== null && ABOVE_DOMAIN.includes(i.folder));
  assert.equal(bad.length, 0, `domain files import the layers above them:\n${show(bad)}`);
});

test('src/model imports only src/model and src/util', () => {
  const bad = all.filter((i) => topFolder(i.file) === 'model' && i.folder !== null && i.folder !== 'model' && i.folder !== 'util');
  assert.equal(bad.length, 0, `the model imports other folders:\n${show(bad)}`);
});

test('src/util imports only src/util', () => {
  const bad = all.filter((i) => topFolder(i.file) === 'util' && i.folder !== null && i.folder !== 'util');
  assert.equal(bad.length, 0, `the neutral util folder imports other folders:\n${show(bad)}`);
});

test('no file outside src/tools imports it', () => {
  // the window actor reaches the tool layer through the ToolHost it is handed (src/window/tool-host.ts), and
  // shared types through their homes (src/window, src/util)
  const bad = all.filter((i) => i.folder === 'tools' && topFolder(i.file) !== 'tools');
  assert.equal(bad.length, 0, `files outside the tool layer import it:\n${show(bad)}`);
});
