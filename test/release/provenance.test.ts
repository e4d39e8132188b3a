// Import provenance of a release over real files and a real policy: an authorized local file backs an import;
// an in-memory ontology, an unresolved import, a local file outside the project root and one that has gone
// are each imports.remote_backed, naming how the member is backed. Documents are project-relative.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Ontology } from '../../src/model/ontology.js';
import { resolvePolicy } from '../../src/policy/resolve.js';
import { checkProvenance, projectRelative } from '../../src/release/provenance.js';
import { toolContext } from '../support/tool-context.js';

let dir: string;
let outside: string;

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'athene-provenance-'));
  outside = await mkdtemp(path.join(os.tmpdir(), 'athene-provenance-outside-'));
  await mkdir(path.join(dir, '.athene'));
  await mkdir(path.join(dir, 'imports'));
  await writeFile(path.join(dir, '.athene', 'project.yaml'), 'version: 1\nproject_id: p\nroot_ontology: http://example.org/root\n');
  await writeFile(path.join(dir, 'root.ttl'), '');
  await writeFile(path.join(dir, 'imports', 'a.ttl'), '');
  await writeFile(path.join(outside, 'c.ttl'), '');
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

function ontology(iri: string, document: string | null, imports: string[] = []): Ontology {
  const o = new Ontology();
  o.id = { iri, versionIri: null };
  o.documentIri = document;
  for (const i of imports) o.imports.add(i);
  return o;
}

test('every closure member is classified by what backs it; only authorized local files pass', async () => {
  const ex = (n: string) => `http://example.org/${n}`;
  const root = ontology(ex('root'), path.join(dir, 'root.ttl'), [ex('a'), ex('b'), ex('c'), ex('d'), ex('missing')]);
  const members = [
    ontology(ex('a'), path.join(dir, 'imports', 'a.ttl')),
    ontology(ex('b'), null),
    ontology(ex('c'), path.join(outside, 'c.ttl')),
    ontology(ex('d'), path.join(dir, 'imports', 'gone.ttl')),
  ];
  const ctx = toolContext([root, ...members]);
  const res = await resolvePolicy(ctx);
  assert.equal(res.valid, true, JSON.stringify(res.errors));
  const p = await checkProvenance(ctx, 'run_release_gate', root, (iri) => ctx.workspace.find(iri), res, 'deny');
  assert.deepEqual(
    p.resolved_imports.map((r) => [r.ontology_iri, r.backed_by, r.document]),
    [
      [ex('a'), 'local_file', 'imports/a.ttl'],
      [ex('b'), 'memory', null],
      [ex('c'), 'unauthorized_local_file', path.join(outside, 'c.ttl')],
      [ex('d'), 'missing_local_file', 'imports/gone.ttl'],
      [ex('missing'), 'unresolved', null],
    ],
  );
  assert.deepEqual(
    p.findings.map((f) => [f.rule_id, f.details?.backed_by]),
    [
      ['imports.remote_backed', 'memory'],
      ['imports.remote_backed', 'unauthorized_local_file'],
      ['imports.remote_backed', 'missing_local_file'],
      ['imports.remote_backed', 'unresolved'],
    ],
  );
  assert.ok(p.findings.every((f) => f.severity === 'error' && f.source === 'release' && f.focus_iri === ex('root')));
  assert.equal(new Set(p.findings.map((f) => f.id)).size, 4, 'one id per problem');
  assert.equal(p.network_caveat, null);
  const again = await checkProvenance(ctx, 'run_release_gate', root, (iri) => ctx.workspace.find(iri), res, 'deny');
  assert.deepEqual(
    again.findings.map((f) => f.id),
    p.findings.map((f) => f.id),
    'ids are stable',
  );
});

test('projectRelative: inside the root relative with "/", elsewhere unchanged', () => {
  assert.equal(projectRelative('/p', '/p/a/b.ttl'), 'a/b.ttl');
  assert.equal(projectRelative('/p', '/q/b.ttl'), '/q/b.ttl');
  assert.equal(projectRelative('/p', 'http://x/y'), 'http://x/y');
  assert.equal(projectRelative(null, '/p/a'), '/p/a');
});
