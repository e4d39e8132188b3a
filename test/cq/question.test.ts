// The competency-question entry and its `expected` grammar (TOOLS.md add_competency_question): what parses,
// what is refused with a precise message, and that an entry survives serialization unchanged.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CqFormatError, expectedFrom, expectedText, parseExpected, questionFrom, questionJson } from '../../src/cq/question.js';
import { judge, OPEN_WORLD_CAVEAT, sameRowSet } from '../../src/cq/judge.js';

test('expected: nonEmpty, empty and count OP N parse; anything else is refused with the grammar', () => {
  assert.deepEqual(parseExpected('nonEmpty'), { kind: 'nonEmpty' });
  assert.deepEqual(parseExpected(' empty '), { kind: 'empty' });
  for (const op of ['>=', '<=', '==', '>', '<']) assert.deepEqual(parseExpected(`count ${op} 3`), { kind: 'count', op, value: 3 });
  assert.deepEqual(parseExpected('count>=12'), { kind: 'count', op: '>=', value: 12 });
  for (const bad of ['nonempty', 'count = 3', 'count >= -1', 'count >= 1.5', 'count', 'some']) {
    assert.throws(
      () => parseExpected(bad),
      (e: Error) => e instanceof CqFormatError && /nonEmpty, empty or count OP N/.test(e.message),
      bad,
    );
  }
  assert.throws(() => parseExpected('exactRows'), /only in a sidecar manifest/);
  assert.equal(expectedText(parseExpected('count == 0')), 'count == 0');
});

test('exactRows is an object with rows of strings or terms; malformed rows are refused', () => {
  const e = expectedFrom({
    kind: 'exactRows',
    rows: [{ x: 'http://e/a' }, { x: { type: 'literal', value: '1', datatype: 'http://www.w3.org/2001/XMLSchema#integer' } }],
  });
  assert.equal(expectedText(e), 'exactRows (2 rows)');
  assert.throws(() => expectedFrom({ kind: 'exactRows' }), /rows must be an array/);
  assert.throws(() => expectedFrom({ kind: 'exactRows', rows: [{ x: 3 }] }), /expected\.rows\[0\]\.x/);
  assert.throws(() => expectedFrom({ kind: 'count', op: '>=', value: -2 }), /non-negative integer/);
});

test('an entry round-trips through its JSON shape; defaults are filled in', () => {
  const q = questionFrom({ id: 'CQ-1', query: 'SELECT ?x WHERE { ?x a owl:Class }' });
  assert.deepEqual(questionJson(q), {
    id: 'CQ-1',
    query_lang: 'sparql',
    query: 'SELECT ?x WHERE { ?x a owl:Class }',
    include_inferred: true,
    expected: { kind: 'nonEmpty' },
  });
  const full = {
    id: 'cq.2',
    text: 'Which dogs?',
    type: 'Scoping',
    query_lang: 'sparql',
    query: 'ASK {}',
    include_inferred: false,
    expected: { kind: 'count', op: '<', value: 4 },
    tags: ['a', 'b c'],
  };
  assert.deepEqual(questionJson(questionFrom(full)), full);
  assert.deepEqual(questionJson(questionFrom(JSON.parse(JSON.stringify(questionJson(questionFrom(full)))))), full);
});

test('malformed entries are refused with the field at fault', () => {
  const cases: [unknown, RegExp][] = [
    [[], /JSON object/],
    [{ query: 'ASK {}' }, /id must be a string/],
    [{ id: 'a b', query: 'ASK {}' }, /id 'a b' must match/],
    [{ id: 'a', query: '' }, /query must be a non-empty string/],
    [{ id: 'a', query: 'ASK {}', query_lang: 'sql' }, /query_lang must be sparql/],
    [{ id: 'a', query: 'ASK {}', include_inferred: 'yes' }, /include_inferred must be a boolean/],
    [{ id: 'a', query: 'ASK {}', text: 'two\nlines' }, /text must be one line/],
    [{ id: 'a', query: 'ASK {}', tags: [1] }, /tags must be an array of strings/],
    [{ id: 'a', query: 'ASK {}', colour: 'red' }, /unknown field colour/],
  ];
  for (const [value, message] of cases) assert.throws(() => questionFrom(value), message, JSON.stringify(value));
});

test('judging: counts, ASK, open-world caveat for empty, truncation, and exactRows as an unordered set', () => {
  const select = (n: number, rows: Record<string, { type: 'uri'; value: string }>[] = []) => ({
    kind: 'select' as const,
    vars: ['x'],
    total: n,
    rows,
  });
  assert.equal(judge({ kind: 'nonEmpty' }, select(2)).pass, true);
  assert.equal(judge({ kind: 'nonEmpty' }, select(0)).pass, false);
  const empty = judge({ kind: 'empty' }, select(0));
  assert.deepEqual([empty.pass, empty.caveats], [true, [OPEN_WORLD_CAVEAT]]);
  assert.equal(judge({ kind: 'count', op: '>=', value: 3 }, select(3)).pass, true);
  assert.equal(judge({ kind: 'count', op: '<', value: 3 }, select(3)).pass, false);
  assert.deepEqual(judge({ kind: 'nonEmpty' }, { kind: 'ask', boolean: true }).summary, { query_type: 'ASK', boolean: true });
  assert.equal(judge({ kind: 'empty' }, { kind: 'ask', boolean: true }).pass, false);
  const cut = judge({ kind: 'count', op: '==', value: 5 }, select(5, [{ x: { type: 'uri', value: 'http://e/a' } }]));
  assert.equal(cut.pass, true, 'the row count is exact even when rows are cut');
  assert.match(cut.caveats.join(' '), /truncated at limit: 4 of 5/);
  const a = { x: { type: 'uri' as const, value: 'http://e/a' } };
  const b = { x: { type: 'uri' as const, value: 'http://e/b' } };
  assert.equal(sameRowSet([{ x: 'http://e/b' }, { x: 'http://e/a' }], [a, b, a]), true, 'order and duplicates do not matter');
  assert.equal(sameRowSet([{ x: 'http://e/a' }], [a, b]), false);
  assert.equal(sameRowSet([{ x: { type: 'literal', value: 'http://e/a' } }], [a]), false, 'a typed cell compares the term type');
  assert.equal(
    judge({ kind: 'exactRows', rows: [{ x: 'http://e/a' }] }, select(2, [a])).pass,
    false,
    'a truncated answer cannot be judged exactly',
  );
});
