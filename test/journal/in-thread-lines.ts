// A journal line writer on the calling thread, for tests that hold back fsyncs (they replace fs.fdatasync,
// which the writer thread would not see): the same encoding, write and fsync as the writer thread's.

import fs from 'node:fs';
import { encodeLines } from '../../src/journal/lines.js';
import type { LineWriter } from '../../src/journal/line-writer.js';

export function inThreadLines(): LineWriter {
  return {
    write(fd, at, jsons) {
      const bytes = encodeLines(jsons);
      for (let done = 0; done < bytes.length;) done += fs.writeSync(fd, bytes, done, bytes.length - done, at + done);
      return new Promise((resolve, reject) => fs.fdatasync(fd, (err) => (err === null ? resolve() : reject(err))));
    },
    close: () => Promise.resolve(),
  };
}
