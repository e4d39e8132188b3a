import test from 'node:test';
import assert from 'node:assert/strict';
import { MAX_POLICY_BYTES, parseStrictYaml, type YamlIssue } from '../../src/policy/yaml.js';
import { at } from '../support/at.js';

const SECRET = 'hunter2-top-secret';

function rejected(text: string): readonly YamlIssue[] {
  const r = parseStrictYaml(text);
  assert.equal(r.ok, false, 'expected a rejection');
  if (r.ok) throw new Error('unreachable');
  for (const i of r.issues) assert.ok(!i.message.includes(SECRET), `message echoes content: ${i.message}`);
  return r.issues;
}

test('a plain mapping parses to JSON data; core tags and comments are fine', () => {
  const r = parseStrictYaml('# comment\nversion: 1\nname: !!str 12\nlist: [a, b]\nnested: {x: true}\n');
  assert.deepEqual(r, { ok: true, value: { version: 1, name: '12', list: ['a', 'b'], nested: { x: true } } });
  assert.deepEqual(parseStrictYaml('flag: yes\n'), { ok: true, value: { flag: 'yes' } }, 'YAML 1.2: yes is a string');
});

test('duplicate keys are rejected with their line and column', () => {
  const [issue] = rejected(`a: 1\nb:\n  c: ${SECRET}\n  c: 2\n`);
  assert.ok(issue);
  assert.equal(issue.code, 'yaml_syntax');
  assert.match(issue.message, /duplicate mapping key at line 4, column 3/);
  assert.equal(issue.line, 4);
  assert.equal(issue.column, 3);
});

test('anchors and aliases are rejected', () => {
  const codes = rejected(`a: &x ${SECRET}\nb: *x\n`)
    .map((i) => i.code)
    .sort();
  assert.deepEqual(codes, ['yaml_alias', 'yaml_anchor']);
});

test('custom tags are rejected, and so are unknown ones', () => {
  const issues = rejected(`a: !secret ${SECRET}\n`);
  assert.ok(
    issues.some((i) => i.code === 'yaml_tag' || /unknown tag/.test(i.message)),
    JSON.stringify(issues),
  );
  assert.ok(rejected(`a: !!binary ${SECRET}\n`).length > 0);
});

test('a trailing document is rejected, and an empty file too', () => {
  const [issue] = rejected(`a: 1\n---\nb: ${SECRET}\n`);
  assert.ok(issue);
  assert.equal(issue.code, 'yaml_multiple_documents');
  assert.equal(issue.line, 2);
  assert.equal(at(rejected(''), 0).code, 'yaml_empty');
  assert.equal(at(rejected('# only a comment\n'), 0).code, 'yaml_empty');
});

test('non-string keys are rejected', () => {
  assert.equal(at(rejected(`1: ${SECRET}\n`), 0).code, 'yaml_key');
  assert.equal(at(rejected(`? [a, b]\n: ${SECRET}\n`), 0).code, 'yaml_key');
});

test('syntax errors carry a position and never quote the source', () => {
  const issues = rejected(`a: "${SECRET}\nb: 2\n`);
  assert.ok(
    issues.every((i) => i.line !== undefined && i.column !== undefined),
    JSON.stringify(issues),
  );
});

test('files over 1 MiB are rejected before parsing', () => {
  const big = `a: "${'x'.repeat(MAX_POLICY_BYTES)}"\n`;
  const [issue] = rejected(big);
  assert.ok(issue);
  assert.equal(issue.code, 'yaml_too_large');
  assert.equal(parseStrictYaml(`a: "${'x'.repeat(1000)}"\n`).ok, true);
});
