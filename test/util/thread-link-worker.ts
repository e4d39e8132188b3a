// The thread behind thread-link.test.ts: an API whose calls answer, throw, hold, or take a transferred buffer.

import { isMainThread } from 'node:worker_threads';
import { crossesThreads, exposeToParent } from '../../src/util/thread-link.js';
import { KindedError, type FixtureApi } from './thread-link-fixture.js';

crossesThreads(KindedError);

class UnregisteredError extends Error {
  readonly detail = 42;
}

const api: FixtureApi = {
  async add(a, b) {
    return a + b;
  },
  async fail(how) {
    if (how === 'kinded') throw new KindedError('the shapes do not parse', 'shapes');
    if (how === 'unregistered') throw new UnregisteredError('nobody registered me');
    throw 'a bare string';
  },
  hold() {
    return new Promise(() => undefined);
  },
  async byteLength(buffer) {
    return buffer.byteLength;
  },
};

// node --test loads every file under test/; there, off a thread, this module serves nothing.
if (!isMainThread) exposeToParent(api);
