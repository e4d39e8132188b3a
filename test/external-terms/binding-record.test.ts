import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BindingError, readBinding } from '../../src/external-terms/binding.js';
import { providerRecord, sanitizedUrl, type Acquisition } from '../../src/external-terms/record.js';
import { ToolFailure } from '../../src/tools/core/tool.js';

async function withHome(body: (home: string, providers: string) => Promise<void>): Promise<void> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-binding-'));
  const providers = path.join(home, 'providers');
  await mkdir(providers, { mode: 0o700 });
  await chmod(providers, 0o700);
  try {
    await body(home, providers);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

const config = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ version: 1, origins: [{ alias: 'ebi', profile: 'ols4', origin: 'https://www.ebi.ac.uk/ols4' }], ...extra });

test('a binding is read only from an owner-only file in an owner-only directory; absent means none', async () => {
  await withHome(async (home, providers) => {
    assert.equal(await readBinding(home), null);
    assert.equal(await readBinding(undefined), null);
    const file = path.join(providers, 'config.json');
    await writeFile(file, config(), { mode: 0o600 });
    const b = await readBinding(home);
    assert.equal(b?.origins.get('ebi')?.origin, 'https://www.ebi.ac.uk/ols4');
    assert.match(b!.generation, /^sha256:/);
    await chmod(file, 0o640);
    await assert.rejects(readBinding(home), (e: unknown) => e instanceof BindingError && /0600/.test((e as Error).message));
    await chmod(file, 0o600);
    await chmod(providers, 0o755);
    await assert.rejects(readBinding(home), /0700/);
    await chmod(providers, 0o700);
    await rm(file);
    await writeFile(path.join(home, 'elsewhere.json'), config(), { mode: 0o600 });
    await symlink(path.join(home, 'elsewhere.json'), file);
    await assert.rejects(readBinding(home), /not a regular file/);
  });
});

test("a binding names exact https bases only, and its generation changes with a credential's secret", async () => {
  await withHome(async (home, providers) => {
    const file = path.join(providers, 'config.json');
    for (const origin of [
      'http://www.ebi.ac.uk/ols4',
      'https://www.ebi.ac.uk/ols4/',
      'https://user:pw@www.ebi.ac.uk',
      'https://www.ebi.ac.uk/ols4?x=1',
    ]) {
      await writeFile(file, JSON.stringify({ version: 1, origins: [{ alias: 'ebi', profile: 'ols4', origin }] }), { mode: 0o600 });
      await assert.rejects(readBinding(home), /exact https base/, origin);
    }
    await writeFile(path.join(providers, 'key'), 'secret-one\n', { mode: 0o600 });
    await writeFile(file, config({ credentials: [{ id: 'k', header: 'X-Api-Key', secret_file: 'key' }] }), { mode: 0o600 });
    const one = await readBinding(home);
    assert.deepEqual(one?.credentials.get('k'), { id: 'k', header: 'x-api-key', secret: 'secret-one' });
    await writeFile(path.join(providers, 'key'), 'secret-two\n', { mode: 0o600 });
    const two = await readBinding(home);
    assert.notEqual(two!.generation, one!.generation);
    await chmod(path.join(providers, 'key'), 0o644);
    assert.equal((await readBinding(home))?.credentials.get('k')?.secret, null, 'a loose secret file counts as missing');
  });
});

const acquisition = (via: Acquisition['via'], secrets: string[] = []): Acquisition => ({
  providerId: 'ols',
  originAlias: 'ebi',
  via,
  url: 'https://u:p@ols.example/api/search?q=secret+query&rows=2#x',
  retries: 1,
  fetchedAt: '2026-11-22T00:00:00.000Z',
  language: 'en',
  version: 'v1',
  license: null,
  secrets,
});
const term = {
  iri: 'http://ex.org/T',
  label: 'heart',
  synonyms: ['b', 'a'],
  descriptions: ['d'],
  ontology: 'o',
  ontologyIri: null,
  type: 'class',
  obsolete: false,
  replacedBy: null,
};

test('provider records: sanitized source URL, content-only term fingerprints distinct for search and lookup, scores', () => {
  assert.equal(sanitizedUrl('https://u:p@ols.example/api/search?q=secret+query&rows=2#x'), 'https://ols.example/api/search?q=…&rows=…');
  const searched = providerRecord(term, acquisition('ols4:search'), 'Heart');
  const looked = providerRecord(term, acquisition('ols4:term'), null);
  assert.equal(searched.source_url, 'https://ols.example/api/search?q=…&rows=…');
  assert.deepEqual(searched.synonyms, ['a', 'b']);
  assert.equal(searched.score, 1);
  assert.equal(looked.match_explanation, 'looked up by IRI');
  assert.notEqual(searched.term_fingerprint, looked.term_fingerprint, 'a search fingerprint never passes for a lookup');
  const later = providerRecord(term, { ...acquisition('ols4:term'), fetchedAt: '2026-11-23T00:00:00.000Z' }, null);
  assert.equal(later.term_fingerprint, looked.term_fingerprint, 'the term fingerprint covers content only');
  assert.notEqual(later.result_fingerprint, looked.result_fingerprint, 'the result fingerprint covers the acquisition');
});

test('evidence with a token shape or a configured secret is refused with provider_redaction_failed', () => {
  for (const leak of ['ghp_' + 'a'.repeat(30), 'Bearer ' + 'x'.repeat(30), 'AKIA' + 'B'.repeat(16)]) {
    assert.throws(
      () => providerRecord({ ...term, descriptions: [leak] }, acquisition('ols4:term'), null),
      (e: unknown) => e instanceof ToolFailure && e.code === 'provider_redaction_failed',
    );
  }
  assert.throws(
    () => providerRecord({ ...term, synonyms: ['my-configured-secret'] }, acquisition('ols4:term', ['my-configured-secret']), null),
    /secret-like/,
  );
});
