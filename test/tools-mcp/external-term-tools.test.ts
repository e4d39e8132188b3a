// External terms end to end: a real HTTPS origin on loopback speaking the OLS4 API (its certificate made
// for the test and trusted through the owner's binding), a version-2 project policy naming the provider,
// and the four tools through a real MCP client.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, callOk, connect, startTestServer, type TestServer } from '../server/support.js';
import { at } from '../support/at.js';

const ZOO = `@prefix : <http://example.org/zoo#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<http://example.org/zoo> a owl:Ontology .
:Heart a owl:Class ; rdfs:label "Heart"@en .
:Organ a owl:Class .
`;

const HEART = 'http://purl.obolibrary.org/obo/UBERON_0000948';
const LUNG = 'http://purl.obolibrary.org/obo/UBERON_0002048';
const LIVER = 'http://purl.obolibrary.org/obo/UBERON_0002107';
const LEAKY = 'http://purl.obolibrary.org/obo/UBERON_9999999';
const LICENSE = 'https://creativecommons.org/licenses/by/4.0/';

const DOCS = [
  {
    iri: HEART,
    label: 'heart',
    synonym: ['cardium'],
    description: ['A myogenic muscular circulating organ.'],
    ontology_name: 'uberon',
    type: 'class',
  },
  { iri: LUNG, label: 'lung', description: ['Respiration organ.'], ontology_name: 'uberon', type: 'class' },
  { iri: LIVER, label: 'liver', description: ['An exocrine gland.'], ontology_name: 'uberon', type: 'class' },
];

const policy = (extra = '') => `version: 2
project_id: zoo
root_ontology: http://example.org/zoo
network:
  default: allow
external_terms:
  providers:
    - id: ols
      profile: ols4
      enabled: true
      origin_alias: ebi
      ontologies: [uberon, go]
      languages: [en]
      ttl_seconds: 600
      max_results: 10${extra}
mappings:
  path: project.sssom.tsv
  allowed_licenses: [${LICENSE}]
`;

let dir: string, home: string, t: TestServer, c: Client, origin: https.Server;
let hits = 0;

/** The OLS4 answers the tests need: search (paged), term detail, ontology metadata. */
function ols(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void {
  hits++;
  const url = new URL(req.url ?? '/', 'https://origin');
  const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (url.pathname === '/api/search') {
    const start = Number(url.searchParams.get('start')),
      rows = Number(url.searchParams.get('rows'));
    json(200, { response: { numFound: DOCS.length, docs: DOCS.slice(start, start + rows) } });
    return;
  }
  if (url.pathname === '/api/ontologies/uberon') {
    json(200, { config: { version: '2026-06-01', license: { url: LICENSE }, ontology_purl: 'http://purl.obolibrary.org/obo/uberon.owl' } });
    return;
  }
  const m = /^\/api\/ontologies\/uberon\/terms\/(.+)$/.exec(url.pathname);
  if (m !== null) {
    const iri = decodeURIComponent(decodeURIComponent(at(m, 1)));
    if (iri === LEAKY) {
      json(200, {
        iri,
        label: 'leak',
        description: ['token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ'],
        ontology_name: 'uberon',
      });
      return;
    }
    const doc = DOCS.find((d) => d.iri === iri);
    if (doc !== undefined) {
      json(200, {
        iri,
        label: doc.label,
        description: doc.description,
        synonyms: doc.synonym ?? [],
        ontology_name: 'uberon',
        is_obsolete: false,
      });
      return;
    }
  }
  json(404, { error: 'not found' });
}

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'athene-xterms-'));
  home = await mkdtemp(path.join(os.tmpdir(), 'athene-xterms-home-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const cert = await readFile(path.join(dir, 'cert.pem'), 'utf8');
  origin = https.createServer({ key: await readFile(path.join(dir, 'key.pem')), cert }, ols);
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  const providers = path.join(home, 'providers');
  await mkdir(providers, { recursive: true, mode: 0o700 });
  await chmod(providers, 0o700);
  await writeFile(path.join(providers, 'ca.pem'), cert, { mode: 0o600 });
  await writeFile(
    path.join(providers, 'config.json'),
    JSON.stringify({
      version: 1,
      origins: [
        { alias: 'ebi', profile: 'ols4', origin: `https://127.0.0.1:${(origin.address() as AddressInfo).port}`, ca_file: 'ca.pem' },
      ],
    }),
    { mode: 0o600 },
  );
  await writeFile(path.join(dir, 'zoo.ttl'), ZOO);
  await mkdir(path.join(dir, '.athene'));
  await writeFile(path.join(dir, '.athene', 'project.yaml'), policy());
  t = await startTestServer([path.join(dir, 'zoo.ttl')], {}, home);
  c = await connect(t);
});

after(async () => {
  await c.close();
  await t.stop();
  origin.closeAllConnections();
  await new Promise((r) => origin.close(r));
  await rm(dir, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

test('search pages through a provider with cursors bound to the caller; evidence echoing the query is not cached', async () => {
  const first = await callOk(c, 'search_external_terms', { provider_id: 'ols', query: '  cardiac   organ ', limit: 2 });
  assert.equal(first.provider_id, 'ols');
  assert.equal(first.total, 3);
  assert.equal(first.returned, 2);
  const items = first.items as Record<string, unknown>[];
  assert.deepEqual(
    items.map((i) => i.entity_iri),
    [HEART, LUNG],
  );
  assert.equal(at(items, 0).source_ontology, 'uberon');
  assert.deepEqual(at(items, 0).synonyms, ['cardium']);
  assert.match(at(items, 0).term_fingerprint as string, /^sha256:[0-9a-f]{64}$/);
  assert.ok(!(at(items, 0).source_url as string).includes('cardiac'), 'the query is not kept in the record');
  assert.equal(first.cache_hit, false);
  assert.equal(first.cursor_expires_in_seconds, 300);
  const rest = await callOk(c, 'search_external_terms', { cursor: first.next_cursor });
  assert.deepEqual(
    (rest.items as Record<string, unknown>[]).map((i) => i.entity_iri),
    [LIVER],
  );
  assert.equal(rest.next_cursor, undefined);
  const reused = await call(c, 'search_external_terms', { cursor: first.next_cursor });
  assert.equal(reused.body.error_code, 'cursor_invalid');

  // 'organ' is not in the evidence of the first page: it is cached, and a repeat costs no request.
  const before = hits;
  const again = await callOk(c, 'search_external_terms', { provider_id: 'ols', query: 'cardiac organ', limit: 2 });
  assert.equal(again.cache_hit, true);
  assert.equal(hits, before);
  // 'heart' echoes a label: never cached.
  await callOk(c, 'search_external_terms', { provider_id: 'ols', query: 'heart', limit: 2 });
  const echo = await callOk(c, 'search_external_terms', { provider_id: 'ols', query: 'heart', limit: 2 });
  assert.equal(echo.cache_hit, false);
});

test('inspect reports a term with license and version; fresh bypasses the cache', async () => {
  const one = await callOk(c, 'inspect_external_term', { provider_id: 'ols', ontology: 'uberon', iri: HEART });
  const r = one.result as Record<string, unknown>;
  assert.equal(r.entity_iri, HEART);
  assert.equal(r.license, LICENSE);
  assert.equal(r.provider_version, '2026-06-01');
  assert.equal(r.deprecated, false);
  assert.deepEqual(r.labels, [{ value: 'heart', language: 'en' }]);
  const two = await callOk(c, 'inspect_external_term', { provider_id: 'ols', ontology: 'uberon', iri: HEART });
  assert.equal(two.cache_hit, true);
  assert.equal((two.result as Record<string, unknown>).term_fingerprint, r.term_fingerprint);
  const fresh = await callOk(c, 'inspect_external_term', { provider_id: 'ols', ontology: 'uberon', iri: HEART, fresh: true });
  assert.equal(fresh.cache_hit, false);
  assert.equal((fresh.result as Record<string, unknown>).term_fingerprint, r.term_fingerprint, 'content unchanged: same term fingerprint');
  const missing = await call(c, 'inspect_external_term', {
    provider_id: 'ols',
    ontology: 'uberon',
    iri: 'http://purl.obolibrary.org/obo/UBERON_0000000',
  });
  assert.equal(missing.body.error_code, 'external_term_not_found');
  const notAllowed = await call(c, 'inspect_external_term', { provider_id: 'ols', ontology: 'chebi', iri: HEART });
  assert.equal(notAllowed.body.error_code, 'invalid_argument');
});

test('evidence that looks like a secret is refused, and refusals name the rule: network, unknown provider', async () => {
  const leak = await call(c, 'inspect_external_term', { provider_id: 'ols', ontology: 'uberon', iri: LEAKY });
  assert.equal(leak.body.error_code, 'provider_redaction_failed');
  assert.ok(!JSON.stringify(leak.body).includes('eyJ'));
  const denied = await call(c, 'search_external_terms', { provider_id: 'ols', query: 'x', network: 'deny' });
  assert.equal(denied.body.error_code, 'provider_network_denied');
  assert.ok(!JSON.stringify(denied.body).includes('127.0.0.1'), 'the bound origin is not disclosed');
  const unknown = await call(c, 'search_external_terms', { provider_id: 'nope', query: 'x' });
  assert.equal(unknown.body.error_code, 'provider_not_configured');
});

async function inspected(iri: string): Promise<string> {
  const r = await callOk(c, 'inspect_external_term', { provider_id: 'ols', ontology: 'uberon', iri, fresh: true });
  return (r.result as Record<string, unknown>).term_fingerprint as string;
}

test('propose then accept: a mapping to an existing class, a minted local class with its mapping, a reused IRI', async () => {
  const fp = await inspected(HEART);
  const mapping = {
    subject_id: 'http://example.org/zoo#Heart',
    predicate_id: 'skos:exactMatch',
    object_id: HEART,
    mapping_justification: 'semapv:ManualMappingCuration',
  };
  const wrong = await call(c, 'propose_term_reuse', {
    provider_id: 'ols',
    ontology: 'uberon',
    iri: HEART,
    term_fingerprint: 'sha256:' + '1'.repeat(64),
    action: 'add_mapping',
    mapping,
  });
  assert.equal(wrong.body.error_code, 'term_fingerprint_mismatch');
  const badMapping = await call(c, 'propose_term_reuse', {
    provider_id: 'ols',
    ontology: 'uberon',
    iri: HEART,
    term_fingerprint: fp,
    action: 'add_mapping',
    mapping: { ...mapping, object_id: LUNG },
  });
  assert.equal(badMapping.body.error_code, 'invalid_argument');

  const proposal = await callOk(c, 'propose_term_reuse', {
    provider_id: 'ols',
    ontology: 'uberon',
    iri: HEART,
    term_fingerprint: fp,
    action: 'add_mapping',
    mapping,
  });
  assert.equal(proposal.expires_in_seconds, 900);
  const body = proposal.proposal as Record<string, unknown>;
  const accepted = await callOk(c, 'accept_reuse_proposal', {
    proposal_id: proposal.proposal_id,
    proposal_fingerprint: body.proposal_fingerprint,
    confirm: true,
    mapping_set_id: 'http://example.org/zoo/mappings',
    license: LICENSE,
  });
  assert.equal(accepted.status, 'accepted');
  assert.equal(accepted.committed, true);
  assert.equal((accepted.mapping as Record<string, unknown>).record_count, 1);
  const again = await call(c, 'accept_reuse_proposal', {
    proposal_id: proposal.proposal_id,
    proposal_fingerprint: body.proposal_fingerprint,
    confirm: true,
  });
  assert.equal(again.body.error_code, 'unknown_proposal', 'a proposal is accepted once');

  const lungFp = await inspected(LUNG);
  const mint = await callOk(c, 'propose_term_reuse', {
    provider_id: 'ols',
    ontology: 'uberon',
    iri: LUNG,
    term_fingerprint: lungFp,
    action: 'mint_local_with_mapping',
    local_entity: { iri: 'http://example.org/zoo#Lung', type: 'class', labels: [{ value: 'Lung', language: 'en' }] },
    mapping: {
      subject_id: 'http://example.org/zoo#Lung',
      predicate_id: 'skos:closeMatch',
      object_id: LUNG,
      mapping_justification: 'semapv:ManualMappingCuration',
    },
  });
  const minted = await callOk(c, 'accept_reuse_proposal', {
    proposal_id: mint.proposal_id,
    proposal_fingerprint: (mint.proposal as Record<string, unknown>).proposal_fingerprint,
    confirm: true,
  });
  assert.equal(minted.status, 'accepted');
  assert.equal((minted.mint_receipt as Record<string, unknown>).entity_iri, 'http://example.org/zoo#Lung');
  assert.equal((minted.mapping as Record<string, unknown>).record_count, 2);
  const entity = await callOk(c, 'get_entity', { entity: 'Lung' });
  assert.deepEqual(entity.matches, [{ iri: 'http://example.org/zoo#Lung', display: 'Lung', type: 'Class' }], 'declared and labelled');
  await callOk(c, 'undo_change');
  assert.equal((await call(c, 'get_entity', { entity: 'http://example.org/zoo#Lung' })).isError, true, 'the mint is one undo entry');

  const liverFp = await inspected(LIVER);
  const reuse = await callOk(c, 'propose_term_reuse', {
    provider_id: 'ols',
    ontology: 'uberon',
    iri: LIVER,
    term_fingerprint: liverFp,
    action: 'reuse_iri',
  });
  const receipt = await callOk(c, 'accept_reuse_proposal', {
    proposal_id: reuse.proposal_id,
    proposal_fingerprint: (reuse.proposal as Record<string, unknown>).proposal_fingerprint,
    confirm: true,
  });
  assert.equal(receipt.committed, false);
  assert.equal((receipt.receipt as Record<string, unknown>).entity_iri, LIVER);
});

test("a proposal goes stale when the model changes, and belongs to the session's principal only through its actor", async () => {
  const fp = await inspected(LIVER);
  const p = await callOk(c, 'propose_term_reuse', {
    provider_id: 'ols',
    ontology: 'uberon',
    iri: LIVER,
    term_fingerprint: fp,
    action: 'reuse_iri',
  });
  await callOk(c, 'add_subclass_of', { child: 'Heart', parent: 'Organ' });
  const stale = await call(c, 'accept_reuse_proposal', {
    proposal_id: p.proposal_id,
    proposal_fingerprint: (p.proposal as Record<string, unknown>).proposal_fingerprint,
    confirm: true,
  });
  assert.equal(stale.body.error_code, 'stale_model_revision');
  assert.equal(stale.body.committed, false);
});

test('the owner binding must be owner-only: a world-readable binding file refuses every provider', async () => {
  const config = path.join(home, 'providers', 'config.json');
  await chmod(config, 0o644);
  try {
    const refused = await call(c, 'search_external_terms', { provider_id: 'ols', query: 'x' });
    assert.equal(refused.body.error_code, 'provider_origin_unbound');
    assert.match(refused.body.error as string, /0600/);
  } finally {
    await chmod(config, 0o600);
  }
});

const POLICY_FILE = () => path.join(dir, '.athene', 'project.yaml');
const BINDING_FILE = () => path.join(home, 'providers', 'config.json');
const SET = { mapping_set_id: 'http://example.org/zoo/mappings', license: LICENSE };

/** Runs `body` with the project policy (and optionally the owner's binding) replaced, restoring both after. */
async function withReplaced(
  files: { policy?: string; binding?: (current: Record<string, unknown>) => Record<string, unknown> },
  body: () => Promise<void>,
): Promise<void> {
  const oldPolicy = await readFile(POLICY_FILE(), 'utf8');
  const oldBinding = await readFile(BINDING_FILE(), 'utf8');
  try {
    if (files.policy !== undefined) await writeFile(POLICY_FILE(), files.policy);
    if (files.binding !== undefined)
      await writeFile(BINDING_FILE(), JSON.stringify(files.binding(JSON.parse(oldBinding) as Record<string, unknown>)), { mode: 0o600 });
    await body();
  } finally {
    await writeFile(POLICY_FILE(), oldPolicy);
    await writeFile(BINDING_FILE(), oldBinding, { mode: 0o600 });
  }
}

test("a search cursor dies when the policy or the owner's binding changes, and under fresh_required once older than ttl_seconds", async () => {
  const page = async () =>
    (await callOk(c, 'search_external_terms', { provider_id: 'ols', query: 'organ of the body', limit: 1 })).next_cursor as string;
  const policyCursor = await page();
  const mixed = await call(c, 'search_external_terms', { cursor: policyCursor, query: 'other' });
  assert.equal(mixed.body.error_code, 'invalid_argument', 'a continuation takes the cursor alone');
  const foreign = await call(c, 'search_external_terms', { provider_id: 'ols', query: 'x', ontologies: ['uberon', 'chebi'] });
  assert.equal(foreign.body.error_code, 'invalid_argument', 'every ontology must be policy-allowed');
  await withReplaced({ policy: policy().replace('languages: [en]', 'languages: [en, fr]') }, async () => {
    const r = await call(c, 'search_external_terms', { cursor: policyCursor });
    assert.equal(r.body.error_code, 'provider_policy_changed');
    assert.equal(r.body.provider_id, 'ols');
  });
  const bindingCursor = await page();
  await withReplaced(
    { binding: (b) => ({ ...b, credentials: [{ id: 'spare', header: 'x-api-key', secret_file: 'spare.key' }] }) },
    async () => {
      assert.equal((await call(c, 'search_external_terms', { cursor: bindingCursor })).body.error_code, 'provider_authority_changed');
    },
  );
  await withReplaced({ policy: policy('\n      freshness: fresh_required').replace('ttl_seconds: 600', 'ttl_seconds: 0') }, async () => {
    const first = await callOk(c, 'search_external_terms', { provider_id: 'ols', query: 'organ of the body', limit: 1 });
    assert.equal(first.cache_hit, false, 'ttl_seconds 0 disables the cache');
    const late = await call(c, 'search_external_terms', { cursor: first.next_cursor });
    assert.equal(late.body.error_code, 'provider_acquisition_stale');
  });
});

test('a provider naming a credential needs it bound, with its secret present and owner-only', async () => {
  await withReplaced({ policy: policy('\n      credential_id: key1') }, async () => {
    const unbound = await call(c, 'search_external_terms', { provider_id: 'ols', query: 'x' });
    assert.equal(unbound.body.error_code, 'provider_credential_unbound');
    assert.equal(unbound.body.effects_prevented, true);
  });
  await withReplaced(
    {
      policy: policy('\n      credential_id: key1'),
      binding: (b) => ({ ...b, credentials: [{ id: 'key1', header: 'x-api-key', secret_file: 'key1.secret' }] }),
    },
    async () => {
      const missing = await call(c, 'inspect_external_term', { provider_id: 'ols', ontology: 'uberon', iri: HEART });
      assert.equal(missing.body.error_code, 'provider_credential_missing');
    },
  );
});

test('accepting checks the proposal fingerprint, and refuses once the policy or the mapping store changed', async () => {
  const fp = await inspected(LIVER);
  const reuse = await callOk(c, 'propose_term_reuse', {
    provider_id: 'ols',
    ontology: 'uberon',
    iri: LIVER,
    term_fingerprint: fp,
    action: 'reuse_iri',
  });
  const reuseFp = (reuse.proposal as Record<string, unknown>).proposal_fingerprint;
  const wrong = await call(c, 'accept_reuse_proposal', {
    proposal_id: reuse.proposal_id,
    proposal_fingerprint: 'sha256:' + '2'.repeat(64),
    confirm: true,
  });
  assert.equal(wrong.body.error_code, 'proposal_fingerprint_mismatch');
  assert.equal(wrong.body.committed, false);
  await withReplaced({ policy: policy().replace('languages: [en]', 'languages: [en, fr]') }, async () => {
    const changed = await call(c, 'accept_reuse_proposal', {
      proposal_id: reuse.proposal_id,
      proposal_fingerprint: reuseFp,
      confirm: true,
    });
    assert.equal(changed.body.error_code, 'provider_policy_changed');
    assert.equal(changed.body.effects_prevented, true);
  });
  const receipt = await callOk(c, 'accept_reuse_proposal', {
    proposal_id: reuse.proposal_id,
    proposal_fingerprint: reuseFp,
    confirm: true,
  });
  assert.deepEqual(Object.keys(receipt.receipt as object).sort(), [
    'entity_iri',
    'mapping_revision',
    'model_revision',
    'policy_digest',
    'provider_id',
    'source_ontology',
    'target_fingerprint',
    'term_fingerprint',
  ]);
  assert.equal(receipt.interactive_confirmation, false);

  const mapping = {
    subject_id: 'http://example.org/zoo#Organ',
    predicate_id: 'skos:relatedMatch',
    object_id: LIVER,
    mapping_justification: 'semapv:ManualMappingCuration',
  };
  const wide = await call(c, 'propose_term_reuse', {
    provider_id: 'ols',
    ontology: 'uberon',
    iri: LIVER,
    term_fingerprint: fp,
    action: 'add_mapping',
    mapping: { ...mapping, comment: '€'.repeat(30_000) },
  });
  assert.equal(wide.body.error_code, 'invalid_argument', 'a cell is bounded at 64 KiB of UTF-8, not in characters');
  const p = await callOk(c, 'propose_term_reuse', {
    provider_id: 'ols',
    ontology: 'uberon',
    iri: LIVER,
    term_fingerprint: fp,
    action: 'add_mapping',
    mapping,
  });
  const listed = await callOk(c, 'list_mappings');
  await callOk(c, 'add_mapping', {
    expected_mapping_revision: listed.mapping_revision,
    confirm: true,
    ...SET,
    mapping: {
      subject_id: 'http://example.org/zoo#Heart',
      predicate_id: 'skos:relatedMatch',
      object_id: LUNG,
      mapping_justification: 'semapv:ManualMappingCuration',
    },
  });
  const stale = await call(c, 'accept_reuse_proposal', {
    proposal_id: p.proposal_id,
    proposal_fingerprint: (p.proposal as Record<string, unknown>).proposal_fingerprint,
    confirm: true,
  });
  assert.equal(stale.body.error_code, 'stale_mapping_revision');
  assert.equal(stale.body.committed, false);
  assert.equal((await callOk(c, 'list_mappings')).record_count, (listed.record_count as number) + 1, 'nothing more was written');
});

test('a mint whose mapping step fails is partial: the entity stays, the retry never mints again, the manual recovery is an add_mapping', async () => {
  const fp = await inspected(LIVER);
  const local = 'http://example.org/zoo#Liver';
  const p = await callOk(c, 'propose_term_reuse', {
    provider_id: 'ols',
    ontology: 'uberon',
    iri: LIVER,
    term_fingerprint: fp,
    action: 'mint_local_with_mapping',
    local_entity: { iri: local, type: 'class', labels: [{ value: 'Liver', language: 'en' }] },
    mapping: { subject_id: local, predicate_id: 'skos:exactMatch', object_id: LIVER, mapping_justification: 'semapv:Guessing' },
  });
  const args = {
    proposal_id: p.proposal_id,
    proposal_fingerprint: (p.proposal as Record<string, unknown>).proposal_fingerprint,
    confirm: true,
    ...SET,
  };
  const partial = await callOk(c, 'accept_reuse_proposal', args);
  assert.equal(partial.status, 'partial');
  assert.equal(partial.committed, true);
  const receipt = partial.mint_receipt as Record<string, unknown>;
  assert.equal(receipt.entity_iri, local);
  assert.ok((receipt.minted_revision as number) > (receipt.base_revision as number));
  assert.equal(receipt.mapping_set_license, LICENSE);
  assert.match(receipt.receipt_fingerprint as string, /^sha256:[0-9a-f]{64}$/);
  const error = partial.mapping_error as Record<string, unknown>;
  assert.equal(error.code, 'mappings_invalid');
  assert.equal(error.retryable, false, 'the same row fails the same way');
  const continuation = partial.continuation as Record<string, Record<string, unknown>>;
  assert.equal(continuation.retry?.tool, 'accept_reuse_proposal');
  assert.equal(continuation.manual_recovery?.tool, 'add_mapping');
  assert.equal(
    (continuation.manual_recovery?.arguments as Record<string, unknown>).expected_mapping_revision,
    (await callOk(c, 'list_mappings')).mapping_revision,
  );
  assert.deepEqual((await callOk(c, 'get_entity', { entity: 'Liver' })).matches, [{ iri: local, display: 'Liver', type: 'Class' }]);

  const retried = await callOk(c, 'accept_reuse_proposal', args);
  assert.equal(retried.status, 'partial');
  assert.deepEqual(retried.mint_receipt, receipt, 'the retry does not mint again');
  await callOk(c, 'undo_change');
  assert.equal((await call(c, 'get_entity', { entity: local })).isError, true);
});
