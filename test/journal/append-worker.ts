// A second writer of one document's journal, on its own thread: appends numbered-by-the-store entries in
// concurrent groups and reports the seqs it was given (used by recorder.test.ts).

import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { FileChangeStore } from '../../src/journal/file-store.js';
import type { ChangeEntry } from '../../src/journal/records.js';

// node --test loads every file under test/; there, off a thread, this module does nothing.
if (parentPort !== null) await run(parentPort, workerData as { home: string; document: string; name: string; count: number });

async function run(
  port: MessagePort,
  { home, document, name, count }: { home: string; document: string; name: string; count: number },
): Promise<void> {
  const entry = (i: number): ChangeEntry => ({
    type: 'change',
    seq: 0,
    time: new Date().toISOString(),
    document,
    batch: `${name}-${i}`,
    principal: null,
    client: null,
    session_id: null,
    tool: 'add_axiom',
    cause: 'apply',
    changes: [{ op: 'add_axiom', axiom: `Declaration(Class(<http://example.org/${name}${i}>))` }],
    entities: [`http://example.org/${name}${i}`],
    revision_before: i,
    revision_after: i + 1,
    fingerprint_before: `${name}${i - 1}`,
    fingerprint_after: `${name}${i}`,
  });
  const store = new FileChangeStore(home, { maxAgeDays: 90, maxBytes: 1 << 30 });
  const seqs: number[] = [];
  for (let i = 0; i < count; i += 5) {
    await Promise.all(
      Array.from({ length: Math.min(5, count - i) }, (_, k) => store.append(document, [entry(i + k)], (e) => seqs.push(e.seq))),
    );
  }
  await store.close();
  port.postMessage(seqs);
}
