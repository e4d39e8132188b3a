// Loading a module on first use: start-up (every window thread, every CLI command) skips code that most
// runs never need, and the first caller pays the import once.

/** A loader that imports once; every later call gets the same module (or the same failure). */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}
