import test from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson, policyDigest, validatePolicyData, type EffectivePolicy } from '../../src/policy/schema.js';
import { parseStrictYaml } from '../../src/policy/yaml.js';
import type { PolicyIssue } from '../../src/policy/resolution.js';
import { at } from '../support/at.js';

const MINIMAL = { version: 1, project_id: 'zoo', root_ontology: 'http://example.org/zoo' };

function valid(data: unknown): EffectivePolicy {
  const r = validatePolicyData(data);
  assert.ok(r.ok, JSON.stringify(r));
  return r.policy;
}

function invalid(data: unknown): readonly PolicyIssue[] {
  const r = validatePolicyData(data);
  assert.equal(r.ok, false, 'expected the schema to reject it');
  if (r.ok) throw new Error('unreachable');
  return r.errors;
}

function fromYaml(text: string): EffectivePolicy {
  const y = parseStrictYaml(text);
  assert.ok(y.ok, JSON.stringify(y));
  return valid(y.value);
}

test('a minimal version-1 policy gets every default filled in', () => {
  const p = valid(MINIMAL);
  assert.equal(p.project_root, '.');
  assert.deepEqual(p.filesystem, { allow_external_paths: false });
  assert.equal(p.network.default, 'deny');
  assert.equal(p.network.allowed_hosts, undefined);
  assert.deepEqual(p.imports, { mode: 'unlocked' });
  assert.deepEqual(p.reasoning, { required: false, timeout_ms: 120000 });
  assert.deepEqual(p.validation.required_stages, ['profile', 'structural', 'governance']);
  assert.equal(p.validation.fail_on, 'error');
  assert.deepEqual(p.entity_search.preferred_languages, ['en']);
  assert.deepEqual(p.entity_search.fallback_languages, ['und']);
  assert.equal(p.release.output_dir, 'release');
  assert.equal(p.annotations.label.property, 'rdfs:label');
  assert.equal(p.invariants, undefined, 'asset blocks stay absent unless declared');
  assert.equal((p as Record<string, unknown>).external_terms, undefined, 'no v2 blocks in v1');
});

test('unknown fields are rejected at every level, naming the field', () => {
  const top = invalid({ ...MINIMAL, colour: 'red' });
  assert.equal(at(top, 0).code, 'unknown_field');
  assert.match(at(top, 0).message, /unknown field 'colour'/);
  const nested = invalid({ ...MINIMAL, network: { default: 'deny', proxy: 'x' } });
  assert.equal(at(nested, 0).code, 'unknown_field');
  assert.equal(at(nested, 0).path, 'network.proxy');
  const deep = invalid({ ...MINIMAL, annotations: { label: { property: 'rdfs:label', extra: 1 } } });
  assert.equal(at(deep, 0).path, 'annotations.label.extra');
  const inList = invalid({ ...MINIMAL, modules: [{ id: 'core', path: 'core.ttl', owner: 'me' }] });
  assert.equal(at(inList, 0).path, 'modules.0.owner');
});

test('version-2 blocks are unknown in version 1 and accepted (bounded, defaulted) in version 2', () => {
  assert.equal(at(invalid({ ...MINIMAL, jobs: { enabled: true } }), 0).code, 'unknown_field');
  assert.ok(invalid({ ...MINIMAL, validation: { required_stages: ['provider_evidence'] } }).length > 0, 'provider_evidence is a v2 stage');
  const p = valid({
    ...MINIMAL,
    version: 2,
    external_terms: { providers: [{ id: 'ols', profile: 'ols4', origin_alias: 'ebi', ontologies: ['go'] }] },
    mappings: { path: 'mappings/m.sssom.tsv' },
    validation: { required_stages: ['provider_evidence'] },
  });
  assert.equal(p.version, 2);
  if (p.version !== 2) return;
  assert.deepEqual(p.external_terms.providers[0], {
    id: 'ols',
    profile: 'ols4',
    enabled: false,
    origin_alias: 'ebi',
    ontologies: ['go'],
    languages: ['en'],
    ttl_seconds: 3600,
    freshness: 'cache_ok',
    max_results: 20,
  });
  assert.equal(p.jobs.enabled, true);
  assert.equal(p.materialization.max_axioms, 500);
  assert.equal(
    at(
      invalid({
        ...MINIMAL,
        version: 2,
        external_terms: { providers: [{ id: 'ols', profile: 'ols4', origin_alias: 'ebi', ontologies: ['go'], endpoint: 'https://x' }] },
      }),
      0,
    ).code,
    'unknown_field',
    'endpoints never come from the policy',
  );
  assert.ok(
    invalid({
      ...MINIMAL,
      version: 2,
      external_terms: { providers: [{ id: 'ols', profile: 'ols4', origin_alias: 'ebi', ontologies: ['go'], ttl_seconds: 86401 }] },
    }).length > 0,
  );
});

test('required fields, versions and bounds are enforced', () => {
  assert.equal(at(invalid({ version: 1, root_ontology: 'http://example.org/x' }), 0).code, 'missing_field');
  assert.equal(at(invalid({ ...MINIMAL, version: 3 }), 0).code, 'unsupported_version');
  assert.equal(at(invalid({ ...MINIMAL, version: '1' }), 0).code, 'unsupported_version');
  assert.equal(at(invalid([1, 2]), 0).code, 'schema_invalid');
  assert.ok(
    invalid({ ...MINIMAL, entity_search: { preferred_languages: ['en', 'de', 'fr', 'it', 'es'] } }).some((e) =>
      /at most 4/.test(e.message),
    ),
  );
  assert.ok(
    invalid({ ...MINIMAL, entity_search: { preferred_languages: ['en'], fallback_languages: ['en'] } }).some((e) =>
      /disjoint/.test(e.message),
    ),
  );
  assert.ok(invalid({ ...MINIMAL, project_root: '/etc' }).some((e) => e.path === 'project_root'));
  assert.ok(invalid({ ...MINIMAL, imports: { lockfile: 'C:\\x.json' } }).some((e) => e.path === 'imports.lockfile'));
  assert.ok(invalid({ ...MINIMAL, reasoning: { timeout_ms: 0 } }).some((e) => e.path === 'reasoning.timeout_ms'));
  assert.ok(invalid({ ...MINIMAL, validation: { required_stages: ['profile', 'profile'] } }).some((e) => /distinct/.test(e.message)));
  assert.ok(invalid({ ...MINIMAL, network: { allowed_hosts: ['not a host'] } }).some((e) => e.path === 'network.allowed_hosts.0'));
});

test('schema errors never quote the rejected value', () => {
  const secret = 'sk-live-0123456789abcdef';
  const errors = invalid({
    ...MINIMAL,
    project_id: `bad id ${secret}`,
    network: { default: secret },
    release: { format: secret },
    reasoning: { timeout_ms: 987654321 },
  });
  assert.equal(errors.length, 4);
  assert.ok(
    errors.every((e) => !e.message.includes('987654321')),
    JSON.stringify(errors),
  );
  for (const e of errors) assert.ok(!e.message.includes(secret), e.message);
});

test('the digest depends on meaning only: not on key order, comments or spelled-out defaults', () => {
  const a = fromYaml('version: 1\nproject_id: zoo\nroot_ontology: http://example.org/zoo\nnetwork:\n  default: deny\n');
  const b = fromYaml(
    '# the zoo\nnetwork: {default: deny}   # closed\nroot_ontology: "http://example.org/zoo"\nproject_id: zoo\nversion: 1\n',
  );
  const c = fromYaml('version: 1\nproject_id: zoo\nroot_ontology: http://example.org/zoo\nfilesystem: {allow_external_paths: false}\n');
  assert.equal(policyDigest(a), policyDigest(b));
  assert.equal(policyDigest(a), policyDigest(c));
  assert.match(policyDigest(a), /^sha256:[0-9a-f]{64}$/);
  const d = fromYaml('version: 1\nproject_id: zoo\nroot_ontology: http://example.org/zoo\nnetwork: {default: allow}\n');
  assert.notEqual(policyDigest(a), policyDigest(d));
  assert.equal(canonicalJson({ b: 1, a: [2, { d: 1, c: 2 }] }), '{"a":[2,{"c":2,"d":1}],"b":1}');
});
