// Indexed reads that fail the test, not the runtime: under noUncheckedIndexedAccess `xs[i]` may be undefined, and
// a test that reads past the end should report which element it expected rather than throw a TypeError later.

import assert from 'node:assert/strict';

/** The element at index `i` (negative counts from the end); an AssertionError naming `what` if there is none. */
export function at<T>(xs: ArrayLike<T>, i: number, what = 'element'): T {
  const v = xs[i < 0 ? xs.length + i : i];
  if (v === undefined) {
    throw new assert.AssertionError({
      message: `expected ${what} at index ${i}, length is ${xs.length}`,
      actual: xs.length,
      operator: 'at',
    });
  }
  return v;
}
