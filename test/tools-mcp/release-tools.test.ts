// run_release_gate and prepare_release through the real server and SDK client, over a real project policy and
// real files: a passing gate and its previews, a committed release whose files carry the manifest's digests
// (byte-identical when repeated with the same created_at), a dry run and a failed gate writing nothing, a
// verified baseline and a tampered one, an escaping output directory, and a remote-backed import under
// network=deny and network=allow.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, callOk, serveTempOntology, startOrigin, withProjectPolicy, type Row, type ServedTempOntology } from '../server/support.js';
import { sha256Digest } from '../../src/util/digest.js';
import { at } from '../support/at.js';

const REL = 'http://example.org/rel';

const ONTOLOGY = `@prefix : <${REL}#> .
@prefix owl:  <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix dcterms: <http://purl.org/dc/terms/> .

<${REL}> a owl:Ontology ; owl:versionIRI <${REL}/1.0> ;
  dcterms:license <https://creativecommons.org/licenses/by/4.0/> ; dcterms:title "Release demo" .
dcterms:license a owl:AnnotationProperty ; rdfs:label "license"@en .
dcterms:title a owl:AnnotationProperty ; rdfs:label "title"@en .
:Animal a owl:Class ; rdfs:label "animal"@en .
:Dog a owl:Class ; rdfs:subClassOf :Animal ; rdfs:label "dog"@en .
`;

let served: ServedTempOntology;
let dir: string;
let c: Client;

before(async () => {
  served = await serveTempOntology('athene-release-tools-', 'rel.ttl', ONTOLOGY);
  ({ dir, c } = served);
});
after(() => served.close());

const POLICY = `version: 1\nproject_id: rel-demo\nroot_ontology: ${REL}\n`;
const withPolicy = (body: () => Promise<void>, extra = '') => withProjectPolicy(dir, POLICY + extra, body);
const stageOf = (r: Row, stage: string) => (r.stages as Row[]).find((s) => s.stage === stage);
const codes = (r: Row) => (r.findings as Row[]).filter((f) => f.source === 'release').map((f) => f.rule_id);
const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );
const CREATED = '2026-01-31T12:00:00Z';

/** Runs `body` and removes the release directory `name` afterwards. */
async function withOutput(name: string, body: (out: string) => Promise<void>): Promise<void> {
  const out = path.join(dir, name);
  try {
    await body(out);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

test('run_release_gate passes a clean ontology: required release stage, verified round trip, manifest and report previews', async () => {
  await withPolicy(async () => {
    const r = await callOk(c, 'run_release_gate');
    assert.equal(r.gate, 'pass', JSON.stringify(r.findings));
    assert.deepEqual([r.network, r.lock_mode, r.created_at, r.version_iri], ['deny', 'ignore', 'PREVIEW', `${REL}/1.0`]);
    assert.equal((r.required_stages as string[]).at(-1), 'release');
    assert.deepEqual(stageOf(r, 'release'), {
      stage: 'release',
      ran: true,
      required: true,
      status: 'completed',
      verdict: 'pass',
      findings_summary: { total: 0, error: 0, warn: 0, info: 0 },
      identity_digest: (stageOf(r, 'release') as Row).identity_digest,
    });
    assert.deepEqual(r.round_trip, { clean: true, format: 'turtle' });
    assert.deepEqual(r.resolved_imports, []);
    assert.deepEqual(r.baseline, { compared: false, status: 'not_compared' });
    const manifest = r.manifest_preview as Row;
    assert.equal(manifest.created_at, 'PREVIEW');
    assert.deepEqual(
      (manifest.artifacts as Row[]).map((a) => a.path),
      ['rel-demo.ttl', 'reports/qc.json', 'reports/qc.md', 'reports/qc.xml', 'reports/qc.sarif', 'ro-crate-metadata.json'],
    );
    assert.equal((manifest.fingerprints as Row).semantic, r.semantic_fingerprint);
    const preview = r.reports_preview as Row;
    assert.deepEqual(preview.formats, ['json', 'markdown', 'junit', 'sarif']);
    assert.match(preview.markdown as string, /^# Release gate: rel-demo\n/);
    assert.equal(r.policy_loaded, true, 'the run_project_qc fields are kept');
    assert.equal(await exists(path.join(dir, 'release')), false, 'the gate writes nothing');
  });
});

test('run_release_gate without a policy: gate error, the release stage skipped, no manifest', async () => {
  const r = await callOk(c, 'run_release_gate');
  assert.equal(r.gate, 'error');
  assert.equal((stageOf(r, 'release') as Row).status, 'skipped');
  assert.equal((r.manifest_preview as Row).manifest_available, false);
  assert.deepEqual(r.round_trip, {
    clean: false,
    format: null,
    skipped: true,
    reason: 'validation did not start: no valid project policy governs this ontology',
  });
  assert.equal(at(r.errors as Row[], 0).code, 'policy_not_found');
});

test('prepare_release dry run returns the artifacts inline and writes nothing', async () => {
  await withPolicy(async () => {
    const r = await callOk(c, 'prepare_release');
    assert.deepEqual([r.prepared, r.dry_run, r.gate, r.created_at], [false, true, 'pass', 'PREVIEW']);
    const artifacts = r.artifacts as Row[];
    assert.equal(artifacts.at(-1)!.path, 'manifest.json');
    const reports = r.reports as Row;
    assert.deepEqual(Object.keys(reports).sort(), ['json', 'junit', 'markdown', 'sarif']);
    assert.equal(sha256Digest(reports.junit as string), artifacts.find((a) => a.path === 'reports/qc.xml')!.sha256);
    assert.equal((r.ro_crate as Row)['@context'], 'https://w3id.org/ro/crate/1.1/context');
    assert.equal(await exists(path.join(dir, 'release')), false);
  });
});

test("prepare_release commit writes every artifact with the manifest's digests, byte-identical when repeated", async () => {
  await withPolicy(async () => {
    await withOutput('release', async (out) => {
      const r = await callOk(c, 'prepare_release', { dry_run: false, created_at: CREATED });
      assert.deepEqual([r.prepared, r.dry_run, r.output_dir, r.created_at], [true, false, out, CREATED]);
      const manifest = JSON.parse(await readFile(path.join(out, 'manifest.json'), 'utf8')) as Row;
      assert.deepEqual(manifest, r.manifest);
      for (const a of manifest.artifacts as Row[]) {
        const bytes = await readFile(path.join(out, a.path as string));
        assert.equal(sha256Digest(bytes), a.sha256, String(a.path));
        assert.equal(bytes.length, a.bytes, String(a.path));
      }
      const listed = r.artifacts as Row[];
      assert.equal(sha256Digest(await readFile(path.join(out, 'manifest.json'))), listed.at(-1)!.sha256);
      const ontology = await readFile(path.join(out, 'rel-demo.ttl'), 'utf8');
      assert.match(ontology, /1\.0/);
      const again = await callOk(c, 'prepare_release', { dry_run: false, created_at: CREATED });
      assert.deepEqual(again.artifacts, r.artifacts, 'same content, same created_at: same bytes');
      assert.deepEqual((await readdir(out)).sort(), ['manifest.json', 'rel-demo.ttl', 'reports', 'ro-crate-metadata.json']);
    });
  });
});

test('a release as baseline: verified and diffed; a tampered artifact or an escaping manifest fails the gate', async () => {
  await withPolicy(async () => {
    await withOutput('release', async (out) => {
      await callOk(c, 'prepare_release', { dry_run: false, created_at: CREATED });
      await callOk(c, 'create_class', { name: 'Puppy', label: 'puppy', label_lang: 'en', parent: 'dog' });
      try {
        const r = await callOk(c, 'run_release_gate', { baseline_manifest: path.join(out, 'manifest.json') });
        const b = r.baseline as Row;
        assert.deepEqual(
          [b.compared, b.status, b.manifest, b.verified_artifacts],
          [true, 'compared', 'release/manifest.json', 6],
          JSON.stringify(b),
        );
        assert.deepEqual([b.axioms_added, b.axioms_removed], [3, 0], 'the Declaration, label and SubClassOf of Puppy');
        const dry = await callOk(c, 'prepare_release', { baseline_manifest: 'release/manifest.json' });
        const diff = JSON.parse((dry.reports as Row).diff as string) as Row;
        assert.equal((diff.added as string[]).length, 3);
        assert.ok((diff.added as string[]).some((l) => l.includes('Puppy')));

        await writeFile(path.join(out, 'reports', 'qc.md'), 'edited\n');
        const tampered = await callOk(c, 'run_release_gate', { baseline_manifest: 'release/manifest.json' });
        assert.equal(tampered.gate, 'fail');
        assert.deepEqual(codes(tampered), ['release.baseline_invalid']);
        assert.match(String((tampered.baseline as Row).reason), /reports\/qc\.md has 7 bytes/);
      } finally {
        await callOk(c, 'undo_change');
      }
      const outside = await mkdtemp(path.join(os.tmpdir(), 'athene-release-outside-'));
      try {
        await writeFile(path.join(outside, 'manifest.json'), '{}');
        const r = await callOk(c, 'run_release_gate', { baseline_manifest: path.join(outside, 'manifest.json') });
        assert.equal(r.gate, 'fail');
        assert.deepEqual(codes(r), ['release.baseline_invalid']);
        assert.equal((r.baseline as Row).status, 'invalid');
      } finally {
        await rm(outside, { recursive: true, force: true });
      }
    });
  });
});

test('a failed gate: release_gate_not_passed with the findings, nothing written (commit and dry run)', async () => {
  await withPolicy(async () => {
    await callOk(c, 'set_ontology_id', { ontology_iri: REL });
    try {
      const gate = await callOk(c, 'run_release_gate');
      assert.equal(gate.gate, 'fail');
      assert.deepEqual(codes(gate), ['release.version_iri_missing']);
      assert.equal((gate.manifest_preview as Row).manifest_available, false);
      for (const dryRun of [false, true]) {
        const r = await call(c, 'prepare_release', { dry_run: dryRun });
        assert.equal(r.isError, true);
        assert.deepEqual([r.body.error_code, r.body.prepared, r.body.gate], ['release_gate_not_passed', false, 'fail']);
        assert.ok((r.body.findings as Row[]).some((f) => f.rule_id === 'release.version_iri_missing'));
        assert.ok(Array.isArray(r.body.stages));
      }
      assert.equal(await exists(path.join(dir, 'release')), false);
    } finally {
      await callOk(c, 'undo_change');
    }
  });
});

test('the release format must be written and read back: OBO holds a non-OBO ontology (its IRI whole, the rest in owl-axioms); an unrequired round trip is skipped', async () => {
  await withPolicy(async () => {
    const r = await callOk(c, 'run_release_gate');
    const round = r.round_trip as Row;
    assert.deepEqual([round.format, round.clean], ['obo', true], JSON.stringify(round));
    assert.ok(!codes(r).includes('release.round_trip_failed'));
  }, 'release:\n  format: obo\n');
  await withPolicy(async () => {
    const r = await callOk(c, 'run_release_gate');
    assert.deepEqual(
      [r.gate, (r.round_trip as Row).skipped, (r.manifest_preview as Row).ontology],
      ['pass', true, { iri: REL, version_iri: `${REL}/1.0`, format: 'ntriples', path: 'rel-demo.nt' }],
    );
  }, 'release:\n  format: ntriples\n  require_clean_round_trip: false\n');
});

test('no license: release.license_unavailable is a warning, failing the gate only under fail_on: warn', async () => {
  const license = { property: 'dcterms:license', value_iri: 'https://creativecommons.org/licenses/by/4.0/' };
  await callOk(c, 'remove_ontology_annotation', license);
  try {
    await withPolicy(async () => {
      const r = await callOk(c, 'run_release_gate');
      assert.equal(r.gate, 'pass');
      assert.deepEqual(codes(r), ['release.license_unavailable']);
      assert.equal((stageOf(r, 'release') as Row).verdict, 'warn');
    });
    await withPolicy(async () => {
      assert.equal((await callOk(c, 'run_release_gate')).gate, 'fail');
    }, 'validation:\n  fail_on: warn\n');
  } finally {
    await callOk(c, 'undo_change');
  }
});

test('prepare_release refuses an output directory outside the project root, writing nothing', async () => {
  const outside = await mkdtemp(path.join(os.tmpdir(), 'athene-release-out-'));
  try {
    await withPolicy(async () => {
      const r = await call(c, 'prepare_release', { dry_run: false, output_dir: path.join(outside, 'rel') });
      assert.equal(r.isError, true);
      assert.equal(r.body.error_code, 'authorization_denied');
      assert.equal(r.body.prepared, false);
      assert.equal(await exists(path.join(outside, 'rel')), false);
    }, 'filesystem:\n  allow_external_paths: true\n');
  } finally {
    await rm(outside, { recursive: true, force: true });
  }
});

test('prepare_release refuses the project root itself as output directory', async () => {
  await withPolicy(async () => {
    const r = await call(c, 'prepare_release', { dry_run: false, output_dir: '.' });
    assert.deepEqual([r.isError, r.body.error_code, r.body.argument, r.body.prepared], [true, 'invalid_argument', 'output_dir', false]);
    assert.equal(await exists(path.join(dir, 'manifest.json')), false);
  });
});

test('prepare_release rejects a created_at that is not an ISO-8601 UTC instant', async () => {
  for (const created_at of ['31/01/2026', '2026-02-30T00:00:00Z', '2026-01-31T12:00:00+01:00', '2026-01-31']) {
    const r = await call(c, 'prepare_release', { created_at });
    assert.deepEqual([r.isError, r.body.error_code], [true, 'invalid_argument'], created_at);
  }
});

test('a remote-backed import: imports.remote_backed under network=deny; kept with a network_caveat under network=allow unless the policy denies', async () => {
  const origin = await startOrigin({ '/ext.ttl': '<http://example.org/ext> a <http://www.w3.org/2002/07/owl#Ontology> .\n' });
  const remote = await serveTempOntology('athene-release-remote-', 'rel.ttl', ONTOLOGY);
  try {
    await withProjectPolicy(remote.dir, POLICY + 'network:\n  default: allow\n', async () => {
      await callOk(remote.c, 'add_import', { iri: 'http://example.org/ext', document: `${origin.base}/ext.ttl` });
      const denied = await callOk(remote.c, 'run_release_gate');
      assert.equal(denied.gate, 'fail');
      assert.deepEqual(codes(denied), ['imports.remote_backed']);
      assert.deepEqual(denied.resolved_imports, [
        {
          ontology_iri: 'http://example.org/ext',
          version_iri: null,
          document: `${origin.base}/ext.ttl`,
          source_type: 'remote',
          backed_by: 'remote',
        },
      ]);
      const hits = origin.hits;
      const allowed = await callOk(remote.c, 'run_release_gate', { network: 'allow' });
      assert.deepEqual(codes(allowed), [], JSON.stringify(allowed.findings));
      assert.deepEqual((allowed.network_caveat as Row).remote_imports, [`${origin.base}/ext.ttl`]);
      assert.equal(origin.hits, hits, 'the gate fetched nothing');
      await writeFile(path.join(remote.dir, '.athene', 'project.yaml'), POLICY);
      const policyDenies = await callOk(remote.c, 'run_release_gate', { network: 'allow' });
      assert.deepEqual(codes(policyDenies), ['imports.remote_backed'], "request allow never overrides the policy's network.default: deny");
      assert.equal(policyDenies.network_caveat, undefined);
    });
  } finally {
    await remote.close();
    await origin.close();
  }
});

test('anonymous individuals make the fingerprints session-only: release.fingerprint_unstable blocks the manifest', async () => {
  const anonymous = ONTOLOGY + `:note a owl:AnnotationProperty ; rdfs:label "note"@en .\n:Dog :note _:x .\n_:x :note "said by nobody" .\n`;
  const served2 = await serveTempOntology('athene-release-anon-', 'rel.ttl', anonymous);
  try {
    await withProjectPolicy(served2.dir, POLICY, async () => {
      const r = await callOk(served2.c, 'run_release_gate');
      assert.equal(r.gate, 'fail');
      assert.ok(codes(r).includes('release.fingerprint_unstable'), JSON.stringify(codes(r)));
      assert.equal(r.fingerprint_stability, 'session_only');
      const preview = r.manifest_preview as Row;
      assert.equal(preview.manifest_available, false);
      assert.match(String(preview.reason), /session-only/);
    });
  } finally {
    await served2.close();
  }
});

test('prepare_release writes into an explicit project-relative output_dir and reports it; limit outside 0–10000 is refused', async () => {
  await withPolicy(async () => {
    await withOutput('dist/v1', async (out) => {
      const dry = await callOk(c, 'prepare_release', { output_dir: 'dist/v1' });
      assert.equal(dry.output_dir, undefined, 'output_dir is reported on commit only');
      assert.equal(await exists(out), false);
      const r = await callOk(c, 'prepare_release', { dry_run: false, output_dir: 'dist/v1', created_at: CREATED, limit: 0 });
      assert.deepEqual([r.prepared, r.output_dir], [true, out]);
      assert.deepEqual(r.reports, {
        json: 'reports/qc.json',
        markdown: 'reports/qc.md',
        junit: 'reports/qc.xml',
        sarif: 'reports/qc.sarif',
      });
      assert.equal(r.ro_crate, undefined, 'the RO-Crate is inline on a dry run only');
      assert.equal(await exists(path.join(out, 'manifest.json')), true);
    });
    await rm(path.join(dir, 'dist'), { recursive: true, force: true });
  });
  for (const tool of ['run_release_gate', 'prepare_release']) {
    for (const limit of [-1, 10_001]) {
      const r = await call(c, tool, { limit });
      assert.deepEqual([r.isError, r.body.error_code], [true, 'invalid_argument'], `${tool} limit=${limit}`);
    }
  }
});

test('lock_mode=required without a lockfile: imports.lock_missing keeps the gate from passing and prepare_release writes nothing', async () => {
  await withPolicy(async () => {
    const r = await callOk(c, 'run_release_gate', { lock_mode: 'required' });
    assert.equal(r.lock_mode, 'required');
    assert.notEqual(r.gate, 'pass');
    assert.ok(JSON.stringify(r.findings).includes('imports.lock_missing'), JSON.stringify(r.findings));
    const prepared = await call(c, 'prepare_release', { dry_run: false, lock_mode: 'required' });
    assert.deepEqual(
      [prepared.body.error_code, prepared.body.prepared, prepared.body.lock_mode],
      ['release_gate_not_passed', false, 'required'],
    );
    assert.equal(await exists(path.join(dir, 'release')), false);
  });
});
