// The SWRL rule tools through the real server: add_rule (every atom type, variables, literals, annotations,
// minting), already_present, list_rules order and replay, remove_rule by structure / index / label with each
// error, one undo entry per call, read-only refusal, and validate_rules paging with its snapshot fingerprint.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { call, callOk, serveAndConnect, serveTempOntology, undoDepth, type Row, type ServedTempOntology } from '../server/support.js';
import { at } from '../support/at.js';

const EX = 'http://example.org/fam#';
const VAR = 'urn:swrl:var#';
const SWRLB = 'http://www.w3.org/2003/11/swrlb#';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

const ONTOLOGY = `Prefix(:=<${EX}>)
Prefix(rdfs:=<http://www.w3.org/2000/01/rdf-schema#>)
Ontology(<http://example.org/fam>
Declaration(Class(:Person))
Declaration(Class(:Adult))
Declaration(ObjectProperty(:hasParent))
Declaration(ObjectProperty(:hasGrandparent))
Declaration(DataProperty(:age))
Declaration(NamedIndividual(:alice))
DLSafeRule(Annotation(rdfs:label "grandparent") Body(ObjectPropertyAtom(:hasParent Variable(<${VAR}x>) Variable(<${VAR}y>)) ObjectPropertyAtom(:hasParent Variable(<${VAR}y>) Variable(<${VAR}z>))) Head(ObjectPropertyAtom(:hasGrandparent Variable(<${VAR}x>) Variable(<${VAR}z>))))
)
`;

let s: ServedTempOntology;

before(async () => {
  s = await serveTempOntology('athene-rules-', 'fam.ofn', ONTOLOGY);
});
after(async () => {
  await s.close();
});

const ok = (name: string, args: Row = {}): Promise<Row> => callOk(s.c, name, args);
const listed = async (): Promise<Row[]> => (await ok('list_rules')).rules as Row[];

const ADULT_RULE = {
  body: [
    { type: 'class', predicate: 'Person', arg1: '?p' },
    { type: 'data_property', predicate: 'age', arg1: '?p', arg2: '?a' },
    { type: 'builtin', builtin: 'greaterThanOrEqual', args: ['?a', { value: '18', datatype: 'xsd:integer' }] },
  ],
  head: [{ type: 'class', predicate: 'Adult', arg1: '?p' }],
};

test('add_rule builds every atom type, with ?name and ?<IRI> variables, typed and tagged literals, annotations', async () => {
  const depth = await undoDepth(s.c);
  const r = await ok('add_rule', {
    body: [
      ...ADULT_RULE.body,
      { type: 'same_as', arg1: '?p', arg2: 'alice' },
      { type: 'different_from', arg1: '?<http://example.org/v#q>', arg2: '?p' },
      { type: 'builtin', builtin: 'swrlb:stringConcat', args: ['?s', 'Ms ', { value: 'Alice', lang: 'en' }] },
    ],
    head: [
      { type: 'class', predicate: 'Adult', arg1: '?p' },
      { type: 'data_property', predicate: 'nickname', arg1: '?p', value: 'ally', lang: 'en' },
      { type: 'object_property', predicate: 'knows', arg1: '?p', arg2: 'bob' },
    ],
    annotations: [{ property: 'rdfs:comment', value: 'everything at once', lang: 'en' }],
  });
  assert.equal(r.added, true);
  assert.equal(r.already_present, false);
  const rule = r.rule as Row;
  assert.equal(rule.index, undefined, 'add_rule returns the rule without an index');
  const body = rule.body as Row[];
  assert.deepEqual(body[0], { type: 'class', predicate: 'Person', predicate_iri: EX + 'Person', arg1: `?<${VAR}p>` });
  assert.deepEqual(body[1], { type: 'data_property', predicate: 'age', predicate_iri: EX + 'age', arg1: `?<${VAR}p>`, arg2: `?<${VAR}a>` });
  assert.deepEqual(body[2], {
    type: 'builtin',
    builtin: SWRLB + 'greaterThanOrEqual',
    args: [`?<${VAR}a>`, { value: '18', datatype: XSD + 'integer' }],
  });
  assert.deepEqual(body[3], { type: 'same_as', arg1: `?<${VAR}p>`, arg2: EX + 'alice' });
  assert.deepEqual(body[4], { type: 'different_from', arg1: '?<http://example.org/v#q>', arg2: `?<${VAR}p>` });
  assert.deepEqual(body[5], {
    type: 'builtin',
    builtin: SWRLB + 'stringConcat',
    args: [`?<${VAR}s>`, 'Ms ', { value: 'Alice', lang: 'en' }],
  });
  const head = rule.head as Row[];
  assert.deepEqual(head[1], {
    type: 'data_property',
    predicate: 'nickname',
    predicate_iri: EX + 'nickname',
    arg1: `?<${VAR}p>`,
    value: 'ally',
    lang: 'en',
  });
  assert.deepEqual(head[2], {
    type: 'object_property',
    predicate: 'knows',
    predicate_iri: EX + 'knows',
    arg1: `?<${VAR}p>`,
    arg2: EX + 'bob',
  });
  assert.deepEqual(rule.variables, ['http://example.org/v#q', VAR + 'a', VAR + 'p', VAR + 's']);
  assert.deepEqual(rule.annotations, [
    { property: 'rdfs:comment', property_iri: 'http://www.w3.org/2000/01/rdf-schema#comment', value: 'everything at once', lang: 'en' },
  ]);
  assert.match(String(rule.rendering), /-> /);
  assert.deepEqual((r.new_entities as Row[]).map((e) => [e.iri, e.type]).sort(), [
    [EX + 'bob', 'NamedIndividual'],
    [EX + 'knows', 'ObjectProperty'],
    [EX + 'nickname', 'DataProperty'],
  ]);
  assert.equal(await undoDepth(s.c), depth + 1, 'one undo entry per add');
  await ok('undo_change');
  assert.equal((await listed()).length, 1, 'undo removes the rule');
  assert.equal((await call(s.c, 'get_entity', { entity: EX + 'knows' })).isError, true, 'and the declarations it introduced');
});

test('add_rule reports an existing rule as already_present and changes nothing', async () => {
  const first = await ok('add_rule', ADULT_RULE);
  assert.equal(first.added, true);
  const depth = await undoDepth(s.c);
  const again = await ok('add_rule', ADULT_RULE);
  assert.equal(again.added, false);
  assert.equal(again.already_present, true);
  assert.equal(await undoDepth(s.c), depth);
  await ok('remove_rule', ADULT_RULE);
});

test('add_rule refuses an empty head and malformed atoms with precise errors', async () => {
  const empty = await call(s.c, 'add_rule', { head: [], body: ADULT_RULE.body });
  assert.equal(empty.isError, true);
  assert.equal(empty.body.error, 'A SWRL rule needs at least one head atom (body may be empty).');
  const missingArg = await call(s.c, 'add_rule', { head: [{ type: 'object_property', predicate: 'hasParent', arg1: '?x' }] });
  assert.equal(missingArg.body.error_code, 'invalid_argument');
  assert.match(String(missingArg.body.error), /^head\[0\]: .*arg2/);
  const stray = await call(s.c, 'add_rule', { head: [{ type: 'class', predicate: 'Adult', arg1: '?x', arg2: '?y' }] });
  assert.match(String(stray.body.error), /head\[0\]: .*'arg2' does not belong/);
  const badVar = await call(s.c, 'add_rule', { head: [{ type: 'class', predicate: 'Adult', arg1: '?<oops' }] });
  assert.match(String(badVar.body.error), /malformed variable/);
  const unknownType = await call(s.c, 'add_rule', { head: [{ type: 'triple', arg1: '?x' }] });
  assert.equal(unknownType.body.error_code, 'invalid_argument');
  const both = await call(s.c, 'add_rule', { head: [{ type: 'data_property', predicate: 'age', arg1: '?x', arg2: '?a', value: '3' }] });
  assert.match(String(both.body.error), /exactly one of arg2 or value/);
  assert.equal((await listed()).length, 1, 'nothing was added');
});

test('list_rules orders by rendering, and a listed rule replays through add_rule and remove_rule unchanged', async () => {
  await ok('add_rule', {
    head: [{ type: 'class', predicate: 'Adult', arg1: '?x' }],
    body: [{ type: 'class', predicate: 'Person', arg1: '?x' }],
    annotations: [{ value: 'adult' }],
  });
  await ok('add_rule', { head: [{ type: 'class', predicate: 'Person', arg1: '?x' }], variable_namespace: 'urn:other#' });
  const rules = await listed();
  const renderings = rules.map((r) => String(r.rendering));
  assert.deepEqual(renderings, [...renderings].sort());
  assert.deepEqual(
    rules.map((r) => r.index),
    [0, 1, 2],
  );
  const again = await ok('list_rules');
  assert.deepEqual(again, await ok('list_rules'), 'unchanged state lists identically');
  for (const r of rules) {
    const { index: _index, variables: _variables, rendering: _rendering, ...replay } = r;
    const added = await ok('add_rule', replay);
    assert.equal(added.already_present, true, `replay of ${String(r.rendering)}`);
  }
  const { index: _i, variables: _v, rendering: _r, ...last } = at(rules, 2);
  const removed = await ok('remove_rule', last);
  assert.equal(removed.removed, 1);
  assert.equal((removed.rule as Row).rendering, at(rules, 2).rendering);
  assert.equal((await listed()).length, 2);
  await ok('undo_change');
  assert.equal((await listed()).length, 3);
});

test('remove_rule by index and by label (all matches), each an undo entry', async () => {
  await ok('add_rule', { head: [{ type: 'class', predicate: 'Adult', arg1: '?z' }], annotations: [{ value: 'adult' }] });
  const before = await listed();
  assert.equal(before.length, 4);
  const depth = await undoDepth(s.c);
  const byLabel = await ok('remove_rule', { label: 'adult' });
  assert.equal(byLabel.removed, 2);
  assert.equal((byLabel.rules as Row[]).length, 2);
  assert.equal(await undoDepth(s.c), depth + 1);
  assert.equal((await listed()).length, 2);
  await ok('undo_change');
  const byIndex = await ok('remove_rule', { index: 3 });
  assert.equal(byIndex.removed, 1);
  assert.equal(at(byIndex.rules as Row[], 0).rendering, at(before, 3).rendering);
  await ok('undo_change');
  const labelled = before.findIndex((r) => (r.annotations as Row[] | undefined)?.some((a) => a.value === 'adult'));
  const unlabelled = before.findIndex((r) => r.annotations === undefined);
  const mismatch = await call(s.c, 'remove_rule', { index: unlabelled, label: 'adult' });
  assert.equal(mismatch.body.error_code, 'not_found', 'index and label together must both match');
  const both = await ok('remove_rule', { index: labelled, label: 'adult' });
  assert.equal(both.removed, 1);
  assert.equal(at(both.rules as Row[], 0).rendering, at(before, labelled).rendering);
  await ok('undo_change');
  assert.equal((await listed()).length, 4);
});

test('remove_rule errors: no identifier, absent rule, index out of range, unknown label', async () => {
  const none = await call(s.c, 'remove_rule', {});
  assert.equal(none.body.error_code, 'invalid_argument');
  assert.match(String(none.body.error), /Identify the rule/);
  const absent = await call(s.c, 'remove_rule', { head: [{ type: 'class', predicate: 'Person', arg1: '?nobody' }] });
  assert.equal(absent.body.error_code, 'not_found');
  assert.match(String(absent.body.error), /No such rule/);
  const range = await call(s.c, 'remove_rule', { index: 99 });
  assert.equal(range.body.error_code, 'not_found');
  assert.equal(range.body.count, 4);
  const label = await call(s.c, 'remove_rule', { label: 'no such label' });
  assert.equal(label.body.error_code, 'not_found');
  const negative = await call(s.c, 'remove_rule', { index: -1 });
  assert.equal(negative.body.error_code, 'invalid_argument');
  assert.equal((await listed()).length, 4);
});

test('validate_rules reports against the selected reasoner without executing, paged under a snapshot fingerprint', async () => {
  const auto = await ok('validate_rules');
  assert.equal(auto.executed_rules, false);
  assert.equal(auto.parsed_every_atom, true);
  assert.deepEqual(auto.reasoner, { id: 'auto', name: 'Athene Automatic Reasoner 0.1.0' }, 'a new window selects the automatic reasoner');
  assert.equal(auto.coverage_complete, true, 'auto: support known');
  assert.deepEqual(auto.totals, { supported: 0, unsupported: 4, unknown: 0 }, 'auto ignores SWRL rules');
  assert.equal(auto.compatible, false);
  await ok('set_reasoner', { reasoner: 'el' });
  await ok('add_rule', {
    head: [{ type: 'builtin', builtin: 'http://example.org/custom#magic', args: ['?q'] }],
    body: [{ type: 'class', predicate: 'Person', arg1: '?q' }],
  });
  const first = await ok('validate_rules', { limit: 3 });
  assert.equal(first.compatible, false);
  assert.equal(first.coverage_complete, true);
  assert.equal(first.count, 5);
  assert.deepEqual(first.totals, { supported: 0, unsupported: 5, unknown: 0 });
  assert.equal(first.returned, 3);
  assert.equal(first.next_offset, 3);
  assert.equal((first.incompatible_rule_summaries as Row[]).length, 5);
  const magic = (first.incompatible_rule_summaries as Row[]).filter((r) => (r.finding_codes as string[]).includes('unknown_builtin'));
  assert.equal(magic.length, 1, 'an unknown built-in is always unsupported');
  assert.match(String(first.snapshot_fingerprint), /^sha256:[0-9a-f]{64}$/);
  const row = at(first.rules as Row[], 0);
  assert.equal(row.index, 0);
  assert.equal(row.dl_safety_status, 'not_evaluated_by_engine');
  assert.deepEqual(row.sources, { count: 1, items: ['http://example.org/fam'] });

  const required = await call(s.c, 'validate_rules', { offset: 3 });
  assert.equal(required.body.error_code, 'rule_validation_snapshot_required');
  const second = await ok('validate_rules', { offset: 3, limit: 3, snapshot_fingerprint: first.snapshot_fingerprint });
  assert.equal(second.returned, 2);
  assert.equal(second.next_offset, undefined);
  assert.deepEqual(
    [...(first.rules as Row[]), ...(second.rules as Row[])].map((r) => r.index),
    [0, 1, 2, 3, 4],
  );
  assert.equal(second.snapshot_fingerprint, first.snapshot_fingerprint);

  await ok('remove_rule', { index: 0 });
  const changed = await call(s.c, 'validate_rules', { offset: 3, snapshot_fingerprint: first.snapshot_fingerprint });
  assert.equal(changed.body.error_code, 'rule_validation_snapshot_changed');
  assert.equal(changed.body.retryable, true);
  const range = await call(s.c, 'validate_rules', { limit: 11 });
  assert.equal(range.body.error_code, 'invalid_argument');
  await ok('undo_change');
});

test('validate_rules fails whole when a rule exceeds the capture budget (512 atoms per rule)', async () => {
  const body = Array.from({ length: 512 }, (_, i) => ({ type: 'class', predicate: 'Person', arg1: `?v${i}` }));
  await ok('add_rule', { body, head: [{ type: 'class', predicate: 'Adult', arg1: '?v0' }] });
  const over = await call(s.c, 'validate_rules');
  assert.equal(over.isError, true);
  assert.equal(over.body.error_code, 'rule_validation_budget_exceeded');
  assert.equal(over.body.limit, 512);
  assert.equal(over.body.value, 513);
  await ok('undo_change');
  assert.equal((await ok('validate_rules')).count, 5, 'the undo brought the corpus back within budget');
});

test('a read-only server refuses add_rule and remove_rule but lists and validates', async () => {
  const ro = await serveTempOntology('athene-rules-ro-', 'fam.ofn', ONTOLOGY, { read_only: true });
  try {
    const add = await call(ro.c, 'add_rule', ADULT_RULE);
    assert.equal(add.body.error_code, 'read_only');
    const remove = await call(ro.c, 'remove_rule', { index: 0 });
    assert.equal(remove.body.error_code, 'read_only');
    assert.equal((await callOk(ro.c, 'list_rules')).count, 1);
    assert.equal((await callOk(ro.c, 'validate_rules')).count, 1);
  } finally {
    await ro.close();
  }
});

test('class-expression and data-range atoms list and replay; include_imports widens list_rules to the closure', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-rules-imports-'));
  try {
    const base = path.join(dir, 'base.ofn');
    const main = path.join(dir, 'main.ofn');
    await writeFile(
      base,
      `Prefix(:=<${EX}>)
Ontology(<http://example.org/base>
Declaration(Class(:Person))
DLSafeRule(Body(ClassAtom(:Person Variable(<${VAR}b>))) Head(ClassAtom(:Person Variable(<${VAR}b>))))
)
`,
    );
    await writeFile(
      main,
      `Prefix(:=<${EX}>)
Ontology(<http://example.org/main>
Import(<http://example.org/base>)
Declaration(Class(:Adult))
Declaration(ObjectProperty(:hasParent))
)
`,
    );
    const served = await serveAndConnect([main]);
    try {
      const okIn = (name: string, args: Row = {}) => callOk(served.c, name, args);
      await okIn('load_ontology', { source: base, keep_active: true });
      const added = await okIn('add_rule', {
        body: [
          { type: 'class', predicate: 'Person and (hasParent some Adult)', arg1: '?x' },
          { type: 'data_range', predicate: 'xsd:integer[>= 0]', value: '5', datatype: 'xsd:integer' },
        ],
        head: [{ type: 'class', predicate: 'Adult', arg1: '?x' }],
      });
      const body = (added.rule as Row).body as Row[];
      assert.equal(at(body, 0).predicate_iri, undefined, 'an anonymous class has no predicate_iri');
      assert.deepEqual(body[1], { type: 'data_range', predicate: 'xsd:integer[>= 0]', value: '5', datatype: XSD + 'integer' });
      const own = await okIn('list_rules');
      assert.equal(own.count, 1);
      const { index: _i, variables: _v, rendering: _r, ...replay } = at(own.rules as Row[], 0);
      assert.equal((await okIn('add_rule', replay)).already_present, true);
      const closure = await okIn('list_rules', { include_imports: true });
      assert.equal(closure.count, 2);
      const validated = await okIn('validate_rules');
      assert.equal(validated.count, 2, 'validate_rules covers the imports closure by default');
      assert.equal((await okIn('validate_rules', { include_imports: false })).count, 1);
    } finally {
      await served.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
