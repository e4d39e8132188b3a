// The change journal across a window's death: its worker killed, the window restarts with the unsaved
// journaled changes replayed (the history tools themselves: test/tools-mcp/change-history-tools.test.ts).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Worker } from 'node:worker_threads';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callOk, connect, fixture, serveTempOntology, type Row } from './support.js';
import type { WindowHandle } from '../../src/actors/window.js';

const sub = (name: string) => ({ axiom_type: 'subclass_of', sub: name, super: 'Animal' });

async function fingerprint(c: Client): Promise<string> {
  const r = await callOk(c, 'get_model_revision');
  return String(((r.revision ?? r) as Row).document_fingerprint);
}

test('a window whose worker dies restarts with its unsaved journaled changes replayed', async () => {
  const s = await serveTempOntology('athene-history-', 'zoo.ttl', await readFile(fixture('zoo.ttl'), 'utf8'));
  try {
    for (const name of ['Owl', 'Hawk', 'Crow']) await callOk(s.c, 'add_axiom', sub(name));
    const before = await fingerprint(s.c);
    const [window] = s.t.server.registry.local as WindowHandle[];
    // the test's one reach into the handle: the worker a crash would take down
    await (window as unknown as { worker: Worker }).worker.terminate();
    const deadline = Date.now() + 120_000;
    let recovered = 0;
    while (Date.now() < deadline) {
      const health = (await (
        await fetch(new URL('/health', s.t.server.url), { headers: { authorization: `Bearer ${s.t.token}` } })
      ).json()) as Row;
      recovered = (health.journal as Row).recovered as number;
      if (recovered > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(recovered, 3);
    const c = await connect(s.t);
    assert.equal(await fingerprint(c), before);
    await callOk(c, 'undo_change');
    assert.equal((await callOk(c, 'get_change_history', { tool: 'undo_change' })).total_matched, 1);
    await c.close();
  } finally {
    await s.close();
  }
});
