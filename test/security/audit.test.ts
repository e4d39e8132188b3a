// Issue 13 §4 against the real server: a call whose argument nests thousands of levels deep (let through by
// a raised max_json_depth, so it reaches the audit writer) neither throws while its arguments are sized nor
// takes other clients' events down with it; nothing is lost and /health says so.

import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { mergeStreams } from '../../src/audit/merge.js';
import { policyProjectHash, projectStreamsDir } from '../../src/audit/project.js';
import type { AuditEvent } from '../../src/audit/event.js';
import { MCP_HEADERS, call, connect, raw, startTestServer } from '../server/support.js';
import { openSession } from '../server/raw-session.js';

const IRI = 'http://example.org/zoo';
const TTL = `@prefix owl: <http://www.w3.org/2002/07/owl#> .\n<${IRI}> a owl:Ontology .\n<${IRI}#Cat> a owl:Class .\n`;

test('a deeply nested argument is audited without losing any other event', async () => {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'athene-audit-deep-'));
  const policyFile = path.join(scratch, '.athene', 'project.yaml');
  await mkdir(path.dirname(policyFile), { recursive: true });
  await writeFile(path.join(scratch, 'zoo.ttl'), TTL);
  await writeFile(policyFile, `version: 1\nproject_id: zoo\nroot_ontology: ${IRI}\nroot_artifact: zoo.ttl\n`);
  const t = await startTestServer([path.join(scratch, 'zoo.ttl')], { max_json_depth: '10000' });
  try {
    const others = await Promise.all([connect(t), connect(t)]);
    // raw HTTP: the SDK client itself cannot serialize an argument this deep
    const sid = await openSession(t, t.token);
    const deep = '['.repeat(9_000) + ']'.repeat(9_000);
    const body = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_entity","arguments":{"entity":"Cat","deep":${deep}}}}`;
    const [attack, ...results] = await Promise.all([
      raw(t, { method: 'POST', headers: { ...MCP_HEADERS, authorization: `Bearer ${t.token}`, 'mcp-session-id': sid }, body }).then(
        async (r) => ({ status: r.status, text: await r.text() }),
      ),
      call(others[0], 'add_axiom', { axiom_type: 'subclass_of', sub: 'Cat', super: 'Animal' }),
      call(others[1], 'add_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' }),
    ]);
    assert.equal(attack.status, 200);
    assert.match(attack.text, /invalid_argument/);
    assert.equal(results[0].isError, false, JSON.stringify(results[0].body));
    assert.equal(results[1].isError, false, JSON.stringify(results[1].body));
    const streams = projectStreamsDir(t.home, await policyProjectHash(policyFile));
    let events: AuditEvent[] = [];
    for (let i = 0; i < 200 && events.length < 3; i++) {
      events = [...(await mergeStreams(streams).catch(() => ({ events: [] }))).events];
      if (events.length < 3) await new Promise((r) => setTimeout(r, 25));
    }
    assert.deepEqual(events.map((e) => e.operation).sort(), ['add_axiom', 'add_axiom', 'get_entity']);
    const health = (await (await fetch(new URL('/health', t.server.url), { headers: { authorization: `Bearer ${t.token}` } })).json()) as {
      audit_events_lost: number;
    };
    assert.equal(health.audit_events_lost, 0);
    for (const c of others) await c.close();
  } finally {
    await t.stop();
    await rm(scratch, { recursive: true, force: true });
  }
});
