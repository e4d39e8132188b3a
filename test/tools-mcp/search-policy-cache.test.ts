// search_entities keeps the discovered project policy per window and reads it again only when the file
// changes: an edit between two searches is seen by the second one, through the real server, and an
// unchanged policy is not parsed again (counted in-process through the real gate).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadOntologyFile } from '../../src/model/io.js';
import { cachedPolicyReads } from '../../src/policy/resolution-cache.js';
import { callOk, serveTempOntology, withProjectPolicy } from '../server/support.js';
import { runInContext, toolContext } from '../support/tool-context.js';

const ZOO = 'http://example.org/zoo';
const ZOO_TTL = `@prefix : <${ZOO}#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<${ZOO}> a owl:Ontology .
:Cat a owl:Class ; rdfs:label "cat"@en , "chat"@fr .
`;

const policy = (languages: string) =>
  `version: 1\nproject_id: zoo\nroot_ontology: ${ZOO}\nentity_search: {preferred_languages: [${languages}]}\n`;

type Lexical = { source: string; preferred_languages: string[]; fallback_reason?: string };

test('an edited, broken, repaired or removed policy is seen by the very next search', async () => {
  const served = await serveTempOntology('athene-search-cache-', 'zoo.ttl', ZOO_TTL);
  const policyFile = path.join(served.dir, '.athene', 'project.yaml');
  const search = async (query: string) => {
    const r = await callOk(served.c, 'search_entities', { query });
    const cat = (r.items as Record<string, unknown>[]).find((i) => i.iri === `${ZOO}#Cat`);
    return { lexical: r.lexical_policy as Lexical, score: cat?.score };
  };
  try {
    await withProjectPolicy(served.dir, policy('fr'), async () => {
      const first = await search('chat');
      assert.deepEqual([first.lexical.source, first.lexical.preferred_languages, first.score], ['policy', ['fr'], 109]);
      assert.deepEqual((await search('chat')).lexical.preferred_languages, ['fr'], 'unchanged policy, same answer');

      await writeFile(policyFile, policy('de, en'));
      const edited = await search('chat');
      assert.deepEqual(edited.lexical.preferred_languages, ['de', 'en']);
      assert.equal(edited.score, 91, 'fr is now unlisted: −9');

      await writeFile(policyFile, 'version: 1\nproject_id: zoo\n');
      const broken = await search('chat');
      assert.equal(broken.lexical.source, 'default');
      assert.match(broken.lexical.fallback_reason ?? '', /invalid/);

      await writeFile(policyFile, policy('fr, en'));
      assert.deepEqual((await search('chat')).lexical.preferred_languages, ['fr', 'en'], 'a repaired policy applies at once');
    });
    const removed = await search('chat');
    assert.deepEqual([removed.lexical.source, removed.lexical.fallback_reason], ['default', undefined], 'no policy any more');
  } finally {
    await served.close();
  }
});

test('an unchanged policy is parsed once per window; an edit or another window reads it again', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-search-cache-count-'));
  try {
    const file = path.join(dir, 'zoo.ttl');
    await writeFile(file, ZOO_TTL);
    await mkdir(path.join(dir, '.athene'));
    const policyFile = path.join(dir, '.athene', 'project.yaml');
    await writeFile(policyFile, policy('fr'));
    const window = toolContext([await loadOntologyFile(file)]);
    const languages = async (ctx = window) => {
      const r = await runInContext('search_entities', { query: 'cat' }, ctx);
      assert.equal(r.isError, false);
      return (r.body.lexical_policy as Lexical).preferred_languages;
    };

    const before = cachedPolicyReads();
    assert.deepEqual(await languages(), ['fr']);
    assert.deepEqual(await languages(), ['fr']);
    assert.deepEqual(await languages(), ['fr']);
    assert.equal(cachedPolicyReads() - before, 1, 'three searches, one parse');

    await writeFile(policyFile, policy('en'));
    assert.deepEqual(await languages(), ['en']);
    assert.deepEqual(await languages(), ['en']);
    assert.equal(cachedPolicyReads() - before, 2, 'the edit is read once');

    const other = toolContext([await loadOntologyFile(file)]);
    assert.deepEqual(await languages(other), ['en']);
    assert.equal(cachedPolicyReads() - before, 3, 'each window keeps its own');

    await writeFile(policyFile, 'version: 1\n');
    await languages();
    await languages();
    assert.equal(cachedPolicyReads() - before, 5, 'an invalid policy is never kept');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
