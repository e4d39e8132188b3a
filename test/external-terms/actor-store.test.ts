import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExternalTermStore, type Proposal, type SearchCursor } from '../../src/external-terms/actor-store.js';

const cursor = (grantId: string | null): SearchCursor => ({
  owner: 'o',
  grantId,
  providerId: 'ols',
  query: 'q',
  ontologies: ['go'],
  language: 'en',
  limit: 10,
  start: 10,
  expires: Date.now() + 60_000,
  policyDigest: 'p',
  bindingGeneration: 'b',
  acquiredAt: Date.now(),
});
const proposal = (id: string, grantId: string | null): Proposal => ({
  id,
  owner: 'o',
  grantId,
  fingerprint: 'f',
  body: {},
  expires: Date.now() + 60_000,
  claimed: false,
  minted: null,
});

test("revoking grants erases their cursors and proposals and keeps everyone else's", () => {
  const s = new ExternalTermStore();
  s.cursors.set('c1', cursor('g1'));
  s.cursors.set('c2', cursor('g2'));
  s.cursors.set('c3', cursor(null));
  s.proposals.set('p1', proposal('p1', 'g1'));
  s.proposals.set('p2', proposal('p2', null));
  s.revoke(new Set(['g1']));
  assert.deepEqual([...s.cursors.keys()], ['c2', 'c3']);
  assert.deepEqual([...s.proposals.keys()], ['p2']);
});
