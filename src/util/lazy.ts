// Loading a module on first use: start-up (every window thread, every CLI command) skips code that most
// runs never need, and the first caller pays the import once.

import { createRequire } from 'node:module';

/** A loader that imports once; every later call gets the same module (or the same failure). */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}

const require = createRequire(import.meta.url);

/**
 * A CommonJS package required on first use: its callers stay synchronous, and a thread that never calls
 * them never loads it. `T` is the package's type (`typeof` its type-only import).
 */
export function lazyRequire<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(specifier) as T);
}
