// The MCP protocol beyond tools, with the SDK client over real HTTP: progress, logging, resources with
// subscriptions, completions, and tools/list_changed. What tools/list says of each tool (annotations, sizes,
// profiles, outputSchema): test/tools-mcp/tool-listing.

import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  LoggingMessageNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { TOOLS_BY_NAME, profileTools } from '../../src/tools/core/tool-catalog.js';
import { stepMeasure } from '../../src/tools/core/tool.js';
import { nextProgress } from '../../src/actors/session-features.js';
import {
  callOk,
  connect,
  decideWrite,
  eventually,
  fixture,
  pendingWrites,
  raw,
  serveAndConnect,
  sharedServer,
  startTestServer,
} from './support.js';
import { at } from '../support/at.js';

// the tests that only read the zoo share one server; those that edit, load or need flags start their own
const zoo = sharedServer([fixture('zoo.ttl')]);

/** A chain of `n` classes, each also with an existential on one property: enough work to classify for a while. */
function generatedOntology(n: number): string {
  const lines = [
    '@prefix : <http://example.org/gen#> .',
    '@prefix owl: <http://www.w3.org/2002/07/owl#> .',
    '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
    '<http://example.org/gen> a owl:Ontology .',
    ':r a owl:ObjectProperty .',
  ];
  for (let i = 0; i < n; i++) {
    lines.push(`:C${i} a owl:Class .`);
    if (i > 0)
      lines.push(
        `:C${i} rdfs:subClassOf :C${i - 1} , [ a owl:Restriction ; owl:onProperty :r ; owl:someValuesFrom :C${Math.floor(i / 2)} ] .`,
      );
  }
  return lines.join('\n') + '\n';
}

/** MCP: each progress value is above the one before, and never above its total. */
function assertRising(progress: readonly Progress[]): void {
  for (let i = 1; i < progress.length; i++)
    assert.ok(at(progress, i).progress > at(progress, i - 1).progress, `progress rises: ${JSON.stringify(progress.slice(i - 1, i + 1))}`);
  for (const p of progress) if (p.total !== undefined) assert.ok(p.progress <= p.total, JSON.stringify(p));
}

test('progress values rise: a measured phase reports done of its total, an unmeasured one counts beats', () => {
  assert.deepEqual(nextProgress(0, undefined), { progress: 1 });
  assert.deepEqual(nextProgress(2.4, undefined), { progress: 3 });
  const step = stepMeasure(1, 3);
  const first = nextProgress(0, step);
  assert.deepEqual(first, { progress: 1.5, total: 3 });
  const second = nextProgress(first.progress, step);
  assert.ok(second.progress > 1.5 && second.progress < 2 && second.total === 3);
  // a measure behind what was already sent still moves on, a little
  assert.deepEqual(nextProgress(5, { total: 10, done: () => 1 }), { progress: 5.001, total: 10 });
  // a measure at its total says nothing new about it: the count goes on without a total
  assert.deepEqual(nextProgress(10, { total: 10, done: () => 12 }), { progress: 11 });
});

test('the owner changes the tool profile while serving: sessions hear tools/list_changed and list the subset', async () => {
  const s = await serveAndConnect([fixture('zoo.ttl')]);
  try {
    let changed = 0;
    s.c.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    const put = (body: string) =>
      raw(s.t, {
        method: 'PUT',
        path: '/admin/api/tool-profile',
        headers: { authorization: `Bearer ${s.t.token}`, 'content-type': 'application/json' },
        body,
      });
    assert.equal((await put('{"tool_profile":"everything"}')).status, 400);
    assert.equal((await s.c.listTools()).tools.length, TOOLS_BY_NAME.size, 'a refused change changes nothing');
    const res = await put('{"tool_profile":"review"}');
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { tool_profile: 'review' });
    await eventually('the list_changed notification', async () => changed > 0);
    const { tools } = await s.c.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      profileTools('review').map((t) => t.name),
    );
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
      onprogress: (p) => progress.push(p),
      resetTimeoutOnProgress: true,
      timeout: 30_000,
    });
    const elapsed = Date.now() - started;
    assert.equal(result.isError, false);
    assert.equal((result.structuredContent as { completed: boolean }).completed, true);
    assert.ok(progress.length >= 1, 'at least the first beat arrives');
    if (elapsed > 5_000) assert.ok(progress.length >= 2, `${progress.length} beat(s) in ${elapsed} ms`);
    assertRising(progress);
    const classifying = progress.filter((p) => /^run_reasoner: classifying [\d,]+ axioms with /.test(p.message ?? ''));
    assert.ok(classifying.length >= 1, `a classifying phase among ${JSON.stringify(progress.map((p) => p.message))}`);
    for (const p of classifying) {
      assert.equal(p.total, 3, 'classification is the second of three phases');
      assert.ok(p.progress > 1 && p.progress < 2, `${p.progress} lies within the second phase`);
    }
  } finally {
    await s.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("a write held for the owner's approval says so in its progress until it is approved", async () => {
  const s = await serveAndConnect([fixture('zoo.ttl')], { confirm_each_write: true, approval_timeout_s: '60' });
  try {
    const progress: Progress[] = [];
    const held = s.c.callTool({ name: 'add_axiom', arguments: { axiom_type: 'subclass_of', sub: 'Dog', super: 'Animal' } }, undefined, {
      onprogress: (p) => progress.push(p),
      resetTimeoutOnProgress: true,
    });
    let id: string | undefined;
    await eventually('a pending write', async () => (id = (await pendingWrites(s.t))[0]?.approval_id) !== undefined);
    const waiting = () => progress.filter((p) => /waiting for the owner's approval \(at most 60 s\)/.test(p.message ?? ''));
    await eventually('two waiting progress beats', async () => waiting().length >= 2);
    for (const p of waiting()) {
      assert.equal(p.total, 60, 'the total is the approval timeout, in seconds');
      assert.ok(p.progress <= 60);
    }
    assert.equal((await decideWrite(s.t, id!, 'approve')).status, 200);
    const result = await held;
    assert.equal(result.isError, false);
    assertRising(progress);
  } finally {
    await s.close();
  }
});

test('logging/setLevel, then a load with unmapped triples, yields a notifications/message', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-logging-'));
  const file = path.join(dir, 'unmapped.ttl');
  await writeFile(
    file,
    [
      '@prefix : <http://example.org/u#> .',
      '@prefix owl: <http://www.w3.org/2002/07/owl#> .',
      '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
      '<http://example.org/u> a owl:Ontology .',
      ':A a owl:Class .',
      ':A rdfs:subClassOf [ a owl:Restriction ] .',
      '',
    ].join('\n'),
  );
  const s = await serveAndConnect([fixture('zoo.ttl')]);
  try {
    const messages: { level: string; logger?: string | undefined; data: unknown }[] = [];
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

test("resources: list, read in its own and another format, an entity card, and subscribe to another session's edit", async () => {
  const t = await startTestServer([fixture('zoo.ttl')]);
  const reader = await connect(t);
  const writer = await connect(t);
  try {
    const { resources } = await reader.listResources();
    assert.equal(resources.length, 1);
    const uri = at(resources, 0).uri;
    assert.equal(at(resources, 0).mimeType, 'text/turtle');
    const own = await reader.readResource({ uri });
    assert.match((own.contents[0] as { text: string }).text, /Mammal/);
    const ofn = await reader.readResource({ uri: `${uri}/format/ofn` });
    assert.match((ofn.contents[0] as { text: string }).text, /^Prefix|Ontology\(/m);
    const { resourceTemplates } = await reader.listResourceTemplates();
    assert.ok(resourceTemplates.some((r) => r.uriTemplate.endsWith('/entity/{iri}')));
    const mammal = at((await callOk(reader, 'search_entities', { query: 'Mammal' })).items as { iri: string }[], 0).iri;
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
  const s = await zoo();
  const prompt = await s.c.complete({ ref: { type: 'ref/prompt', name: 'explain_class' }, argument: { name: 'class', value: 'mam' } });
  assert.equal(prompt.completion.values[0], 'mammal');
  assert.ok(prompt.completion.values.length <= 100);
  const none = await s.c.complete({
    ref: { type: 'ref/prompt', name: 'author_sparql_query' },
    argument: { name: 'question', value: 'Do' },
  });
  assert.deepEqual(none.completion.values, []);
  const entity = await s.c.complete({
    ref: { type: 'ref/resource', uri: 'athene://ontology/{key}/entity/{iri}' },
    argument: { name: 'iri', value: 'mammal' },
  });
  assert.match(at(entity.completion.values, 0), /^http.*Mammal$/);
});
