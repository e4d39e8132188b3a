// MCP request cancellation through the real server: an SDK client call made with an AbortSignal and
// cancelled (the SDK sends notifications/cancelled) reaches the running handler through ToolContext.signal.
// A held write is withdrawn from the approval queue and never commits; a load cancelled while its document
// is parsing attaches nothing, and the window keeps serving.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  startTestServer,
  fixture,
  connect,
  call,
  callOk,
  pendingWrites,
  decideWrite,
  eventually,
  raw,
  INIT_BODY,
  MCP_HEADERS,
} from './support.js';

/** A Turtle document of `n` labelled classes in a chain, large enough that parsing it takes a while. */
function largeTurtle(n: number): string {
  const lines = [
    '@prefix : <http://example.org/big#> .',
    '@prefix owl: <http://www.w3.org/2002/07/owl#> .',
    '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
    '<http://example.org/big> a owl:Ontology .',
  ];
  for (let i = 0; i < n; i++) {
    lines.push(
      `:C${i} a owl:Class ; rdfs:label "class number ${i}" ; rdfs:comment "generated class ${i} of ${n}"${i > 0 ? ` ; rdfs:subClassOf :C${i - 1}` : ''} .`,
    );
  }
  return lines.join('\n') + '\n';
}

test('a held write whose call is cancelled is withdrawn from the queue and never commits', async () => {
  const t = await startTestServer([fixture('zoo.ttl')], { confirm_each_write: true });
  const c = await connect(t);
  try {
    const controller = new AbortController();
    const held = c.callTool({ name: 'add_axiom', arguments: { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' } }, undefined, {
      signal: controller.signal,
    });
    let entry;
    await eventually('the write is held', async () => {
      [entry] = await pendingWrites(t);
      return entry !== undefined;
    });
    assert.equal(entry!.tool, 'add_axiom');
    controller.abort('the user changed their mind');
    await assert.rejects(held);
    await eventually('the cancelled write leaves the queue', async () => (await pendingWrites(t)).length === 0);
    assert.equal((await decideWrite(t, entry!.approval_id, 'approve')).status, 404, 'nothing is left to approve');
    assert.deepEqual(await pendingWrites(t), []);
    assert.equal((await call(c, 'get_entity', { entity: 'Dog' })).isError, true, 'nothing was committed');
    const peek = await callOk(c, 'undo_change', { peek: true });
    assert.equal(peek.undo_depth, 0);

    // the session still works: a write that is not cancelled is held, approved and applied
    const next = call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Cat', super: 'Animal' });
    let second;
    await eventually('the second write is held', async () => {
      [second] = await pendingWrites(t);
      return second !== undefined;
    });
    assert.equal((await decideWrite(t, second!.approval_id, 'approve')).status, 200);
    assert.equal((await next).body.applied, true);
  } finally {
    await c.close();
    await t.stop();
  }
});

test('a held write whose HTTP request goes away is cancelled the same way', async () => {
  const t = await startTestServer([fixture('zoo.ttl')], { confirm_each_write: true });
  const c = await connect(t);
  try {
    const auth = { authorization: `Bearer ${t.token}` };
    const init = await raw(t, { method: 'POST', headers: { ...MCP_HEADERS, ...auth }, body: INIT_BODY });
    const session = {
      ...MCP_HEADERS,
      ...auth,
      'mcp-session-id': init.headers.get('mcp-session-id')!,
      'mcp-protocol-version': '2025-06-18',
    };
    await init.text();
    await (
      await raw(t, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })
    ).text();
    const controller = new AbortController();
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'add_axiom', arguments: { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' } },
    });
    const held = raw(t, { method: 'POST', headers: session, body, signal: controller.signal });
    let entry;
    await eventually('the write is held', async () => {
      [entry] = await pendingWrites(t);
      return entry !== undefined;
    });
    controller.abort();
    await assert.rejects(held);
    await eventually('the write whose request went away leaves the queue', async () => (await pendingWrites(t)).length === 0);
    assert.equal((await decideWrite(t, entry!.approval_id, 'approve')).status, 404);
    assert.equal((await call(c, 'get_entity', { entity: 'Dog' })).isError, true, 'nothing was committed');
  } finally {
    await c.close();
    await t.stop();
  }
});

test('a load cancelled while its document is parsing attaches nothing, and the server keeps serving', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-cancel-'));
  const big = path.join(dir, 'big.ttl');
  await writeFile(big, largeTurtle(60_000));
  const t = await startTestServer([fixture('zoo.ttl')]);
  const c = await connect(t);
  const other = await connect(t);
  try {
    const controller = new AbortController();
    const loading = c.callTool({ name: 'load_ontology', arguments: { source: big } }, undefined, {
      signal: controller.signal,
      timeout: 120_000,
    });
    // a few round trips on another session: the window answers while the load parses off its thread
    for (let i = 0; i < 3; i++) assert.equal((await callOk(other, 'list_ontologies')).count, 1);
    controller.abort('no longer needed');
    await assert.rejects(loading);

    // The same document loaded again without cancelling: were the first load still running or attached,
    // this one would find it loaded or its id in use.
    const again = await callOk(other, 'load_ontology', { source: big });
    assert.equal(again.already_loaded, false);
    assert.equal(again.added_ontologies, 1);
    const listed = await callOk(other, 'list_ontologies');
    assert.equal(listed.count, 2, 'the cancelled load attached nothing');
    assert.equal((await callOk(c, 'get_active_ontology')).ontology_iri, 'http://example.org/big');
  } finally {
    await c.close();
    await other.close();
    await t.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
