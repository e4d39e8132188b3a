// The SSSOM mapping tools through the real server: a policy-v2 store (add → list → CAS conflict → remove →
// export → import merge/replace), cursors that die with the revision they were issued for, writes refused
// before anything is written, a malformed store, and the legacy no-policy store beside the document.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { call, callOk, serveTempOntology, withProjectPolicy, type ServedTempOntology } from '../server/support.js';
import { sha256Digest } from '../../src/util/digest.js';
import { at } from '../support/at.js';

const ZOO_TTL = `@prefix : <http://example.org/zoo#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<http://example.org/zoo> a owl:Ontology .
:Animal a owl:Class .
:Mammal a owl:Class ; rdfs:subClassOf :Animal .
:Bird a owl:Class ; rdfs:subClassOf :Animal .
`;

const LICENSE = 'https://creativecommons.org/licenses/by/4.0/';
const SET_ID = 'http://example.org/zoo/mappings';
const PREFIXES = { zoo: 'http://example.org/zoo#', other: 'http://other.org/onto/' };
const POLICY = `version: 2
project_id: zoo
root_ontology: http://example.org/zoo
mappings:
  path: mappings/project.sssom.tsv
  allowed_licenses: [${LICENSE}]
`;

const row = (subject: string, object: string, extra: Record<string, string> = {}) => ({
  subject_id: subject,
  predicate_id: 'skos:exactMatch',
  object_id: object,
  mapping_justification: 'semapv:ManualMappingCuration',
  ...extra,
});

let served: ServedTempOntology;
before(async () => {
  served = await serveTempOntology('athene-mappings-', 'zoo.ttl', ZOO_TTL);
});
after(async () => {
  await served.close();
});

const store = () => path.join(served.dir, 'mappings', 'project.sssom.tsv');
const revisionOf = async () => (await callOk(served.c, 'list_mappings')).mapping_revision as string;

test('policy v2 store: add, list, compare-and-swap, remove, with backups and cursors bound to the revision', async () => {
  await withProjectPolicy(served.dir, POLICY, async () => {
    const c = served.c;
    const empty = await callOk(c, 'list_mappings');
    assert.equal(empty.exists, false);
    assert.equal(empty.path, store());
    assert.equal(empty.record_count, 0);
    assert.equal(empty.valid, true);
    assert.deepEqual(empty.items, []);
    const r0 = empty.mapping_revision as string;
    assert.match(r0, /^sha256:[0-9a-f]{64}$/);

    const noMeta = await call(c, 'add_mapping', {
      expected_mapping_revision: r0,
      mapping: row('zoo:Mammal', 'other:Mammal'),
      prefix_map: PREFIXES,
      confirm: true,
    });
    assert.equal(noMeta.isError, true);
    assert.equal(noMeta.body.error_code, 'invalid_argument');
    assert.equal(noMeta.body.committed, false);
    const unconfirmed = await call(c, 'add_mapping', {
      expected_mapping_revision: r0,
      mapping: row('zoo:Mammal', 'other:Mammal'),
      confirm: false,
    });
    assert.equal(unconfirmed.body.error_code, 'invalid_argument');

    const first = await callOk(c, 'add_mapping', {
      expected_mapping_revision: r0,
      mapping: row('zoo:Mammal', 'other:Mammal'),
      prefix_map: PREFIXES,
      mapping_set_id: SET_ID,
      license: LICENSE,
      confirm: true,
    });
    assert.equal(first.committed, true);
    assert.equal(first.previous_mapping_revision, r0);
    assert.equal(first.record_count, 1);
    assert.equal(first.backup_path, undefined, 'nothing replaced, nothing backed up');
    assert.match(first.mapping_id as string, /^sha256:/);
    const bytes1 = await readFile(store());
    assert.equal(sha256Digest(bytes1), first.mapping_revision, 'the revision is the digest of the canonical bytes on disk');
    assert.equal(first.bytes, bytes1.byteLength);

    const stale = await call(c, 'add_mapping', { expected_mapping_revision: r0, mapping: row('zoo:Bird', 'other:Bird'), confirm: true });
    assert.equal(stale.body.error_code, 'mapping_revision_conflict');
    assert.equal(stale.body.mapping_revision, first.mapping_revision);
    assert.deepEqual(await readFile(store()), bytes1, 'a conflict writes nothing');

    const invalid = await call(c, 'add_mapping', {
      expected_mapping_revision: first.mapping_revision,
      mapping: row('zoo:Bird', 'other:Bird', { mapping_justification: 'semapv:Guessing' }),
      confirm: true,
    });
    assert.equal(invalid.body.error_code, 'mappings_invalid');
    assert.equal(at(invalid.body.findings as { code: string }[], 0).code, 'justification_invalid');
    assert.deepEqual(await readFile(store()), bytes1, 'an invalid result writes nothing');

    const second = await callOk(c, 'add_mapping', {
      expected_mapping_revision: first.mapping_revision,
      mapping: row('zoo:Bird', 'other:Bird', { mapping_id: 'bird' }),
      confirm: true,
    });
    assert.equal(second.mapping_id, 'bird');
    assert.equal(second.backup_path, store() + '.bak');
    assert.deepEqual(await readFile(store() + '.bak'), bytes1, 'the backup holds the replaced bytes');
    const dup = await call(c, 'add_mapping', {
      expected_mapping_revision: second.mapping_revision,
      mapping: row('zoo:Mammal', 'other:Mammal'),
      confirm: true,
    });
    assert.equal(dup.body.error_code, 'mapping_exists');

    const page1 = await callOk(c, 'list_mappings', { limit: 1 });
    assert.equal(page1.record_count, 2);
    assert.equal(page1.returned, 1);
    assert.equal(at(page1.items as { mapping_id: string }[], 0).mapping_id, 'bird', 'sorted by mapping id');
    assert.deepEqual(at(page1.items as { cells: unknown }[], 0).cells, row('zoo:Bird', 'other:Bird'));
    const page2 = await callOk(c, 'list_mappings', { limit: 1, cursor: page1.next_cursor });
    assert.equal(at(page2.items as { mapping_id: string }[], 0).mapping_id, first.mapping_id);
    assert.equal(page2.next_cursor, undefined);

    const unknown = await call(c, 'remove_mapping', {
      expected_mapping_revision: second.mapping_revision,
      mapping_id: 'nope',
      confirm: true,
    });
    assert.equal(unknown.body.error_code, 'unknown_mapping');
    const removed = await callOk(c, 'remove_mapping', {
      expected_mapping_revision: second.mapping_revision,
      mapping_id: 'bird',
      confirm: true,
    });
    assert.equal(removed.record_count, 1);
    const dead = await call(c, 'list_mappings', { limit: 1, cursor: page1.next_cursor });
    assert.equal(dead.body.error_code, 'cursor_invalid', 'a cursor dies with its revision');
    const forged = await call(c, 'list_mappings', {
      cursor: (page1.next_cursor as string).replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A')),
    });
    assert.equal(forged.body.error_code, 'cursor_invalid');

    const elsewhere = await call(c, 'list_mappings', { path: 'other.sssom.tsv' });
    assert.equal(elsewhere.body.error_code, 'policy_conflict', 'an explicit path may only repeat mappings.path');
    assert.equal((await callOk(c, 'list_mappings', { path: 'mappings/project.sssom.tsv' })).exists, true);
  });
});

test('export: canonical bytes, no silent overwrite, digest-checked replacement, spreadsheet-safe', async () => {
  await withProjectPolicy(served.dir, POLICY, async () => {
    const c = served.c;
    let rev = await revisionOf();
    const added = await callOk(c, 'add_mapping', {
      expected_mapping_revision: rev,
      mapping: row('zoo:Animal', 'other:Animal', { comment: '=cmd()' }),
      confirm: true,
    });
    rev = added.mapping_revision as string;
    const dest = path.join(served.dir, 'export.sssom.tsv');
    const missingParent = await call(c, 'export_sssom', { expected_mapping_revision: rev, destination: 'nowhere/out.tsv', confirm: true });
    assert.equal(missingParent.body.error_code, 'destination_parent_missing');
    const out = await callOk(c, 'export_sssom', { expected_mapping_revision: rev, destination: 'export.sssom.tsv', confirm: true });
    assert.equal(out.path, dest);
    assert.equal(out.lossless, true);
    assert.deepEqual(await readFile(dest), await readFile(store()), 'the export is the canonical bytes');
    assert.equal(out.sha256, rev);

    const exists = await call(c, 'export_sssom', {
      expected_mapping_revision: rev,
      destination: 'export.sssom.tsv',
      spreadsheet_safe: true,
      confirm: true,
    });
    assert.equal(exists.body.error_code, 'target_exists');
    const noDigest = await call(c, 'export_sssom', {
      expected_mapping_revision: rev,
      destination: 'export.sssom.tsv',
      overwrite: true,
      spreadsheet_safe: true,
      confirm: true,
    });
    assert.equal(noDigest.body.error_code, 'invalid_argument');
    const wrong = await call(c, 'export_sssom', {
      expected_mapping_revision: rev,
      destination: 'export.sssom.tsv',
      overwrite: true,
      expected_target_digest: sha256Digest('x'),
      spreadsheet_safe: true,
      confirm: true,
    });
    assert.equal(wrong.body.error_code, 'target_digest_mismatch');
    const safe = await callOk(c, 'export_sssom', {
      expected_mapping_revision: rev,
      destination: 'export.sssom.tsv',
      overwrite: true,
      expected_target_digest: out.sha256,
      spreadsheet_safe: true,
      confirm: true,
    });
    assert.equal(safe.lossless, false);
    assert.equal(safe.spreadsheet_safe, true);
    assert.equal(safe.backup_path, dest + '.bak');
    assert.match(await readFile(dest, 'utf8'), /\t'=cmd\(\)\n/);
    assert.equal(await revisionOf(), rev, 'the store is unchanged');
    const stale = await call(c, 'export_sssom', {
      expected_mapping_revision: sha256Digest('old'),
      destination: 'other.tsv',
      confirm: true,
    });
    assert.equal(stale.body.error_code, 'mapping_revision_conflict');
  });
});

test('import: merge by id (compatible sets only), replace, and validation of what is imported', async () => {
  await withProjectPolicy(served.dir, POLICY, async () => {
    const c = served.c;
    const source = (license: string, rows: string[][]) =>
      [
        '#curie_map:',
        `#  zoo: "${PREFIXES.zoo}"`,
        `#  other: ${PREFIXES.other}`,
        `#mapping_set_id: ${SET_ID}`,
        `#license: ${license}`,
        'subject_id\tpredicate_id\tobject_id\tmapping_justification',
        ...rows.map((r) => r.join('\t')),
        '',
      ].join('\n');
    await writeFile(
      path.join(served.dir, 'in.sssom.tsv'),
      source(LICENSE, [
        ['zoo:Mammal', 'skos:exactMatch', 'other:Mammal', 'semapv:ManualMappingCuration'],
        ['zoo:Ghost', 'skos:closeMatch', 'other:Ghost', 'semapv:LexicalMatching'],
      ]),
    );
    let rev = await revisionOf();
    const before = (await callOk(c, 'list_mappings')).record_count as number;
    const merged = await callOk(c, 'import_sssom', {
      expected_mapping_revision: rev,
      source: 'in.sssom.tsv',
      mode: 'merge',
      confirm: true,
    });
    assert.equal(merged.mode, 'merge');
    assert.equal(merged.source_records, 2);
    assert.equal(merged.added, 1);
    assert.equal(merged.unchanged, 1);
    assert.equal(merged.record_count, before + 1);
    assert.equal(merged.warning_count, 1, 'zoo:Ghost and other:Ghost are not in the ontology');
    rev = merged.mapping_revision as string;

    const findings = await callOk(c, 'validate_mappings', {});
    assert.equal(findings.valid, true);
    assert.deepEqual(
      (findings.findings as { code: string }[]).map((f) => f.code),
      ['entity_not_found'],
    );
    await callOk(c, 'create_class', { name: 'Ghost' });
    assert.deepEqual((await callOk(c, 'validate_mappings', {})).findings, [], 'validation follows the ontology');
    await callOk(c, 'undo_change');
    assert.equal((await callOk(c, 'validate_mappings', {})).warning_count, 1);

    await writeFile(path.join(served.dir, 'clash.sssom.tsv'), source('https://example.org/other-license', []));
    const clash = await call(c, 'import_sssom', {
      expected_mapping_revision: rev,
      source: 'clash.sssom.tsv',
      mode: 'merge',
      confirm: true,
    });
    assert.equal(clash.body.error_code, 'incompatible_merge');
    const replaceBad = await call(c, 'import_sssom', {
      expected_mapping_revision: rev,
      source: 'clash.sssom.tsv',
      mode: 'replace',
      confirm: true,
    });
    assert.equal(replaceBad.body.error_code, 'mappings_invalid', 'the policy allows only CC-BY');
    assert.equal(await revisionOf(), rev, 'refused imports commit nothing');

    await writeFile(path.join(served.dir, 'broken.sssom.tsv'), source(LICENSE, [['zoo:Mammal', 'skos:exactMatch']]));
    const broken = await call(c, 'import_sssom', {
      expected_mapping_revision: rev,
      source: 'broken.sssom.tsv',
      mode: 'merge',
      confirm: true,
    });
    assert.equal(broken.body.error_code, 'sssom_invalid');
    assert.match(at(broken.body.findings as { message: string }[], 0).message, /^line 7: 2 cells/);

    const replaced = await callOk(c, 'import_sssom', {
      expected_mapping_revision: rev,
      source: 'in.sssom.tsv',
      mode: 'replace',
      confirm: true,
    });
    assert.equal(replaced.record_count, 2);
    assert.equal(replaced.source_records, 2);
  });
});

test('concurrent writers expecting the same revision: exactly one commits', async () => {
  await withProjectPolicy(served.dir, POLICY, async () => {
    const rev = await revisionOf();
    const outcomes = await Promise.all(
      ['Bird', 'Animal', 'Mammal'].map((name, i) =>
        call(served.c, 'add_mapping', {
          expected_mapping_revision: rev,
          mapping: row(`zoo:${name}`, `other:Race${i}`, { mapping_id: `race-${i}` }),
          confirm: true,
        }),
      ),
    );
    assert.equal(outcomes.filter((o) => !o.isError).length, 1, JSON.stringify(outcomes.map((o) => o.body)));
    assert.deepEqual(
      outcomes.filter((o) => o.isError).map((o) => o.body.error_code),
      ['mapping_revision_conflict', 'mapping_revision_conflict'],
    );
    const winner = outcomes.find((o) => !o.isError)!.body;
    assert.equal(await revisionOf(), winner.mapping_revision);
    assert.equal(sha256Digest(await readFile(store())), winner.mapping_revision);
  });
});

test('a malformed store lists as invalid with line numbers, refuses edits, and is repaired by import replace', async () => {
  await withProjectPolicy(served.dir, POLICY, async () => {
    const c = served.c;
    await mkdir(path.dirname(store()), { recursive: true });
    await writeFile(store(), 'subject_id\tpredicate_id\nzoo:A\n');
    const listed = await callOk(c, 'list_mappings');
    assert.equal(listed.valid, false);
    assert.equal(listed.exists, true);
    assert.equal(listed.mapping_revision, sha256Digest('subject_id\tpredicate_id\nzoo:A\n'));
    const report = await callOk(c, 'validate_mappings', {});
    assert.equal(at(report.findings as { code: string }[], 0).code, 'column_count');
    assert.match(at(report.findings as { message: string }[], 0).message, /^line 2:/);
    const edit = await call(c, 'add_mapping', {
      expected_mapping_revision: listed.mapping_revision,
      mapping: row('zoo:Bird', 'other:Bird'),
      confirm: true,
    });
    assert.equal(edit.body.error_code, 'store_invalid');
    const fixed = await callOk(c, 'import_sssom', {
      expected_mapping_revision: listed.mapping_revision,
      source: 'in.sssom.tsv',
      mode: 'replace',
      confirm: true,
    });
    assert.equal(fixed.valid, true);
    assert.equal((await callOk(c, 'list_mappings')).valid, true);
  });
});

test("without a policy the store is an explicit path below the active document's directory", async () => {
  const c = served.c;
  const noPath = await call(c, 'list_mappings');
  assert.equal(noPath.body.error_code, 'invalid_argument');
  const outside = await mkdtemp(path.join(os.tmpdir(), 'athene-mappings-outside-'));
  try {
    const refused = await call(c, 'list_mappings', { path: path.join(outside, 'm.sssom.tsv') });
    assert.equal(refused.body.error_code, 'authorization_denied');
  } finally {
    await rm(outside, { recursive: true, force: true });
  }
  const empty = await callOk(c, 'list_mappings', { path: 'legacy.sssom.tsv' });
  assert.equal(empty.path, path.join(served.dir, 'legacy.sssom.tsv'), "relative paths resolve against the document's directory");
  const added = await callOk(c, 'add_mapping', {
    path: 'legacy.sssom.tsv',
    expected_mapping_revision: empty.mapping_revision,
    mapping: row('zoo:Bird', 'other:Bird'),
    prefix_map: PREFIXES,
    mapping_set_id: SET_ID,
    license: 'https://example.org/any-license',
    confirm: true,
  });
  assert.equal(added.committed, true);
  assert.equal((await callOk(c, 'list_mappings', { path: path.join(served.dir, 'legacy.sssom.tsv') })).record_count, 1);
});

test('policy v1 needs an explicit path inside the project; the policy_required mode refuses every store path', async () => {
  await withProjectPolicy(served.dir, 'version: 1\nproject_id: zoo\nroot_ontology: http://example.org/zoo\n', async () => {
    const missing = await call(served.c, 'list_mappings');
    assert.equal(missing.body.error_code, 'invalid_argument');
    assert.match(missing.body.error as string, /version 1/);
    const inside = await callOk(served.c, 'list_mappings', { path: 'v1.sssom.tsv' });
    assert.equal(inside.path, path.join(served.dir, 'v1.sssom.tsv'), 'relative to the project root');
    const escape = await call(served.c, 'list_mappings', { path: '../escape.sssom.tsv' });
    assert.equal(escape.body.error_code, 'authorization_denied');
  });
  const strict = await serveTempOntology('athene-mappings-strict-', 'zoo.ttl', ZOO_TTL, { allow_unrestricted_paths_without_policy: false });
  try {
    const refused = await call(strict.c, 'list_mappings', { path: 'm.sssom.tsv' });
    assert.equal(refused.body.error_code, 'authorization_denied');
    assert.equal(refused.body.path_mode, 'policy_required');
  } finally {
    await strict.close();
  }
});

test('listing and validation: limits enforced, canonical_bytes, finding rows, validation pages with its own cursors', async () => {
  await withProjectPolicy(served.dir, POLICY, async () => {
    const c = served.c;
    for (const limit of [0, 201]) {
      assert.equal((await call(c, 'list_mappings', { limit })).body.error_code, 'invalid_argument', `list_mappings limit ${limit}`);
      assert.equal((await call(c, 'validate_mappings', { limit })).body.error_code, 'invalid_argument', `validate_mappings limit ${limit}`);
    }
    const ghosts = [
      '#curie_map:',
      `#  zoo: "${PREFIXES.zoo}"`,
      `#  other: ${PREFIXES.other}`,
      `#mapping_set_id: ${SET_ID}`,
      `#license: ${LICENSE}`,
      'mapping_id\tsubject_id\tpredicate_id\tobject_id\tmapping_justification',
      ...['g1', 'g2', 'g3'].map((id) => `${id}\tzoo:Ghost${id}\tskos:closeMatch\tother:Ghost${id}\tsemapv:LexicalMatching`),
      '',
    ].join('\n');
    await writeFile(path.join(served.dir, 'ghosts.sssom.tsv'), ghosts);
    await callOk(c, 'import_sssom', {
      expected_mapping_revision: await revisionOf(),
      source: 'ghosts.sssom.tsv',
      mode: 'replace',
      confirm: true,
    });

    const listed = await callOk(c, 'list_mappings');
    assert.equal(listed.canonical_bytes, (await readFile(store())).byteLength);
    assert.equal(listed.findings_truncated, false);
    assert.equal(listed.warning_count, 3);
    assert.equal(listed.error_count, 0);

    const first = await callOk(c, 'validate_mappings', { limit: 2 });
    assert.equal(first.mapping_revision, listed.mapping_revision, 'the store identity fields, as list_mappings');
    assert.equal(first.canonical_bytes, listed.canonical_bytes);
    assert.equal(first.returned, 2);
    const rows = first.findings as Record<string, unknown>[];
    for (const f of rows) {
      assert.equal(f.severity, 'warn');
      assert.deepEqual(
        Object.keys(f).filter((k) => !['severity', 'code', 'mapping_id', 'column', 'message'].includes(k)),
        [],
      );
    }
    assert.deepEqual(
      rows.map((f) => f.mapping_id),
      ['g1', 'g2'],
    );
    const wrongListing = await call(c, 'list_mappings', { cursor: first.next_cursor });
    assert.equal(wrongListing.body.error_code, 'cursor_invalid', 'a validation cursor does not page the listing');
    const rest = await callOk(c, 'validate_mappings', { limit: 2, cursor: first.next_cursor });
    assert.deepEqual(
      (rest.findings as Record<string, unknown>[]).map((f) => f.mapping_id),
      ['g3'],
    );
    assert.equal(rest.next_cursor, undefined);
  });
});
