import test from 'node:test';
import assert from 'node:assert/strict';
import { policyTemplate, type TemplateInput } from '../../src/policy/template.js';
import { validatePolicyData } from '../../src/policy/schema.js';
import { parseStrictYaml } from '../../src/policy/yaml.js';

const input: TemplateInput = {
  projectId: 'zoo',
  rootOntology: 'http://example.org/zoo',
  rootArtifact: 'ontology/zoo.ttl',
  format: 'turtle',
  profile: 'general',
  version: 1,
  reasoner: 'Athene EL++ Classifier',
};

for (const variant of [
  input,
  { ...input, profile: 'obo', format: 'obo', rootArtifact: 'ontology/zoo-edit.obo' },
  { ...input, version: 2 },
] as TemplateInput[]) {
  test(`the ${variant.profile} v${variant.version} template passes strict YAML and the schema, with safe defaults`, () => {
    const yaml = parseStrictYaml(policyTemplate(variant));
    assert.ok(yaml.ok, JSON.stringify(yaml));
    const schema = validatePolicyData(yaml.value);
    assert.ok(schema.ok, JSON.stringify(schema));
    const p = schema.policy;
    assert.deepEqual(
      [p.version, p.project_id, p.root_ontology, p.root_artifact],
      [variant.version, 'zoo', 'http://example.org/zoo', variant.rootArtifact],
    );
    assert.deepEqual(
      [p.filesystem.allow_external_paths, p.network.default, p.imports.mode, p.imports.network],
      [false, 'deny', 'unlocked', 'deny'],
    );
    assert.equal(p.interoperability.owl_profile, variant.profile === 'obo' ? 'EL' : 'DL');
    assert.equal(p.interoperability.format, variant.format);
    assert.equal(p.reasoning.reasoner, 'Athene EL++ Classifier');
    assert.equal(p.invariants, undefined, 'asset blocks are commented out');
    assert.equal('external_terms' in p, variant.version === 2);
  });
}
