// Bundles the window thread (run after `tsc -b`): every window thread would otherwise load ~460 ES modules one
// by one (the MCP SDK and zod alone are ~150), and that loading is about half of a window's start-up CPU.
// Input: its entry, dist/src/tools/window-thread.js (the window actor serving the tool layer).
// Output: dist/src/actors/window-bundle/, the entry window-thread.js plus chunks for what the window imports
// dynamically (code splitting keeps those lazy), and stamp.json, which names the build of dist/ the bundle was
// made from; src/actors/window-entry.ts runs the unbundled entry when it does not match (a stale bundle).
// Kept external, so they stay lazy (a bundled chunk's static imports are hoisted to the chunk's top, and
// start-up must not load them) and exist once per thread: the heavy libraries the window loads on first use,
// and native/wasm packages. Each of our modules keeps its own `import.meta.url` (worker files, package.json,
// web assets and code digests are found from it), rewritten relative to the bundle.
// Usage: node scripts/bundle.mjs   (does nothing when the stamp already matches dist/.tsbuildinfo)

import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const entry = path.join(dist, 'src/tools/window-thread.js');
const outdir = path.join(dist, 'src/actors/window-bundle');
const stampFile = path.join(outdir, 'stamp.json');
const buildInfo = path.join(dist, '.tsbuildinfo');

/** Loaded by Node at run time, never inlined: see the header. */
const LAZY_OR_NATIVE = [
  'jsonld',
  'rdfxml-streaming-parser',
  'oxigraph',
  'shacl-engine',
  'rdf-canonize',
  'yaml',
  'saxes',
  'piscina',
  'uWebSockets.js',
];

/**
 * LAZY_OR_NATIVE and every package they depend on: a package an external one requires must not be inlined
 * too, or the thread would hold two copies of it once the external one loads.
 */
function withDependencies(names) {
  const all = new Set();
  const visit = (name) => {
    if (all.has(name)) return;
    all.add(name);
    const manifest = path.join(root, 'node_modules', name, 'package.json');
    if (!existsSync(manifest)) return;
    for (const dependency of Object.keys(JSON.parse(readFileSync(manifest, 'utf8')).dependencies ?? {})) visit(dependency);
  };
  names.forEach(visit);
  return [...all];
}

const built = statSync(buildInfo).mtimeMs;
const stamp = existsSync(stampFile) ? JSON.parse(readFileSync(stampFile, 'utf8')) : null;
if (stamp?.tsbuildinfo === built && existsSync(path.join(outdir, 'window-thread.js'))) process.exit(0);

/** Our compiled modules, each with `import.meta.url` meaning its own file again. */
const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(dist + path.sep)) return undefined;
      const contents = await readFile(args.path, 'utf8');
      if (!contents.includes('import.meta.url')) return undefined;
      const relative = path.relative(outdir, args.path).split(path.sep).join('/');
      const own = `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
      return { contents: contents.replaceAll('import.meta.url', own), loader: 'js' };
    });
  },
};

// imported only when there is work: an up-to-date build stays instant
const esbuild = await import('esbuild');
const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: [entry],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // the maps point at src/*.ts (through tsc's maps) without copying it
  sourcesContent: false,
  metafile: true,
  external: withDependencies(LAZY_OR_NATIVE).flatMap((p) => [p, `${p}/*`]),
  plugins: [ownImportMetaUrl],
  // bundled CommonJS packages `require` Node's built-ins
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  logLevel: 'warning',
});

// Chunks an earlier build made stay a day: a server started before this build may still import them lazily.
const written = new Set(Object.keys(result.metafile.outputs).map((f) => path.resolve(root, f)));
for (const name of readdirSync(outdir)) {
  const file = path.join(outdir, name);
  if (!written.has(file) && name !== 'stamp.json' && Date.now() - statSync(file).mtimeMs > 86_400_000) rmSync(file);
}
// the stamp also names this build's files (the test of what the bundle inlines reads their source maps)
const files = [...written].map((f) => path.relative(outdir, f)).sort();
writeFileSync(stampFile, JSON.stringify({ tsbuildinfo: built, files }, null, 1) + '\n');
