// The MCP protocol beyond tools, with the SDK client over real HTTP: progress, logging, resources with
// subscriptions, completions, instructions, and honest, affordable tool metadata.

import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LoggingMessageNotificationSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { TOOLS_BY_NAME, profileTools } from '../../src/tools/catalog.js';
import { never } from '../../src/tools/tool.js';
import { listTools } from '../../src/tools/listing.js';
import { call, callOk, connect, decideWrite, eventually, fixture, pendingWrites, raw, serveAndConnect, startTestServer } from './support.js';

/** A chain of `n` classes, each also with an existential on one property: enough work to classify for a while. */
function generatedOntology(n: number): string {
  const lines = ['@prefix : <http://example.org/gen#> .', '@prefix owl: <http://www.w3.org/2002/07/owl#> .', '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
    '<http://example.org/gen> a owl:Ontology .', ':r a owl:ObjectProperty .'];
  for (let i = 0; i < n; i++) {
    lines.push(`:C${i} a owl:Class .`);
    if (i > 0) lines.push(`:C${i} rdfs:subClassOf :C${i - 1} , [ a owl:Restriction ; owl:onProperty :r ; owl:someValuesFrom :C${Math.floor(i / 2)} ] .`);
  }
  return lines.join('\n') + '\n';
}

test('every listed tool has a title and annotations derived from its declared flags', async () => {
  const s = await serveAndConnect([fixture('zoo.ttl')]);
  try {
    const { tools } = await s.c.listTools();
    assert.equal(tools.length, TOOLS_BY_NAME.size);
    for (const tool of tools) {
      const def = TOOLS_BY_NAME.get(tool.name)!;
      const readOnly = def.mutating === never;
      assert.ok(tool.title !== undefined && tool.title.length > 0, tool.name);
      assert.equal(tool.annotations?.readOnlyHint, readOnly, tool.name);
      assert.equal(tool.annotations?.destructiveHint, readOnly ? undefined : def.destructive === true, tool.name);
      assert.equal(tool.annotations?.idempotentHint, readOnly ? undefined : def.idempotent === true, tool.name);
      assert.equal(tool.annotations?.openWorldHint, def.openWorld === true || def.capabilities.includes('network:access'), tool.name);
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    assert.equal(byName.get('add_axiom')!.annotations?.destructiveHint, false, 'undo restores an added axiom');
    assert.equal(byName.get('save_ontology')!.annotations?.destructiveHint, true, 'a saved file is overwritten');
    assert.equal(byName.get('search_external_terms')!.annotations?.openWorldHint, true);
    assert.equal(byName.get('run_qc_suite')!.title, 'Run QC suite');
  } finally {
    await s.close();
  }
});

test('tools/list sizes: the core profile fits in 60 KB, and an argument description appears once per list', async () => {
  const s = await serveAndConnect([fixture('zoo.ttl')]);
  try {
    const { tools } = await s.c.listTools();
    const full = Buffer.byteLength(JSON.stringify({ tools }));
    // the 60 KB for all 105 tools is not reached: the argument schemas alone, without one description, take 63 KB
    assert.ok(full <= 120 * 1024, `full tools/list is ${full} bytes`);
    const core = Buffer.byteLength(JSON.stringify({ tools: listTools(profileTools('core')) }));
    assert.ok(core <= 60 * 1024, `core tools/list is ${core} bytes`);
    const seen = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node !== null && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
          if (k === 'description' && typeof v === 'string') {
            assert.equal(seen.has(v), false, `repeated argument description: ${v}`);
            seen.add(v);
          } else walk(v);
        }
      }
    };
    for (const t of tools) walk(t.inputSchema);
  } finally {
    await s.close();
  }
});

test('the core profile lists about 30 tools, refuses the others, and the server sends instructions', async () => {
  const s = await serveAndConnect([fixture('zoo.ttl')], { tool_profile: 'core' });
  try {
    const { tools } = await s.c.listTools();
    assert.ok(tools.length >= 25 && tools.length <= 35, `${tools.length} core tools`);
    assert.ok(tools.some((t) => t.name === 'search_entities'));
    const outside = await call(s.c, 'sparql_query', { query: 'SELECT * WHERE { ?s ?p ?o }' });
    assert.equal(outside.body.error_code, 'unknown_tool');
    assert.match(s.c.getInstructions() ?? '', /search_entities/);
  } finally {
    await s.close();
  }
});

test('the owner changes the tool profile while serving: sessions hear tools/list_changed and list the subset', async () => {
  const s = await serveAndConnect([fixture('zoo.ttl')]);
  try {
    let changed = 0;
    s.c.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    const put = (body: string) => raw(s.t, { method: 'PUT', path: '/admin/api/tool-profile', headers: { authorization: `Bearer ${s.t.token}`, 'content-type': 'application/json' }, body });
    assert.equal((await put('{"tool_profile":"everything"}')).status, 400);
    assert.equal((await s.c.listTools()).tools.length, TOOLS_BY_NAME.size, 'a refused change changes nothing');
    const res = await put('{"tool_profile":"review"}');
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { tool_profile: 'review' });
    await eventually('the list_changed notification', async () => changed > 0);
    const { tools } = await s.c.listTools();
    assert.deepEqual(tools.map((t) => t.name), profileTools('review').map((t) => t.name));
    assert.ok(tools.every((t) => t.annotations?.readOnlyHint === true));
  } finally {
    await s.close();
  }
});

test('run_reasoner on a large generated ontology sends progress while it classifies', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-progress-'));
  const file = path.join(dir, 'gen.ttl');
  await writeFile(file, generatedOntology(3_000));
  const s = await serveAndConnect([file]);
  try {
    await callOk(s.c, 'set_reasoner', { reasoner: 'el' });
    const progress: Progress[] = [];
    const started = Date.now();
    const result = await s.c.callTool({ name: 'run_reasoner', arguments: { timeout_ms: 600_000 } }, undefined, {
      onprogress: (p) => progress.push(p), resetTimeoutOnProgress: true, timeout: 30_000,
    });
    const elapsed = Date.now() - started;
    assert.equal(result.isError, false);
    assert.equal((result.structuredContent as { completed: boolean }).completed, true);
    assert.ok(progress.length >= 1, 'at least the first beat arrives');
    if (elapsed > 5_000) assert.ok(progress.length >= 2, `${progress.length} beat(s) in ${elapsed} ms`);
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i].progress > progress[i - 1].progress, 'progress rises');
    assert.match(progress[0].message ?? '', /run_reasoner/);
  } finally {
    await s.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('a write held for the owner\'s approval says so in its progress until it is approved', async () => {
  const s = await serveAndConnect([fixture('zoo.ttl')], { confirm_each_write: true, approval_timeout_s: '60' });
  try {
    const progress: Progress[] = [];
    const held = s.c.callTool({ name: 'add_axiom', arguments: { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' } }, undefined, {
      onprogress: (p) => progress.push(p), resetTimeoutOnProgress: true,
    });
    let id: string | undefined;
    await eventually('a pending write', async () => (id = (await pendingWrites(s.t))[0]?.approval_id) !== undefined);
    await eventually('a waiting progress message', async () => progress.some((p) => /waiting for the owner's approval/.test(p.message ?? '')));
    assert.equal((await decideWrite(s.t, id!, 'approve')).status, 200);
    const result = await held;
    assert.equal(result.isError, false);
  } finally {
    await s.close();
  }
});

test('logging/setLevel, then a load with unmapped triples, yields a notifications/message', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-logging-'));
  const file = path.join(dir, 'unmapped.ttl');
  await writeFile(file, ['@prefix : <http://example.org/u#> .', '@prefix owl: <http://www.w3.org/2002/07/owl#> .', '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
    '<http://example.org/u> a owl:Ontology .', ':A a owl:Class .', ':A rdfs:subClassOf [ a owl:Restriction ] .', ''].join('\n'));
  const s = await serveAndConnect([fixture('zoo.ttl')]);
  try {
    const messages: { level: string; logger?: string; data: unknown }[] = [];
    s.c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      messages.push(n.params);
    });
    await s.c.setLoggingLevel('info');
    await callOk(s.c, 'load_ontology', { source: file });
    await eventually('the unmapped warning', async () => messages.some((m) => m.logger === 'load_ontology'));
    const warning = messages.find((m) => m.logger === 'load_ontology')!;
    assert.equal(warning.level, 'warning');
    assert.equal((warning.data as { unmapped_count: number }).unmapped_count, 2);

    await s.c.setLoggingLevel('error');
    messages.length = 0;
    await callOk(s.c, 'set_reasoner', { reasoner: 'el' });
    await callOk(s.c, 'run_reasoner');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(messages, [], 'warnings below the session level are not sent');
  } finally {
    await s.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('resources: list, read in its own and another format, an entity card, and subscribe to another session\'s edit', async () => {
  const t = await startTestServer([fixture('zoo.ttl')]);
  const reader = await connect(t);
  const writer = await connect(t);
  try {
    const { resources } = await reader.listResources();
    assert.equal(resources.length, 1);
    const uri = resources[0].uri;
    assert.equal(resources[0].mimeType, 'text/turtle');
    const own = await reader.readResource({ uri });
    assert.match((own.contents[0] as { text: string }).text, /Mammal/);
    const ofn = await reader.readResource({ uri: `${uri}/format/ofn` });
    assert.match((ofn.contents[0] as { text: string }).text, /^Prefix|Ontology\(/m);
    const { resourceTemplates } = await reader.listResourceTemplates();
    assert.ok(resourceTemplates.some((r) => r.uriTemplate.endsWith('/entity/{iri}')));
    const mammal = ((await callOk(reader, 'search_entities', { query: 'Mammal' })).items as { iri: string }[])[0].iri;
    const card = await reader.readResource({ uri: `${uri}/entity/${encodeURIComponent(mammal)}` });
    assert.match((card.contents[0] as { text: string }).text, /mammal/);

    const updated: string[] = [];
    let listChanged = 0;
    reader.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    reader.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      listChanged++;
    });
    await reader.subscribeResource({ uri });
    await callOk(writer, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' });
    await eventually('the updated notification', async () => updated.includes(uri));
    await callOk(writer, 'create_ontology', { ontology_iri: 'http://example.org/fresh', keep_active: true });
    await eventually('the list_changed notification', async () => listChanged > 0);
    assert.equal((await reader.listResources()).resources.length, 2);
  } finally {
    await reader.close();
    await writer.close();
    await t.stop();
  }
});

test('completion/complete offers ranked entity names for prompt arguments and the entity template', async () => {
  const s = await serveAndConnect([fixture('zoo.ttl')]);
  try {
    const prompt = await s.c.complete({ ref: { type: 'ref/prompt', name: 'explain_class' }, argument: { name: 'class', value: 'mam' } });
    assert.equal(prompt.completion.values[0], 'mammal');
    assert.ok(prompt.completion.values.length <= 100);
    const none = await s.c.complete({ ref: { type: 'ref/prompt', name: 'author_sparql_query' }, argument: { name: 'question', value: 'Do' } });
    assert.deepEqual(none.completion.values, []);
    const entity = await s.c.complete({ ref: { type: 'ref/resource', uri: 'athene://ontology/{key}/entity/{iri}' }, argument: { name: 'iri', value: 'mammal' } });
    assert.match(entity.completion.values[0], /^http.*Mammal$/);
  } finally {
    await s.close();
  }
});
