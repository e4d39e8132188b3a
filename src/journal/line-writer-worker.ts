// The journal's writer thread (line-writer.ts): per request, encodes and checksums the lines, writes them at
// their place and fsyncs the file. Requests come in order; a batch is written before the next one is read,
// while its fsync may still run in the thread pool next to the next batch's (two at most, the store sees to it).

import { fdatasync, writeSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { encodeLines } from './lines.js';
import type { LineReply, LineRequest } from './line-writer.js';

const port = parentPort;
if (port === null) throw new Error('line-writer-worker runs as a worker thread');

function fail(id: number, err: NodeJS.ErrnoException): void {
  const reply: LineReply = [id, err.message, err.code];
  port!.postMessage(reply);
}

port.on('message', (request: LineRequest) => {
  const id = request[0] as number;
  const fd = request[1] as number;
  const at = request[2] as number;
  try {
    const bytes = encodeLines(request.slice(3) as string[]);
    for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done, at + done);
  } catch (err) {
    return fail(id, err as NodeJS.ErrnoException);
  }
  fdatasync(fd, (err) => {
    if (err !== null) return fail(id, err);
    const reply: LineReply = [id];
    port.postMessage(reply);
  });
});
