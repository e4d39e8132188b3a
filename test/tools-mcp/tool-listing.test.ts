// Tool metadata as clients see it, through the real server and the SDK client: titles and annotations true
// to each tool, tools/list sizes, shared and recursive subschemas listed once, profiles, the instructions, and
// structuredContent that validates against the listed outputSchema and the declaration. Progress,
// notifications, resources and completions: test/server/mcp-protocol.

import test from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { TOOLS_BY_NAME, profileTools } from '../../src/tools/core/tool-catalog.js';
import * as v from 'valibot';
import { defineTool, never, readOnlyTool } from '../../src/tools/core/tool.js';
import { listTools } from '../../src/tools/core/tool-listing.js';
import { call, connect, fixture, serveAndConnect, serveTempOntology, sharedServer } from '../server/support.js';
import { at } from '../support/at.js';

// the tests that only read the zoo share one server; those that edit or need flags start their own
const zoo = sharedServer([fixture('zoo.ttl')]);

/**
 * What each may-write tool truly does, judged from its contract (TOOLS.md): a tool not named here as
 * destructive is purely additive; idempotent ones have no further effect when repeated; open-world ones may
 * fetch an http(s) document or ask an external term provider.
 */
const DESTRUCTIVE = new Set([
  'write_project_policy_template',
  'prepare_release',
  'add_competency_question',
  'remove_competency_question',
  'export_audit_log',
  'apply_changes',
  'commit_change_set',
  'set_label',
  'remove_axiom',
  'rename_entity',
  'delete_entity',
  'move_class',
  'set_ontology_id',
  'set_prefix',
  'remove_prefix',
  'remove_import',
  'remove_ontology_annotation',
  'merge_ontology_document',
  'write_import_lock',
  'write_catalog',
  'extract_module',
  'undo_change',
  'redo_change',
  'save_ontology',
  'revert_changes',
  'recover_unsaved_changes',
  'commit_materialization',
  'remove_rule',
  'remove_mapping',
  'import_sssom',
  'export_sssom',
  'export_job_artifact',
  'set_reasoner',
  'cancel_job',
  'discard_change_set',
]);
const IDEMPOTENT = new Set([
  'add_subclass_of',
  'add_annotation',
  'set_label',
  'add_axiom',
  'remove_axiom',
  'deprecate_entity',
  'set_ontology_id',
  'set_prefix',
  'remove_prefix',
  'add_import',
  'remove_import',
  'add_ontology_annotation',
  'remove_ontology_annotation',
  'set_active_ontology',
  'write_import_lock',
  'write_catalog',
  'save_ontology',
  'set_reasoner',
]);
const OPEN_WORLD = new Set([
  'diff_ontologies',
  'semantic_diff',
  'analyze_change_impact',
  'add_import',
  'load_ontology',
  'merge_ontology_document',
  'search_external_terms',
  'inspect_external_term',
  'propose_term_reuse',
]);

/** What MCP assumes of a tool that does not list a hint. */
const MCP_DEFAULT_HINTS = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true } as const;

test('every listed tool has a title and annotations derived from its declared flags, true to what the tool does', async () => {
  const s = await zoo();
  const { tools } = await s.c.listTools();
  assert.equal(tools.length, TOOLS_BY_NAME.size);
  for (const tool of tools) {
    const def = TOOLS_BY_NAME.get(tool.name)!;
    const readOnly = readOnlyTool(def);
    const hints = tool.annotations!;
    assert.ok(tool.title !== undefined && tool.title.length > 0, tool.name);
    const hint = (key: keyof typeof MCP_DEFAULT_HINTS): boolean => {
      const listed = hints[key];
      // a hint is listed only where MCP's default would misstate the tool
      assert.notEqual(listed, MCP_DEFAULT_HINTS[key], `${tool.name}: ${key} listed at its default`);
      return listed ?? MCP_DEFAULT_HINTS[key];
    };
    assert.equal(hint('readOnlyHint'), readOnly, tool.name);
    if (readOnly)
      assert.ok(hints.destructiveHint === undefined && hints.idempotentHint === undefined, `${tool.name}: write hints on a read-only tool`);
    else {
      assert.equal(hint('destructiveHint'), def.destructive === true, tool.name);
      assert.equal(hint('idempotentHint'), def.idempotent === true, tool.name);
      assert.equal(hint('destructiveHint'), DESTRUCTIVE.has(tool.name), `${tool.name}: destructiveHint`);
      assert.equal(hint('idempotentHint'), IDEMPOTENT.has(tool.name), `${tool.name}: idempotentHint`);
    }
    assert.equal(hints.openWorldHint, def.openWorld === true || def.capabilities.includes('network:access'), tool.name);
    assert.equal(hints.openWorldHint, OPEN_WORLD.has(tool.name), `${tool.name}: openWorldHint`);
  }
  const byName = new Map(tools.map((t) => [t.name, t]));
  assert.equal(byName.get('add_axiom')!.annotations?.destructiveHint, false, 'adding an axiom is additive');
  assert.equal(byName.get('remove_axiom')!.annotations?.destructiveHint ?? true, true, 'removing one is not, undoable or not');
  assert.equal(byName.get('save_ontology')!.annotations?.destructiveHint ?? true, true, 'a saved file is overwritten');
  assert.equal(byName.get('run_qc_suite')!.title, 'Run QC suite');
});

/** The subschema at a path as tool-listing.ts names one: `a.b`, `a[]`, `$defs/0`, ` (anyOf 2)`. */
function schemaAt(schema: Record<string, unknown>, where: string): Record<string, unknown> | undefined {
  let node: Record<string, unknown> | undefined = schema;
  for (const m of where.matchAll(/\[\]|\$defs\/([^.[ ]+)| \((\w+)(?: (\d+))?\)|\.?([^.[ $]+)/g)) {
    if (node === undefined) return undefined;
    const n: Record<string, unknown> = node;
    if (m[0] === '[]') node = n.items as Record<string, unknown> | undefined;
    else if (m[1] !== undefined) node = (n.$defs as Record<string, Record<string, unknown>> | undefined)?.[m[1]];
    else if (m[2] !== undefined)
      node =
        m[3] === undefined
          ? (n[m[2]] as Record<string, unknown> | undefined)
          : (n[m[2]] as Record<string, unknown>[] | undefined)?.[Number(m[3]) - 1];
    else node = (n.properties as Record<string, Record<string, unknown>> | undefined)?.[at(m, 4)];
  }
  return node;
}

test('tools/list sizes, and a shared subschema listed in full once, where every reference to it points', async () => {
  // its own client: the test wraps the client's transport
  const c = await connect((await zoo()).t);
  try {
    // the list as it arrives: the JSON-RPC result of tools/list, before the client parses it
    const transport = c.transport!;
    const receive = transport.onmessage!;
    let sent = '';
    transport.onmessage = (message, extra) => {
      if ('result' in message && 'tools' in message.result) sent = JSON.stringify(message.result);
      receive.call(transport, message, extra);
    };
    const { tools } = await c.listTools();
    transport.onmessage = receive;
    assert.ok(sent.includes('"outputSchema"'), 'the whole list, output schemas included');
    // not the issue's 60 KB: names, titles, hints, every argument's name, type, enum and required, and each
    // output schema's required fields with its error alternative take 59.7 KB before any description. Measured
    // (bench/tool-list-size.ts prints the parts): 74,776 bytes = descriptions 7.2 KB + input schemas 39.2 KB +
    // output schemas of 89 tools 11.8 KB (4.5 KB of it the 29 added last) + names, titles and hints
    assert.ok(Buffer.byteLength(sent) <= 74 * 1024, `full tools/list is ${Buffer.byteLength(sent)} bytes`);
    const bounds = { core: 24, curation: 49, review: 37 } as const;
    for (const [profile, kb] of Object.entries(bounds)) {
      const size = Buffer.byteLength(JSON.stringify({ tools: listTools(profileTools(profile as keyof typeof bounds)) }));
      assert.ok(size <= kb * 1024, `${profile} tools/list is ${size} bytes`);
    }
    const described = tools.reduce((n, t) => n + Buffer.byteLength(t.description ?? ''), 0);
    assert.ok(described / tools.length <= 90, `tool descriptions average ${described / tools.length} bytes`);
    const byName = new Map(tools.map((t) => [t.name, t]));
    const seen = new Set<string>();
    let references = 0;
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node !== null && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
          if (k !== 'description' || typeof v !== 'string') {
            walk(v);
            continue;
          }
          const ref = /^As (\w+)'s (.+)\.$/.exec(v);
          if (ref === null) {
            assert.equal(seen.has(v), false, `repeated argument description: ${v}`);
            seen.add(v);
            continue;
          }
          references++;
          const home = byName.get(at(ref, 1));
          assert.ok(home !== undefined, `${v}: no such listed tool`);
          const target = schemaAt(home.inputSchema as Record<string, unknown>, at(ref, 2));
          assert.ok(target !== undefined, `${v}: no such subschema`);
          assert.doesNotMatch(String(target.description ?? ''), /^As \w+'s/, `${v}: points at another reference`);
        }
      }
    };
    for (const t of tools) walk(t.inputSchema);
    assert.ok(references > 10, `${references} references`);
    const axiomType = schemaAt(byName.get('add_axiom')!.inputSchema as Record<string, unknown>, 'axiom_type')!;
    assert.ok((axiomType.enum as string[]).includes('subclass_of'), 'the axiom types are listed in full at add_axiom');
    assert.match(
      String(schemaAt(byName.get('remove_axiom')!.inputSchema as Record<string, unknown>, 'axiom_type')!.description),
      /^As add_axiom's axiom_type\.$/,
    );
  } finally {
    await c.close();
  }
});

test('a shared subschema is one whose local references name the same definitions', () => {
  const tool = (name: string, leaf: Record<string, unknown>) =>
    defineTool({
      name,
      description: name,
      input: v.strictObject({}),
      capabilities: ['ontology:read'],
      mutating: never,
      handler: () => ({}),
      listedSchema: {
        type: 'object',
        properties: {
          node: {
            type: 'object',
            properties: {
              label: { type: 'string' },
              comment: { type: 'string' },
              children: { type: 'array', items: { $ref: '#/$defs/0' } },
            },
          },
        },
        $defs: { 0: leaf },
      },
    });
  const word = { type: 'object', properties: { text: { type: 'string' } } };
  const count = { type: 'object', properties: { n: { type: 'integer' } } };
  const [a, b, c] = listTools([tool('a', word), tool('b', count), tool('c', word)]);
  assert.ok(c);
  assert.ok(b);
  assert.ok(a);
  assert.ok(a.inputSchema.$defs !== undefined);
  assert.deepEqual(b.inputSchema.properties, a.inputSchema.properties, "b's node names another definition: listed in full");
  assert.ok(b.inputSchema.$defs !== undefined);
  assert.deepEqual((c.inputSchema.properties as Record<string, unknown>).node, { type: 'object', description: "As a's node." });
  assert.equal(c.inputSchema.$defs, undefined, 'a definition nothing refers to any more is dropped');
});

/** The SDK types a listed schema's optional keys as possibly undefined, its validator takes them only when present. */
function validatorOf(ajv: AjvJsonSchemaValidator, schema: NonNullable<Tool['outputSchema']>) {
  const { properties, required, ...rest } = schema;
  return ajv.getValidator({
    ...rest,
    ...(properties === undefined ? {} : { properties }),
    ...(required === undefined ? {} : { required }),
  });
}

test('a recursive shape is listed once, as a $defs entry with its descriptions, and still validates what it did', () => {
  interface Tree {
    label?: string | undefined;
    children?: Tree[] | undefined;
  }
  const Tree: v.GenericSchema<Tree> = v.object({
    label: v.optional(v.pipe(v.string(), v.description('Shown.'))),
    children: v.optional(v.array(v.lazy(() => Tree))),
  });
  const [listed] = listTools([
    defineTool({
      name: 'tree',
      description: 'tree',
      input: v.strictObject({ roots: v.array(Tree) }),
      capabilities: ['ontology:read'],
      mutating: never,
      handler: () => ({}),
    }),
  ]);
  assert.ok(listed);
  const schema = listed.inputSchema as Record<string, unknown>;
  assert.deepEqual(schemaAt(schema, 'roots'), { type: 'array', items: { $ref: '#/$defs/0' } });
  assert.equal(schemaAt(schema, '$defs/0.label')?.description, 'Shown.');
  const valid = new AjvJsonSchemaValidator().getValidator(schema);
  assert.equal(valid({ roots: [{ label: 'a', children: [{ children: [{ label: 'c' }] }] }] }).valid, true);
  assert.equal(valid({ roots: [{ children: [{ children: [{ label: 3 }] }] }] }).valid, false, 'the third level is typed too');
});

test("a tool outside its profile's list is refused, and a shared subschema is listed in full in every profile", () => {
  for (const profile of ['core', 'curation', 'review'] as const) {
    const listed = listTools(profileTools(profile));
    const names = new Set(listed.map((t) => t.name));
    for (const m of JSON.stringify(listed).matchAll(/"As (\w+)'s/g))
      assert.ok(names.has(at(m, 1)), `${profile}: ${m[0]} names a tool outside the profile`);
  }
});

/**
 * Successful calls of each tool that declares its result shape, on the zoo fixture (in a project directory
 * of its own), in this order, several where a tool's modes give different shapes; a call may set up the
 * next one. A value `(results) => args` takes arguments from earlier results, by tool name.
 */
type Args = Record<string, unknown>;
const first = (list: unknown) => at(list as Args[], 0);
const OUTPUT_CALLS: readonly [string, Args | ((results: ReadonlyMap<string, Args>) => Args)][] = [
  ['list_ontologies', {}],
  ['get_active_ontology', {}],
  ['summarize_ontology', {}],
  ['list_classes', { limit: 2 }],
  ['search_entities', { query: 'mammal' }],
  ['search_entities', { query: 'Reptile' }],
  ['get_entity', { entity: 'Mammal' }],
  ['get_axioms_for_entity', { entity: 'Mammal' }],
  ['get_axioms_for_entity', { entity: 'Animal', limit: 1 }],
  ['get_ontology_context', {}],
  ['get_entity_context', { entity: 'Bird' }],
  ['get_model_revision', {}],
  ['get_session_info', { include_instances: true }],
  ['add_axiom', { axiom_type: 'subclass_of', sub: 'Axolotl', super: 'Animal' }],
  ['add_axiom', { axiom_type: 'subclass_of', sub: 'Axolotl', super: 'Animal' }],
  ['add_subclass_of', { child: 'Wombat', parent: 'Mammal' }],
  ['add_annotation', { entity: 'Bird', property: 'rdfs:comment', value: 'feathered' }],
  ['set_label', { entity: 'Bird', value: 'bird', lang: 'en' }],
  ['create_class', { name: 'Reptile', parent: 'Animal' }],
  ['create_entity', { entity_type: 'individual', name: 'polly' }],
  ['remove_axiom', { axiom_type: 'subclass_of', sub: 'Axolotl', super: 'Animal' }],
  ['undo_change', { peek: true }],
  ['undo_change', {}],
  ['redo_change', {}],
  [
    'preview_changes',
    {
      operations: [
        { axiom_type: 'subclass_of', sub: 'Reptile', super: 'Animal' },
        { op: 'remove', axiom_type: 'subclass_of', sub: 'Bird', super: 'Animal' },
      ],
    },
  ],
  ['set_ontology_id', { ontology_iri: 'http://example.org/zoo', version_iri: 'http://example.org/zoo/1' }],
  ['set_prefix', { prefix: 'zoo', namespace: 'http://example.org/zoo#' }],
  ['remove_prefix', { prefix: 'zoo' }],
  ['add_import', { iri: 'http://example.org/elsewhere' }],
  ['remove_import', { iri: 'http://example.org/elsewhere' }],
  ['add_ontology_annotation', { property: 'rdfs:comment', value: 'a zoo' }],
  ['remove_ontology_annotation', { property: 'rdfs:comment', value: 'a zoo' }],
  ['preview_change_set', { operations: [{ op: 'add', axiom_type: 'subclass_of', sub: 'Reptile', super: 'Animal' }] }],
  ['discard_change_set', (results) => ({ change_set_id: results.get('preview_change_set')!.change_set_id })],
  ['preview_change_set', { operations: [{ op: 'add', axiom_type: 'subclass_of', sub: 'Wombat', super: 'Animal' }] }],
  [
    'commit_change_set',
    (results) => ({
      change_set_id: results.get('preview_change_set')!.change_set_id,
      expected_revision: results.get('preview_change_set')!.base_revision,
    }),
  ],
  ['add_rule', { head: [{ type: 'class', predicate: 'Animal', arg1: '?x' }], body: [{ type: 'class', predicate: 'Mammal', arg1: '?x' }] }],
  ['list_rules', {}],
  ['remove_rule', { index: 0 }],
  ['add_rule', { head: [{ type: 'class', predicate: 'Animal', arg1: '?x' }], body: [{ type: 'class', predicate: 'Bird', arg1: '?x' }] }],
  ['remove_rule', { head: [{ type: 'class', predicate: 'Animal', arg1: '?x' }], body: [{ type: 'class', predicate: 'Bird', arg1: '?x' }] }],
  ['get_change_history', {}],
  ['revert_changes', (results) => ({ seqs: [first(results.get('get_change_history')!.entries).seq], preview: true })],
  ['revert_changes', (results) => ({ seqs: [first(results.get('get_change_history')!.entries).seq] })],
  ['create_term', { name: 'Herbivore', label: 'herbivore', label_lang: 'en', parents: ['Animal', 'eats some Mammal'] }],
  ['create_term', { name: 'Herbivore', label: 'herbivore', label_lang: 'en', parents: ['Animal', 'eats some Mammal'] }],
  ['create_property', { name: 'weightKg', property_type: 'data', domain: 'Animal', range: 'xsd:decimal' }],
  ['create_class', { name: 'Marsupial', parent: 'Animal' }],
  ['move_class', { entity: 'Marsupial', new_parent: 'Mammal' }],
  ['deprecate_entity', { entity: 'Marsupial', replaced_by: 'Mammal' }],
  ['rename_entity', { entity: 'Marsupial', new_iri: 'http://example.org/zoo#Pouched', preview: true }],
  ['rename_entity', { entity: 'Marsupial', new_iri: 'http://example.org/zoo#Pouched' }],
  ['delete_entity', { entity: 'http://example.org/zoo#Pouched', preview: true }],
  ['delete_entity', { entity: 'http://example.org/zoo#Pouched' }],
  ['extract_module', { signature: ['Mammal'], iri: 'http://example.org/zoo-module' }],
  ['create_ontology', { ontology_iri: 'http://example.org/other', keep_active: true }],
  ['set_active_ontology', { ontology_iri: 'http://example.org/zoo' }],
  ['validate_catalog', {}],
  ['list_reasoners', {}],
  ['set_reasoner', { reasoner: 'el' }],
  ['run_reasoner', {}],
  ['run_reasoner', {}],
  ['get_reasoner_capabilities', {}],
  ['get_unsatisfiable_classes', {}],
  ['get_inferred_superclasses', { entity: 'Mammal' }],
  ['get_inferred_superclasses', { entity: 'Animal', relation: 'subclasses', direct: false }],
  ['execute_dl_query', { query: 'eats some Animal' }],
  ['execute_dl_query', { query: 'Animal', relation: 'subclasses' }],
  ['explain_entailment', { axiom_type: 'subclass_of', sub: 'Mammal', super: 'Animal' }],
  ['explain_entailment', { axiom_type: 'subclass_of', sub: 'Animal', super: 'Mammal' }],
  ['get_explanations', { axiom_type: 'subclass_of', sub: 'Mammal', super: 'Animal' }],
  ['explain_inconsistency', {}],
  ['add_competency_question', { id: 'CQ-1', query: 'SELECT ?c WHERE { ?c rdfs:subClassOf :Animal }', text: 'Which animals are there?' }],
  ['list_competency_questions', {}],
  ['run_competency_questions', {}],
  ['remove_competency_question', { id: 'CQ-1' }],
  ['sparql_query', { query: 'SELECT ?c WHERE { ?c a owl:Class }' }],
  ['sparql_query', { query: 'ASK { ?c a owl:Class }' }],
  ['sparql_query', { query: 'CONSTRUCT { ?c a owl:Class } WHERE { ?c a owl:Class }' }],
  ['sparql_validate', { query: 'SELECT ?c WHERE { ?c a owl:Class }', dry_run: true }],
  ['sparql_schema', {}],
  ['verify_ontology', { queries: [{ sparql: 'ASK { ?c rdfs:subClassOf ?c }' }] }],
  ['validate_ontology', { with_reasoner: true }],
  ['validate_governance', { required_annotations: ['label'] }],
  [
    'shacl_validate',
    {
      shapes:
        '@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix owl: <http://www.w3.org/2002/07/owl#> . ' +
        '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> . ' +
        '<urn:shape> a sh:NodeShape ; sh:targetClass owl:Class ; sh:property [ sh:path rdfs:label ; sh:minCount 1 ] .',
    },
  ],
  ['list_mappings', { path: 'zoo.sssom.tsv' }],
  [
    'add_mapping',
    (results) => ({
      path: 'zoo.sssom.tsv',
      expected_mapping_revision: results.get('list_mappings')!.mapping_revision,
      mapping: {
        subject_id: 'zoo:Bird',
        predicate_id: 'skos:exactMatch',
        object_id: 'other:Bird',
        mapping_justification: 'semapv:ManualMappingCuration',
      },
      prefix_map: { zoo: 'http://example.org/zoo#', other: 'http://other.org/onto/' },
      mapping_set_id: 'http://example.org/zoo/mappings',
      license: 'https://example.org/license',
      confirm: true,
    }),
  ],
  ['validate_mappings', { path: 'zoo.sssom.tsv' }],
  [
    'export_sssom',
    (results) => ({
      path: 'zoo.sssom.tsv',
      expected_mapping_revision: results.get('add_mapping')!.mapping_revision,
      destination: 'zoo-export.sssom.tsv',
      confirm: true,
    }),
  ],
  [
    'remove_mapping',
    (results) => ({
      path: 'zoo.sssom.tsv',
      expected_mapping_revision: results.get('add_mapping')!.mapping_revision,
      mapping_id: results.get('add_mapping')!.mapping_id,
      confirm: true,
    }),
  ],
  [
    'import_sssom',
    (results) => ({
      path: 'zoo.sssom.tsv',
      expected_mapping_revision: results.get('remove_mapping')!.mapping_revision,
      source: 'zoo-export.sssom.tsv',
      mode: 'merge',
      confirm: true,
    }),
  ],
  ['start_job', { type: 'classification', idempotency_key: 'output-shapes', request: {} }],
  ['get_job', (results) => ({ job_id: (results.get('start_job')!.job as Args).job_id })],
  ['cancel_job', (results) => ({ job_id: (results.get('start_job')!.job as Args).job_id })],
  ['list_jobs', {}],
  ['inspect_imports', {}],
  ['write_catalog', {}],
  ['get_project_policy', {}],
  ['write_project_policy_template', {}],
  ['validate_project_policy', {}],
];

/**
 * Tools with a declared shape whose calls need more than this fixture (a policy that passes the release
 * gate, an audit home, a finished job's artifact, an HTTPS term provider): their own end-to-end files call
 * them through support.ts's `call`, which checks every success against the declaration and the listed
 * outputSchema.
 */
const OUTPUT_CHECKED_ELSEWHERE: Readonly<Record<string, string>> = {
  run_release_gate: 'release-tools.test.ts',
  prepare_release: 'release-tools.test.ts',
  export_audit_log: 'audit-log.test.ts',
  export_job_artifact: 'job-tools.test.ts',
  search_external_terms: 'external-term-tools.test.ts',
  inspect_external_term: 'external-term-tools.test.ts',
  propose_term_reuse: 'external-term-tools.test.ts',
  accept_reuse_proposal: 'external-term-tools.test.ts',
};

test('structuredContent validates against the listed outputSchema (SDK client and Ajv) and against the declaration', async () => {
  const s = await serveTempOntology('athene-output-', 'zoo.ttl', await readFile(fixture('zoo.ttl'), 'utf8'));
  try {
    await writeFile(
      path.join(s.dir, 'catalog-v001.xml'),
      '<?xml version="1.0"?>\n<catalog prefer="public" xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"/>\n',
    );
    const { tools } = await s.c.listTools();
    const declared = tools.filter((t) => t.outputSchema !== undefined);
    assert.deepEqual(
      declared.map((t) => t.name),
      [...TOOLS_BY_NAME.values()].filter((d) => d.output !== undefined).map((d) => d.name),
      'every declared shape is listed',
    );
    const called = new Set(OUTPUT_CALLS.map(([name]) => name));
    for (const t of declared)
      assert.ok(called.has(t.name) || t.name in OUTPUT_CHECKED_ELSEWHERE, `${t.name} has an outputSchema but is not called here`);
    for (const name of Object.keys(OUTPUT_CHECKED_ELSEWHERE)) assert.ok(TOOLS_BY_NAME.get(name)?.output !== undefined, name);
    const ajv = new AjvJsonSchemaValidator();
    const results = new Map<string, Args>();
    let validated = 0;
    for (const [name, args] of OUTPUT_CALLS) {
      // the SDK client validates structuredContent against the outputSchema it listed, and throws when it does not fit
      const result = await s.c.callTool({ name, arguments: typeof args === 'function' ? args(results) : args });
      assert.equal(result.isError, false, `${name}: ${JSON.stringify(result.structuredContent)}`);
      results.set(name, result.structuredContent as Args);
      const schema = declared.find((t) => t.name === name)?.outputSchema;
      if (schema === undefined) continue;
      const check = validatorOf(ajv, schema)(result.structuredContent);
      assert.ok(check.valid, `${name}: ${check.errorMessage}`);
      // the declaration the listed schema comes from (types and nested shapes included) holds too
      const typed = v.safeParse(TOOLS_BY_NAME.get(name)!.output!, result.structuredContent);
      assert.ok(
        typed.success,
        `${name}: ${typed.success ? '' : typed.issues.map((i) => `${v.getDotPath(i) ?? ''} ${i.message}`).join('; ')}`,
      );
      validated++;
    }
    assert.equal(
      validated,
      OUTPUT_CALLS.filter(([name]) => name !== 'preview_change_set').length,
      'every call but the setup calls checks a declared shape',
    );
    const minted = await s.c.callTool({ name: 'add_axiom', arguments: { axiom_type: 'subclass_of', sub: 'Quokka', super: 'Animal' } });
    assert.ok(
      ((minted.structuredContent as { new_entities?: unknown[] }).new_entities ?? []).length === 1,
      'a minted entity row is part of the declared shape',
    );
    // a failure is structuredContent too: {error, error_code}, which the same schema admits
    const failed = await s.c.callTool({ name: 'set_reasoner', arguments: { reasoner: 'no such reasoner' } });
    assert.equal(failed.isError, true);
    assert.ok(validatorOf(ajv, declared.find((t) => t.name === 'set_reasoner')!.outputSchema!)(failed.structuredContent).valid);
    // and a success missing a required field does not pass
    const listOntologies = validatorOf(ajv, declared.find((t) => t.name === 'list_ontologies')!.outputSchema!);
    assert.equal(listOntologies({ count: 1, note: 'x' }).valid, false);
    assert.equal(
      v.safeParse(TOOLS_BY_NAME.get('list_ontologies')!.output!, { ...results.get('list_ontologies'), count: 'one' }).success,
      false,
      'a field of the wrong type fails the declaration',
    );
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
