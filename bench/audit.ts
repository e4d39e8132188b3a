// bench/audit: what recording a tool call in the project audit stream costs, against a baseline measured in
// the same run: the same cheap tool (get_active_ontology) through the real gate without a private directory
// (nothing recorded) and with one (event queued; batched, fsynced appends). Also the synchronous cost of
// `record` alone and the end-to-end cost per event once it is on disk.
// Usage: npm run build && node dist/bench/audit.js [calls]

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { staticPrincipal } from '../src/auth/principal.js';
import { AuditRecorder, auditRecorder } from '../src/audit/stream.js';
import { Ontology } from '../src/model/ontology.js';
import { runInContext, toolContext } from '../test/support/tool-context.js';

const calls = Number(process.argv[2] ?? 50_000);

/** A server's calls arrive by I/O, so the event loop turns between them: yield every BURST calls likewise. */
const BURST = 64;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function timeCalls(ctx: ReturnType<typeof toolContext>, n: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    await runInContext('get_active_ontology', {}, ctx);
    if (i % BURST === BURST - 1) await turn();
  }
  return Number(process.hrtime.bigint() - start) / n;
}

async function main(): Promise<void> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-bench-audit-'));
  try {
    const plain = toolContext([new Ontology()]);
    const audited = toolContext([new Ontology()], undefined, { audit_home: home });
    await timeCalls(plain, 2_000);
    await timeCalls(audited, 2_000);
    await auditRecorder(home).flushed();
    const base = await timeCalls(plain, calls);
    const withAudit = await timeCalls(audited, calls);
    const drainStart = process.hrtime.bigint();
    await auditRecorder(home).flushed();
    const drainNs = Number(process.hrtime.bigint() - drainStart);

    const r = new AuditRecorder(path.join(home, 'direct'));
    const record = {
      workspaceId: 'w',
      windowId: 'w',
      principal: staticPrincipal(),
      operation: 'set_label',
      ontologyIri: 'http://example.org/o',
      document: null,
      rawArgs: { entity: 'Cat', value: 'a label' },
      declaredArguments: new Set(['entity', 'value']),
      outcome: { status: 'allowed' as const },
      gate: { mutating: true, confirmation: 'not_required' as const },
    };
    let recordNs = 0;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < calls; i += BURST) {
      const b0 = process.hrtime.bigint();
      for (let j = 0; j < BURST; j++) r.record(record);
      recordNs += Number(process.hrtime.bigint() - b0);
      // a synthetic loop outruns any disk: wait for the writes now and then so no event is dropped
      await (i % 1024 === 1024 - BURST ? r.flushed() : turn());
    }
    await r.flushed();
    const t2 = process.hrtime.bigint();

    const ns = (x: number) => `${Math.round(x).toLocaleString('en-US')} ns`;
    console.log(`calls: ${calls}`);
    console.log(`gate call, not audited (baseline): ${ns(base)} per call`);
    console.log(
      `gate call, audited:                ${ns(withAudit)} per call  (${(withAudit / base).toFixed(2)}x baseline, +${ns(withAudit - base)})`,
    );
    console.log(`  backlog still to write after the loop: ${ns(drainNs / calls)} per event`);
    console.log(`record() alone (caller's path):    ${ns(recordNs / calls)} per event`);
    console.log(`record() to fsynced on disk:       ${ns(Number(t2 - t0) / calls)} per event`);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

await main();
