// Baseline manifests (run_release_gate `baseline_manifest`) over real files: a release written by the
// containment-enforcing writer verifies and diffs; the manifest must be strict canonical JSON of the closed
// schema, small, inside the project root; every recorded artifact must be a contained regular file of the
// recorded size and digest. Each failure is one release.baseline_invalid finding naming the reason.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadOntologyFile } from '../../src/model/io.js';
import { resolvePolicy } from '../../src/policy/resolve.js';
import type { PolicyResolution } from '../../src/policy/resolution.js';
import type { ToolContext } from '../../src/tools/core/tool.js';
import type { Ontology } from '../../src/model/ontology.js';
import { checkBaseline, MAX_MANIFEST_BYTES } from '../../src/release/baseline.js';
import { buildRelease, writeRelease } from '../../src/release/artifacts.js';
import { parseManifest, serializeManifest, type Manifest } from '../../src/release/manifest.js';
import { toolContext } from '../support/tool-context.js';
import { gateResult } from './support.js';
import { at } from '../support/at.js';

const ONTOLOGY = `<http://example.org/g> a <http://www.w3.org/2002/07/owl#Ontology> .
<http://example.org/g#A> a <http://www.w3.org/2002/07/owl#Class> .
`;

let dir: string;
let out: string;
let ctx: ToolContext;
let res: PolicyResolution;
let current: Ontology;
let manifest: Manifest;

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'athene-baseline-'));
  await mkdir(path.join(dir, '.athene'));
  await writeFile(path.join(dir, '.athene', 'project.yaml'), 'version: 1\nproject_id: g-demo\nroot_ontology: http://example.org/g\n');
  await writeFile(path.join(dir, 'g.ttl'), ONTOLOGY);
  current = await loadOntologyFile(path.join(dir, 'g.ttl'));
  ctx = toolContext([current]);
  res = await resolvePolicy(ctx);
  assert.equal(res.valid, true, JSON.stringify(res.errors));
  out = path.join(dir, 'release');
  const bundle = buildRelease(gateResult(), '2026-01-01T00:00:00Z');
  manifest = bundle.manifest;
  await writeRelease(out, bundle.files);
});
after(() => rm(dir, { recursive: true, force: true }));

const check = (file: string) => checkBaseline(ctx, 'run_release_gate', file, res, current);

/** Runs `body` with `release/manifest.json` holding `text`, then restores the written one. */
async function withManifest(text: string, body: () => Promise<void>): Promise<void> {
  const file = path.join(out, 'manifest.json');
  const original = await readFile(file, 'utf8');
  await writeFile(file, text);
  try {
    await body();
  } finally {
    await writeFile(file, original);
  }
}

async function assertInvalid(file: string, reason: RegExp): Promise<void> {
  const r = await check(file);
  assert.equal(r.outcome.status, 'invalid');
  assert.match((r.outcome as { reason: string }).reason, reason);
  assert.deepEqual(
    r.findings.map((f) => [f.rule_id, f.severity, f.source]),
    [['release.baseline_invalid', 'error', 'release']],
  );
}

test('a written release verifies: every artifact checked, the asserted diff against its serialization', async () => {
  const r = await check('release/manifest.json');
  assert.deepEqual(r.findings, []);
  const b = r.outcome;
  assert.equal(b.status, 'compared');
  if (b.status !== 'compared') return;
  assert.deepEqual([b.manifest, b.verified_artifacts, b.baseline_created_at], ['release/manifest.json', 6, '2026-01-01T00:00:00Z']);
  assert.deepEqual(b.diff.removed, [], 'the baseline declared the ontology only');
  assert.deepEqual(b.diff.added, ['Declaration(Class(<http://example.org/g#A>))']);
  assert.deepEqual(
    await check(path.join(out, 'manifest.json')).then((x) => x.outcome),
    b,
    'absolute or project-relative: the same manifest',
  );
});

test('no baseline: not_compared, no finding', async () => {
  assert.deepEqual(await checkBaseline(ctx, 'run_release_gate', undefined, res, current), {
    outcome: { compared: false, status: 'not_compared' },
    findings: [],
  });
});

test('a manifest that is not strict canonical JSON of the schema is refused', async () => {
  const canonical = serializeManifest(manifest);
  await withManifest('{"manifest_version": 1', () => assertInvalid('release/manifest.json', /not JSON/));
  await withManifest(JSON.stringify(manifest), () => assertInvalid('release/manifest.json', /canonical form/));
  await withManifest(canonical.replace('{\n', '{\n  "gate": "pass",\n'), () => assertInvalid('release/manifest.json', /canonical form/));
  await withManifest(canonical + '[]', () => assertInvalid('release/manifest.json', /not JSON/));
  await withManifest(serializeManifest({ ...manifest, extra: 1 } as Manifest), () =>
    assertInvalid('release/manifest.json', /not a release manifest/),
  );
  await withManifest(' '.repeat(MAX_MANIFEST_BYTES + 1), () => assertInvalid('release/manifest.json', /larger than/));
  assert.equal(parseManifest(canonical).ok, true);
});

test('a missing manifest, or one outside the project root, is refused', async () => {
  await assertInvalid('release/nothing.json', /does not exist/);
  const outside = await mkdtemp(path.join(os.tmpdir(), 'athene-baseline-outside-'));
  try {
    await writeFile(path.join(outside, 'manifest.json'), serializeManifest(manifest));
    await assertInvalid(path.join(outside, 'manifest.json'), /may not be read|outside the project root/);
  } finally {
    await rm(outside, { recursive: true, force: true });
  }
});

test('every recorded artifact is verified: size, digest, plain relative path, containment, regular file', async () => {
  const withArtifact = (i: number, change: Partial<Manifest['artifacts'][number]>) =>
    serializeManifest({ ...manifest, artifacts: manifest.artifacts.map((a, j) => (j === i ? { ...a, ...change } : a)) });
  const qcMd = manifest.artifacts.findIndex((a) => a.path === 'reports/qc.md');
  await withManifest(withArtifact(qcMd, { bytes: at(manifest.artifacts, qcMd).bytes + 1 }), () =>
    assertInvalid('release/manifest.json', /reports\/qc\.md has \d+ bytes/),
  );
  await withManifest(withArtifact(qcMd, { sha256: 'sha256:' + '0'.repeat(64) }), () =>
    assertInvalid('release/manifest.json', /does not match its recorded sha256/),
  );
  await withManifest(withArtifact(qcMd, { path: '../g.ttl' }), () => assertInvalid('release/manifest.json', /not a plain relative path/));
  await withManifest(withArtifact(qcMd, { path: 'reports/gone.md' }), () => assertInvalid('release/manifest.json', /does not exist/));
  await withManifest(withArtifact(0, { role: 'qc_json' }), () => assertInvalid('release/manifest.json', /exactly one ontology artifact/));
  const outside = await mkdtemp(path.join(os.tmpdir(), 'athene-baseline-link-'));
  try {
    await writeFile(path.join(outside, 'x.md'), await readFile(path.join(out, 'reports', 'qc.md')));
    await symlink(path.join(outside, 'x.md'), path.join(out, 'reports', 'link.md'));
    await withManifest(withArtifact(qcMd, { path: 'reports/link.md' }), () =>
      assertInvalid('release/manifest.json', /resolves outside the project root/),
    );
    await mkdir(path.join(out, 'reports', 'dir.md'));
    await withManifest(withArtifact(qcMd, { path: 'reports/dir.md' }), () => assertInvalid('release/manifest.json', /not a regular file/));
  } finally {
    await rm(outside, { recursive: true, force: true });
    await rm(path.join(out, 'reports', 'link.md'), { force: true });
    await rm(path.join(out, 'reports', 'dir.md'), { recursive: true, force: true });
  }
  assert.equal((await check('release/manifest.json')).outcome.status, 'compared', 'the untouched release still verifies');
});

test('the writer refuses a target that resolves outside the output directory, writing nothing', async () => {
  const target = await mkdtemp(path.join(os.tmpdir(), 'athene-release-escape-'));
  const outside = await mkdtemp(path.join(os.tmpdir(), 'athene-release-elsewhere-'));
  try {
    await symlink(outside, path.join(target, 'reports'));
    const bundle = buildRelease(gateResult(), '2026-01-01T00:00:00Z');
    await assert.rejects(writeRelease(target, bundle.files), /reports\/qc\.json resolves outside the output directory/);
    await assert.rejects(readFile(path.join(target, 'g-demo.ttl')), { code: 'ENOENT' });
  } finally {
    await rm(target, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  }
});
