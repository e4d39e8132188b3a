// The release reports as pure functions of the gate result: JUnit XML well-formed (parsed by saxes) with
// consistent counts, SARIF 2.1.0 shape, an RO-Crate 1.1 graph whose every part is described, bounded and
// escaped Markdown, and every report deterministic except its created_at.
/* eslint-disable @typescript-eslint/no-explicit-any -- the SARIF and RO-Crate documents are walked as untyped JSON */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import { SaxesParser } from 'saxes';
import { qcJunit } from '../../src/release/reports/junit.js';
import { qcSarif, qcSarifText } from '../../src/release/reports/sarif.js';
import { roCrate, type CrateFile } from '../../src/release/reports/ro-crate.js';
import { cell, MAX_FINDING_ROWS, MAX_MARKDOWN_CHARS, qcMarkdown } from '../../src/release/reports/markdown.js';
import { qcJsonText } from '../../src/release/reports/qc-json.js';
import { buildRelease } from '../../src/release/artifacts.js';
import { parseManifest } from '../../src/release/manifest.js';
import { D, gateResult, governanceFinding } from './support.js';
import { at } from '../support/at.js';

const CREATED = '2026-02-01T08:30:00Z';

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** Parses `xml` strictly (saxes throws on anything not well-formed) into a small element tree. */
function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser();
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  parser.on('opentag', (t) => {
    const el: XmlElement = { name: t.name, attributes: t.attributes as Record<string, string>, children: [], text: '' };
    if (stack.length > 0) at(stack, stack.length - 1).children.push(el);
    else root = el;
    stack.push(el);
  });
  parser.on('text', (s) => {
    if (stack.length > 0) at(stack, stack.length - 1).text += s;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.write(xml).close();
  return root!;
}

test('JUnit: well-formed XML, one suite per stage, counts that add up, failures for unwaived errors only', () => {
  const g = gateResult({ findings: [governanceFinding(2, 'an <error> & "quote"'), ...gateResult().findings] });
  const xml = qcJunit(g, CREATED);
  const root = parseXml(xml);
  assert.equal(root.name, 'testsuites');
  assert.deepEqual(
    root.children.map((s) => s.attributes.name),
    ['governance', 'interoperability', 'release'],
  );
  for (const suite of root.children) {
    const cases = suite.children.filter((c) => c.name === 'testcase');
    const has = (n: string) => cases.filter((c) => c.children.some((x) => x.name === n)).length;
    assert.equal(Number(suite.attributes.tests), cases.length, suite.attributes.name);
    assert.equal(Number(suite.attributes.failures), has('failure'));
    assert.equal(Number(suite.attributes.skipped), has('skipped'));
    assert.equal(at(suite.children, 0).name, 'properties', 'properties come first');
  }
  const sum = (k: string) => root.children.reduce((n, s) => n + Number(s.attributes[k]), 0);
  assert.deepEqual(
    ['tests', 'failures', 'errors', 'skipped'].map((k) => Number(root.attributes[k])),
    ['tests', 'failures', 'errors', 'skipped'].map(sum),
  );
  const governance = at(root.children, 0).children.filter((c) => c.name === 'testcase');
  const failure = governance.flatMap((c) => c.children).find((x) => x.name === 'failure')!;
  assert.equal(failure.attributes.message, 'an <error> & "quote"', 'escaped in the file, the same text once parsed');
  assert.ok(governance.some((c) => c.children.some((x) => x.name === 'skipped' && x.attributes.message === 'waived: next import')));
  assert.ok(!xml.includes('\u0001'), 'characters XML cannot carry are replaced');
  const interop = at(root.children, 1).children.filter((c) => c.name === 'testcase');
  assert.equal(at(at(interop, 0).children, 0).attributes.message, 'no <engine> & "quotes"');
});

test('SARIF 2.1.0: version, schema, driver rules indexed by results, levels, fingerprints and suppressions', () => {
  const g = gateResult();
  const sarif = qcSarif(g, CREATED) as { version: string; $schema: string; runs: Record<string, any>[] };
  assert.equal(sarif.version, '2.1.0');
  assert.match(sarif.$schema, /sarif-2\.1\.0/);
  assert.equal(sarif.runs.length, 1);
  const run = at(sarif.runs, 0);
  const rules = run.tool.driver.rules as { id: string }[];
  assert.equal(run.tool.driver.name, 'Athene');
  assert.deepEqual(
    rules.map((r) => r.id),
    ['annotations.label_missing', 'release.license_unavailable'],
  );
  const results = run.results as Record<string, any>[];
  assert.equal(results.length, g.findings.length);
  for (const [i, r] of results.entries()) {
    assert.equal(at(rules, r.ruleIndex).id, r.ruleId);
    assert.ok(['error', 'warning', 'note'].includes(r.level));
    assert.equal(typeof r.message.text, 'string');
    assert.equal(r.partialFingerprints['atheneFindingId/v1'], at(g.findings, i).id);
    assert.equal(r.locations[0].physicalLocation.artifactLocation.uri, 'g-demo.ttl');
  }
  assert.equal(at(results, 1).suppressions[0].justification, 'next import');
  assert.equal(results.filter((r) => r.suppressions !== undefined).length, 1);
  assert.deepEqual(run.invocations, [{ executionSuccessful: true, endTimeUtc: CREATED }]);
  assert.deepEqual(
    at((qcSarif(g, 'PREVIEW') as { runs: Record<string, any>[] }).runs, 0).invocations,
    [{ executionSuccessful: true }],
    'no time on a preview',
  );
});

test('RO-Crate 1.1: descriptor, root dataset with the required properties, every part described with its digest', () => {
  const g = gateResult();
  const files: CrateFile[] = [
    { path: 'g-demo.ttl', name: 'the released ontology', media_type: 'text/turtle', sha256: D('1'), bytes: 10 },
    { path: 'reports/qc.json', name: 'QC report (JSON)', media_type: 'application/json', sha256: D('2'), bytes: 20 },
  ];
  const crate = roCrate(g, CREATED, files) as { '@context': string; '@graph': Record<string, any>[] };
  assert.equal(crate['@context'], 'https://w3id.org/ro/crate/1.1/context');
  const byId = new Map(crate['@graph'].map((e) => [e['@id'], e]));
  assert.equal(byId.size, crate['@graph'].length, 'every @id once');
  const descriptor = byId.get('ro-crate-metadata.json')!;
  assert.deepEqual(
    [descriptor['@type'], descriptor.conformsTo, descriptor.about],
    ['CreativeWork', { '@id': 'https://w3id.org/ro/crate/1.1' }, { '@id': './' }],
  );
  const root = byId.get('./')!;
  assert.equal(root['@type'], 'Dataset');
  assert.deepEqual(
    [root.name, root.datePublished, root.license, root.version],
    ['G & <demo>', CREATED, { '@id': 'https://creativecommons.org/licenses/by/4.0/' }, 'http://example.org/g/2'],
  );
  assert.equal(typeof root.description, 'string');
  for (const part of root.hasPart as { '@id': string }[]) {
    const entity = byId.get(part['@id'])!;
    assert.equal(entity['@type'], 'File');
    assert.match(entity.sha256, /^[0-9a-f]{64}$/);
    assert.match(entity.contentSize, /^\d+$/);
  }
  const dataset = byId.get(root.mentions[0]['@id'])!;
  assert.deepEqual([dataset.encodingFormat, dataset.sha256], ['application/n-quads', 'c'.repeat(64)]);
  assert.equal(byId.get('https://creativecommons.org/licenses/by/4.0/')!['@type'], 'CreativeWork', 'the license is a contextual entity');
});

test('Markdown: values escaped, at most MAX_FINDING_ROWS findings, bounded size', () => {
  assert.equal(cell('a | b <script>'), 'a \\| b \\<script\\>');
  assert.equal(cell(null), '—');
  const many = Array.from({ length: 500 }, (_, i) => governanceFinding(i, 'x'.repeat(1000)));
  const md = qcMarkdown(gateResult({ findings: many, finding_count: 500 }), CREATED);
  assert.ok(md.length <= MAX_MARKDOWN_CHARS);
  const rows = md.split('\n').filter((l) => l.startsWith('| governance | ') && l.includes('annotations'));
  assert.ok(rows.length <= MAX_FINDING_ROWS);
  assert.ok(
    rows.every((r) => r.length < 600),
    'each cell is bounded',
  );
  assert.match(md, /^# Release gate: g-demo\n/);
  assert.match(qcMarkdown(gateResult(), CREATED), /label \\\| \\<b\\>bold\\<\/b\\>/);
});

test('every report and the manifest are deterministic: the same result gives the same bytes, created_at aside', () => {
  const g = gateResult();
  const a = buildRelease(g, CREATED);
  const b = buildRelease(gateResult(), CREATED);
  assert.deepEqual(
    a.files.map((f) => f.sha256),
    b.files.map((f) => f.sha256),
  );
  const later = '2027-03-04T05:06:07Z';
  const texts: [string, string][] = [
    [qcJsonText(g, CREATED), qcJsonText(g, later)],
    [qcSarifText(g, CREATED), qcSarifText(g, later)],
    [qcJunit(g, CREATED), qcJunit(g, later)],
  ];
  for (const [x, y] of texts) {
    assert.notEqual(x, y);
    assert.equal(x.replaceAll(CREATED, later), y, 'only created_at differs');
  }
  assert.deepEqual(
    a.files.map((f) => f.path),
    ['g-demo.ttl', 'reports/qc.json', 'reports/qc.md', 'reports/qc.xml', 'reports/qc.sarif', 'ro-crate-metadata.json', 'manifest.json'],
  );
  assert.deepEqual(
    a.manifest.artifacts.map((x) => x.path),
    a.files.slice(0, -1).map((f) => f.path),
    'the manifest records every other file',
  );
});

test('no manifest for a result with a blocker', () => {
  assert.throws(() => buildRelease(gateResult({ manifest_blocker: 'session-only fingerprints' }), CREATED), /session-only/);
});

test('golden shapes: the manifest and qc.json keep their field sets and order, the manifest parses back', () => {
  const bundle = buildRelease(gateResult(), CREATED);
  assert.deepEqual(Object.keys(bundle.manifest), [
    'manifest_version',
    'generator',
    'project_id',
    'policy_digest',
    'created_at',
    'gate',
    'ontology',
    'fingerprints',
    'imports',
    'baseline',
    'artifacts',
  ]);
  assert.deepEqual(bundle.manifest.ontology, {
    iri: 'http://example.org/g',
    version_iri: 'http://example.org/g/2',
    format: 'turtle',
    path: 'g-demo.ttl',
  });
  assert.deepEqual(Object.keys(at(bundle.manifest.artifacts, 0)), ['path', 'role', 'media_type', 'sha256', 'bytes']);
  assert.deepEqual(
    bundle.manifest.artifacts.map((a) => a.role),
    ['ontology', 'qc_json', 'qc_markdown', 'qc_junit', 'qc_sarif', 'ro_crate'],
  );
  const manifestText = bundle.files.at(-1)!.text;
  assert.deepEqual(parseManifest(manifestText), { ok: true, manifest: bundle.manifest });
  const json = JSON.parse(bundle.files.find((f) => f.path === 'reports/qc.json')!.text) as Record<string, unknown>;
  assert.deepEqual(Object.keys(json), [
    'report_version',
    'generator',
    'created_at',
    'project_id',
    'policy_digest',
    'gate',
    'ontology',
    'fingerprints',
    'rdf_dataset_identity',
    'fail_on',
    'required_stages',
    'stages',
    'findings',
    'finding_count',
    'network',
    'lock_mode',
    'resolved_imports',
    'network_caveat',
    'round_trip',
    'serialization',
    'baseline',
    'manifest_blocker',
  ]);
  assert.equal(JSON.stringify(json).includes(os.tmpdir()), false, 'no absolute paths');
});
